package generators_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

func TestPoolsAreInTheCatalogue(t *testing.T) {
	require.NoError(t, generators.Defs())
}

// TestScenariosAreValidByConstruction plays every drawn scenario: none may
// be refused by the reference, for any option set.
func TestScenariosAreValidByConstruction(t *testing.T) {
	gen := generators.Scenario(generators.Options{
		MinPermanents: 1, MaxPermanents: 3, MaxComponents: 4, Status: true,
		Replacements: true, Linked: true, Commander: true, Hand: true, Prefix: 4, Then: 1,
	})
	rapid.Check(t, func(t *rapid.T) {
		s := gen.Draw(t, "scenario")
		_, err := reference.Run(s)
		require.NoError(t, err)
	})
}

// TestForActions_StacksCanBeBuiltByCasting: the counterpart ForActions
// makes draws only starting stacks model.BuildByActions can build; the
// built scenario plays, and once its casts have resolved its permanents
// are the drawn ones, component for component, with the same status.
func TestForActions_StacksCanBeBuiltByCasting(t *testing.T) {
	gen := generators.Scenario(generators.Options{
		MinPermanents: 1, MaxPermanents: 3, MaxComponents: 4, Status: true, Commander: true, Hand: true,
		Melded: true, Prefix: 2, NeedKinds: []generators.Kind{generators.FaceDown, generators.Token},
	})
	buildable := generators.ForActions(gen)
	require.Same(t, buildable, generators.ForActions(gen), "one counterpart per generator")
	require.Same(t, buildable, generators.ForActions(buildable))
	rapid.Check(t, func(t *rapid.T) {
		s := buildable.Draw(t, "scenario")
		built, ok := model.BuildByActions(s)
		require.True(t, ok, "a stack casting can't build")
		tr, err := reference.Run(built)
		require.NoError(t, err)
		casts := len(built.Actions) - len(s.Actions)
		direct, err := reference.Run(s)
		require.NoError(t, err)
		after := tr.Start
		if casts > 0 {
			after = tr.Steps[casts-1].State
		}
		for _, want := range direct.Start.Battlefield {
			got := after.Permanent(want.ID)
			require.NotNil(t, got, "%s after the casts", want.ID)
			require.Equal(t, want.Components, got.Components, "%s's components", want.ID)
			require.Equal(t, want.Status, got.Status, "%s's status", want.ID)
		}
	})
}

// TestForActions_KeepsTheTopAsAsked: FaceDownTop holds for the stacks
// drawn for an engine without direct setup too, a lone component included.
func TestForActions_KeepsTheTopAsAsked(t *testing.T) {
	for _, down := range []bool{true, false} {
		gen := generators.ForActions(generators.Scenario(generators.Options{MaxComponents: 3, FaceDownTop: &down}))
		rapid.Check(t, func(t *rapid.T) {
			s := gen.Draw(t, "scenario")
			require.Equal(t, down, s.Start.Battlefield[0].Components[0].FaceDown)
			require.Equal(t, down, s.Start.Battlefield[0].Status.FaceDown)
		})
	}
}
