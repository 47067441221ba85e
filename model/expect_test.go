package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

func ptr[T any](v T) *T { return &v }

// claimTrace is one step after which p1 is a face-down manifested card
// under a face-up Gemrazer, attached to nothing, with a reveal and a
// zone change before a trigger.
func claimTrace() *model.Trace {
	two := 4
	return &model.Trace{Steps: []model.Step{{
		Action: 0,
		Events: []model.Event{
			{Kind: model.ZoneChange, Object: "c2"},
			{Kind: model.Trigger, Observer: model.Mutates, Object: "p1"},
		},
		State: model.State{Battlefield: []model.Permanent{{
			ID: "p1", Controller: "A",
			Components:               []model.Component{{Object: "c2"}, {Object: "c1", FaceDown: true, FaceDownBy: model.ByManifest}},
			ControlledSinceTurnStart: true,
			Derived: &model.Derived{Characteristics: model.Characteristics{
				Name: "Gemrazer", ManaValue: 4, Colors: []model.Color{model.Green}, Types: []string{"creature"},
				Subtypes: []string{"Beast"}, Power: &two, Toughness: &two, Abilities: []model.AbilityID{"mutate", "reach", "trample"},
			}},
		}}},
	}}}
}

// TestExpectation_ClaimsAboutAPermanent: each claim holds on the trace
// it describes and fails, naming what differs, on the one it does not.
func TestExpectation_ClaimsAboutAPermanent(t *testing.T) {
	tests := []struct {
		name      string
		holds     model.PermanentClaim
		fails     model.PermanentClaim
		failsWith string
	}{
		{"mana value", model.PermanentClaim{ManaValue: ptr(4)}, model.PermanentClaim{ManaValue: ptr(0)}, "mana value 4, want 0"},
		{"colours as a set", model.PermanentClaim{Colors: &[]model.Color{model.Green}}, model.PermanentClaim{Colors: &[]model.Color{}}, "colors [G], want exactly []"},
		{"types", model.PermanentClaim{Types: &[]string{"creature"}}, model.PermanentClaim{Types: &[]string{"artifact", "creature"}}, "types [creature]"},
		{"subtypes", model.PermanentClaim{Subtypes: &[]string{"Beast"}}, model.PermanentClaim{Subtypes: &[]string{}}, "subtypes [Beast]"},
		{"supertypes", model.PermanentClaim{Supertypes: &[]string{}}, model.PermanentClaim{Supertypes: &[]string{"Legendary"}}, "supertypes []"},
		{"abilities exactly, in any order", model.PermanentClaim{AbilitiesExactly: &[]model.AbilityID{"trample", "reach", "mutate"}}, model.PermanentClaim{AbilitiesExactly: &[]model.AbilityID{"reach", "mutate"}}, "abilities [mutate reach trample], want exactly [mutate reach]"},
		{"lacks", model.PermanentClaim{Lacks: []model.AbilityID{"flying"}}, model.PermanentClaim{Lacks: []model.AbilityID{"reach"}}, "has ability reach, want it absent"},
		{"faces", model.PermanentClaim{Faces: []model.FaceClaim{{Object: "c2"}, {Object: "c1", FaceDown: true}}}, model.PermanentClaim{Faces: []model.FaceClaim{{Object: "c2"}, {Object: "c1", Face: model.Back}}}, "components show"},
		{"attached to nothing", model.PermanentClaim{AttachedTo: ptr(model.ObjectID(""))}, model.PermanentClaim{AttachedTo: ptr(model.ObjectID("p2"))}, `attached to "", want "p2"`},
		{"controlled since the turn began", model.PermanentClaim{ControlledSinceTurnStart: ptr(true)}, model.PermanentClaim{ControlledSinceTurnStart: ptr(false)}, "controlled_since_turn_start=true, want false"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ok := model.Expectation{Permanents: map[model.ObjectID]model.PermanentClaim{"p1": tc.holds}}
			assert.NoError(t, ok.Check(claimTrace()))
			bad := model.Expectation{Permanents: map[model.ObjectID]model.PermanentClaim{"p1": tc.fails}}
			assert.ErrorContains(t, bad.Check(claimTrace()), tc.failsWith)
		})
	}
}

// TestExpectation_NoRevealAndSequence: no_reveal fails on a step with a
// reveal; a sequence holds for events in its order, others between them,
// and fails out of order.
func TestExpectation_NoRevealAndSequence(t *testing.T) {
	tr := claimTrace()
	assert.NoError(t, (&model.Expectation{NoReveal: true}).Check(tr))
	zoneThenTrigger := []model.EventClaim{{Kind: model.ZoneChange}, {Kind: model.Trigger, Observer: model.Mutates}}
	assert.NoError(t, (&model.Expectation{Sequence: zoneThenTrigger}).Check(tr))
	triggerThenZone := []model.EventClaim{zoneThenTrigger[1], zoneThenTrigger[0]}
	assert.ErrorContains(t, (&model.Expectation{Sequence: triggerThenZone}).Check(tr), "none zone_change after the ones before it")

	tr.Steps[0].Events = append(tr.Steps[0].Events, model.Event{Kind: model.Reveal, Player: "A", Revealed: []model.ObjectID{"c1"}})
	assert.ErrorContains(t, (&model.Expectation{NoReveal: true}).Check(tr), "[c1] revealed, want no reveal")
}

// Test733_NotAllowedMeansNoEventAndNoChange: a not-allowed claim holds
// only on a step that reports the action forbidden (by the rule it names,
// or by no rule: an engine need not cite one) and leaves the state as it
// was; an action that does nothing is not one that can't be taken, and an
// event citing another rule is not the one claimed.
func Test733_NotAllowedMeansNoEventAndNoChange(t *testing.T) {
	start := model.State{Battlefield: []model.Permanent{{ID: "p1", Controller: "A", Components: []model.Component{{Object: "c1"}}}}}
	tapped := start.Clone()
	tapped.Battlefield[0].Status.Tapped = true
	claim := model.Expectation{NotAllowed: "302.6"}
	step := func(st model.State, events ...model.Event) *model.Trace {
		return &model.Trace{Start: start, Steps: []model.Step{{Action: 0, Events: events, State: st}}}
	}
	forbidden := model.Event{Kind: model.NotAllowed, Rule: "302.6", Object: "p1"}
	assert.NoError(t, claim.Check(step(start, forbidden)))
	assert.ErrorContains(t, claim.Check(step(tapped, forbidden)), "the state changed")
	assert.NoError(t, claim.Check(step(start, model.Event{Kind: model.NotAllowed, Object: "p1"})))
	assert.ErrorContains(t, claim.Check(step(start)), "no not-allowed event (for 302.6)")
	assert.ErrorContains(t, claim.Check(step(start, model.Event{Kind: model.NothingHappens, Rule: "302.6"})), "no not-allowed event")
	assert.ErrorContains(t, claim.Check(step(start, model.Event{Kind: model.NotAllowed, Rule: "508.1a"})), "for 302.6")
}

// Test702_140b_NothingHappensNeedsNoCitation: a nothing-happens claim
// holds for an event citing its rule or none, not for one citing another
// rule or for no event.
func Test702_140b_NothingHappensNeedsNoCitation(t *testing.T) {
	start := model.State{Battlefield: []model.Permanent{{ID: "p1", Controller: "A", Components: []model.Component{{Object: "c1"}}}}}
	claim := model.Expectation{NothingHappens: "702.140b"}
	step := func(events ...model.Event) *model.Trace {
		return &model.Trace{Start: start, Steps: []model.Step{{Action: 0, Events: events, State: start}}}
	}
	assert.NoError(t, claim.Check(step(model.Event{Kind: model.NothingHappens, Rule: "702.140b"})))
	assert.NoError(t, claim.Check(step(model.Event{Kind: model.NothingHappens})))
	assert.ErrorContains(t, claim.Check(step(model.Event{Kind: model.NothingHappens, Rule: "708.2b"})), "no nothing-happens event (for 702.140b)")
	assert.ErrorContains(t, claim.Check(step()), "no nothing-happens event (for 702.140b)")
}

// TestExpectation_AttachedToEmptyClaimsAttachedToNothing: "attached_to": ""
// claims the permanent is attached to nothing, so it fails on an Aura
// that is attached and holds on one that is not; leaving the field out
// claims nothing. The claim survives a decode and an encode.
func TestExpectation_AttachedToEmptyClaimsAttachedToNothing(t *testing.T) {
	var nothing, none model.Expectation
	require.NoError(t, model.Unmarshal([]byte(`{"after": 0, "permanents": {"q1": {"attached_to": ""}}}`), &nothing))
	require.NoError(t, model.Unmarshal([]byte(`{"after": 0, "permanents": {"q1": {"controller": "B"}}}`), &none))
	require.NotNil(t, nothing.Permanents["q1"].AttachedTo, `"attached_to": "" is a claim`)
	out, err := model.Encode(nothing)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"attached_to": ""`, "encoding keeps the claim")

	aura := func(host model.ObjectID) *model.Trace {
		st := model.State{Battlefield: []model.Permanent{
			{ID: "p1", Controller: "A", Components: []model.Component{{Object: "c1"}}},
			{ID: "q1", Controller: "B", Components: []model.Component{{Object: "f1"}}, AttachedTo: host},
		}}
		return &model.Trace{Start: st, Steps: []model.Step{{Action: 0, State: st}}}
	}
	assert.ErrorContains(t, nothing.Check(aura("p1")), `q1 is attached to "p1", want ""`)
	assert.NoError(t, nothing.Check(aura("")))
	assert.NoError(t, none.Check(aura("p1")), "a claim without attached_to says nothing of it")
	assert.NoError(t, none.Check(aura("")))
}
