package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Test400_1_ALostCardIsOneFindingThatBlocksTheMergeRules: an engine that
// loses the target's card on every mutate is one finding, under 400.1;
// the rules whose cases it took are blocked by it, neither held nor
// failed, and the text a vendor reads is short.
func Test400_1_ALostCardIsOneFindingThatBlocksTheMergeRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every rule")
	}
	code, out, _ := mc(t, "run", "--engine", "mutant:mutate-drops-target-card", "--seed", "1", "--corpus", "", "--progress", "off")
	assert.Equal(t, exitFailed, code)
	assert.Less(t, strings.Count(out, "\n"), 40, out)
	assert.Equal(t, 1, strings.Count(out, "FAILED"), out)
	assert.Contains(t, out, "FAILED      400.1: ")
	assert.Contains(t, out, "their cases lost to the finding of 400.1 (above)")

	e, err := harness.Reference("mutate-drops-target-card")
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: 1, Draws: draws1})
	require.NoError(t, err)
	var failed, blocked []model.RuleID
	for _, r := range res.Results {
		switch r.Verdict {
		case harness.Failed:
			failed = append(failed, r.Rule)
		case harness.Blocked:
			blocked = append(blocked, r.Rule)
			assert.Equal(t, properties.P400_1.Rule, r.BlockedBy, r.Rule)
		}
	}
	assert.Equal(t, []model.RuleID{properties.P400_1.Rule}, failed)
	for _, merge := range []model.RuleID{"730.2", "730.2a", "730.2b", "730.2c", "702.140c", "702.140d", "702.140e"} {
		assert.Contains(t, blocked, merge, "a merge rule whose cases the lost card took is blocked")
	}
	assert.Empty(t, res.Unexplained)
}

// Test730_3_DiesPerCardFailsTheLeavingRuleNotTheTokenRule: "dies"
// triggering once per card of a merged permanent breaks 730.3 (one
// permanent leaves), at every seed, and never 730.2d (which says when a
// merged permanent is a token).
func Test730_3_DiesPerCardFailsTheLeavingRuleNotTheTokenRule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every rule at five seeds")
	}
	for seed := uint64(1); seed <= 5; seed++ {
		e, err := harness.Reference("dies-per-card")
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed})
		require.NoError(t, err)
		verdicts := map[model.RuleID]harness.Verdict{}
		for _, r := range res.Results {
			verdicts[r.Rule] = r.Verdict
		}
		assert.Equal(t, harness.Failed, verdicts["730.3"], "seed %d", seed)
		assert.NotEqual(t, harness.Failed, verdicts["730.2d"], "seed %d", seed)
		assert.Empty(t, res.Unexplained, "seed %d", seed)
	}
}

// TestNewMutants_FailTheirOwnRulesAtEverySeed: the three bugs real
// engines showed (a token copy of a merged permanent topped by a
// double-faced card that is double-faced, a merged or melded permanent
// put into a library with only its top card, a commander that always
// goes to the command zone) each fail the rules they break at seeds 1 to
// 5, nothing outside their area, and leave no unexplained departure.
func TestNewMutants_FailTheirOwnRulesAtEverySeed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every rule at five seeds")
	}
	for seed := uint64(1); seed <= 5; seed++ {
		draws := harness.NewDraws()
		for _, name := range []string{"copy-of-merged-dfc-is-dfc", "library-top-card-only", "commander-always-command-zone"} {
			i := slices.IndexFunc(reference.Mutants, func(m reference.Mutant) bool { return m.Name == name })
			require.GreaterOrEqual(t, i, 0, name)
			m := reference.Mutants[i]
			e, err := harness.Reference(name)
			require.NoError(t, err)
			res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed, Draws: draws})
			require.NoError(t, err)
			k := judgeMutant(m, res)
			assert.Empty(t, k.missed, "%s, seed %d: holds rules it breaks", name, seed)
			assert.Empty(t, k.outside, "%s, seed %d: %s", name, seed, strings.Join(k.kills, ", "))
			assert.Empty(t, k.unexplained, "%s, seed %d", name, seed)
		}
	}
}

// TestRules_ASubsetHidesNoDeparture: a run of every built-in mutant on
// only the rules it does not break (--rules) fails wherever a case
// departed from the rules' trace: a departure that only an unselected
// rule's check names is that rule's finding, outside the selection, and
// never leaves the selected rules held on the cases that remain.
func TestRules_ASubsetHidesNoDeparture(t *testing.T) {
	if testing.Short() {
		t.Skip("every mutant")
	}
	for _, m := range reference.Mutants {
		broken := slices.Concat(m.Breaks, m.Also)
		var subset []*properties.Property
		for _, p := range properties.All {
			if !slices.Contains(broken, p.Rule) {
				subset = append(subset, p)
			}
		}
		e, err := harness.Reference(m.Name)
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), e, subset, &harness.Options{Checks: 100, Seed: 1, Draws: draws1})
		require.NoError(t, err)
		departed := 0
		for _, r := range res.Results {
			departed += r.Excluded + r.Departed
			if r.Outside {
				assert.Contains(t, broken, r.Rule, "%s: a rule outside the selection that it breaks", m.Name)
				assert.Equal(t, harness.Failed, r.Verdict, "%s on %s", m.Name, r.Rule)
			}
		}
		if departed > 0 {
			assert.NotEqual(t, exitOK, exitCode(res, nil), "%s: %d cases departed from the rules, and the run on %d rules it does not break must say so", m.Name, departed, len(subset))
		}
	}
}

// TestRules_AFindingOutsideTheSelectionKeepsToTheBudget: shrinking a
// failure found outside --rules spends what is left of the share of the
// rule whose case showed it, so a run under --budget-calls keeps to it.
func TestRules_AFindingOutsideTheSelectionKeepsToTheBudget(t *testing.T) {
	e, err := harness.Reference("token-if-any-token")
	require.NoError(t, err)
	const budget = 150
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2}, &harness.Options{Checks: 100, Seed: 1, BudgetCalls: budget})
	require.NoError(t, err)
	var outside *harness.Result
	for i := range res.Results {
		if res.Results[i].Outside {
			outside = &res.Results[i]
		}
	}
	require.NotNil(t, outside, "730.2d fails outside the selection")
	assert.Equal(t, model.RuleID("730.2d"), outside.Rule)
	assert.Equal(t, harness.Failed, outside.Verdict)
	assert.LessOrEqual(t, res.Calls(), budget)
}
