package reference_test

import (
	"testing"

	"github.com/mergecheck/mergecheck/reference"
)

// BenchmarkRunExample plays each worked example once per iteration.
func BenchmarkRunExample(b *testing.B) {
	scenarios := examples()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range scenarios {
			if _, err := reference.Run(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(scenarios))/b.Elapsed().Seconds(), "scenarios/s")
}
