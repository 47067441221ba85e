package harness_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// truncations wraps an engine and counts the traces it returns with fewer
// steps than the scenario has actions.
type truncations struct {
	harness.Engine
	n atomic.Int64
}

func (c *truncations) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := c.Engine.Run(ctx, s)
	if err == nil && len(t.Steps) < len(s.Actions) {
		c.n.Add(1)
	}
	return t, err
}

// TestFlakyEngineHoldsNoRuleItTruncated: an engine that cuts a third of
// its traces short, at random, holds no rule on whose cases it cut one,
// whether or not the cut recurs when the case is played again.
func TestFlakyEngineHoldsNoRuleItTruncated(t *testing.T) {
	cut := 0
	for i, p := range properties.All {
		if p.Uncheckable != "" {
			continue
		}
		e, err := harness.Lazy("flaky", uint64(i+1))
		require.NoError(t, err)
		c := &truncations{Engine: e}
		res, err := harness.Check(context.Background(), c, []*properties.Property{p}, &harness.Options{Checks: 50, Seed: 5, Parallel: 1})
		require.NoError(t, err)
		r := res.Results[0]
		if c.n.Load() > 0 {
			cut++
			assert.NotEqual(t, harness.Held, r.Verdict, "%s held though %d traces were cut short", p.Rule, c.n.Load())
		}
		if r.Verdict == harness.Failed {
			assert.Contains(t, []model.RuleID{"", properties.P400_1.Rule}, r.Counterexample.Found, "%s: %s", p.Rule, r.Counterexample.Problem)
		}
	}
	assert.Positive(t, cut)
}

// TestLazyEngineNamesAreKnown: every lazy engine opens by its name, says
// how it is lazy, and an unknown name is refused with the known ones.
// (cmd/mergecheck's tests judge them in process, as selftest does, and
// over the protocol.)
func TestLazyEngineNamesAreKnown(t *testing.T) {
	for _, l := range reference.Lazies {
		_, err := harness.Lazy(l.Name, 1)
		require.NoError(t, err)
		assert.NotEmpty(t, l.Bug)
		assert.False(t, slices.Contains(l.Fails, ""), l.Name)
	}
	_, err := harness.Lazy("sleepy", 1)
	assert.ErrorContains(t, err, "unknown lazy engine sleepy")
}
