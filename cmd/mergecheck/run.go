package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/remote"
	"github.com/mergecheck/mergecheck/reports"
)

// openEngine opens --engine: "reference", "mutant:NAME", or "exec:COMMAND
// ARGS" for an adapter speaking the protocol (docs/PROTOCOL.md), whose
// handshake may take start (--start-timeout) at its start and at each
// restart after a fault; ctx ends a handshake at once (a signal), the
// adapter's process group stopped.
func openEngine(ctx context.Context, spec string, start time.Duration) (harness.Engine, error) {
	switch {
	case spec == "" || spec == "reference":
		return harness.Reference("")
	case strings.HasPrefix(spec, "mutant:"):
		return harness.Reference(strings.TrimPrefix(spec, "mutant:"))
	case strings.HasPrefix(spec, "lazy:"):
		return harness.Lazy(strings.TrimPrefix(spec, "lazy:"), 1)
	case strings.HasPrefix(spec, "exec:"):
		return harness.NewExecContext(ctx, strings.TrimPrefix(spec, "exec:"), harness.ExecOptions{Timeout: start, Harness: suiteName(thisBuild())})
	}
	return nil, fmt.Errorf("unknown engine %q: want reference, mutant:NAME, lazy:NAME or exec:COMMAND", spec)
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("run", flag.ContinueOnError)
	fl.SetOutput(stderr)
	engine := fl.String("engine", "reference", "engine to check: reference, mutant:NAME, lazy:NAME, or 'exec:COMMAND ARGS' for an adapter")
	checks := fl.Int("checks", 100, "cases per property")
	seed := fl.Uint64("seed", 0, "random seed (0 picks one; the seed used is printed)")
	rulesGlob := fl.String("rules", "", "comma-separated rule globs to check, e.g. '730.2*,702.140?'")
	duration := durationFlag(fl, "duration", 0, "time budget for the whole run, a `duration` such as 10m (0: none)")
	budgetCalls := fl.Int("budget-calls", 0, "engine calls the whole run may make, shared equally by the rules (0: no limit); for a slow engine")
	timeout := durationFlag(fl, "timeout", 5*time.Second, "time limit for the engine on one scenario, a `duration`")
	startTimeout := startTimeoutFlag(fl)
	shrink := durationFlag(fl, "shrink-time", 30*time.Second, "time each pass of shrinking (rapid's, at most 100 engine calls, then the domain steps) may spend on one counterexample, a `duration`")
	corpus := fl.String("corpus", defaultCorpus, "counterexample corpus `DIR`: replayed first, and every new counterexample is saved there (empty: none)")
	expect := fl.String("expect", "", "baseline `FILE` of rules the engine is known to fail")
	anyEngine := fl.Bool("expect-any-engine", false, "take --expect's baseline even if it was made for another engine")
	shardFlag := fl.String("shard", "", "check only shard `I/N` of the rules (1 <= I <= N), for splitting a run across machines; auto (or auto/N) takes it from the CI's parallel-job variables")
	verbose := fl.Bool("v", false, "print coverage labels for every rule")
	parallel := fl.Int("parallel", 0, "rules checked at once (0: the number of CPUs); an adapter gets a process per worker")
	progress := fl.String("progress", "auto", "progress on standard error: auto (a redrawn line on a terminal, else none), lines (a line per rule checked, for CI logs), or off")
	dumpDir := fl.String("dump", "", "write every scenario the engine plays, with its trace and the rules', into `DIR` (new or empty), as files replay and judge take, and index.jsonl with how each was judged")
	var out outputs
	out.flags(fl)
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "mergecheck run: unexpected argument %q\n", fl.Arg(0))
		return exitTrouble
	}
	if err := limits(
		positive("--checks", *checks), atMost("--checks", *checks, maxChecks, "cases per rule"), positive("--timeout", *timeout), positive("--start-timeout", *startTimeout), positive("--shrink-time", *shrink),
		atLeastZero("--duration", *duration, "0 is no budget"), atLeastZero("--parallel", *parallel, "0 is one per CPU"),
		atLeastZero("--budget-calls", *budgetCalls, "0 is no limit"),
	); err != nil {
		fmt.Fprintln(stderr, "mergecheck run:", err)
		return exitTrouble
	}
	if !slices.Contains([]string{"auto", "lines", "off"}, *progress) {
		fmt.Fprintf(stderr, "mergecheck run: --progress %q: want auto, lines or off\n", *progress)
		return exitTrouble
	}
	var shard harness.Shard
	if *shardFlag != "" {
		var err error
		if shard, err = parseShardFlag(*shardFlag, os.Getenv); err != nil {
			fmt.Fprintln(stderr, "mergecheck run:", err)
			return exitTrouble
		}
	}
	var baseline *reports.Baseline
	if *expect != "" {
		f, err := os.Open(*expect)
		if err == nil {
			baseline, err = reports.ReadBaseline(f)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(stderr, "mergecheck run: %s: %v\n", *expect, err)
			return exitTrouble
		}
	}
	if *corpus != "" {
		if info, err := os.Stat(*corpus); err == nil && !info.IsDir() {
			fmt.Fprintf(stderr, "mergecheck run: --corpus %s: not a directory (the corpus is a directory of counterexample files; a missing one is made)\n", *corpus)
			return exitTrouble
		}
	}
	props, err := selectRules(*rulesGlob)
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck run:", err)
		return exitTrouble
	}
	opts := &harness.Options{Checks: *checks, Seed: *seed, Budget: *duration, BudgetCalls: *budgetCalls, Timeout: *timeout, ShrinkTime: *shrink,
		Corpus: *corpus, Shard: shard, Parallel: *parallel}
	var dump *dumper
	if *dumpDir != "" {
		if dump, err = newDumper(*dumpDir); err != nil {
			fmt.Fprintln(stderr, "mergecheck run:", err)
			return exitTrouble
		}
		opts.OnPlayed = dump.played
	}
	// Signals end the run from here on, the adapter's handshake included:
	// its process group is stopped, and the reports say the run was
	// interrupted.
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	e, err := openEngine(ctx, *engine, *startTimeout)
	if err != nil && ctx.Err() != nil {
		res := harness.StartInterrupted(*engine, props, opts)
		res.Build = thisBuild()
		res.Suite = suiteName(res.Build)
		if out.json != "-" {
			var text bytes.Buffer
			printResults(&text, res, *verbose, *engine, *checks)
			io.WriteString(stdout, reports.Printable(text.String()))
		}
		if err := out.write(res, nil, stdout); err != nil {
			fmt.Fprintln(stderr, "mergecheck run:", err)
		}
		fmt.Fprintln(stderr, "mergecheck run: interrupted while the adapter was starting")
		return exitTrouble
	}
	var ae *harness.AdapterError
	if errors.As(err, &ae) {
		// The adapter started and broke before its handshake: that is an
		// engine fault of every rule, reported as any other.
		res := harness.StartFault(*engine, props, opts, err)
		if out.json != "-" {
			var text bytes.Buffer
			printResults(&text, res, *verbose, *engine, *checks) // which says err, once
			io.WriteString(stdout, reports.Printable(text.String()))
		} else {
			fmt.Fprintln(stderr, "mergecheck run:", err)
		}
		if err := out.write(res, nil, stdout); err != nil {
			fmt.Fprintln(stderr, "mergecheck run:", err)
		}
		return exitTrouble
	}
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck run:", err)
		return exitTrouble
	}
	if name := e.Info().Name; baseline != nil && baseline.Engine != "" && baseline.Engine != name && !*anyEngine {
		// Another engine's known failures would hide this one's.
		if c, ok := e.(io.Closer); ok {
			c.Close()
		}
		fmt.Fprintf(stderr, "mergecheck run: --expect %s: a baseline of engine %q, and this engine is %q (--expect-any-engine takes it all the same)\n", *expect, baseline.Engine, name)
		return exitTrouble
	}
	opts.Progress = progressTo(*progress, stderr)
	res, runErr := harness.Check(ctx, e, props, opts)
	if dump != nil {
		runErr = errors.Join(runErr, dump.close())
	}
	if res == nil || len(res.Results) == 0 && runErr != nil {
		// Nothing was judged (the corpus could not be read, say): no
		// report is written, rather than one its readers refuse.
		fmt.Fprintln(stderr, "mergecheck run:", runErr)
		return exitTrouble
	}
	res.Build = thisBuild()
	res.Suite = suiteName(res.Build)
	var rep *reports.BaselineReport
	if baseline != nil {
		res, rep = baseline.Apply(res, *expect, time.Now())
	}
	if out.json != "-" {
		var text bytes.Buffer
		err := safely(func() error {
			printResults(&text, res, *verbose, *engine, *checks)
			printBaseline(&text, rep)
			return nil
		})
		io.WriteString(stdout, reports.Printable(text.String()))
		if err != nil {
			// The files are still written, and the run ends as broken.
			fmt.Fprintln(stderr, "mergecheck run: writing the text report:", err)
			runErr = errors.Join(runErr, err)
		}
	}
	if err := out.write(res, rep, stdout); err != nil {
		fmt.Fprintln(stderr, "mergecheck run:", err)
		return exitTrouble
	}
	if runErr != nil {
		fmt.Fprintln(stderr, "mergecheck run:", runErr)
		return exitTrouble
	}
	return exitCode(res, rep)
}

func printBaseline(w io.Writer, rep *reports.BaselineReport) {
	if rep == nil {
		return
	}
	fmt.Fprintf(w, "baseline %s: %d expected failures", rep.File, len(rep.Expected))
	if len(rep.New) > 0 {
		fmt.Fprintf(w, ", NEW FAILURES %v", rep.New)
	}
	if len(rep.Fixed) > 0 {
		fmt.Fprintf(w, ", NOW HOLDING %v (remove them from the baseline)", rep.Fixed)
	}
	if len(rep.Expired) > 0 {
		fmt.Fprintf(w, ", expired entries %v", rep.Expired)
	}
	fmt.Fprintln(w)
}

func selectRules(globs string) ([]*properties.Property, error) {
	if err := properties.Validate(properties.All); err != nil {
		return nil, err
	}
	var list []string
	for g := range strings.SplitSeq(globs, ",") {
		if g = strings.TrimSpace(g); g != "" {
			list = append(list, g)
		}
	}
	return properties.Select(properties.All, list...)
}

// stopSignals end a run as an interrupt does: SIGTERM is what timeout(1)
// and a cancelled CI job send, SIGHUP what a closed terminal sends. The
// run stops its adapters, writes its results so far, marked interrupted,
// and exits 2.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// defaultCorpus is --corpus's default directory.
const defaultCorpus = "mergecheck-corpus"

// exitCode is 2 for an interrupted run, a broken engine or a rule
// mergecheck itself broke on (an internal error), 1 for a run that
// judged no rule at all (judgedAny), for a
// failed, blocked or uncovered rule or an unexplained departure (or,
// with a baseline, a new failure or an expected one that now holds), 0
// when everything checked held, or failed as expected, or was blocked by
// a failure expected.
func exitCode(res *harness.Results, rep *reports.BaselineReport) int {
	if res.Interrupted {
		return exitTrouble
	}
	faults, failures := 0, 0
	expected := map[model.RuleID]bool{}
	for _, r := range res.Results {
		expected[r.Rule] = r.Expected
	}
	for _, r := range res.Results {
		switch {
		case r.Expected:
		case r.Verdict == harness.Blocked && expected[r.BlockedBy]:
			// Blocked by a failure the baseline expects: known, and
			// judged once that is fixed.
		case r.Verdict == harness.Fault || r.Verdict == harness.Internal:
			faults++
		case r.Verdict == harness.Failed || r.Verdict == harness.Uncovered || r.Verdict == harness.Blocked:
			failures++
		}
	}
	failures += len(res.Unexplained)
	failures += len(res.MissingShards) // the rules of the missing shards are not held
	switch {
	case faults > 0:
		return exitTrouble
	case failures > 0 || (rep != nil && !rep.OK()) || !judgedAny(res):
		return exitFailed
	}
	return exitOK
}

// judgedAny reports whether a run judged the engine on any rule: held or
// failed one. A run where every rule was unsupported, unchecked or
// refused checked nothing, and is no green run.
func judgedAny(res *harness.Results) bool {
	return res.Count(harness.Held)+res.Count(harness.Failed) > 0
}

type listEntry struct {
	Rule         model.RuleID       `json:"rule"`
	Title        string             `json:"title"`
	Needs        []model.Feature    `json:"needs"`
	Observes     []model.Observer   `json:"observes,omitempty"` // the observers whose triggers it reads
	Events       bool               `json:"events,omitempty"`   // it reads zone changes or reveals, which partial traces may leave out
	Differential bool               `json:"differential,omitempty"`
	Cover        map[string]float64 `json:"cover,omitempty"`
	Reason       string             `json:"reason,omitempty"`
}

func listCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("list", flag.ContinueOnError)
	fl.SetOutput(stderr)
	asJSON := fl.Bool("json", false, "print a JSON array")
	abilities := fl.Bool("abilities", false, "list every ability the reference knows, its kind, what it does with it and why, and the kinds a card definition may declare for its own")
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	if *abilities {
		return listAbilities(stdout, *asJSON)
	}
	if err := properties.Validate(properties.All); err != nil {
		fmt.Fprintln(stderr, "mergecheck list:", err)
		return exitTrouble
	}
	entries := []listEntry{}
	for _, p := range properties.All {
		needs := p.Needs
		if needs == nil {
			needs = []model.Feature{}
		}
		entries = append(entries, listEntry{Rule: p.Rule, Title: p.Title(), Needs: needs, Observes: p.Observes, Events: p.Events,
			Differential: p.Differential, Cover: p.Cover, Reason: p.Uncheckable})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(entries); err != nil {
			return exitTrouble
		}
		return exitOK
	}
	for _, e := range entries {
		line := fmt.Sprintf("%-9s %s", e.Rule, e.Title)
		if e.Reason != "" {
			line += "\n          unchecked: " + e.Reason
		} else {
			var needs []string
			for _, f := range e.Needs {
				needs = append(needs, string(f))
			}
			for _, o := range e.Observes {
				needs = append(needs, "observer "+string(o))
			}
			if e.Events {
				needs = append(needs, "zone changes and reveals")
			}
			if len(needs) > 0 {
				line += "\n          needs: " + strings.Join(needs, ", ")
			}
		}
		fmt.Fprintln(stdout, line)
	}
	return exitOK
}

// judgeScenario plays s on e and judges it as a run would, by every
// property that can judge e (see harness.PlayAndJudge). It returns the
// violations by rule.
func judgeScenario(ctx context.Context, e harness.Engine, s *model.Scenario) (*model.Trace, []error, error) {
	return harness.PlayAndJudge(ctx, e, s, properties.All)
}

// limits returns the first error of a command's checks of its flags.
func limits(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// positive refuses a flag's value unless it is above zero.
func positive[T int | time.Duration](name string, v T) error {
	if v <= 0 {
		return fmt.Errorf("%s %v: must be positive", name, v)
	}
	return nil
}

// maxChecks is the most cases per rule a run may ask for: a hundred
// million, days of a fast engine's time for each rule. Past it the search
// library's own counts overflow, and a run would end with its internal
// message ("only generated 0 valid tests") instead of this one.
const maxChecks = 100_000_000

// atMost refuses a flag's value above max, saying what it counts.
func atMost(name string, v, max int, what string) error {
	if v > max {
		return fmt.Errorf("%s %d: at most %d %s", name, v, max, what)
	}
	return nil
}

// atLeastZero refuses a negative value of a flag whose zero means what
// zero says.
func atLeastZero[T int | time.Duration](name string, v T, zero string) error {
	if v < 0 {
		return fmt.Errorf("%s %v: must not be negative (%s)", name, v, zero)
	}
	return nil
}

// startTimeoutFlag is --start-timeout: how long an adapter may take to
// start and say hello, at the start of a command and at each restart
// after a fault, apart from any scenario's --timeout.
func startTimeoutFlag(fl *flag.FlagSet) *time.Duration {
	return durationFlag(fl, "start-timeout", remote.DefaultHandshake, "time an adapter may take to start and say hello, at the start and at each restart after a fault (never counted against a scenario's --timeout), a `duration`")
}

// listAbilities prints the abilities the reference knows
// (reference.Abilities) and the kinds a card definition may declare for
// its own (model.AbilityKindNames): as JSON, or a Markdown table, the one
// docs/SCENARIO.md holds.
func listAbilities(stdout io.Writer, asJSON bool) int {
	infos := reference.Abilities()
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Known    []reference.AbilityInfo `json:"known"`
			Declared []model.AbilityKindName `json:"declarable_kinds"`
		}{infos, model.AbilityKindNames}); err != nil {
			return exitTrouble
		}
		return exitOK
	}
	io.WriteString(stdout, abilitiesTable(infos))
	return exitOK
}

// abilitiesTable is the Markdown table of the abilities the reference
// knows, and the kinds a definition may declare.
func abilitiesTable(infos []reference.AbilityInfo) string {
	var b strings.Builder
	b.WriteString("| ability | kind | class | what the reference does | rules |\n|---|---|---|---|---|\n")
	for _, a := range infos {
		kind := string(a.Kind)
		if kind == "" {
			kind = "—"
		}
		var rs []string
		for _, r := range a.Rules {
			rs = append(rs, string(r))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", a.ID, kind, a.Class, strings.ReplaceAll(a.How, "|", "\\|"), strings.Join(rs, ", "))
	}
	var kinds []string
	for _, k := range model.AbilityKindNames {
		kinds = append(kinds, "`"+string(k)+"`")
	}
	var affects []string
	for _, a := range model.AffectedNames {
		affects = append(affects, "`"+string(a)+"`")
	}
	fmt.Fprintf(&b, "\nA card definition may declare its own abilities as %s (ability_kinds); a static one with an effect on %s is interpreted by layers (613.1f, 613.4c).\n",
		strings.Join(kinds, ", "), strings.Join(affects, ", "))
	return b.String()
}
