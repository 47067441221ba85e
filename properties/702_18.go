package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genShroud casts mutating spells at targets with and without shroud:
// Lightning Greaves is attached to a stack at random, and the casts the
// rules forbid are drawn with the legal ones. The tuning of 702.18a, kept
// with it.
var genShroud = generators.NewShape(generators.Options{
	MaxPermanents: 2, MaxComponents: 2, Hand: true, Attach: true, IllegalTargets: true, Prefix: 1,
	PrefixTypes: []model.ActionType{model.CastMutate},
	Kinds:       []generators.Kind{generators.Card, generators.Token, generators.FaceDown},
	Focus:       []model.ActionType{model.CastMutate},
})

// P702_18a: a permanent with shroud can't be the target of a spell, so a
// mutating creature spell can't be cast at one (CR 601.2c).
var P702_18a = &Property{
	Rule:  "702.18a",
	Needs: []model.Feature{model.FeatureMutate, model.FeatureShroud},
	Draws: genShroud,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = mutateCasts(c, "702.18a", func(i int, card, target model.ObjectID) error {
			if shrouded(stateAt(c.Reference, i).Permanent(target)) && !slices.Contains(out, "shroud") {
				out = append(out, "shroud")
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"shroud": 0.01},
	Check: func(c *Case) error {
		return mutateCasts(c, "702.18a", func(i int, card, target model.ObjectID) error {
			if slices.ContainsFunc(c.Reference.Steps[i].Events, func(e model.Event) bool { return e.Kind == model.NotAllowed && e.Rule == "702.18a" }) && !forbidden(c.Trace.Steps[i]) {
				return problemOf("mutate-cast-at-shroud", "%s, the engine does not answer that %s can't be cast at %s (no not_allowed), but %s has shroud: a permanent with shroud can't be the target of a spell, and a mutating creature spell can't be cast without a legal target", after(c, i), card, target, target)
			}
			return nil
		})
	},
}

// shrouded reports whether permanent p has shroud.
func shrouded(p *model.Permanent) bool { return hasAbility(p, "shroud") }

// hasAbility reports whether permanent p's derived characteristics
// include ability id.
func hasAbility(p *model.Permanent, id model.AbilityID) bool {
	return p != nil && p.Derived != nil && slices.Contains(p.Derived.Characteristics.Abilities, id)
}
