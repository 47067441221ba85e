package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

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
	files, docs, code, ok := readResultsArgs(fl, args, stderr, func(files []string) string {
		if len(files) == 0 {
			return "name the results files of the engines"
		}
		return ""
	})
	if !ok {
		return code
	}
	m, err := reports.BuildMatrix(*history, runsOf(docs)...)
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck matrix:", aboutFiles("matrix", err, files))
		return exitTrouble
	}
	if *jsonOut == "" && *mdOut == "" && *htmlOut == "" {
		*mdOut = "-"
	}
	if err := writeReports(stdout,
		report{*jsonOut, func(w io.Writer) error { return reports.WriteMatrixJSON(w, m) }},
		report{*mdOut, func(w io.Writer) error { return reports.WriteMatrixMarkdown(w, m) }},
		report{*htmlOut, func(w io.Writer) error { return reports.WriteMatrixHTML(w, m) }},
	); err != nil {
		fmt.Fprintln(stderr, "mergecheck matrix:", err)
		return exitTrouble
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
