package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// before returns the state the engine reported before step i.
func before(t *model.Trace, i int) *model.State {
	if i == 0 {
		return &t.Start
	}
	return &t.Steps[i-1].State
}

// states returns the start state and every step's state.
func states(t *model.Trace) []model.State {
	out := []model.State{t.Start}
	for _, st := range t.Steps {
		out = append(out, st.State)
	}
	return out
}

// derived returns a permanent's derived values, or a problem if the engine
// reported none.
func derived(p *model.Permanent) (*model.Derived, error) {
	if p.Derived == nil {
		return nil, problem("permanent %s reports no derived values (characteristics, token)", p.ID)
	}
	return p.Derived, nil
}

// action returns the action of step i.
func action(c *Case, i int) model.Action {
	return c.Scenario.Actions[c.Trace.Steps[i].Action]
}

// isToken reports whether id is a token: one of the scenario's token
// objects, or one an action created.
func isToken(s *model.Scenario, id model.ObjectID) bool {
	if o := s.Object(id); o != nil {
		return o.Token
	}
	return slices.ContainsFunc(s.Actions, func(a model.Action) bool { return a.Type == model.TokenCopy && a.Token == id })
}

// defOf returns the definition of a scenario object, or nil for tokens
// created during the run.
func defOf(s *model.Scenario, id model.ObjectID) *model.CardDef {
	o := s.Object(id)
	if o == nil {
		return nil
	}
	if o.Copy != nil {
		return o.Copy
	}
	return s.Def(o.Def)
}

// faceAbilities returns the abilities of the face a face-up component
// shows, with a flip card's alternative abilities when its permanent is
// flipped, and false if the component's definition is unknown.
func faceAbilities(s *model.Scenario, c model.Component, flipped bool) ([]model.AbilityID, bool) {
	d := defOf(s, c.Object)
	if d == nil {
		return nil, false
	}
	switch {
	case c.Face == model.Back && d.Back != nil:
		return d.Back.Abilities, true
	case c.Face == model.Back && d.Melded != nil:
		return d.Melded.Abilities, true
	case flipped && d.Flipped != nil:
		return d.Flipped.Abilities, true
	}
	return d.Front.Abilities, true
}

// events returns the events of a step of one kind.
func events(st model.Step, k model.EventKind) []model.Event {
	var out []model.Event
	for _, e := range st.Events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// triggers counts a step's triggers of observer o for object id ("" for any).
func triggers(st model.Step, o model.Observer, id model.ObjectID) int {
	n := 0
	for _, e := range st.Events {
		if e.Kind == model.Trigger && e.Observer == o && (id == "" || e.Object == id) {
			n++
		}
	}
	return n
}

func ids(p *model.Permanent) []model.ObjectID {
	var out []model.ObjectID
	for _, c := range p.Components {
		out = append(out, c.Object)
	}
	return out
}

// cardCount counts the cards among a permanent's components.
func cardCount(s *model.Scenario, p *model.Permanent) int {
	n := 0
	for _, c := range p.Components {
		if !isToken(s, c.Object) {
			n++
		}
	}
	return n
}

func merged(p *model.Permanent) bool {
	return len(p.Components) > 1 && (p.Derived == nil || !p.Derived.Melded)
}

// eachPermanent calls f for every permanent of every state of the trace,
// stopping at the first problem.
func eachPermanent(t *model.Trace, f func(where string, p *model.Permanent) error) error {
	for i, st := range states(t) {
		where := "at the start"
		if i > 0 {
			where = fmt.Sprintf("after action %d", t.Steps[i-1].Action)
		}
		for k := range st.Battlefield {
			if err := f(where, &st.Battlefield[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameAsReference compares one aspect of every state of the engine's trace
// with the reference's, reporting the first difference.
func sameAsReference(c *Case, what string, view func(st model.State) any) error {
	got, want := states(c.Trace), states(c.Reference)
	if len(got) != len(want) {
		return problem("the engine reported %d steps, the reference %d", len(got)-1, len(want)-1)
	}
	for i := range got {
		g, w := view(got[i]), view(want[i])
		if fmt.Sprint(g) != fmt.Sprint(w) {
			where := "at the start"
			if i > 0 {
				where = fmt.Sprintf("after action %d (%s)", c.Trace.Steps[i-1].Action, action(c, i-1).Type)
			}
			return problem("%s, %s is %v, but the rules give %v", where, what, g, w)
		}
	}
	return nil
}

// stepsOf returns the indexes of the steps whose action has type t.
func stepsOf(c *Case, types ...model.ActionType) []int {
	var out []int
	for i := range c.Trace.Steps {
		if slices.Contains(types, action(c, i).Type) {
			out = append(out, i)
		}
	}
	return out
}

// acted returns step i's action and the permanent it names, before and
// after the step (nil where it is not on the battlefield).
func acted(c *Case, i int) (model.Action, *model.Permanent, *model.Permanent) {
	a := action(c, i)
	return a, before(c.Trace, i).Permanent(a.Object), c.Trace.Steps[i].State.Permanent(a.Object)
}

// unchanged reports whether permanent q is p with the same status and
// components: what "nothing happens" leaves.
func unchanged(p, q *model.Permanent) bool {
	return q != nil && q.Status == p.Status && fmt.Sprint(q.Components) == fmt.Sprint(p.Components)
}

// sameFoundObjects compares with the reference where the cards a permanent
// became ended up: the battlefield, graveyards and exile (CR 730.3c, 712.21c).
func sameFoundObjects(c *Case) error {
	if err := sameAsReference(c, "the battlefield", battlefieldView); err != nil {
		return err
	}
	return sameAsReference(c, "the graveyards and exile", zonesView(model.Graveyard, model.Exile))
}
