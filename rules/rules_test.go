package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

func TestIndexLoads(t *testing.T) {
	all := rules.All()
	require.NotEmpty(t, all)
	for _, r := range all {
		assert.True(t, rules.WellFormed(r.ID), r.ID)
		assert.NotEmpty(t, r.Summary, r.ID)
		assert.NotContains(t, r.Summary, "’", "%s: the summaries are ours, not the CR's typography", r.ID)
	}
	got, ok := rules.Lookup("730.2d")
	assert.True(t, ok)
	assert.Equal(t, model.RuleID("730.2d"), got.ID)
	assert.Empty(t, rules.Summary("999.9"))
}

func TestWellFormed(t *testing.T) {
	for id, ok := range map[model.RuleID]bool{"730.2d": true, "702.140b": true, "110.5": true, "903": true, "730.2dd": false, "7302d": false, "": false} {
		assert.Equal(t, ok, rules.WellFormed(id), id)
	}
}
