package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genProtection casts mutating spells, a red one among them, at a
// creature with protection from red and at others. The tuning of
// 702.16b, kept with it.
var genProtection = generators.NewShape(generators.Options{
	MaxPermanents: 1, MaxComponents: 2, Hand: true, Protection: true,
	Kinds: []generators.Kind{generators.Card, generators.Token},
	Focus: []model.ActionType{model.CastMutate},
})

// P702_16b: a permanent with protection from red can't be the target of
// a red spell; a spell of other colours may target it.
var P702_16b = &Property{
	Rule:  "702.16b",
	Needs: []model.Feature{model.FeatureMutate, model.FeatureProtection},
	Draws: genProtection,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = protectionCasts(c, func(i int, card, target model.ObjectID, red bool) error {
			l := map[bool]string{true: "red-spell", false: "other-spell"}[red]
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"red-spell": 0.03, "other-spell": 0.03},
	Check: func(c *Case) error {
		return protectionCasts(c, func(i int, card, target model.ObjectID, red bool) error {
			engine := forbidden(c.Trace.Steps[i])
			switch {
			case red && !engine:
				return problemOf("mutate-cast-at-protection", "%s, the engine does not answer that %s can't be cast at %s (no not_allowed), but the rules forbid it: %s has protection from red, and %s is red", after(c, i), card, target, target, card)
			case !red && engine:
				return problemOf("protection-refused-another-colour", "%s, the engine answers that %s can't be cast at %s (not_allowed), but the rules allow it: protection from red stops only red spells, and %s is not red", after(c, i), card, target, card)
			}
			return nil
		})
	},
}

// protectionCasts calls f for each mutating spell cast at a target with
// protection from red that only protection could make illegal (a
// non-Human creature of the spell's owner, phased in, without shroud;
// a cast an opponent's hexproof forbids is 702.11b's), with whether the
// spell is red: where the rules forbid the cast by 702.16b or allow it.
func protectionCasts(c *Case, f func(i int, card, target model.ObjectID, red bool) error) error {
	return mutateCasts(c, "702.16b", func(i int, card, target model.ObjectID) error {
		p := stateAt(c.Reference, i).Permanent(target)
		if !protected(p) || !legalTarget(c, i, card, target) {
			return nil
		}
		return f(i, card, target, slices.Contains(spellColours(c.Scenario, card), model.Red))
	})
}

// protected reports whether permanent p has protection from red.
func protected(p *model.Permanent) bool { return hasAbility(p, "protection_from_red") }

// spellColours returns the colours of the spell card makes: its card's
// front face's (CR 712.8a).
func spellColours(s *model.Scenario, card model.ObjectID) []model.Color {
	o := s.Object(card)
	if o == nil || s.Def(o.Def) == nil {
		return nil
	}
	return s.Def(o.Def).Front.Colors
}
