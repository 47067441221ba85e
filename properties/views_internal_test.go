package properties

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// TestViews_SameAsFmtShowsThem: the views the checks compare, built
// without fmt for speed, read exactly as fmt would print them, for every
// permanent of the rules' traces of every property's draws.
func TestViews_SameAsFmtShowsThem(t *testing.T) {
	set := func(xs []string) []string { out := slices.Clone(xs); slices.Sort(out); return slices.Compact(out) }
	fmtChars := func(ch model.Characteristics) string {
		var colors, abilities []string
		for _, c := range ch.Colors {
			colors = append(colors, string(c))
		}
		for _, a := range ch.Abilities {
			abilities = append(abilities, string(a))
		}
		pt := func(p *int) string {
			if p == nil {
				return "-"
			}
			return fmt.Sprint(*p)
		}
		return fmt.Sprintf("%q mv=%d colors=%v types=%v subtypes=%v supertypes=%v p/t=%s/%s abilities=%v",
			ch.Name, ch.ManaValue, set(colors), set(ch.Types), set(ch.Subtypes), set(ch.Supertypes), pt(ch.Power), pt(ch.Toughness), set(abilities))
	}
	fmtPieces := func(s *model.Scenario, p *model.Permanent) string {
		var out []string
		for _, comp := range p.Components {
			v := fmt.Sprintf("%s:%s", comp.Object, orFront(comp.Face))
			if comp.FaceDown {
				v += ":down:" + string(comp.FaceDownBy)
			}
			out = append(out, v)
		}
		if isMelded(s, p) {
			slices.Sort(out)
		}
		return fmt.Sprintf("%v", out)
	}
	seen := 0
	for _, p := range All {
		if p.Draws == nil {
			continue
		}
		for i := range 20 {
			s := p.Draws.Gen().Example(i)
			tr, err := reference.Run(s)
			if err != nil {
				continue
			}
			for _, st := range append([]model.State{tr.Start}, statesOf(tr)...) {
				for k := range st.Battlefield {
					q := &st.Battlefield[k]
					seen++
					if q.Derived != nil {
						if got, want := charsView(q.Derived.Characteristics), fmtChars(q.Derived.Characteristics); got != want {
							t.Fatalf("charsView of %s: %s, fmt: %s", q.ID, got, want)
						}
					}
					want := fmt.Sprintf("%s flipped=%t face_down=%t", fmtPieces(s, q), q.Status.Flipped, q.Status.FaceDown)
					if got := physical(s, q); got != want {
						t.Fatalf("physical of %s: %s, fmt: %s", q.ID, got, want)
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no permanent compared")
	}
	empty := model.Characteristics{Name: `a "quoted" name`}
	if got, want := charsView(empty), fmtChars(empty); got != want {
		t.Errorf("charsView of empty characteristics: %s, fmt: %s", got, want)
	}
}

func statesOf(tr *model.Trace) []model.State {
	var out []model.State
	for _, st := range tr.Steps {
		out = append(out, st.State)
	}
	return out
}
