package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/mergecheck/mergecheck/reports"
)

// diffCmd compares two runs of one engine: what got worse, what got
// better. It exits 1 when anything got worse, so a nightly job can alert.
func diffCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("diff", flag.ContinueOnError)
	fl.SetOutput(stderr)
	jsonOut := fl.String("json", "", "write the diff as JSON to `FILE` (- for standard output)")
	mdOut := fl.String("md", "", "write the diff as Markdown to `FILE`, for a pull-request comment or a chat message")
	htmlOut := fl.String("html", "", "write the diff as a self-contained HTML page to `FILE`")
	_, docs, code, ok := readResultsArgs(fl, args, stderr, func(files []string) string {
		if len(files) != 2 {
			return "name two results files, OLD.json and NEW.json"
		}
		return ""
	})
	if !ok {
		return code
	}
	d := reports.Compare(docs[0].ToResults(), docs[1].ToResults())
	text := report{"-", func(w io.Writer) error { return reports.WriteDiffText(w, d) }}
	if *jsonOut == "-" || *mdOut == "-" || *htmlOut == "-" {
		text.path = ""
	}
	if err := writeReports(stdout, text,
		report{*jsonOut, func(w io.Writer) error { return reports.WriteDiffJSON(w, d) }},
		report{*mdOut, func(w io.Writer) error { return reports.WriteDiffMarkdown(w, d) }},
		report{*htmlOut, func(w io.Writer) error { return reports.WriteDiffHTML(w, d) }},
	); err != nil {
		fmt.Fprintln(stderr, "mergecheck diff:", err)
		return exitTrouble
	}
	if d.Worse {
		return exitFailed
	}
	return exitOK
}
