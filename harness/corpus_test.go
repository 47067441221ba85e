package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

func checkCorpus(t *testing.T, engine, dir string, seed uint64, props ...*properties.Property) *harness.Results {
	t.Helper()
	e, err := harness.Reference(engine)
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 50, Seed: seed, Corpus: dir})
	require.NoError(t, err)
	return res
}

// TestCorpus_SavedThenReplayedFirst: a counterexample is saved as a
// readable scenario named after its rule and content, and the next run
// replays it before generating anything, whatever its seed.
func TestCorpus_SavedThenReplayedFirst(t *testing.T) {
	dir := t.TempDir()
	first := checkCorpus(t, "token-if-any-token", dir, 1, properties.P730_2d)
	ce := first.Results[0].Counterexample
	require.NotNil(t, ce)
	require.NotEmpty(t, ce.File)
	assert.True(t, strings.HasPrefix(filepath.Base(ce.File), "730.2d-"), ce.File)
	data, err := os.ReadFile(ce.File)
	require.NoError(t, err)
	saved, err := model.DecodeScenario(data)
	require.NoError(t, err)
	assert.Equal(t, ce.Scenario, saved)

	again := checkCorpus(t, "token-if-any-token", dir, 999, properties.P730_2d)
	require.Len(t, again.Corpus, 1)
	assert.Equal(t, "failed", again.Corpus[0].Outcome)
	r := again.Results[0]
	assert.Equal(t, harness.Failed, r.Verdict)
	assert.Equal(t, 0, r.Cases, "the corpus settled the rule before generation")
	assert.Equal(t, ce.File, r.Counterexample.File)

	fixed := checkCorpus(t, "", dir, 5, properties.P730_2d)
	assert.Equal(t, "held", fixed.Corpus[0].Outcome, "the fixed engine passes the saved scenario")
	assert.Equal(t, harness.Held, fixed.Results[0].Verdict)
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

// TestCorpus_CorruptFileIsReportedAndSkipped: a file that can't be read is
// named in the results, and the run goes on.
func TestCorpus_CorruptFileIsReportedAndSkipped(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "730.2d-000000000000.json"), []byte(`{"format": "mergecheck/scenario/v1", "nam`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "999.9z-111111111111.json"), []byte(`{}`), 0o644))
	res := checkCorpus(t, "", dir, 1, properties.P730_2d)
	require.Len(t, res.Corpus, 2)
	assert.Equal(t, "unreadable", res.Corpus[0].Outcome)
	assert.Contains(t, res.Corpus[0].Detail, "line 1")
	assert.Equal(t, "skipped", res.Corpus[1].Outcome)
	assert.Equal(t, harness.Held, res.Results[0].Verdict)
}

func TestShard_DealsRulesRoundRobin(t *testing.T) {
	_, err := harness.ParseShard("0/2")
	assert.Error(t, err)
	_, err = harness.ParseShard("3/2")
	assert.Error(t, err)
	s, err := harness.ParseShard("2/3")
	require.NoError(t, err)
	var picked []int
	for i := range 7 {
		if s.Selects(i) {
			picked = append(picked, i)
		}
	}
	assert.Equal(t, []int{1, 4}, picked)
}

// TestCorpus_AFileWhoseCaseDepartsIsNotHeld: a corpus file of one rule
// on which the engine departs from the rules in a way another rule's
// check names is reported as departed, not held.
func TestCorpus_AFileWhoseCaseDepartsIsNotHeld(t *testing.T) {
	dir := t.TempDir()
	first := checkCorpus(t, "library-top-card-only", dir, 1, properties.P730_3)
	ce := first.Results[0].Counterexample
	require.NotNil(t, ce)
	data, err := model.Encode(ce.Scenario)
	require.NoError(t, err)
	as3a := filepath.Join(dir, "730.3a-0000000000000000.json")
	require.NoError(t, os.WriteFile(as3a, data, 0o644))
	res := checkCorpus(t, "library-top-card-only", dir, 2, properties.P730_3, properties.P730_3a)
	var got *harness.CorpusReplay
	for i := range res.Corpus {
		if res.Corpus[i].File == as3a {
			got = &res.Corpus[i]
		}
	}
	require.NotNil(t, got)
	assert.Equal(t, "departed", got.Outcome)
	assert.Contains(t, got.Detail, "730.3's check")
}

// within fails t unless f returns within a minute, far past what it takes:
// a read of a named pipe would block for ever.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("still running after a minute: it blocks on what it reads")
	}
}

// TestCorpus_ANamedPipeIsNamedAndNeverOpened: a named pipe in the corpus
// directory, named as a corpus file, is reported skipped with what it is,
// and the run goes on: opening it would block the run for ever. In a
// directory given to replay it is skipped likewise, and named as a path
// itself it is an error.
func TestCorpus_ANamedPipeIsNamedAndNeverOpened(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "730.2d-0123456789ab.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	var res *harness.Results
	within(t, func() { res = checkCorpus(t, "", dir, 1, properties.P730_2d) })
	require.Len(t, res.Corpus, 1)
	assert.Equal(t, "skipped", res.Corpus[0].Outcome)
	assert.Contains(t, res.Corpus[0].Detail, "a named pipe, not a regular file: not opened")
	assert.Equal(t, harness.Held, res.Results[0].Verdict)

	examples := filepath.Join("..", "reference", "testdata", "examples")
	scenarios := t.TempDir()
	data, err := os.ReadFile(filepath.Join(examples, "730.3-three-card-mutated-creature-dies.scenario.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(scenarios, "a.scenario.json"), data, 0o600))
	pipe := filepath.Join(scenarios, "b.scenario.json")
	require.NoError(t, syscall.Mkfifo(pipe, 0o600))
	files, skipped, err := harness.ScenarioFiles([]string{scenarios})
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(scenarios, "a.scenario.json")}, files)
	require.Len(t, skipped, 1)
	assert.Contains(t, skipped[0], pipe+": a named pipe")
	_, _, err = harness.ScenarioFiles([]string{pipe})
	assert.ErrorContains(t, err, "a named pipe, not a regular file")
}
