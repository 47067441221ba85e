// Package enginetest implements support for testing Go implementations of
// engine.Engine (an adapter.Engine is one) inside go test, in the manner of
// testing/fstest.
//
// A vendor writes
//
//	func TestEngine(t *testing.T) { enginetest.Run(t, myEngine) }
//
// Run checks every rule at once, exactly as mergecheck run does
// (harness.Check: leads followed, blocked rules, unexplained departures,
// coverage), and then reports each rule as a subtest named after it, so
// go test -run 'TestEngine/730.2d' shows one rule (the check still judges
// them all, as a rule's verdict depends on the others'). A rule held
// passes; a rule failed, blocked, uncovered, interrupted, an engine fault
// or an internal error of mergecheck's fails with the reason, the
// problem, the canonical minimal scenario and the trace diff; an
// unexplained departure fails a subtest of its own (unexplained/ASPECT);
// a rule the engine can't be judged on (unsupported, unchecked) is
// skipped with the reason. rapid's flags -rapid.checks and -rapid.seed set
// the cases per rule and the seed. Each counterexample is saved in
// testdata/mergecheck-corpus (-mergecheck.corpus sets another directory,
// or none) and played first on every later run, as mergecheck run's corpus
// is; the failure prints the go test -run line that plays it and the
// mergecheck replay line for an adapter. The engine behind a Go adapter is
// checked as it is: its unsupported and diverged answers mean what they
// mean over the protocol.
package enginetest

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/properties"
)

// corpus is where Run keeps counterexamples, as mergecheck run keeps its
// corpus: each one found is saved there, and every file there is played
// first on later runs, until the engine no longer fails it. Like rapid's
// testdata/rapid, it belongs in the package's version control.
var corpus = flag.String("mergecheck.corpus", filepath.Join("testdata", "mergecheck-corpus"),
	"enginetest: the `directory` of counterexamples saved and played first (empty: none)")

// parallel is how many rules the check judges at once. An engine is
// shared by the workers unless it implements harness.Cloner, so more than
// one needs an engine whose Run is safe for concurrent use (an
// adapter.Engine's Play is, up to its MaxInFlight).
var parallel = flag.Int("mergecheck.parallel", 1, "enginetest: how many rules to judge at once (the engine's Run must then be safe for concurrent use)")

// A Testing is what Run needs of a test: *testing.T is one. Run takes
// this rather than *testing.T, as analysistest does, so that a test can
// watch Run judge an engine that must fail.
type Testing[T any] interface {
	Helper()
	Name() string
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Skipf(format string, args ...any)
	Run(name string, f func(T)) bool
}

// Run checks e against props (every property if none are given) as
// mergecheck run does, and reports each rule in a subtest named after it
// (see the package doc).
func Run[T Testing[T]](t T, e harness.Engine, props ...*properties.Property) {
	t.Helper()
	if len(props) == 0 {
		props = properties.All
	}
	if err := properties.Validate(props); err != nil {
		t.Fatalf("enginetest: %v", err)
		return
	}
	// The engine outlives the check: hide its Close, if any (the clones
	// of one that clones are the check's to close).
	var kept harness.Engine = struct{ harness.Engine }{e}
	if c, ok := e.(harness.Cloner); ok {
		kept = clonerOf{e, c}
	}
	checks, seed := rapidFlag("rapid.checks", 100), rapidFlag("rapid.seed", 0)
	res, err := harness.Check(context.Background(), kept, props,
		&harness.Options{Checks: int(checks), Seed: seed, Parallel: max(1, *parallel), Corpus: *corpus})
	if err != nil {
		t.Fatalf("enginetest: %v", err)
		return
	}
	Report(t, res)
}

// clonerOf is an engine that clones, with its Close hidden.
type clonerOf struct {
	harness.Engine
	c harness.Cloner
}

func (c clonerOf) Clone() (harness.Engine, error) { return c.c.Clone() }

// Report reports a run's results as Run does: a subtest per rule, in the
// order of the results, and one per unexplained departure.
func Report[T Testing[T]](t T, res *harness.Results) {
	t.Helper()
	for _, r := range res.Results {
		t.Run(string(r.Rule), func(t T) { reportRule(t, res, r) })
	}
	for _, u := range res.Unexplained {
		t.Run("unexplained/"+u.Aspect, func(t T) {
			msg := "an unexplained " + failure.Unexplained(&u)
			if ce := u.Counterexample; ce != nil {
				msg += "\n" + failureText(t.Name(), ce)
			}
			t.Errorf("%s", msg)
		})
	}
}

// reportRule says one rule's verdict in its subtest.
func reportRule[T Testing[T]](t T, res *harness.Results, r harness.Result) {
	switch r.Verdict {
	case harness.Held:
		t.Logf("%s held on %d cases (seed %d)", r.Rule, r.Cases, res.Seed)
	case harness.Unchecked, harness.Unsupported:
		t.Skipf("%s: %s", r.Verdict, r.Why)
	case harness.Failed:
		if r.Expected {
			t.Skipf("failed as the baseline expects: %s", r.Counterexample.Error())
			return
		}
		t.Errorf("%s", failureText(t.Name(), r.Counterexample))
		for i := range r.Others {
			t.Errorf("%s", failureText(t.Name(), &r.Others[i]))
		}
	case harness.Fault:
		t.Errorf("%v\n\t%s\n\tseed: %d", r.Fault, failure.Rule(r.Rule), res.Seed)
	case harness.Internal:
		msg := "no detail recorded"
		if r.Internal != nil {
			msg = r.Internal.Error() + "\n\t" + strings.ReplaceAll(strings.TrimSpace(r.Internal.Stack), "\n", "\n\t")
		}
		t.Errorf("%s\n\tseed: %d", msg, res.Seed)
	case harness.Blocked:
		t.Errorf("%s blocked (seed %d): %s\n\t%s", r.Rule, res.Seed, r.Why, failure.Rule(r.Rule))
	default: // uncovered, interrupted, and any verdict added later: not held
		t.Errorf("%s %s (seed %d): %s\n\t%s", r.Rule, r.Verdict, res.Seed, r.Why, failure.Rule(r.Rule))
	}
}

// failureText is a counterexample as failure.Text says it, its lines
// after the first indented, then how go test plays it again; test is the
// name of the subtest it fails. Its replay line is for an adapter.
func failureText(test string, ce *harness.Counterexample) string {
	text := strings.ReplaceAll(strings.TrimSuffix(failure.Text(ce, "exec:ADAPTER"), "\n"), "\n", "\n\t")
	again := fmt.Sprintf("go test -run '^%s$' -rapid.seed=%d", strings.ReplaceAll(regexp.QuoteMeta(test), "/", "$/^"), ce.Seed)
	if ce.File != "" {
		again += " (it plays the saved scenario first)"
	}
	return text + "\n\tagain: " + again
}

// rapidFlag reads one of rapid's flags as a number, or def when go test
// does not have it (rapid registers its flags when it is linked in).
func rapidFlag(name string, def uint64) uint64 {
	f := flag.Lookup(name)
	if f == nil {
		return def
	}
	n, err := strconv.ParseUint(f.Value.String(), 10, 64)
	if err != nil || n == 0 {
		return def
	}
	return n
}
