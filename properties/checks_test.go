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

// play returns a scenario's rules' trace and a copy of it to alter as an
// engine's.
func play(t *testing.T, s *model.Scenario) (rules, engine *model.Trace) {
	t.Helper()
	rules, err := reference.Run(s)
	require.NoError(t, err)
	return rules, cloneTrace(t, rules)
}

// failures lists the rules whose checks fail the case, with "departure"
// when the whole trace departs from the rules'.
func failures(c *properties.Case) []string {
	var out []string
	if err := properties.ValidTrace(c); err != nil {
		out = append(out, "400.1")
	}
	for _, p := range properties.All {
		if p.Check == nil {
			continue
		}
		if err := p.Check(c); err != nil {
			out = append(out, string(p.Rule))
		}
	}
	if properties.Departure(c) != nil {
		out = append(out, "departure")
	}
	return out
}

// Test712_4a_MeldedCardsComeInNoOrder: a melded permanent whose two cards
// an engine lists the other way round is the same melded permanent; no
// check fails it, and it is no departure.
func Test712_4a_MeldedCardsComeInNoOrder(t *testing.T) {
	bd := build.New("meld", "")
	bd.Card("c1", build.A, "Midnight Scavengers")
	bd.Card("c2", build.A, "Graf Rats")
	s := bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.A, build.Up("c2")).
		Do(model.Action{Type: model.Meld, Object: "p2", With: "p1"}).Scenario()
	rules, got := play(t, s)
	p := got.Steps[0].State.Permanent("c2@0")
	require.NotNil(t, p)
	require.Len(t, p.Components, 2)
	slices.Reverse(p.Components)
	assert.Empty(t, failures(&properties.Case{Scenario: s, Trace: got, Reference: rules}))

	// Front faces up is another matter.
	p.Components[0].Face = model.Front
	assert.Subset(t, failures(&properties.Case{Scenario: s, Trace: got, Reference: rules}), []string{"701.42a", "712.4a"})
}

// Test730_3_NoExtraTriggersForTheCards: when a merged permanent dies, one
// creature dies; a "dies" trigger reported for each card too fails 730.3.
func Test730_3_NoExtraTriggersForTheCards(t *testing.T) {
	s, rules := mergeAndLeave(t)
	s.Actions[1].To = model.Graveyard
	rules, got := play(t, s)
	st := &got.Steps[1]
	st.Events = append(st.Events, model.Event{Kind: model.Trigger, Observer: model.CreatureDies, Object: "c1"})
	assert.Contains(t, failures(&properties.Case{Scenario: s, Trace: got, Reference: rules}), "730.3")
}

// TestDeparture_HowFaceDownAndWhoseTurn: a face-down permanent reported
// as manifested where it was cloaked, or a turn that never passes, is a
// departure from the rules.
func TestDeparture_HowFaceDownAndWhoseTurn(t *testing.T) {
	bd := build.New("face-down", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	s := bd.Perm("p1", build.A, build.Down("c1", model.ByCloak)).Do(model.Action{Type: model.NextTurn}).Scenario()
	rules, got := play(t, s)
	got.Steps[0].State.Battlefield[0].Components[0].FaceDownBy = model.ByManifest
	err := properties.Departure(&properties.Case{Scenario: s, Trace: got, Reference: rules})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "p1's components")

	_, got = play(t, s)
	got.Steps[0].State.Active = build.A
	err = properties.Departure(&properties.Case{Scenario: s, Trace: got, Reference: rules})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the active player")
}
