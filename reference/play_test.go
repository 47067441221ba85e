package reference_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// TestPlay_IsTheScenarioReplayed: a Play built one action at a time ends
// in the state Run's trace ends in and Final reports, and its Probe and
// Then leave it as it was: what the generators rely on to draw valid
// scenarios without replaying them.
func TestPlay_IsTheScenarioReplayed(t *testing.T) {
	var gens []*rapid.Generator[*model.Scenario]
	for _, p := range properties.All {
		if p.Draws != nil {
			gens = append(gens, p.Draws.Gen())
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.SampledFrom(gens).Draw(t, "generator").Draw(t, "scenario")
		start := *s
		start.Actions = nil
		play, err := reference.NewPlay(&start)
		require.NoError(t, err)
		play.DeclineForbiddenCasts() // as 702.140a's generator does
		for i, a := range s.Actions {
			before, _, err := play.State()
			require.NoError(t, err)
			_, err = play.Probe(a)
			require.NoError(t, err, "action %d", i)
			_, err = play.Then(a)
			require.NoError(t, err, "action %d", i)
			after, _, err := play.State()
			require.NoError(t, err)
			if d := cmp.Diff(before, after); d != "" {
				t.Fatalf("Probe or Then changed the play before action %d:\n%s", i, d)
			}
			require.NoError(t, play.Do(a), "action %d", i)
		}
		got, left, err := play.State()
		require.NoError(t, err)
		final, finalLeft, err := reference.Final(s)
		require.NoError(t, err)
		tr, err := reference.Run(s)
		require.NoError(t, err)
		want := tr.Start
		if n := len(tr.Steps); n > 0 {
			want = tr.Steps[n-1].State
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("the play ends elsewhere than the trace (-trace +play):\n%s", d)
		}
		if d := cmp.Diff(final, got); d != "" {
			t.Fatalf("the play ends elsewhere than Final (-final +play):\n%s", d)
		}
		require.Equal(t, finalLeft, left)
	})
}
