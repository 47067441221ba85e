package harness_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// rewrites is the reference engine with its traces rewritten by fix: a
// test engine with one bug of the test's making.
type rewrites struct {
	name string
	fix  func(s *model.Scenario, t *model.Trace)
}

func (r rewrites) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: r.name, Features: model.Features}
}

func (r rewrites) Run(_ context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := reference.Run(s)
	if err == nil {
		r.fix(s, t)
	}
	return t, err
}

// neverPassesTheTurn keeps the starting player active after next_turn:
// a bug in what no rule's check looks at.
var neverPassesTheTurn = rewrites{"never-passes-the-turn", func(s *model.Scenario, t *model.Trace) {
	for i := range t.Steps {
		t.Steps[i].State.Active = t.Start.Active
	}
}}

// tapsCommanders taps every commander that stays on the battlefield
// untapped, whatever the action: 110.5c's check sees it (a status the
// rules leave alone changes), but 110.5c's generator draws no
// commander; the rules of leaving merged permanents draw them.
var tapsCommanders = rewrites{"taps-commanders", func(s *model.Scenario, t *model.Trace) {
	for i := range t.Steps {
		for k := range t.Steps[i].State.Battlefield {
			p := &t.Steps[i].State.Battlefield[k]
			for _, c := range p.Components {
				if o := s.Object(c.Object); o != nil && o.Commander {
					p.Status.Tapped = true
				}
			}
		}
	}
}}

// TestUnexplainedDeparture_IsAFindingThatFailsNoRule: an engine whose
// traces depart from the rules' where no rule's check looks shows it as
// one unexplained departure, shrunk, naming the cases of each rule that
// showed it, and fails no rule; the reference shows none.
func TestUnexplainedDeparture_IsAFindingThatFailsNoRule(t *testing.T) {
	res, err := harness.Check(context.Background(), neverPassesTheTurn, properties.All, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	require.Len(t, res.Unexplained, 1)
	u := res.Unexplained[0]
	assert.Equal(t, "the active player", u.Aspect)
	assert.NotEmpty(t, u.Cases)
	ce := u.Counterexample
	require.NotNil(t, ce)
	assert.Contains(t, ce.Problem, "the active player")
	assert.Len(t, ce.Scenario.Actions, 1, "shrunk to the one next_turn: %v", ce.Scenario.Actions)
	assert.Empty(t, failedRules(res))
	assert.Error(t, res.Err(), "an unexplained departure is a finding")

	ref, err := harness.Reference("")
	require.NoError(t, err)
	res, err = harness.Check(context.Background(), ref, properties.All, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	assert.Empty(t, res.Unexplained)
}

// Test110_5c_ALeadIsFollowedToTheRuleWhoseCheckSeesIt: a bug only other
// rules' generators reach fails the rule whose check sees it, from their
// case, shrunk as its own counterexample, at every seed; the rules that
// drew it do not fail.
func Test110_5c_ALeadIsFollowedToTheRuleWhoseCheckSeesIt(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		res, err := harness.Check(context.Background(), tapsCommanders, properties.All, &harness.Options{Checks: 100, Seed: seed})
		require.NoError(t, err)
		assert.Equal(t, []model.RuleID{properties.P110_5c.Rule}, failedRules(res), "seed %d", seed)
		assert.Empty(t, res.Unexplained, "seed %d", seed)
		r := result(res, properties.P110_5c.Rule)
		require.NotNil(t, r.Counterexample, "seed %d", seed)
		require.NotNil(t, r.Lead, "seed %d", seed)
		assert.True(t, r.FromLead, "seed %d: 110.5c's own cases draw no commander", seed)
		assert.NotEqual(t, properties.P110_5c.Rule, r.Lead.Rule)
		assert.Contains(t, r.Counterexample.Problem, "tapped", "seed %d", seed)
	}
}

func result(res *harness.Results, rule model.RuleID) *harness.Result {
	for i := range res.Results {
		if res.Results[i].Rule == rule {
			return &res.Results[i]
		}
	}
	return nil
}

// refusesNoActions is a mutant that refuses every scenario without an
// action, as an adapter refuses what it can't set up.
type refusesNoActions struct{ harness.Engine }

func (r refusesNoActions) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	if len(s.Actions) == 0 {
		return nil, fmt.Errorf("%w: this engine plays no scenario without an action", harness.ErrUnsupported)
	}
	return r.Engine.Run(ctx, s)
}

// Test730_3_RefusalsWhileShrinkingAreReported: the scenarios an engine
// refuses while a failure is shrunk are reported with it, not dropped.
func Test730_3_RefusalsWhileShrinkingAreReported(t *testing.T) {
	m, err := harness.Reference("dies-per-card")
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), refusesNoActions{m}, []*properties.Property{properties.P730_3}, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	ce := res.Results[0].Counterexample
	require.NotNil(t, ce)
	require.NotEmpty(t, ce.ShrinkErrors)
	assert.Contains(t, ce.ShrinkErrors[0].Reason, "plays no scenario without an action")
	assert.Positive(t, ce.ShrinkErrors[0].Count)
}
