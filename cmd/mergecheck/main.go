// Command mergecheck checks rules engines of Magic: The Gathering against
// the rules of merged permanents and permanent status.
//
// Usage:
//
//	mergecheck replay [-v] [-trace DIR] PATH...
//	mergecheck explain FILE
//	mergecheck version
//
// replay plays each scenario file (or every *.scenario.json under a
// directory) in the reference engine and checks the expectations written
// in it. explain prints a scenario's trace step by step with the rule
// behind each event.
//
// Exit status: 0 when everything holds, 1 when an expectation fails, 2 for
// bad usage, unreadable or invalid input, or a scenario the reference
// refuses.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  mergecheck replay [-v] [-trace DIR] PATH...   play scenario files in the reference engine and check their expectations
  mergecheck explain FILE                      print a scenario's trace step by step, with the rule behind each event
  mergecheck version                           print the version
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
	case "replay":
		return replay(args[1:], stdout, stderr)
	case "explain":
		return explain(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "mergecheck", version)
		return exitOK
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "mergecheck: unknown command %q\n%s", args[0], usage)
	return exitTrouble
}

const version = "0.1.0"
