package reference

import (
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
// for each it lacks, and reports the lacking ones and the state after s.
// One choice can change what another is about (a commander sent to the
// command zone leaves fewer cards to order), so a caller scripts what Probe
// reports and probes again until nothing is lacking. An error means s or a
// cannot be played at all (the error of [Run]).
func Probe(s *model.Scenario, a model.Action) (Needs, model.State, error) {
	tr, err := Run(s)
	if err != nil {
		return Needs{}, model.State{}, err
	}
	st := tr.Start
	if n := len(tr.Steps); n > 0 {
		st = tr.Steps[n-1].State
	}
	probe := *s
	probe.Actions = append(append([]model.Action(nil), s.Actions...), a)
	probe.Expect = nil
	g, err := newGame(&probe)
	if err != nil {
		return Needs{}, st, err
	}
	g.probe = &Needs{}
	for i := range probe.Actions {
		g.action, g.events = i, nil
		if err := g.do(&probe.Actions[i]); err != nil {
			return Needs{}, st, &ActionError{Index: i, Type: probe.Actions[i].Type, Err: err}
		}
	}
	return *g.probe, st, nil
}

// choose records a need while probing and reports whether the game should
// take a default choice instead of checking the scripted one.
func (g *game) probing() bool { return g.probe != nil && g.action == len(g.s.Actions)-1 }

// IsZero reports whether nothing is lacking.
func (n Needs) IsZero() bool {
	return !n.Position && len(n.Order) == 0 && len(n.Replacements) == 0 && !n.CommandZone && !n.May
}
