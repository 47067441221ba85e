// Package testgc sets the garbage collector for the project's test
// binaries and the mergecheck processes their tests start.
//
// The suite's tests keep little memory live but allocate fast, so at Go's
// default target (GOGC=100) they spend much of their CPU collecting: a
// third of it for harness's canonical-counterexample tests, against a
// seventh at GOGC=400 (docs/BENCHMARKS.md). A GOGC set in the environment
// is left alone.
package testgc

import (
	"os"
	"runtime/debug"
	"strconv"
	"testing"
)

// Percent is the garbage collector's target the tests run at, and Limit a
// soft limit on their memory that keeps that target from holding more
// than a small machine has.
const (
	Percent = 400
	Limit   = 1 << 30
)

// Main runs m's tests with the collector at Percent and Limit, unless
// GOGC is set, and exits with their status. The mergecheck processes the
// tests start inherit the same settings through GOGC and GOMEMLIMIT.
func Main(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
		debug.SetMemoryLimit(Limit)
		os.Setenv("GOGC", strconv.Itoa(Percent))
		if os.Getenv("GOMEMLIMIT") == "" {
			os.Setenv("GOMEMLIMIT", "1GiB")
		}
	}
	os.Exit(m.Run())
}
