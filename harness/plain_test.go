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

// partEngine is the reference declaring every feature but some, and
// counting the scenarios it is given that use one of those.
type partEngine struct {
	harness.Engine
	without []model.Feature
	given   *atomic.Int64
}

func (e partEngine) Info() harness.EngineInfo {
	i := e.Engine.Info()
	i.Features = slices.DeleteFunc(slices.Clone(i.Features), func(f model.Feature) bool { return slices.Contains(e.without, f) })
	return i
}

func (e partEngine) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	if slices.ContainsFunc(s.Uses(), func(f model.Feature) bool { return slices.Contains(e.without, f) }) {
		e.given.Add(1)
	}
	return e.Engine.Run(ctx, s)
}

// Test708_EngineThatCannotTurnFaceUpIsJudgedOnTheRest: an engine that
// declares every face-down part but turning face up is never drawn a
// scenario that turns a permanent face up, refuses none, and is judged,
// and holds, on the face-down rules whose cases need no turning up; the
// rule about turning face up is unsupported, saying what it needs.
func Test708_EngineThatCannotTurnFaceUpIsJudgedOnTheRest(t *testing.T) {
	ref, err := harness.Reference("")
	require.NoError(t, err)
	e := partEngine{Engine: ref, without: []model.Feature{model.FeatureTurnFaceUpEffect, model.FeatureTurnFaceUpSpecial}, given: &atomic.Int64{}}
	rules := []*properties.Property{properties.P708_2a, properties.P708_9, properties.P730_2e, properties.P708_8}
	res, err := harness.Check(context.Background(), e, rules, &harness.Options{Checks: 100, Seed: 3})
	require.NoError(t, err)
	assert.Zero(t, e.given.Load(), "scenarios using an undeclared part reached the engine")
	for _, r := range res.Results {
		assert.Zero(t, r.Refused, "%s: the generators draw only what the engine declares: %v", r.Rule, r.Refusals)
		if r.Rule == properties.P708_8.Rule {
			assert.Equal(t, harness.Unsupported, r.Verdict, r.Why)
			assert.Contains(t, r.Why, "no scenario reaches this rule")
			assert.Contains(t, r.Why, "turn_face_up_")
			continue
		}
		assert.Equal(t, harness.Held, r.Verdict, "%s: %s", r.Rule, r.Why)
	}
}

// Test730_2_BareMergeSetAsideForAnEngineWithoutIt: an engine that merges
// only by mutating spells holds 730.2 on what it implements; the label of
// the bare merge is set aside, naming the feature it needs, and the
// engine is never given a bare merge.
func Test730_2_BareMergeSetAsideForAnEngineWithoutIt(t *testing.T) {
	ref, err := harness.Reference("")
	require.NoError(t, err)
	e := partEngine{Engine: ref, without: []model.Feature{model.FeatureMergeAction}, given: &atomic.Int64{}}
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2}, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	r := res.Results[0]
	assert.Equal(t, harness.Held, r.Verdict, r.Why)
	assert.Zero(t, e.given.Load())
	require.Contains(t, r.SetAside, "bare-merge")
	assert.Contains(t, r.SetAside["bare-merge"], "merge_action")
	assert.Contains(t, r.Why, "bare-merge")
	assert.Positive(t, r.Coverage["mutate"])

	// With the feature, the label is asked again.
	res, err = harness.Check(context.Background(), ref, []*properties.Property{properties.P730_2}, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	assert.Empty(t, res.Results[0].SetAside)
}
