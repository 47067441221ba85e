// Package enginetest implements support for testing Go implementations of
// harness.Engine inside go test, in the manner of testing/fstest.
//
// A vendor writes
//
//	func TestEngine(t *testing.T) { enginetest.Run(t, myEngine) }
//
// and each property runs as a subtest named after its rule, so
// go test -run 'TestEngine/730.2d' checks one rule, and rapid's own flags
// (-rapid.checks, -rapid.seed, -rapid.shrinktime, ...) apply as in any
// rapid test. Failures are reported through t.Errorf with the rule, the
// problem, the canonical minimal scenario and the trace diff.
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Run checks e against props (every property if none are given), each in a
// subtest named after its rule. Rules that can't be checked, and rules
// needing a feature e doesn't declare, are skipped with the reason.
func Run(t *testing.T, e harness.Engine, props ...*properties.Property) {
	t.Helper()
	if len(props) == 0 {
		props = properties.All
	}
	if err := properties.Validate(props); err != nil {
		t.Fatalf("enginetest: %v", err)
	}
	info := e.Info()
	for _, p := range props {
		t.Run(string(p.Rule), func(t *testing.T) {
			switch {
			case p.Uncheckable != "":
				t.Skipf("%s can't be checked: %s", p.Rule, p.Uncheckable)
			case !info.Supports(p.Needs):
				t.Skipf("%s needs %v; the engine declares %v", p.Rule, p.Needs, info.Features)
			case p.Differential && info.PartialTraces:
				t.Skipf("%s is checked against the reference engine's whole trace, and the engine's traces are partial", p.Rule)
			}
			check(t, e, p)
		})
	}
}

func check(t *testing.T, e harness.Engine, p *properties.Property) {
	ctx := context.Background()
	var failing *model.Scenario
	refused := 0
	// rapid ends a failed check with FailNow, which would stop this
	// goroutine before the canonical pass below; tb lets it return.
	tb := &tb{T: t}
	gen := p.Gen
	if e.Info().NoDirectSetup {
		gen = generators.ForActions(gen) // stacks it can be given, built by casting
	}
	rapid.Check(tb, func(rt *rapid.T) {
		s := gen.Draw(rt, "scenario")
		problem, fault := harness.CheckScenario(ctx, e, p, s, 0)
		switch {
		case errors.Is(fault, harness.ErrUnsupported):
			refused++
			rt.Skip("the engine refuses this scenario: ", fault)
		case fault != nil:
			failing = s
			rt.Fatalf("%s: engine fault: %v", p.Rule, fault)
		case problem != nil:
			failing = s
			rt.Fatalf("%s: %v", p.Rule, problem)
		}
	})
	if failing == nil || !t.Failed() {
		return
	}
	defer t.FailNow()
	// rapid shrank the case; the harness's own pass makes it canonical.
	s := harness.Minimize(ctx, e, p, failing, 0)
	problem, fault := harness.CheckScenario(ctx, e, p, s, 0)
	b, _ := model.Encode(s)
	msg := fmt.Sprintf("%s: %v", p.Rule, errors.Join(problem, fault))
	msg += fmt.Sprintf("\n\trule %s: %s\n\tminimal scenario:\n%s", p.Rule, p.Title(), indent(string(b)))
	if got, err := e.Run(ctx, s); err == nil {
		if want, err := reference.Run(s); err == nil {
			want.Engine, got.Engine = "", ""
			msg += "\ttrace (-reference +engine):\n" + indent(cmp.Diff(want, got))
		}
	}
	msg += fmt.Sprintf("\treplay: save the scenario and run mergecheck replay FILE")
	t.Error(msg)
}

// tb is t as rapid.TB, with a FailNow that marks the test failed and
// returns instead of ending the goroutine.
type tb struct{ *testing.T }

func (t *tb) FailNow()                          { t.T.Fail() }
func (t *tb) Fatalf(format string, args ...any) { t.T.Errorf(format, args...) }
func (t *tb) Fatal(args ...any)                 { t.T.Error(args...) }

func indent(s string) string {
	lines := slices.Collect(func(yield func(string) bool) {
		start := 0
		for i := range len(s) {
			if s[i] == '\n' {
				if !yield(s[start:i]) {
					return
				}
				start = i + 1
			}
		}
		if start < len(s) {
			yield(s[start:])
		}
	})
	out := ""
	for _, l := range lines {
		out += "\t\t" + l + "\n"
	}
	return out
}
