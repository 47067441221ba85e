package reference_test

import (
	"fmt"
	"testing"

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

// BenchmarkScaleComponents plays one merged permanent of 1, 8, 64 and 512
// components through three actions: the time per component should stay
// flat (linear cost), not grow with the stack.
func BenchmarkScaleComponents(b *testing.B) {
	for _, n := range []int{1, 8, 64, 512} {
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

// TestScaleScenariosPlay keeps the benchmarks' scenarios valid.
func TestScaleScenariosPlay(t *testing.T) {
	for _, s := range []*model.Scenario{bigStack(1), bigStack(64), longPlay(1), longPlay(100)} {
		if _, err := reference.Run(s); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
}
