package harness

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// partialEngine is an engine that declares fewer features than the one
// it wraps, so that it draws otherwise.
type partialEngine struct {
	Engine
	lacks []model.Feature
}

func (p partialEngine) Info() EngineInfo {
	info := p.Engine.Info()
	info.Name = "partial"
	info.Features = slices.DeleteFunc(slices.Clone(info.Features), func(f model.Feature) bool { return slices.Contains(p.lacks, f) })
	return info
}

// TestDraws_RunsThatShareThemJudgeAsWithout: engines checked in turn with
// one Draws (the reference, mutants, a lazy engine whose answers are
// drawn at random, and an engine declaring fewer features, which draws
// otherwise) get the results they get each with its own draws, timings
// aside; and the runs after the first of each kind of engine take every
// first draw from it rather than draw them again. One worker, so that
// the lazy engine's random answers fall on the same calls.
func TestDraws_RunsThatShareThemJudgeAsWithout(t *testing.T) {
	if testing.Short() {
		t.Skip("checks five engines twice")
	}
	ref := func(name string) Engine {
		e, err := Reference(name)
		require.NoError(t, err)
		return e
	}
	noMeldNorFlip := []model.Feature{model.FeatureMeld, model.FeatureFlip}
	engines := []func() Engine{
		func() Engine { return ref("") },
		func() Engine { return ref("dies-per-card") },
		func() Engine { e, _ := Lazy("flaky", 3); return e },
		func() Engine { return partialEngine{Engine: ref(""), lacks: noMeldNorFlip} },
		func() Engine { return partialEngine{Engine: ref("face-down-per-component"), lacks: noMeldNorFlip} },
	}
	run := func(e Engine, d *Draws) *Results {
		res, err := Check(context.Background(), e, properties.All, &Options{Checks: 100, Seed: 5, Draws: d, Parallel: 1})
		require.NoError(t, err)
		return res
	}
	d := NewDraws()
	made := []int{}
	for _, e := range engines {
		with := run(e(), d)
		made = append(made, d.made)
		without := run(e(), nil)
		if diff := cmp.Diff(untimed(t, without), untimed(t, with)); diff != "" {
			t.Errorf("%s: the results with shared draws differ from those without (-without +with):\n%s", with.Engine.Name, diff)
		}
	}
	assert.Positive(t, made[0], "the first run made the draws")
	assert.Equal(t, made[0], made[1], "a mutant, drawn for as the reference is, took every draw from it")
	assert.Equal(t, made[0], made[2], "so did a lazy engine")
	assert.Greater(t, made[3], made[2], "an engine that declares fewer features draws its own")
	assert.Equal(t, made[3], made[4], "and the next such engine takes them")
}

// untimed is a run's results as plain JSON values, without the fields
// that measure time.
func untimed(t *testing.T, res *Results) any {
	t.Helper()
	// Options are the same in both, and their hooks are functions.
	data, err := json.Marshal([]any{res.Engine, res.Seed, res.Results, res.Corpus, res.Interrupted, res.Unexplained})
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(data, &doc))
	var drop func(v any) any
	drop = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "Started" || k == "Time" || k == "Elapsed" {
					delete(v, k)
					continue
				}
				v[k] = drop(x)
			}
		case []any:
			for i := range v {
				v[i] = drop(v[i])
			}
		}
		return v
	}
	return drop(doc)
}

// TestLookAhead_TheSearchTakesEachDrawAheadOnce: in a run without shared
// Draws, a rule's search takes its first draws from the look-ahead rather
// than draw them again, and a draw whose rules' trace was let go while
// the rules explored gets the trace the reference gives it.
func TestLookAhead_TheSearchTakesEachDrawAheadOnce(t *testing.T) {
	e, err := Reference("")
	require.NoError(t, err)
	o := (&Options{Checks: 100, Seed: 3, Parallel: 1}).withDefaults()
	p := properties.P730_2a
	j := &judge{ctx: context.Background(), e: e, p: p, o: o, info: e.Info(), time: &Timing{}, explain: explainers(e.Info(), properties.All), internals: &internals{}}
	j.preplay(o.Checks)
	require.Len(t, j.ahead, lookahead)
	assert.Equal(t, lookahead, j.made, "the look-ahead drew each of the first draws once")
	shed := slices.IndexFunc(j.ahead, func(d *drawn) bool { return d.shed })
	require.GreaterOrEqual(t, shed, 0, "the draws explore does not play let their traces go")

	d := j.draft(shed)
	want, err := reference.Run(d.played)
	require.NoError(t, err)
	if diff := cmp.Diff(want, d.want); diff != "" {
		t.Errorf("draw %d, played again, has another trace (-fresh +again):\n%s", shed, diff)
	}

	assert.Positive(t, j.time.Generate, "drawing ahead is generation")
	assert.Positive(t, j.time.Reference, "and playing the draws on the reference")
	var r Result
	j.time = &r.Time
	// rapid's own settings, as Check sets them (under -short rapid would
	// run a fifth of the checks).
	require.NoError(t, withRapidFlags(o.Checks, o.Seed, o.ShrinkTime, func() {
		_, _, err = newSearcher(context.Background(), j, &r).cover(o.Checks)
	}))
	require.NoError(t, err)
	assert.Equal(t, lookahead, j.made, "the search made none of them again")
	assert.Zero(t, r.Time.Generate, "nor drew them through rapid")
	assert.Equal(t, 100, r.Cases+r.Refused+r.Excluded+r.Departed)
}
