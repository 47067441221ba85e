package harness_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/internal/testenv"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// adapter returns the command of a purpose-built bad adapter.
func adapter(t *testing.T, name string) string {
	t.Helper()
	python := testenv.Python3(t)
	path, err := filepath.Abs(filepath.Join("..", "remote", "testdata", "adapters", name))
	require.NoError(t, err)
	return python + " " + path
}

// TestExec_FaultsAreFindingsAndTheRunGoesOn: each kind of misbehaviour is
// an engine fault of the scenario, with the adapter's stderr where it
// wrote any, and the run checks every rule regardless.
func TestExec_FaultsAreFindingsAndTheRunGoesOn(t *testing.T) {
	for _, tc := range []struct {
		script, want, stderr string
		timeout              time.Duration
	}{
		// Only the hang is meant to reach the timeout; the others have a
		// generous one so that a loaded CI machine still sees their fault
		// and not a timeout in its place.
		{"crash.py", "exited", "crashing now", time.Minute},
		{"hang.py", "no answer to the request in time", "", 700 * time.Millisecond},
		{"garbage.py", "not a protocol message", "", time.Minute},
		{"wrong_id.py", "no request is waiting for", "", time.Minute},
		{"flood.py", "longer than 64 MiB", "", time.Minute},
	} {
		t.Run(tc.script, func(t *testing.T) {
			t.Parallel() // each waits mostly on its adapter's processes
			e, err := harness.NewExec(adapter(t, tc.script), harness.ExecOptions{})
			require.NoError(t, err)
			props := []*properties.Property{properties.P730_2d, properties.P730_3}
			res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 3, Seed: 1, Timeout: tc.timeout})
			require.NoError(t, err)
			require.Len(t, res.Results, 2, "the run completes")
			for _, r := range res.Results {
				require.Equal(t, harness.Fault, r.Verdict, r.Rule)
				require.NotNil(t, r.Fault.Scenario, "the scenario that did it is kept")
				assert.Contains(t, r.Fault.Error(), tc.want)
				if tc.stderr != "" {
					assert.Contains(t, strings.Join(r.Fault.Stderr, "\n"), tc.stderr)
				}
			}
			assert.Error(t, res.Err())
		})
	}
}

// TestExec_RestartsAfterACrash: after a fault the next scenario starts a
// new adapter process, with a new handshake.
func TestExec_RestartsAfterACrash(t *testing.T) {
	state := filepath.Join(t.TempDir(), "crashed")
	t.Setenv("CRASH_ONCE_FILE", state)
	e, err := harness.NewExec(adapter(t, "ok_after_crash.py"), harness.ExecOptions{})
	require.NoError(t, err)
	defer e.Close()
	s := tiny()
	_, err = e.Run(context.Background(), s)
	var ae *harness.AdapterError
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, err.Error(), "exited")
	_, err = os.Stat(state)
	require.NoError(t, err)
	_, err = e.Run(context.Background(), s)
	assert.True(t, errors.Is(err, harness.ErrUnsupported), "the restarted adapter answers: %v", err)
}

// TestExec_RefusalsAreUnsupported: an adapter that answers every request
// with an unsupported error leaves the rules unsupported, not faulted.
func TestExec_RefusalsAreUnsupported(t *testing.T) {
	e, err := harness.NewExec(adapter(t, "every_other.py"), harness.ExecOptions{})
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2d}, &harness.Options{Checks: 5, Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, harness.Unsupported, res.Results[0].Verdict)
	assert.NoError(t, res.Err())
}

// TestExec_HungAdapterIsKilledWithItsGroup: after a timeout no process of
// the adapter's group is left.
func TestExec_HungAdapterIsKilledWithItsGroup(t *testing.T) {
	// A tag of this test's own: other tests (and packages) run hang.py
	// at the same time.
	tag := fmt.Sprintf("tag-%d-%d", os.Getpid(), time.Now().UnixNano())
	e, err := harness.NewExec(adapter(t, "hang.py")+" "+tag, harness.ExecOptions{})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = e.Run(ctx, tiny())
	require.Error(t, err)
	require.NoError(t, e.Close())
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("pgrep is not installed")
	}
	assert.Eventually(t, func() bool {
		out, err := exec.Command("pgrep", "-f", "testdata/adapters/hang.py.*"+tag).Output()
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 1 {
			return true // pgrep found no such process
		}
		require.NoError(t, err, "pgrep")
		return strings.TrimSpace(string(out)) == ""
	}, 2*time.Minute, 50*time.Millisecond, "the hung adapter is gone")
}

// TestExec_DetachedChildLeaksNothing: an adapter that leaves a process
// outside its group holding its standard output and error (setsid) costs
// no goroutine once it is closed; its pipes are given up shortly after the
// adapter exits.
func TestExec_DetachedChildLeaksNothing(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid is not installed")
	}
	// The detached process outlives the test's wait by far, so that only
	// the harness giving up the pipes can pass it, however busy the
	// machine; the test stops it, by the PID it wrote, when it is done.
	pids := filepath.Join(t.TempDir(), "pids")
	cmd := "sh -c 'setsid sleep 600 & echo $! >> " + pids + "; exec " + adapter(t, "every_other.py") + "'"
	t.Cleanup(func() {
		data, _ := os.ReadFile(pids)
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	before := runtime.NumGoroutine()
	for range 3 {
		e, err := harness.NewExec(cmd, harness.ExecOptions{})
		require.NoError(t, err)
		_, err = e.Run(context.Background(), tiny())
		require.ErrorIs(t, err, harness.ErrUnsupported)
		require.NoError(t, e.Close())
	}
	// Polled here, not with assert.Eventually, whose own goroutine
	// would be counted.
	deadline := time.Now().Add(2 * time.Minute)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left behind by closed adapters")
}

func tiny() *model.Scenario {
	bd := build.New("tiny", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Perm("p1", build.A, build.Up("c1")).Do(model.Action{Type: model.Tap, Object: "p1"})
	return bd.Scenario()
}
