package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/reference"
)

// TestDiffNamesWhatAMutantBreaks: a run of the reference as OLD and of a
// mutant as NEW differ by exactly the rules the mutant breaks, newly
// failing, and the diff exits 1; the other way round they newly hold and
// it exits 0.
func TestDiffNamesWhatAMutantBreaks(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	const mutant = "token-if-any-token"
	for engine, file := range map[string]string{"reference": "old.json", "mutant:" + mutant: "new.json"} {
		mc(t, "run", "--engine", engine, "--rules", "730.2*", "--seed", "1", "--checks", "50", "--corpus", "", "--json", at(file))
	}
	code, out, errOut := mc(t, "diff", at("old.json"), at("new.json"), "--json", at("diff.json"), "--md", at("diff.md"), "--html", at("diff.html"))
	assert.Equal(t, exitFailed, code, errOut)
	assert.Contains(t, out, "WORSE")
	var d struct {
		Worse   bool
		Changes []struct{ Rule, Kind string }
	}
	data, err := os.ReadFile(at("diff.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &d))
	assert.True(t, d.Worse)
	var failing []string
	for _, c := range d.Changes {
		require.Equal(t, "newly failing", c.Kind, "%s changed otherwise", c.Rule)
		failing = append(failing, c.Rule)
	}
	var breaks []string
	for _, r := range reference.FindMutant(mutant).Breaks {
		breaks = append(breaks, string(r))
	}
	assert.ElementsMatch(t, breaks, failing)
	html, err := os.ReadFile(at("diff.html"))
	require.NoError(t, err)
	assert.Contains(t, string(html), `id="rule-730.2d"`, "the new counterexample is drawn")

	code, out, errOut = mc(t, "diff", at("new.json"), at("old.json"))
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "NEWLY HOLDING")
	assert.Contains(t, out, "730.2d")
	assert.Contains(t, out, "nothing got worse")

	code, _, errOut = mc(t, "diff", at("old.json"))
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "name two results files")
}

// TestREADMEMatrixIsTheCommands: the matrix in the README is what the
// commands the README shows above it print, run as they are written in
// an empty directory.
func TestREADMEMatrixIsTheCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	before, rest, ok := strings.Cut(string(readme), "<!-- matrix begin -->\n```text\n")
	require.True(t, ok, "the README has a matrix")
	want, _, ok := strings.Cut(rest, "```\n<!-- matrix end -->")
	require.True(t, ok)
	i := strings.LastIndex(before, "```sh\n")
	require.NotEqual(t, -1, i, "the README shows the matrix's commands")
	block, _, _ := strings.Cut(before[i+len("```sh\n"):], "```")
	t.Chdir(t.TempDir())
	var code int
	var out, errOut string
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		words := shellWords(line)
		require.Equal(t, "mergecheck", words[0], line)
		code, out, errOut = mc(t, words[1:]...)
	}
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, want, out)
}
