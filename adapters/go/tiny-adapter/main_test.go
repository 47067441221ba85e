package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// adapterBinary builds the example adapter.
func adapterBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tiny-adapter")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// TestTinyAdapterEndToEnd runs the example adapter as mergecheck does, over
// the protocol: on scenarios in its scope its traces agree with the
// reference's in every respect mergecheck judges, and a whole run gives
// every rule a verdict, none an engine fault.
func TestTinyAdapterEndToEnd(t *testing.T) {
	e, err := harness.NewExec(adapterBinary(t), harness.ExecOptions{})
	require.NoError(t, err)
	defer e.Close()

	bd := build.New("tiny-tap-and-die", "Grizzly Bears taps and dies; a Saproling token is exiled and ceases to exist.")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Token("t1", build.B, "Saproling Token")
	s := bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.B, build.Up("t1")).
		Do(model.Action{Type: model.Tap, Object: "p1"}, model.Action{Type: model.Tap, Object: "p1"},
			model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}, model.Action{Type: model.Move, Object: "p2", To: model.Exile}).Scenario()
	_, problems, err := harness.Judge(context.Background(), e, s, properties.All)
	require.NoError(t, err)
	assert.Empty(t, problems)

	mutating := bd.Scenario()
	mutating.Actions = []model.Action{{Type: model.Flip, Object: "p1"}}
	_, err = e.Run(context.Background(), mutating)
	assert.ErrorIs(t, err, harness.ErrUnsupported, "what it lacks it refuses by name")

	res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 20, Seed: 1, Parallel: 1})
	require.NoError(t, err)
	require.Len(t, res.Results, len(properties.All))
	for _, r := range res.Results {
		assert.NotEqual(t, harness.Fault, r.Verdict, "%s: %v", r.Rule, r.Fault)
		assert.NotEmpty(t, r.Verdict, r.Rule)
	}
}
