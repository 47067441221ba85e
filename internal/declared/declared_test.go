package declared_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/internal/declared"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// mergedFlip is a scenario that starts from a merged stack with a flip
// card in it, and flips it.
func mergedFlip() *model.Scenario {
	bd := build.New("merged flip", "")
	bd.Perm("p1", build.A, build.Up(bd.Card("c1", build.A, "Nezumi Shortfang")), build.Up(bd.Card("c2", build.A, "Grizzly Bears")))
	bd.Mod("p1", func(p *model.Permanent) { p.Mutated = false }) // merged, not mutated
	s := bd.Scenario()
	s.Actions = []model.Action{{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Order: []model.ObjectID{"c1", "c2"}}}}
	return s
}

// TestADeclarationRefusesWhatItLeavesOut: the reference behind a
// declaration refuses, by name, a scenario that uses a feature it does
// not declare or a merged stack it can't set up, and plays the rest.
func TestADeclarationRefusesWhatItLeavesOut(t *testing.T) {
	s := mergedFlip()
	for _, tt := range []struct {
		d    declared.Declaration
		want string
	}{
		{declared.Declaration{}, ""},
		{declared.Declaration{Features: []model.Feature{model.FeatureMergedStacks, model.FeatureFlip}}, ""},
		{declared.Declaration{Features: []model.Feature{model.FeatureMergedStacks}}, "flip"},
		{declared.Declaration{Features: []model.Feature{}}, "merged_stacks"},
		{declared.Declaration{NoDirectSetup: true}, "can't start from a merged stack"},
	} {
		why := tt.d.Refusal(s)
		_, err := declared.Engine(tt.d).Run(context.Background(), s)
		if tt.want == "" {
			assert.Empty(t, why, tt.d.String())
			assert.NoError(t, err, tt.d.String())
			continue
		}
		assert.Contains(t, why, tt.want, tt.d.String())
		assert.ErrorIs(t, err, engine.ErrUnsupported, tt.d.String())
	}
}

// TestTrimLeavesOutWhatIsNotReported: the triggers of observers not
// declared, and with partial traces the zone changes, go; the rest of the
// rules' trace stays as it was.
func TestTrimLeavesOutWhatIsNotReported(t *testing.T) {
	s := mergedFlip()
	full, err := reference.Run(s)
	require.NoError(t, err)
	kinds := func(tr *model.Trace) (trig []model.Observer, zones int) {
		for _, e := range tr.Steps[0].Events {
			switch e.Kind {
			case model.Trigger:
				trig = append(trig, e.Observer)
			case model.ZoneChange:
				zones++
			}
		}
		return trig, zones
	}
	allTrig, allZones := kinds(full)
	require.Contains(t, allTrig, model.CreatureDies)
	require.NotZero(t, allZones)

	d := declared.Declaration{Observers: []model.Observer{model.CreatureDies}, PartialTraces: true}
	got, err := declared.Engine(d).Run(context.Background(), s)
	require.NoError(t, err)
	trig, zones := kinds(got)
	assert.Equal(t, []model.Observer{model.CreatureDies}, slices.Compact(trig))
	assert.Zero(t, zones)
	assert.Equal(t, full.Steps[0].State, got.Steps[0].State, "the states are the rules'")
}

// TestRandomDeclarationsSpanWhatVendorsDeclare: the suite's random
// declarations include every feature and observer declared and left out,
// every flag set and unset, and the shorthand of every feature (nil).
func TestRandomDeclarationsSpanWhatVendorsDeclare(t *testing.T) {
	require.Len(t, declared.Share(0, 1), declared.Declarations)
	seen := map[string]bool{}
	for _, i := range declared.Share(0, 1) {
		d := declared.Nth(i)
		seen["features nil"] = seen["features nil"] || d.Features == nil
		seen["observers nil"] = seen["observers nil"] || d.Observers == nil
		seen["partial"] = seen["partial"] || d.PartialTraces
		seen["whole"] = seen["whole"] || !d.PartialTraces
		seen["no direct setup"] = seen["no direct setup"] || d.NoDirectSetup
		seen["direct setup"] = seen["direct setup"] || !d.NoDirectSetup
		for _, f := range model.Features {
			has := d.Features == nil || slices.Contains(d.Features, f)
			seen["with "+string(f)] = seen["with "+string(f)] || has
			seen["without "+string(f)] = seen["without "+string(f)] || !has
		}
		for _, o := range model.Observers {
			has := d.Observers == nil || slices.Contains(d.Observers, o)
			seen["reports "+string(o)] = seen["reports "+string(o)] || has
			seen["silent on "+string(o)] = seen["silent on "+string(o)] || !has
		}
	}
	for k, v := range seen {
		assert.True(t, v, k)
	}
	assert.Len(t, seen, 6+2*len(model.Features)+2*len(model.Observers))
	// Shares partition the declarations.
	var all []int
	for k := range 4 {
		all = append(all, declared.Share(k, 4)...)
	}
	slices.Sort(all)
	assert.Equal(t, declared.Share(0, 1), all)
	assert.Equal(t, declared.Random(rand.New(rand.NewPCG(1, 2))), declared.Random(rand.New(rand.NewPCG(1, 2))))
}
