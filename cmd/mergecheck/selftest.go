package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

func selftest(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("selftest", flag.ContinueOnError)
	fl.SetOutput(stderr)
	checks := fl.Int("checks", 100, "cases per property and mutant")
	seed := fl.Uint64("seed", 1, "random seed")
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	if err := limits(positive("--checks", *checks), atMost("--checks", *checks, maxChecks, "cases per rule")); err != nil {
		fmt.Fprintln(stderr, "mergecheck selftest:", err)
		return exitTrouble
	}
	props, err := selectRules("")
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck selftest:", err)
		return exitTrouble
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	start := time.Now()
	// Every engine is checked at one seed, and the mutants and lazy
	// engines draw alike: the first run's draws serve the others.
	opts := &harness.Options{Checks: *checks, Seed: *seed, Draws: harness.NewDraws()}
	bad := 0
	matrix := map[string]map[model.RuleID]string{}
	check := func(e harness.Engine, err error) (*harness.Results, error) {
		if err != nil {
			return nil, err
		}
		return harness.Check(ctx, e, props, opts)
	}
	for _, m := range reference.Mutants {
		res, err := check(harness.Reference(m.Name))
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck selftest:", err)
			return exitTrouble
		}
		k := judgeMutant(m, res)
		matrix[m.Name] = k.cells
		status := "killed by"
		switch {
		case len(k.missed) > 0:
			status = fmt.Sprintf("NOT KILLED: it holds %v, which it breaks; failed", k.missed)
		case len(k.outside) > 0:
			status = fmt.Sprintf("killed, but also blamed on %v, outside its rules %v; failed", k.outside, append(slices.Clone(m.Breaks), m.Also...))
		case len(k.unexplained) > 0:
			status = fmt.Sprintf("killed, but its traces also departed where no rule's check looks (%s), a property missing or a check too narrow; failed", strings.Join(k.unexplained, "; "))
		}
		if len(k.missed)+len(k.outside)+len(k.unexplained) > 0 {
			bad++
		}
		fmt.Fprintf(stdout, "mutant %s: %s %s\n", m.Name, status, strings.Join(k.kills, ", "))
		if len(m.Also) > 0 {
			fmt.Fprintf(stdout, "    it also breaks %v: %s\n", m.Also, m.Why)
		}
	}
	printMatrix(stdout, props, matrix)
	fmt.Fprintln(stdout, "\nlazy engines (wrong the way real engines are; none may hold a rule whose mechanic it skips):")
	for _, l := range reference.Lazies {
		res, err := check(harness.Lazy(l.Name, *seed))
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck selftest:", err)
			return exitTrouble
		}
		problems := judgeLazy(l, res)
		if len(problems) > 0 {
			bad++
		}
		status := "ok"
		if len(problems) > 0 {
			status = "WRONG: " + strings.Join(problems, "; ")
		}
		fmt.Fprintf(stdout, "lazy %-10s %2d held, %2d failed, %2d uncovered, %d faults: %s (%s)\n", l.Name,
			res.Count(harness.Held), res.Count(harness.Failed), res.Count(harness.Uncovered), res.Count(harness.Fault), status, l.Bug)
	}
	fmt.Fprintf(stdout, "%d mutants and %d lazy engines, %d not judged as they must be (%v)\n", len(reference.Mutants), len(reference.Lazies), bad, time.Since(start).Round(time.Second))
	if bad > 0 {
		return exitFailed
	}
	return exitOK
}

// kill is how a run judged a mutant: the cells of its row of the kill
// matrix, the rules it names that held, the rules it failed outside
// those it names (Breaks and Also), and its unexplained departures.
type kill struct {
	cells       map[model.RuleID]string
	kills       []string
	missed      []model.RuleID
	outside     []model.RuleID
	unexplained []string
}

// judgeMutant applies the definition of "killed" the tests use: every rule
// the mutant breaks fails, and it fails no rule outside those it breaks
// or breaks as a consequence (a failure found by the trace's own check,
// 400.1, counts under that rule).
func judgeMutant(m reference.Mutant, res *harness.Results) kill {
	k := kill{cells: map[model.RuleID]string{}}
	named := append(slices.Clone(m.Breaks), m.Also...)
	for _, r := range res.Results {
		switch r.Verdict {
		case harness.Failed:
			comps, acts := r.Counterexample.Size()
			k.kills = append(k.kills, fmt.Sprintf("%s (%d components, %d actions)", r.Rule, comps, acts))
			k.cells[r.Rule] = "X"
			if !slices.Contains(named, r.Rule) && !slices.Contains(named, r.Counterexample.Found) {
				k.cells[r.Rule] = "!"
				k.outside = append(k.outside, r.Rule)
			}
		case harness.Fault:
			k.kills = append(k.kills, fmt.Sprintf("%s (engine fault)", r.Rule))
			k.cells[r.Rule] = "f"
			k.outside = append(k.outside, r.Rule)
		}
	}
	for _, b := range m.Breaks {
		if k.cells[b] != "X" {
			k.missed = append(k.missed, b)
		}
	}
	for _, u := range res.Unexplained {
		k.unexplained = append(k.unexplained, u.Error())
	}
	return k
}

// judgeLazy lists how a run misjudged a lazy engine: a rule it must fail
// that did not, a fault (a lazy engine is wrong, not broken), or, for one
// that plays no action, a rule held.
func judgeLazy(l reference.Lazy, res *harness.Results) []string {
	var out []string
	for _, r := range res.Results {
		switch {
		case r.Verdict == harness.Fault:
			out = append(out, fmt.Sprintf("%s is an engine fault", r.Rule))
		case l.SkipsActions && r.Verdict == harness.Held:
			out = append(out, fmt.Sprintf("%s held", r.Rule))
		}
	}
	for _, rule := range l.Fails {
		i := slices.IndexFunc(res.Results, func(r harness.Result) bool { return r.Rule == rule })
		if i >= 0 && res.Results[i].Verdict != harness.Failed {
			out = append(out, fmt.Sprintf("%s did not fail", rule))
		}
	}
	return out
}

// printMatrix prints mutants against rules: X a counterexample under a
// rule the mutant breaks, ! one under a rule it does not, f an engine
// fault, . nothing.
func printMatrix(w io.Writer, props []*properties.Property, matrix map[string]map[model.RuleID]string) {
	var rules []model.RuleID
	for _, p := range props {
		if p.Uncheckable == "" {
			rules = append(rules, p.Rule)
		}
	}
	fmt.Fprintln(w, "\nkill matrix (X counterexample, ! counterexample under a rule the mutant does not break, f engine fault); columns:")
	for i, r := range rules {
		fmt.Fprintf(w, "  %2d %s\n", i+1, r)
	}
	fmt.Fprintf(w, "%-30s", "")
	for i := range rules {
		fmt.Fprintf(w, "%3d", i+1)
	}
	fmt.Fprintln(w)
	for _, m := range reference.Mutants {
		fmt.Fprintf(w, "%-30s", m.Name)
		for _, r := range rules {
			cell := matrix[m.Name][r]
			if cell == "" {
				cell = "."
			}
			fmt.Fprintf(w, "%3s", cell)
		}
		fmt.Fprintln(w)
	}
}
