package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// statusChanges reports whether some step of the rules' trace changes the
// status of a permanent that stays on the battlefield.
func statusChanges(rules *model.Trace) bool {
	return anyStep(rules, func(i int) bool {
		prev := stateAt(rules, i)
		return slices.ContainsFunc(rules.Steps[i].State.Battlefield, func(q model.Permanent) bool {
			p := prev.Permanent(q.ID)
			return p != nil && p.Status != q.Status
		})
	})
}

// P110_5: every permanent has a value in each of the four status categories.
var P110_5 = &Property{
	Rule: "110.5",
	Uncheckable: "the trace format gives every permanent one value in each of the four status categories, so no trace can lack one; " +
		"what the values must be is judged by the rules that change or keep them (110.5b, 110.5c, 110.5d, 702.26, 708, 710.4, 730.2e-g), " +
		"and a status that departs from the rules where none of them speaks fails the case it shows in",
}

// tokenCopies calls f for each step of the rules' trace that creates a
// token copy of a permanent, with the original as it was and the copy.
func tokenCopies(c *Case, f func(i int, orig, copy *model.Permanent) error) error {
	for i, a := range c.Scenario.Actions {
		if a.Type != model.TokenCopy {
			continue
		}
		orig := stateAt(c.Reference, i).Permanent(a.Object)
		cp := c.Reference.Steps[i].State.Permanent(model.EnteredID(a.Token, i))
		if orig == nil || cp == nil || !agreesAt(c, i, a.Object) {
			continue
		}
		if err := f(i, orig, cp); err != nil {
			return err
		}
	}
	return nil
}

// enteredWith fails when the engine's state after step i has permanent r
// of the rules' state, made the same, with another status than the
// rules'. A permanent the engine did not put there, or made otherwise, is
// not this rule's finding.
func enteredWith(c *Case, i int, r *model.Permanent, why string) error {
	e := c.Trace.Steps[i].State.Permanent(r.ID)
	if e == nil || !sameMakeup(e, r) {
		// Whether it entered, and made of what, is the business of the
		// rules that put it there (702.140b for a mutating spell whose
		// target is illegal, 707 for a copy, 730.2 for a merge), and of
		// the comparison with the rules' trace; this rule speaks of the
		// status it enters with.
		return nil
	}
	if e.Status != r.Status {
		return problemOf("entered-with-status", "%s, %s entered %s: %s, %s here", after(c, i), e.ID, statusWords(e.Status), why, statusWords(r.Status))
	}
	return nil
}

// P110_5a: status is not a characteristic, so a copy does not take it.
var P110_5a = &Property{
	Rule:  "110.5a",
	Needs: []model.Feature{model.FeatureCopy},
	Draws: genCopy,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = tokenCopies(c, func(i int, orig, cp *model.Permanent) error {
			out = append(out, label(orig.Status.Tapped || orig.Status.Flipped, "copy-of-tapped-or-flipped")...)
			return nil
		})
		return out
	},
	Cover: map[string]float64{"copy-of-tapped-or-flipped": 0.2},
	Check: func(c *Case) error {
		return tokenCopies(c, func(i int, orig, cp *model.Permanent) error {
			return enteredWith(c, i, cp, "status is not a characteristic and is not copied")
		})
	},
}

// P110_5b: permanents enter untapped, unflipped, face up and phased in.
var P110_5b = &Property{
	Rule:  "110.5b",
	Draws: genEnters,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyStep(rules, func(i int) bool { return len(enters(rules, i)) > 0 }), "enters")
	},
	Cover: map[string]float64{"enters": 0.3},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			for _, r := range enters(c.Reference, i) {
				if err := enteredWith(c, i, r, "a permanent enters untapped, unflipped, face up (unless put there face down) and phased in"); err != nil {
					return err
				}
			}
		}
		return nil
	},
}

// statusNames lists a status's categories with their values.
func statusCategories(st model.Status) []struct {
	name string
	on   bool
} {
	return []struct {
		name string
		on   bool
	}{{"tapped", st.Tapped}, {"flipped", st.Flipped}, {"face_down", st.FaceDown}, {"phased_out", st.PhasedOut}}
}

// P110_5c: a permanent keeps its status until something changes it.
var P110_5c = &Property{
	Rule:  "110.5c",
	Draws: genStatus,
	Classify: byStep(func(c *Case, i int) []string {
		var out []string
		a, prev := c.Scenario.Actions[i], stateAt(c.Reference, i)
		for _, q := range c.Reference.Steps[i].State.Battlefield {
			p := prev.Permanent(q.ID)
			if p != nil && p.Status != (model.Status{}) && (!sameMakeup(p, &q) || a.Type == model.BecomeCopy && a.Object == q.ID) {
				out = append(out, "status-kept-through-merge-or-copy")
			}
		}
		return out
	}),
	Cover: map[string]float64{"status-kept-through-merge-or-copy": 0.02},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			rPrev, rNext := stateAt(c.Reference, i), &c.Reference.Steps[i].State
			ePrev, eNext := stateAt(c.Trace, i), &c.Trace.Steps[i].State
			for _, rq := range rNext.Battlefield {
				rp := rPrev.Permanent(rq.ID)
				if rp == nil || !agreesAt(c, i, rq.ID) || !agreesAt(c, i+1, rq.ID) {
					continue
				}
				if aims(c.Scenario.Actions[i], rq.ID) {
					continue // the rule of that action judges it
				}
				ep, eq := ePrev.Permanent(rq.ID), eNext.Permanent(rq.ID)
				was, rule, is := statusCategories(ep.Status), statusCategories(rq.Status), statusCategories(eq.Status)
				// A merged permanent is face down as its topmost card is
				// (CR 730.2e): with other cards on top than the rules put
				// there, its face-down status follows from where the
				// cards went, which other rules judge (702.140c, 730.2).
				madeOtherwise := pieces(c.Scenario, ep) != pieces(c.Scenario, rp) || pieces(c.Scenario, eq) != pieces(c.Scenario, &rq)
				// Phasing by an ability or with what it is attached to
				// follows from the permanent's characteristics and
				// attachment: with others than the rules', another
				// rule's finding.
				phasedOtherwise := !likeRulesAt(c, i, rq.ID) || !likeRulesAt(c, i, rp.AttachedTo)
				before := statusCategories(rp.Status)
				if ep.Status.PhasedOut != rp.Status.PhasedOut && actionIs(c, i, model.NextTurn) {
					// The engine's permanent was already phased otherwise
					// than the rules' (an earlier step's finding), and
					// whether the untap step untaps it follows from that
					// (CR 502.1, 502.3).
					continue
				}
				for k := range was {
					if was[k].on != before[k].on {
						// The engine's permanent was already otherwise
						// than the rules': that departure is an earlier
						// step's finding, and what this step would do to
						// the rules' status says nothing of the engine's.
						continue
					}
					if was[k].name == "phased_out" && phasedOtherwise {
						continue
					}
					if was[k].name == "tapped" && was[k].on && actionIs(c, i, model.NextTurn) {
						// What the untap step untaps, and what it leaves
						// tapped, is 502.3's to judge.
						continue
					}
					kept := before[k].on == rule[k].on
					if was[k].name == "face_down" && (madeOtherwise || len(eq.Components) > 1 && eq.Status.FaceDown != eq.Components[0].FaceDown) {
						// Or face down otherwise than its own topmost
						// component: 730.2e's finding.
						continue
					}
					if kept && was[k].on != is[k].on {
						return problemOf("status-changed-unprompted", "%s, %s's %s status went from %t to %t: the rules change nothing there, and a permanent keeps its status until something changes it", after(c, i), eq.ID, was[k].name, was[k].on, is[k].on)
					}
				}
			}
		}
		return nil
	},
}

// aims reports whether action a is one that sets or tries to set the
// status of permanent id (tap, untap, flip, turn face down or up, phase,
// declare it an attacker, which taps it: CR 508.1f, 702.20b):
// what it does to that status is the rule of that action's to judge.
func aims(a model.Action, id model.ObjectID) bool {
	switch a.Type {
	case model.Tap, model.Untap, model.Flip, model.TurnFaceDown, model.TurnFaceUp, model.PhaseOut, model.PhaseIn, model.Attack:
		return a.Object == id
	}
	return false
}

// returns calls f for each permanent a step of the rules' trace returns
// to the battlefield from cards of a permanent that left it with a status
// other than the one permanents enter with.
func returns(c *Case, sel func(gone *model.Permanent) bool, f func(i int, gone, r *model.Permanent) error) error {
	for i, a := range c.Scenario.Actions {
		if a.Type != model.Return {
			continue
		}
		gone := departed(c.Reference, i, a.Object)
		if gone == nil || !sel(gone) {
			continue
		}
		for _, r := range enters(c.Reference, i) {
			if !slices.ContainsFunc(r.Components, func(comp model.Component) bool { return slices.Contains(ids(gone), comp.Object) }) {
				continue
			}
			if !sameWhereabouts(stateAt(c.Trace, i), stateAt(c.Reference, i), ids(r)) {
				continue
			}
			if err := f(i, gone, r); err != nil {
				return err
			}
		}
	}
	return nil
}

func hadStatus(p *model.Permanent) bool {
	return p.Status.Tapped || p.Status.Flipped || p.Status.FaceDown
}

// P110_5d: only permanents have status: a card that left the battlefield
// has none, and comes back with the status a permanent enters with.
var P110_5d = &Property{
	Rule:  "110.5d",
	Needs: []model.Feature{model.FeatureLinked},
	Draws: genReturn,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		n := 0
		_ = returns(c, hadStatus, func(int, *model.Permanent, *model.Permanent) error { n++; return nil })
		return label(n > 0, "returns-after-status")
	},
	Cover: map[string]float64{"returns-after-status": 0.1},
	Check: func(c *Case) error {
		return returns(c, hadStatus, func(i int, gone, r *model.Permanent) error {
			if c.Trace.Steps[i].State.Permanent(r.ID) == nil {
				return nil // not returned at all: the comparison with the rules' trace reports it (730.3c, 712.21c where a merged or melded permanent left)
			}
			return enteredWith(c, i, r, fmt.Sprintf("a card off the battlefield has no status, so what was %s (%s) returns as a new permanent", gone.ID, statusWords(gone.Status)))
		})
	},
}
