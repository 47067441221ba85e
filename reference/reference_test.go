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

// TestObserverMutantsFailTheirExamples: each mutant that reports one of
// the newer observers wrongly fails the expectation of the worked example
// that counts it, which the reference meets.
func TestObserverMutantsFailTheirExamples(t *testing.T) {
	byName := map[string]*model.Scenario{}
	for _, s := range examples() {
		byName[s.Name] = s
	}
	for _, tc := range []struct{ mutant, example, want string }{
		{"merge-triggers-permanent-enters", "702.140c-mutate-over-a-tapped-creature", "observer permanent_enters triggered 1 times, want 0"},
		{"face-down-per-component", "730.2f-merged-turned-face-down-then-up", "observer turned_face_down triggered 2 times, want 1"},
		{"nontoken-dies-if-any-card", "730.2d-merged-creature-topped-by-a-token-dies", "observer nontoken_creature_dies triggered 1 times, want 0"},
	} {
		t.Run(tc.mutant, func(t *testing.T) {
			s := byName[tc.example]
			require.NotNil(t, s, tc.example)
			tr, err := reference.Run(s)
			require.NoError(t, err)
			require.NoError(t, model.CheckExpectations(s, tr))
			tr, err = reference.RunMutant(s, tc.mutant)
			require.NoError(t, err)
			assert.ErrorContains(t, model.CheckExpectations(s, tr), tc.want)
		})
	}
}

// TestActionMutantsFailTheirExamples: each mutant of an action the
// generators do not draw fails the expectations of the worked example it
// names, which the reference meets.
func TestActionMutantsFailTheirExamples(t *testing.T) {
	byName := map[string]*model.Scenario{}
	for _, s := range examples() {
		byName[s.Name] = s
	}
	for _, m := range reference.Mutants {
		if m.Example == "" {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			s := byName[m.Example]
			require.NotNil(t, s, "mutant %s names example %q, which does not exist", m.Name, m.Example)
			tr, err := reference.Run(s)
			require.NoError(t, err)
			require.NoError(t, model.CheckExpectations(s, tr))
			tr, err = reference.RunMutant(s, m.Name)
			require.NoError(t, err, "a mutant plays the example through, wrongly")
			assert.Error(t, model.CheckExpectations(s, tr), "mutant %s meets every expectation of %s", m.Name, m.Example)
		})
	}
}
