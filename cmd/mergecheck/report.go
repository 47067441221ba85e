package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
)

func readResults(path string) (*harness.Results, error) {
	d, err := readDocument(path)
	if err != nil {
		return nil, err
	}
	return d.ToResults(), nil
}

// readDocument reads a results file whole, with its comparison with a
// baseline if the run had one.
func readDocument(path string) (*reports.Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := reports.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// reportCmd re-renders a saved run.
func reportCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("report", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var out outputs
	out.flags(fl)
	files, err := parse(fl, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "mergecheck report: name one results file (written by mergecheck run --json)")
		return exitTrouble
	}
	if out == (outputs{}) {
		fmt.Fprintln(stderr, "mergecheck report: name at least one of --json, --junit, --html, --md")
		return exitTrouble
	}
	doc, err := readDocument(files[0])
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck report:", err)
		return exitTrouble
	}
	if err := out.write(doc.ToResults(), doc.Baseline, stdout); err != nil {
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
	files, err := parse(fl, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "mergecheck baseline: name one results file (written by mergecheck run --json)")
		return exitTrouble
	}
	res, err := readResults(files[0])
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck baseline:", err)
		return exitTrouble
	}
	if *reason == "" {
		*reason = "failing in the run of " + res.Started.Format(time.DateOnly)
	}
	b := reports.NewBaseline(res, *reason)
	return writeOut(*outPath, stdout, stderr, "baseline", func(w io.Writer) error { return reports.WriteBaseline(w, b) })
}

// mergeCmd combines the JSON results of a run's shards.
func mergeCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("merge", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var out outputs
	out.flags(fl)
	partial := fl.Bool("allow-partial", false, "merge even if shards of the run are missing; every report then says which")
	files, err := parse(fl, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "mergecheck merge: name the results files of the shards")
		return exitTrouble
	}
	if out == (outputs{}) {
		out.json = "-"
	}
	var shards []*harness.Results
	for _, path := range files {
		r, err := readResults(path)
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck merge:", err)
			return exitTrouble
		}
		shards = append(shards, r)
	}
	var order []model.RuleID
	for _, p := range properties.All {
		order = append(order, p.Rule)
	}
	merged, err := reports.Merge(order, *partial, shards...)
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

func writeOut(path string, stdout, stderr io.Writer, cmd string, render func(io.Writer) error) int {
	if path == "-" {
		if err := render(stdout); err != nil {
			fmt.Fprintf(stderr, "mergecheck %s: %v\n", cmd, err)
			return exitTrouble
		}
		return exitOK
	}
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		fmt.Fprintf(stderr, "mergecheck %s: %v\n", cmd, err)
		return exitTrouble
	}
	if err := writeFileAtomic(path, buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "mergecheck %s: %v\n", cmd, err)
		return exitTrouble
	}
	return exitOK
}
