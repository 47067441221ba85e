package reference_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/rules"
)

var update = flag.Bool("update", false, "rewrite the scenario and trace files under testdata/examples")

const examplesDir = "testdata/examples"

// writeFile writes atomically, so an interrupted -update leaves no partial file.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	require.NoError(t, err)
	_, err = tmp.Write(data)
	require.NoError(t, err)
	require.NoError(t, tmp.Close())
	require.NoError(t, os.Rename(tmp.Name(), path))
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := model.Encode(v)
	require.NoError(t, err)
	return b
}

// TestWorkedExamples plays every worked example from its file under
// testdata/examples, checks its hand-written expectations, and compares
// the trace with the golden trace beside it.
func TestWorkedExamples(t *testing.T) {
	names := map[string]bool{}
	for _, s := range examples() {
		names[s.Name] = true
		t.Run(s.Name, func(t *testing.T) {
			scenarioPath := filepath.Join(examplesDir, s.Name+".scenario.json")
			tracePath := filepath.Join(examplesDir, s.Name+".trace.json")
			if *update {
				writeFile(t, scenarioPath, encode(t, s))
			}
			data, err := os.ReadFile(scenarioPath)
			require.NoError(t, err, "run go test ./reference -update to write it")
			require.Equal(t, string(encode(t, s)), string(data), "%s is stale; run go test ./reference -update", scenarioPath)

			loaded, err := model.DecodeScenario(data)
			require.NoError(t, err)
			tr, err := reference.Run(loaded)
			require.NoError(t, err)
			require.NotEmpty(t, loaded.Expect, "a worked example states what the rules say must happen")
			assert.NoError(t, model.CheckExpectations(loaded, tr))

			if *update {
				writeFile(t, tracePath, encode(t, tr))
			}
			golden, err := os.ReadFile(tracePath)
			require.NoError(t, err)
			want, err := model.DecodeTrace(golden)
			require.NoError(t, err)
			if diff := cmp.Diff(want, tr); diff != "" {
				t.Errorf("trace differs from %s (-golden +reference):\n%s", tracePath, diff)
			}
		})
	}
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.scenario.json"))
	require.NoError(t, err)
	traces, err := filepath.Glob(filepath.Join(examplesDir, "*.trace.json"))
	require.NoError(t, err)
	for _, f := range traces {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		tr, err := model.DecodeTrace(data)
		require.NoError(t, err)
		for _, st := range tr.Steps {
			for _, e := range st.Events {
				if e.Rule != "" {
					_, ok := rules.Lookup(e.Rule)
					assert.True(t, ok, "%s cites rule %s, which the rules index does not have", f, e.Rule)
				}
			}
		}
	}
	require.NoError(t, err)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".scenario.json")
		assert.True(t, names[name], "%s has no example in examples_test.go; delete it or add one", f)
	}
}
