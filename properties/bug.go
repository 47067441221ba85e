package properties

import (
	"errors"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// A Bug names the way an engine's trace departs from the rules', whatever
// scenario showed it: the aspect of the trace (a permanent's derived
// flags, a player's graveyard, the "creature_dies" triggers), the parts
// that differ (the token flag; an extra trigger) and the role the object
// at fault plays (a merged permanent, a token component, the commander
// card). Two failures with one Bug are one bug of the engine, shown by
// two rules' cases or two scenarios: the reports list it once.
type Bug struct {
	Aspect, Detail, Role string
}

// Key is the bug as one string, for grouping.
func (b Bug) Key() string { return b.Aspect + "|" + b.Detail + "|" + b.Role }

// Words is the bug in words: "a permanent's derived flags (token), of a
// merged permanent".
func (b Bug) Words() string {
	w := b.Aspect
	if b.Detail != "" {
		w += " (" + b.Detail + ")"
	}
	if b.Role != "" {
		w += ", of " + b.Role
	}
	return w
}

// BugOf returns the bug a case shows: where its trace first departs from
// the rules' (Departure), with the role of the object at fault as the
// rules' trace has it. ok is false when the trace follows the rules'.
func BugOf(c *Case) (b Bug, d *Problem, ok bool) {
	err := Departure(c)
	if !errors.As(err, &d) {
		return Bug{}, nil, false
	}
	return Bug{Aspect: d.Aspect, Detail: d.Detail, Role: roleOf(c, d.State, d.Object)}, d, true
}

// roleOf names the part object id plays in state k of the rules' trace
// (or the state before it, for what a step removed): a permanent of one
// object or several; a component of a merged permanent, by whether it is
// a token, the topmost, or the commander card; or a lone card or token.
func roleOf(c *Case, k int, id model.ObjectID) string {
	if id == "" {
		return ""
	}
	states := []*model.State{stateAt(c.Reference, k)}
	if k > 0 {
		states = append(states, stateAt(c.Reference, k-1))
	}
	for _, st := range states {
		if p := st.Permanent(id); p != nil {
			if len(p.Components) > 1 {
				return "a permanent of several objects"
			}
			return "a permanent of one object"
		}
	}
	for _, st := range states {
		for i := range st.Battlefield {
			p := &st.Battlefield[i]
			for n, comp := range p.Components {
				if comp.Object != id || len(p.Components) == 1 {
					continue
				}
				switch {
				case commanderCard(c.Scenario, p) == id:
					return "the commander card of a merged permanent"
				case isToken(c.Scenario, id):
					return "a token component"
				case n == 0 && !isMelded(c.Scenario, p):
					return "the topmost component"
				}
				return "a card component"
			}
		}
	}
	if o := c.Scenario.Object(id); o != nil && o.Commander {
		return "a commander card"
	}
	if isToken(c.Scenario, id) {
		return "a token"
	}
	if strings.Contains(string(id), "@") {
		return "a permanent"
	}
	return "a card"
}
