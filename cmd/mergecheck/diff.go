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
	files, err := parse(fl, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) != 2 {
		fmt.Fprintln(stderr, "mergecheck diff: name two results files, OLD.json and NEW.json")
		return exitTrouble
	}
	old, err := readResults(files[0])
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck diff:", err)
		return exitTrouble
	}
	now, err := readResults(files[1])
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck diff:", err)
		return exitTrouble
	}
	d := reports.Compare(old, now)
	toStdout := *jsonOut == "-" || *mdOut == "-" || *htmlOut == "-"
	if !toStdout {
		if err := reports.WriteDiffText(stdout, d); err != nil {
			fmt.Fprintln(stderr, "mergecheck diff:", err)
			return exitTrouble
		}
	}
	for _, o := range []struct {
		path   string
		render func(io.Writer) error
	}{
		{*jsonOut, func(w io.Writer) error { return reports.WriteDiffJSON(w, d) }},
		{*mdOut, func(w io.Writer) error { return reports.WriteDiffMarkdown(w, d) }},
		{*htmlOut, func(w io.Writer) error { return reports.WriteDiffHTML(w, d) }},
	} {
		if o.path == "" {
			continue
		}
		if code := writeOut(o.path, stdout, stderr, "diff", o.render); code != exitOK {
			return code
		}
	}
	if d.Worse {
		return exitFailed
	}
	return exitOK
}
