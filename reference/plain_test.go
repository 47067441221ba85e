package reference_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// TestPlainLeavesOutWhatEnginesDoNotKnow: over the worked examples,
// reference.Plain takes out rule citations and "by" attributions and
// reorders multi-valued characteristics somewhere, so that the tests that
// judge its traces test something.
func TestPlainLeavesOutWhatEnginesDoNotKnow(t *testing.T) {
	files, err := filepath.Glob("testdata/examples/*.trace.json")
	require.NoError(t, err)
	var rules, bys, reordered int
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		orig, err := model.DecodeTrace(data)
		require.NoError(t, err, f)
		plain, err := model.DecodeTrace(data)
		require.NoError(t, err)
		reference.Plain(plain)
		for i, st := range orig.Steps {
			for j, ev := range st.Events {
				assert.Empty(t, plain.Steps[i].Events[j].Rule)
				if ev.Rule != "" {
					rules++
				}
				for _, m := range ev.Moves {
					if m.By != "" {
						bys++
					}
				}
			}
			for k, p := range st.State.Battlefield {
				if p.Derived != nil && !cmp.Equal(p.Derived.Characteristics, plain.Steps[i].State.Battlefield[k].Derived.Characteristics) {
					reordered++
				}
			}
		}
	}
	assert.Positive(t, rules, "rule citations")
	assert.Positive(t, bys, "by attributions")
	assert.Positive(t, reordered, "reordered characteristics")
}
