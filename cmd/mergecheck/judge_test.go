package main

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
)

// TestJudge_GivesReplaysVerdicts: judging the traces replay --trace wrote
// gives, for every worked example, the verdict replay gave playing the
// engine itself, for the reference and for two mutants (whose failures
// the traces carry).
func TestJudge_GivesReplaysVerdicts(t *testing.T) {
	examples := filepath.Join("..", "..", "reference", "testdata", "examples")
	files, _, err := harness.ScenarioFiles([]string{examples})
	require.NoError(t, err)
	verdictLine := regexp.MustCompile(`(?m)^(ok|FAIL)  +(\S+) \(`)
	for _, engine := range []string{"reference", "mutant:dies-per-card", "mutant:token-if-any-token"} {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			_, out, errOut := mc(t, "replay", "--engine", engine, "--trace", dir, examples)
			replayed := map[string]string{}
			for _, m := range verdictLine.FindAllStringSubmatch(out, -1) {
				replayed[m[2]] = m[1]
			}
			require.Len(t, replayed, len(files), "%s\n%s", out, errOut)
			failed := 0
			for _, path := range files {
				s, err := loadScenario(path)
				require.NoError(t, err)
				_, out, errOut := mc(t, "judge", path, filepath.Join(dir, s.Name+".trace.json"))
				m := verdictLine.FindStringSubmatch(out)
				require.NotNil(t, m, "%s: %s%s", s.Name, out, errOut)
				assert.Equal(t, replayed[s.Name], m[1], "%s:\n%s", s.Name, out)
				if m[1] == "FAIL" {
					failed++
				}
			}
			if engine != "reference" {
				assert.Positive(t, failed, "the mutant's traces fail no example: the test shows nothing")
			}
		})
	}
}

// TestJudge_RefusesATraceOfAnotherScenario: a trace names its scenario;
// judging it against another is an error that says so.
func TestJudge_RefusesATraceOfAnotherScenario(t *testing.T) {
	examples := filepath.Join("..", "..", "reference", "testdata", "examples")
	files, _, err := harness.ScenarioFiles([]string{examples})
	require.NoError(t, err)
	dir := t.TempDir()
	code, _, _ := mc(t, "replay", "--trace", dir, files[0])
	require.Equal(t, exitOK, code)
	first, err := loadScenario(files[0])
	require.NoError(t, err)
	code, _, errOut := mc(t, "judge", files[1], filepath.Join(dir, first.Name+".trace.json"))
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "the trace is of scenario \""+first.Name+"\"")
}
