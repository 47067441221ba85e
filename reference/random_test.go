package reference_test

import (
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// randomScenario draws loosely built scenarios: merged stacks of cards and
// tokens of every layout, and actions naming objects at random. Many of
// its actions are invalid on purpose; the reference must refuse them
// cleanly.
func randomScenario(t *rapid.T) *model.Scenario {
	bd := build.New("random", "")
	cards := []string{"Grizzly Bears", "Gemrazer", "Vulpikeet", "Delver of Secrets", "Nezumi Shortfang",
		"Kazandu Mammoth", "Grinning Demon", "Lightning Bolt", "Graf Rats", "Midnight Scavengers", "Breezekeeper"}
	var ids []model.ObjectID
	next := 0
	newObj := func(owner model.PlayerID) model.ObjectID {
		next++
		id := model.ObjectID(fmt.Sprintf("o%d", next))
		def := rapid.SampledFrom(cards).Draw(t, "def")
		if rapid.Bool().Draw(t, "token") && def != "Lightning Bolt" {
			bd.Token(id, owner, def)
		} else {
			bd.Card(id, owner, def)
		}
		ids = append(ids, id)
		return id
	}
	players := []model.PlayerID{build.A, build.B}
	nperm := rapid.IntRange(0, 3).Draw(t, "permanents")
	var perms []model.ObjectID
	for i := range nperm {
		owner := rapid.SampledFrom(players).Draw(t, "owner")
		n := rapid.IntRange(1, 4).Draw(t, "components")
		faceDown := rapid.Bool().Draw(t, "face down")
		var comps []model.Component
		for range n {
			id := newObj(owner)
			c := build.Up(id)
			if faceDown {
				c = build.Down(id, model.ByManifest)
			}
			comps = append(comps, c)
		}
		pid := model.ObjectID(fmt.Sprintf("p%d", i+1))
		perms = append(perms, pid)
		bd.Perm(pid, owner, comps...)
	}
	offField := []model.ObjectID{"nobody"}
	for _, z := range []model.Zone{model.Hand, model.Graveyard, model.Library} {
		for range rapid.IntRange(0, 2).Draw(t, "zone cards") {
			owner := rapid.SampledFrom(players).Draw(t, "owner")
			next++
			id := model.ObjectID(fmt.Sprintf("o%d", next))
			bd.Card(id, owner, rapid.SampledFrom(cards).Draw(t, "def"))
			ids = append(ids, id)
			offField = append(offField, id)
			bd.Put(owner, z, id)
		}
	}
	onField := append([]model.ObjectID{"nobody"}, perms...)
	for i := range rapid.IntRange(0, 8).Draw(t, "actions") {
		a := model.Action{Type: rapid.SampledFrom(model.ActionTypes).Draw(t, "type")}
		switch a.Type {
		case model.Cast, model.CastMutate, model.Merge, model.Manifest:
			a.Object = rapid.SampledFrom(offField).Draw(t, "card")
		default:
			a.Object = rapid.SampledFrom(onField).Draw(t, "permanent")
		}
		switch a.Type {
		case model.CastMutate, model.Merge:
			a.Target = rapid.SampledFrom(onField).Draw(t, "target")
		case model.Meld:
			a.With = rapid.SampledFrom(onField).Draw(t, "with")
		case model.Move:
			a.To = rapid.SampledFrom([]model.Zone{model.Graveyard, model.Hand, model.LibraryTop, model.LibraryBottom, model.Exile}).Draw(t, "to")
		case model.Manifest:
			a.Player, a.Method = rapid.SampledFrom(players).Draw(t, "player"), model.ByManifest
		case model.AddCounters:
			a.Counter, a.N = "+1/+1", 1
		case model.BecomeCopy:
			a.Card = rapid.SampledFrom(offField).Draw(t, "card")
		case model.TokenCopy:
			a.Token, a.Player = model.ObjectID(fmt.Sprintf("new%d", i)), build.A
		case model.ExileFound:
			a.Source = rapid.SampledFrom(onField).Draw(t, "source")
			a.Choices.May = model.Bool(true)
		}
		if a.Type == model.Resolve || a.Type == model.Merge {
			a.Choices.Position = rapid.SampledFrom([]model.Position{model.Top, model.Bottom}).Draw(t, "position")
		}
		orders := a.Type == model.Move || a.Type == model.Return || a.Type == model.ExileFound
		if len(ids) > 0 && orders && rapid.Bool().Draw(t, "scripted order") {
			a.Choices.Order = rapid.SliceOfNDistinct(rapid.SampledFrom(ids), 0, 3, rapid.ID).Draw(t, "order")
		}
		bd.Do(a)
	}
	return bd.Scenario()
}

// TestReferenceNeverFailsInternally plays random scenarios: every error
// must be a refusal (invalid or unsupported), never an internal failure,
// and every completed step must conserve the cards.
func TestReferenceNeverFailsInternally(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := randomScenario(t)
		if s.Validate() != nil {
			return // the loose generator broke a start-state rule; decoding tests cover that
		}
		tr, err := reference.Run(s)
		if err != nil && !errors.Is(err, reference.ErrInvalid) && !errors.Is(err, reference.ErrUnsupported) {
			t.Fatalf("not a refusal: %v", err)
		}
		if tr == nil {
			return
		}
		states := []model.State{tr.Start}
		for _, st := range tr.Steps {
			states = append(states, st.State)
		}
		for i, st := range states {
			if err := conserved(s, st); err != nil {
				t.Fatalf("state %d: %v", i, err)
			}
		}
	})
}

// conserved checks that every card is in exactly one place, tokens only
// on the battlefield, and that status and token-ness follow the topmost
// component (CR 730.2d-e).
func conserved(s *model.Scenario, st model.State) error {
	seen := map[model.ObjectID]string{}
	note := func(id model.ObjectID, where string) error {
		if prev, ok := seen[id]; ok {
			return fmt.Errorf("%s is both in %s and in %s", id, prev, where)
		}
		seen[id] = where
		return nil
	}
	for _, p := range st.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			list, _ := p.Zones.Get(z)
			for _, id := range list {
				if err := note(id, string(p.ID)+"'s "+string(z)); err != nil {
					return err
				}
				if o := s.Object(id); o != nil && o.Token {
					return fmt.Errorf("token %s is in %s's %s", id, p.ID, z)
				}
			}
		}
	}
	for _, so := range st.Stack {
		if err := note(so.Object, "the stack"); err != nil {
			return err
		}
	}
	for _, p := range st.Battlefield {
		if len(p.Components) == 0 {
			return fmt.Errorf("%s has no components", p.ID)
		}
		for _, c := range p.Components {
			if err := note(c.Object, string(p.ID)); err != nil {
				return err
			}
		}
		if p.Status.FaceDown != p.Components[0].FaceDown {
			return fmt.Errorf("%s: status face_down=%t, topmost component %t", p.ID, p.Status.FaceDown, p.Components[0].FaceDown)
		}
		if o := s.Object(p.Components[0].Object); o != nil && p.Derived.Token != o.Token {
			return fmt.Errorf("%s: token=%t but its topmost component's is %t", p.ID, p.Derived.Token, o.Token)
		}
	}
	for _, o := range s.Objects {
		if _, ok := seen[o.ID]; !ok && !o.Token {
			return fmt.Errorf("card %s has vanished", o.ID)
		}
	}
	return nil
}
