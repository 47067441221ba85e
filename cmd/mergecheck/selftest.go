package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
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
	if err := fl.Parse(args); err != nil {
		return exitTrouble
	}
	props, err := selectRules("")
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck selftest:", err)
		return exitTrouble
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	survivors := 0
	matrix := map[string]map[model.RuleID]string{}
	for _, m := range reference.Mutants {
		e, err := harness.Reference(m.Name)
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck selftest:", err)
			return exitTrouble
		}
		res, err := harness.Check(ctx, e, props, &harness.Options{Checks: *checks, Seed: *seed})
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck selftest:", err)
			return exitTrouble
		}
		matrix[m.Name] = map[model.RuleID]string{}
		var kills []string
		for _, r := range res.Results {
			switch r.Verdict {
			case harness.Failed:
				comps, acts := r.Counterexample.Size()
				kills = append(kills, fmt.Sprintf("%s (%d components, %d actions)", r.Rule, comps, acts))
				matrix[m.Name][r.Rule] = "X"
			case harness.Fault:
				kills = append(kills, fmt.Sprintf("%s (engine fault)", r.Rule))
				matrix[m.Name][r.Rule] = "f"
			}
		}
		named := false
		for _, b := range m.Breaks {
			named = named || matrix[m.Name][b] == "X"
		}
		status := "killed by"
		if len(kills) == 0 {
			status, survivors = "SURVIVED", survivors+1
		} else if !named {
			status, survivors = "killed, but not by its own rules "+fmt.Sprint(m.Breaks)+", by", survivors+1
		}
		fmt.Fprintf(stdout, "mutant %s: %s %s\n", m.Name, status, strings.Join(kills, ", "))
	}
	printMatrix(stdout, props, matrix)
	fmt.Fprintf(stdout, "%d mutants, %d not killed by their own rules (%v)\n", len(reference.Mutants), survivors, time.Since(start).Round(time.Second))
	if survivors > 0 {
		return exitFailed
	}
	return exitOK
}

// printMatrix prints mutants against rules: X a counterexample, f an
// engine fault, . nothing.
func printMatrix(w io.Writer, props []*properties.Property, matrix map[string]map[model.RuleID]string) {
	var rules []model.RuleID
	for _, p := range props {
		if p.Uncheckable == "" {
			rules = append(rules, p.Rule)
		}
	}
	fmt.Fprintln(w, "\nkill matrix (X counterexample, f engine fault); columns:")
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
