package harness_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// plainEngine plays like the reference and writes its traces as
// reference.Plain does, as an engine that knows nothing of the rules'
// numbers would.
type plainEngine struct{ harness.Engine }

func (e plainEngine) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := e.Engine.Run(ctx, s)
	return reference.Plain(t), err
}

// Test400_1_TracesWithoutRulesOrByHoldEveryRule: citing rules, naming the
// replacement effect that moved a card and numbering timestamps is
// mergecheck's business, not the engine's. An engine that plays as the
// rules say but leaves all of that out, numbers its timestamps its own
// way and lists colours, types and abilities in another order holds
// every rule the reference holds.
func Test400_1_TracesWithoutRulesOrByHoldEveryRule(t *testing.T) {
	ref, err := harness.Reference("")
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), plainEngine{ref}, properties.All, &harness.Options{Checks: 100, Seed: 20261130})
	require.NoError(t, err)
	for _, r := range res.Results {
		p := properties.Find(properties.All, r.Rule)
		want := harness.Held
		if p.Uncheckable != "" {
			want = harness.Unchecked
		}
		msg := r.Why
		if r.Counterexample != nil {
			msg = r.Counterexample.Problem
		}
		assert.Equal(t, want, r.Verdict, "%s: %s", r.Rule, msg)
	}
}
