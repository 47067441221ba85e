// Package enginetest implements support for testing Go implementations of
// engine.Engine (an adapter.Engine is one) inside go test, in the manner of
// testing/fstest.
//
// A vendor writes
//
//	func TestEngine(t *testing.T) { enginetest.Run(t, myEngine) }
//
// and each property runs as a subtest named after its rule, so
// go test -run 'TestEngine/730.2d' checks one rule. rapid's flags
// -rapid.checks and -rapid.seed set the cases per rule and the seed. A
// rule is judged exactly as mergecheck run judges it (harness.Check): a
// failure, an engine fault or a rule the cases did not cover fails the
// subtest with the rule, the problem, the canonical minimal scenario and
// the trace diff; a rule the engine can't be judged on is skipped with
// the reason. Each counterexample is saved in testdata/mergecheck-corpus
// (-mergecheck.corpus sets another directory, or none) and played first
// on every later run, as mergecheck run's corpus is; the failure prints
// the go test -run line that plays it and the mergecheck replay line for
// an adapter. The engine behind a Go adapter is checked as it is: its
// unsupported and diverged answers mean what they mean over the protocol.
package enginetest

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// corpus is where Run keeps counterexamples, as mergecheck run keeps its
// corpus: each one found is saved there, and every file there is played
// first on later runs, until the engine no longer fails it. Like rapid's
// testdata/rapid, it belongs in the package's version control.
var corpus = flag.String("mergecheck.corpus", filepath.Join("testdata", "mergecheck-corpus"),
	"enginetest: the `directory` of counterexamples saved and played first (empty: none)")

// Run checks e against props (every property if none are given), each in a
// subtest named after its rule. Rules that can't be checked, and rules
// needing a feature or observer e doesn't declare, are skipped with the
// reason.
func Run(t *testing.T, e harness.Engine, props ...*properties.Property) {
	t.Helper()
	if len(props) == 0 {
		props = properties.All
	}
	if err := properties.Validate(props); err != nil {
		t.Fatalf("enginetest: %v", err)
	}
	// The engine outlives each rule's check: hide its Close, if any.
	kept := struct{ harness.Engine }{e}
	checks, seed := rapidFlag("rapid.checks", 100), rapidFlag("rapid.seed", 0)
	for _, p := range props {
		t.Run(string(p.Rule), func(t *testing.T) {
			res, err := harness.Check(context.Background(), kept, []*properties.Property{p},
				&harness.Options{Checks: int(checks), Seed: seed, Parallel: 1, Corpus: *corpus})
			if err != nil {
				t.Fatalf("enginetest: %v", err)
			}
			r := res.Results[0]
			switch r.Verdict {
			case harness.Unchecked, harness.Unsupported:
				t.Skipf("%s: %s", r.Verdict, r.Why)
			case harness.Held:
				t.Logf("%s held on %d cases (seed %d)", p.Rule, r.Cases, res.Seed)
			case harness.Uncovered:
				t.Errorf("%s uncovered (seed %d): %s", p.Rule, res.Seed, r.Why)
			case harness.Fault:
				t.Errorf("%v\n\trule %s: %s\n\tseed: %d", r.Fault, p.Rule, p.Title(), res.Seed)
			case harness.Failed:
				t.Error(failure(t, p, res.Seed, r.Counterexample))
				for i := range r.Others {
					t.Error(failure(t, p, res.Seed, &r.Others[i]))
				}
			}
		})
	}
}

// failure describes a counterexample in the house grammar, with its
// scenario, the trace diff, and how to play it again.
func failure(t *testing.T, p *properties.Property, seed uint64, ce *harness.Counterexample) string {
	msg := ce.Error()
	if ce.Intermittent {
		msg += " (the engine did not fail again when the scenario was played once more)"
	}
	b, _ := model.Encode(ce.Scenario)
	msg += fmt.Sprintf("\n\trule %s: %s\n\tminimal scenario:\n%s", p.Rule, p.Title(), indent(string(b)))
	if d := ce.Diff(); d != "" {
		msg += "\ttrace " + indent(d)
	}
	msg += fmt.Sprintf("\tseed: %d (-rapid.seed=%d)", seed, seed)
	if ce.File != "" {
		msg += fmt.Sprintf("\n\tsaved: %s; go test -run '^%s$' plays it first, and for an adapter: mergecheck replay --engine 'exec:ADAPTER' %s",
			ce.File, strings.ReplaceAll(regexp.QuoteMeta(t.Name()), "/", "$/^"), ce.File)
	}
	return msg
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

func indent(s string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString("\t\t" + line + "\n")
	}
	return b.String()
}
