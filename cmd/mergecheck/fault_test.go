package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/testenv"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reports"
)

// badAdapter returns the command of one of harness's bad adapters.
func badAdapter(t *testing.T, name string) string {
	t.Helper()
	python := testenv.Python3(t)
	path, err := filepath.Abs(filepath.Join("..", "..", "remote", "testdata", "adapters", name))
	require.NoError(t, err)
	return python + " " + path
}

// TestBadAdaptersNeverCrashTheRun: whatever an adapter does wrong (crash
// before its handshake or in the middle of a run, hang, write something
// that is not JSON or not text, flood, answer twice, answer a wrong id),
// mergecheck run writes its report, exits 2 for a broken engine, and
// never panics, with one worker and with two.
func TestBadAdaptersNeverCrashTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command with adapters")
	}
	bin := binary(t)
	for _, script := range []string{"crash_start.py", "crash_mid.py", "hang.py", "garbage.py", "binary.py", "flood.py", "double.py", "wrong_id.py"} {
		for _, parallel := range []int{2, 1} {
			t.Run(script+"/parallel="+strconv.Itoa(parallel), func(t *testing.T) {
				t.Parallel() // most of the time is spent waiting on timeouts
				out := filepath.Join(t.TempDir(), "results.json")
				cmd := exec.Command(bin, "run", "--engine", "exec:"+badAdapter(t, script), "--timeout", "1s", "--shrink-time", "1s",
					"--checks", "10", "--seed", "3", "--rules", "110.5*", "--parallel", strconv.Itoa(parallel),
					"--corpus", "", "--progress", "off", "--json", out)
				cmd.Env = append(os.Environ(), "MERGECHECK_BIN="+bin)
				text, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				require.True(t, errors.As(err, &exit), "%v\n%s", err, text)
				assert.Equal(t, exitTrouble, exit.ExitCode(), "%s", text)
				assert.NotContains(t, string(text), "panic", "%s", text)
				assert.NotContains(t, string(text), "goroutine ", "%s", text)
				f, err := os.Open(out)
				require.NoError(t, err, "no report was written:\n%s", text)
				defer f.Close()
				doc, err := reports.ReadJSON(f)
				require.NoError(t, err)
				assert.Len(t, doc.Results, 5, "every rule of 110.5* is reported")
				faults := 0
				for _, r := range doc.Results {
					if r.Fault != nil {
						faults++
						assert.NotEqual(t, "no error recorded", r.Fault.Error, r.Rule)
						assert.False(t, strings.Contains(r.Fault.Error, "<nil>"), "%s: %s", r.Rule, r.Fault.Error)
					}
				}
				assert.Positive(t, faults, "%s", text)
			})
		}
	}
}

// TestDivergenceIsAFindingNotAFault: an adapter whose engine can't play
// any merge, and says so with the "diverged" answer, is reported FAILED
// (exit 1), never as a broken engine, on the rules in play where it could
// not go on (the rules the rules' trace cites for the merge: 730.2 and
// 730.2b for a bare merge, 702.140c and 730.2b for a mutating spell's),
// with a counterexample of at most two components and two actions; the
// rule whose cases it took, 730.2c, is blocked by it.
func TestDivergenceIsAFindingNotAFault(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command with an adapter")
	}
	bin := binary(t)
	out := filepath.Join(t.TempDir(), "results.json")
	cmd := exec.Command(bin, "run", "--engine", "exec:"+badAdapter(t, "diverge_merges.py"), "--checks", "30", "--seed", "1",
		"--rules", "730.2,730.2b,730.2c,702.140c", "--corpus", "", "--progress", "off", "--json", out)
	cmd.Env = append(os.Environ(), "MERGECHECK_BIN="+bin)
	text, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v\n%s", err, text)
	assert.Equal(t, exitFailed, exit.ExitCode(), "%s", text)
	assert.NotContains(t, string(text), "FAULT")
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	doc, err := reports.ReadJSON(f)
	require.NoError(t, err)
	for _, r := range doc.Results {
		if r.Rule == "730.2c" {
			assert.Equal(t, "blocked", string(r.Verdict), "%s: %s", r.Rule, r.Why)
			assert.Contains(t, []model.RuleID{"730.2", "730.2b", "702.140c"}, r.BlockedBy)
			continue
		}
		require.Equal(t, "failed", string(r.Verdict), "%s: %s", r.Rule, r.Why)
		ce := r.Counterexample
		assert.Contains(t, ce.Problem, "could not play action", r.Rule)
		if r.Outside {
			// A rule outside --rules in play at a resolve the engine
			// could not play (702.140b, a mutating spell whose target
			// went away): its smallest case takes a third action.
			assert.Equal(t, model.RuleID("702.140b"), r.Rule)
			continue
		}
		comps := 0
		for _, p := range ce.Scenario.Start.Battlefield {
			comps += len(p.Components)
		}
		assert.LessOrEqual(t, comps, 2, "%s: %s", r.Rule, ce.Problem)
		assert.LessOrEqual(t, len(ce.Scenario.Actions), 2, "%s: %s", r.Rule, ce.Problem)
	}
}

// TestAnAdapterThatDoesNotExistStillGetsItsReport: an adapter command
// that can't even be started is an engine fault of every rule, written
// to --json like any other (before, no report was written), and the text
// says the cause once, not once a rule.
func TestAnAdapterThatDoesNotExistStillGetsItsReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.json")
	code, text, errOut := mc(t, "run", "--engine", "exec:/nonexistent/adapter --flag", "--rules", "730.2d,730.3,712.21",
		"--seed", "1", "--corpus", "", "--progress", "off", "--json", out)
	assert.Equal(t, exitTrouble, code, text)
	assert.Equal(t, 1, strings.Count(text, "FAULT"), text)
	assert.Contains(t, text, `FAULT       712.21, 730.2d, 730.3: engine fault: exec: starting "/nonexistent/adapter --flag"`)
	assert.Contains(t, text, "no such file or directory")
	assert.Empty(t, errOut, "the error is said once, on the FAULT line")
	f, err := os.Open(out)
	require.NoError(t, err, "no report was written")
	defer f.Close()
	doc, err := reports.ReadJSON(f)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"engine-fault": 3}, doc.Summary)
}

// TestFaultsOfOneCauseAreOneLine: engine faults that read the same but for
// the adapter's stderr, which names each request, are one FAULT line
// naming their rules, with the first one's stderr; another cause gets its
// own line.
func TestFaultsOfOneCauseAreOneLine(t *testing.T) {
	fault := func(rule model.RuleID, msg string, stderr ...string) harness.Result {
		return harness.Result{Rule: rule, Verdict: harness.Fault, Fault: &harness.EngineFault{Rule: rule, Err: errors.New(msg), Stderr: stderr}}
	}
	res := &harness.Results{Seed: 1, Results: []harness.Result{
		fault("730.2", `not a protocol message: "x" (adapter stderr: request 1)`, "request 1"),
		fault("730.2a", `not a protocol message: "x" (adapter stderr: request 7)`, "request 7"),
		fault("730.2b", "no answer to the request in time"),
	}}
	var b strings.Builder
	printResults(&b, res, false, "exec:bad", 100)
	out := b.String()
	assert.Equal(t, 2, strings.Count(out, "FAULT "), out)
	assert.Contains(t, out, "FAULT       730.2, 730.2a: engine fault: not a protocol message: \"x\" (adapter stderr: request 1)\n\trequest 1\n\t(the adapter's stderr of the first of them)\n")
	assert.Contains(t, out, "FAULT       730.2b: engine fault: no answer to the request in time\n")
}

// TestABannerBeforeTheHelloIsOneFaultWithItsStderr: an adapter that prints
// a banner before its hello faults every rule one way: one FAULT line,
// saying what it printed and what it wrote on stderr (before, a line a
// rule, without its stderr).
func TestABannerBeforeTheHelloIsOneFaultWithItsStderr(t *testing.T) {
	code, text, _ := mc(t, "run", "--engine", "exec:"+badAdapter(t, "banner.py"), "--rules", "730.2*", "--seed", "1",
		"--corpus", "", "--progress", "off")
	assert.Equal(t, exitTrouble, code, text)
	assert.Equal(t, 1, strings.Count(text, "FAULT"), text)
	assert.Contains(t, text, `FAULT       11 rules, 730.2 to 730.2j: engine fault: exec: the adapter's first line is not a hello message: "MyEngine 2.1 starting up, loading the card database..."`)
	assert.Contains(t, text, "\twarning: no config file, using the defaults\n")
}
