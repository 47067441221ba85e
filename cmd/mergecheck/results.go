package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/reports"
)

// readResultsArgs is the start the subcommands that read results files
// and write reports share (report, baseline, merge, diff, matrix): it
// parses fl's flags wherever they stand among args, lets check refuse the
// other arguments (it returns what is wrong, or ""), and reads each as a
// results file. When ok is false it has said why on stderr, and the
// subcommand ends with code: 0 for -h, 2 otherwise.
func readResultsArgs(fl *flag.FlagSet, args []string, stderr io.Writer, check func(files []string) string) (files []string, docs []*reports.Document, code int, ok bool) {
	files, err := parse(fl, args)
	if err != nil {
		return nil, nil, flagExit(err), false
	}
	if why := check(files); why != "" {
		fmt.Fprintf(stderr, "mergecheck %s: %s\n", fl.Name(), why)
		return nil, nil, exitTrouble, false
	}
	for _, path := range files {
		d, err := readDocument(path)
		if err != nil {
			fmt.Fprintf(stderr, "mergecheck %s: %v\n", fl.Name(), err)
			return nil, nil, exitTrouble, false
		}
		docs = append(docs, d)
	}
	return files, docs, exitOK, true
}

// runsOf is the results of each document.
func runsOf(docs []*reports.Document) []*harness.Results {
	var runs []*harness.Results
	for _, d := range docs {
		runs = append(runs, d.ToResults())
	}
	return runs
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

// A report is one document a subcommand writes: where (- for standard
// output, empty for nowhere) and how to render it.
type report struct {
	path   string
	render func(io.Writer) error
}

// writeReports writes every report that has a path, in order, each
// rendered whole before any of it is written, so that a file is written
// whole or not at all.
func writeReports(stdout io.Writer, rs ...report) error {
	var errs []error
	for _, r := range rs {
		if r.path == "" {
			continue
		}
		var buf bytes.Buffer
		if err := safely(func() error { return r.render(&buf) }); err != nil {
			// The other reports are still written: one that can't be
			// rendered loses nothing of theirs.
			errs = append(errs, fmt.Errorf("rendering %s: %w", r.path, err))
			continue
		}
		if r.path == "-" {
			if _, err := stdout.Write(buf.Bytes()); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		if err := writeFileAtomic(r.path, buf.Bytes()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// safely runs f, making a panic in it an error: mergecheck's own bug,
// said in a line, never a crash that loses what was done.
func safely(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			msg, _, _ := strings.Cut(fmt.Sprint(v), "\n")
			err = fmt.Errorf("mergecheck broke (a bug of mergecheck's; please report it): panic: %s", msg)
		}
	}()
	return f()
}
