package harness

// rapid keeps its settings (checks, seed, shrink time, fail files) in
// package-level flags registered on flag.CommandLine by its init (see
// pgregory.net/rapid engine.go), and its Check calls testing.Short, which
// panics unless the testing flags are registered and parsed. This file is
// the one place that touches those globals: it maps Options onto them.
// Outside go test, testing.Init registers the testing flags and
// flag.CommandLine.Parse(nil) marks the command line parsed without
// consuming the caller's own arguments.

import (
	"flag"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"
)

// rapidMu serialises the runs of rapid, whose settings are those globals.
var rapidMu sync.Mutex

// withRapidFlags runs f with rapid configured for checks, seed and shrink
// time, and without fail files: the corpus is the one persistence
// mechanism. Calls are serialised, since the flags are global.
func withRapidFlags(checks int, seed uint64, shrink time.Duration, f func()) error {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	testing.Init()
	if !flag.Parsed() {
		if err := flag.CommandLine.Parse(nil); err != nil {
			return err
		}
	}
	if testing.Short() {
		// rapid runs a fifth of its checks under go test -short; a run
		// runs the checks it was asked for, whatever the test flags.
		checks *= 5
	}
	set := map[string]string{
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.seed":       strconv.FormatUint(seed, 10),
		"rapid.shrinktime": shrink.String(),
		"rapid.nofailfile": "true",
		"rapid.failfile":   "",
	}
	old := map[string]string{}
	for k, v := range set {
		fl := flag.Lookup(k)
		if fl == nil {
			return fmt.Errorf("harness: rapid flag %s is not registered; is pgregory.net/rapid linked in?", k)
		}
		old[k] = fl.Value.String()
		if err := flag.Set(k, v); err != nil {
			return fmt.Errorf("harness: setting %s: %w", k, err)
		}
	}
	defer func() {
		for k, v := range old {
			_ = flag.Set(k, v)
		}
	}()
	f()
	return nil
}

// recorder is the rapid.TB the harness passes to rapid.Check. Unlike a
// *testing.T, its FailNow records and returns: rapid's check ends with
// tb.FailNow() when it failed, and that must not end the goroutine.
type recorder struct {
	name   string
	failed bool
	logs   []string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Logf(format string, args ...any) {
	if len(r.logs) < 200 {
		r.logs = append(r.logs, fmt.Sprintf(format, args...))
	}
}
func (r *recorder) Log(args ...any)                   { r.Logf("%s", fmt.Sprint(args...)) }
func (r *recorder) Skipf(format string, args ...any)  { r.Logf(format, args...) }
func (r *recorder) Skip(args ...any)                  { r.Log(args...) }
func (r *recorder) SkipNow()                          {}
func (r *recorder) Errorf(format string, args ...any) { r.failed = true; r.Logf(format, args...) }
func (r *recorder) Error(args ...any)                 { r.failed = true; r.Log(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = true; r.Logf(format, args...) }
func (r *recorder) Fatal(args ...any)                 { r.failed = true; r.Log(args...) }
func (r *recorder) FailNow()                          { r.failed = true }
func (r *recorder) Fail()                             { r.failed = true }
func (r *recorder) Failed() bool                      { return r.failed }
