// Command mergecheck checks rules engines of Magic: The Gathering against
// the rules of merged permanents and permanent status.
//
// "mergecheck help" lists the commands and "mergecheck help COMMAND" a
// command's flags; the README's command reference is the same list, and
// a test holds the two together.
//
// run checks an engine against every property and prints what held, what
// failed with its shrunk counterexample, and what could not be checked.
// replay plays scenario files (or every *.scenario.json under a directory)
// and checks them against the expectations written in them and against
// every property. selftest runs the suite against every mutant of the
// reference engine and prints the kill matrix. explain prints a scenario's
// trace step by step with the rule behind each event.
//
// Exit status: 0 when everything holds, 1 when a property or expectation
// fails (or a rule went uncovered), 2 for bad usage, unreadable or invalid
// input, or a broken engine.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// gcPercent is the garbage collector's target the command runs with
// unless GOGC says otherwise. A run allocates fast but keeps little
// alive, so collecting less often than Go's default saves time; at 200
// a default run's peak stays near 50 MB (at 400 it was 75-95 MB for a
// tenth less time). A soft memory limit instead would cap the peak of a
// run but make the collector run without end on a scenario whose live
// heap is over it (a replay of 100,000 components took three times as
// long). Figures in docs/BENCHMARKS.md.
const gcPercent = 200

// runMemoryLimit is the soft memory limit `mergecheck run` keeps to
// unless GOMEMLIMIT says otherwise. A run holds every rule's first draws
// while the rules explore, so that each case is drawn once (some 60 MB
// live at its peak, whatever --checks is); at gcPercent the heap would
// grow to three times that between collections. The limit makes the
// collector run sooner there instead. Only run has it: its live heap
// stays well under the limit, where a replay's of a large stack need not
// (see gcPercent). Figures in docs/BENCHMARKS.md.
const runMemoryLimit = 160 << 20

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if len(os.Args) > 1 && os.Args[1] == "run" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(runMemoryLimit)
	}
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Exit(serve(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  mergecheck run [flags]                        check an engine against every property (mergecheck run -h for flags)
  mergecheck list [--json]                      list the properties with their rule numbers and summaries
  mergecheck replay [flags] PATH...             play scenario and corpus files (or directories of them) and check their expectations and every property
  mergecheck selftest [flags]                   run the suite against every mutant and print the kill matrix
  mergecheck report RESULTS.json --html F ...   re-render a saved run (--json, --junit, --html, --md)
  mergecheck serve [--mutant NAME]              serve the reference engine (or a mutant) over the adapter protocol on stdin/stdout
  mergecheck baseline RESULTS.json [-o FILE]    write a baseline of the run's failures, for run --expect
  mergecheck merge [--json F ...] SHARD.json... combine the results of a run's shards
  mergecheck diff OLD.json NEW.json [--json F --md F --html F]   what changed between two runs; exits 1 if anything got worse
  mergecheck matrix [--history] RESULTS.json... [--json F --md F --html F]   engines side by side, rule by rule
  mergecheck explain [--engine E] FILE         print a scenario's trace step by step, with the rule behind each event (with --engine, the engine's beside it)
  mergecheck judge SCENARIO TRACE...           judge traces an engine wrote elsewhere (its tests, game logs) as replay judges an engine it plays
  mergecheck version                           print the release and the commit it was built from
  mergecheck help [COMMAND]                    print this, or COMMAND's flags (as COMMAND -h does)
`

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1
	exitTrouble = 2
)

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitTrouble
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "list":
		return listCmd(args[1:], stdout, stderr)
	case "selftest":
		return selftest(args[1:], stdout, stderr)
	case "report":
		return reportCmd(args[1:], stdout, stderr)
	case "baseline":
		return baselineCmd(args[1:], stdout, stderr)
	case "merge":
		return mergeCmd(args[1:], stdout, stderr)
	case "diff":
		return diffCmd(args[1:], stdout, stderr)
	case "matrix":
		return matrixCmd(args[1:], stdout, stderr)
	case "replay":
		return replay(args[1:], stdout, stderr)
	case "explain":
		return explain(args[1:], stdout, stderr)
	case "judge":
		return judgeCmd(args[1:], stdout, stderr)
	case "version":
		if len(args) > 1 && isHelp(args[1]) {
			fmt.Fprintln(stderr, "Usage of version: mergecheck version\n  prints the release and the commit it was built from; it takes no flags")
			return exitOK
		}
		if len(args) > 1 {
			fmt.Fprintf(stderr, "mergecheck version: unexpected argument %q\n", args[1])
			return exitTrouble
		}
		fmt.Fprintln(stdout, suiteName(thisBuild()))
		return exitOK
	case "serve":
		return serve(args[1:], strings.NewReader(""), stdout, stderr)
	case "help":
		if len(args) > 1 && args[1] != "help" {
			// help CMD is CMD -h: that command's flags.
			return run([]string{args[1], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "mergecheck: unknown command %q\n%s", args[0], usage)
	return exitTrouble
}

// isHelp reports whether arg asks for help, as the flag package reads it.
func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// flagExit is the exit status after a subcommand's flags failed to parse:
// 0 when help was asked for (the flag package printed it), 2 otherwise.
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitTrouble
}
