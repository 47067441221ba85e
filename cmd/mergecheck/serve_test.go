package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// TestServeDecodesRepeatedDefinitionsAlike: a request whose card
// definitions serve has seen before decodes to what a fresh strict
// decoding gives, shares nothing with the earlier request, and a
// definition that differs in a key's case is still refused.
func TestServeDecodesRepeatedDefinitionsAlike(t *testing.T) {
	s := benchScenarios()[3]
	require.NotEmpty(t, s.Catalogue)
	line := append(append([]byte(`{"type":"run","id":7,"scenario":`), mustJSON(s)...), '}')

	_, first, err := decodeRequest(line)
	require.NoError(t, err)
	id, again, err := decodeRequest(line)
	require.NoError(t, err)
	assert.Equal(t, int64(7), id)
	var want model.Scenario
	require.NoError(t, model.Unmarshal(mustJSON(s), &want))
	if d := cmp.Diff(&want, again); d != "" {
		t.Fatalf("a repeated request decodes differently (-fresh +cached):\n%s", d)
	}
	first.Catalogue[0].Front.Types = append(first.Catalogue[0].Front.Types, "changed")
	first.Catalogue[0].Name = "changed"
	assert.NotEqual(t, "changed", again.Catalogue[0].Name, "the cached definition is copied out, not shared")
	assert.NotContains(t, again.Catalogue[0].Front.Types, "changed")

	bad := bytes.Replace(line, []byte(`"layout"`), []byte(`"Layout"`), 1)
	_, _, err = decodeRequest(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `did you mean "layout"`)
}
