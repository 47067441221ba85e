package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// Declaring attackers (CR 508.1): who may attack, and what attacking does
// to the attacker's status. The scenario format ends with the declaration,
// so each case has at most one, its last action. 302.6 and 702.20b use
// these helpers too.

// attack returns the creature the rules' step i declares an attacker, or
// "" when step i is no attack or the rules forbid it.
func attack(c *Case, i int) model.ObjectID {
	if !actionIs(c, i, model.Attack) {
		return ""
	}
	for _, e := range c.Reference.Steps[i].Events {
		if e.Kind == model.Attacks {
			return e.Object
		}
	}
	return ""
}

// attacked reports whether the step declares creature id an attacker.
func attacked(st model.Step, id model.ObjectID) bool {
	return slices.ContainsFunc(st.Events, func(e model.Event) bool { return e.Kind == model.Attacks && e.Object == id })
}

// attacks judges every attack of a case whose attacker the engine had, just
// before it, as the rules had it: made, attached and characterized alike,
// with the same controller, tapped status and time under its control, in
// the same player's turn. The rest is the finding of the rule that made it
// differ. f is given the step and the attacker.
func attacks(c *Case, f func(i int, id model.ObjectID) error) error {
	for i := range c.Reference.Steps {
		if !actionIs(c, i, model.Attack) {
			continue
		}
		id := c.Scenario.Actions[i].Object
		if !likeRulesAt(c, i, id) || !sameForAttack(stateAt(c.Trace, i), stateAt(c.Reference, i), id) {
			continue
		}
		if err := f(i, id); err != nil {
			return err
		}
	}
	return nil
}

// sameForAttack reports whether two states agree on what decides whether
// creature id may attack (CR 508.1a, 302.6).
func sameForAttack(e, r *model.State, id model.ObjectID) bool {
	ep, rp := e.Permanent(id), r.Permanent(id)
	if ep == nil || rp == nil {
		return ep == rp
	}
	return e.Active == r.Active && ep.Controller == rp.Controller && ep.Status == rp.Status &&
		ep.ControlledSinceTurnStart == rp.ControlledSinceTurnStart
}

// sameDeclaration fails when the engine declares the attacker where the
// rules forbid it, or forbids it where the rules declare it.
func sameDeclaration(c *Case, i int, id model.ObjectID, why string) error {
	rules, engine := attacked(c.Reference.Steps[i], id), attacked(c.Trace.Steps[i], id)
	switch {
	case engine && !rules:
		return problemOf("attacks-though-forbidden", "%s, %s attacks, but the rules forbid the declaration: %s", after(c, i), id, why)
	case rules && !engine:
		return problemOf("attack-not-declared", "%s, %s does not attack, but the rules allow the declaration: %s", after(c, i), id, why)
	}
	return nil
}

// attackLabels tells attacks apart by what decides them.
func attackLabels(s *model.Scenario, rules *model.Trace) []string {
	c := &Case{Scenario: s, Reference: rules, Trace: rules}
	var out []string
	_ = attacks(c, func(i int, id model.ObjectID) error {
		p := stateAt(rules, i).Permanent(id)
		_, restricted := restrictionDecides(c, i, id)
		switch {
		case restricted:
			out = append(out, "restricted")
		case attack(c, i) != "":
			out = append(out, "declared")
		case p != nil && !p.ControlledSinceTurnStart:
			out = append(out, "new-under-control")
		default:
			out = append(out, "forbidden")
		}
		if p != nil && len(p.Components) > 1 {
			out = append(out, "merged-attacker")
		}
		return nil
	})
	return out
}

// P508_1a: only an untapped creature of the active player's may be
// declared an attacker, and only if it has haste or has been under that
// player's control since the turn began.
var P508_1a = &Property{
	Rule:     "508.1a",
	Needs:    []model.Feature{model.FeatureCombat},
	Draws:    genAttack,
	Classify: attackLabels,
	Cover:    map[string]float64{"declared": 0.15, "forbidden": 0.1, "merged-attacker": 0.1},
	Check: func(c *Case) error {
		return attacks(c, func(i int, id model.ObjectID) error {
			if _, decides := restrictionDecides(c, i, id); decides {
				return nil // 702.3b's or 508.1c's
			}
			return sameDeclaration(c, i, id, "the active player's untapped creatures attack, each with haste or controlled since the turn began")
		})
	},
}

// tapsOnAttack judges the attacker's tapped status after an attack the
// rules declare, for attackers with vigilance (vigilant) or without.
func tapsOnAttack(c *Case, vigilant bool, why string) error {
	return attacks(c, func(i int, id model.ObjectID) error {
		r := c.Reference.Steps[i].State.Permanent(id)
		if attack(c, i) == "" || r == nil || r.Derived == nil || slices.Contains(r.Derived.Characteristics.Abilities, model.Vigilance) != vigilant {
			return nil
		}
		if !attacked(c.Trace.Steps[i], id) {
			return nil // the declaration is 508.1a's finding
		}
		e := c.Trace.Steps[i].State.Permanent(id)
		if e == nil {
			return problemOf("attacker-gone", "%s, the attacker %s is not on the battlefield: %s", after(c, i), id, why)
		}
		if e.Status.Tapped != r.Status.Tapped {
			return problemOf("attacker-tapped-status", "%s, the attacker %s is %s: %s", after(c, i), id, flagWords(e.Status.Tapped, "tapped"), why)
		}
		return nil
	})
}

// vigilantAttack reports whether the rules declare an attacker with
// vigilance.
func vigilantAttack(s *model.Scenario, rules *model.Trace) bool {
	c := &Case{Scenario: s, Reference: rules, Trace: rules}
	for i := range rules.Steps {
		id := attack(c, i)
		if p := rules.Steps[i].State.Permanent(id); id != "" && p != nil && p.Derived != nil && slices.Contains(p.Derived.Characteristics.Abilities, model.Vigilance) {
			return true
		}
	}
	return false
}

// P508_1f: declaring a creature an attacker taps it.
var P508_1f = &Property{
	Rule:  "508.1f",
	Needs: []model.Feature{model.FeatureCombat},
	Draws: genAttack,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(slices.Contains(attackLabels(s, rules), "declared") && !vigilantAttack(s, rules), "attacker-taps")
	},
	Cover: map[string]float64{"attacker-taps": 0.15},
	Check: func(c *Case) error {
		return tapsOnAttack(c, false, "attacking taps a creature without vigilance")
	},
}
