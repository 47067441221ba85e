package harness_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/properties"
)

// BenchmarkRun is one full `mergecheck run` of every property against the
// reference engine with the default 100 checks, and reports how the time
// splits between generation, the engine, the reference and the checks.
func BenchmarkRun(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("parallel=%d", workers), func(b *testing.B) { benchmarkRun(b, workers) })
	}
}

func benchmarkRun(b *testing.B, workers int) {
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
	share := func(d time.Duration) float64 { return 100 * d.Seconds() / total }
	b.ReportMetric(share(split.Generate), "%generate")
	b.ReportMetric(share(split.Engine), "%engine")
	b.ReportMetric(share(split.Reference), "%reference")
	b.ReportMetric(share(split.Check), "%check")
}
