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

	run := []string{"tool", "mergecheck", "run", "--engine", "exec:go run .", "--rules", "730.2d,730.3", "--checks", "20", "--seed", "1", "--corpus", "", "--progress", "off"}
	out, code = gocmd(nil, run...)
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "held        730.2d 730.3\n")

	out, code = gocmd([]string{"MYENGINE_MUTANT=token-if-any-token"}, run...)
	assert.Equal(t, exitFailed, code, out)
	assert.Contains(t, out, "FAILED      730.2d: ")
}
