package properties_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

func TestAllIsValid(t *testing.T) {
	require.NoError(t, properties.Validate(properties.All))
}

func TestValidateRejectsMalformedProperties(t *testing.T) {
	ok := *properties.P730_2d
	for _, tc := range []struct {
		name   string
		change func(p *properties.Property)
		want   string
	}{
		{"malformed rule", func(p *properties.Property) { p.Rule = "730.2dd" }, "malformed rule number"},
		{"unindexed rule", func(p *properties.Property) { p.Rule = "999.9" }, "no summary"},
		{"no generator", func(p *properties.Property) { p.Draws = nil }, "needs Check and Draws"},
		{"no check", func(p *properties.Property) { p.Check = nil }, "needs Check and Draws"},
		{"cover share out of range", func(p *properties.Property) { p.Cover = map[string]float64{"x": 1.5} }, "want (0, 1]"},
		{"cover without classify", func(p *properties.Property) { p.Classify = nil }, "Cover without Classify"},
		{"unknown feature", func(p *properties.Property) { p.Needs = []model.Feature{"teleport"} }, "unknown feature"},
		{"uncheckable with a check", func(p *properties.Property) { p.Uncheckable = "because" }, "no check or generator"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ok
			tc.change(&p)
			assert.ErrorContains(t, properties.Validate([]*properties.Property{&p}), tc.want)
		})
	}
	assert.ErrorContains(t, properties.Validate([]*properties.Property{&ok, &ok}), "listed twice")
}

func TestSelect(t *testing.T) {
	got, err := properties.Select(properties.All, "730.3*")
	require.NoError(t, err)
	var rules []model.RuleID
	for _, p := range got {
		rules = append(rules, p.Rule)
	}
	assert.Equal(t, []model.RuleID{"730.3", "730.3a", "730.3b", "730.3c", "730.3d", "730.3e"}, rules)

	both, err := properties.Select(properties.All, "730.2d", "110.5")
	require.NoError(t, err)
	assert.Equal(t, properties.P110_5, both[0], "in the order of the list, not of the globs")

	_, err = properties.Select(properties.All, "730.9*")
	assert.ErrorContains(t, err, "matches no property")
	_, err = properties.Select(properties.All, "[")
	assert.ErrorContains(t, err, "bad rule pattern")
}

// TestEveryRuleTheIssueNamesIsListed: the rules mergecheck list must show.
func TestEveryRuleTheIssueNamesIsListed(t *testing.T) {
	for _, r := range []model.RuleID{"730.2", "730.2a", "730.2b", "730.2c", "730.2d", "730.2e", "730.2f", "730.2g", "730.2h",
		"730.2i", "730.2j", "730.3", "730.3a", "730.3b", "730.3c", "730.3d", "730.3e", "702.140a", "702.140b", "702.140c",
		"702.140d", "702.140e", "702.140f", "701.42a", "701.42b", "701.42c", "712.4a", "712.4b", "712.4c", "712.8g", "712.15a",
		"712.16", "712.21", "712.21a", "712.21b", "712.21c", "712.21d", "712.21e", "110.5", "110.5a", "110.5b", "110.5c",
		"110.5d", "702.26b", "702.26c", "702.26d", "708.2a", "708.2b", "708.8", "708.9", "710.1b", "710.2", "710.4", "712.8d",
		"712.8e", "712.18", "704.5d"} {
		assert.NotNil(t, properties.Find(properties.All, r), r)
	}
}

// TestKey_IsLowerCaseWordsJoinedByHyphens: a class key is the same
// whatever the punctuation of the words it is made from.
func TestKey_IsLowerCaseWordsJoinedByHyphens(t *testing.T) {
	for in, want := range map[string]string{
		"a permanent's status":               "a-permanents-status",
		"the \"creature_dies\" triggers":     "the-creature-dies-triggers",
		"double-faced permanent, front face": "double-faced-permanent-front-face",
		"  ":                                 "",
	} {
		assert.Equal(t, want, properties.Key(in), in)
	}
}
