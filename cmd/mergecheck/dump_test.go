package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDump_ReplaysToTheSameVerdicts: run --dump writes every scenario the
// engine played with both traces, and the files play to the run's
// verdicts: judge holds exactly the cases the run held and fails the
// rest, and replay with the same engine fails as many as the run did.
// A directory that is not empty is refused, so that a dump is one run's.
func TestDump_ReplaysToTheSameVerdicts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dump")
	code, out, errOut := mc(t, "run", "--engine", "mutant:token-if-any-token", "--rules", "730.2d", "--checks", "30", "--seed", "1", "--corpus", "", "--progress", "off", "--dump", dir)
	require.Equal(t, exitFailed, code, "%s\n%s", out, errOut)
	f, err := os.Open(filepath.Join(dir, "index.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	held, other := 0, 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var e dumpEntry
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e))
		require.NotEmpty(t, e.EngineTrace, "case %d has the engine's trace", e.N)
		require.FileExists(t, filepath.Join(dir, e.RulesTrace))
		want := exitFailed
		if e.Outcome == "held" {
			want, held = exitOK, held+1
		} else {
			other++
		}
		code, out, errOut := mc(t, "judge", filepath.Join(dir, e.Scenario), filepath.Join(dir, e.EngineTrace))
		assert.Equal(t, want, code, "case %d, %s in the run: %s\n%s%s", e.N, e.Outcome, e.Problem, out, errOut)
	}
	require.NotZero(t, held, "some cases held")
	require.NotZero(t, other, "some failed")
	_, out, _ = mc(t, "replay", "--engine", "mutant:token-if-any-token", dir)
	assert.Contains(t, out, fmt.Sprintf("%d scenarios: %d held, 0 held in part, %d failed", held+other, held, other))

	code, _, errOut = mc(t, "run", "--rules", "730.2d", "--checks", "5", "--corpus", "", "--dump", dir)
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "not empty")
}
