package harness_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/reports"
)

// stuck is the reference but for one mechanic it can't play: at the
// first action that meets it, it answers that it diverged, with the
// rules' steps before it, as a real engine whose game went another way
// (or that lacks a path) answers.
type stuck struct {
	name   string
	reason string
	// at reports whether action i of s, which the rules play as step,
	// from the state before, is one the engine can't play.
	at func(s *model.Scenario, before *model.State, a model.Action, step model.Step) bool
}

func (e stuck) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "stuck:" + e.name, Features: model.Features}
}

func (e stuck) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := reference.Run(s)
	if err != nil {
		return t, err
	}
	for i, a := range s.Actions {
		before := &t.Start
		if i > 0 {
			before = &t.Steps[i-1].State
		}
		if e.at(s, before, a, t.Steps[i]) {
			t.Steps = t.Steps[:i]
			return nil, &engine.Divergence{Action: i, Reason: e.reason, Trace: t}
		}
	}
	return t, nil
}

// cites reports whether a step of the rules' trace cites rule.
func cites(st model.Step, rule model.RuleID) bool {
	return slices.ContainsFunc(st.Events, func(e model.Event) bool { return e.Rule == rule })
}

// melded reports whether p is a melded permanent: two meld cards' back
// faces.
func melded(s *model.Scenario, p *model.Permanent) bool {
	if p == nil || len(p.Components) != 2 {
		return false
	}
	for _, c := range p.Components {
		o := s.Object(c.Object)
		if o == nil || c.Face != model.Back || s.Def(o.Def) == nil || s.Def(o.Def).Layout != model.LayoutMeld {
			return false
		}
	}
	return true
}

// Test702_140b_ADivergenceIsTheFindingOfTheRuleInPlay: an engine that
// can't play one mechanic, and says so by diverging where the rules play
// it, fails the rule in play there (the rule the rules' trace cites for
// what the action does) and at most one more, as one finding, whichever
// rules' cases met it, at seeds 1 to 5: a mutating spell whose target
// became illegal (702.140b), a merged permanent transformed (730.2i) and
// a melded permanent leaving (712.21).
func Test702_140b_ADivergenceIsTheFindingOfTheRuleInPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("fifteen whole runs")
	}
	for _, tt := range []struct {
		e      stuck
		inPlay model.RuleID
	}{
		{stuck{"illegal-target", "merge without a position", func(_ *model.Scenario, _ *model.State, a model.Action, st model.Step) bool {
			return a.Type == model.Resolve && cites(st, "702.140b")
		}}, "702.140b"},
		{stuck{"transform-merged", "a merged permanent has no back face to turn", func(_ *model.Scenario, before *model.State, a model.Action, _ model.Step) bool {
			p := before.Permanent(a.Object)
			return a.Type == model.Transform && p != nil && len(p.Components) > 1
		}}, "730.2i"},
		{stuck{"melded-leaves", "the melded permanent is not in this engine's game", func(s *model.Scenario, before *model.State, a model.Action, _ model.Step) bool {
			return a.Type == model.Move && melded(s, before.Permanent(a.Object))
		}}, "712.21"},
	} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", tt.e.name, seed), func(t *testing.T) {
				res, err := harness.Check(context.Background(), tt.e, properties.All, &harness.Options{Checks: 100, Seed: seed})
				require.NoError(t, err)
				var failed []model.RuleID
				for _, r := range res.Results {
					if r.Verdict == harness.Failed {
						failed = append(failed, r.Rule)
						assert.Contains(t, r.Counterexample.Problem, tt.e.reason, r.Rule)
					}
					assert.NotContains(t, []harness.Verdict{harness.Fault, harness.Internal, harness.Uncovered}, r.Verdict, "%s: %s", r.Rule, r.Why)
				}
				t.Logf("failed %v, blocked %d", failed, res.Count(harness.Blocked))
				assert.Contains(t, failed, tt.inPlay, "the rule in play fails")
				assert.LessOrEqual(t, len(failed), 2, "failed: %v", failed)
				assert.Len(t, reports.Findings(res), 1, "one finding: %v", failed)
				assert.Empty(t, res.Unexplained)
			})
		}
	}
}
