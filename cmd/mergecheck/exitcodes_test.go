package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reports"
)

// exitRows reads the README's exit-code table: each row's text, and the
// code it gives.
func exitRows(t *testing.T) map[string]int {
	t.Helper()
	table := between(t, readREADME(t), "<!-- exit codes begin -->\n", "<!-- exit codes end -->")
	rows := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(table), "\n")[2:] {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		require.Len(t, cells, 2, "a row is | exit | when |: %q", line)
		code, err := strconv.Atoi(cells[0])
		require.NoError(t, err, "%q", line)
		rows[cells[1]] = code
	}
	return rows
}

// TestREADMEExitCodesAreTheCode: every row of the README's exit-code
// table is a situation the test makes, by the command where that is cheap
// and by the results the command would judge where a whole run would be
// needed (the signal, fault and internal-error tests make those runs);
// the code it ends with is the row's, and every situation has a row.
func TestREADMEExitCodesAreTheCode(t *testing.T) {
	dir := t.TempDir()
	at := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	results := func(rs ...harness.Result) *harness.Results { return &harness.Results{Results: rs} }
	held := harness.Result{Rule: "730.2d", Verdict: harness.Held}
	failed := harness.Result{Rule: "730.3", Verdict: harness.Failed}
	judged := func(res *harness.Results, rep *reports.BaselineReport) func(t *testing.T) int {
		return func(*testing.T) int { return exitCode(res, rep) }
	}
	command := func(args ...string) func(t *testing.T) int {
		return func(t *testing.T) int {
			code, _, _ := mc(t, args...)
			return code
		}
	}
	expected := failed
	expected.Expected = true
	blocked := harness.Result{Rule: "730.3", Verdict: harness.Blocked, BlockedBy: "730.2d"}
	unexplained := results(held)
	unexplained.Unexplained = []harness.Unexplained{{Aspect: "zone"}}
	missing := results(held)
	missing.MissingShards = []string{"2/2"}
	interrupted := results(held)
	interrupted.Interrupted = true
	faultMissing := results(held, harness.Result{Rule: "702.140b", Verdict: harness.Fault})
	faultMissing.MissingShards = []string{"2/2"}

	situations := map[string][]func(t *testing.T) int{
		"every rule judged held, or failed as the `--expect` baseline says it will": {
			command("run", "--rules", "730.2d", "--checks", "20", "--seed", "1", "--corpus", ""),
			judged(results(held, expected), &reports.BaselineReport{Expected: []model.RuleID{"730.3"}}),
		},
		"a rule failed, was blocked or went uncovered": {
			command("run", "--engine", "mutant:token-if-any-token", "--rules", "730.2d", "--seed", "1", "--corpus", ""),
			judged(results(held, blocked), nil),
			judged(results(held, harness.Result{Rule: "730.3", Verdict: harness.Uncovered}), nil),
		},
		"the engine departed from the rules where no check looks (an unexplained departure)": {judged(unexplained, nil)},
		"a failure the baseline expects now holds (so the baseline shrinks)": {
			judged(results(held), &reports.BaselineReport{Fixed: []model.RuleID{"730.2d"}}),
		},
		"no rule was judged: every one unsupported or unchecked (a `NOTHING JUDGED` line)": {
			judged(results(harness.Result{Rule: "730.2d", Verdict: harness.Unsupported}, harness.Result{Rule: "110.5", Verdict: harness.Unchecked}), nil),
		},
		"a partial merge left shards out": {judged(missing, nil)},
		"bad usage: an unknown flag or command, a value out of range": {
			command("run", "--no-such-flag"), command("no-such-command"), command("run", "--checks", "0"),
		},
		"unreadable or invalid input (a scenario, a results file, a baseline)": {
			command("replay", at("bad.scenario.json", `{"format": "mergecheck/scenario/v1", "grave": 1}`)),
			command("report", at("bad-results.json", `{"format": "mergecheck.results/v1"`), "--md", filepath.Join(dir, "out.md")),
			command("run", "--rules", "730.2d", "--expect", at("bad-baseline.json", `{"expected": 3}`)),
		},
		"an engine fault: the engine crashed, hung, or wrote what is not protocol": {
			command("run", "--engine", "exec:"+badAdapter(t, "crash_start.py"), "--rules", "730.2d", "--corpus", ""),
			judged(results(held, failed, harness.Result{Rule: "702.140b", Verdict: harness.Fault}), nil),
			judged(faultMissing, nil),
		},
		"an internal error of mergecheck's": {
			judged(results(held, failed, harness.Result{Rule: "702.140b", Verdict: harness.Internal}), nil),
		},
		"a signal stopped the run before its end (the reports say interrupted)": {judged(interrupted, nil)},
	}
	rows := exitRows(t)
	for row, code := range rows {
		cases, ok := situations[row]
		if !assert.True(t, ok, "the README's row %q has no situation in this test", row) {
			continue
		}
		for i, c := range cases {
			assert.Equal(t, code, c(t), "%q, case %d", row, i)
		}
	}
	for row := range situations {
		assert.Contains(t, rows, row, "a situation the README's table lacks")
	}
}
