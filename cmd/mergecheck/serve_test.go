package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
)

// TestServeDecodesRepeatedDefinitionsAlike: a request whose card
// definitions serve has seen before decodes to what a fresh strict
// decoding gives, shares nothing with the earlier request, and a
// definition that differs in a key's case is still refused.
func TestServeDecodesRepeatedDefinitionsAlike(t *testing.T) {
	s := benchScenarios()[3]
	require.NotEmpty(t, s.Catalogue)
	line := append(append([]byte(`{"type":"run","id":7,"scenario":`), mustJSON(s)...), '}')
	memo := model.NewMemo()
	decodeRequest := func(line []byte) (int64, *model.Scenario, error) { return protocol.DecodeRequest(memo, line) }

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
	// Change the first decoding in place, everywhere a list is: neither
	// what the memo keeps nor what it hands out later may see it.
	for i := range first.Catalogue {
		d := &first.Catalogue[i]
		for k := range d.Front.Types {
			d.Front.Types[k] = "changed"
		}
		for k := range d.Front.Abilities {
			d.Front.Abilities[k] = "changed"
		}
	}
	_, third, err := decodeRequest(line)
	require.NoError(t, err)
	for _, got := range []*model.Scenario{again, third} {
		if d := cmp.Diff(&want, got); d != "" {
			t.Fatalf("a change to one decoding reached another (-fresh +decoded):\n%s", d)
		}
	}

	bad := bytes.Replace(line, []byte(`"layout"`), []byte(`"Layout"`), 1)
	_, _, err = decodeRequest(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `did you mean "layout"`)
}
