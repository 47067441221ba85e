// Command tiny-adapter puts tinyengine behind mergecheck's protocol, which
// package adapter speaks: this is the vendor's part, from scenario to trace.
package main

import (
	"context"
	"slices"

	"github.com/mergecheck/mergecheck/adapter"
	"github.com/mergecheck/mergecheck/adapters/go/tinyengine"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
)

func main() {
	adapter.Main(adapter.Engine{Name: "tinyengine", Version: "0.1", Play: play, // no feature of mergecheck's list
		Capabilities: protocol.Capabilities{Features: []model.Feature{},
			Observers: []model.Observer{model.CreatureDies, model.CardToGraveyard}}})
}

// piles are the destinations of a move, as tinyengine's zones.
var piles = map[model.Zone]tinyengine.Pile{model.Graveyard: tinyengine.Graveyard, model.Hand: tinyengine.Hand,
	model.LibraryTop: tinyengine.Library, model.Exile: tinyengine.Exile}

func play(_ context.Context, s *model.Scenario) (*model.Trace, error) {
	g, err := setUp(s)
	if err != nil {
		return nil, err
	}
	t := &model.Trace{Format: model.TraceFormat, Scenario: s.Name, Engine: "tinyengine 0.1", Start: snapshot(s, g)}
	for i, a := range s.Actions {
		var events []model.Event
		switch to, ok := piles[a.To]; {
		case !a.Choices.IsZero() || a.Source != "":
			return nil, adapter.Unsupported("choices and linked abilities")
		case a.Type == model.Tap || a.Type == model.Untap:
			if _, err := g.SetTapped(string(a.Object), a.Type == model.Tap); err != nil {
				return nil, adapter.Diverge(i, t, "%v", err)
			}
		case a.Type == model.Move && ok:
			m, err := g.Leave(string(a.Object), to)
			if err != nil {
				return nil, adapter.Diverge(i, t, "%v", err)
			}
			events = moveEvents(s, m, a.To)
		default:
			return nil, adapter.Unsupported("action %s (to %q)", a.Type, a.To)
		}
		t.Steps = append(t.Steps, model.Step{Action: i, Events: events, State: snapshot(s, g)})
	}
	return t, nil
}

// setUp builds tinyengine's game, refusing what it does not model.
func setUp(s *model.Scenario) (*tinyengine.Game, error) {
	if len(s.Start.Stack) > 0 || len(s.Start.Links) > 0 {
		return nil, adapter.Unsupported("the stack and linked abilities")
	}
	g := &tinyengine.Game{Piles: map[string]map[tinyengine.Pile][]string{}}
	cards := map[model.ObjectID]*tinyengine.Card{}
	for _, o := range s.Objects {
		d := s.Def(o.Def)
		if d == nil || o.Copy != nil || o.Commander || d.Layout != model.LayoutNormal {
			return nil, adapter.Unsupported("%s: copies, commanders and cards of layout other than normal", o.ID)
		}
		if len(d.Front.Abilities) > 0 { // tinyengine knows no ability
			return nil, adapter.Unsupported("%s's abilities %v", d.Name, d.Front.Abilities)
		}
		c := &tinyengine.Card{ID: string(o.ID), Owner: string(o.Owner), Name: d.Name, Token: o.Token, Creature: d.Front.Has("creature")}
		if d.Front.Power != nil && d.Front.Toughness != nil {
			c.Power, c.Toughness = *d.Front.Power, *d.Front.Toughness
		}
		cards[o.ID] = c
	}
	for _, pl := range s.Start.Players {
		if len(pl.Zones.Command) > 0 {
			return nil, adapter.Unsupported("the command zone")
		}
		g.Piles[string(pl.ID)] = map[tinyengine.Pile][]string{tinyengine.Graveyard: conv[string](pl.Zones.Graveyard),
			tinyengine.Hand: conv[string](pl.Zones.Hand), tinyengine.Library: conv[string](pl.Zones.Library), tinyengine.Exile: conv[string](pl.Zones.Exile)}
	}
	for _, p := range s.Start.Battlefield {
		c, st := p.Components[0], p.Status
		if len(p.Components) > 1 || c.FaceDown || c.Face == model.Back || st.Flipped || st.PhasedOut || len(p.Effects) > 0 ||
			p.AttachedTo != "" || p.EnchantedPlayer != "" || len(p.Counters) > 0 {
			return nil, adapter.Unsupported("%s: merged, face-down, flipped, phased-out, attached or changed", p.ID)
		}
		g.Battlefield = append(g.Battlefield, &tinyengine.Permanent{ID: string(p.ID), Card: cards[c.Object],
			Controller: string(p.Controller), Tapped: st.Tapped})
	}
	return g, nil
}

// moveEvents reports a permanent leaving, and the observers' triggers.
func moveEvents(s *model.Scenario, m tinyengine.Move, to model.Zone) []model.Event {
	perm, card, zone := model.ObjectID(m.Permanent), model.ObjectID(m.Card), to
	if to == model.LibraryTop {
		zone = model.Library
	}
	ev := []model.Event{{Kind: model.ZoneChange, Object: perm, From: model.Battlefield, To: zone, Objects: 1, Cards: map[bool]int{false: 1}[m.Vanished],
		Moves: []model.Placement{{Object: card, To: zone, Owner: s.Object(card).Owner}}}}
	trigger := func(o model.Observer, id model.ObjectID) {
		ev = append(ev, model.Event{Kind: model.Trigger, Observer: o, Object: id})
	}
	if m.Died {
		trigger(model.CreatureDies, perm)
	}
	if to == model.Graveyard && !m.Vanished {
		trigger(model.CardToGraveyard, card)
	}
	if m.Vanished {
		ev = append(ev, model.Event{Kind: model.CeaseToExist, Object: card})
	}
	return ev
}

// snapshot reports the game as a state, with derived values.
func snapshot(s *model.Scenario, g *tinyengine.Game) model.State {
	st := model.State{Active: s.Start.Active}
	for _, pl := range s.Start.Players {
		z := g.Piles[string(pl.ID)]
		st.Players = append(st.Players, model.Player{ID: pl.ID, Zones: model.Zones{Library: conv[model.ObjectID](z[tinyengine.Library]),
			Hand: conv[model.ObjectID](slices.Sorted(slices.Values(z[tinyengine.Hand]))), Graveyard: conv[model.ObjectID](z[tinyengine.Graveyard]),
			Exile: conv[model.ObjectID](z[tinyengine.Exile])}})
	}
	for _, p := range g.Battlefield {
		f := s.Def(s.Object(model.ObjectID(p.Card.ID)).Def).Front
		ch := model.Characteristics{Name: f.Name, ManaValue: f.ManaValue(), Colors: f.Colors, Types: f.Types, Subtypes: f.Subtypes,
			Supertypes: f.Supertypes, Abilities: slices.Sorted(slices.Values(f.Abilities))}
		if p.Card.Creature {
			ch.Power, ch.Toughness = &p.Card.Power, &p.Card.Toughness
		}
		perm := model.Permanent{ID: model.ObjectID(p.ID), Controller: model.PlayerID(p.Controller), Components: []model.Component{{Object: model.ObjectID(p.Card.ID)}},
			Status: model.Status{Tapped: p.Tapped}, Derived: &model.Derived{Characteristics: ch, Token: p.Card.Token}}
		if orig := s.Start.Permanent(perm.ID); orig != nil {
			perm.Timestamp, perm.ControlledSinceTurnStart = orig.Timestamp, orig.ControlledSinceTurnStart
		}
		st.Battlefield = append(st.Battlefield, perm)
	}
	return st
}

// conv converts a list of ids between mergecheck's type and the engine's.
func conv[U, T ~string](list []T) []U {
	var out []U
	for _, id := range list {
		out = append(out, U(id))
	}
	return out
}
