package reference_test

// The answers of docs/SCENARIO.md, "Questions adapter writers ask", held
// to the reference engine: one test per question, each playing a small
// scenario on reference.Run and asserting what the section says.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// faqRun plays the scenario on the reference and fails on any error.
func faqRun(t *testing.T, bd *build.Builder) *model.Trace {
	t.Helper()
	tr, err := reference.Run(bd.Scenario())
	require.NoError(t, err)
	return tr
}

// faqEvents returns the events of one kind, in order.
func faqEvents(st model.Step, k model.EventKind) []model.Event {
	var out []model.Event
	for _, e := range st.Events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// faqPerm returns permanent id of a state, failing if it is absent.
func faqPerm(t *testing.T, st model.State, id model.ObjectID) *model.Permanent {
	t.Helper()
	p := st.Permanent(id)
	require.NotNil(t, p, "permanent %s is not on the battlefield", id)
	require.NotNil(t, p.Derived, "permanent %s has no derived values", id)
	return p
}

// Question 1: entering carries the new permanent's id, merging the
// card's, leaving the permanent's (with a move per component).
func TestFAQ_ZoneChangeIdsOnEnterMergeLeave(t *testing.T) {
	bd := build.New("faq-ids", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.A, "Gemrazer")
	bd.Card("c3", build.A, "Runeclaw Bear")
	bd.Put(build.A, model.Hand, "c1", "c2").Put(build.A, model.Graveyard, "c3")
	bd.Do(model.Action{Type: model.Cast, Object: "c1"},
		model.Action{Type: model.Resolve},
		model.Action{Type: model.Merge, Object: "c3", Target: "c1@1", Choices: model.Choices{Position: model.Bottom}},
		model.Action{Type: model.CastMutate, Object: "c2", Target: "c1@1"},
		model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}},
		model.Action{Type: model.Move, Object: "c1@1", To: model.Graveyard, Choices: model.Choices{Order: []model.ObjectID{"c2", "c1", "c3"}}})
	tr := faqRun(t, bd)

	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Object: "c1", From: model.Hand, To: model.StackZone, Objects: 1, Cards: 1}},
		faqEvents(tr.Steps[0], model.ZoneChange), "casting: the card's id")
	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Rule: "613.7d", Object: "c1@1", From: model.StackZone, To: model.Battlefield, Objects: 1, Cards: 1}},
		faqEvents(tr.Steps[1], model.ZoneChange), "entering: the new permanent's id, OBJECT@ACTION")
	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Rule: "730.2b", Object: "c3", From: model.Graveyard, To: model.Battlefield, Objects: 1, Cards: 1}},
		faqEvents(tr.Steps[2], model.ZoneChange), "a bare merge: the card's id, from the zone it left")
	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Rule: "730.2b", Object: "c2", From: model.StackZone, To: model.Battlefield, Objects: 1, Cards: 1}},
		faqEvents(tr.Steps[4], model.ZoneChange), "a mutating spell merging: the card's id, no moves")
	assert.Equal(t, []model.Event{{Kind: model.Merged, Rule: "702.140c", Object: "c1@1", Source: "c2"}}, faqEvents(tr.Steps[4], model.Merged))
	assert.Equal(t, []model.Component{build.Up("c2"), build.Up("c1"), build.Up("c3")}, faqPerm(t, tr.Steps[4].State, "c1@1").Components,
		"the same permanent, the same id (730.2c)")
	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Rule: "730.3", Object: "c1@1", From: model.Battlefield, To: model.Graveyard, Objects: 1, Cards: 3,
		Moves: []model.Placement{{Object: "c2", To: model.Graveyard, Owner: build.A}, {Object: "c1", To: model.Graveyard, Owner: build.A}, {Object: "c3", To: model.Graveyard, Owner: build.A}}}},
		faqEvents(tr.Steps[5], model.ZoneChange), "leaving: the permanent's id, a move per component, topmost first")
}

// Question 2: library_top and library_bottom are destinations of the
// action; the event and its moves say library, and the state says where.
func TestFAQ_LibraryTopAndBottomShowAsLibrary(t *testing.T) {
	bd := build.New("faq-library", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.A, "Gemrazer")
	bd.Card("c3", build.A, "Runeclaw Bear")
	bd.Card("c4", build.A, "Wandering Ones")
	bd.Put(build.A, model.Library, "c4")
	bd.Perm("p1", build.A, build.Up("c2"), build.Up("c1")).Perm("p2", build.A, build.Up("c3"))
	bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.LibraryBottom, Choices: model.Choices{Order: []model.ObjectID{"c1", "c2"}}},
		model.Action{Type: model.Move, Object: "p2", To: model.LibraryTop})
	tr := faqRun(t, bd)
	for i, st := range tr.Steps {
		zc := faqEvents(st, model.ZoneChange)
		require.Len(t, zc, 1)
		assert.Equal(t, model.Library, zc[0].To, "step %d: the event's to", i)
		for _, m := range zc[0].Moves {
			assert.Equal(t, model.Library, m.To, "step %d: move of %s", i, m.Object)
		}
	}
	assert.Equal(t, []model.ObjectID{"c4", "c1", "c2"}, tr.Steps[0].State.Player(build.A).Zones.Library, "bottom, in the scripted order, top first")
	assert.Equal(t, []model.ObjectID{"c3", "c4", "c1", "c2"}, tr.Steps[1].State.Player(build.A).Zones.Library, "top")

	// Wheel of Sun and Moon sends cards to the bottom: library as well.
	wb := build.New("faq-library-wheel", "")
	wb.Card("w", build.A, "Wheel of Sun and Moon")
	wb.Card("c1", build.A, "Grizzly Bears")
	wb.Perm("pw", build.A, build.Up("w")).Mod("pw", func(p *model.Permanent) { p.EnchantedPlayer = build.A })
	wb.Perm("p1", build.A, build.Up("c1"))
	wb.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard})
	zc := faqEvents(faqRun(t, wb).Steps[0], model.ZoneChange)
	require.Len(t, zc, 1)
	assert.Equal(t, model.Library, zc[0].To)
	assert.Equal(t, []model.Placement{{Object: "c1", To: model.Library, Owner: build.A, By: "pw"}}, zc[0].Moves)
}

// Question 3: a created token's zone change has object, to and objects:
// no from, no cards, no moves.
func TestFAQ_CreatedTokenZoneChangeHasNoFromNorCards(t *testing.T) {
	bd := build.New("faq-token-event", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Def("Saproling Token")
	bd.Perm("p1", build.A, build.Up("c1"))
	bd.Do(model.Action{Type: model.CreateToken, Token: "t1", Def: "Saproling Token", Player: build.B},
		model.Action{Type: model.TokenCopy, Object: "p1", Token: "t2", Player: build.A},
		model.Action{Type: model.Move, Object: "t1@0", To: model.Graveyard})
	tr := faqRun(t, bd)
	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Rule: "613.7d", Object: "t1@0", To: model.Battlefield, Objects: 1}},
		faqEvents(tr.Steps[0], model.ZoneChange), "create_token")
	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Rule: "613.7d", Object: "t2@1", To: model.Battlefield, Objects: 1}},
		faqEvents(tr.Steps[1], model.ZoneChange), "create_token_copy")
	assert.Equal(t, []model.Event{{Kind: model.ZoneChange, Object: "t1@0", From: model.Battlefield, To: model.Graveyard, Objects: 1,
		Moves: []model.Placement{{Object: "t1", To: model.Graveyard, Owner: build.B}}}},
		faqEvents(tr.Steps[2], model.ZoneChange), "leaving: moves, but still no cards")
	assert.Equal(t, []model.Event{{Kind: model.CeaseToExist, Rule: "704.5d", Object: "t1"}}, faqEvents(tr.Steps[2], model.CeaseToExist))
	plain := reference.Plain(tr)
	assert.Equal(t, model.Event{Kind: model.ZoneChange, Object: "t1@0", To: model.Battlefield, Objects: 1}, faqEvents(plain.Steps[0], model.ZoneChange)[0], "--plain drops the rule")
}

// Question 4: reveal names the permanent; its owner reveals its face-down
// components, tokens too, as it leaves (708.9); its controller reveals
// them when an instant keeps it face down (730.2g); Wheel of Sun and
// Moon's reveal names its source and cards only.
func TestFAQ_RevealCarriesTheObjectAndWhoReveals(t *testing.T) {
	t.Run("708.9 leaving", func(t *testing.T) {
		bd := build.New("faq-reveal-leave", "")
		bd.Card("c1", build.A, "Grizzly Bears")
		bd.Card("c2", build.A, "Gemrazer")
		bd.Token("t1", build.A, "Saproling Token")
		bd.Perm("p1", build.B, build.Down("c1", model.ByManifest), build.Up("c2"), build.Down("t1", model.ByEffect))
		bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: model.Choices{Order: []model.ObjectID{"c1", "c2"}}})
		assert.Equal(t, []model.Event{{Kind: model.Reveal, Rule: "708.9", Object: "p1", Player: build.A, Revealed: []model.ObjectID{"c1", "t1"}}},
			faqEvents(faqRun(t, bd).Steps[0], model.Reveal), "the owner (A), not the controller (B); face-down components only, the token too")
	})
	t.Run("708.9 face-down token", func(t *testing.T) {
		bd := build.New("faq-reveal-token", "")
		bd.Def("Saproling Token")
		bd.Do(model.Action{Type: model.CreateToken, Token: "t1", Def: "Saproling Token", Player: build.A},
			model.Action{Type: model.TurnFaceDown, Object: "t1@0"},
			model.Action{Type: model.Move, Object: "t1@0", To: model.Graveyard})
		assert.Equal(t, []model.Event{{Kind: model.Reveal, Rule: "708.9", Object: "t1@0", Player: build.A, Revealed: []model.ObjectID{"t1"}}},
			faqEvents(faqRun(t, bd).Steps[2], model.Reveal))
	})
	t.Run("730.2g turning face up", func(t *testing.T) {
		bd := build.New("faq-reveal-face-up", "")
		bd.Card("c1", build.A, "Grizzly Bears")
		bd.Card("c2", build.A, "Lightning Bolt")
		bd.Token("t1", build.A, "Saproling Token")
		bd.Perm("p1", build.B, build.Down("c1", model.ByManifest), build.Down("c2", model.ByManifest), build.Down("t1", model.ByEffect))
		bd.Do(model.Action{Type: model.TurnFaceUp, Object: "p1"})
		st := faqRun(t, bd).Steps[0]
		assert.Equal(t, []model.Event{{Kind: model.Reveal, Rule: "730.2g", Object: "p1", Player: build.B, Revealed: []model.ObjectID{"c1", "c2", "t1"}}},
			faqEvents(st, model.Reveal), "the controller (B); every face-down component, the token too")
		assert.True(t, faqPerm(t, st.State, "p1").Status.FaceDown, "it stays face down")
	})
	t.Run("Wheel of Sun and Moon", func(t *testing.T) {
		bd := build.New("faq-reveal-wheel", "")
		bd.Card("w", build.A, "Wheel of Sun and Moon")
		bd.Card("c1", build.A, "Grizzly Bears")
		bd.Card("c2", build.A, "Gemrazer")
		bd.Token("t1", build.A, "Saproling Token")
		bd.Perm("pw", build.A, build.Up("w")).Mod("pw", func(p *model.Permanent) { p.EnchantedPlayer = build.A })
		bd.Perm("p1", build.B, build.Up("c2"), build.Up("c1"), build.Up("t1"))
		bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Order: []model.ObjectID{"c2", "c1"}}})
		assert.Equal(t, []model.Event{{Kind: model.Reveal, Object: "p1", Source: "pw", Player: build.A, Revealed: []model.ObjectID{"c2", "c1"}}},
			faqEvents(faqRun(t, bd).Steps[0], model.Reveal), "source, not rule; cards only")
	})
}

// Question 5: a created token is no object of the scenario: the action
// names it, its permanent is TOKEN@ACTION, and new_objects never lists it.
func TestFAQ_CreatedTokensAreNamedByTheAction(t *testing.T) {
	bd := build.New("faq-token-names", "")
	bd.Def("Saproling Token")
	bd.Do(model.Action{Type: model.NextTurn},
		model.Action{Type: model.CreateToken, Token: "t1", Def: "Saproling Token", Player: build.B})
	s := bd.Scenario()
	assert.Nil(t, s.Object("t1"), "not in objects")
	tr, err := reference.Run(s)
	require.NoError(t, err)
	assert.Empty(t, tr.NewObjects)
	assert.Nil(t, tr.Steps[0].State.Permanent("t1@1"), "nowhere before its action")
	p := faqPerm(t, tr.Steps[1].State, "t1@1")
	assert.Equal(t, []model.Component{{Object: "t1"}}, p.Components)
	assert.Equal(t, build.B, p.Controller)
	assert.True(t, p.Derived.Token)

	// Naming the token in objects too is an error of the scenario.
	bad := build.New("faq-token-in-objects", "")
	bad.Token("t1", build.A, "Saproling Token")
	bad.Do(model.Action{Type: model.CreateToken, Token: "t1", Def: "Saproling Token", Player: build.A})
	_, err = reference.Run(bad.Scenario())
	require.ErrorIs(t, err, reference.ErrInvalid)
	assert.Contains(t, err.Error(), `token id "t1" is already an object`)
}

// Question 6: face down, a merged permanent has none of its components'
// abilities, its top's included: the face-down values, ward {2} for a
// disguised or cloaked top, and what counters and Equipment give.
func TestFAQ_FaceDownMergedPermanentHasNoComponentAbilities(t *testing.T) {
	bd := build.New("faq-face-down-merged", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.A, "Gemrazer")
	bd.Card("c3", build.A, "Runeclaw Bear")
	bd.Card("c4", build.A, "Vulpikeet")
	bd.Card("c5", build.A, "Wandering Ones")
	bd.Card("c6", build.A, "Dreamtail Heron")
	bd.Card("g", build.A, "Lightning Greaves")
	bd.Perm("p1", build.A, build.Up("c2"), build.Up("c1"))
	bd.Perm("p2", build.A, build.Down("c3", model.ByCloak), build.Up("c4"))
	bd.Perm("p3", build.A, build.Down("c5", model.ByManifest), build.Up("c6")).
		Mod("p3", func(p *model.Permanent) { p.Counters = map[string]int{"flying": 1, "+1/+1": 1} })
	bd.Perm("pg", build.A, build.Up("g")).Mod("pg", func(p *model.Permanent) { p.AttachedTo = "p3" })
	bd.Do(model.Action{Type: model.TurnFaceDown, Object: "p1"})
	st := faqRun(t, bd).Steps[0].State

	faceDown := model.Characteristics{Types: []string{"creature"}, Power: model.Int(2), Toughness: model.Int(2)}
	assert.Equal(t, faceDown, faqPerm(t, st, "p1").Derived.Characteristics, "Gemrazer on top: no mutate, reach, trample or on_mutate")
	cloaked := faceDown
	cloaked.Abilities = []model.AbilityID{model.Ward2}
	assert.Equal(t, cloaked, faqPerm(t, st, "p2").Derived.Characteristics, "a cloaked top: ward {2} only, not Vulpikeet's flying")
	pumped := model.Characteristics{Types: []string{"creature"}, Power: model.Int(3), Toughness: model.Int(3),
		Abilities: []model.AbilityID{"flying", "haste", "shroud"}}
	assert.Equal(t, pumped, faqPerm(t, st, "p3").Derived.Characteristics, "counters and Lightning Greaves still apply")
}

// Question 7: a melded permanent is melded and double-faced, neither
// merged nor transformed.
func TestFAQ_MeldedPermanentIsDoubleFaced(t *testing.T) {
	bd := build.New("faq-melded-flags", "")
	bd.Card("c1", build.A, "Graf Rats")
	bd.Card("c2", build.A, "Midnight Scavengers")
	bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.A, build.Up("c2"))
	bd.Do(model.Action{Type: model.Meld, Object: "p1", With: "p2"})
	p := faqPerm(t, faqRun(t, bd).Steps[0].State, "c1@0")
	assert.Equal(t, []model.Component{build.BackUp("c1"), build.BackUp("c2")}, p.Components)
	d := *p.Derived
	d.Characteristics = model.Characteristics{}
	assert.Equal(t, model.Derived{Melded: true, DoubleFaced: true}, d, "melded and double_faced; merged, transformed, token and commander false")
}

// Question 8: a token half melds nothing: both are exiled, the token
// ceases to exist, the card stays in exile (701.42b-c).
func TestFAQ_MeldWithATokenHalfMeldsNothing(t *testing.T) {
	bd := build.New("faq-meld-token-half", "")
	bd.Card("c1", build.A, "Graf Rats")
	bd.Card("c2", build.A, "Midnight Scavengers")
	bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.A, build.Up("c2"))
	bd.Do(model.Action{Type: model.TokenCopy, Object: "p2", Token: "t1", Player: build.A},
		model.Action{Type: model.Meld, Object: "p1", With: "t1@0"},
		model.Action{Type: model.Meld, Object: "p1", With: "p2"})
	tr := faqRun(t, bd)

	st := tr.Steps[1]
	var left []model.ObjectID
	for _, e := range faqEvents(st, model.ZoneChange) {
		assert.Equal(t, model.Battlefield, e.From)
		assert.Equal(t, model.Exile, e.To)
		left = append(left, e.Object)
	}
	assert.Equal(t, []model.ObjectID{"p1", "t1@0"}, left, "both exiled; nothing enters")
	assert.Equal(t, []model.Event{{Kind: model.CeaseToExist, Rule: "704.5d", Object: "t1"}}, faqEvents(st, model.CeaseToExist))
	assert.Equal(t, []model.Event{{Kind: model.NothingHappens, Rule: "701.42c", Object: "p1"}}, faqEvents(st, model.NothingHappens))
	assert.Empty(t, faqEvents(st, model.Trigger))
	assert.Equal(t, []model.ObjectID{"c1"}, st.State.Player(build.A).Zones.Exile)
	require.Len(t, st.State.Battlefield, 1)
	assert.Equal(t, model.ObjectID("p2"), st.State.Battlefield[0].ID)

	// Told to meld again with its pair gone, the other half stays.
	again := tr.Steps[2]
	assert.Equal(t, []model.Event{{Kind: model.NothingHappens, Rule: "701.42c", Object: "p1"}}, again.Events)
	faqPerm(t, again.State, "p2")
}

// faqDiverging is an engine that plays as the reference does but answers
// that it could not play the scenario's last action, or, with broken
// set, that it failed.
type faqDiverging struct{ broken bool }

func (faqDiverging) Info() engine.Info {
	return engine.Info{Name: "faq-diverging", Version: "0", Features: model.Features, Observers: model.Observers}
}

func (e faqDiverging) Run(_ context.Context, s *model.Scenario) (*model.Trace, error) {
	if e.broken {
		return nil, errors.New("invalid: the adapter found the scenario malformed")
	}
	tr, err := reference.Run(s)
	if err != nil {
		return nil, err
	}
	n := len(s.Actions) - 1
	tr.Steps = tr.Steps[:n]
	return nil, &engine.Divergence{Action: n, Reason: "p1 is gone in my game", Trace: tr}
}

// Question 9: a scenario an adapter gets is one the reference plays, so
// an engine that can't play an action answers diverged, a finding judged
// on its steps; a forbidden action is a not_allowed step; what the
// reference can't play never reaches an adapter.
func TestFAQ_DivergedNotInvalidForAPlayableScenario(t *testing.T) {
	bd := build.New("faq-diverged", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.A, "Gemrazer")
	bd.Card("c3", build.A, "Elite Vanguard")
	bd.Put(build.A, model.Hand, "c2")
	bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.A, build.Up("c3"))
	bd.Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p2"},
		model.Action{Type: model.Move, Object: "p1", To: model.Graveyard})
	s := bd.Scenario()
	tr, err := reference.Run(s)
	require.NoError(t, err)
	assert.Equal(t, []model.Event{{Kind: model.NotAllowed, Rule: "702.140a", Object: "c2"}}, tr.Steps[0].Events, "a Human target: a step naming the action's object, not an error")
	assert.Equal(t, tr.Start.Battlefield, tr.Steps[0].State.Battlefield, "the state unchanged")

	// The engine could not play action 1: the steps before it are judged,
	// and the case fails, naming the action.
	got, problems, err := harness.PlayAndJudge(context.Background(), faqDiverging{}, s, properties.All)
	require.NoError(t, err)
	require.NotNil(t, got)
	assert.Len(t, got.Steps, 1)
	require.NotEmpty(t, problems, "a divergence is a finding")
	assert.Contains(t, problems[len(problems)-1].Error(), "could not play action 1 (move)")

	// An engine error is no finding: it comes back as an error.
	_, problems, err = harness.PlayAndJudge(context.Background(), faqDiverging{broken: true}, s, properties.All)
	require.Error(t, err)
	assert.Empty(t, problems)

	// A scenario the reference can't play as scripted is never judged.
	gone := build.New("faq-not-playable", "")
	gone.Card("c1", build.A, "Grizzly Bears")
	gone.Perm("p1", build.A, build.Up("c1"))
	gone.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}, model.Action{Type: model.Tap, Object: "p1"})
	_, err = reference.Run(gone.Scenario())
	var ae *reference.ActionError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 1, ae.Index)
	assert.ErrorIs(t, err, reference.ErrInvalid)
	_, _, err = harness.PlayAndJudge(context.Background(), faqDiverging{}, gone.Scenario(), properties.All)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the reference engine can't play this scenario")
}

// Question 10: transforming a merged permanent turns its modal double-
// faced components as well as its transforming ones (730.2i); a lone
// modal permanent turns too; a face-down component is refused.
func TestFAQ_730_2i_ModalComponentsTurnToo(t *testing.T) {
	bd := build.New("faq-730.2i-modal", "")
	bd.Card("c1", build.A, "Gemrazer")
	bd.Card("c2", build.A, "Kazandu Mammoth")
	bd.Card("c3", build.A, "Delver of Secrets")
	bd.Card("c4", build.A, "Kazandu Mammoth")
	bd.Perm("p1", build.A, build.Up("c1"), build.Up("c2"), build.Up("c3")).Perm("p2", build.A, build.Up("c4"))
	bd.Do(model.Action{Type: model.Transform, Object: "p1"},
		model.Action{Type: model.Transform, Object: "p2"},
		model.Action{Type: model.Convert, Object: "p2"})
	tr := faqRun(t, bd)

	p1 := faqPerm(t, tr.Steps[0].State, "p1")
	assert.Equal(t, []model.Component{build.Up("c1"), build.BackUp("c2"), build.BackUp("c3")}, p1.Components)
	assert.Equal(t, []model.Event{{Kind: model.StatusChange, Rule: "730.2i", Object: "p1"}}, tr.Steps[0].Events)
	assert.False(t, p1.Derived.DoubleFaced)
	assert.False(t, p1.Derived.Transformed)
	assert.Equal(t, "Gemrazer", p1.Derived.Characteristics.Name)
	assert.Contains(t, p1.Derived.Characteristics.Abilities, model.AbilityID("tap_add_g"), "Kazandu Valley's ability, mutated")

	p2 := faqPerm(t, tr.Steps[1].State, "p2")
	assert.Equal(t, []model.Component{build.BackUp("c4")}, p2.Components, "a lone modal permanent turns too")
	assert.Equal(t, "Kazandu Valley", p2.Derived.Characteristics.Name)
	assert.True(t, p2.Derived.Transformed)
	assert.Equal(t, model.FaceSide(model.Front), faqPerm(t, tr.Steps[2].State, "p2").Components[0].Face, "convert turns it back")

	down := build.New("faq-730.2i-face-down", "")
	down.Card("c1", build.A, "Gemrazer")
	down.Card("c2", build.A, "Delver of Secrets")
	down.Perm("p1", build.A, build.Up("c1"), build.Down("c2", model.ByManifest))
	down.Do(model.Action{Type: model.Transform, Object: "p1"})
	_, err := reference.Run(down.Scenario())
	var ue *reference.UnsupportedError
	require.ErrorAs(t, err, &ue)
	assert.Equal(t, "transform-merged-with-face-down-component", ue.Feature)
}

// Question 11: abilities and the other set-valued characteristics are
// compared as sets (order and repeats aside); steps is null for a
// scenario without actions, and null, [] or absent read alike.
func TestFAQ_AbilitiesAreSetsAndStepsMayBeNull(t *testing.T) {
	bd := build.New("faq-sets", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.A, "Gemrazer")
	bd.Card("c3", build.A, "Vulpikeet")
	bd.Put(build.A, model.Hand, "c3")
	bd.Perm("p1", build.A, build.Up("c2"), build.Up("c1"))
	bd.Do(model.Action{Type: model.CastMutate, Object: "c3", Target: "p1"},
		model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}})
	s := bd.Scenario()
	want := faqRun(t, bd)
	sorted := []model.AbilityID{"flying", "mutate", "on_mutate", "reach", "trample"}
	assert.Equal(t, sorted, faqPerm(t, want.Steps[1].State, "p1").Derived.Characteristics.Abilities, "the reference: sorted, each once")

	got := reference.Plain(faqRun(t, bd))
	ab := &faqPerm(t, got.Steps[1].State, "p1").Derived.Characteristics.Abilities
	assert.Equal(t, []model.AbilityID{"trample", "reach", "on_mutate", "mutate", "flying"}, *ab, "--plain: reversed")
	*ab = append(*ab, "flying") // a repeat
	assert.NoError(t, properties.Departure(&properties.Case{Scenario: s, Trace: got, Reference: want}), "order and repeats don't count")
	*ab = (*ab)[1:] // without trample
	assert.Error(t, properties.Departure(&properties.Case{Scenario: s, Trace: got, Reference: want}), "a missing ability does")

	zero := build.New("faq-no-steps", "")
	zero.Card("c1", build.A, "Grizzly Bears")
	zero.Perm("p1", build.A, build.Up("c1"))
	tr := faqRun(t, zero)
	assert.Nil(t, tr.Steps)
	enc, err := model.Encode(tr)
	require.NoError(t, err)
	assert.Contains(t, string(enc), `"steps": null`)
	for _, steps := range []string{`"steps": []`, ``} {
		text := strings.Replace(string(enc), `"steps": null`, steps, 1)
		text = strings.Replace(text, ",\n  \n}", "\n}", 1)
		if steps == "" {
			require.NotContains(t, text, `"steps"`)
		}
		_, err := model.DecodeTrace([]byte(text))
		assert.NoError(t, err, "steps written as %q", steps)
	}
}

// Question 12: next_turn sets controlled_since_turn_start on the
// permanents of the player whose turn begins; the other player's keep
// theirs.
func TestFAQ_NextTurnSetsControlledSinceTurnStart(t *testing.T) {
	bd := build.New("faq-next-turn", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.B, "Runeclaw Bear")
	bd.Card("c3", build.A, "Wandering Ones")
	bd.Put(build.A, model.Hand, "c3")
	bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.B, build.Up("c2"))
	bd.Mod("p2", func(p *model.Permanent) { p.ControlledSinceTurnStart = false })
	bd.Do(model.Action{Type: model.Cast, Object: "c3"},
		model.Action{Type: model.Resolve},
		model.Action{Type: model.NextTurn},
		model.Action{Type: model.NextTurn})
	tr := faqRun(t, bd)
	since := func(step int, id model.ObjectID) bool {
		return faqPerm(t, tr.Steps[step].State, id).ControlledSinceTurnStart
	}
	assert.False(t, since(1, "c3@1"), "a permanent that entered")
	assert.Equal(t, build.B, tr.Steps[2].State.Active)
	assert.True(t, since(2, "p2"), "B's turn began with p2 under B's control")
	assert.False(t, since(2, "c3@1"), "A's permanents keep theirs")
	assert.True(t, since(2, "p1"))
	assert.Equal(t, build.A, tr.Steps[3].State.Active)
	assert.True(t, since(3, "c3@1"), "A's turn began")
	assert.True(t, since(3, "p2"))
}
