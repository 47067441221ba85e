package properties_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Test707_2_UnsettledAbilitiesAreNotCompared: a mutated permanent that
// became a copy has abilities the rules leave open (CR 702.140e against
// 613.2a), so an engine may list either reading; its copied name, which
// the rules settle, is still compared.
func Test707_2_UnsettledAbilitiesAreNotCompared(t *testing.T) {
	bd := build.New("mutated-copy", "")
	bd.Card("c1", build.A, "Dimir Doppelganger")
	bd.Card("c2", build.A, "Gemrazer")
	bd.Card("r1", build.B, "Runeclaw Bear")
	s := bd.Perm("p1", build.A, build.Up("c2"), build.Up("c1")).Put(build.B, model.Graveyard, "r1").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "r1", Gains: []model.AbilityID{model.CopyExceptThis}}).Scenario()
	want, err := reference.Run(s)
	require.NoError(t, err)
	engine := func(change func(ch *model.Characteristics)) *model.Trace {
		got := *want
		got.Steps = []model.Step{want.Steps[0]}
		got.Steps[0].State = want.Steps[0].State.Clone()
		d := got.Steps[0].State.Permanent("p1").Derived
		d.Unsettled = nil
		change(&d.Characteristics)
		return &got
	}
	departs := func(got *model.Trace) error {
		return properties.Departure(&properties.Case{Scenario: s, Trace: got, Reference: properties.Settle(want, got)})
	}

	assert.NoError(t, departs(engine(func(*model.Characteristics) {})), "the copy's abilities alone")
	everyCard := engine(func(ch *model.Characteristics) {
		ch.Abilities = []model.AbilityID{"dimir_doppelganger", "mutate", "on_mutate", "reach", "trample"}
	})
	assert.NoError(t, departs(everyCard), "every component's abilities too (CR 702.140e)")
	assert.Error(t, properties.Departure(&properties.Case{Scenario: s, Trace: everyCard, Reference: want}),
		"without Settle the other reading departs: the test shows Settle at work")
	assert.Error(t, departs(engine(func(ch *model.Characteristics) { ch.Name = "Gemrazer" })), "the copied name is settled (CR 613.2a)")
	assert.Equal(t, []string{model.UnsettledAbilities}, want.Steps[0].State.Permanent("p1").Derived.Unsettled, "Settle leaves the rules' trace as it was")
}
