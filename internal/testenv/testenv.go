// Package testenv is what the project's tests need of the machine they
// run on, set once for every test binary (the garbage collector's setting,
// and the interpreter the Python adapters run under), and of the docs they
// keep true (a list of rules as the docs write it).
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mergecheck/mergecheck/model"
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

// RuleList reads a list of rules as the docs write it, "400.1,
// 702.140a-e, 730.2", into the rules it names, a range of letters
// expanded: the tests that keep a doc's list of held rules true read it
// so, and a rule added changes the doc, not the test.
func RuleList(s string) ([]model.RuleID, error) {
	var out []model.RuleID
	for _, item := range strings.Split(s, ",") {
		item = strings.Join(strings.Fields(item), "")
		base, last, isRange := strings.Cut(item, "-")
		switch {
		case item == "":
			return nil, fmt.Errorf("an empty item in the rule list %q", s)
		case !isRange:
			out = append(out, model.RuleID(item))
		case len(last) != 1 || len(base) < 2 || base[len(base)-1] > last[0]:
			return nil, fmt.Errorf("%q in the rule list %q is not a range of letters such as 730.2a-d", item, s)
		default:
			for c := base[len(base)-1]; c <= last[0]; c++ {
				out = append(out, model.RuleID(base[:len(base)-1]+string(c)))
			}
		}
	}
	return out, nil
}

// Draw is g's draw at seed (rapid's Example), or nil when g can't draw
// one; broke is the panic when it is one of the generators' own
// invariants ("generators: ..."), which a test must not pass over as a
// shape with nothing to draw.
func Draw(g interface{ Example(...int) *model.Scenario }, seed int) (s *model.Scenario, broke string) {
	defer func() {
		if r := recover(); r != nil {
			s = nil
			if msg := fmt.Sprint(r); strings.Contains(msg, "generators: ") {
				broke = msg
			}
		}
	}()
	return g.Example(seed), ""
}
