package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/reference"
)

func mc(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunHoldsOnTheReference(t *testing.T) {
	code, out, _ := mc(t, "run", "--rules", "730.2d,730.3", "--checks", "30", "--seed", "1", "--corpus", t.TempDir())
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "held        730.2d 730.3\n")
	assert.Contains(t, out, "seed 1")
}

func TestRunReportsAMutantsFailure(t *testing.T) {
	code, out, _ := mc(t, "run", "--engine", "mutant:token-if-any-token", "--rules", "730.2d", "--seed", "1", "--corpus", "")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, out, "FAILED      730.2d: ")
	assert.Contains(t, out, "scenario (shrunk): 2 components, 0 actions")
	assert.Contains(t, out, "again: mergecheck run --engine mutant:token-if-any-token --rules 730.2d --checks 100 --seed 1")
}

func TestRunRejectsBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--engine", "nope"},
		{"run", "--engine", "mutant:nope"},
		{"run", "--rules", "999.9"},
		{"run", "--checks", "0"},
		{"run", "--checks", "1000000000000000000"}, // past what a run can count
		{"selftest", "--checks", "1000000000000000000"},
		{"run", "--progress", "sometimes"},
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
	for _, r := range []string{"730.2", "730.2d", "730.3e", "702.140f", "110.5", "712.21e"} {
		assert.Contains(t, rules, r)
	}
	assert.NotEmpty(t, rules["702.140f"]["reason"], "an uncheckable rule says why")
	assert.Nil(t, rules["730.2d"]["reason"])
}

func TestReplayExamplesAndBadFiles(t *testing.T) {
	files, err := filepath.Glob("../../reference/testdata/examples/*.scenario.json")
	require.NoError(t, err)
	code, out, _ := mc(t, "replay", "../../reference/testdata/examples")
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, fmt.Sprintf("%d scenarios: %d held", len(files), len(files)))

	code, out, _ = mc(t, "replay", "--engine", "mutant:dies-per-card", "../../reference/testdata/examples/712.21-chittering-host-dies.scenario.json")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, out, "712.21: after action 0")

	bad := filepath.Join(t.TempDir(), "bad.scenario.json")
	require.NoError(t, os.WriteFile(bad, []byte("{\n  \"format\": 3\n}\n"), 0o644))
	code, _, errOut := mc(t, "replay", bad)
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "line 2, column 13", "errors go to standard error")

	code, _, errOut = mc(t, "replay", filepath.Join(t.TempDir(), "missing.json"))
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "missing.json")
}

func TestExplainNamesTheRules(t *testing.T) {
	code, out, _ := mc(t, "explain", "../../reference/testdata/examples/712.21-chittering-host-dies.scenario.json")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "[CR 712.21: ")
	assert.True(t, strings.Contains(out, "trigger creature_dies for p1"))
}

// TestExplain_BesideAnEngineMarksWhereItDeparts: explain --engine prints
// the engine's trace beside the rules', step by step, the lines only the
// engine has after "+" and those only the rules have after "-", then what
// replay would find; an engine that keeps the rules gets no mark.
func TestExplain_BesideAnEngineMarksWhereItDeparts(t *testing.T) {
	file := "../../reference/testdata/examples/730.3-three-card-mutated-creature-dies.scenario.json"
	code, out, errOut := mc(t, "explain", "--engine", "mutant:dies-per-card", file)
	assert.Equal(t, exitFailed, code, errOut)
	assert.Contains(t, out, "    trigger creature_dies for p1\n")
	assert.Len(t, regexp.MustCompile(`(?m)^\+   trigger creature_dies for p1$`).FindAllString(out, -1), 2, out)
	assert.Contains(t, out, "judged as replay judges it:\n  730.3: after action 0 (move), \"creature_dies\" triggered 3 times")
	assert.Contains(t, out, "expectation 0 (after action 0): observer creature_dies triggered 3 times, want 1")

	code, out, _ = mc(t, "explain", "--engine", "mutant:token-if-any-token", file)
	assert.Equal(t, exitOK, code, out)
	assert.NotRegexp(t, `(?m)^[-+] `, out)
	assert.Contains(t, out, "the engine's trace is the rules'\n")
}

// TestReportsBaselineAndMerge walks the nightly path: shards write JSON,
// merge combines them, report re-renders, baseline makes the known
// failure expected, and a fixed engine then fails the baseline's check.
func TestReportsBaselineAndMerge(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	base := []string{"run", "--engine", "mutant:token-if-any-token", "--rules", "730.2*", "--seed", "1", "--corpus", ""}
	code, _, _ := mc(t, append(base, "--json", at("all.json"), "--junit", at("all.xml"), "--html", at("all.html"), "--md", at("all.md"))...)
	require.Equal(t, exitFailed, code)
	for _, f := range []string{"all.json", "all.xml", "all.html", "all.md"} {
		info, err := os.Stat(at(f))
		require.NoError(t, err, f)
		assert.NotZero(t, info.Size(), f)
	}
	for i := 1; i <= 2; i++ {
		code, _, _ = mc(t, append(base, "--shard", fmt.Sprintf("%d/2", i), "--json", at(fmt.Sprintf("s%d.json", i)))...)
		assert.NotEqual(t, exitTrouble, code)
	}
	code, out, errOut := mc(t, "merge", at("s1.json"), at("s2.json"), "--json", at("merged.json"))
	require.Equal(t, exitFailed, code, errOut)
	whole, merged := readDoc(t, at("all.json")), readDoc(t, at("merged.json"))
	assert.Equal(t, verdicts(whole), verdicts(merged))
	assert.Empty(t, out)

	code, _, errOut = mc(t, "report", at("merged.json"), "--html", at("again.html"))
	require.Equal(t, exitOK, code, errOut)

	code, _, _ = mc(t, "baseline", at("all.json"), "-o", at("baseline.json"), "--reason", "ticket 12")
	require.Equal(t, exitOK, code)
	code, out, _ = mc(t, append(base, "--expect", at("baseline.json"), "--json", at("expected.json"))...)
	assert.Equal(t, exitOK, code, "the known failure is expected:\n%s", out)
	assert.Contains(t, out, "expected    730.2d")
	code, _, errOut = mc(t, "report", at("expected.json"), "--json", at("expected-again.json"))
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, readDoc(t, at("expected.json"))["baseline"], readDoc(t, at("expected-again.json"))["baseline"], "report keeps the run's comparison with its baseline")
	assert.NotNil(t, readDoc(t, at("expected-again.json"))["baseline"])
	code, out, _ = mc(t, "run", "--rules", "730.2*", "--seed", "1", "--corpus", "", "--expect", at("baseline.json"), "--expect-any-engine")
	assert.Equal(t, exitFailed, code, "an expected failure that now holds fails the run, so the baseline shrinks")
	assert.Contains(t, out, "NOW HOLDING [730.2d]")

	require.NoError(t, os.WriteFile(at("bad.json"), []byte(`{"format": "mergecheck/baseline/v1", "expected": [{"rule": "730.2d"}]}`), 0o644))
	code, _, errOut = mc(t, "run", "--expect", at("bad.json"))
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "reason are required")
}

func readDoc(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(data, &d))
	return d
}

func verdicts(d map[string]any) map[string]string {
	out := map[string]string{}
	for _, r := range d["results"].([]any) {
		m := r.(map[string]any)
		out[m["rule"].(string)] = m["verdict"].(string)
	}
	return out
}

// TestFlagsAreChecked: a count or a duration that means nothing is refused
// with the flag's name, before anything runs.
func TestFlagsAreChecked(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--timeout", "0s"}, {"run", "--timeout", "-1s"}, {"run", "--parallel", "-3"},
		{"run", "--duration", "-5s"}, {"run", "--checks", "0"}, {"run", "--shrink-time", "0s"},
		{"selftest", "--checks", "-1"}, {"serve", "--max-in-flight", "0"},
		{"run", "--start-timeout", "0s"}, {"replay", "--start-timeout", "-1s", "x.json"}, {"explain", "--start-timeout", "0s", "x.json"},
	} {
		code, _, errOut := mc(t, args...)
		assert.Equal(t, exitTrouble, code, "%v", args)
		assert.Contains(t, errOut, args[1], "%v: the error names the flag", args)
	}
}

// TestFlags_ABadValueSaysWhatIsWrongInALine: a duration without its unit
// is named as such (Go's flag package says "parse error"), and a bad flag
// gets its error and a line on how to list the flags, not all of them.
func TestFlags_ABadValueSaysWhatIsWrongInALine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--timeout", "5"}, `invalid value "5" for flag -timeout: "5" has no unit: write 5s, 5m or 5h`},
		{[]string{"run", "--duration", "ten"}, `invalid value "ten" for flag -duration: "ten" is not a duration: write a number and a unit, as in 5s, 2m or 1h30m`},
		{[]string{"run", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"report", "--nope"}, "flag provided but not defined: -nope"},
	} {
		code, _, errOut := mc(t, tc.args...)
		assert.Equal(t, exitTrouble, code, "%v", tc.args)
		assert.Equal(t, tc.want+"\nmergecheck "+tc.args[0]+" -h lists its flags\n", errOut, "%v", tc.args)
	}
}

// TestHelpAndVersion: every command's -h and help COMMAND print its flags
// and exit 0; version takes no arguments.
func TestHelpAndVersion(t *testing.T) {
	for _, cmd := range []string{"run", "replay", "selftest", "report", "baseline", "merge", "serve", "diff", "matrix", "explain", "judge", "list", "version"} {
		code, _, errOut := mc(t, cmd, "-h")
		assert.Equal(t, exitOK, code, cmd)
		assert.Contains(t, errOut, "Usage of "+cmd, cmd)
		code, _, errOut = mc(t, "help", cmd)
		assert.Equal(t, exitOK, code, cmd)
		assert.Contains(t, errOut, "Usage of "+cmd, cmd)
	}
	code, _, errOut := mc(t, "version", "--x")
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, `unexpected argument "--x"`)
}

// TestMergeNamesTheMissingShard: two shards of three are refused, naming
// the third; with --allow-partial they merge, the results say which shard
// is missing, and the run does not pass.
func TestMergeNamesTheMissingShard(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for i := 1; i <= 2; i++ {
		path := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		// The default checks, so that every rule of the shards holds.
		code, _, errOut := mc(t, "run", "--rules", "730.2*", "--seed", "1", "--corpus", "", "--shard", fmt.Sprintf("%d/3", i), "--json", path)
		require.Equal(t, exitOK, code, errOut)
		shards = append(shards, path)
	}
	code, _, errOut := mc(t, append([]string{"merge"}, shards...)...)
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "shard 3/3 of the run is missing")
	merged := filepath.Join(dir, "merged.json")
	code, _, errOut = mc(t, append([]string{"merge", "--allow-partial", "--json", merged}, shards...)...)
	assert.Equal(t, exitFailed, code, errOut)
	assert.Contains(t, errOut, "Incomplete")
	assert.Equal(t, []any{"3/3"}, readDoc(t, merged)["missing_shards"])
}

// TestMatrixAndMergeNameTheFiles: results that can't go together are
// named by their files, once prefixed (before: "mergecheck matrix:
// matrix: results 0 and 1 are both of ...").
func TestMatrixAndMergeNameTheFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "monday.json"), filepath.Join(dir, "tuesday.json")
	for _, path := range []string{a, b} {
		code, _, errOut := mc(t, "run", "--rules", "730.2d", "--checks", "10", "--seed", "1", "--corpus", "", "--progress", "off", "--json", path)
		require.Equal(t, exitOK, code, errOut)
	}
	code, _, errOut := mc(t, "matrix", a, b)
	assert.Equal(t, exitTrouble, code)
	assert.Equal(t, "mergecheck matrix: "+a+" and "+b+" are both of mergecheck-reference "+reference.Version+": give one run per engine, or --history for several runs of one\n", errOut)
	code, _, errOut = mc(t, "merge", a, b)
	assert.Equal(t, exitTrouble, code)
	assert.Equal(t, "mergecheck merge: "+a+" and "+b+" are both shard 1/1\n", errOut)
}

// TestFindingsLine_NamesRulesOneScenarioFails: rules failed by one minimal
// scenario are one bug, shown once, and the text says which; a failure
// the baseline expects is no finding, and alone it prints no findings
// line.
func TestFindingsLine_NamesRulesOneScenarioFails(t *testing.T) {
	_, out, _ := mc(t, "run", "--engine", "mutant:merge-new-object", "--rules", "730.2,730.2c", "--seed", "1", "--corpus", "", "--progress", "off")
	assert.Contains(t, out, "FAILED      730.2, 730.2c: ")
	assert.Contains(t, out, "    also rule 730.2c: ")
	assert.Equal(t, 1, strings.Count(out, "scenario (shrunk)"), "one finding, shown once:\n%s", out)
	assert.Contains(t, out, "findings    1 bug failing 2 rules\n")

	dir := t.TempDir()
	results, baseline := filepath.Join(dir, "r.json"), filepath.Join(dir, "b.json")
	mc(t, "run", "--engine", "mutant:dies-per-card", "--rules", "730.3", "--seed", "1", "--corpus", "", "--progress", "off", "--json", results)
	code, _, errOut := mc(t, "baseline", results, "-o", baseline, "--reason", "known")
	require.Equal(t, exitOK, code, errOut)
	_, out, _ = mc(t, "run", "--engine", "mutant:dies-per-card", "--rules", "730.3", "--seed", "1", "--corpus", "", "--progress", "off", "--expect", baseline)
	assert.Contains(t, out, "expected    730.3")
	assert.NotContains(t, out, "findings")
}

// TestREADMEFailureSampleIsTheOutput: the README's sample of a failure is
// what the command it names prints, line for line up to the summary.
func TestREADMEFailureSampleIsTheOutput(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	m := regexp.MustCompile("\\(`(mergecheck run [^`]*)`\\):\n\n```\n((?s:.*?))```").FindSubmatch(readme)
	require.NotNil(t, m, "the README's failure sample and its command")
	// The command as a shell splits it: '' is an empty word.
	args := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(string(m[1]), "''", "\x00"), "'", ""))[1:]
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "\x00", "")
	}
	require.Contains(t, args, "--corpus", "the sample is of a run without a corpus, which saves nothing")
	_, out, _ := mc(t, append(args, "--progress", "off")...)
	assert.True(t, strings.HasPrefix(out, string(m[2])), "README:\n%s\noutput:\n%s", m[2], out)
}

// TestRun_NothingJudgedIsNoGreenRun: a run in which no rule held or
// failed (every one unsupported or unchecked) checked nothing: it exits 1
// and says so in one line, whether the rules can't be checked or the
// engine declares nothing they need.
func TestRun_NothingJudgedIsNoGreenRun(t *testing.T) {
	code, out, _ := mc(t, "run", "--rules", "110.5,702.140f", "--seed", "1", "--corpus", "", "--progress", "off")
	assert.Equal(t, exitFailed, code, out)
	assert.Contains(t, out, "NOTHING JUDGED: no rule held or failed")
	if testing.Short() {
		return
	}
	code, out, _ = mc(t, "run", "--engine", "exec:"+binary(t)+` serve --features '""'`, "--rules", "730.2*", "--seed", "1", "--corpus", "", "--progress", "off")
	assert.Equal(t, exitFailed, code, out)
	assert.Contains(t, out, "NOTHING JUDGED")
	code, out, _ = mc(t, "run", "--rules", "110.5,730.2d", "--seed", "1", "--corpus", "", "--progress", "off")
	assert.Equal(t, exitOK, code, "one rule held: %s", out)
	assert.NotContains(t, out, "NOTHING JUDGED")
}
