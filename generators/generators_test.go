package generators_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
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

// casting is an engine that can't set up merged stacks: its stacks are
// built by casting.
var casting = generators.Engine{ByActions: true}

// TestFor_StacksCanBeBuiltByCasting: the counterpart For makes for an
// engine that builds its stacks by casting draws only starting stacks
// model.BuildByActions can build; the built scenario plays, and once its
// casts have resolved its permanents are the drawn ones, component for
// component, with the same status.
func TestFor_StacksCanBeBuiltByCasting(t *testing.T) {
	opts := generators.Options{
		MinPermanents: 1, MaxPermanents: 3, MaxComponents: 4, Status: true, Commander: true, Hand: true,
		Melded: true, Prefix: 2, NeedKinds: []generators.Kind{generators.FaceDown, generators.Token},
	}
	shape := generators.NewShape(opts)
	buildable := shape.For(casting)
	require.NotSame(t, shape.Gen(), buildable)
	require.Same(t, buildable, shape.For(casting), "one counterpart per engine")
	opts.ByActions = true
	built := generators.NewShape(opts)
	require.Same(t, built.Gen(), built.For(casting), "a shape that builds by casting already is its own counterpart")
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

// TestFor_KeepsTheTopAsAsked: FaceDownTop holds for the stacks drawn for
// an engine without direct setup too, a lone component included.
func TestFor_KeepsTheTopAsAsked(t *testing.T) {
	for _, down := range []bool{true, false} {
		gen := generators.NewShape(generators.Options{MaxComponents: 3, FaceDownTop: &down}).For(casting)
		rapid.Check(t, func(t *rapid.T) {
			s := gen.Draw(t, "scenario")
			require.Equal(t, down, s.Start.Battlefield[0].Components[0].FaceDown)
			require.Equal(t, down, s.Start.Battlefield[0].Status.FaceDown)
		})
	}
}

// TestFor_DrawsOnlyWhatTheEngineDeclares: for an engine lacking features,
// every property's generator draws scenarios that use none of them, from
// the first draw, valid by construction, with stacks built by casting or
// not; and an engine lacking nothing gets the generator itself.
func TestFor_DrawsOnlyWhatTheEngineDeclares(t *testing.T) {
	sets := map[string][]model.Feature{
		"none":          {},
		"mutate, merge": {model.FeatureMutate, model.FeatureMergedStacks, model.FeatureMergeAction},
		"merged stacks": {model.FeatureMergedStacks},
		"manifest only": {model.FeatureMergedStacks, model.FeatureManifest},
	}
	for _, f := range model.Features {
		sets["all but "+string(f)] = slices.DeleteFunc(slices.Clone(model.Features), func(g model.Feature) bool { return g == f })
	}
	for _, p := range properties.All {
		if p.Draws == nil {
			continue
		}
		require.Same(t, p.Draws.Gen(), p.Draws.For(generators.Engine{}), p.Rule)
		for name, declared := range sets {
			lacks := slices.DeleteFunc(slices.Clone(model.Features), func(f model.Feature) bool { return slices.Contains(declared, f) })
			for _, byActions := range []bool{false, true} {
				g := p.Draws.For(generators.Engine{Lacks: lacks, ByActions: byActions})
				require.Same(t, g, p.Draws.For(generators.Engine{Lacks: lacks, ByActions: byActions}), "one counterpart per engine")
				for seed := range 4 {
					s := g.Example(seed)
					_, err := reference.Run(s)
					require.NoError(t, err, "%s, %s, seed %d", p.Rule, name, seed)
					for _, f := range s.Uses() {
						if byActions && f == model.FeatureMergedStacks {
							continue // built by casting
						}
						require.Contains(t, declared, f, "%s, engine with %s, seed %d: the scenario uses %s", p.Rule, name, seed, f)
					}
				}
			}
		}
	}
}

// TestEither_DrawsEveryShape: a shape made by Either draws from each of
// its shapes, and for an engine that lacks one's feature, from the rest.
func TestEither_DrawsEveryShape(t *testing.T) {
	one := func(a model.ActionType) *generators.Shape {
		return generators.NewShape(generators.Options{Kinds: []generators.Kind{generators.Card}, Focus: []model.ActionType{a}})
	}
	either := generators.Either(one(model.PhaseOut), one(model.Tap))
	last := func(s *model.Scenario) model.ActionType {
		if len(s.Actions) == 0 {
			return ""
		}
		return s.Actions[len(s.Actions)-1].Type
	}
	seen := map[model.ActionType]int{}
	for seed := range 100 {
		seen[last(either.Gen().Example(seed))]++
	}
	require.Greater(t, seen[model.PhaseOut], 20)
	require.Greater(t, seen[model.Tap], 20)

	g := either.For(generators.Engine{Lacks: []model.Feature{model.FeaturePhaseAction}})
	require.Same(t, g, either.For(generators.Engine{Lacks: []model.Feature{model.FeaturePhaseAction}}))
	for seed := range 50 {
		require.NotEqual(t, model.PhaseOut, last(g.Example(seed)), "seed %d", seed)
	}
}
