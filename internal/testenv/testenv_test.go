package testenv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

func TestRuleList_ExpandsRangesOfLetters(t *testing.T) {
	got, err := RuleList("110.5b, 400.1, 702.140a-c,\n730.2")
	require.NoError(t, err)
	assert.Equal(t, []model.RuleID{"110.5b", "400.1", "702.140a", "702.140b", "702.140c", "730.2"}, got)
	for _, bad := range []string{"", "400.1,", "730.2d-a", "730.2a-dd", "7-a"} {
		_, err := RuleList(bad)
		assert.Error(t, err, bad)
	}
}
