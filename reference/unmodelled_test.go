package reference_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// An ability the reference does not model is refused where it could change
// an action (unmodelled-ability), and one it does not know is refused once
// in play (unclassified-ability); elsewhere the action is played as before.

// requireRefused checks that s stops at action index with the refusal
// feature, and that its message holds every string in want.
func requireRefused(t *testing.T, s *model.Scenario, index int, feature string, want ...string) {
	t.Helper()
	requireUnsupported(t, s, index, feature)
	_, err := reference.Run(decoded(t, s))
	t.Log(err)
	for _, w := range want {
		assert.Contains(t, err.Error(), w)
	}
}

// requirePlayed checks that every action of s is played.
func requirePlayed(t *testing.T, s *model.Scenario) *model.Trace {
	t.Helper()
	s = decoded(t, s)
	tr, err := reference.Run(s)
	require.NoError(t, err)
	require.Len(t, tr.Steps, len(s.Actions))
	return tr
}

// attacker is Grizzly Bears c1, permanent p1 under A, which attacks.
func attacker(name string) *build.Builder {
	return bears(name).Do(model.Action{Type: model.Attack, Object: "p1"})
}

func Test508_1c_AnAuraThatForbidsAttackingMakesTheAttackNotAllowed(t *testing.T) {
	bd := attacker("508.1c-pacifism")
	bd.Card("f1", b, "Pacifism")
	s := bd.Perm("p2", b, up("f1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" }).Scenario()
	requireNotAllowed(t, s, 0, "508.1c")

	t.Run("aura_phased_out", func(t *testing.T) {
		// A phased-out Aura is treated as though it does not exist (CR
		// 702.26b): its restriction does not apply.
		s := bd.Mod("p2", func(p *model.Permanent) { p.Status.PhasedOut = true }).Scenario()
		tr := requirePlayed(t, s)
		assert.Equal(t, model.Attacks, tr.Steps[0].Events[0].Kind)
	})
}

func Test508_1a_AnAttackForbiddenAnywayIsNotAllowedRatherThanRefused(t *testing.T) {
	// An ability the reference does not model can't change an action
	// the rules it models forbid.
	bd := attacker("508.1a-pacifism-on-a-tapped-creature")
	bd.Card("f1", b, "Pacifism")
	s := bd.Perm("p2", b, up("f1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" }).
		Mod("p1", func(p *model.Permanent) { p.Status.Tapped = true }).Scenario()
	requireNotAllowed(t, s, 0, "508.1a")
}

func Test508_1c_AnAuraOnAnotherCreatureDoesNotStopAnAttack(t *testing.T) {
	bd := attacker("508.1c-pacifism-elsewhere")
	bd.Card("c2", b, "Runeclaw Bear")
	bd.Card("f1", b, "Pacifism")
	s := bd.Perm("p2", b, up("c2")).Perm("p3", b, up("f1")).Mod("p3", func(p *model.Permanent) { p.AttachedTo = "p2" }).Scenario()
	tr := requirePlayed(t, s)
	assert.Equal(t, model.Attacks, tr.Steps[0].Events[0].Kind)
}

func Test702_3b_ACreatureWithDefenderCantAttack(t *testing.T) {
	bd := build.New("702.3b-defender", "Wall of Omens, which has defender, attacks.")
	bd.Card("c1", a, "Wall of Omens")
	s := bd.Perm("p1", a, up("c1")).Do(model.Action{Type: model.Attack, Object: "p1"}).Scenario()
	requireNotAllowed(t, s, 0, "702.3b")
}

func Test702_3b_AFaceDownWallHasNoDefender(t *testing.T) {
	// A face-down permanent has no abilities (CR 708.2a): a manifested
	// Wall of Omens, or a merged permanent it tops face down, can attack.
	bd := build.New("702.3b-face-down-wall", "A manifested Wall of Omens attacks.")
	bd.Card("c1", a, "Wall of Omens")
	s := bd.Perm("p1", a, down("c1", model.ByManifest)).Do(model.Action{Type: model.Attack, Object: "p1"}).Scenario()
	tr := requirePlayed(t, s)
	assert.Equal(t, model.Attacks, tr.Steps[0].Events[0].Kind)
}

func Test702_3b_AMutatedWallThatBecameACopyIsRefused(t *testing.T) {
	// Whether a component's defender survives a copy effect that came
	// after the merge (CR 702.140e, 707.2) the rules do not say.
	bd := build.New("702.3b-copied-mutated-wall", "Gemrazer mutated over Dimir Doppelganger and Wall of Omens becomes a copy of Runeclaw Bear, then attacks.")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Dimir Doppelganger")
	bd.Card("c3", a, "Wall of Omens")
	bd.Card("r1", b, "Runeclaw Bear")
	s := bd.Perm("p1", a, up("c1"), up("c2"), up("c3")).Put(b, model.Graveyard, "r1").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "r1", Gains: []model.AbilityID{model.CopyExceptThis}},
			model.Action{Type: model.Attack, Object: "p1"}).Scenario()
	requireRefused(t, s, 1, "unsettled-ability", "p1", "defender", "702.140e")
}

func Test508_1d_AnotherCreatureAttackingBesideJuggernautIsRefused(t *testing.T) {
	bd := attacker("508.1d-juggernaut")
	bd.Card("j1", a, "Juggernaut")
	s := bd.Perm("p2", a, up("j1")).Scenario()
	requireRefused(t, s, 0, "unmodelled-ability", "attacks_each_combat", "p2 (Juggernaut)")

	t.Run("phased_out", func(t *testing.T) {
		// A phased-out Juggernaut is treated as though it does not exist
		// (CR 702.26b).
		s := bd.Mod("p2", func(p *model.Permanent) { p.Status.PhasedOut = true }).Scenario()
		requirePlayed(t, s)
	})
}

// greaves is Grizzly Bears p1 under A equipped with Lightning Greaves p2,
// and Gemrazer c2 in A's hand.
func greaves(name string) *build.Builder {
	bd := bears(name)
	bd.Card("g1", a, "Lightning Greaves")
	bd.Card("c2", a, "Gemrazer")
	return bd.Perm("p2", a, up("g1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" }).Put(a, model.Hand, "c2")
}

// Test702_18a_AMutatingSpellCantTargetAPermanentWithShroud: shroud, here
// Lightning Greaves', makes the equipped creature an illegal target: the
// cast is not allowed (CR 601.2c), and a spell already on the stack
// resolves as a creature spell (702.140b).
func Test702_18a_AMutatingSpellCantTargetAPermanentWithShroud(t *testing.T) {
	t.Run("cast", func(t *testing.T) {
		s := greaves("702.18a-shroud-cast").Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
		requireNotAllowed(t, s, 0, "702.18a")
	})
	t.Run("resolve", func(t *testing.T) {
		s := greaves("702.18a-shroud-resolve").Do(model.Action{Type: model.Resolve}).Scenario()
		s.Start.Players[0].Zones.Hand = nil
		s.Start.Stack = []model.StackObject{{Object: "c2", Controller: a, Target: "p1"}}
		tr := requirePlayed(t, s)
		assert.Equal(t, model.Event{Kind: model.NothingHappens, Rule: "702.140b", Object: "c2"}, tr.Steps[0].Events[0])
		assert.Len(t, tr.Steps[0].State.Permanent("p1").Components, 1, "p1 stays as it was")
		assert.NotNil(t, tr.Steps[0].State.Permanent(model.EnteredID("c2", 0)), "c2 enters as a creature of its own")
	})
	t.Run("phased_out_equipment", func(t *testing.T) {
		// A phased-out Equipment grants nothing (CR 702.26b).
		s := greaves("702.18a-shroud-phased-out").Mod("p2", func(p *model.Permanent) { p.Status.PhasedOut = true }).
			Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
		assert.False(t, slices.ContainsFunc(requirePlayed(t, s).Steps[0].Events, func(e model.Event) bool { return e.Kind == model.NotAllowed }))
	})
	t.Run("illegal_anyway", func(t *testing.T) {
		// B's Gemrazer can't target A's creature (CR 702.140a), shroud or not.
		s := greaves("702.18a-shroud-other-owner").Do(model.Action{Type: model.CastMutate, Object: "c3", Target: "p1"}).Scenario()
		s.Objects = append(s.Objects, model.Object{ID: "c3", Def: "Gemrazer", Owner: b})
		s.Start.Players[1].Zones.Hand = []model.ObjectID{"c3"}
		requireNotAllowed(t, s, 0, "702.140a")
	})
	t.Run("not_targeted", func(t *testing.T) {
		s := greaves("702.18a-shroud-untargeted").Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
		requirePlayed(t, s)
	})
	t.Run("mutant", func(t *testing.T) {
		s := greaves("702.18a-shroud-mutant").Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
		tr, err := reference.RunMutant(decoded(t, s), "mutate-targets-shroud")
		require.NoError(t, err)
		assert.NotEqual(t, model.NotAllowed, tr.Steps[0].Events[0].Kind, "the mutant casts it")
	})
}

// Test702_11b_HexproofCountsOnlyAgainstAnOpponentsSpell: A's Gemrazer
// can be cast at A's creature with a hexproof counter while A controls
// it, not while B does: A's spell is then an opponent's (not_allowed,
// 702.11b). Without hexproof, B's control does not matter (702.140a asks
// only for the same owner). The mutants get each wrong.
func Test702_11b_HexproofCountsOnlyAgainstAnOpponentsSpell(t *testing.T) {
	hexproof := func(controller model.PlayerID, counters map[string]int) *model.Scenario {
		bd := bears("702.11b-hexproof")
		bd.Card("c2", a, "Gemrazer")
		bd.Put(a, model.Hand, "c2").Mod("p1", func(p *model.Permanent) { p.Controller, p.Counters = controller, counters })
		return bd.Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	}
	counter := map[string]int{"hexproof": 1}
	requirePlayed(t, hexproof(a, counter))
	requirePlayed(t, hexproof(b, nil))
	requireNotAllowed(t, hexproof(b, counter), 0, "702.11b")

	tr, err := reference.RunMutant(decoded(t, hexproof(b, counter)), "mutate-targets-hexproof")
	require.NoError(t, err)
	assert.NotEqual(t, model.NotAllowed, tr.Steps[0].Events[0].Kind, "mutate-targets-hexproof casts it")
	tr, err = reference.RunMutant(decoded(t, hexproof(a, counter)), "hexproof-as-shroud")
	require.NoError(t, err)
	assert.Equal(t, model.NotAllowed, tr.Steps[0].Events[0].Kind, "hexproof-as-shroud forbids its controller's spell")
}

// Test702_21a_WardCountersAnOpponentsSpellUnlessPaid: a cloaked creature
// has ward {2} (CR 701.58a). Cast at by its controller, ward does not
// trigger, and no payment may be scripted; cast at by an opponent, the
// scenario must say whether the caster pays. Paid, the spell stays on the
// stack; unpaid, it is countered and goes to its owner's graveyard
// (CR 701.6a). The mutants counter it wrongly, or send it elsewhere.
func Test702_21a_WardCountersAnOpponentsSpellUnlessPaid(t *testing.T) {
	cast := func(controller model.PlayerID, pays *bool) *model.Scenario {
		bd := build.New("702.21a-ward", "A cloaked creature has ward {2}.")
		bd.Card("c1", a, "Grizzly Bears")
		bd.Card("c2", a, "Gemrazer")
		bd.Perm("p1", a, down("c1", model.ByCloak)).Put(a, model.Hand, "c2").Mod("p1", func(p *model.Permanent) { p.Controller = controller })
		act := model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}
		act.Choices.May = pays
		return bd.Do(act).Scenario()
	}
	requirePlayed(t, cast(a, nil))
	requireInvalid(t, cast(a, model.Bool(true)), 0, "no ward triggers")
	requireInvalid(t, cast(b, nil), 0, "choices.may is required")
	requirePlayed(t, cast(b, model.Bool(true)))
	requirePlayed(t, cast(b, model.Bool(false)))

	onStack := func(tr *model.Trace) bool {
		st := tr.Steps[0].State.Stack
		return len(st) == 1 && st[0].Object == "c2"
	}
	tr, err := reference.Run(decoded(t, cast(b, model.Bool(true))))
	require.NoError(t, err)
	assert.True(t, onStack(tr), "a paid ward leaves the spell on the stack")
	tr, err = reference.Run(decoded(t, cast(b, model.Bool(false))))
	require.NoError(t, err)
	assert.False(t, onStack(tr), "an unpaid ward counters the spell")
	assert.Equal(t, []model.ObjectID{"c2"}, tr.Steps[0].State.Player(a).Zones.Graveyard, "CR 701.6a: the countered spell goes to its owner's graveyard")
	assert.Contains(t, tr.Steps[0].Events, model.Event{Kind: model.ZoneChange, Rule: "701.6a", Object: "c2", From: model.StackZone, To: model.Graveyard, Objects: 1, Cards: 1})
	tr, err = reference.RunMutant(decoded(t, cast(b, model.Bool(false))), "ward-never-counters")
	require.NoError(t, err)
	assert.True(t, onStack(tr), "ward-never-counters leaves an unpaid-for spell on the stack")
	tr, err = reference.RunMutant(decoded(t, cast(b, model.Bool(false))), "countered-spell-exiled")
	require.NoError(t, err)
	assert.Equal(t, []model.ObjectID{"c2"}, tr.Steps[0].State.Player(a).Zones.Exile, "countered-spell-exiled exiles the countered spell")
	tr, err = reference.RunMutant(decoded(t, cast(b, model.Bool(true))), "ward-ignores-payment")
	require.NoError(t, err)
	assert.False(t, onStack(tr), "ward-ignores-payment counters a paid-for spell")
	tr, err = reference.RunMutant(decoded(t, cast(a, nil)), "ward-on-own-spells")
	require.NoError(t, err)
	assert.False(t, onStack(tr), "ward-on-own-spells counters its controller's spell")
}

// Test702_16b_ProtectionFromRedCountsOnlyAgainstARedSpell: A's green
// Gemrazer can be cast at A's Soltari Priest, which has protection from
// red; A's Illuna, Apex of Wishes, which is red among its colours, can't
// (not_allowed, 702.16b). The mutants get each wrong.
func Test702_16b_ProtectionFromRedCountsOnlyAgainstARedSpell(t *testing.T) {
	cast := func(mutator string) *model.Scenario {
		bd := build.New("702.16b-protection", "Soltari Priest has protection from red.")
		bd.Card("c1", a, "Soltari Priest")
		bd.Card("c2", a, mutator)
		bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2")
		return bd.Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	}
	requirePlayed(t, cast("Gemrazer"))
	requireNotAllowed(t, cast("Illuna, Apex of Wishes"), 0, "702.16b")

	tr, err := reference.RunMutant(decoded(t, cast("Illuna, Apex of Wishes")), "mutate-targets-protection")
	require.NoError(t, err)
	assert.NotEqual(t, model.NotAllowed, tr.Steps[0].Events[0].Kind, "mutate-targets-protection casts it")
	tr, err = reference.RunMutant(decoded(t, cast("Gemrazer")), "protection-from-every-spell")
	require.NoError(t, err)
	assert.Equal(t, model.NotAllowed, tr.Steps[0].Events[0].Kind, "protection-from-every-spell forbids a green spell")
}

// Test702_16c_ARedAuraOnAPermanentWithProtectionFromRedIsRefused: the
// reference does not model what protection does to an attached red
// permanent, and refuses it by name.
func Test702_16c_ARedAuraOnAPermanentWithProtectionFromRedIsRefused(t *testing.T) {
	bd := build.New("702.16c-red-aura", "A red Aura enchants Soltari Priest.")
	bd.Card("c1", a, "Soltari Priest")
	bd.Card("c2", a, "Pacifism")
	bd.Perm("p1", a, up("c1")).Perm("p2", a, up("c2")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
	s := bd.Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
	requirePlayed(t, s)
	for i := range s.Catalogue {
		if s.Catalogue[i].Name == "Pacifism" {
			s.Catalogue[i].Front.ManaCost, s.Catalogue[i].Front.Colors = "{R}", []model.Color{model.Red}
		}
	}
	requireUnsupported(t, s, 0, "protection-from-an-attachment")
}

func Test614_1d_APermanentThatWouldEnterTappedIsRefused(t *testing.T) {
	bd := build.New("614.1d-enters-tapped", "A token copy of Kazandu Valley would enter tapped.")
	bd.Card("c1", a, "Kazandu Mammoth")
	s := bd.Perm("p1", a, back("c1")).Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a}).Scenario()
	requireRefused(t, s, 0, "unmodelled-ability", "enters_tapped", "t1@0 (Kazandu Valley)", "action 0 (create_token_copy)")

	t.Run("front_face", func(t *testing.T) {
		s := build.New("614.1d-enters-untapped", "A token copy of Kazandu Mammoth enters untapped.")
		s.Card("c1", a, "Kazandu Mammoth")
		requirePlayed(t, s.Perm("p1", a, up("c1")).Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a}).Scenario())
	})
}

func Test704_5m_AnAuraLeftOnANoncreatureIsRefused(t *testing.T) {
	bd := build.New("704.5m-aura-on-a-land", "False Demise enchants Kazandu Mammoth, which converts to a land.")
	bd.Card("c1", a, "Kazandu Mammoth")
	bd.Card("f1", a, "False Demise")
	bd.Perm("p1", a, up("c1")).Perm("p2", a, up("f1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
	s := bd.Do(model.Action{Type: model.Convert, Object: "p1"}).Scenario()
	requireRefused(t, s, 0, "unmodelled-ability", "enchant_creature", "p2 (False Demise)", "action 0 (convert)", "704.5m")

	t.Run("still_a_creature", func(t *testing.T) {
		bd := build.New("704.5m-aura-on-a-creature", "False Demise enchants Delver of Secrets, which transforms to a creature.")
		bd.Card("c1", a, "Delver of Secrets")
		bd.Card("f1", a, "False Demise")
		bd.Perm("p1", a, up("c1")).Perm("p2", a, up("f1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
		requirePlayed(t, bd.Do(model.Action{Type: model.Transform, Object: "p1"}).Scenario())
	})
}

func Test613_4c_ALordOfAnUnscriptedTypeIsRefusedFromTheStart(t *testing.T) {
	bd := bears("613.4c-adaptive-automaton")
	bd.Card("c2", a, "Adaptive Automaton")
	s := bd.Perm("p2", a, up("c2")).Scenario()
	requireRefused(t, s, -1, "unmodelled-ability", "lord_chosen_type", "p2 (Adaptive Automaton)", "the start state")
}

// mystery adds a card whose ability no one knows, as c9 owned by A.
func mystery(s *model.Scenario) *model.Scenario {
	s.Catalogue = append(s.Catalogue, model.CardDef{Name: "Mystery Bear", Layout: model.LayoutNormal, Front: model.Face{
		Name: "Mystery Bear", ManaCost: "{1}{G}", Colors: []model.Color{model.Green}, Types: []string{"creature"},
		Power: model.Int(2), Toughness: model.Int(2), Abilities: []model.AbilityID{"mystery_ability"}}})
	s.Objects = append(s.Objects, model.Object{ID: "c9", Def: "Mystery Bear", Owner: a})
	return s
}

func TestUnclassified_AnUnknownAbilityIsRefusedOnceInPlay(t *testing.T) {
	t.Run("at_the_start", func(t *testing.T) {
		s := mystery(bears("unclassified-start").Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario())
		s.Start.Battlefield = append(s.Start.Battlefield, model.Permanent{ID: "p9", Controller: a, Components: []model.Component{up("c9")}, Timestamp: 2})
		requireRefused(t, s, -1, "unclassified-ability", "mystery_ability", "p9 (Mystery Bear)", "in the start state", "does not know it")
	})
	t.Run("in_hand", func(t *testing.T) {
		s := mystery(bears("unclassified-in-hand").Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario())
		s.Start.Players[0].Zones.Hand = []model.ObjectID{"c9"}
		requirePlayed(t, s)
	})
	t.Run("entering", func(t *testing.T) {
		s := mystery(bears("unclassified-entering").Do(model.Action{Type: model.Cast, Object: "c9"}, model.Action{Type: model.Resolve}).Scenario())
		s.Start.Players[0].Zones.Hand = []model.ObjectID{"c9"}
		requireRefused(t, s, 1, "unclassified-ability", "mystery_ability", "c9@1 (Mystery Bear)", "after action 1 (resolve)")
	})
}

func Test122_1b_AKeywordCounterAddedWhilePlayingIsLookedOutFor(t *testing.T) {
	// A generator adds actions one at a time: an indestructible counter
	// put on by an action it appended counts as much as one in the
	// scenario.
	p, err := reference.NewPlay(decoded(t, bears("122.1b-indestructible-counter-added").Scenario()))
	require.NoError(t, err)
	destroy := model.Action{Type: model.DestroyAll}
	_, err = p.Probe(destroy)
	require.NoError(t, err)
	require.NoError(t, p.Do(model.Action{Type: model.AddCounters, Object: "p1", Counter: "indestructible", N: 1}))
	_, err = p.Probe(destroy)
	var ue *reference.UnsupportedError
	require.ErrorAs(t, err, &ue)
	assert.Equal(t, "destroy-indestructible", ue.Feature)
}

// Test509_AStaticAbilityAboutBlockingIsInert: a static ability declared
// about blocking ("can't be blocked by more than one creature") changes
// nothing an action of the format does, since none declares blockers
// (CR 509), as flying and menace change nothing: a Delver of Secrets
// transforms beside it. Declared as a plain static ability, it is refused
// (uninterpreted-static-ability), as it could change anything.
func Test509_AStaticAbilityAboutBlockingIsInert(t *testing.T) {
	const ab = model.AbilityID("cant_be_blocked_by_more_than_one")
	scenario := func(about string) *model.Scenario {
		bd := build.New("509-a-static-about-blocking-beside-a-transform", "A Delver transforms beside a creature that can't be blocked by more than one creature.", "509", "701.27")
		bd.Card("c1", a, "Delver of Secrets")
		bd.Card("c2", a, "Grizzly Bears")
		d := bd.DefOf("c2")
		d.Front.Abilities = append(d.Front.Abilities, ab)
		d.Front.AbilityKinds = map[model.AbilityID]model.AbilityKind{ab: {Kind: model.KindStatic, About: about}}
		return bd.Perm("p1", a, up("c1")).Perm("p2", a, up("c2")).Do(model.Action{Type: model.Transform, Object: "p1"}).Scenario()
	}
	tr := requirePlayed(t, scenario(model.AboutBlocking))
	assert.Equal(t, "Insectile Aberration", tr.Steps[0].State.Permanent("p1").Derived.Characteristics.Name)
	requireUnsupported(t, scenario(""), -1, "uninterpreted-static-ability")
}
