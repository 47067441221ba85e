package harness

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// inScenarioTerms reads an engine's trace through the objects it says it
// created (model.Trace.NewObjects): a stand-in becomes the card it stands
// for, a token standing for cards becomes those cards where it is a
// component, and a permanent id of the engine's own becomes the rules'
// name for the permanent of the same cards in the same state of want.
// What is left (a token no action makes) is judged as the object it is.
// It returns t itself when t names no new object, and an error, which
// breaks the trace's accounting (400.1), when the names do not make
// sense: an id the scenario already uses, a kind it does not know, a
// stand-in for no card of the scenario.
func inScenarioTerms(s *model.Scenario, t, want *model.Trace) (*model.Trace, error) {
	if t == nil || len(t.NewObjects) == 0 {
		return t, nil
	}
	rename := map[model.ObjectID]model.ObjectID{}
	standsFor := map[model.ObjectID][]model.ObjectID{}
	newPerm := map[model.ObjectID]bool{}
	plain := map[model.ObjectID]bool{} // tokens of the engine's own, standing for nothing
	seen := map[model.ObjectID]bool{}
	for i, n := range t.NewObjects {
		at := fmt.Sprintf("new_objects[%d] (%s)", i, n.ID)
		switch {
		case n.ID == "":
			return nil, fmt.Errorf("%s: no id", at)
		case seen[n.ID]:
			return nil, fmt.Errorf("%s: the id is named twice", at)
		case s.Object(n.ID) != nil || scenarioToken(s, n.ID):
			return nil, fmt.Errorf("%s: the scenario already names %s; a new object needs an id of its own", at, n.ID)
		}
		seen[n.ID] = true
		for _, c := range n.StandsFor {
			if o := s.Object(c); o == nil && !scenarioToken(s, c) {
				return nil, fmt.Errorf("%s: it stands for %s, which is no object of the scenario", at, c)
			}
		}
		switch n.Kind {
		case model.NewStandIn:
			if len(n.StandsFor) != 1 {
				return nil, fmt.Errorf("%s: a stand-in stands for exactly one card of the scenario, not %d", at, len(n.StandsFor))
			}
			rename[n.ID] = n.StandsFor[0]
		case model.NewToken:
			if len(n.StandsFor) > 0 {
				standsFor[n.ID] = n.StandsFor
			} else {
				plain[n.ID] = true
			}
		case model.NewPermanent:
			if len(n.StandsFor) > 0 {
				return nil, fmt.Errorf("%s: a new permanent's cards are its components; stands_for is for tokens and stand-ins", at)
			}
			newPerm[n.ID] = true
		default:
			return nil, fmt.Errorf("%s: kind %q, want %s, %s or %s", at, n.Kind, model.NewToken, model.NewStandIn, model.NewPermanent)
		}
	}
	c := cloneTrace(t)
	c.NewObjects = slices.DeleteFunc(c.NewObjects, func(n model.NewObject) bool {
		return n.Kind != model.NewToken || len(n.StandsFor) > 0 // all read away but the plain tokens
	})
	id := func(x model.ObjectID) model.ObjectID {
		if r, ok := rename[x]; ok {
			return r
		}
		return x
	}
	ids := func(xs []model.ObjectID) []model.ObjectID {
		out := xs[:0:0]
		for _, x := range xs {
			if _, gone := standsFor[x]; !gone {
				out = append(out, id(x))
			}
		}
		return out
	}
	entered := map[model.ObjectID]string{}
	state := func(st *model.State, k int) {
		for i := range st.Players {
			z := &st.Players[i].Zones
			z.Library, z.Hand, z.Graveyard, z.Exile, z.Command = ids(z.Library), ids(z.Hand), ids(z.Graveyard), ids(z.Exile), ids(z.Command)
		}
		for i := range st.Stack {
			st.Stack[i].Object = id(st.Stack[i].Object)
		}
		for i := range st.Links {
			st.Links[i].Source = id(st.Links[i].Source)
			st.Links[i].Cards = ids(st.Links[i].Cards)
		}
		for i := range st.Battlefield {
			p := &st.Battlefield[i]
			var comps []model.Component
			for _, comp := range p.Components {
				cards, ok := standsFor[comp.Object]
				if !ok {
					comp.Object = id(comp.Object)
					comps = append(comps, comp)
					continue
				}
				for _, card := range cards {
					comps = append(comps, model.Component{Object: card, Face: comp.Face, FaceDown: comp.FaceDown, FaceDownBy: comp.FaceDownBy})
				}
			}
			p.Components = comps
			p.AttachedTo = id(p.AttachedTo)
			p.ID = permName(p, id, newPerm, standsFor, want, k)
			if plain[p.ID] && k > 0 {
				// The engine's own token is a permanent entering: named
				// as the trace format names one, after the action it
				// first appears in.
				if _, ok := entered[p.ID]; !ok {
					entered[p.ID] = fmt.Sprintf("%s@%d", p.ID, k-1)
				}
				p.ID = model.ObjectID(entered[p.ID])
			}
		}
	}
	// A permanent's name, once read, holds for the rest of the trace.
	state(&c.Start, 0)
	for k := range c.Steps {
		st := &c.Steps[k]
		state(&st.State, k+1)
		events := st.Events[:0]
		for _, e := range st.Events {
			if _, gone := standsFor[e.Object]; gone && e.Kind == model.CeaseToExist {
				continue // the engine's own token, not the cards it stood for
			}
			e.Object, e.Source = id(e.Object), id(e.Source)
			e.Revealed = ids(e.Revealed)
			var moves []model.Placement
			for _, m := range e.Moves {
				if _, gone := standsFor[m.Object]; gone {
					continue
				}
				m.Object, m.By = id(m.Object), id(m.By)
				moves = append(moves, m)
			}
			e.Moves = moves
			events = append(events, e)
		}
		st.Events = events
	}
	// Events name permanents too: rename them as the states did.
	names := permNames(t, c)
	for k := range c.Steps {
		for i := range c.Steps[k].Events {
			e := &c.Steps[k].Events[i]
			if n, ok := names[e.Object]; ok {
				e.Object = n
			}
		}
	}
	return c, nil
}

// permName is the name of permanent p (its components already read) in
// state k: the rules' name of the permanent of the same cards in want's
// state k when p's id is the engine's own (a new permanent, or a token or
// stand-in standing for cards), else its id with stand-ins read.
func permName(p *model.Permanent, id func(model.ObjectID) model.ObjectID, newPerm map[model.ObjectID]bool, standsFor map[model.ObjectID][]model.ObjectID, want *model.Trace, k int) model.ObjectID {
	_, token := standsFor[p.ID]
	if !newPerm[p.ID] && !token {
		return renamedEntered(p.ID, id)
	}
	if want == nil || k > len(want.Steps) {
		return p.ID
	}
	st := &want.Start
	if k > 0 {
		st = &want.Steps[k-1].State
	}
	cards := componentSet(p.Components)
	for _, q := range st.Battlefield {
		if slices.Equal(componentSet(q.Components), cards) {
			return q.ID
		}
	}
	return p.ID // the rules have no such permanent: judged as the engine's
}

// renamedEntered reads a stand-in in a name OBJECT@ACTION.
func renamedEntered(pid model.ObjectID, id func(model.ObjectID) model.ObjectID) model.ObjectID {
	for i := len(pid) - 1; i > 0; i-- {
		if pid[i] == '@' {
			return id(pid[:i]) + pid[i:]
		}
	}
	return id(pid)
}

func componentSet(cs []model.Component) []model.ObjectID {
	out := make([]model.ObjectID, len(cs))
	for i, c := range cs {
		out[i] = c.Object
	}
	slices.Sort(out)
	return out
}

// permNames maps the engine's permanent ids in t to the names c gives
// them, where they differ.
func permNames(t, c *model.Trace) map[model.ObjectID]model.ObjectID {
	out := map[model.ObjectID]model.ObjectID{}
	add := func(a, b *model.State) {
		for i := range a.Battlefield {
			if i < len(b.Battlefield) && a.Battlefield[i].ID != b.Battlefield[i].ID {
				out[a.Battlefield[i].ID] = b.Battlefield[i].ID
			}
		}
	}
	add(&t.Start, &c.Start)
	for k := range t.Steps {
		add(&t.Steps[k].State, &c.Steps[k].State)
	}
	return out
}

// scenarioToken reports whether an action of s creates token id.
func scenarioToken(s *model.Scenario, id model.ObjectID) bool {
	return slices.ContainsFunc(s.Actions, func(a model.Action) bool { return a.Token == id })
}

// cloneTrace copies t deeply enough to be edited: every state, step and
// event list is its own.
func cloneTrace(t *model.Trace) *model.Trace {
	c := *t
	c.Start = t.Start.Clone()
	c.NewObjects = slices.Clone(t.NewObjects)
	c.Steps = make([]model.Step, len(t.Steps))
	for i, st := range t.Steps {
		c.Steps[i] = model.Step{Action: st.Action, State: st.State.Clone(), Events: slices.Clone(st.Events)}
		for j := range c.Steps[i].Events {
			e := &c.Steps[i].Events[j]
			e.Moves = slices.Clone(e.Moves)
			e.Revealed = slices.Clone(e.Revealed)
		}
	}
	return &c
}
