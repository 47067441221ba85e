package main

import (
	"flag"
	"fmt"
	"io"
	"time"

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
	_, docs, code, ok := readResultsArgs(fl, args, stderr, func(files []string) string {
		switch {
		case len(files) != 1:
			return "name one results file (written by mergecheck run --json)"
		case out == (outputs{}):
			return "name at least one of --json, --junit, --html, --md"
		}
		return ""
	})
	if !ok {
		return code
	}
	if err := out.write(docs[0].ToResults(), docs[0].Baseline, stdout); err != nil {
		fmt.Fprintln(stderr, "mergecheck report:", err)
		return exitTrouble
	}
	return exitOK
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
	if err := out.write(merged, nil, stdout); err != nil {
		fmt.Fprintln(stderr, "mergecheck merge:", err)
		return exitTrouble
	}
	if note := reports.Incomplete(merged); note != "" {
		fmt.Fprintln(stderr, "mergecheck merge:", note)
	}
	return exitCode(merged, nil)
}
