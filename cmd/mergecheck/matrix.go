package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/reports"
)

// matrixCmd sets the results of several engines side by side; with
// --history, several results of one engine are its nights, and each cell
// shows the trend.
func matrixCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("matrix", flag.ContinueOnError)
	fl.SetOutput(stderr)
	history := fl.Bool("history", false, "several results of one engine are its runs over time: its column is the latest, and each cell shows the trend")
	jsonOut := fl.String("json", "", "write the matrix as JSON to `FILE` (- for standard output)")
	mdOut := fl.String("md", "", "write the matrix as Markdown to `FILE` (the default, to standard output)")
	htmlOut := fl.String("html", "", "write the matrix as a self-contained HTML page to `FILE`")
	files, err := parse(fl, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "mergecheck matrix: name the results files of the engines")
		return exitTrouble
	}
	var runs []*harness.Results
	for _, path := range files {
		r, err := readResults(path)
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck matrix:", err)
			return exitTrouble
		}
		runs = append(runs, r)
	}
	m, err := reports.BuildMatrix(*history, runs...)
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck matrix:", aboutFiles("matrix", err, files))
		return exitTrouble
	}
	if *jsonOut == "" && *mdOut == "" && *htmlOut == "" {
		*mdOut = "-"
	}
	for _, o := range []struct {
		path   string
		render func(io.Writer) error
	}{
		{*jsonOut, func(w io.Writer) error { return reports.WriteMatrixJSON(w, m) }},
		{*mdOut, func(w io.Writer) error { return reports.WriteMatrixMarkdown(w, m) }},
		{*htmlOut, func(w io.Writer) error { return reports.WriteMatrixHTML(w, m) }},
	} {
		if o.path == "" {
			continue
		}
		if code := writeOut(o.path, stdout, stderr, "matrix", o.render); code != exitOK {
			return code
		}
	}
	return exitOK
}

// aboutFiles is an error of reports' op about the results read from
// files, with each result called by its file and without op's own prefix,
// which the command's name stands for.
func aboutFiles(op string, err error, files []string) string {
	var re *reports.RunsError
	if errors.As(err, &re) {
		return re.NameIn(files)
	}
	return strings.TrimPrefix(err.Error(), op+": ")
}
