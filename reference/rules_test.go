package reference_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// play runs the scenario and fails the test on any error.
func play(t *testing.T, bd *build.Builder) *model.Trace {
	t.Helper()
	tr, err := reference.Run(bd.Scenario())
	require.NoError(t, err)
	return tr
}

// last returns the final step of a trace.
func last(tr *model.Trace) model.Step { return tr.Steps[len(tr.Steps)-1] }

func perm(t *testing.T, st model.State, id model.ObjectID) *model.Permanent {
	t.Helper()
	p := st.Permanent(id)
	require.NotNil(t, p, "permanent %s is not on the battlefield", id)
	return p
}

func count(events []model.Event, o model.Observer) int {
	n := 0
	for _, e := range events {
		if e.Kind == model.Trigger && e.Observer == o {
			n++
		}
	}
	return n
}

func kinds(events []model.Event, k model.EventKind) []model.Event {
	var out []model.Event
	for _, e := range events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func components(p *model.Permanent) []model.ObjectID {
	var ids []model.ObjectID
	for _, c := range p.Components {
		ids = append(ids, c.Object)
	}
	return ids
}

// ignoreComponents compares permanents apart from their stack of
// components, derived values and timestamp, which merging may change.
var ignoreComponents = cmpopts.IgnoreFields(model.Permanent{}, "Components", "Derived", "Mutated")

func Test730_2_MergePutsTheObjectOnTopOrUnder(t *testing.T) {
	for _, tc := range []struct {
		name string
		pos  model.Position
		want []model.ObjectID
	}{
		{"top", model.Top, []model.ObjectID{"c2", "c1"}},
		{"bottom", model.Bottom, []model.ObjectID{"c1", "c2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bd := build.New("merge", "")
			bd.Card("c1", a, "Grizzly Bears")
			bd.Card("c2", a, "Runeclaw Bear")
			bd.Perm("p1", a, up("c1")).Put(a, model.Graveyard, "c2").
				Do(model.Action{Type: model.Merge, Object: "c2", Target: "p1", Choices: model.Choices{Position: tc.pos}})
			st := last(play(t, bd)).State
			require.Len(t, st.Battlefield, 1, "merging makes no new permanent")
			p := perm(t, st, "p1")
			assert.Equal(t, tc.want, components(p))
			assert.True(t, p.Derived.Merged)
			assert.Empty(t, st.Player(a).Zones.Graveyard)
		})
	}
}

func Test730_2a_OnlyTheTopmostComponentsCharacteristics(t *testing.T) {
	bd := build.New("merge", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Grizzly Bears")
	bd.Perm("p1", a, up("c1")).Put(a, model.Graveyard, "c2").
		Do(model.Action{Type: model.Merge, Object: "c2", Target: "p1", Choices: model.Choices{Position: model.Top}})
	got := perm(t, last(play(t, bd)).State, "p1").Derived.Characteristics
	want := model.Characteristics{Name: "Grizzly Bears", ManaValue: 2, Colors: []model.Color{model.Green},
		Types: []string{"creature"}, Subtypes: []string{"Bear"}, Power: model.Int(2), Toughness: model.Int(2)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a bare merge (not a mutation) gives only the topmost component's characteristics, abilities included (-want +got):\n%s", diff)
	}
}

func Test702_140e_MutatedPermanentHasEveryComponentsAbilities(t *testing.T) {
	bd := build.New("mutate", "")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	bd.Card("c3", a, "Vulpikeet")
	bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2", "c3").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"},
			model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}},
			model.Action{Type: model.CastMutate, Object: "c3", Target: "p1"},
			model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}})
	tr := play(t, bd)
	ch := perm(t, last(tr).State, "p1").Derived.Characteristics
	assert.Equal(t, "Grizzly Bears", ch.Name)
	assert.Equal(t, []model.AbilityID{"flying", "mutate", "on_mutate", "reach", "trample"}, ch.Abilities)
	// Every "whenever this creature mutates" ability triggers, top or bottom.
	assert.Equal(t, 2, count(last(tr).Events, model.Mutates))
}

func Test730_2b_MergingIsNotEnteringTheBattlefield(t *testing.T) {
	bd := build.New("mutate", "")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"},
			model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}})
	tr := play(t, bd)
	step := last(tr)
	assert.Zero(t, count(step.Events, model.CreatureEnters))
	assert.Equal(t, tr.Start.Battlefield[0].Timestamp, perm(t, step.State, "p1").Timestamp, "no new timestamp: nothing entered")
	moved := kinds(step.Events, model.ZoneChange)
	require.Len(t, moved, 1)
	assert.Equal(t, model.Event{Kind: model.ZoneChange, Rule: "730.2b", Object: "c2", From: model.StackZone, To: model.Battlefield, Objects: 1, Cards: 1}, moved[0])
}

func Test730_2c_MergedPermanentIsTheSameObject(t *testing.T) {
	bd := build.New("mutate", "")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	// Owned by A, controlled by B, under A's pump, not controlled since B's turn began.
	bd.Perm("p1", b, up("c1")).Put(a, model.Hand, "c2").
		Mod("p1", func(p *model.Permanent) {
			p.ControlledSinceTurnStart = false
			p.Status.Tapped = true
			p.Counters = map[string]int{"-1/-1": 1}
			p.Effects = []model.Effect{{Kind: model.EffectPump, Timestamp: 5, Power: 3, Toughness: 3, UntilEndOfTurn: true}}
		}).
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"},
			model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}})
	tr := play(t, bd)
	before, after := tr.Start.Battlefield[0], *perm(t, last(tr).State, "p1")
	if diff := cmp.Diff(before, after, ignoreComponents); diff != "" {
		t.Errorf("merging changed the permanent beyond its components (-before +after):\n%s", diff)
	}
	assert.Equal(t, 6, *after.Derived.Characteristics.Power, "Gemrazer 4/4, -1/-1 counter, +3/+3 effect")
}

func Test730_2d_TokenOnlyIfTopmostIsToken(t *testing.T) {
	for _, tc := range []struct {
		name   string
		comps  []model.Component
		token  bool
		reason string
	}{
		{"token-on-card", []model.Component{up("t1"), up("c1")}, true, "a token on top makes a token"},
		{"card-on-token", []model.Component{up("c1"), up("t1")}, false, "a card on top makes a nontoken permanent"},
		{"card-on-token-on-card", []model.Component{up("c1"), up("t1"), up("c2")}, false, "only the topmost component counts"},
		{"token-on-cards", []model.Component{up("t1"), up("c1"), up("c2")}, true, "only the topmost component counts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bd := build.New("token", "")
			bd.Card("c1", a, "Gemrazer")
			bd.Card("c2", a, "Vulpikeet")
			bd.Token("t1", a, "Beast Token")
			bd.Perm("p1", a, tc.comps...).Do(model.Action{Type: model.Tap, Object: "p1"})
			assert.Equal(t, tc.token, perm(t, last(play(t, bd)).State, "p1").Derived.Token, tc.reason)
		})
	}
}

func Test730_2e_TopmostComponentDecidesFaceDownStatus(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pos      model.Position
		faceDown bool
	}{{"face-up-on-top", model.Top, false}, {"face-up-underneath", model.Bottom, true}} {
		t.Run(tc.name, func(t *testing.T) {
			bd := build.New("face down", "")
			bd.Card("c1", a, "Grizzly Bears")
			bd.Card("c2", a, "Gemrazer")
			bd.Perm("p1", a, down("c1", model.ByManifest)).Put(a, model.Hand, "c2").
				Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"},
					model.Action{Type: model.Resolve, Choices: model.Choices{Position: tc.pos}})
			step := last(play(t, bd))
			p := perm(t, step.State, "p1")
			assert.Equal(t, tc.faceDown, p.Status.FaceDown)
			assert.True(t, p.Components[indexOf(tc.pos)].FaceDown == false || tc.faceDown, "the other component keeps its own state")
			assert.Zero(t, count(step.Events, model.TurnedFaceUp), "becoming face up by merging is not turning face up")
		})
	}
}

func indexOf(p model.Position) int {
	if p == model.Top {
		return 0
	}
	return 1
}

func Test730_2f_TurningAMergedPermanentTurnsEveryComponent(t *testing.T) {
	bd := build.New("turn", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Grizzly Bears")
	bd.Card("c3", a, "Runeclaw Bear")
	bd.Perm("p1", a, up("c1"), down("c2", model.ByManifest), up("c3")).
		Do(model.Action{Type: model.TurnFaceDown, Object: "p1"})
	tr := play(t, bd)
	p := perm(t, tr.Steps[0].State, "p1")
	want := []model.Component{down("c1", model.ByEffect), down("c2", model.ByManifest), down("c3", model.ByEffect)}
	if diff := cmp.Diff(want, p.Components); diff != "" {
		t.Errorf("turned face down (-want +got):\n%s", diff)
	}
	bd.Do(model.Action{Type: model.TurnFaceUp, Object: "p1"})
	tr = play(t, bd)
	p = perm(t, last(tr).State, "p1")
	if diff := cmp.Diff([]model.Component{up("c1"), up("c2"), up("c3")}, p.Components); diff != "" {
		t.Errorf("turned face up (-want +got):\n%s", diff)
	}
	assert.Equal(t, 1, count(last(tr).Events, model.TurnedFaceUp), "one permanent turned face up")
	assert.Greater(t, p.Timestamp, tr.Steps[0].State.Battlefield[0].Timestamp, "CR 613.7f: a new timestamp")
}

func Test730_2g_InstantOrSorceryKeepsMergedPermanentFaceDown(t *testing.T) {
	for _, card := range []string{"Lightning Bolt", "Divination"} {
		t.Run(card, func(t *testing.T) {
			bd := build.New("g", "")
			bd.Card("c1", a, "Gemrazer")
			bd.Card("c2", a, card)
			bd.Perm("p1", a, down("c1", model.ByEffect), down("c2", model.ByManifest)).
				Do(model.Action{Type: model.TurnFaceUp, Object: "p1"})
			tr := play(t, bd)
			step := last(tr)
			if diff := cmp.Diff(tr.Start.Battlefield, step.State.Battlefield); diff != "" {
				t.Errorf("the permanent changed (-before +after):\n%s", diff)
			}
			require.Len(t, kinds(step.Events, model.Reveal), 1)
			assert.Equal(t, model.RuleID("730.2g"), kinds(step.Events, model.NothingHappens)[0].Rule)
			assert.Zero(t, count(step.Events, model.TurnedFaceUp))
		})
	}
}

func Test730_2h_FlippedMergedPermanentUsesAlternativeCharacteristics(t *testing.T) {
	bd := build.New("h", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Nezumi Shortfang")
	bd.Perm("p1", a, up("c2"), up("c1")).Do(model.Action{Type: model.Flip, Object: "p1"})
	ch := perm(t, last(play(t, bd)).State, "p1").Derived.Characteristics
	assert.Equal(t, "Stabwhisker the Odious", ch.Name)
	assert.Equal(t, []string{"Legendary"}, ch.Supertypes)
	assert.Equal(t, 2, ch.ManaValue, "CR 710.1c: the mana cost stays Nezumi Shortfang's")
	assert.Equal(t, []model.Color{model.Black}, ch.Colors, "CR 710.1c: the color stays")
	assert.Contains(t, ch.Abilities, model.AbilityID("trample"), "Gemrazer's abilities remain (CR 702.140e)")
}

func Test730_2i_MergedPermanentIsNotDoubleFaced(t *testing.T) {
	bd := build.New("i", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Delver of Secrets")
	bd.Card("c3", a, "Valakut Awakening")
	bd.Perm("p1", a, up("c1"), up("c2"), down("c3", model.ByManifest)).
		Mod("p1", func(p *model.Permanent) { p.Mutated = false }).
		Do(model.Action{Type: model.TurnFaceUp, Object: "p1"})
	_, err := reference.Run(bd.Scenario())
	require.ErrorIs(t, err, reference.ErrInvalid, "p1 is face up")

	bd = build.New("i", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Delver of Secrets")
	bd.Card("c3", a, "Valakut Awakening")
	bd.Perm("p1", a, up("c1"), up("c2")).Do(model.Action{Type: model.Transform, Object: "p1"})
	p := perm(t, last(play(t, bd)).State, "p1")
	assert.Equal(t, []model.Component{up("c1"), back("c2")}, p.Components)
	assert.False(t, p.Derived.DoubleFaced, "CR 730.2i")
	assert.False(t, p.Derived.Transformed, "CR 701.27g")
}

func Test730_2j_MergedWithDoubleFacedComponentCantTurnFaceDown(t *testing.T) {
	for _, card := range []string{"Delver of Secrets", "Graf Rats", "Kazandu Mammoth"} {
		t.Run(card, func(t *testing.T) {
			bd := build.New("j", "")
			bd.Card("c1", a, "Gemrazer")
			bd.Card("c2", a, card)
			bd.Perm("p1", a, up("c1"), up("c2")).Do(model.Action{Type: model.TurnFaceDown, Object: "p1"})
			tr := play(t, bd)
			if diff := cmp.Diff(tr.Start.Battlefield, last(tr).State.Battlefield); diff != "" {
				t.Errorf("nothing may change, not even copiable values (-before +after):\n%s", diff)
			}
			assert.Equal(t, model.RuleID("730.2j"), kinds(last(tr).Events, model.NothingHappens)[0].Rule)
		})
	}
}

func Test730_3_OnePermanentLeavesEachComponentMoves(t *testing.T) {
	bd := build.New("3", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Token("t1", a, "Beast Token")
	bd.Card("c2", a, "Grizzly Bears")
	bd.Perm("p1", a, up("c1"), up("t1"), up("c2")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Hand})
	step := last(play(t, bd))
	zc := kinds(step.Events, model.ZoneChange)
	require.Len(t, zc, 1, "one permanent leaves")
	assert.Equal(t, 1, zc[0].Objects)
	assert.Equal(t, 2, zc[0].Cards)
	assert.Equal(t, []model.Placement{{Object: "c1", To: model.Hand, Owner: a}, {Object: "t1", To: model.Hand, Owner: a}, {Object: "c2", To: model.Hand, Owner: a}}, zc[0].Moves)
	assert.Equal(t, []model.ObjectID{"c1", "c2"}, step.State.Player(a).Zones.Hand, "the token ceased to exist (CR 704.5d)")
	require.Len(t, kinds(step.Events, model.CeaseToExist), 1)
}

func Test730_3a_OwnerOrdersCardsIntoGraveyardOrLibrary(t *testing.T) {
	for _, tc := range []struct {
		to   model.Zone
		zone model.Zone
		want []model.ObjectID
	}{
		{model.Graveyard, model.Graveyard, []model.ObjectID{"c2", "c1", "x1"}},
		{model.LibraryTop, model.Library, []model.ObjectID{"c2", "c1", "x1"}},
		{model.LibraryBottom, model.Library, []model.ObjectID{"x1", "c2", "c1"}},
	} {
		t.Run(string(tc.to), func(t *testing.T) {
			bd := build.New("3a", "")
			bd.Card("c1", a, "Gemrazer")
			bd.Card("c2", a, "Grizzly Bears")
			bd.Card("x1", a, "Runeclaw Bear")
			bd.Perm("p1", a, up("c1"), up("c2")).Put(a, tc.zone, "x1").
				Do(model.Action{Type: model.Move, Object: "p1", To: tc.to, Choices: order("c2", "c1")})
			st := last(play(t, bd)).State
			got, _ := st.Player(a).Zones.Get(tc.zone)
			assert.Equal(t, tc.want, got)
		})
	}
}

func Test730_3b_ExilingPlayerOrdersTimestamps(t *testing.T) {
	for _, ord := range [][]model.ObjectID{{"c1", "c2", "c3"}, {"c3", "c1", "c2"}} {
		bd := build.New("3b", "")
		bd.Card("c1", a, "Gemrazer")
		bd.Card("c2", a, "Grizzly Bears")
		bd.Card("c3", a, "Vulpikeet")
		bd.Card("x1", a, "Runeclaw Bear")
		bd.Perm("p1", a, up("c1"), up("c2"), up("c3")).Put(a, model.Exile, "x1").
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: order(ord...)})
		st := last(play(t, bd)).State
		assert.Equal(t, append([]model.ObjectID{"x1"}, ord...), st.Player(a).Zones.Exile, "earliest timestamp first")
	}
}

func Test730_3c_EffectFindsEveryCardStillWhereItWent(t *testing.T) {
	bd := build.New("3c", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Grizzly Bears")
	bd.Card("d1", b, "Dimir Doppelganger")
	bd.Perm("p1", a, up("c1"), up("c2")).Perm("p2", b, up("d1")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c1", "c2")},
			// The Doppelganger exiles one of the two cards: it is a new object now (CR 400.7).
			model.Action{Type: model.BecomeCopy, Object: "p2", Card: "c2"},
			model.Action{Type: model.Return, Object: "p1", Player: b})
	st := last(play(t, bd)).State
	assert.NotNil(t, st.Permanent("c1@2"), "the card still in the graveyard is found")
	assert.Nil(t, st.Permanent("c2@2"), "the card that left the graveyard is not")
}

func Test730_3d_OneReplacementEffectAppliesToEveryComponent(t *testing.T) {
	for _, pick := range []model.ObjectID{"p2", "p3"} {
		t.Run(string(pick), func(t *testing.T) {
			bd := build.New("3d", "")
			bd.Card("c1", a, "Gemrazer")
			bd.Card("c2", a, "Grizzly Bears")
			bd.Card("y1", b, "Leyline of the Void")
			bd.Card("w1", b, "Wheel of Sun and Moon")
			bd.Perm("p1", a, up("c1"), up("c2")).Perm("p2", b, up("y1")).Perm("p3", b, up("w1")).
				Mod("p3", func(p *model.Permanent) { p.EnchantedPlayer = a }).
				Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Replacement: pick, Order: []model.ObjectID{"c1", "c2"}}})
			zc := kinds(last(play(t, bd)).Events, model.ZoneChange)[0]
			for _, m := range zc.Moves {
				assert.Equal(t, pick, m.By, "%s was moved by another effect", m.Object)
				assert.Equal(t, zc.Moves[0].To, m.To)
			}
		})
	}
}

func Test730_3e_CardOnlyReplacementAndTokens(t *testing.T) {
	for _, tc := range []struct {
		name   string
		comps  []model.Component
		want   []model.Placement
		dies   int
		reason string
	}{
		{"nontoken", []model.Component{up("c1"), up("t1")},
			[]model.Placement{{Object: "c1", To: model.Exile, Owner: a, By: "p2"}, {Object: "t1", To: model.Exile, Owner: a, By: "p2"}}, 0,
			"every component of a nontoken merged permanent, tokens included, is exiled"},
		{"token", []model.Component{up("t1"), up("c1")},
			[]model.Placement{{Object: "t1", To: model.Graveyard, Owner: a}, {Object: "c1", To: model.Exile, Owner: a, By: "p2"}}, 1,
			"the token merged permanent and its token go to the graveyard; only the card is exiled"},
		{"lone-token", []model.Component{up("t1")},
			[]model.Placement{{Object: "t1", To: model.Graveyard, Owner: a}}, 1,
			"an effect on cards does not touch a lone token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bd := build.New("3e", "")
			bd.Card("c1", a, "Gemrazer")
			bd.Token("t1", a, "Beast Token")
			bd.Card("y1", b, "Leyline of the Void")
			bd.Perm("p1", a, tc.comps...).Perm("p2", b, up("y1")).
				Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard})
			step := last(play(t, bd))
			assert.Equal(t, tc.want, kinds(step.Events, model.ZoneChange)[0].Moves, tc.reason)
			assert.Equal(t, tc.dies, count(step.Events, model.CreatureDies))
		})
	}
}

func Test110_5_StatusSurvivesMerging(t *testing.T) {
	bd := build.New("110.5", "")
	bd.Card("c1", a, "Nezumi Shortfang")
	bd.Card("c2", a, "Gemrazer")
	bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Mod("p1", func(p *model.Permanent) { p.Status = model.Status{Tapped: true, Flipped: true} }).
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"},
			model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}})
	p := perm(t, last(play(t, bd)).State, "p1")
	assert.Equal(t, model.Status{Tapped: true, Flipped: true}, p.Status)
	assert.Equal(t, "Stabwhisker the Odious", p.Derived.Characteristics.Name)
}

func Test110_5a_StatusIsNotCopied(t *testing.T) {
	bd := build.New("110.5a", "")
	bd.Card("c1", a, "Jushi Apprentice")
	bd.Perm("p1", a, up("c1")).Mod("p1", func(p *model.Permanent) { p.Status = model.Status{Tapped: true, Flipped: true} }).
		Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a})
	st := last(play(t, bd)).State
	tok := perm(t, st, "t1@0")
	assert.Equal(t, model.Status{}, tok.Status, "CR 707.2: status is not copied")
	assert.Equal(t, "Jushi Apprentice", tok.Derived.Characteristics.Name, "CR 707.3: the copy's own unflipped status applies")
	assert.Equal(t, "Tomoya the Revealer", perm(t, st, "p1").Derived.Characteristics.Name, "status changes characteristics but is not one")
}

func Test110_5b_PermanentsEnterWithDefaultStatus(t *testing.T) {
	bd := build.New("110.5b", "")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Grinning Demon")
	bd.Card("c3", a, "Runeclaw Bear")
	bd.Put(a, model.Hand, "c1", "c2").Put(a, model.Library, "c3").
		Do(model.Action{Type: model.Cast, Object: "c1"}, model.Action{Type: model.Resolve},
			model.Action{Type: model.Cast, Object: "c2", Method: model.ByMorph}, model.Action{Type: model.Resolve},
			model.Action{Type: model.Manifest, Player: a, Object: "c3", Method: model.ByManifest})
	st := last(play(t, bd)).State
	assert.Equal(t, model.Status{}, perm(t, st, "c1@1").Status, "untapped, unflipped, face up, phased in")
	assert.Equal(t, model.Status{FaceDown: true}, perm(t, st, "c2@3").Status, "unless a spell or ability says otherwise (CR 708.3)")
	assert.Equal(t, model.Status{FaceDown: true}, perm(t, st, "c3@4").Status)
	assert.False(t, perm(t, st, "c1@1").ControlledSinceTurnStart, "it came under its controller's control this turn")
}

func Test110_5c_StatusRetainedThroughPhasingAndCopying(t *testing.T) {
	bd := build.New("110.5c", "")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Nezumi Shortfang")
	bd.Card("d1", a, "Dimir Doppelganger")
	bd.Card("g1", b, "Grizzly Bears")
	bd.Perm("p1", a, up("c2"), up("c1")).Perm("p2", a, up("d1")).Put(b, model.Graveyard, "g1").
		Mod("p1", func(p *model.Permanent) { p.Status = model.Status{Tapped: true, Flipped: true} }).
		Mod("p2", func(p *model.Permanent) { p.Status = model.Status{Flipped: true} }).
		Do(model.Action{Type: model.PhaseOut, Object: "p1"}, model.Action{Type: model.PhaseIn, Object: "p1"},
			model.Action{Type: model.BecomeCopy, Object: "p2", Card: "g1"})
	st := last(play(t, bd)).State
	assert.Equal(t, model.Status{Tapped: true, Flipped: true}, perm(t, st, "p1").Status)
	assert.Equal(t, model.Status{Flipped: true}, perm(t, st, "p2").Status, "flipped status kept though Grizzly Bears can't flip")
}

func Test110_5d_StatusEndsWhenThePermanentLeaves(t *testing.T) {
	bd := build.New("110.5d", "")
	bd.Card("c1", a, "Nezumi Shortfang")
	bd.Card("c2", a, "Gemrazer")
	bd.Perm("p1", a, up("c1"), up("c2")).
		Mod("p1", func(p *model.Permanent) { p.Status = model.Status{Tapped: true, Flipped: true} }).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: order("c1", "c2")},
			model.Action{Type: model.Return, Object: "p1", Choices: order("c1", "c2")})
	st := last(play(t, bd)).State
	for _, id := range []model.ObjectID{"c1@1", "c2@1"} {
		assert.Equal(t, model.Status{}, perm(t, st, id).Status, "CR 710.4: no memory of its status")
	}
	assert.Equal(t, "Nezumi Shortfang", perm(t, st, "c1@1").Derived.Characteristics.Name)
}

func Test702_140b_IllegalTargetEntersAsCreature(t *testing.T) {
	bd := build.New("140b", "")
	bd.Card("c1", a, "Grizzly Bears")
	bd.Card("c2", a, "Gemrazer")
	bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"},
			model.Action{Type: model.PhaseOut, Object: "p1"},
			model.Action{Type: model.Resolve})
	step := last(play(t, bd))
	assert.Len(t, step.State.Battlefield, 2, "a phased-out target is illegal, so the spell enters on its own")
	assert.Equal(t, 1, count(step.Events, model.CreatureEnters))
	assert.Zero(t, count(step.Events, model.Mutates))
}

// Test702_140e_FaceDownComponentAddsWhatItsRuleLists: a face-down card
// under a face-up mutated permanent adds the abilities the rule that made
// it face down lists for the card (CR 702.37c, 701.40a: none; 702.168a,
// 701.58a: ward {2}); what CR 708.2a leaves open is refused.
func Test702_140e_FaceDownComponentAddsWhatItsRuleLists(t *testing.T) {
	gemrazer := []model.AbilityID{"mutate", "on_mutate", "reach", "trample"}
	for _, tc := range []struct {
		by      model.FaceDownKind
		card    string
		adds    []model.AbilityID
		refused bool
	}{
		{by: model.ByMorph, card: "Grinning Demon"},
		{by: model.ByManifest, card: "Grizzly Bears"},
		{by: model.ByManifest, card: "Exalted Angel"},
		{by: model.ByDisguise, card: "Grizzly Bears", adds: []model.AbilityID{model.Ward2}},
		{by: model.ByCloak, card: "Exalted Angel", adds: []model.AbilityID{model.Ward2}},
		{by: model.ByEffect, card: "Grizzly Bears"},
		{by: model.ByEffect, card: "Exalted Angel", refused: true},
	} {
		t.Run(string(tc.by)+"/"+tc.card, func(t *testing.T) {
			bd := build.New("fd", "")
			bd.Card("c1", a, "Gemrazer")
			bd.Card("c2", a, tc.card)
			bd.Perm("p1", a, up("c1"), down("c2", tc.by)).Do(model.Action{Type: model.Tap, Object: "p1"})
			tr, err := reference.Run(bd.Scenario())
			if tc.refused {
				var u *reference.UnsupportedError
				require.True(t, errors.As(err, &u), "got %v", err)
				assert.Equal(t, "abilities-of-face-down-component", u.Feature)
				assert.Contains(t, u.Error(), "708.2a")
				return
			}
			require.NoError(t, err)
			want := slices.Sorted(slices.Values(append(slices.Clone(gemrazer), tc.adds...)))
			got := tr.Steps[0].State.Permanent("p1").Derived.Characteristics.Abilities
			assert.Equal(t, want, got)
		})
	}
}

// Test400_7_MimicVatThatExilesNothingReturnsNothing: the card that died
// left the graveyard before the imprint resolved, so it is a new object
// the ability can't find (CR 400.7); nothing is exiled, and the card
// exiled with Mimic Vat before stays, since it returns only if the
// ability exiles one.
func Test400_7_MimicVatThatExilesNothingReturnsNothing(t *testing.T) {
	bd := mimicVatWithOneExiled("400.7-mimic-vat-finds-nothing")
	bd.Card("d1", a, "Dimir Doppelganger")
	s := bd.Perm("p3", a, up("d1")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard},
			model.Action{Type: model.BecomeCopy, Object: "p3", Card: "c1"},
			model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true)}}).Scenario()
	tr, err := reference.Run(decoded(t, s))
	require.NoError(t, err)
	st := tr.Steps[2].State
	assert.Equal(t, []model.ObjectID{"g1"}, st.Player(b).Zones.Exile, "g1 stays exiled")
	assert.Empty(t, st.Player(b).Zones.Graveyard)
	assert.Equal(t, []model.Link{{Source: "p2", Cards: []model.ObjectID{"g1"}}}, st.Links)
}
