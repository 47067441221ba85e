package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds the mergecheck command once per test run.
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mergecheck-bin-*")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "mergecheck")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, string(out)}
		}
	})
	require.NoError(t, buildErr)
	return binPath
}

func check(t *testing.T, e harness.Engine, seed uint64, props ...*properties.Property) *harness.Results {
	t.Helper()
	o := &harness.Options{Checks: 100, Seed: seed}
	if seed == 1 {
		o.Draws = draws1
	}
	res, err := harness.Check(context.Background(), e, props, o)
	require.NoError(t, err)
	return res
}

// TestProtocolPathMatchesInProcess: the reference over the protocol gives
// the verdicts, the scenarios (digests) and the coverage of the reference
// in process.
func TestProtocolPathMatchesInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	served, err := harness.NewExec(binary(t)+" serve", harness.ExecOptions{})
	require.NoError(t, err)
	assert.Equal(t, model.Features, served.Info().Features)
	inProcess, err := harness.Reference("")
	require.NoError(t, err)
	// Two workers: the adapter is cloned into a second process.
	a, err := harness.Check(context.Background(), served, properties.All, &harness.Options{Checks: 100, Seed: 11, Parallel: 2})
	require.NoError(t, err)
	b := check(t, inProcess, 11, properties.All...)
	require.Len(t, a.Results, len(b.Results))
	for i := range a.Results {
		assert.Equal(t, b.Results[i].Verdict, a.Results[i].Verdict, a.Results[i].Rule)
		assert.Equal(t, b.Results[i].Digest, a.Results[i].Digest, a.Results[i].Rule)
		assert.Equal(t, b.Results[i].Coverage, a.Results[i].Coverage, a.Results[i].Rule)
	}
}

// TestServedMutantsAreKilledAcrossTheProcessBoundary: every mutant served
// over the protocol fails each rule it breaks, with the same canonical
// counterexample as in process.
func TestServedMutantsAreKilledAcrossTheProcessBoundary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	bin := binary(t)
	for _, m := range reference.Mutants {
		t.Run(m.Name, func(t *testing.T) {
			served, err := harness.NewExec(bin+" serve --mutant "+m.Name, harness.ExecOptions{})
			require.NoError(t, err)
			defer served.Close()
			local, err := harness.Reference(m.Name)
			require.NoError(t, err)
			for _, rule := range m.Breaks {
				p := properties.Find(properties.All, rule)
				got := check(t, served, 1, p).Results[0]
				want := check(t, local, 1, p).Results[0]
				require.Equal(t, harness.Failed, got.Verdict, "%s survived %s over the protocol: %s", m.Name, rule, got.Why)
				assert.Equal(t, want.Counterexample.Scenario, got.Counterexample.Scenario, "%s on %s", m.Name, rule)
			}
		})
	}
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// TestServedLazyEnginesHoldNothingTheySkip: the lazy engines served over
// the protocol (mergecheck serve --lazy NAME) are judged as in process:
// the rules each must fail fail, an engine that plays no action holds no
// rule, a new id for a merged permanent is a divergence and no engine
// fault, and the flaky engine holds no rule on whose cases it cut a trace
// short.
func TestServedLazyEnginesHoldNothingTheySkip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	bin := binary(t)
	for _, l := range reference.Lazies {
		t.Run(l.Name, func(t *testing.T) {
			served, err := harness.NewExec(bin+" serve --lazy "+l.Name, harness.ExecOptions{})
			require.NoError(t, err)
			defer served.Close()
			c := &shortTraces{Engine: served, rule: properties.All[0].Rule, cut: map[model.RuleID]int{}}
			// One worker checks the rules in order: the progress after
			// each says which rule comes next.
			next := func(p harness.Progress) {
				if p.Done < len(properties.All) {
					c.mu.Lock()
					c.rule = properties.All[p.Done].Rule
					c.mu.Unlock()
				}
			}
			res, err := harness.Check(context.Background(), c, properties.All, &harness.Options{Checks: 50, Seed: 1, Parallel: 1, Progress: next, Draws: draws1})
			require.NoError(t, err)
			verdicts := map[model.RuleID]harness.Verdict{}
			for _, r := range res.Results {
				verdicts[r.Rule] = r.Verdict
				assert.NotEqual(t, harness.Fault, r.Verdict, "%s: a lazy engine is wrong, not broken: %v", r.Rule, r.Fault)
				if l.SkipsActions {
					assert.NotEqual(t, harness.Held, r.Verdict, "%s held for an engine that plays no action", r.Rule)
				}
				if cut := c.cut[r.Rule]; cut > 0 {
					assert.NotEqual(t, harness.Held, r.Verdict, "%s held though %d of its traces were cut short", r.Rule, cut)
				}
			}
			for _, rule := range l.Fails {
				assert.Equal(t, harness.Failed, verdicts[rule], "%s must fail %s over the protocol", l.Name, rule)
			}
		})
	}
}

// shortTraces counts, by the rule being checked (one at a time, with
// one worker), the traces returned with fewer steps than actions.
type shortTraces struct {
	harness.Engine
	mu   sync.Mutex
	rule model.RuleID
	cut  map[model.RuleID]int
}

func (s *shortTraces) Run(ctx context.Context, sc *model.Scenario) (*model.Trace, error) {
	t, err := s.Engine.Run(ctx, sc)
	if err == nil && len(t.Steps) < len(sc.Actions) {
		s.mu.Lock()
		s.cut[s.rule]++
		s.mu.Unlock()
	}
	return t, err
}

// Test400_1_PlainTracesOverTheProtocolHoldEveryRule: an adapter whose
// traces cite no rule on any event and name no replacement effect on any
// move ("serve --plain", the reference's play written as
// reference.Plain writes it) holds every rule the reference holds.
func Test400_1_PlainTracesOverTheProtocolHoldEveryRule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	served, err := harness.NewExec(binary(t)+" serve --plain", harness.ExecOptions{})
	require.NoError(t, err)
	defer served.Close()
	res := check(t, served, 20261130, properties.All...)
	for _, r := range res.Results {
		want := harness.Held
		if properties.Find(properties.All, r.Rule).Uncheckable != "" {
			want = harness.Unchecked
		}
		assert.Equal(t, want, r.Verdict, "%s: %s", r.Rule, r.Why)
	}
}
