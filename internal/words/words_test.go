package words

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/model"
)

func TestList(t *testing.T) {
	assert.Equal(t, "nothing", List([]string(nil)))
	assert.Equal(t, "a", List([]string{"a"}))
	assert.Equal(t, "a and b", List([]string{"a", "b"}))
	assert.Equal(t, "a, b and c", List([]string{"a", "b", "c"}))
}

func TestCount_PluralUnlessOne(t *testing.T) {
	assert.Equal(t, "0 cards", Count(0, "card"))
	assert.Equal(t, "1 card", Count(1, "card"))
	assert.Equal(t, "2 cards", Count(2, "card"))
}

func TestStatus_TheStatusesThatHold(t *testing.T) {
	for want, st := range map[string]model.Status{
		"untapped, face up, phased in":              {},
		"tapped":                                    {Tapped: true},
		"tapped and face down":                      {Tapped: true, FaceDown: true},
		"tapped, flipped, face down and phased out": {Tapped: true, Flipped: true, FaceDown: true, PhasedOut: true},
		"flipped and phased out":                    {Flipped: true, PhasedOut: true},
	} {
		assert.Equal(t, want, Status(st))
	}
}

func TestEvent_ASentenceOfEveryKind(t *testing.T) {
	tapped := model.Status{Tapped: true}
	for want, e := range map[string]model.Event{
		"p1 moves battlefield -> graveyard (1 object, 2 cards); c1 to graveyard; c2 to exile of B by p2  [CR 712.21: a melded permanent leaving is one permanent leaving and two cards moving]": {
			Kind: model.ZoneChange, Rule: "712.21", Object: "p1", From: model.Battlefield, To: model.Graveyard, Objects: 1, Cards: 2,
			Moves: []model.Placement{{Object: "c1", To: model.Graveyard}, {Object: "c2", To: model.Exile, Owner: "B", By: "p2"}}},
		"c1 moves - -> battlefield":               {Kind: model.ZoneChange, Object: "c1", To: model.Battlefield},
		"trigger creature_dies for p1":            {Kind: model.Trigger, Observer: model.CreatureDies, Object: "p1"},
		"trigger mutates for p1 (ability of c2)":  {Kind: model.Trigger, Observer: model.Mutates, Object: "p1", Source: "c2"},
		"A reveals c1 and c2 (object p1)":         {Kind: model.Reveal, Player: "A", Revealed: []model.ObjectID{"c1", "c2"}, Object: "p1"},
		"nothing happens to p1":                   {Kind: model.NothingHappens, Object: "p1"},
		"token c3 ceases to exist":                {Kind: model.CeaseToExist, Object: "c3"},
		"c2 merges with p1":                       {Kind: model.Merged, Source: "c2", Object: "p1"},
		"p1 changes to tapped":                    {Kind: model.StatusChange, Object: "p1", Status: &tapped},
		"p1 changes":                              {Kind: model.StatusChange, Object: "p1"},
		"not allowed for p1":                      {Kind: model.NotAllowed, Object: "p1"},
		"p1 attacks":                              {Kind: model.Attacks, Object: "p1"},
		"some new kind (object p1, player A)":     {Kind: "some_new_kind", Object: "p1", Player: "A"},
		"trigger creature_dies for p1 (player A)": {Kind: model.Trigger, Observer: model.CreatureDies, Object: "p1", Player: "A"},
		"nothing happens to p1  [CR 9999.9]":      {Kind: model.NothingHappens, Object: "p1", Rule: "9999.9"},
	} {
		assert.Equal(t, want, Event(e))
	}
}
