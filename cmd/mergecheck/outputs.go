package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/atomicfile"
	"github.com/mergecheck/mergecheck/reports"
)

// outputs are the report files a run or a re-render writes.
type outputs struct {
	json, junit, html, md string
}

func (o *outputs) flags(fl interface {
	StringVar(p *string, name, value, usage string)
}) {
	fl.StringVar(&o.json, "json", "", "write the results as versioned JSON to `FILE` (- for standard output)")
	fl.StringVar(&o.junit, "junit", "", "write JUnit XML to `FILE`")
	fl.StringVar(&o.html, "html", "", "write a self-contained HTML report to `FILE`")
	fl.StringVar(&o.md, "md", "", "write a Markdown summary to `FILE`")
}

// write renders every requested report; each file is written whole or not
// at all.
func (o *outputs) write(r *harness.Results, baseline *reports.BaselineReport, stdout io.Writer) error {
	doc := reports.FromResults(r)
	doc.Baseline = baseline
	return writeReports(stdout,
		report{o.json, func(w io.Writer) error { return reports.WriteDocument(w, doc) }},
		report{o.junit, func(w io.Writer) error { return reports.WriteJUnit(w, r) }},
		report{o.html, func(w io.Writer) error { return reports.WriteHTML(w, r) }},
		report{o.md, func(w io.Writer) error { return reports.WriteMarkdown(w, r) }},
	)
}

// writeFileAtomic writes a report file whole or not at all.
func writeFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data) }

// progressTo returns the progress callback of --progress: for "auto" a
// line redrawn in place when w is a terminal (nothing otherwise), for
// "lines" one line per rule checked, which reads well in a CI log and
// keeps a long run from looking idle, and for "off" nothing.
func progressTo(mode string, w io.Writer) func(harness.Progress) {
	text := func(p harness.Progress) string {
		left := ""
		if p.Budget > 0 {
			left = fmt.Sprintf(", %v left", (p.Budget - p.Elapsed).Round(time.Second))
		}
		return fmt.Sprintf("%d/%d rules checked, %d failed, %v%s", p.Done, p.Total, p.Failed, p.Elapsed.Round(time.Second), left)
	}
	switch mode {
	case "lines":
		return func(p harness.Progress) { fmt.Fprintln(w, "progress:", text(p)) }
	case "auto":
		f, ok := w.(*os.File)
		if !ok {
			return nil
		}
		if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			return nil
		}
		return func(p harness.Progress) {
			line := "\r" + text(p)
			if p.Done == p.Total {
				line += "\r" + strings.Repeat(" ", len(line)) + "\r"
			}
			fmt.Fprint(f, line)
		}
	}
	return nil
}

// parse parses flags wherever they stand among the arguments, so that
// "report RESULTS.json --html F" works as well as "report --html F
// RESULTS.json", and returns the other arguments.
func parse(fl *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := parseFlags(fl, args); err != nil {
			return nil, err
		}
		if fl.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fl.Arg(0))
		args = fl.Args()[1:]
	}
}
