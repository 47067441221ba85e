package reference

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// Plain rewrites a trace of this engine the way an engine that knows
// nothing of mergecheck's bookkeeping would write it: no rule cited on any
// event, no replacement effect named on any move ("by"), timestamps
// numbered its own way (same order, other numbers), and colours, types,
// subtypes, supertypes and abilities in another order. The game is the
// same, so it must hold every rule the reference holds
// (docs/PROTOCOL.md lists these fields as optional or compared as sets).
// It edits t in place and returns it.
func Plain(t *model.Trace) *model.Trace {
	if t == nil {
		return nil
	}
	plainState(&t.Start)
	for i := range t.Steps {
		st := &t.Steps[i]
		for j := range st.Events {
			ev := &st.Events[j]
			ev.Rule = ""
			for k := range ev.Moves {
				ev.Moves[k].By = ""
			}
		}
		plainState(&st.State)
	}
	return t
}

func plainState(s *model.State) {
	for i := range s.Battlefield {
		p := &s.Battlefield[i]
		p.Timestamp = 1000 + 7*p.Timestamp
		for k := range p.Effects {
			p.Effects[k].Timestamp = 1000 + 7*p.Effects[k].Timestamp
		}
		if p.Derived == nil {
			continue
		}
		ch := &p.Derived.Characteristics
		slices.Reverse(ch.Colors)
		slices.Reverse(ch.Types)
		slices.Reverse(ch.Subtypes)
		slices.Reverse(ch.Supertypes)
		slices.Reverse(ch.Abilities)
	}
}
