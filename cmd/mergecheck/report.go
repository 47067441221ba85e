package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/atomicfile"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
)

// reportCmd re-renders a saved run.
func reportCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("report", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var out outputs
	out.flags(fl)
	issuesDir := fl.String("issues", "", "write a bug report of each finding into `DIR`: NAME.md and the scenario that shows it, NAME.scenario.json, named the same from night to night")
	expect := fl.String("expect", "", "leave out of --issues the failures this baseline `FILE` expects")
	_, docs, code, ok := readResultsArgs(fl, args, stderr, func(files []string) string {
		switch {
		case len(files) != 1:
			return "name one results file (written by mergecheck run --json)"
		case out == (outputs{}) && *issuesDir == "":
			return "name at least one of --json, --junit, --html, --md, --issues"
		case *expect != "" && *issuesDir == "":
			return "--expect is for --issues: the other reports keep the run's own comparison with its baseline"
		}
		return ""
	})
	if !ok {
		return code
	}
	res := docs[0].ToResults()
	if err := out.write(res, docs[0].Baseline, stdout); err != nil {
		fmt.Fprintln(stderr, "mergecheck report:", err)
		return exitTrouble
	}
	if *issuesDir != "" {
		if err := writeIssues(*issuesDir, *expect, res, stdout); err != nil {
			fmt.Fprintln(stderr, "mergecheck report:", err)
			return exitTrouble
		}
	}
	return exitOK
}

// writeIssues writes a bug report of each finding of res into dir (see
// reports.Issues), leaving out what the baseline file expect (if any)
// expects, and lists the files written.
func writeIssues(dir, expect string, res *harness.Results, stdout io.Writer) error {
	if expect != "" {
		b, err := readBaselineFile(expect)
		if err != nil {
			return err
		}
		res, _ = b.Apply(res, expect, time.Now())
	}
	issues, err := reports.Issues(res, failure.Engine(res.Engine.Name))
	if err != nil {
		return err
	}
	for _, is := range issues {
		if err := atomicfile.Write(filepath.Join(dir, is.Name+".scenario.json"), is.Scenario); err != nil {
			return err
		}
		if err := atomicfile.Write(filepath.Join(dir, is.Name+".md"), []byte(is.Markdown)); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s.md: %s\n", filepath.Join(dir, is.Name), is.Title)
	}
	return nil
}

// baselineCmd writes a baseline of a run's failures.
func baselineCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("baseline", flag.ContinueOnError)
	fl.SetOutput(stderr)
	outPath := fl.String("o", "-", "write the baseline to `FILE` (- for standard output)")
	reason := fl.String("reason", "", "reason recorded for every entry (default: the run's date)")
	_, docs, code, ok := readResultsArgs(fl, args, stderr, func(files []string) string {
		if len(files) != 1 {
			return "name one results file (written by mergecheck run --json)"
		}
		return ""
	})
	if !ok {
		return code
	}
	res := docs[0].ToResults()
	if *reason == "" {
		*reason = "failing in the run of " + res.Started.Format(time.DateOnly)
	}
	b := reports.NewBaseline(res, *reason)
	if err := writeReports(stdout, report{*outPath, func(w io.Writer) error { return reports.WriteBaseline(w, b) }}); err != nil {
		fmt.Fprintln(stderr, "mergecheck baseline:", err)
		return exitTrouble
	}
	return exitOK
}

// mergeCmd combines the JSON results of a run's shards.
func mergeCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("merge", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var out outputs
	out.flags(fl)
	partial := fl.Bool("allow-partial", false, "merge even if shards of the run are missing; every report then says which")
	expect := fl.String("expect", "", "judge the merged run against this baseline `FILE`, as run --expect does (the reports keep the comparison)")
	files, docs, code, ok := readResultsArgs(fl, args, stderr, func(files []string) string {
		if len(files) == 0 {
			return "name the results files of the shards"
		}
		return ""
	})
	if !ok {
		return code
	}
	if out == (outputs{}) {
		out.json = "-"
	}
	var order []model.RuleID
	for _, p := range properties.All {
		order = append(order, p.Rule)
	}
	merged, err := reports.Merge(order, *partial, runsOf(docs)...)
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck merge:", aboutFiles("merge", err, files))
		return exitTrouble
	}
	var rep *reports.BaselineReport
	if *expect != "" {
		b, err := readBaselineFile(*expect)
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck merge:", err)
			return exitTrouble
		}
		merged, rep = b.Apply(merged, *expect, time.Now())
	}
	if err := out.write(merged, rep, stdout); err != nil {
		fmt.Fprintln(stderr, "mergecheck merge:", err)
		return exitTrouble
	}
	if note := reports.Incomplete(merged); note != "" {
		fmt.Fprintln(stderr, "mergecheck merge:", note)
	}
	if rep != nil {
		var text strings.Builder
		printBaseline(&text, rep)
		fmt.Fprint(stderr, text.String())
	}
	return exitCode(merged, rep)
}

// readBaselineFile reads a baseline (mergecheck baseline writes one).
func readBaselineFile(path string) (*reports.Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--expect: %w", err)
	}
	defer f.Close()
	b, err := reports.ReadBaseline(f)
	if err != nil {
		return nil, fmt.Errorf("--expect %s: %w", path, err)
	}
	return b, nil
}
