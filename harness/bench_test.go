package harness_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// BenchmarkRun is one full `mergecheck run` of every property against the
// reference engine with the default 100 checks, and reports how the time
// splits between generation, the engine, the reference and the checks
// (each case drawn and played on the reference once, and checked on the
// rules it reaches), and the run's time as a multiple of their sum
// (x-parts): what the run spends beyond them is overhead.
func BenchmarkRun(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("parallel=%d", workers), func(b *testing.B) { benchmarkRun(b, workers) })
	}
}

func benchmarkRun(b *testing.B, workers int) {
	b.ReportAllocs()
	e, err := harness.Reference("")
	if err != nil {
		b.Fatal(err)
	}
	var split harness.Timing
	cases := 0
	for i := 0; b.Loop(); i++ {
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: uint64(i + 1), Parallel: workers})
		if err != nil {
			b.Fatal(err)
		}
		if res.Err() != nil {
			b.Fatal(res.Err())
		}
		for _, r := range res.Results {
			cases += r.Cases
			split.Generate += r.Time.Generate
			split.Engine += r.Time.Engine
			split.Reference += r.Time.Reference
			split.Check += r.Time.Check
		}
	}
	total := b.Elapsed().Seconds()
	b.ReportMetric(float64(cases)/total, "cases/s")
	// The parts are summed over the workers, so they are set against the
	// run's time on every worker.
	busy := total * float64(workers)
	share := func(d time.Duration) float64 { return 100 * d.Seconds() / busy }
	b.ReportMetric(share(split.Generate), "%generate")
	b.ReportMetric(share(split.Engine), "%engine")
	b.ReportMetric(share(split.Reference), "%reference")
	b.ReportMetric(share(split.Check), "%check")
	parts := split.Generate + split.Engine + split.Reference + split.Check
	b.ReportMetric(busy/parts.Seconds(), "x-parts")
}

// perSecond reports how many cases one iteration's n cases make per second.
func perSecond(b *testing.B, n int) {
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "cases/s")
}

// BenchmarkGenerate draws one scenario from 730.3's generator (merged
// stacks, replacement effects, a commander, a move with its choices).
func BenchmarkGenerate(b *testing.B) {
	b.ReportAllocs()
	seed := 0
	for b.Loop() {
		seed++
		_ = properties.P730_3.Draws.Gen().Example(seed)
	}
	perSecond(b, 1)
}

// BenchmarkCheckOneProperty plays one drawn scenario on the reference and
// judges it by 730.3d, a differential property (the reference plays it
// twice: as the engine and as the oracle). Each iteration also plays the
// scenario twice on the reference alone, timed apart, so that x-two-plays,
// the check's time as a multiple of those two plays, holds on a busy
// machine.
func BenchmarkCheckOneProperty(b *testing.B) {
	e, _ := harness.Reference("")
	s := properties.P730_3d.Draws.Gen().Example(7)
	b.ReportAllocs()
	var check, plays time.Duration
	for b.Loop() {
		t0 := time.Now()
		if problem, fault := harness.CheckScenario(context.Background(), e, properties.P730_3d, s, 0); problem != nil || fault != nil {
			b.Fatal(problem, fault)
		}
		t1 := time.Now()
		for range 2 {
			if _, err := reference.Run(s); err != nil {
				b.Fatal(err)
			}
		}
		check, plays = check+t1.Sub(t0), plays+time.Since(t1)
	}
	b.ReportMetric(float64(b.N)/check.Seconds(), "cases/s")
	b.ReportMetric(check.Seconds()/plays.Seconds(), "x-two-plays")
}

// BenchmarkReferenceOneScenario plays one drawn scenario on the reference.
func BenchmarkReferenceOneScenario(b *testing.B) {
	s := properties.P730_3d.Draws.Gen().Example(7)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reference.Run(s); err != nil {
			b.Fatal(err)
		}
	}
	perSecond(b, 1)
}
