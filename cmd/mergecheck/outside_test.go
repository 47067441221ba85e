package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFromAnotherModule: a vendor's module (testdata/outside) that requires
// mergecheck serves its engine with the adapter kit, checks it in its own
// go test with enginetest, and runs mergecheck as a Go tool against its
// adapter, as the README's "From another module" says; the commands are
// the README's, and with a bug the same run fails its rule.
func TestFromAnotherModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module of its own")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "outside"))
	require.NoError(t, err)
	gocmd := func(env []string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// The module's own go.mod and go.sum, unchanged: what a vendor
		// commits must be enough.
		cmd.Env = append(os.Environ(), append(env, "GOFLAGS=-mod=readonly", "GOWORK=off")...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		require.NoError(t, err, "%s", out)
		return string(out), 0
	}
	out, code := gocmd(nil, "test", "./...")
	require.Equal(t, 0, code, out)

	// The adapter is "go run .", which compiles before its hello: --timeout
	// (which the handshake waits at least) far past that on a busy machine.
	run := []string{"tool", "mergecheck", "run", "--engine", "exec:go run .", "--rules", "730.2d,730.3", "--checks", "20", "--seed", "1", "--corpus", "", "--progress", "off", "--timeout", "5m"}
	out, code = gocmd(nil, run...)
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "held        730.2d 730.3\n")

	out, code = gocmd([]string{"MYENGINE_MUTANT=token-if-any-token"}, run...)
	assert.Equal(t, exitFailed, code, out)
	assert.Contains(t, out, "FAILED      730.2d: ")

	// The nightly commands (docs/NIGHTLY.md), small: two shards,
	// merged, compared with the night before, and set in a matrix.
	tmp := t.TempDir()
	at := func(name string) string { return filepath.Join(tmp, name) }
	for _, shard := range []string{"1", "2"} {
		out, code = gocmd(nil, "tool", "mergecheck", "run", "--engine", "exec:go run .", "--seed", "20261201", "--checks", "10",
			"--rules", "730.2d,730.3", "--shard", shard+"/2", "--corpus", at("corpus"), "--json", at("shard-"+shard+".json"), "--progress", "off", "--timeout", "5m")
		require.Equal(t, exitOK, code, out)
	}
	out, code = gocmd(nil, "tool", "mergecheck", "merge", "--allow-partial", "--json", at("mergecheck.json"), "--junit", at("mergecheck.xml"),
		"--html", at("mergecheck.html"), "--md", at("mergecheck.md"), at("shard-1.json"), at("shard-2.json"))
	require.Equal(t, exitOK, code, out)
	out, code = gocmd(nil, "tool", "mergecheck", "diff", at("mergecheck.json"), at("mergecheck.json"), "--md", at("diff.md"), "--html", at("diff.html"))
	require.Equal(t, exitOK, code, out)
	out, code = gocmd(nil, "tool", "mergecheck", "matrix", "--history", "--html", at("matrix.html"), "--md", at("matrix.md"), at("mergecheck.json"))
	require.Equal(t, exitOK, code, out)
	for _, f := range []string{"mergecheck.json", "mergecheck.xml", "mergecheck.html", "mergecheck.md", "diff.md", "diff.html", "matrix.html", "matrix.md"} {
		_, err := os.Stat(at(f))
		assert.NoError(t, err, f)
	}
}
