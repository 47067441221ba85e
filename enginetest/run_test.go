package enginetest_test

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/enginetest"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/declared"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// watched is a test that enginetest.Run reports into, so that a test can
// watch it judge an engine that must fail: each subtest's errors, skips
// and logs are kept.
type watched struct {
	name                string
	errors, skips, logs []string
	fatal               bool
	subtests            []*watched
}

func (w *watched) Helper()      {}
func (w *watched) Name() string { return w.name }
func (w *watched) Errorf(format string, args ...any) {
	w.errors = append(w.errors, fmt.Sprintf(format, args...))
}
func (w *watched) Fatalf(format string, args ...any) {
	w.fatal = true
	w.Errorf(format, args...)
}
func (w *watched) Logf(format string, args ...any) {
	w.logs = append(w.logs, fmt.Sprintf(format, args...))
}
func (w *watched) Skipf(format string, args ...any) {
	w.skips = append(w.skips, fmt.Sprintf(format, args...))
}
func (w *watched) Run(name string, f func(*watched)) bool {
	sub := &watched{name: w.name + "/" + name}
	w.subtests = append(w.subtests, sub)
	f(sub)
	return len(sub.errors) == 0
}

// outcome says how a subtest ended: "pass", "fail" or "skip".
func (w *watched) outcome() string {
	switch {
	case len(w.errors) > 0:
		return "fail"
	case len(w.skips) > 0:
		return "skip"
	}
	return "pass"
}

// byOutcome lists the subtests (by their own name) that ended each way.
func (w *watched) byOutcome() map[string][]string {
	out := map[string][]string{}
	for _, s := range w.subtests {
		out[s.outcome()] = append(out[s.outcome()], strings.TrimPrefix(s.name, w.name+"/"))
	}
	return out
}

// atSeed sets rapid's flags, which Run reads, for the rest of the test.
func atSeed(t *testing.T, seed uint64, checks int) {
	t.Helper()
	for name, v := range map[string]string{"rapid.seed": strconv.FormatUint(seed, 10), "rapid.checks": strconv.Itoa(checks)} {
		old := flag.Lookup(name).Value.String()
		require.NoError(t, flag.Set(name, v))
		t.Cleanup(func() { flag.Set(name, old) })
	}
}

// TestRun_JudgesAsMergecheckRunDoes: on every lazy engine and on five
// mutants, the subtests of enginetest.Run that pass are exactly the rules
// harness.Check (what mergecheck run calls) holds at the same seed and
// checks; every failed, blocked, uncovered, faulted or interrupted rule
// fails its subtest with its reason; unsupported and unchecked ones skip;
// and each unexplained departure fails a subtest of its own.
func TestRun_JudgesAsMergecheckRunDoes(t *testing.T) {
	if testing.Short() {
		t.Skip("twelve engines, each checked twice on every rule")
	}
	const seed, checks = 1, 100
	atSeed(t, seed, checks)
	// Each engine is made afresh for each check: a flaky one's flakes
	// depend on what it was asked before.
	var engines []func() harness.Engine
	for _, l := range reference.Lazies {
		engines = append(engines, func() harness.Engine {
			e, err := harness.Lazy(l.Name, seed)
			require.NoError(t, err)
			return e
		})
	}
	for _, m := range []string{"dies-per-card", "token-if-any-token", "merge-new-object", "turn-top-only", "copy-copies-status"} {
		engines = append(engines, func() harness.Engine {
			e, err := harness.Reference(m)
			require.NoError(t, err)
			return e
		})
	}
	for _, engine := range engines {
		t.Run(engine().Info().Name, func(t *testing.T) {
			w := &watched{name: "TestEngine"}
			enginetest.Run(w, engine())
			require.False(t, w.fatal, "%v", w.errors)
			// One worker, as Run judges by default: a flaky engine answers
			// a scenario asked twice by two workers in either order.
			res, err := harness.Check(context.Background(), engine(), properties.All, &harness.Options{Checks: checks, Seed: seed, Parallel: 1})
			require.NoError(t, err)
			want := map[string][]string{}
			for _, r := range res.Results {
				sub := string(r.Rule)
				switch r.Verdict {
				case harness.Held:
					want["pass"] = append(want["pass"], sub)
				case harness.Unsupported, harness.Unchecked:
					want["skip"] = append(want["skip"], sub)
				default:
					want["fail"] = append(want["fail"], sub)
				}
			}
			for _, u := range res.Unexplained {
				want["fail"] = append(want["fail"], "unexplained/"+u.Aspect)
			}
			assert.Equal(t, want, w.byOutcome())
			// Each failing subtest says why, in the words of its verdict.
			for _, s := range w.subtests {
				rule := strings.TrimPrefix(s.name, "TestEngine/")
				i := slices.IndexFunc(res.Results, func(r harness.Result) bool { return string(r.Rule) == rule })
				if i < 0 || s.outcome() != "fail" {
					continue
				}
				r := res.Results[i]
				text := strings.Join(s.errors, "\n")
				switch r.Verdict {
				case harness.Failed:
					assert.Contains(t, text, r.Counterexample.Problem, rule)
				case harness.Fault:
					assert.Contains(t, text, "engine fault", rule)
				default:
					assert.Contains(t, text, string(r.Verdict), rule)
					assert.Contains(t, text, r.Why, rule)
				}
			}
		})
	}
}

// TestAnyDeclaration_RunPassesOrSkips: enginetest.Run on the reference
// behind any declaration passes or skips every subtest (a quarter of the
// suite's random declarations; see harness's
// TestAnyDeclaration_HeldOrUnsupported), at one of its seeds.
func TestAnyDeclaration_RunPassesOrSkips(t *testing.T) {
	if testing.Short() {
		t.Skip("fifty declarations, each a whole run")
	}
	for _, i := range declared.Share(1, 4) {
		d := declared.Nth(i)
		for _, seed := range declared.Seeds(i) {
			t.Run(fmt.Sprintf("%d/seed=%d", i, seed), func(t *testing.T) {
				atSeed(t, seed, 100)
				w := &watched{name: "TestEngine"}
				enginetest.Run(w, declared.Engine(d))
				require.False(t, w.fatal, "%v", w.errors)
				assert.Empty(t, w.byOutcome()["fail"], "%s, seed %d", d, seed)
				for _, s := range w.subtests {
					if s.outcome() == "fail" {
						t.Errorf("%s: %s", s.name, strings.Join(s.errors, "\n"))
					}
				}
				assert.Len(t, w.subtests, len(properties.All), "a subtest a rule")
			})
		}
	}
}
