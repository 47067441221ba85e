package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// TestExploreTakesTheLeastPlayedLabelRarestFirst: of a rule's first
// draws, explore plays first one with its rarest label, then one with
// the label it has not played yet, then, every label played once, the
// rarest again; draws without labels go in draw order.
func TestExploreTakesTheLeastPlayedLabelRarestFirst(t *testing.T) {
	drafts := func(labels ...[]string) []draft {
		var out []draft
		for i, l := range labels {
			out = append(out, draft{drawn: &drawn{s: &model.Scenario{Name: string(rune('a' + i))}}, labels: l})
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

// TestExploreTakesTheDraftWithMostNewLabelsFirst: a draft that shows two
// situations the rule has not played comes before drafts that show one,
// however rare; once every label is played, the rarest comes again.
func TestExploreTakesTheDraftWithMostNewLabelsFirst(t *testing.T) {
	var drafts []draft
	for i, l := range [][]string{{"up"}, {"down"}, {"up", "up"}, {"up", "down"}, {"up"}, {"left"}} {
		drafts = append(drafts, draft{drawn: &drawn{s: &model.Scenario{Name: string(rune('a' + i))}}, labels: l})
	}
	var order []string
	for _, d := range playOrder(drafts, 10) {
		order = append(order, d.s.Name)
	}
	// d shows up and down at once; f is the one left; then the rarest
	// label played least: down (b), then up, in draw order.
	assert.Equal(t, []string{"d", "f", "b", "a", "c", "e"}, order)
}

// TestExploreRoundsPlayNewSituationsFirst: after the first round, the
// rules whose next exploring case brings a label they have not played
// come before those whose next case repeats one, each in rule order.
func TestExploreRoundsPlayNewSituationsFirst(t *testing.T) {
	d := func(labels ...string) draft { return draft{drawn: &drawn{s: &model.Scenario{}}, labels: labels} }
	rule := func(name string, tries int, drafts ...draft) *judge {
		j := &judge{}
		j.drafts, j.tries = drafts, tries
		j.p = &properties.Property{Rule: model.RuleID(name)}
		return j
	}
	round := []*judge{
		rule("repeats", 1, d("on-top"), d("on-top")),
		rule("no-labels", 1, d(), d()),
		rule("new", 1, d("up"), d("down")),
		rule("new-among-two", 1, d("up"), d("up", "down")),
		rule("first-case", 0),
	}
	var order []model.RuleID
	for _, j := range freshFirst(round) {
		order = append(order, j.p.Rule)
	}
	assert.Equal(t, []model.RuleID{"new", "new-among-two", "first-case", "repeats", "no-labels"}, order)
}
