package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/declared"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/reports"
)

// TestKilledRunKeepsItsCounterexamples kills a run with SIGKILL as soon as
// its first counterexample is on disk: the file is whole, and the next run
// replays it before generating anything.
func TestKilledRunKeepsItsCounterexamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	bin := binary(t)
	corpus := t.TempDir()

	cmd := exec.Command(bin, "run", "--engine", "mutant:copy-copies-status", "--seed", "3", "--checks", "400", "--corpus", corpus)
	require.NoError(t, cmd.Start())
	var saved []string
	deadline := time.Now().Add(60 * time.Second)
	for len(saved) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		saved, _ = filepath.Glob(filepath.Join(corpus, "[0-9]*.json"))
	}
	require.NoError(t, cmd.Process.Kill())
	err := cmd.Wait()
	require.NotEmpty(t, saved, "no counterexample was saved")
	assert.Error(t, err, "the run was still going when it was killed")

	for _, f := range saved {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		_, err = model.DecodeScenario(data)
		assert.NoError(t, err, "%s is whole", f)
	}

	out, err := exec.Command(bin, "run", "--engine", "mutant:copy-copies-status", "--seed", "4", "--rules", "110.5*", "--corpus", corpus).CombinedOutput()
	require.Error(t, err)
	text := string(out)
	assert.Contains(t, text, "files replayed first")
	assert.True(t, strings.Index(text, "corpus") < strings.Index(text, "FAILED"), "the corpus is replayed before anything else:\n%s", text)
	assert.Contains(t, text, "saved: "+saved[0])
}

// TestInterruptEndsTheRunWithItsResults: Ctrl-C (SIGINT) in the middle of
// a run ends it cleanly: the rules checked so far are reported, the rest
// are uncovered (never held), and the reports are written.
func TestInterruptEndsTheRunWithItsResults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	dir := t.TempDir()
	// One worker checks the rules in order, and so many cases that the
	// run cannot end before the interrupt: it comes as soon as the
	// progress lines say the second rule (110.5a; 110.5 is unchecked) is
	// done.
	cmd := exec.Command(binary(t), "run", "--seed", "2", "--checks", "5000", "--parallel", "1", "--progress", "lines",
		"--corpus", "", "--json", filepath.Join(dir, "r.json"))
	var out strings.Builder
	cmd.Stdout = &out
	progress, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(progress)
	total := len(properties.All)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), fmt.Sprintf("progress: 2/%d rules checked", total)) {
	}
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	_, _ = io.Copy(io.Discard, progress) // to the end, before Wait closes it
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, exitTrouble, exit.ExitCode(), "an interrupted run exits 2:\n%s", out.String())
	assert.Regexp(t, `(?m)^held        110\.5a\b`, out.String())
	assert.Contains(t, out.String(), "INTERRUPTED 730.3e")
	assert.Contains(t, out.String(), "INCOMPLETE: the run was interrupted")
	d := readDoc(t, filepath.Join(dir, "r.json"))
	assert.Len(t, d["results"], total)
	assert.Equal(t, true, d["interrupted"])
	assert.NotContains(t, out.String(), "FAULT", "an interrupted case is not an engine fault")
}

// TestKillMatrix_EachMutantFailsOnlyItsOwnRules: every mutant fails every
// rule it names, the first among them, and no rule outside those it names
// (Breaks, and Also with the reason why), and none departs from the rules
// where no rule's check looks: one bug is reported under the rules it
// breaks, wherever its cases were drawn. selftest applies the same
// definition.
// draws1 keeps the draws at seed 1 of the engines that declare every
// feature, which many tests here check there in turn: the runs after the
// first take them (harness.Draws).
var draws1 = harness.NewDraws()

func TestKillMatrix_EachMutantFailsOnlyItsOwnRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mutant (or lazy engine) over every rule; go test without -short runs it")
	}
	eachMutantAt(t, 1, draws1, func(t *testing.T, m reference.Mutant, res *harness.Results, k kill) {
		assert.Empty(t, k.missed, "%s holds rules it breaks", m.Name)
		for _, r := range res.Results {
			if ce := r.Counterexample; ce != nil {
				assert.Regexp(t, `^[0-9.]+[a-z]?: [a-z0-9]+(-[a-z0-9]+)*$`, ce.Class, "%s: a class is the rule and a short key", r.Rule)
			}
		}
		if len(m.Also) > 0 {
			assert.NotEmpty(t, m.Why, "%s: say why it breaks %v too", m.Name, m.Also)
		}
		assertReadable(t, res, "mutant:"+m.Name)
	})
}

// TestKillMatrix_BlamesOnlyItsOwnRulesAtAnotherSeed: at seed 5 too, no
// mutant is blamed on a rule outside those it names, and none departs
// where no rule's check looks. Seed 5 is where a copy of a transformed
// permanent kept flipped was blamed on 707.5 (CR 110.5c, 707.8), and a
// blame that one seed's draws miss is found at another.
func TestKillMatrix_BlamesOnlyItsOwnRulesAtAnotherSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mutant over every rule; go test without -short runs it")
	}
	eachMutantAt(t, 5, harness.NewDraws(), func(*testing.T, reference.Mutant, *harness.Results, kill) {})
}

// eachMutantAt runs every mutant over every rule at seed, and holds each
// to being blamed on no rule outside those it names and departing
// nowhere no rule's check looks, before more checks of its own.
func eachMutantAt(t *testing.T, seed uint64, draws *harness.Draws, more func(*testing.T, reference.Mutant, *harness.Results, kill)) {
	for _, m := range reference.Mutants {
		t.Run(m.Name, func(t *testing.T) {
			e, err := harness.Reference(m.Name)
			require.NoError(t, err)
			res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed, Draws: draws})
			require.NoError(t, err)
			k := judgeMutant(m, res)
			assert.Empty(t, k.outside, "%s is blamed on rules outside %v and %v: %s", m.Name, m.Breaks, m.Also, strings.Join(k.kills, ", "))
			assert.Empty(t, k.unexplained, "%s departs where no rule's check looks", m.Name)
			more(t, m, res, k)
		})
	}
}

// goValue matches what Go prints of a value that is not words: a struct
// ({Tapped:false ...}), a map, a pointer, a nil, a slice ([a b], []), a
// formatting error, key=value flags and arrows.
var goValue = regexp.MustCompile(`\{[A-Z][A-Za-z]*:|map\[|&\{|%!|<nil>|=\[|\[\]|\b[a-z_]+=(true|false)\b|\[[a-z0-9@]+ [a-z0-9@]+|->`)

// assertReadable holds a run's text output to what a morning reader
// needs: no line over 300 characters, no Go value, the findings that
// block other rules before the others, each headline within 200
// characters.
func assertReadable(t *testing.T, res *harness.Results, engine string) {
	t.Helper()
	var b strings.Builder
	printResults(&b, res, false, engine, 100)
	out := b.String()
	for _, line := range strings.Split(out, "\n") {
		assert.LessOrEqual(t, len(line), 300, "%s: a line over 300 characters: %s", engine, line)
		if strings.HasPrefix(line, "FAILED ") {
			assert.LessOrEqual(t, len(line), 200, "%s: a headline over 200 characters: %s", engine, line)
		}
		assert.False(t, goValue.MatchString(line), "%s: a Go value: %s", engine, line)
	}
	findings := reports.Findings(res)
	for i := 1; i < len(findings); i++ {
		assert.GreaterOrEqual(t, len(findings[i-1].Blocks), len(findings[i].Blocks), "%s: the findings that block most come first", engine)
	}
}

// TestLazyEnginesAreJudgedAsSelftestSays: selftest's judgement of the lazy
// engines finds nothing wrong.
func TestLazyEnginesAreJudgedAsSelftestSays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mutant (or lazy engine) over every rule; go test without -short runs it")
	}
	for _, l := range reference.Lazies {
		e, err := harness.Lazy(l.Name, 1)
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: 1, Draws: draws1})
		require.NoError(t, err)
		assert.Empty(t, judgeLazy(l, res), l.Name)
		assertReadable(t, res, "lazy:"+l.Name)
	}
}

// TestGoValue_SeesWhatGoPrints: the pattern assertReadable holds the text
// output to catches what the messages printed before they were in words,
// and passes the words that replaced them.
func TestGoValue_SeesWhatGoPrints(t *testing.T) {
	for _, line := range []string{
		`p1 entered with status {Tapped:false Flipped:true FaceDown:false PhasedOut:false}`,
		`"Grizzly Bears" mv=2 colors=[G] types=[creature]`, `has abilities []`, `reports token=true`,
		`moved [c1->library t1->graveyard]`, `of components [c1 c2]`, `map[a:1]`,
	} {
		assert.True(t, goValue.MatchString(line), line)
	}
	for _, line := range []string{
		`p1 entered flipped: status is not a characteristic`, `name Grizzly Bears, mana value 2, colors G`,
		`has abilities none`, `reports itself a token`, `moved c1 to library and t1 to graveyard`, `of components c1 and c2`,
		`    again: mergecheck run --engine mutant:dies-per-card --rules 730.3,712.21 --checks 100 --seed 1`,
	} {
		assert.False(t, goValue.MatchString(line), line)
	}
}

// undeclared is an engine whose traces leave out the triggers of the
// observers it does not declare, as a real engine's do.
type undeclared struct {
	harness.Engine
	d declared.Declaration
}

func (e undeclared) Info() harness.EngineInfo {
	info := e.Engine.Info()
	info.Observers = e.d.Observers
	return info
}

func (e undeclared) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := e.Engine.Run(ctx, s)
	return e.d.Trim(t), err
}

// Test400_1_ALostCardIsNotAnUndeclaredTrigger: an engine that loses the
// card a mutating spell merges with and does not report "mutates"
// is told of the lost card; no line of its report names the observer it
// does not declare (the first departure was once a missing "mutates"
// trigger).
func Test400_1_ALostCardIsNotAnUndeclaredTrigger(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole run")
	}
	lossy, err := harness.Reference("mutate-drops-target-card")
	require.NoError(t, err)
	d := declared.Declaration{Observers: slices.DeleteFunc(slices.Clone(model.Observers), func(o model.Observer) bool { return o == model.Mutates })}
	res, err := harness.Check(context.Background(), undeclared{lossy, d}, properties.All, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	var b strings.Builder
	printResults(&b, res, false, "mutant:mutate-drops-target-card", 100)
	out := b.String()
	finding, _, _ := strings.Cut(out[strings.Index(out, "FAILED"):], "\nblocked")
	assert.NotContains(t, finding, string(model.Mutates))
	assert.Contains(t, finding, "FAILED      400.1")
	assertReadable(t, res, "mutant:mutate-drops-target-card")
}
