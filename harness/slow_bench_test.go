package harness_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

var (
	slowSleep   = flag.Duration("slow.sleep", 0, "BenchmarkSlowEngine: how long the engine sleeps per scenario (the counts do not depend on it: no time limit binds)")
	slowSeeds   = flag.Int("slow.seeds", 10, "BenchmarkSlowEngine: seeds 1..N per mutant")
	slowMutants = flag.String("slow.mutants", "", "BenchmarkSlowEngine: only the mutants whose names match this regular expression (empty: all)")
)

// slowEngine is a mutant of the reference that sleeps per scenario, as a
// real engine takes milliseconds, and notes the first call whose trace
// departs from the rules' (or that the engine could not play as
// scripted): the first case that breaks some rule.
type slowEngine struct {
	harness.Engine
	sleep time.Duration
	mu    sync.Mutex
	calls int
	first int
}

func (e *slowEngine) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.calls
}

func (e *slowEngine) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	time.Sleep(e.sleep)
	t, err := e.Engine.Run(ctx, s)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls++
	if e.first == 0 && breaks(s, t, err) {
		e.first = e.calls
	}
	return t, err
}

// breaks reports whether an engine's answer to s breaks some rule: it
// diverged, or its trace departs from the reference's.
func breaks(s *model.Scenario, t *model.Trace, err error) bool {
	want, rerr := reference.Run(s)
	if rerr != nil {
		return false // not a case
	}
	if err != nil {
		return true
	}
	c := &properties.Case{Scenario: s, Trace: t, Reference: want}
	return properties.ValidTrace(c) != nil || properties.Departure(c) != nil
}

// BenchmarkSlowEngine runs the whole suite at the default --checks,
// serially, against every mutant of the reference for seeds 1 to 10, and
// prints, per mutant, the engine calls until the first case that breaks a
// rule, and the calls from there until the first counterexample is
// shrunk (and replayed once more), as the median and the maximum over
// the seeds. It counts
// calls, which do not depend on the engine's speed: -slow.sleep=5ms
// plays each scenario as a 5 ms engine would, to the same counts
// (TestExplore_EveryMutantFailsWithinTheTargets works out the first
// column from the reference's runs alone, in seconds). Run it with
//
//	go test -run '^$' -bench SlowEngine -benchtime 1x -timeout 1h ./harness -args -slow.seeds=10
func BenchmarkSlowEngine(b *testing.B) {
	for b.Loop() {
		w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(w, "mutant\tfirst failure: median\tmax\tthen shrunk: median\tmax\tcalls a run: median\n")
		var firsts, shrinks []int
		only := regexp.MustCompile(*slowMutants)
		n := 0
		for _, m := range reference.Mutants {
			if !only.MatchString(m.Name) {
				continue
			}
			n++
			var first, shrink, total []int
			for seed := 1; seed <= *slowSeeds; seed++ {
				ref, err := harness.Reference(m.Name)
				if err != nil {
					b.Fatal(err)
				}
				e := &slowEngine{Engine: ref, sleep: *slowSleep}
				reported := 0 // the call after which the first counterexample was shrunk
				onShrunk := func(model.RuleID) {
					if reported == 0 {
						reported = e.count()
					}
				}
				_, err = harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: uint64(seed), Parallel: 1, OnShrunk: onShrunk})
				if err != nil {
					b.Fatal(err)
				}
				if e.first == 0 || reported == 0 {
					b.Fatalf("%s, seed %d: no rule failed", m.Name, seed)
				}
				first, shrink, total = append(first, e.first), append(shrink, reported-e.first), append(total, e.calls)
			}
			slices.Sort(first)
			slices.Sort(shrink)
			slices.Sort(total)
			mid := len(first) / 2
			fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\n", m.Name, first[mid], first[len(first)-1], shrink[mid], shrink[len(shrink)-1], total[mid])
			firsts, shrinks = append(firsts, first...), append(shrinks, shrink...)
		}
		slices.Sort(firsts)
		slices.Sort(shrinks)
		fmt.Fprintf(w, "all %d mutants\t%d\t%d\t%d\t%d\t\n", n, firsts[len(firsts)/2], firsts[len(firsts)-1], shrinks[len(shrinks)/2], shrinks[len(shrinks)-1])
		w.Flush()
	}
}

// recording is an engine that keeps, in call order, every scenario it
// is asked to play.
type recording struct {
	harness.Engine
	mu     sync.Mutex
	played []*model.Scenario
}

func (e *recording) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := e.Engine.Run(ctx, s)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.played = append(e.played, s)
	return t, err
}

// firstFailures is, for each mutant, the engine call of a serial run at
// seed whose scenario the mutant first breaks (0 if none does), worked
// out from the reference's run alone: until a mutant breaks a case, its
// answers are the rules' own, so its run asks for the same scenarios in
// the same order as the reference's.
func firstFailures(t *testing.T, seed uint64) map[string]int {
	ref, err := harness.Reference("")
	require.NoError(t, err)
	e := &recording{Engine: ref}
	// No call may time out on a busy machine: a fault would change the
	// calls that follow.
	_, err = harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed, Parallel: 1, Timeout: time.Hour})
	require.NoError(t, err)
	type rules struct {
		reached *reference.Reached
		ok      bool
	}
	played := make([]rules, len(e.played)) // the rules' play of each, once worked out
	first := map[string]int{}
	for _, m := range reference.Mutants {
		first[m.Name] = 0
		for i, s := range e.played {
			if played[i].reached == nil {
				_, reached, err := reference.RunValidReached(s)
				played[i] = rules{reached, err == nil}
			}
			if !played[i].ok || !played[i].reached.Changes(m.Name) {
				continue // not a case, or one the mutant plays as the rules do
			}
			got, err := reference.RunMutant(s, m.Name)
			if breaks(s, got, err) {
				first[m.Name] = i + 1
				break
			}
		}
	}
	return first
}

// TestExplore_EveryMutantFailsWithinTheTargets: over seeds 1 to 10, every
// mutant's first failing engine call comes within 100 calls at the
// median and 300 at the most, BenchmarkSlowEngine's targets for its first
// column, worked out from ten runs of the reference rather than a run per
// mutant and seed. A rule added ahead of others in the exploring rounds
// delays the mutants found late in them, so this fails when it takes one
// past a target.
func TestExplore_EveryMutantFailsWithinTheTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("ten runs of the reference")
	}
	const seeds = 10
	by := map[string][]int{}
	for seed := uint64(1); seed <= seeds; seed++ {
		for m, call := range firstFailures(t, seed) {
			by[m] = append(by[m], call)
		}
	}
	for _, m := range reference.Mutants {
		calls := by[m.Name]
		slices.Sort(calls)
		if calls[0] == 0 {
			t.Errorf("%s: no case of the reference's run breaks it at some seed", m.Name)
			continue
		}
		median, most := calls[len(calls)/2], calls[len(calls)-1]
		if median > 100 || most > 300 {
			t.Errorf("%s: first failure at call %d at the median and %d at most over seeds 1 to %d (targets 100 and 300): %v", m.Name, median, most, seeds, calls)
		}
		t.Logf("%s: median %d, max %d", m.Name, median, most)
	}
}
