package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// partScenario has two independent permanents, p1 and p2, and a tap of p1
// with a claim about each.
func partScenario() *model.Scenario {
	return &model.Scenario{
		Format: model.ScenarioFormat, Name: "part",
		Catalogue: []model.CardDef{{Name: "Grizzly Bears", Layout: model.LayoutNormal, Front: model.Face{Name: "Grizzly Bears", Types: []string{"creature"}, Power: ptr(2), Toughness: ptr(2)}}},
		Objects:   []model.Object{{ID: "c1", Def: "Grizzly Bears", Owner: "A"}, {ID: "c2", Def: "Grizzly Bears", Owner: "A"}},
		Start: model.State{Active: "A", Players: []model.Player{{ID: "A"}, {ID: "B"}}, Battlefield: []model.Permanent{
			{ID: "p1", Controller: "A", Components: []model.Component{{Object: "c1"}}, Timestamp: 1},
			{ID: "p2", Controller: "A", Components: []model.Component{{Object: "c2"}}, Timestamp: 2},
		}},
		Actions: []model.Action{{Type: model.Tap, Object: "p1"}, {Type: model.Untap, Object: "p1"}},
		Expect: []model.Expectation{
			{After: 0, Battlefield: ptr(2), Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{Tapped: true}}, "p2": {}}},
			{After: 1, Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{}}}},
		},
	}
}

func TestPrefix_KeepsTheActionsAndClaimsBeforeTheCut(t *testing.T) {
	s := partScenario()
	p := s.Prefix(1)
	assert.Len(t, p.Actions, 1)
	require.Len(t, p.Expect, 1)
	assert.Equal(t, 0, p.Expect[0].After)
	assert.Len(t, s.Actions, 2, "the scenario cut is a copy")
	assert.NoError(t, p.Validate())
}

func TestWithout_SetsAsideAnIndependentPermanent(t *testing.T) {
	s := partScenario()
	w, err := s.Without("p2")
	require.NoError(t, err)
	require.NoError(t, w.Validate())
	assert.Len(t, w.Start.Battlefield, 1)
	assert.Nil(t, w.Object("c2"))
	assert.NotContains(t, w.Expect[0].Permanents, model.ObjectID("p2"))
	assert.Contains(t, w.Expect[0].Permanents, model.ObjectID("p1"))
	assert.Nil(t, w.Expect[0].Battlefield, "a count of the battlefield no longer holds")
	assert.Len(t, s.Start.Battlefield, 2, "the original is left as it was")
	assert.Contains(t, s.Expect[0].Permanents, model.ObjectID("p2"))

	_, err = s.Without("p1")
	assert.ErrorContains(t, err, "actions[0] (tap) names p1")
	s.Actions = append(s.Actions, model.Action{Type: model.DestroyAll})
	_, err = s.Without("p2")
	assert.ErrorContains(t, err, "acts on every creature")
}
