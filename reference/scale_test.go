package reference_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// bigStack is one mutated permanent of n components (cards and tokens
// alternating, a mutator on top) that is tapped, untapped and finally put
// into a graveyard with its cards in a chosen order.
func bigStack(n int) *model.Scenario {
	bd := build.New(fmt.Sprintf("stack-%d", n), "")
	var comps []model.Component
	var cards []model.ObjectID
	for i := range n {
		id := model.ObjectID(fmt.Sprintf("c%d", i))
		switch {
		case i == 0:
			bd.Card(id, build.A, "Gemrazer")
		case i%2 == 1:
			bd.Token(id, build.A, "Beast Token")
		default:
			bd.Card(id, build.A, "Grizzly Bears")
		}
		if i%2 == 0 {
			cards = append([]model.ObjectID{id}, cards...)
		}
		comps = append(comps, build.Up(id))
	}
	bd.Perm("p1", build.A, comps...)
	bd.Do(model.Action{Type: model.Tap, Object: "p1"}, model.Action{Type: model.Untap, Object: "p1"},
		model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Order: cards}})
	return bd.Scenario()
}

// longPlay is a two-component merged permanent tapped and untapped n times.
func longPlay(n int) *model.Scenario {
	bd := build.New(fmt.Sprintf("actions-%d", n), "")
	bd.Card("c1", build.A, "Gemrazer")
	bd.Card("c2", build.A, "Grizzly Bears")
	bd.Perm("p1", build.A, build.Up("c1"), build.Up("c2"))
	for i := range n {
		typ := model.Tap
		if i%2 == 1 {
			typ = model.Untap
		}
		bd.Do(model.Action{Type: typ, Object: "p1"})
	}
	return bd.Scenario()
}

// BenchmarkScaleComponents plays one merged permanent of 1, 8, 64, 512
// and 4,096 components through three actions: the time per component
// should stay flat (linear cost), not grow with the stack.
func BenchmarkScaleComponents(b *testing.B) {
	for _, n := range []int{1, 8, 64, 512, 4096} {
		s := bigStack(n)
		b.Run(fmt.Sprintf("components=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reference.Run(s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/component")
		})
	}
}

// BenchmarkScaleActions plays 1, 10, 100 and 1000 actions: the time per
// action should stay flat.
func BenchmarkScaleActions(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		s := longPlay(n)
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reference.Run(s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/action")
		})
	}
}

// TestScale_MemoryGrowsLinearly: the bytes allocated per component, and
// per action, stay flat as a stack grows eightfold and as a play does. It
// counts bytes, which unlike time do not depend on the machine's load; a
// graveyard built by copying itself once per card failed it at 4,096.
func TestScale_MemoryGrowsLinearly(t *testing.T) {
	perUnit := func(s *model.Scenario, units int) float64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := reference.Run(s)
		runtime.ReadMemStats(&after)
		require.NoError(t, err)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(units)
	}
	for _, tc := range []struct {
		what         string
		small, big   *model.Scenario
		nSmall, nBig int
	}{
		{"components", bigStack(512), bigStack(4096), 512, 4096},
		{"actions", longPlay(1000), longPlay(8000), 1000, 8000},
	} {
		small, big := perUnit(tc.small, tc.nSmall), perUnit(tc.big, tc.nBig)
		assert.Less(t, big, 1.5*small, "%s: %.0f bytes each at %d, %.0f at %d", tc.what, small, tc.nSmall, big, tc.nBig)
	}
}

// TestScaleScenariosPlay keeps the benchmarks' scenarios valid.
func TestScaleScenariosPlay(t *testing.T) {
	for _, s := range []*model.Scenario{bigStack(1), bigStack(64), longPlay(1), longPlay(100)} {
		if _, err := reference.Run(s); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
}
