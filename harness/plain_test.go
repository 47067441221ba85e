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
// declares every face-down part but turning face up is never given a
// scenario that turns a permanent face up, and is still judged, and holds,
// on the face-down rules whose cases need no turning up; the refusals
// name the parts it lacks.
func Test708_EngineThatCannotTurnFaceUpIsJudgedOnTheRest(t *testing.T) {
	ref, err := harness.Reference("")
	require.NoError(t, err)
	e := partEngine{Engine: ref, without: []model.Feature{model.FeatureTurnFaceUpEffect, model.FeatureTurnFaceUpSpecial}, given: &atomic.Int64{}}
	rules := []*properties.Property{properties.P708_2a, properties.P708_9, properties.P730_2e, properties.P708_8}
	res, err := harness.Check(context.Background(), e, rules, &harness.Options{Checks: 100, Seed: 3})
	require.NoError(t, err)
	assert.Zero(t, e.given.Load(), "scenarios using an undeclared part reached the engine")
	for _, r := range res.Results {
		t.Logf("%s %s: %d cases, %d refused %v", r.Rule, r.Verdict, r.Cases, r.Refused, r.Refusals)
		if r.Rule == properties.P708_8.Rule {
			continue // turning face up is what it is about
		}
		assert.Equal(t, harness.Held, r.Verdict, "%s: %s", r.Rule, r.Why)
	}
	refused := 0
	for _, r := range res.Results {
		refused += r.Refused
		for _, why := range r.Refusals {
			assert.Contains(t, why.Reason, "turn_face_up_", r.Rule)
		}
	}
	assert.Positive(t, refused)
}
