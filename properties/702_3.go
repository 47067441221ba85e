package properties

import (
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// Restrictions on attacking (CR 508.1c): defender (702.3b) and an Aura's
// "can't attack". Each is judged where it alone decides the declaration:
// the rules would declare the attacker but for it (508.1a, 302.6). Where
// the attacker is forbidden anyway, 508.1a and 302.6 judge it.

// restriction tells what forbids creature id to attack in state st, of
// the two restrictions the suite knows.
type restriction struct {
	defender  bool // it has defender (702.3b)
	enchanted bool // an Aura attached to it says it can't attack (508.1c)
}

func (r restriction) any() bool { return r.defender || r.enchanted }

// restrictionsOn reads the restrictions on creature id in state st: its
// own abilities, and those of the phased-in permanents attached to it
// (a phased-out one does not exist, 702.26b).
func restrictionsOn(st *model.State, id model.ObjectID) restriction {
	var r restriction
	p := st.Permanent(id)
	if p == nil || p.Derived == nil {
		return r
	}
	r.defender = slices.Contains(p.Derived.Characteristics.Abilities, model.Defender)
	for i := range st.Battlefield {
		q := &st.Battlefield[i]
		if q.AttachedTo == id && !q.Status.PhasedOut && q.Derived != nil &&
			slices.Contains(q.Derived.Characteristics.Abilities, model.EnchantedCantAttackOrBlock) {
			r.enchanted = true
		}
	}
	return r
}

// allowedButForRestrictions reports whether the rules would let creature
// id attack in state st but for restrictions: it is a phased-in, untapped
// creature of the active player's, with haste or under their control
// since the turn began (CR 508.1a, 302.6, 702.26b).
func allowedButForRestrictions(st *model.State, id model.ObjectID) bool {
	p := st.Permanent(id)
	if p == nil || p.Derived == nil || p.Status.PhasedOut || p.Status.Tapped || p.Controller != st.Active {
		return false
	}
	ch := p.Derived.Characteristics
	return slices.Contains(ch.Types, "creature") && (p.ControlledSinceTurnStart || slices.Contains(ch.Abilities, model.Haste))
}

// restrictionDecides returns the restrictions on the attacker of the
// rules' step i, when they alone decide whether it may attack.
func restrictionDecides(c *Case, i int, id model.ObjectID) (restriction, bool) {
	st := stateAt(c.Reference, i)
	r := restrictionsOn(st, id)
	return r, r.any() && allowedButForRestrictions(st, id)
}

// attachedAlike reports whether the engine had, before step i, the
// permanents attached to id that the rules had: the same ones, phased in
// or out alike and with the same abilities.
func attachedAlike(c *Case, i int, id model.ObjectID) bool {
	r, e := stateAt(c.Reference, i), stateAt(c.Trace, i)
	view := func(st *model.State) map[model.ObjectID]string {
		out := map[model.ObjectID]string{}
		for j := range st.Battlefield {
			q := &st.Battlefield[j]
			if q.AttachedTo != id {
				continue
			}
			v := "phased in"
			if q.Status.PhasedOut {
				v = "phased out"
			}
			if q.Derived != nil {
				v += abilitySet(q.Derived.Characteristics.Abilities)
			}
			out[q.ID] = v
		}
		return out
	}
	rv, ev := view(r), view(e)
	if len(rv) != len(ev) {
		return false
	}
	for k, v := range rv {
		if ev[k] != v {
			return false
		}
	}
	return true
}

// restrictedAttacks judges each attack whose attacker the engine had as
// the rules had it and that one restriction alone forbids: want picks
// which.
func restrictedAttacks(c *Case, want func(restriction) bool, why string) error {
	return attacks(c, func(i int, id model.ObjectID) error {
		r, decides := restrictionDecides(c, i, id)
		if !decides || !want(r) || !attachedAlike(c, i, id) {
			return nil
		}
		return sameDeclaration(c, i, id, why)
	})
}

// restrictionLabels labels the attacks one restriction alone forbids.
func restrictionLabels(s *model.Scenario, rules *model.Trace) []string {
	c := &Case{Scenario: s, Reference: rules, Trace: rules}
	var out []string
	_ = attacks(c, func(i int, id model.ObjectID) error {
		r, decides := restrictionDecides(c, i, id)
		switch {
		case !decides || r.defender && r.enchanted:
		case r.defender:
			out = append(out, "defender")
			p := stateAt(rules, i).Permanent(id)
			if top, ok := faceAbilities(s, p.Components[0], p.Status.Flipped); len(p.Components) > 1 && (p.Components[0].FaceDown || ok && !slices.Contains(top, model.Defender)) {
				out = append(out, "defender-below")
			}
		default:
			out = append(out, "enchanted")
			if len(stateAt(rules, i).Permanent(id).Components) > 1 {
				out = append(out, "merged-enchanted")
			}
		}
		return nil
	})
	return out
}

// restrictionLabelsOf gives the labels of restrictionLabels that name
// kind: one restriction's, for its own rule.
func restrictionLabelsOf(kind string) func(s *model.Scenario, rules *model.Trace) []string {
	return func(s *model.Scenario, rules *model.Trace) []string {
		return slices.DeleteFunc(restrictionLabels(s, rules), func(l string) bool { return !strings.Contains(l, kind) })
	}
}

// P702_3b: a creature with defender can't attack; a mutated creature has
// it from any of its components (CR 702.140e).
var P702_3b = &Property{
	Rule:     "702.3b",
	Needs:    []model.Feature{model.FeatureCombat, model.FeatureAttackRestrictions},
	Draws:    genAttackRestricted,
	Classify: restrictionLabelsOf("defender"),
	Cover:    map[string]float64{"defender": 0.06, "defender-below": 0.01},
	Check: func(c *Case) error {
		return restrictedAttacks(c, func(r restriction) bool { return r.defender && !r.enchanted },
			"a creature with defender, from any of its components, can't attack")
	},
}

// P508_1c: a creature an Aura says can't attack is not declared an
// attacker; a merged creature is the object the Aura enchanted (CR
// 730.2c).
var P508_1c = &Property{
	Rule:     "508.1c",
	Needs:    []model.Feature{model.FeatureCombat, model.FeatureAttackRestrictions},
	Draws:    genAttackRestricted,
	Classify: restrictionLabelsOf("enchanted"),
	Cover:    map[string]float64{"enchanted": 0.04, "merged-enchanted": 0.02},
	Check: func(c *Case) error {
		return restrictedAttacks(c, func(r restriction) bool { return r.enchanted && !r.defender },
			"a creature enchanted by an Aura that says it can't attack is not declared an attacker")
	},
}
