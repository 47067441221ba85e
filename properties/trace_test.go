package properties_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// mergeAndLeave is a scenario with a merge and a merged permanent leaving:
// c2 merges onto p1 from the graveyard, then p1 goes to the graveyard.
func mergeAndLeave(t *testing.T) (*model.Scenario, *model.Trace) {
	t.Helper()
	bd := build.New("merge-and-leave", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.A, "Runeclaw Bear")
	bd.Token("t1", build.A, "Saproling Token")
	bd.Put(build.A, model.Graveyard, "c2")
	bd.Perm("p1", build.A, build.Up("c1"), build.Up("t1")).Mod("p1", func(p *model.Permanent) { p.Mutated = false })
	bd.Do(model.Action{Type: model.Merge, Object: "c2", Target: "p1", Choices: model.Choices{Position: model.Top}},
		model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: model.Choices{Order: []model.ObjectID{"c2", "c1"}}})
	s := bd.Scenario()
	tr, err := reference.Run(s)
	require.NoError(t, err)
	return s, tr
}

// Test400_1_TraceAccountsForEveryObject: the reference's trace passes the
// trace check, and each way of losing track of an object fails it with a
// message that names the step and the object.
func Test400_1_TraceAccountsForEveryObject(t *testing.T) {
	s, ref := mergeAndLeave(t)
	require.NoError(t, properties.ValidTrace(&properties.Case{Scenario: s, Trace: ref, Reference: ref}))
	for _, tc := range []struct {
		name string
		edit func(tr *model.Trace)
		want string
	}{
		{"no steps", func(tr *model.Trace) { tr.Steps = nil }, "0 steps for 2 actions"},
		{"steps out of order", func(tr *model.Trace) { tr.Steps[0].Action, tr.Steps[1].Action = 1, 0 }, "step 0 of the trace is for action 1"},
		{"a card nowhere", func(tr *model.Trace) {
			p := &tr.Steps[0].State.Battlefield[0]
			p.Components = slices.DeleteFunc(p.Components, func(c model.Component) bool { return c.Object == "c1" })
		}, "card c1 is nowhere"},
		{"a card twice", func(tr *model.Trace) {
			pl := tr.Steps[0].State.Player(build.A)
			pl.Zones.Graveyard = append(pl.Zones.Graveyard, "c1")
		}, "c1 is both in"},
		{"another start", func(tr *model.Trace) { tr.Start.Battlefield[0].Status.Tapped = true }, "the trace starts with p1"},
		{"an unknown object", func(tr *model.Trace) {
			pl := tr.Steps[1].State.Player(build.A)
			pl.Zones.Hand = append(pl.Zones.Hand, "x9")
		}, "x9, which is no object of the scenario"},
		{"a permanent without derived values", func(tr *model.Trace) { tr.Steps[0].State.Battlefield[0].Derived = nil }, "has no derived values"},
		{"a new permanent misnamed", func(tr *model.Trace) { tr.Steps[0].State.Battlefield[0].ID = "p7" }, "new permanent p7 is not named OBJECT@0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cloneTrace(t, ref)
			tc.edit(got)
			err := properties.ValidTrace(&properties.Case{Scenario: s, Trace: got, Reference: ref})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Test400_1_TokensStayGoneOnceGone: a token that ceased to exist never
// comes back, even in the zone it left for.
func Test400_1_TokensStayGoneOnceGone(t *testing.T) {
	s, ref := mergeAndLeave(t)
	got := cloneTrace(t, ref)
	// t1 ceased to exist after action 1; put it back in a later state.
	s.Actions = append(s.Actions, model.Action{Type: model.NextTurn})
	ref2, err := reference.Run(s)
	require.NoError(t, err)
	got.Steps = append(got.Steps, ref2.Steps[2])
	pl := got.Steps[2].State.Player(build.A)
	pl.Zones.Graveyard = append(pl.Zones.Graveyard, "t1")
	err = properties.ValidTrace(&properties.Case{Scenario: s, Trace: got, Reference: ref2})
	assert.ErrorContains(t, err, "token t1, which had ceased to exist")
}

// TestDeparture_OrderOfSetsAndEventsMeansNothing: colours, types and
// abilities in another order, and events in another order within a step,
// are no departure from the rules; a changed power is.
func TestDeparture_OrderOfSetsAndEventsMeansNothing(t *testing.T) {
	s, ref := mergeAndLeave(t)
	got := cloneTrace(t, ref)
	p := &got.Steps[0].State.Battlefield[0]
	ch := &p.Derived.Characteristics
	ch.Colors = append([]model.Color{"U"}, ch.Colors...)
	slices.Reverse(ch.Colors)
	ch.Colors = ch.Colors[:len(ch.Colors)-1]
	ch.Types = append([]string{"artifact"}, ch.Types...)
	want := cloneTrace(t, ref)
	wch := &want.Steps[0].State.Battlefield[0].Derived.Characteristics
	wch.Types = append(wch.Types, "artifact")
	slices.Reverse(got.Steps[1].Events)
	c := &properties.Case{Scenario: s, Trace: got, Reference: want}
	assert.NoError(t, properties.Departure(c))

	power := 99
	got.Steps[0].State.Battlefield[0].Derived.Characteristics.Power = &power
	err := properties.Departure(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "after action 0 (merge), p1's characteristics")
	assert.Equal(t, "departure", properties.ClassOf(err))
}

func cloneTrace(t *testing.T, tr *model.Trace) *model.Trace {
	t.Helper()
	b, err := model.Encode(tr)
	require.NoError(t, err)
	out, err := model.DecodeTrace(b)
	require.NoError(t, err)
	return out
}
