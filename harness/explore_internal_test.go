package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// TestExploreTakesTheLeastPlayedLabelRarestFirst: of a rule's first
// draws, explore plays first one with its rarest label, then one with
// the label it has not played yet, then, every label played once, the
// rarest again; draws without labels go in draw order.
func TestExploreTakesTheLeastPlayedLabelRarestFirst(t *testing.T) {
	drafts := func(labels ...[]string) []draft {
		var out []draft
		for i, l := range labels {
			out = append(out, draft{s: &model.Scenario{Name: string(rune('a' + i))}, labels: l})
		}
		return out
	}
	common, rare := []string{"on-top"}, []string{"underneath"}
	j := &judge{seen: map[string]int{}, drafts: drafts(common, common, rare, common, rare, common)}
	var order []string
	for d := j.nextDraft(); d != nil; d = j.nextDraft() {
		d.played = true
		for _, l := range d.labels {
			j.seen[l]++
		}
		order = append(order, d.s.Name)
	}
	assert.Equal(t, []string{"c", "a", "e", "b", "d", "f"}, order)

	plain := &judge{seen: map[string]int{}, drafts: drafts(nil, nil, nil)}
	first := plain.nextDraft()
	require.NotNil(t, first)
	assert.Equal(t, "a", first.s.Name)
}
