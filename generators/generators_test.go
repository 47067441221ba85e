package generators_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
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
