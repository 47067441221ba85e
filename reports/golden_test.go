package reports_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
)

var update = flag.Bool("update", false, "rewrite the golden results files in testdata/results")

// mutateOnly is the reference declaring only mutate and merged stacks, the
// partial engine of issue 21's tests.
type mutateOnly struct{ harness.Engine }

func (e mutateOnly) Info() harness.EngineInfo {
	i := e.Engine.Info()
	i.Name, i.Features = "mutate-only", []model.Feature{model.FeatureMutate, model.FeatureMergedStacks}
	return i
}

// TestResultsJSON_TheSameForASeed keeps the results of a seed from
// changing under a refactoring: the reference, a mutant whose bug fails one
// rule, one whose lost card blocks the merge rules, a lazy engine and a
// partial one, each at seed 1, must give the JSON in testdata/results with
// its times left out. A change of behaviour regenerates them with -update,
// and the diff of the golden files is then part of the change's review.
func TestResultsJSON_TheSameForASeed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite against five engines")
	}
	ref, _ := harness.Reference("")
	token, _ := harness.Reference("token-if-any-token")
	lost, _ := harness.Reference("mutate-drops-target-card")
	lazy, err := harness.Lazy("no-steps", 1)
	require.NoError(t, err)
	for name, e := range map[string]harness.Engine{
		"reference": ref, "token-if-any-token": token, "mutate-drops-target-card": lost,
		"no-steps": lazy, "mutate-only": mutateOnly{ref},
	} {
		t.Run(name, func(t *testing.T) {
			// Shrinking stops at its time: far past what it takes, so that
			// a busy machine shrinks as far as an idle one.
			res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Seed: 1, Parallel: 2, ShrinkTime: 30 * time.Minute})
			require.NoError(t, err)
			var buf bytes.Buffer
			require.NoError(t, reports.WriteJSON(&buf, res))
			got := timeless(t, buf.Bytes())
			file := filepath.Join("testdata", "results", name+".json")
			if *update {
				require.NoError(t, os.WriteFile(file, got, 0o644))
			}
			want, err := os.ReadFile(file)
			require.NoError(t, err, "go test -run TestResultsJSON -update ./reports/ writes it")
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("the results of seed 1 changed (-%s +now):\n%s", file, diff)
			}
		})
	}
}

// timeless re-encodes a results document without its clock readings,
// which change from run to run.
func timeless(t *testing.T, data []byte) []byte {
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	delete(doc, "started")
	delete(doc, "elapsed_seconds")
	for _, r := range doc["results"].([]any) {
		delete(r.(map[string]any), "seconds")
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	require.NoError(t, err)
	return append(out, '\n')
}
