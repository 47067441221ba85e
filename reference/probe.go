package reference

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// Needs lists the choices an action requires in a given state and does not
// yet script, so that a
// generator can script exactly those and build valid scenarios by
// construction rather than by filtering.
type Needs struct {
	// Position is set when the action merges an object (CR 702.140c, 730.2).
	Position bool
	// Order lists the cards that move together into one ordered zone or
	// enter together; a permutation of them must be scripted.
	Order []model.ObjectID
	// Replacements lists the permanents whose replacement effects apply
	// when there are several; one must be scripted.
	Replacements []model.ObjectID
	// CommandZone is set when a commander moves (CR 903.9).
	CommandZone bool
	// May is set for a "you may" instruction.
	May bool
}

// Probe plays s, then action a, with the choices a scripts and a default
// for each it lacks, and reports the lacking ones. One choice can change
// what another is about (a commander sent to the command zone leaves fewer
// cards to order), so a caller scripts what Probe reports and probes again
// until nothing is lacking. An error means s or a cannot be played (an
// error of the kind [Run] returns). Probe trusts s to be a valid scenario,
// as a generator builds it, and does not validate it again.
func Probe(s *model.Scenario, a model.Action) (Needs, error) {
	probe := *s
	probe.Actions = append(append(make([]model.Action, 0, len(s.Actions)+1), s.Actions...), a)
	probe.Expect = nil
	g, err := startGame(&probe)
	if err != nil {
		return Needs{}, &ActionError{Index: -1, Err: err}
	}
	g.probe = &Needs{}
	for i := range probe.Actions {
		g.action, g.events = i, nil
		act := probe.Actions[i]
		if err := g.do(&act); err != nil {
			return Needs{}, &ActionError{Index: i, Type: act.Type, Err: err}
		}
	}
	return *g.probe, nil
}

// choose records a need while probing and reports whether the game should
// take a default choice instead of checking the scripted one.
func (g *game) probing() bool { return g.probe != nil && g.action == len(g.s.Actions)-1 }

// IsZero reports whether nothing is lacking.
func (n Needs) IsZero() bool {
	return !n.Position && len(n.Order) == 0 && len(n.Replacements) == 0 && !n.CommandZone && !n.May
}

// Final plays a scenario the caller built valid and returns only what a
// generator needs to draw the next action: the final state, and the
// permanents that left the battlefield along the way. It skips the
// per-step states that make Run's trace, which is most of Run's cost.
func Final(s *model.Scenario) (model.State, []model.ObjectID, error) {
	g, err := startGame(s)
	if err != nil {
		return model.State{}, nil, &ActionError{Index: -1, Err: err}
	}
	var left []model.ObjectID
	for i := range s.Actions {
		a := s.Actions[i]
		g.action, g.events = i, nil
		if err := g.do(&a); err != nil {
			return model.State{}, nil, &ActionError{Index: i, Type: a.Type, Err: err}
		}
		for _, e := range g.events {
			if e.Kind == model.ZoneChange && e.From == model.Battlefield && !slices.Contains(left, e.Object) {
				left = append(left, e.Object)
			}
		}
	}
	st, err := g.snapshot()
	if err != nil {
		return model.State{}, nil, err
	}
	return st, left, nil
}
