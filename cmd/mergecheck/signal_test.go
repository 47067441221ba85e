package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/testenv"
)

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at ')'.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// TestSignalsStopARunAndItsAdapters: SIGINT, SIGTERM and SIGHUP each end a
// run over the protocol as an interrupt: it exits 2, its results are
// written and marked interrupted, no rule it had not finished is held, and
// no process of any adapter's process group is left.
func TestSignalsStopARunAndItsAdapters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it for seconds")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to find the adapters")
	}
	bin := binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			results := filepath.Join(t.TempDir(), "results.json")
			cmd := exec.Command(bin, "run", "--engine", "exec:"+bin+" serve", "--checks", "100000", "--parallel", "2",
				"--corpus", "", "--json", results, "--progress", "off")
			require.NoError(t, cmd.Start())
			var adapters []int
			for deadline := time.Now().Add(2 * time.Minute); len(adapters) < 2 && time.Now().Before(deadline); {
				time.Sleep(100 * time.Millisecond)
				adapters = childrenOf(t, cmd.Process.Pid)
			}
			require.NotEmpty(t, adapters, "the run started no adapter")
			time.Sleep(500 * time.Millisecond)
			require.NoError(t, cmd.Process.Signal(sig))
			err := cmd.Wait()
			var ee *exec.ExitError
			require.True(t, errors.As(err, &ee), "want an exit status, got %v", err)
			assert.Equal(t, exitTrouble, ee.ExitCode())
			for _, pid := range adapters {
				// Each adapter leads its own process group: none of it is left.
				assert.ErrorIs(t, syscall.Kill(-pid, 0), syscall.ESRCH, "adapter group %d survived %s", pid, sig)
			}
			data, err := os.ReadFile(results)
			require.NoError(t, err, "the results so far are written")
			var doc struct {
				Interrupted bool `json:"interrupted"`
				Results     []struct {
					Verdict string `json:"verdict"`
				} `json:"results"`
			}
			require.NoError(t, json.Unmarshal(data, &doc))
			assert.True(t, doc.Interrupted)
			for _, r := range doc.Results {
				assert.NotEqual(t, "held", r.Verdict, "a rule cut short is never held")
			}
		})
	}
}

// TestSameResultsWhateverTheParallelism: over the protocol, one seed gives
// the same results, timings aside, with one adapter process or two: no
// message carries a request id or another value of the run's own.
func TestSameResultsWhateverTheParallelism(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command twice over the protocol")
	}
	bin := binary(t)
	adapter, err := filepath.Abs("../../remote/testdata/adapters/wrong_type.py")
	require.NoError(t, err)
	for _, engine := range []string{bin + " serve --mutant dies-per-card", testenv.Python3(t) + " " + adapter} {
		dir := t.TempDir()
		var docs []any
		for _, p := range []string{"1", "2"} {
			path := filepath.Join(dir, "r"+p+".json")
			cmd := exec.Command(bin, "run", "--engine", "exec:"+engine, "--seed", "1", "--checks", "30",
				"--rules", "730.3,730.3a,712.21e", "--parallel", p,
				// Shrinking stops at --shrink-time and a case at --timeout:
				// both far past what they take, so that a busy machine
				// shrinks as far as an idle one.
				"--shrink-time", "30m", "--timeout", "2m", "--corpus", "", "--json", path, "--progress", "off")
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			require.True(t, err == nil || errors.As(err, &ee), "%v\n%s", err, out)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			var doc any
			require.NoError(t, json.Unmarshal(data, &doc))
			docs = append(docs, withoutTimings(doc))
		}
		assert.Equal(t, docs[0], docs[1], engine)
	}
}

// withoutTimings drops the fields of a results document that measure
// time.
func withoutTimings(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch k {
			case "started", "elapsed_seconds", "seconds", "time":
				continue
			}
			out[k] = withoutTimings(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withoutTimings(x)
		}
		return out
	}
	return v
}
