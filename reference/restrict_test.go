package reference_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// brisela is a scenario with Brisela, Voice of Nightmares (Bruna c1 and
// Gisela c2 melded) as p1 under controller, Grizzly Bears p2 under A, and
// card of owner in hand as c3.
func brisela(controller, owner model.PlayerID, card string) *build.Builder {
	bd := build.New("601.3-brisela", "Brisela, Voice of Nightmares forbids her controller's opponents spells of mana value 3 or less.")
	bd.Card("c1", controller, "Bruna, the Fading Light")
	bd.Card("c2", controller, "Gisela, the Broken Blade")
	bd.Card("c4", a, "Grizzly Bears")
	bd.Card("c3", owner, card)
	return bd.Perm("p1", controller, back("c1"), back("c2")).Perm("p2", a, up("c4")).Put(owner, model.Hand, "c3")
}

// Test601_3_BriselaForbidsHerOpponentsSpellsOfManaValue3OrLess: an
// opponent of Brisela's controller can't cast a spell of mana value 3 or
// less (not_allowed, 601.3), judged on the spell as cast: a face-down one
// has mana value 0 (702.37c), a mutating one its card's. Her controller
// can, and so can anyone while she is phased out (702.26b).
func Test601_3_BriselaForbidsHerOpponentsSpellsOfManaValue3OrLess(t *testing.T) {
	cast := model.Action{Type: model.Cast, Object: "c3"}
	mutate := model.Action{Type: model.CastMutate, Object: "c3", Target: "p2"}
	faceDown := model.Action{Type: model.Cast, Object: "c3", Method: model.ByMorph}
	for _, tt := range []struct {
		name      string
		by        model.PlayerID // Brisela's controller
		card      string
		do        []model.Action
		forbidden bool
	}{
		{"an opponent's Grizzly Bears, mana value 2", b, "Grizzly Bears", []model.Action{cast}, true},
		{"an opponent's Sea-Dasher Octopus for mutate, mana value 3", b, "Sea-Dasher Octopus", []model.Action{mutate}, true},
		{"an opponent's Gemrazer for mutate, mana value 4", b, "Gemrazer", []model.Action{mutate}, false},
		{"an opponent's Grinning Demon face down, mana value 0", b, "Grinning Demon", []model.Action{faceDown}, true},
		{"an opponent's Grinning Demon face up, mana value 4", b, "Grinning Demon", []model.Action{cast}, false},
		{"her controller's Grizzly Bears", a, "Grizzly Bears", []model.Action{cast}, false},
		{"an opponent's Grizzly Bears while she is phased out", b, "Grizzly Bears", []model.Action{{Type: model.PhaseOut, Object: "p1"}, cast}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bd := brisela(tt.by, a, tt.card)
			for _, act := range tt.do {
				bd.Do(act)
			}
			s := bd.Scenario()
			last := len(tt.do) - 1
			if tt.forbidden {
				requireNotAllowed(t, s, last, "601.3")
				return
			}
			tr := requirePlayed(t, s)
			assert.NotContains(t, tr.Steps[last].Events, model.Event{Kind: model.NotAllowed, Rule: "601.3", Object: "c3"})
			assert.Len(t, tr.Steps[last].State.Stack, 1, "the spell is on the stack")
		})
	}
	for _, m := range []string{"cast-restriction-ignored", "face-down-spell-keeps-mana-value", "cast-restriction-binds-its-controller", "cast-restriction-spares-mana-value-3"} {
		assert.NotNil(t, reference.FindMutant(m), m)
	}
}
