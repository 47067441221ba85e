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
	assert.Equal(t, []model.Feature{model.FeatureMutate, model.FeatureMerge, model.FeatureFaceDown, model.FeatureDoubleFaced,
		model.FeaturePhasing, model.FeatureReplacement}, bd.Scenario().Uses())
}
