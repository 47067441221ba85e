package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/model"
)

// TestCorpus_FileNamesNameTheirRule: replay tells corpus files from other
// JSON by their names, RULE-HASH.json, and reads the rule from them.
func TestCorpus_FileNamesNameTheirRule(t *testing.T) {
	for name, want := range map[string]model.RuleID{
		"730.2d-0123456789ab.json":          "730.2d",
		"dir/702.140e-abcdefabcdef.json":    "702.140e",
		"730.2d-0123456789a.json":           "",
		"730.2d-0123456789ag.json":          "",
		"x.scenario.json":                   "",
		"-0123456789ab.json":                "",
		"730.2d-0123456789ab.scenario.json": "",
	} {
		rule, ok := corpusRule(name)
		assert.Equal(t, want != "", ok, name)
		assert.Equal(t, want, rule, name)
	}
}
