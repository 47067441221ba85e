package reference_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// TestRealCards_DeclaredKindsHold: the scenarios of testdata/realcards
// write real cards as they are, each ability the reference does not know
// declared by kind (ability_kinds): Beastcaller Savant's mana ability,
// Coral Trickster's "when turned face up" trigger, Grave Titan's enters
// trigger. The reference plays each to its expectations, read from the
// rules they cite; without the declarations it refuses each as
// unclassified-ability, so the declarations are what let it play them.
func TestRealCards_DeclaredKindsHold(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "realcards", "*.scenario.json"))
	require.NoError(t, err)
	require.Len(t, files, 4)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			s, err := model.DecodeScenario(data)
			require.NoError(t, err)
			tr, err := reference.Run(s)
			require.NoError(t, err)
			assert.NoError(t, model.CheckExpectations(s, tr))
			assert.NotEmpty(t, reference.DeclaredInert(s), "it says which abilities it treated as inert by declaration")

			for i := range s.Catalogue {
				s.Catalogue[i].Front.AbilityKinds = nil
			}
			_, err = reference.Run(s)
			var ue *reference.UnsupportedError
			require.True(t, errors.As(err, &ue), "%v", err)
			assert.Equal(t, "unclassified-ability", ue.Feature)
		})
	}
}

// TestUnclassifiedAbilities_OneRefusalNamesThemAll: a scenario with three
// abilities the reference does not know is refused once, naming all
// three, so that a file is put right in one go; a static one declared so
// is refused as uninterpreted, and one declared about activation only is
// inert.
func TestUnclassifiedAbilities_OneRefusalNamesThemAll(t *testing.T) {
	card := func(kinds map[model.AbilityID]model.AbilityKind) *model.Scenario {
		bd := build.New("unknown-abilities", "")
		bd.Card("c1", a, "Grizzly Bears")
		s := bd.Perm("p1", a, up("c1")).Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
		f := &s.Catalogue[0].Front
		f.Abilities = []model.AbilityID{"one_thing", "another_thing", "a_third_thing"}
		f.AbilityKinds = kinds
		return s
	}
	_, err := reference.Run(card(nil))
	require.Error(t, err)
	for _, ab := range []string{"one_thing", "another_thing", "a_third_thing"} {
		assert.Contains(t, err.Error(), ab)
	}
	assert.Contains(t, err.Error(), "unclassified-ability")

	static := map[model.AbilityID]model.AbilityKind{
		"one_thing": {Kind: model.KindStatic}, "another_thing": {Kind: model.KindActivated}, "a_third_thing": {Kind: model.KindMana},
	}
	_, err = reference.Run(card(static))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "uninterpreted-static-ability")
	assert.Contains(t, err.Error(), "one_thing")
	assert.NotContains(t, err.Error(), "another_thing")

	static["one_thing"] = model.AbilityKind{Kind: model.KindStatic, About: model.AboutActivation}
	tr, err := reference.Run(card(static))
	require.NoError(t, err)
	assert.True(t, tr.Steps[0].State.Permanent("p1").Status.Tapped)
}
