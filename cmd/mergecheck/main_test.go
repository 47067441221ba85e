package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mc(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunHoldsOnTheReference(t *testing.T) {
	code, out, _ := mc(t, "run", "--rules", "730.2d,730.3", "--checks", "30", "--seed", "1")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "held        730.2d")
	assert.Contains(t, out, "seed 1")
}

func TestRunReportsAMutantsFailure(t *testing.T) {
	code, out, _ := mc(t, "run", "--engine", "mutant:token-if-any-token", "--rules", "730.2d", "--seed", "1")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, out, "FAILED      730.2d: ")
	assert.Contains(t, out, "scenario (shrunk): 2 components, 0 actions")
	assert.Contains(t, out, "again: mergecheck run --engine mutant:token-if-any-token --rules 730.2d --seed 1")
}

func TestRunRejectsBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--engine", "nope"},
		{"run", "--engine", "mutant:nope"},
		{"run", "--rules", "999.9"},
		{"run", "--checks", "0"},
		{"run", "--bogus"},
		{"run", "extra"},
		{"frobnicate"},
		{},
	} {
		code, _, errOut := mc(t, args...)
		assert.Equal(t, exitTrouble, code, "%v", args)
		assert.NotEmpty(t, errOut, "%v says why", args)
	}
}

func TestListJSON(t *testing.T) {
	code, out, _ := mc(t, "list", "--json")
	require.Equal(t, exitOK, code)
	var entries []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &entries))
	rules := map[string]map[string]any{}
	for _, e := range entries {
		for _, k := range []string{"rule", "title", "needs"} {
			assert.Contains(t, e, k)
		}
		rules[e["rule"].(string)] = e
	}
	for _, r := range []string{"730.2", "730.2d", "730.3e", "702.140a", "110.5", "712.21e"} {
		assert.Contains(t, rules, r)
	}
	assert.NotEmpty(t, rules["702.140a"]["reason"], "an uncheckable rule says why")
	assert.Nil(t, rules["730.2d"]["reason"])
}

func TestReplayExamplesAndBadFiles(t *testing.T) {
	code, out, _ := mc(t, "replay", "../../reference/testdata/examples")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "32 scenarios: 32 held")

	code, out, _ = mc(t, "replay", "--engine", "mutant:dies-per-card", "../../reference/testdata/examples/712.21-chittering-host-dies.scenario.json")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, out, "712.21: after action 0")

	bad := filepath.Join(t.TempDir(), "bad.scenario.json")
	require.NoError(t, os.WriteFile(bad, []byte("{\n  \"format\": 3\n}\n"), 0o644))
	code, out, _ = mc(t, "replay", bad)
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, out, "line 2, column 13")

	code, _, errOut := mc(t, "replay", filepath.Join(t.TempDir(), "missing.json"))
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "missing.json")
}

func TestExplainNamesTheRules(t *testing.T) {
	code, out, _ := mc(t, "explain", "../../reference/testdata/examples/712.21-chittering-host-dies.scenario.json")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "[CR 712.21: ")
	assert.True(t, strings.Contains(out, "trigger creature_dies for p1"))
}
