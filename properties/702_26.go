package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// phasings calls f for each permanent whose phased-in or phased-out status
// a step of the rules' trace changes, as it was before and after, when
// the engine had it made as the rules did.
func phasings(c *Case, f func(i int, p, q *model.Permanent) error) error {
	for i := range c.Reference.Steps {
		prev := stateAt(c.Reference, i)
		for k := range c.Reference.Steps[i].State.Battlefield {
			q := &c.Reference.Steps[i].State.Battlefield[k]
			p := prev.Permanent(q.ID)
			if p == nil || p.Status.PhasedOut == q.Status.PhasedOut || !agreesAt(c, i, q.ID) {
				continue
			}
			if !likeRulesAt(c, i, q.ID) || !likeRulesAt(c, i, p.AttachedTo) {
				// Phasing with what it is attached to, and that
				// permanent's own phasing, follow from how the engine
				// made them: another rule's finding when it made them
				// otherwise.
				continue
			}
			if err := f(i, p, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// phasedWithHost reports whether p, as it was before the rules' step i,
// is attached to a permanent that phases in or out in that step.
func phasedWithHost(c *Case, i int, p *model.Permanent) bool {
	before, after := stateAt(c.Reference, i).Permanent(p.AttachedTo), c.Reference.Steps[i].State.Permanent(p.AttachedTo)
	return p.AttachedTo != "" && before != nil && after != nil && before.Status.PhasedOut != after.Status.PhasedOut
}

// phased fails unless the engine's permanent is, after step i, made as
// the rules' q and phased as q is.
func phased(c *Case, i int, q *model.Permanent) (*model.Permanent, error) {
	way := map[bool]string{true: "out", false: "in"}[q.Status.PhasedOut]
	e, err := madeAs(c, i, q.ID, "phasing "+way+" is not a zone change, and the permanent stays on the battlefield")
	if err != nil {
		return nil, err
	}
	if e.Status.PhasedOut != q.Status.PhasedOut {
		return nil, problemOf("phased-otherwise", "%s, %s reports it %s: the rules phase it %s", after(c, i), e.ID, flagWords(e.Status.PhasedOut, "phased out"), way)
	}
	return e, nil
}

// sparedPhasedOut returns the phased-out permanents that the rules' step
// i, destroying every creature, leaves where they are (CR 702.26b).
func sparedPhasedOut(c *Case, i int) []model.ObjectID {
	if !actionIs(c, i, model.DestroyAll) {
		return nil
	}
	var out []model.ObjectID
	for _, p := range stateAt(c.Reference, i).Battlefield {
		if p.Status.PhasedOut && c.Reference.Steps[i].State.Permanent(p.ID) != nil {
			out = append(out, p.ID)
		}
	}
	return out
}

// P702_26b: a phased-out permanent is treated as though it does not exist.
var P702_26b = &Property{
	Rule:  "702.26b",
	Needs: []model.Feature{model.FeaturePhasing},
	Draws: genPhasedOut,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		out := label(anyStep(rules, func(i int) bool {
			_, target := mutatingResolve(c, i)
			p := stateAt(rules, i).Permanent(target)
			return p != nil && p.Status.PhasedOut
		}), "target-phased-out")
		return append(out, label(anyStep(rules, func(i int) bool { return len(sparedPhasedOut(c, i)) > 0 }), "destroy-spares-phased-out")...)
	},
	Cover: map[string]float64{"target-phased-out": 0.05, "destroy-spares-phased-out": 0.1},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			for _, id := range sparedPhasedOut(c, i) {
				if !agreesAt(c, i, id) {
					continue
				}
				if e := c.Trace.Steps[i].State.Permanent(id); e == nil || !sameMakeup(e, c.Reference.Steps[i].State.Permanent(id)) {
					return problemOf("phased-out-destroyed", "%s, phased-out %s is gone or changed: a phased-out permanent is treated as though it does not exist, so destroying every creature spares it", after(c, i), id)
				}
			}
		}
		err := phasings(c, func(i int, p, q *model.Permanent) error {
			if phasedWithHost(c, i, p) {
				return nil // indirectly, with what it is attached to: 702.26g's
			}
			if e := c.Trace.Steps[i].State.Permanent(q.ID); q.Status.PhasedOut && e != nil && !e.Status.PhasedOut {
				return problemOf("not-phased-out", "%s, %s reports it not phased out: the rules phase it out", after(c, i), e.ID)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return illegalResolves(c, func(i int, card, target model.ObjectID) error {
			if p := stateAt(c.Reference, i).Permanent(target); p == nil || !p.Status.PhasedOut {
				return nil
			}
			return enteredAlone(c, i, card, target, "its target is phased out and treated as though it does not exist, so the target is illegal")
		})
	},
}

// P702_26c: a permanent that phases in exists again.
var P702_26c = &Property{
	Rule:  "702.26c",
	Needs: []model.Feature{model.FeaturePhasing},
	Draws: genPhase,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = phasings(c, func(i int, p, q *model.Permanent) error {
			if !q.Status.PhasedOut {
				out = append(out, map[bool]string{true: "phase-in-at-untap-step", false: "phase-in-by-action"}[actionIs(c, i, model.NextTurn)])
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"phase-in-by-action": 0.2, "phase-in-at-untap-step": 0.1},
	Check: func(c *Case) error {
		return phasings(c, func(i int, p, q *model.Permanent) error {
			if q.Status.PhasedOut {
				return nil
			}
			_, err := phased(c, i, q)
			return err
		})
	},
}

// P702_26d: phasing is not a zone change.
var P702_26d = &Property{
	Rule:  "702.26d",
	Needs: []model.Feature{model.FeaturePhasing},
	Draws: genPhase,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = phasings(c, func(i int, p, q *model.Permanent) error {
			if q.Status.PhasedOut {
				out = append(out, label(slices.ContainsFunc(p.Components, func(comp model.Component) bool { return isToken(s, comp.Object) }), "phases-out-with-token")...)
				out = append(out, label(len(p.Counters) > 0, "phases-out-with-counters")...)
			}
			out = append(out, label(actionIs(c, i, model.NextTurn), "untap-step")...)
			return nil
		})
		return out
	},
	Cover: map[string]float64{"phases-out-with-token": 0.05, "phases-out-with-counters": 0.1, "untap-step": 0.1},
	Check: func(c *Case) error {
		return phasings(c, func(i int, p, q *model.Permanent) error {
			e, err := madeAs(c, i, q.ID, "phasing is not a zone change, and the permanent stays on the battlefield")
			if err != nil {
				return err
			}
			if e.Status.PhasedOut != q.Status.PhasedOut {
				return nil // it did not phase: 702.26b's or 702.26c's to judge
			}
			before := stateAt(c.Trace, i).Permanent(q.ID)
			if !slices.Equal(ids(before), ids(e)) || countersView(before.Counters) != countersView(e.Counters) {
				return problemOf("phasing-lost-components-or-counters", "%s, %s has components %s and counters %s, had %s and %s: tokens and counters stay on a permanent that phases", after(c, i), e.ID, listWords(ids(e)), countersWords(e.Counters), listWords(ids(before)), countersWords(before.Counters))
			}
			if !c.Partial {
				for _, ev := range events(c.Trace.Steps[i], model.ZoneChange) {
					if ev.Object == q.ID || slices.Contains(ids(q), ev.Object) {
						return problemOf("phasing-changed-zones", "%s, %s changed zones as it phased: phasing is not a zone change", after(c, i), ev.Object)
					}
				}
			}
			return nil
		})
	},
}

// P702_26g: Auras and Equipment attached to a permanent phase out with it,
// indirectly, and phase in with it.
var P702_26g = &Property{
	Rule:  "702.26g",
	Needs: []model.Feature{model.FeaturePhaseAttached},
	Draws: genPhaseAttached,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = phasings(c, func(i int, p, q *model.Permanent) error {
			if p.AttachedTo != "" {
				out = append(out, map[bool]string{true: "attached-phases-out", false: "attached-phases-in"}[q.Status.PhasedOut])
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"attached-phases-out": 0.3, "attached-phases-in": 0.1},
	Check: func(c *Case) error {
		return phasings(c, func(i int, p, q *model.Permanent) error {
			if p.AttachedTo == "" || stateAt(c.Trace, i).Permanent(p.ID).AttachedTo != p.AttachedTo {
				return nil // attached elsewhere already: another rule's finding
			}
			e, err := phased(c, i, q)
			if err != nil {
				return err
			}
			if e.AttachedTo != q.AttachedTo {
				return problemOf("left-attached-when-phasing", "%s, %s is attached to %q: an Aura or Equipment phasing with the permanent it is attached to stays attached to %q", after(c, i), e.ID, e.AttachedTo, q.AttachedTo)
			}
			return nil
		})
	},
}

// P702_26h: an object that would phase out directly and indirectly at
// once phases out indirectly.
var P702_26h = &Property{
	Rule: "702.26h",
	Uncheckable: "no Aura, Equipment or Fortification of the catalogue has phasing, and no action gives it phasing, " +
		"so none can phase out directly and indirectly at once; an attached permanent phases out with what it is attached to (702.26g)",
}
