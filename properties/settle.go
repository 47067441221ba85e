package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// Settle returns the rules' trace want with what the rules leave open
// taken from the engine's trace got: where a permanent of want is marked
// unsettled (model.Derived.Unsettled), the engine's permanent of the same
// id at the same step lends its abilities, so that no check or departure
// judges them. want itself is not changed; it is returned as it is when
// nothing in it is unsettled, the common case.
func Settle(want, got *model.Trace) *model.Trace {
	if want == nil || got == nil || !anyUnsettled(want) {
		return want
	}
	w := *want
	w.Start = settleState(want.Start, &got.Start)
	w.Steps = slices.Clone(want.Steps)
	for k := range w.Steps {
		var from *model.State
		if k < len(got.Steps) {
			from = &got.Steps[k].State
		}
		w.Steps[k].State = settleState(w.Steps[k].State, from)
	}
	return &w
}

func anyUnsettled(t *model.Trace) bool {
	if unsettledIn(&t.Start) {
		return true
	}
	for k := range t.Steps {
		if unsettledIn(&t.Steps[k].State) {
			return true
		}
	}
	return false
}

func unsettledIn(st *model.State) bool {
	return slices.ContainsFunc(st.Battlefield, func(p model.Permanent) bool { return p.Derived != nil && len(p.Derived.Unsettled) > 0 })
}

// settleState returns st, or a copy of it whose unsettled abilities are
// those of the same permanent in from.
func settleState(st model.State, from *model.State) model.State {
	if !unsettledIn(&st) {
		return st
	}
	st = st.Clone()
	for i := range st.Battlefield {
		p := &st.Battlefield[i]
		if p.Derived == nil || !slices.Contains(p.Derived.Unsettled, model.UnsettledAbilities) || from == nil {
			continue
		}
		if e := from.Permanent(p.ID); e != nil && e.Derived != nil {
			p.Derived.Characteristics.Abilities = slices.Clone(e.Derived.Characteristics.Abilities)
		}
	}
	return st
}
