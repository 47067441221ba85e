package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genHexproof casts mutating spells at a creature their caster owns,
// which either player controls, with a hexproof counter or not. The
// tuning of 702.11b, kept with it.
var genHexproof = generators.NewShape(generators.Options{
	MaxPermanents: 1, MaxComponents: 2, Hand: true, Hexproof: true,
	Kinds: []generators.Kind{generators.Card, generators.Token},
	Focus: []model.ActionType{model.CastMutate},
})

// P702_11b: a permanent with hexproof can't be the target of spells its
// controller's opponents control; its controller's own spells may target
// it.
var P702_11b = &Property{
	Rule:  "702.11b",
	Needs: []model.Feature{model.FeatureMutate, model.FeatureHexproof},
	Draws: genHexproof,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = hexproofCasts(c, func(i int, card, target model.ObjectID, theirs bool) error {
			l := map[bool]string{true: "an-opponents", false: "its-controllers"}[theirs]
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"an-opponents": 0.03, "its-controllers": 0.03},
	Check: func(c *Case) error {
		return hexproofCasts(c, func(i int, card, target model.ObjectID, theirs bool) error {
			engine := forbidden(c.Trace.Steps[i])
			switch {
			case theirs && !engine:
				return problemOf("mutate-cast-at-hexproof", "%s, the engine does not answer that %s can't be cast at %s (no not_allowed), but the rules forbid it: %s has hexproof and an opponent of the spell's controller controls it", after(c, i), card, target, target)
			case !theirs && engine:
				return problemOf("hexproof-refused-its-controller", "%s, the engine answers that %s can't be cast at %s (not_allowed), but the rules allow it: hexproof stops only the spells of its controller's opponents, and the spell's controller controls %s", after(c, i), card, target, target)
			}
			return nil
		})
	},
}

// hexproofCasts calls f for each mutating spell cast at a target with
// hexproof that only hexproof could make illegal (a non-Human creature
// of the spell's owner, phased in, without shroud), with whether an
// opponent of the spell's controller controls it: where the rules forbid
// the cast by 702.11b or allow it.
func hexproofCasts(c *Case, f func(i int, card, target model.ObjectID, theirs bool) error) error {
	return mutateCasts(c, "702.11b", func(i int, card, target model.ObjectID) error {
		p := stateAt(c.Reference, i).Permanent(target)
		if !hexproofed(p) || !legalTarget(c, i, card, target) {
			return nil
		}
		o := c.Scenario.Object(card)
		return f(i, card, target, o != nil && p.Controller != o.Owner)
	})
}

// hexproofed reports whether permanent p has hexproof.
func hexproofed(p *model.Permanent) bool { return hasAbility(p, "hexproof") }
