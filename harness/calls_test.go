package harness_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// counting is an engine that counts the scenarios put to it.
type counting struct {
	harness.Engine
	n *atomic.Int64
}

func (c counting) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	c.n.Add(1)
	return c.Engine.Run(ctx, s)
}

func totalCalls(res *harness.Results) int {
	n := 0
	for _, r := range res.Results {
		n = n + r.Calls
	}
	return n
}

// TestCallsAreCountedRuleByRule: every scenario put to the engine is
// counted under the rule it was played for, and a run with no budget
// plays each rule's cases once.
func TestCallsAreCountedRuleByRule(t *testing.T) {
	ref, err := harness.Reference("")
	require.NoError(t, err)
	e := counting{ref, &atomic.Int64{}}
	res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 20, Seed: 5, Parallel: 1})
	require.NoError(t, err)
	assert.Equal(t, int(e.n.Load()), totalCalls(res))
	for _, r := range res.Results {
		if r.Verdict == harness.Held {
			assert.GreaterOrEqual(t, r.Calls, r.Cases, r.Rule)
		}
	}
}

// TestBudgetCallsBoundsTheRun: a run with a budget of engine calls puts
// no more scenarios to the engine than that, shares them equally among
// the rules it judges, gives the same results at any parallelism, and
// still finds a mutant's bug within its share.
func TestBudgetCallsBoundsTheRun(t *testing.T) {
	const budget = 500
	var runs []*harness.Results
	for _, parallel := range []int{1, 4} {
		ref, err := harness.Reference("")
		require.NoError(t, err)
		e := counting{ref, &atomic.Int64{}}
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: 8, Parallel: parallel, BudgetCalls: budget})
		require.NoError(t, err)
		assert.LessOrEqual(t, e.n.Load(), int64(budget))
		assert.Equal(t, int(e.n.Load()), totalCalls(res))
		judged := 0
		for _, r := range res.Results {
			if r.Verdict != harness.Unchecked {
				judged++
			}
		}
		for _, r := range res.Results {
			assert.LessOrEqual(t, r.Calls, budget/judged+1, r.Rule)
			assert.NotEqual(t, harness.Failed, r.Verdict, r.Rule)
			assert.NotEqual(t, harness.Interrupted, r.Verdict, r.Rule)
		}
		assert.False(t, res.Interrupted, "a spent budget is no interruption")
		runs = append(runs, res)
	}
	for i, r := range runs[0].Results {
		p := runs[1].Results[i]
		assert.Equal(t, r.Verdict, p.Verdict, r.Rule)
		assert.Equal(t, r.Calls, p.Calls, r.Rule)
		assert.Equal(t, r.Digest, p.Digest, r.Rule)
	}

	m, err := harness.Reference("token-if-any-token")
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), m, []*properties.Property{properties.P730_2d}, &harness.Options{Checks: 100, Seed: 8, BudgetCalls: 60})
	require.NoError(t, err)
	assert.Equal(t, harness.Failed, res.Results[0].Verdict)
	assert.LessOrEqual(t, res.Results[0].Calls, 60)
}

// TestExploringCostsNoMoreCalls: the cases played round by round across
// the rules before their searches are the cases those searches draw
// first, so a run that holds every rule puts exactly its rules' cases to
// the engine, with fewer checks than rounds too, and with a scenario a
// rule draws twice among its first (seed 7: played twice, as without
// exploring, not once for two cases). A held rule's calls are whole
// rounds of checks: at 3 checks many labels draw more.
func TestExploringCostsNoMoreCalls(t *testing.T) {
	for _, run := range []struct {
		checks int
		seed   uint64
	}{{100, 13}, {3, 13}, {100, 7}} {
		checks := run.checks
		ref, err := harness.Reference("")
		require.NoError(t, err)
		e := counting{ref, &atomic.Int64{}}
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: checks, Seed: run.seed})
		require.NoError(t, err)
		cases := 0
		for _, r := range res.Results {
			cases += r.Cases
			if r.Verdict == harness.Held {
				// A round of checks cases, or more while a label was short.
				assert.Equal(t, r.Cases, r.Calls, r.Rule)
				assert.Zero(t, r.Cases%checks, r.Rule)
			}
		}
		assert.Equal(t, int64(cases), e.n.Load(), "checks %d", checks)
	}
}

// TestLeadNamesTheRuleWhoseCaseShowedAFailure: a mutant whose bug most
// merged permanents show breaks cases drawn for rules checked before its
// own; its rule's failure names the first of them, and only its own cases
// fail it.
func TestLeadNamesTheRuleWhoseCaseShowedAFailure(t *testing.T) {
	m, err := harness.Reference("characteristics-from-bottom")
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), m, properties.All, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	var r *harness.Result
	for i := range res.Results {
		if res.Results[i].Rule == properties.P730_2a.Rule {
			r = &res.Results[i]
		}
	}
	require.NotNil(t, r)
	require.Equal(t, harness.Failed, r.Verdict)
	require.NotNil(t, r.Lead, "a case of another rule showed it first")
	assert.NotEqual(t, r.Rule, r.Lead.Rule)
	assert.Positive(t, r.Lead.Call)
	assert.Positive(t, r.FailedAtCall)
	assert.Greater(t, r.Calls, r.FailedAtCall, "shrinking costs calls")
}

// TestShrinkingCostsTensOfCalls: a failure whose shrinking by rapid alone
// once took 520 engine calls (face-down-toughness-from-card, then on
// 730.2a) is shrunk, by a hundred calls of rapid's at most and the domain
// steps, in well under two hundred, at every seed.
func TestShrinkingCostsTensOfCalls(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		m, err := harness.Reference("face-down-toughness-from-card")
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), m, []*properties.Property{properties.P708_2a}, &harness.Options{Checks: 100, Seed: seed})
		require.NoError(t, err)
		r := res.Results[0]
		require.Equal(t, harness.Failed, r.Verdict, "seed %d", seed)
		assert.Positive(t, r.FailedAtCall)
		assert.Greater(t, r.ShrunkAtCall, r.FailedAtCall, "shrinking costs calls")
		assert.Less(t, r.ShrunkAtCall-r.FailedAtCall, 200, "seed %d", seed)
	}
}

// TestAFailureExploringFindsIsShrunkAtOnce: a case explore plays in its
// first round that fails its rule (730.2j under
// dfc-merged-turns-face-down, which explore finds by taking the rule's
// rarest situation first) has its rule searched and its counterexample
// shrunk there and then, within the first few hundred calls of the run,
// not after the other rules' searches (about 5,000 calls).
func TestAFailureExploringFindsIsShrunkAtOnce(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		ref, err := harness.Reference("dfc-merged-turns-face-down")
		require.NoError(t, err)
		e := counting{ref, &atomic.Int64{}}
		var at int64
		onShrunk := func(rule model.RuleID) {
			if at == 0 {
				assert.Equal(t, properties.P730_2j.Rule, rule)
				at = e.n.Load()
			}
		}
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed, Parallel: 1, OnShrunk: onShrunk})
		require.NoError(t, err)
		assert.Equal(t, []model.RuleID{properties.P730_2j.Rule}, failedRules(res), "seed %d", seed)
		assert.Positive(t, at, "seed %d", seed)
		assert.Less(t, at, int64(300), "seed %d", seed)
	}
}

func failedRules(res *harness.Results) []model.RuleID {
	var out []model.RuleID
	for _, r := range res.Results {
		if r.Verdict == harness.Failed {
			out = append(out, r.Rule)
		}
	}
	return out
}

// TestACaseIsJudgedOnEveryRuleItReaches: a case drawn for one rule that
// reaches another's situation (730.3 and 730.3a draw alike) is judged on
// that rule too and counted there, beside its own cases; an engine that
// plays nothing, or drops the lower components, keeps no other rule on
// the cases it breaks, so none counts there.
func TestACaseIsJudgedOnEveryRuleItReaches(t *testing.T) {
	props := []*properties.Property{properties.P730_3, properties.P730_3a}
	ref, err := harness.Reference("")
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), ref, props, &harness.Options{Checks: 50, Seed: 3})
	require.NoError(t, err)
	for _, r := range res.Results {
		assert.Equal(t, harness.Held, r.Verdict, r.Rule)
		assert.Positive(t, r.Reached, "%s: the other rule's cases reach it", r.Rule)
	}
	assert.Greater(t, res.Judged(), res.Calls())

	for _, lazy := range []string{"no-steps", "drop-lower"} {
		e, err := harness.Lazy(lazy, 1)
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 50, Seed: 3})
		require.NoError(t, err)
		for _, r := range res.Results {
			assert.Zero(t, r.Reached, "%s on %s", lazy, r.Rule)
		}
	}
}
