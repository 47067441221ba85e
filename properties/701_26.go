package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genTap taps and untaps permanents, merged or not, drawn tapped or
// untapped, after a few actions that may have changed them: the tuning
// of 701.26a and 701.26b, kept with them.
var genTap = generators.NewShape(generators.Options{
	MaxPermanents: 2, MaxComponents: 3, Status: true, Prefix: 2,
	Focus:     []model.ActionType{model.Tap, model.Untap},
	FocusThen: []model.ActionType{model.Tap, model.Untap},
})

// P701_26a: only an untapped permanent can be tapped; tapping a tapped
// one does nothing.
var P701_26a = &Property{
	Rule:     "701.26a",
	Draws:    genTap,
	Classify: byStep(func(c *Case, i int) []string { return tapLabels(c, i, model.Tap) }),
	Cover:    map[string]float64{"taps": 0.35, "already": 0.24, "merged": 0.35},
	Check: func(c *Case) error {
		return tapped(c, model.Tap, "tapping turns an untapped permanent sideways, and a tapped one can't be tapped: it stays tapped")
	},
}

// P701_26b: only a tapped permanent can be untapped; untapping an
// untapped one does nothing.
var P701_26b = &Property{
	Rule:     "701.26b",
	Draws:    genTap,
	Classify: byStep(func(c *Case, i int) []string { return tapLabels(c, i, model.Untap) }),
	Cover:    map[string]float64{"untaps": 0.3, "already": 0.24, "merged": 0.35},
	Check: func(c *Case) error {
		return tapped(c, model.Untap, "untapping turns a tapped permanent upright, and an untapped one can't be untapped: it stays untapped")
	},
}

// tapLabels labels step i when its action is kind (tap or untap): whether
// it turns its permanent ("taps", "untaps") or finds it in that position
// already, and whether the permanent is merged.
func tapLabels(c *Case, i int, kind model.ActionType) []string {
	a := c.Scenario.Actions[i]
	p := stateAt(c.Reference, i).Permanent(a.Object)
	if a.Type != kind || p == nil {
		return nil
	}
	out := []string{"already"}
	if p.Status.Tapped != (kind == model.Tap) {
		out[0] = map[model.ActionType]string{model.Tap: "taps", model.Untap: "untaps"}[kind]
	}
	return append(out, label(len(p.Components) > 1, "merged")...)
}

// tapped fails a step whose action is kind (tap or untap) when the
// engine's permanent, made as the rules' was before it, is not tapped
// (untapped) after it, or when the engine reports turning a permanent
// that both it and the rules had in that position already (one the engine
// had in the other position departed at an earlier step, whose finding
// that is).
func tapped(c *Case, kind model.ActionType, why string) error {
	want := kind == model.Tap
	for i, a := range c.Scenario.Actions {
		if a.Type != kind || i >= len(c.Trace.Steps) {
			continue
		}
		r := stateAt(c.Reference, i).Permanent(a.Object)
		if r == nil || c.Reference.Steps[i].State.Permanent(a.Object) == nil || !agreesAt(c, i, a.Object) {
			continue // where the permanent is, and what it is made of, other rules judge
		}
		e := c.Trace.Steps[i].State.Permanent(a.Object)
		switch {
		case e == nil:
			return problemOf("turned-permanent-gone", "%s, %s is not on the battlefield: %s", after(c, i), a.Object, why)
		case e.Status.Tapped != want:
			return problemOf("turned-wrong-way", "%s, %s is %s: %s", after(c, i), a.Object, flagWords(e.Status.Tapped, "tapped"), why)
		case r.Status.Tapped == want && stateAt(c.Trace, i).Permanent(a.Object).Status.Tapped == want && reportsTurn(c.Trace.Steps[i], a.Object, want):
			return problemOf("turned-though-already", "%s, the engine reports that %s became %s, but it was %s already: %s",
				after(c, i), a.Object, flagWords(want, "tapped"), flagWords(want, "tapped"), why)
		}
	}
	return nil
}

// reportsTurn reports whether a step reports a status change of id to
// tapped (or untapped).
func reportsTurn(st model.Step, id model.ObjectID, tapped bool) bool {
	return slices.ContainsFunc(st.Events, func(e model.Event) bool {
		return e.Kind == model.StatusChange && e.Object == id && e.Status != nil && e.Status.Tapped == tapped
	})
}
