package reports

import (
	"fmt"
	"strconv"
)

// A RunsError is an error about some of the results given to Merge or
// BuildMatrix, which it names by their place in the list ("result 1");
// Named names them as the caller knows them, by their files.
type RunsError struct {
	Op     string // "merge" or "matrix"
	Runs   []int  // the results concerned, by index
	format string // the message, with %[1]s, %[2]s, ... for the runs' names
	args   []any  // the rest of its arguments, after the names
}

func runsError(op, format string, runs []int, args ...any) *RunsError {
	return &RunsError{Op: op, Runs: runs, format: format, args: args}
}

func (e *RunsError) Error() string {
	names := make([]string, len(e.Runs))
	for i, r := range e.Runs {
		names[i] = "result " + strconv.Itoa(r)
	}
	return e.Op + ": " + e.Named(names...)
}

// Named is the message with the results called by name: names[i] is
// what to call Runs[i] (for a caller that has the whole list, see
// NameIn).
func (e *RunsError) Named(names ...string) string {
	args := make([]any, 0, len(names)+len(e.args))
	for _, n := range names {
		args = append(args, n)
	}
	return fmt.Sprintf(e.format, append(args, e.args...)...)
}

// NameIn is the message with each result called by its entry in all, the
// names of every result given, in order (their files).
func (e *RunsError) NameIn(all []string) string {
	names := make([]string, len(e.Runs))
	for i, r := range e.Runs {
		names[i] = "result " + strconv.Itoa(r)
		if r >= 0 && r < len(all) {
			names[i] = all[r]
		}
	}
	return e.Named(names...)
}
