package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrintedCommandsPaste: the again: and saved: lines of a failure run
// in a shell as printed and show the same failure: the adapter's command
// line quoted as one --engine value, and the checks and seed that drew
// the cases kept (before, the again: line split a served engine into
// arguments, and the saved: line replayed on the reference and held).
func TestPrintedCommandsPaste(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command over the protocol three times")
	}
	bin := binary(t)
	python, err := filepath.Abs(filepath.Join("..", "..", "remote", "testdata", "adapters", "diverge_merges.py"))
	require.NoError(t, err)
	for _, tc := range []struct{ name, run string }{
		// Time limits far past what a case takes, however busy the
		// machine: the again: line keeps them.
		{"served mutant", "mergecheck run --engine 'exec:mergecheck serve --mutant dies-per-card' --rules 730.3 --checks 150 --seed 2 --timeout 2m --progress off"},
		// A Python adapter that plays no merge (it asks mergecheck serve,
		// as $MERGECHECK_BIN, for everything else): a finding of 730.2,
		// the rule in play where it can't go on.
		{"python adapter", "mergecheck run --engine 'exec:python3 " + python + "' --rules 730.2 --checks 100 --seed 2 --timeout 2m --progress off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath("python3"); err != nil && tc.name == "python adapter" {
				t.Skip("python3 is not installed")
			}
			printedCommandsPaste(t, bin, tc.run)
		})
	}
}

// printedCommandsPaste runs run in a shell, then its again: and saved:
// lines as printed, and checks they show its failure.
func printedCommandsPaste(t *testing.T, bin, run string) {
	dir := t.TempDir()
	sh := func(line string) (string, int) {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "MERGECHECK_BIN="+bin)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		require.NoError(t, err, "%s\n%s", line, out)
		return string(out), 0
	}
	out, code := sh(run)
	require.Equal(t, exitFailed, code, out)
	failed := regexp.MustCompile(`(?m)^FAILED +(.*)$`).FindStringSubmatch(out)
	again := regexp.MustCompile(`(?m)^ +again: (.*)$`).FindStringSubmatch(out)
	saved := regexp.MustCompile(`(?m)^ +saved: .* \(replay: (.*)\)$`).FindStringSubmatch(out)
	require.NotNil(t, failed, out)
	require.NotNil(t, again, out)
	require.NotNil(t, saved, out)
	assert.Regexp(t, `--checks \d+ --seed 2 --timeout 2m0s$`, again[1])

	out, code = sh(again[1] + " --progress off")
	assert.Equal(t, exitFailed, code, out)
	assert.Contains(t, out, "FAILED      "+failed[1], "the same failure, found again")

	out, code = sh(saved[1])
	assert.Equal(t, exitFailed, code, out)
	_, problem, _ := strings.Cut(failed[1], ": ") // replay names no rule for a divergence
	if cut, ok := strings.CutSuffix(problem, " ..."); ok {
		// A headline of where and why, the why cut between words:
		// replay prints both whole.
		i := strings.LastIndex(cut, ": ")
		assert.Contains(t, out, cut[:i], "replayed on the engine that failed, not the reference")
		assert.Contains(t, out, cut[i+2:], "replayed on the engine that failed, not the reference")
		return
	}
	// A headline shortened to where and why (reports.Headline) has both
	// in the problem replay prints.
	i := strings.LastIndex(problem, ": ")
	assert.Contains(t, out, problem[:i], "replayed on the engine that failed, not the reference")
	assert.Contains(t, out, problem[i:], "replayed on the engine that failed, not the reference")
}
