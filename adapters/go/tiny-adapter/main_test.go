package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

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
	_, problems, err := harness.PlayAndJudge(context.Background(), e, s, properties.All)
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

// TestTinyAdapterHoldsWhatItPlays: the adapter declares no feature, so it
// is given only plain cards and tokens; at each seed 1 to 5 it holds the
// rule it plays through (704.5d), fails none, and every other rule is
// unsupported, saying whether the engine lacks a feature or refused the
// scenarios (casting, counters and the other changes it does not model).
func TestTinyAdapterHoldsWhatItPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite five times over the protocol")
	}
	bin := adapterBinary(t)
	for seed := uint64(1); seed <= 5; seed++ {
		e, err := harness.NewExec(bin, harness.ExecOptions{})
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed, Timeout: time.Minute})
		require.NoError(t, err)
		e.Close()
		for _, r := range res.Results {
			p := properties.Find(properties.All, r.Rule)
			switch {
			case p.Uncheckable != "":
				assert.Equal(t, harness.Unchecked, r.Verdict, r.Rule)
			case r.Rule == properties.P704_5d.Rule:
				assert.Equal(t, harness.Held, r.Verdict, "seed %d: %s", seed, r.Why)
			default:
				assert.Equal(t, harness.Unsupported, r.Verdict, "seed %d, %s: %s", seed, r.Rule, r.Why)
				assert.Regexp(t, "does not declare|does not report|refused|no scenario reaches", r.Why, "seed %d, %s", seed, r.Rule)
			}
		}
	}
}
