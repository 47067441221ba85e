package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
)

func TestScenarioUsesWhatItExercises(t *testing.T) {
	bd := build.New("uses", "")
	bd.Card("c1", build.A, "Gemrazer")
	bd.Card("c2", build.A, "Delver of Secrets")
	bd.Card("c3", build.A, "Leyline of the Void")
	bd.Perm("p1", build.A, build.Up("c1"), build.Down("c2", model.ByManifest)).Perm("p2", build.B, build.Up("c3")).
		Do(model.Action{Type: model.PhaseOut, Object: "p1"})
	assert.Equal(t, []model.Feature{model.FeatureMutate, model.FeatureMergedStacks, model.FeatureManifest, model.FeatureTransform,
		model.FeaturePhaseAction, model.FeatureReplacement}, bd.Scenario().Uses())
}

// TestFeaturePartsAreUsedOneByOne: a scenario uses only the parts of the
// face-down, double-faced and phasing rules it exercises, so an engine
// lacking one part is judged on the scenarios that use the others.
func TestFeaturePartsAreUsedOneByOne(t *testing.T) {
	scenario := func(perm model.Component, def string, attach bool, actions ...model.Action) []model.Feature {
		bd := build.New("parts", "")
		bd.Card("c1", build.A, def)
		bd.Card("c9", build.A, "Grizzly Bears")
		bd.Put(build.A, model.Library, "c9")
		perm.Object = "c1"
		bd.Perm("p1", build.A, perm)
		if attach {
			bd.Card("a1", build.A, "False Demise")
			bd.Perm("p2", build.A, build.Up("a1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
		}
		return bd.Do(actions...).Scenario().Uses()
	}
	up := build.Up("")
	for _, tc := range []struct {
		name string
		got  []model.Feature
		want []model.Feature
	}{
		{"cast face down", scenario(up, "Grizzly Bears", false, model.Action{Type: model.Cast, Object: "c9", Method: model.ByMorph}), []model.Feature{model.FeatureCastFaceDown}},
		{"morphed at the start", scenario(build.Down("", model.ByMorph), "Exalted Angel", false), []model.Feature{model.FeatureCastFaceDown}},
		{"turned face down", scenario(up, "Grizzly Bears", false, model.Action{Type: model.TurnFaceDown, Object: "p1"}), []model.Feature{model.FeatureTurnFaceDown}},
		{"face up by an effect", scenario(build.Down("", model.ByEffect), "Grizzly Bears", false, model.Action{Type: model.TurnFaceUp, Object: "p1"}), []model.Feature{model.FeatureTurnFaceDown, model.FeatureTurnFaceUpEffect}},
		{"face up by morph", scenario(build.Down("", model.ByMorph), "Exalted Angel", false, model.Action{Type: model.TurnFaceUp, Object: "p1", Method: model.ByMorph}), []model.Feature{model.FeatureCastFaceDown, model.FeatureTurnFaceUpSpecial}},
		{"manifest", scenario(up, "Grizzly Bears", false, model.Action{Type: model.Manifest, Player: build.A, Method: model.ByManifest, Object: "c9"}), []model.Feature{model.FeatureManifest}},
		{"cloak", scenario(up, "Grizzly Bears", false, model.Action{Type: model.Manifest, Player: build.A, Method: model.ByCloak, Object: "c9"}), []model.Feature{model.FeatureCloak}},
		{"a transforming card", scenario(up, "Delver of Secrets", false), []model.Feature{model.FeatureTransform}},
		{"a modal card", scenario(up, "Kazandu Mammoth", false), []model.Feature{model.FeatureModal}},
		{"convert", scenario(up, "Delver of Secrets", false, model.Action{Type: model.Convert, Object: "p1"}), []model.Feature{model.FeatureTransform, model.FeatureConvert}},
		{"phase out", scenario(up, "Grizzly Bears", false, model.Action{Type: model.PhaseOut, Object: "p1"}), []model.Feature{model.FeaturePhaseAction}},
		{"phasing at the untap step", scenario(up, "Breezekeeper", false, model.Action{Type: model.NextTurn}, model.Action{Type: model.NextTurn}), []model.Feature{model.FeaturePhaseUntap}},
		{"a next turn with nothing to phase", scenario(up, "Grizzly Bears", false, model.Action{Type: model.NextTurn}), nil},
		{"a merge from the graveyard", scenario(up, "Grizzly Bears", false, model.Action{Type: model.Merge, Object: "c9", Target: "p1"}), []model.Feature{model.FeatureMergeAction}},
		{"an Aura phasing with its host", scenario(up, "Grizzly Bears", true, model.Action{Type: model.PhaseOut, Object: "p1"}), []model.Feature{model.FeaturePhaseAction, model.FeaturePhaseAttached}},
	} {
		assert.Equal(t, tc.want, tc.got, tc.name)
	}
}

// TestUses_CardsOutOfPlayAskNothing: a card's layout counts only once it
// is in play; the same flip card asks for flip once an action names it.
func TestUses_CardsOutOfPlayAskNothing(t *testing.T) {
	scenario := func(actions ...model.Action) []model.Feature {
		bd := build.New("out of play", "")
		bd.Card("c1", build.A, "Grizzly Bears")
		bd.Card("c2", build.A, "Nezumi Shortfang")
		bd.Card("c3", build.A, "Delver of Secrets")
		bd.Perm("p1", build.A, build.Up("c1")).Put(build.A, model.Library, "c2").Put(build.A, model.Graveyard, "c3")
		return bd.Do(actions...).Scenario().Uses()
	}
	assert.Empty(t, scenario(model.Action{Type: model.Tap, Object: "p1"}))
	assert.Equal(t, []model.Feature{model.FeatureManifest, model.FeatureFlip}, scenario(model.Action{Type: model.Manifest, Player: build.A, Method: model.ByManifest, Object: "c2"}),
		"named by an action, the flip card is in play")
	assert.Equal(t, []model.Feature{model.FeatureMergeAction, model.FeatureTransform}, scenario(model.Action{Type: model.Merge, Object: "c3", Target: "p1"}))
}

// TestShorthandsStandForTheirParts: an engine may declare "face_down",
// "double_faced" or "phasing" for all their parts; a need of a shorthand
// is met by any part; unknown names are reported.
func TestShorthandsStandForTheirParts(t *testing.T) {
	got, unknown := model.ExpandFeatures([]model.Feature{"phasing", model.FeatureMutate, "face_down", "teleport", model.FeaturePhaseUntap})
	assert.Equal(t, []model.Feature{model.FeatureMutate, model.FeatureCastFaceDown, model.FeatureTurnFaceDown, model.FeatureTurnFaceUpEffect,
		model.FeatureTurnFaceUpSpecial, model.FeatureManifest, model.FeatureCloak, model.FeaturePhaseAction, model.FeaturePhaseUntap, model.FeaturePhaseAttached}, got)
	assert.Equal(t, []model.Feature{"teleport"}, unknown)
	all, unknown := model.ExpandFeatures(model.Features)
	assert.Equal(t, model.Features, all)
	assert.Empty(t, unknown)

	assert.True(t, model.Provides([]model.Feature{model.FeatureManifest}, model.FeatureFaceDown))
	assert.False(t, model.Provides([]model.Feature{model.FeatureManifest}, model.FeatureDoubleFaced))
	assert.False(t, model.Provides([]model.Feature{model.FeatureManifest}, model.FeatureCloak))
	for short, parts := range model.Shorthands {
		assert.NotContains(t, model.Features, short)
		for _, p := range parts {
			assert.Contains(t, model.Features, p, short)
		}
	}
}
