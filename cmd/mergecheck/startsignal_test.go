package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// signalled starts mergecheck with args, waits until it has started an
// adapter and ready, given every adapter process it has started so far,
// reports true (nil: at once), sends sig, and returns its exit code, what
// it wrote and every adapter it had started. Nothing waits on the clock
// but for a margin of minutes.
func signalled(t *testing.T, sig syscall.Signal, ready func(adapters []int) bool, args ...string) (int, string, []int) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var out safeBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	var adapters []int
	look := func() {
		for _, pid := range childrenOf(t, cmd.Process.Pid) {
			if !slices.Contains(adapters, pid) {
				adapters = append(adapters, pid)
			}
		}
	}
	for deadline := time.Now().Add(2 * time.Minute); len(adapters) == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		look()
	}
	require.NotEmpty(t, adapters, "no adapter started")
	for deadline := time.Now().Add(5 * time.Minute); ready != nil && !ready(adapters) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		look()
	}
	require.True(t, ready == nil || ready(adapters), "never ready to be signalled:\n%s", out.String())
	require.NoError(t, cmd.Process.Signal(sig))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "want an exit status, got %v\n%s", err, out.String())
		return ee.ExitCode(), out.String(), adapters
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("still running two minutes after %s:\n%s", sig, out.String())
	}
	return 0, "", nil
}

// noAdapterLeft fails t unless every adapter's process group is gone
// within a minute (a killed process lingers until it is reaped).
func noAdapterLeft(t *testing.T, adapters []int, sig syscall.Signal) {
	t.Helper()
	for _, pid := range adapters {
		deadline := time.Now().Add(time.Minute)
		for syscall.Kill(-pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		assert.ErrorIs(t, syscall.Kill(-pid, 0), syscall.ESRCH, "adapter group %d survived %s", pid, sig)
	}
}

// results reads a results file's verdicts and whether it is marked
// interrupted.
func results(t *testing.T, path string) (interrupted bool, verdicts []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err, "the results are written")
	var doc struct {
		Interrupted bool `json:"interrupted"`
		Results     []struct {
			Verdict string `json:"verdict"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	for _, r := range doc.Results {
		verdicts = append(verdicts, r.Verdict)
	}
	return doc.Interrupted, verdicts
}

// TestSignals_DuringTheHandshake: SIGINT, SIGTERM and SIGHUP during an
// adapter's slow handshake end run, replay and explain at once with exit 2: no
// process of the adapter's group is left, and run writes its results,
// marked interrupted, every rule interrupted or unchecked.
func TestSignals_DuringTheHandshake(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command with a slow adapter")
	}
	slow := "exec:" + badAdapter(t, "slow_start.py") + " 600"
	examples := filepath.Join("..", "..", "reference", "testdata", "examples")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			code, out, adapters := signalled(t, sig, nil, "run", "--engine", slow, "--rules", "730.2*", "--corpus", "", "--progress", "off", "--json", path)
			assert.Equal(t, exitTrouble, code, out)
			noAdapterLeft(t, adapters, sig)
			interrupted, verdicts := results(t, path)
			assert.True(t, interrupted)
			require.NotEmpty(t, verdicts)
			for _, v := range verdicts {
				assert.Contains(t, []string{"interrupted", "unchecked"}, v)
			}

			code, out, adapters = signalled(t, sig, nil, "replay", "--engine", slow, examples)
			assert.Equal(t, exitTrouble, code, out)
			noAdapterLeft(t, adapters, sig)

			example := filepath.Join(examples, "730.3-three-card-mutated-creature-dies.scenario.json")
			code, out, adapters = signalled(t, sig, nil, "explain", "--engine", slow, example)
			assert.Equal(t, exitTrouble, code, out)
			noAdapterLeft(t, adapters, sig)
		})
	}
}

// TestSignals_DuringARestart: a signal while an adapter restarts slowly
// after a fault ends the run at once, not after the handshake's time: the
// adapter's group is gone, the results are written marked interrupted,
// and the fault that caused the restart is in them.
func TestSignals_DuringARestart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command with a slow adapter")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "r.json")
			mark := filepath.Join(dir, "started")
			engine := "exec:" + badAdapter(t, "slow_start.py") + " 600 " + mark
			// The restart is under way once a process started after the
			// first, which crashed, says so (slow_start.py's marker): a
			// second process alone may be seen before the fault.
			restarting := func(adapters []int) bool {
				_, err := os.Stat(mark + ".restart")
				return len(adapters) >= 2 && err == nil
			}
			start := time.Now()
			code, out, adapters := signalled(t, sig, restarting, "run", "--engine", engine, "--rules", "730.2d", "--parallel", "1", "--corpus", "", "--progress", "off", "--json", path)
			assert.Less(t, time.Since(start), time.Minute, "it ended soon after the signal, not after the handshake's 30s")
			assert.Equal(t, exitTrouble, code, out)
			noAdapterLeft(t, adapters, sig)
			interrupted, verdicts := results(t, path)
			assert.True(t, interrupted, out)
			assert.Equal(t, []string{"engine-fault"}, verdicts, "the fault before the restart is kept: %s", out)
		})
	}
}

// TestSignals_DuringAShrink: a signal while a slow engine's failure is
// being shrunk ends the run soon: the adapter's group is gone, the results
// are written marked interrupted, the failure is kept (shrunk as far as it
// got), and the corpus holds it as a whole file, nothing half written.
func TestSignals_DuringAShrink(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command with a slow adapter")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path, corpus := filepath.Join(dir, "r.json"), filepath.Join(dir, "corpus")
			answers := filepath.Join(dir, "answers")
			engine := "exec:" + badAdapter(t, "slow_mutant.py") + " dies-per-card 0.1 " + answers
			t.Setenv("MERGECHECK_BIN", binary(t))
			// The failure comes at the 7th call at seed 1, and shrinking
			// it takes 91 more (docs/BENCHMARKS.md): at the 30th answer
			// the run is shrinking.
			shrinking := func([]int) bool {
				data, _ := os.ReadFile(answers)
				return bytes.Count(data, []byte("\n")) >= 30
			}
			code, out, adapters := signalled(t, sig, shrinking, "run", "--engine", engine, "--rules", "730.3", "--seed", "1", "--parallel", "1", "--timeout", "1m", "--corpus", corpus, "--progress", "off", "--json", path)
			assert.Equal(t, exitTrouble, code, out)
			noAdapterLeft(t, adapters, sig)
			interrupted, verdicts := results(t, path)
			assert.True(t, interrupted, out)
			assert.Equal(t, []string{"failed"}, verdicts, "the failure is kept: %s", out)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Contains(t, string(data), "may not be shrunk to its minimum", "it was shrinking")
			files, err := os.ReadDir(corpus)
			require.NoError(t, err)
			require.Len(t, files, 1, "one corpus file, and no temporary one")
			data, err = os.ReadFile(filepath.Join(corpus, files[0].Name()))
			require.NoError(t, err)
			_, err = model.DecodeScenario(data)
			assert.NoError(t, err, "the corpus file is whole")
		})
	}
}

// TestStartTimeout_ARestartIsNotTheScenariosTime: an adapter that takes
// four seconds to start again after a fault, and answers at once, is
// never \"no answer in time\" with --timeout 3s: the restart has the
// handshake's time (--start-timeout), outside the next scenario's.
func TestStartTimeout_ARestartIsNotTheScenariosTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command with a slow adapter")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	engine := "exec:" + badAdapter(t, "slow_start.py") + " 4 " + filepath.Join(dir, "started")
	code, out, errOut := mc(t, "run", "--engine", engine, "--rules", "730.2d", "--checks", "20", "--timeout", "3s", "--parallel", "1", "--corpus", "", "--progress", "off", "--json", path)
	assert.Equal(t, exitTrouble, code, "%s\n%s", out, errOut)
	assert.NotContains(t, out, "no answer to the request in time", "the restart was counted against a scenario")
	assert.Contains(t, out, "crashing on purpose", "the one fault is the crash")

	code, out, _ = mc(t, "run", "--engine", "exec:"+badAdapter(t, "slow_start.py")+" 4", "--rules", "730.2d", "--start-timeout", "1s", "--corpus", "", "--progress", "off")
	assert.Equal(t, exitTrouble, code, out)
	assert.Contains(t, out, "no hello from the adapter within 1s (--start-timeout)")
}

// safeBuffer is a bytes.Buffer a process's output goroutines may write to
// while the test reads it.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSignals_DuringACorpusWrite: a signal while a run writes the
// counterexamples of many failed rules into its corpus leaves every
// corpus file whole and no temporary one; every failure in the results
// that names a corpus file has it; the results are written, and no
// process of the adapter's group is left. The run either ends
// interrupted (exit 2) or, when the signal came after its last rule,
// with its failures (exit 1): never half of a file, never a lost case.
func TestSignals_DuringACorpusWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command over the protocol")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path, corpus := filepath.Join(dir, "r.json"), filepath.Join(dir, "corpus")
			writing := func([]int) bool {
				entries, _ := os.ReadDir(corpus)
				return len(entries) > 0
			}
			code, out, adapters := signalled(t, sig, writing, "run", "--engine", "exec:"+binary(t)+" serve --lazy no-events",
				"--rules", "730.*", "--seed", "1", "--corpus", corpus, "--progress", "off", "--json", path)
			assert.Contains(t, []int{exitTrouble, exitFailed}, code, out)
			noAdapterLeft(t, adapters, sig)
			interrupted, _ := results(t, path)
			assert.Equal(t, code == exitTrouble, interrupted, "an interrupted run exits 2: %s", out)
			entries, err := os.ReadDir(corpus)
			require.NoError(t, err)
			for _, e := range entries {
				require.False(t, strings.HasPrefix(e.Name(), "."), "a temporary file is left: %s", e.Name())
				data, err := os.ReadFile(filepath.Join(corpus, e.Name()))
				require.NoError(t, err)
				_, err = model.DecodeScenario(data)
				assert.NoError(t, err, "%s is whole", e.Name())
			}
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			var doc struct {
				Results []struct {
					Verdict        string `json:"verdict"`
					Counterexample *struct {
						File string `json:"file"`
					} `json:"counterexample"`
				} `json:"results"`
			}
			require.NoError(t, json.Unmarshal(data, &doc))
			failed := 0
			for _, r := range doc.Results {
				if r.Verdict != "failed" {
					continue
				}
				failed++
				require.NotNil(t, r.Counterexample, "a failure keeps its case")
				if r.Counterexample.File != "" {
					assert.FileExists(t, r.Counterexample.File, "the corpus file a failure names is written")
				}
			}
			assert.NotZero(t, failed, "the engine fails rules: %s", out)
		})
	}
}
