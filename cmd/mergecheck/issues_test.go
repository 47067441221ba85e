package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// night runs a mutant on the rules of two mechanics, as a nightly job
// would, and returns its results file.
func night(t *testing.T, dir, name, mutant, seed string) string {
	t.Helper()
	path := filepath.Join(dir, name+".json")
	code, out, errOut := mc(t, "run", "--engine", "mutant:"+mutant, "--rules", "730.2*,730.3*,712.21*", "--seed", seed, "--corpus", "", "--progress", "off", "--json", path)
	require.NotEqual(t, exitTrouble, code, "%s\n%s", out, errOut)
	return path
}

// files lists a directory's file names with their contents.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = string(data)
	}
	return out
}

// TestIssues_OneFileABugStableFromNightToNight: report --issues writes a
// bug report and its scenario for each finding, the same files, byte for
// byte, for the same night, and under the same names at another seed;
// with the night before's baseline, a night with one new bug writes one.
func TestIssues_OneFileABugStableFromNightToNight(t *testing.T) {
	if testing.Short() {
		t.Skip("four runs")
	}
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	two := "merge-new-object+dies-per-card"
	first := night(t, dir, "first", two, "1")
	again := night(t, dir, "again", two, "1")
	other := night(t, dir, "other", two, "7")
	for name, results := range map[string]string{"first": first, "again": again, "other": other} {
		code, out, errOut := mc(t, "report", results, "--issues", at("issues-"+name))
		require.Equal(t, exitOK, code, "%s\n%s", out, errOut)
	}
	issues := files(t, at("issues-first"))
	var reports []string
	for name, text := range issues {
		if strings.HasSuffix(name, ".md") {
			reports = append(reports, name)
			assert.Contains(t, issues, strings.TrimSuffix(name, ".md")+".scenario.json", "each report has its scenario")
			for _, part := range []string{"# 730.", "**Rule 730.", "## What the engine did", "## The smallest scenario that shows it", "## Play it again", "mergecheck replay --engine mutant:" + two, "- seed: 1", "mergecheck " + version} {
				assert.Contains(t, text, part, name)
			}
		}
	}
	assert.Len(t, reports, 2, "one report a bug: %v", reports)
	assert.Equal(t, issues, files(t, at("issues-again")), "the same night writes the same files")
	assert.ElementsMatch(t, slices.Collect(maps.Keys(issues)), slices.Collect(maps.Keys(files(t, at("issues-other")))), "another seed names the same bugs alike")

	// The night before had one of the bugs; its baseline leaves it out.
	before := night(t, dir, "before", "dies-per-card", "1")
	code, _, errOut := mc(t, "baseline", before, "-o", at("baseline.json"), "--reason", "known")
	require.Equal(t, exitOK, code, errOut)
	code, out, errOut := mc(t, "report", first, "--issues", at("issues-new"), "--expect", at("baseline.json"))
	require.Equal(t, exitOK, code, "%s\n%s", out, errOut)
	fresh := files(t, at("issues-new"))
	assert.Len(t, fresh, 2, "one new bug, one report and its scenario: %v", slices.Collect(maps.Keys(fresh)))
	for name := range fresh {
		assert.Contains(t, issues, name, "the new bug's report is the one the whole night writes")
		assert.Contains(t, name, "battlefield", "the new bug is merge-new-object's")
	}
}

// TestDiff_EachBugNewStillThereOrGone: between two nights, one bug fixed
// and one new, diff says which, by finding, and the diff is worse.
func TestDiff_EachBugNewStillThereOrGone(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs")
	}
	dir := t.TempDir()
	old := night(t, dir, "old", "merge-new-object+dies-per-card", "1")
	new := night(t, dir, "new", "dies-per-card+turn-top-only", "1")
	code, out, errOut := mc(t, "diff", old, new)
	assert.Equal(t, exitFailed, code, errOut)
	assert.Regexp(t, `(?m)^BUG NEW +730\.2f: .*turned face down`, out)
	assert.Regexp(t, `(?m)^BUG STILL THERE +730\.3 and 712\.21: `, out)
	assert.Regexp(t, `(?m)^BUG GONE +730\.2 and 730\.2c: `, out)
	assert.Contains(t, out, "2 new bugs, 1 still there, 1 gone", "turning face up and turning face down only the topmost component: two bugs")
	code, out, _ = mc(t, "diff", old, new, "--md", "-")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, out, "| new | 730.2f |")
}
