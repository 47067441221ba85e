package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/reports"
)

// TestWrittenFiles_TheirReadersTakeThem: a run that cannot start its
// workers still writes results its readers take: when a parallel worker's
// adapter fails its handshake, every rule is that engine fault, the JSON
// is valid and report re-renders it, and the run exits 2.
func TestWrittenFiles_TheirReadersTakeThem(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	engine := "exec:" + badAdapter(t, "hello_once.py") + " " + filepath.Join(dir, "started")
	code, text, errOut := mc(t, "run", "--engine", engine, "--parallel", "2", "--rules", "730.2*", "--seed", "1", "--corpus", "", "--progress", "off", "--json", out)
	assert.Equal(t, exitTrouble, code, "%s\n%s", text, errOut)
	f, err := os.Open(out)
	require.NoError(t, err, "the results are written")
	defer f.Close()
	doc, err := reports.ReadJSON(f)
	require.NoError(t, err, "and valid")
	require.NotEmpty(t, doc.Results)
	for _, r := range doc.Results {
		assert.Equal(t, harness.Fault, r.Verdict, r.Rule)
		require.NotNil(t, r.Fault)
		assert.Contains(t, r.Fault.Error, "parallel worker")
	}
	code, _, errOut = mc(t, "report", out, "--md", filepath.Join(dir, "r.md"))
	assert.Equal(t, exitOK, code, "report takes the file: %s", errOut)
	assert.FileExists(t, filepath.Join(dir, "r.md"))
}

// TestRun_ACorpusThatIsAFileIsAFlagError: --corpus naming a plain file is
// refused before anything runs, saying what it must be, and no report is
// left behind.
func TestRun_ACorpusThatIsAFileIsAFlagError(t *testing.T) {
	dir := t.TempDir()
	file, out := filepath.Join(dir, "corpus.txt"), filepath.Join(dir, "r.json")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	code, _, errOut := mc(t, "run", "--corpus", file, "--rules", "730.2d", "--json", out)
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "--corpus "+file+": not a directory")
	assert.NoFileExists(t, out)
}

// TestStderr_PrintableInTextAndMarkdown: an adapter's standard error,
// escape sequences and NUL bytes included, reaches the text output and
// the Markdown report escaped (what a terminal would act on is shown, not
// done), and the JSON report whole.
func TestStderr_PrintableInTextAndMarkdown(t *testing.T) {
	dir := t.TempDir()
	out, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
	code, text, _ := mc(t, "run", "--engine", "exec:"+badAdapter(t, "noisy_stderr.py"), "--rules", "730.2d", "--seed", "1", "--corpus", "", "--progress", "off", "--json", out, "--md", md)
	assert.Equal(t, exitTrouble, code, text)
	assert.Contains(t, text, `\u001b[31mfatal:\u001b[0m the engine broke\u0000 here\u0007`)
	mdData, err := os.ReadFile(md)
	require.NoError(t, err)
	for name, s := range map[string]string{"text": text, "markdown": string(mdData)} {
		assert.NotContains(t, s, "\x1b", name)
		assert.NotContains(t, s, "\x00", name)
		assert.NotContains(t, s, "\x07", name)
	}
	assert.Contains(t, string(mdData), `\u001b[31mfatal:`)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	doc, err := reports.ReadJSON(f)
	require.NoError(t, err)
	assert.Contains(t, doc.Results[0].Fault.Stderr, "\x1b[31mfatal:\x1b[0m the engine broke\x00 here\x07", "kept whole in the JSON")
}

// TestExpect_ABaselineOfAnotherEngineIsRefused: a baseline made for one
// engine would let its known failures hide another's: run --expect
// refuses it, naming both, unless --expect-any-engine says to take it.
func TestExpect_ABaselineOfAnotherEngineIsRefused(t *testing.T) {
	dir := t.TempDir()
	results, baseline := filepath.Join(dir, "r.json"), filepath.Join(dir, "b.json")
	mc(t, "run", "--engine", "mutant:dies-per-card", "--rules", "730.3", "--seed", "1", "--corpus", "", "--progress", "off", "--json", results)
	code, _, errOut := mc(t, "baseline", results, "-o", baseline, "--reason", "known")
	require.Equal(t, exitOK, code, errOut)
	args := []string{"run", "--engine", "mutant:token-if-any-token", "--rules", "730.3", "--seed", "1", "--corpus", "", "--progress", "off", "--expect", baseline}
	code, _, errOut = mc(t, args...)
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, `a baseline of engine "mutant:dies-per-card", and this engine is "mutant:token-if-any-token"`)
	code, out, errOut := mc(t, append(args, "--expect-any-engine")...)
	assert.NotEqual(t, exitTrouble, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "baseline "+baseline)
}
