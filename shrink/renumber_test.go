package shrink

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// TestRenumberIsIdempotent: renumbering a renumbered scenario changes
// nothing, even with ten or more cards in a zone (c9 before c10), so the
// shrinker's last step can't go round in circles.
func TestRenumberIsIdempotent(t *testing.T) {
	g := generators.Scenario(generators.Options{
		MinPermanents: 1, MaxPermanents: 4, MinComponents: 1, MaxComponents: 5,
		Status: true, Replacements: true, Linked: true, Attach: true, Hand: true,
	})
	rapid.Check(t, func(t *rapid.T) {
		s := g.Draw(t, "scenario")
		// Pad a hand past nine cards so ids of two digits sort.
		for i := range 11 {
			id := model.ObjectID("h" + string(rune('a'+i)))
			s.Objects = append(s.Objects, model.Object{ID: id, Def: "Gemrazer", Owner: s.Start.Players[0].ID})
			s.Start.Players[0].Zones.Hand = append(s.Start.Players[0].Zones.Hand, id)
		}
		once := Renumber(s)
		if diff := cmp.Diff(once, Renumber(once)); diff != "" {
			t.Fatalf("renumber is not idempotent (-once +twice):\n%s", diff)
		}
	})
}

// TestNaturally: ids sort by prefix, then by number.
func TestNaturally(t *testing.T) {
	ids := []model.ObjectID{"c10", "p2", "c9", "t1", "c1", "c2@3"}
	want := []model.ObjectID{"c1", "c2@3", "c9", "c10", "p2", "t1"}
	got := slices.Clone(ids)
	slices.SortFunc(got, naturally)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("natural order (-want +got):\n%s", diff)
	}
}
