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
	rd, err := readNewObjects(s, t)
	if err != nil {
		return nil, err
	}
	rd.want = want
	c := cloneTrace(t)
	c.NewObjects = slices.DeleteFunc(c.NewObjects, func(n model.NewObject) bool {
		return n.Kind != model.NewToken || len(n.StandsFor) > 0 // all read away but the plain tokens
	})
	// A permanent's name, once read, holds for the rest of the trace.
	rd.state(&c.Start, 0)
	for k := range c.Steps {
		st := &c.Steps[k]
		rd.state(&st.State, k+1)
		st.Events = rd.events(st.Events)
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

// A reading is how a trace's new objects read in the scenario's terms.
type reading struct {
	rename    map[model.ObjectID]model.ObjectID   // a stand-in: the card it stands for
	standsFor map[model.ObjectID][]model.ObjectID // a token standing for cards: the cards
	newPerm   map[model.ObjectID]bool             // a permanent id of the engine's own
	plain     map[model.ObjectID]bool             // a token of the engine's own, standing for nothing
	entered   map[model.ObjectID]string           // a plain token: its name as a permanent entering
	want      *model.Trace
}

// readNewObjects reads t's new objects, or says what in them makes no
// sense in s's terms.
func readNewObjects(s *model.Scenario, t *model.Trace) (*reading, error) {
	rd := &reading{rename: map[model.ObjectID]model.ObjectID{}, standsFor: map[model.ObjectID][]model.ObjectID{},
		newPerm: map[model.ObjectID]bool{}, plain: map[model.ObjectID]bool{}, entered: map[model.ObjectID]string{}}
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
			rd.rename[n.ID] = n.StandsFor[0]
		case model.NewToken:
			if len(n.StandsFor) > 0 {
				rd.standsFor[n.ID] = n.StandsFor
			} else {
				rd.plain[n.ID] = true
			}
		case model.NewPermanent:
			if len(n.StandsFor) > 0 {
				return nil, fmt.Errorf("%s: a new permanent's cards are its components; stands_for is for tokens and stand-ins", at)
			}
			rd.newPerm[n.ID] = true
		default:
			return nil, fmt.Errorf("%s: kind %q, want %s, %s or %s", at, n.Kind, model.NewToken, model.NewStandIn, model.NewPermanent)
		}
	}
	return rd, nil
}

// id reads a stand-in as its card.
func (rd *reading) id(x model.ObjectID) model.ObjectID {
	if r, ok := rd.rename[x]; ok {
		return r
	}
	return x
}

// ids reads a list of objects, leaving out tokens that stand for cards.
func (rd *reading) ids(xs []model.ObjectID) []model.ObjectID {
	out := xs[:0:0]
	for _, x := range xs {
		if _, gone := rd.standsFor[x]; !gone {
			out = append(out, rd.id(x))
		}
	}
	return out
}

// state reads state k of the trace (0 is the start).
func (rd *reading) state(st *model.State, k int) {
	for i := range st.Players {
		z := &st.Players[i].Zones
		z.Library, z.Hand, z.Graveyard, z.Exile, z.Command = rd.ids(z.Library), rd.ids(z.Hand), rd.ids(z.Graveyard), rd.ids(z.Exile), rd.ids(z.Command)
	}
	for i := range st.Stack {
		st.Stack[i].Object = rd.id(st.Stack[i].Object)
	}
	for i := range st.Links {
		st.Links[i].Source = rd.id(st.Links[i].Source)
		st.Links[i].Cards = rd.ids(st.Links[i].Cards)
	}
	for i := range st.Battlefield {
		rd.permanent(&st.Battlefield[i], k)
	}
}

// permanent reads a permanent of state k: a token standing for cards
// becomes those cards, and the permanent takes the rules' name.
func (rd *reading) permanent(p *model.Permanent, k int) {
	var comps []model.Component
	for _, comp := range p.Components {
		cards, ok := rd.standsFor[comp.Object]
		if !ok {
			comp.Object = rd.id(comp.Object)
			comps = append(comps, comp)
			continue
		}
		for _, card := range cards {
			comps = append(comps, model.Component{Object: card, Face: comp.Face, FaceDown: comp.FaceDown, FaceDownBy: comp.FaceDownBy})
		}
	}
	p.Components = comps
	p.AttachedTo = rd.id(p.AttachedTo)
	p.ID = permName(p, rd.id, rd.newPerm, rd.standsFor, rd.want, k)
	if rd.plain[p.ID] && k > 0 {
		// The engine's own token is a permanent entering: named as the
		// trace format names one, after the action it first appears in.
		if _, ok := rd.entered[p.ID]; !ok {
			rd.entered[p.ID] = fmt.Sprintf("%s@%d", p.ID, k-1)
		}
		p.ID = model.ObjectID(rd.entered[p.ID])
	}
}

// events reads a step's events: a token standing for cards that ceases
// to exist is not reported, nor are its moves (the cards' are).
func (rd *reading) events(evs []model.Event) []model.Event {
	out := evs[:0]
	for _, e := range evs {
		if _, gone := rd.standsFor[e.Object]; gone && e.Kind == model.CeaseToExist {
			continue // the engine's own token, not the cards it stood for
		}
		e.Object, e.Source = rd.id(e.Object), rd.id(e.Source)
		e.Revealed = rd.ids(e.Revealed)
		var moves []model.Placement
		for _, m := range e.Moves {
			if _, gone := rd.standsFor[m.Object]; gone {
				continue
			}
			m.Object, m.By = rd.id(m.Object), rd.id(m.By)
			moves = append(moves, m)
		}
		e.Moves = moves
		out = append(out, e)
	}
	return out
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
