// Package testenv is what the project's tests need of the machine they
// run on, set once for every test binary: the garbage collector's setting,
// and the interpreter the Python adapters run under.
package testenv

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Percent is the garbage collector's target the tests run at, and Limit a
// soft limit on their memory that keeps that target from holding more
// than a small machine has. The suite's tests keep little memory live but
// allocate fast, so at Go's default target (GOGC=100) they spend much of
// their CPU collecting: a third of it for harness's
// canonical-counterexample tests, against a seventh at 400
// (docs/BENCHMARKS.md).
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

var python struct {
	once sync.Once
	path string
}

// Python3 is the command that starts the python3 on PATH, for an adapter's
// command line, or skips t where there is none. It names the interpreter
// itself: a version manager's shim in its place (pyenv's) took 0.4 s of
// CPU a start, against 0.07 s, and the suite starts Python adapters
// hundreds of times.
func Python3(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	python.once.Do(func() {
		python.path = "python3"
		out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
		if p := strings.TrimSpace(string(out)); err == nil && p != "" && !strings.ContainsAny(p, " '\"\\") {
			python.path = p
		}
	})
	return python.path
}
