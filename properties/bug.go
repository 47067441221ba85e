package properties

import (
	"errors"
	"strconv"
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
	return Bug{Aspect: d.Aspect, Detail: d.Detail, Role: d.Role}, d, true
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

// A Signature says what is wrong in a failure, whichever rule's case and
// scenario showed it: the class of problem the check found (without its
// rule, so that the parallel checks of merged and melded permanents that
// find one problem share it), the kind of action after which it shows
// (ActionKind), and where the engine's trace first departs from the
// rules' (Bug). Two failures with one signature are one bug of the
// engine; two with different signatures are two bugs, even in one
// scenario.
//
// Where the trace departs in a value derived from the state (a
// permanent's characteristics or its derived flags), the kind of action
// is left out: a wrong value the engine works out from a state is wrong
// in whatever state it shows, the starting state as much as the state
// after a merge, so it is one bug however the state was reached.
type Signature struct {
	Class string
	// Action is the kind of action the problem shows after: ActionStart
	// for the starting state, "" where the problem names no place in the
	// trace (a trace with too few steps) or is in a derived value.
	Action model.ActionType
	Bug
}

// Unexplained is the class of the signature of a departure no check
// names: its aspect, detail and role say what it is.
const Unexplained = "unexplained"

// SignatureOf is the signature of a failure: the class of problem its
// check found, the problem's message, where the engine's trace first
// departs from the rules' (nil where it follows them) and the rules'
// trace. A check's class says what is wrong, so only a departure no
// check names (class Unexplained) keeps the parts that differ (which
// characteristics, which flags), which are otherwise the scenario's.
func SignatureOf(class, msg string, d *Problem, rules *model.Trace) Signature {
	s := Signature{Class: class}
	k, kind, placed := StepOf(msg)
	if d != nil {
		s.Bug = Bug{Aspect: d.Aspect, Detail: d.Detail, Role: d.Role}
		if class != Unexplained {
			s.Detail = ""
		}
		if !placed {
			k, kind, placed = StepOf(d.Msg)
		}
	}
	if placed && !Derived(s.Aspect) {
		s.Action = ActionKind(kind, rules, k)
	}
	return s
}

// Derived reports whether a departure's aspect is a value the engine
// works out from the state rather than what an action did.
func Derived(aspect string) bool {
	return aspect == "a permanent's "+derivedViews[0] || aspect == "a permanent's "+derivedViews[1]
}

// derivedViews are the permanent views (permanentViews) that hold values
// derived from the state.
var derivedViews = [2]string{"characteristics", "derived flags"}

// ActionStart is a Signature's action for a problem in the starting state.
const ActionStart model.ActionType = "start"

// Key is the signature as one string, for grouping and for naming a
// finding from one night to the next.
func (s Signature) Key() string {
	return s.Class + "|" + string(s.Action) + "|" + s.Bug.Key()
}

// Words is the signature in words: "triggers-creature-dies after move;
// the "creature_dies" triggers (extra), of a permanent of several
// objects".
func (s Signature) Words() string {
	if kind, ok := strings.CutPrefix(s.Class, "divergence-"); ok {
		return "the engine could not play a " + strings.ReplaceAll(kind, "-", "_") + " action the rules play"
	}
	w := s.Class
	switch s.Action {
	case "":
	case ActionStart:
		w += " at the start"
	default:
		w += " after " + string(s.Action)
	}
	if s.Aspect != "" {
		w += "; " + s.Bug.Words()
	}
	return w
}

// StepOf returns where a problem's message places it: state 0 for one
// "at the start", state i+1 for one "after action i (KIND)", with the
// action's kind; ok is false for a message that names no place in the
// trace. Every check's message begins with its place (at, after), so the
// place is read from the message, which is all a saved report keeps of
// it.
func StepOf(msg string) (state int, kind model.ActionType, ok bool) {
	if strings.HasPrefix(msg, "at the start") {
		return 0, ActionStart, true
	}
	rest, ok := strings.CutPrefix(msg, "after action ")
	if !ok {
		return 0, "", false
	}
	i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if i <= 0 || i > 6 || !strings.HasPrefix(rest[i:], " (") {
		return 0, "", false
	}
	name, _, ok := strings.Cut(rest[i+2:], ")")
	if !ok || name == "" || strings.ContainsAny(name, " ,") {
		return 0, "", false
	}
	n, err := strconv.Atoi(rest[:i])
	if err != nil {
		return 0, "", false
	}
	return n + 1, model.ActionType(name), true
}

// ActionKind is what the action leading to state k of the rules' trace
// does, as a signature names it: its type, except where the rules make
// two types one game action. Converting is transforming for the rules
// that say what transforming does (701.28a); casting a spell for its
// mutate cost is casting it for an alternative cost (702.140a); a
// mutating spell that resolves onto its target merges with it (702.140c)
// as the bare merge does (730.2). Kind is the action's type, ActionStart
// for state 0.
func ActionKind(kind model.ActionType, rules *model.Trace, k int) model.ActionType {
	switch kind {
	case model.Convert:
		return model.Transform
	case model.CastMutate:
		return model.Cast
	case model.Resolve:
		if rules != nil && k >= 1 && k <= len(rules.Steps) {
			for _, e := range rules.Steps[k-1].Events {
				if e.Kind == model.Merged {
					return model.Merge
				}
			}
		}
	}
	return kind
}
