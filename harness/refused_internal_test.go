package harness

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/properties"
)

// TestSetAsideRefused_OnlyWhereTheRefusalsExplainTheShortfall: a label
// short of its share is set aside for the engine's refusals only when,
// counting the scenarios it refused that reach it, it would have had its
// share; otherwise it stays short (uncovered), the draws' shortfall. A
// label that has its share, or that no refused scenario reaches, is left
// alone.
func TestSetAsideRefused_OnlyWhereTheRefusalsExplainTheShortfall(t *testing.T) {
	p := &properties.Property{Cover: map[string]float64{"x": 0.1}}
	for _, tc := range []struct {
		name            string
		cases, covered  int
		refused, labels int
		aside           bool
	}{
		{name: "covered", cases: 100, covered: 10, refused: 30, labels: 30},
		{name: "refused, and would have been covered", cases: 100, covered: 0, refused: 20, labels: 20, aside: true},
		{name: "some played, the rest refused", cases: 100, covered: 5, refused: 20, labels: 10, aside: true},
		{name: "short even with the refused", cases: 100, covered: 0, refused: 2, labels: 2},
		{name: "short, nothing of it refused", cases: 100, covered: 0, refused: 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Result{Cases: tc.cases, Coverage: map[string]int{"x": tc.covered}, Refused: tc.refused, Shares: map[string]float64{"x": 0.1}}
			if tc.labels > 0 {
				r.RefusedLabels = map[string]int{"x": tc.labels}
			}
			setAsideRefused(p, &r, map[string]string{"x": "not here"})
			_, aside := r.SetAside["x"]
			assert.Equal(t, tc.aside, aside)
			if tc.aside {
				assert.Equal(t, fmt.Sprintf("%s%d scenarios drawn that reach it, as: not here", refusedPrefix, tc.labels), r.SetAside["x"])
				assert.Empty(t, r.Shares, "a label set aside is asked no share")
				assert.Empty(t, uncovered(p, r))
			} else {
				assert.Equal(t, tc.covered >= 10, uncovered(p, r) == "")
			}
		})
	}
}
