package shrink_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/shrink"
)

// These tests give Minimize plain predicates over scenarios, as a checker
// of histories is tested on plain histories: no engine is played, only
// the reference, which decides what a playable scenario is.

// many draws busy scenarios of up to four permanents of up to five
// components, with statuses, replacement effects, linked cards, Auras,
// hands and up to six actions.
var many = generators.Scenario(generators.Options{
	MinPermanents: 1, MaxPermanents: 4, MinComponents: 1, MaxComponents: 5,
	Status: true, Replacements: true, Linked: true, Attach: true, Hand: true,
	Prefix: 3, Then: 3,
})

// mergedWithToken is a predicate of the kind a bug gives: some permanent
// has a token among two or more components.
func mergedWithToken(s *model.Scenario) bool {
	tokens := map[model.ObjectID]bool{}
	for _, o := range s.Objects {
		tokens[o.ID] = o.Token
	}
	for _, p := range s.Start.Battlefield {
		if len(p.Components) > 1 && slices.ContainsFunc(p.Components, func(c model.Component) bool { return tokens[c.Object] }) {
			return true
		}
	}
	return false
}

func encoded(t require.TestingT, s *model.Scenario) string {
	b, err := protocol.EncodeScenario(s)
	require.NoError(t, err)
	return string(b)
}

func forever() time.Time { return time.Now().Add(time.Hour) }

// TestMinimize_EndsWhereNoStepStillFails: from every busy scenario a
// predicate is met in, Minimize ends at a scenario none of whose steps
// the predicate still accepts, here one permanent of a card and a token,
// no action, renumbered. Every candidate it put to the predicate was
// valid and played by the reference, so a caller never has to tell a
// broken scenario from a failing one.
func TestMinimize_EndsWhereNoStepStillFails(t *testing.T) {
	starts := 0
	for seed := range 24 {
		s := many.Example(seed)
		if !mergedWithToken(s) || !shrink.Playable(s) {
			continue
		}
		starts++
		asked := func(c *model.Scenario) bool {
			if !shrink.Playable(c) {
				t.Fatalf("seed %d: the predicate was given a scenario the reference can't play:\n%s", seed, encoded(t, c))
			}
			return mergedWithToken(c)
		}
		m := shrink.Minimize(s, asked, forever())
		require.NotNil(t, m, "seed %d", seed)
		for i, c := range shrink.Steps(m) {
			if shrink.Playable(c) && mergedWithToken(c) {
				t.Fatalf("seed %d: step %d of the minimum still fails:\n%s\nminimum:\n%s", seed, i, encoded(t, c), encoded(t, m))
			}
		}
		require.Len(t, m.Start.Battlefield, 1, "seed %d", seed)
		assert.Len(t, m.Start.Battlefield[0].Components, 2, "seed %d", seed)
		assert.Empty(t, m.Actions, "seed %d", seed)
		assert.Equal(t, model.ObjectID("p1"), m.Start.Battlefield[0].ID, "seed %d", seed)
	}
	require.GreaterOrEqual(t, starts, 5, "too few starts meet the predicate to show anything")
}

// TestMinimize_KeepsWhatThePredicateNeeds: a predicate that needs an
// action gets a minimum with exactly one.
func TestMinimize_KeepsWhatThePredicateNeeds(t *testing.T) {
	starts := 0
	for seed := range 12 {
		s := many.Example(seed)
		if !shrink.Playable(s) || len(s.Actions) == 0 {
			continue
		}
		starts++
		m := shrink.Minimize(s, func(c *model.Scenario) bool { return len(c.Actions) > 0 }, forever())
		require.NotNil(t, m, "seed %d", seed)
		assert.Len(t, m.Actions, 1, "seed %d", seed)
	}
	require.GreaterOrEqual(t, starts, 5, "too few starts with an action")
}

// TestMinimize_NilWhenTheStartNoLongerFails: a predicate that rejects
// the tidied start gets nil, and the start is left as it was.
func TestMinimize_NilWhenTheStartNoLongerFails(t *testing.T) {
	s := many.Example(1)
	before := encoded(t, s)
	assert.Nil(t, shrink.Minimize(s, func(*model.Scenario) bool { return false }, forever()))
	assert.Equal(t, before, encoded(t, s), "Minimize changed its argument")
}

// TestMinimize_StopsAtItsDeadline: past the deadline no step is tried;
// the start comes back tidied, asked about once.
func TestMinimize_StopsAtItsDeadline(t *testing.T) {
	s := many.Example(3)
	require.True(t, shrink.Playable(s))
	asked := 0
	m := shrink.Minimize(s, func(*model.Scenario) bool { asked++; return true }, time.Now().Add(-time.Second))
	require.NotNil(t, m)
	assert.Equal(t, 1, asked)
	shrink.Tidy(s)
	assert.Equal(t, encoded(t, s), encoded(t, m))
}

// TestSteps_NoneIsTheScenarioItself: each step changes something, so a
// shrinker that takes any step makes progress.
func TestSteps_NoneIsTheScenarioItself(t *testing.T) {
	for seed := range 30 {
		s := many.Example(seed)
		shrink.Tidy(s)
		self := encoded(t, s)
		for i, c := range shrink.Steps(s) {
			require.NotEqual(t, self, encoded(t, c), "seed %d: step %d leaves the scenario as it is", seed, i)
		}
	}
}
