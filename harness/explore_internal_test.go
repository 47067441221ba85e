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
	var order []string
	for _, d := range playOrder(drafts(common, common, rare, common, rare, common), 10) {
		order = append(order, d.s.Name)
	}
	assert.Equal(t, []string{"c", "a", "e", "b", "d", "f"}, order)
	assert.Len(t, playOrder(drafts(common, common, rare, common, rare, common), 2), 2, "only those explore plays")

	plain := playOrder(drafts(nil, nil, nil), 5)
	require.NotEmpty(t, plain)
	assert.Equal(t, "a", plain[0].s.Name)
}
