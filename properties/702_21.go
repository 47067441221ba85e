package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genWard casts mutating spells at a cloaked creature, which has ward
// {2}, controlled by the caster or by the opponent. The tuning of
// 702.21a, kept with it.
var genWard = generators.NewShape(generators.Options{
	MaxPermanents: 1, MaxComponents: 2, Hand: true, Ward: true,
	Kinds: []generators.Kind{generators.Card, generators.Token},
	Focus: []model.ActionType{model.CastMutate},
})

// P702_21a: ward triggers when its permanent becomes the target of a
// spell an opponent of its controller controls, and counters the spell
// unless the caster pays: a spell paid for, or cast by the permanent's
// controller, stays on the stack. (The reference refuses an unpaid ward:
// where a countered spell goes, CR 701.6a, is not among the texts held.)
var P702_21a = &Property{
	Rule:  "702.21a",
	Needs: []model.Feature{model.FeatureMutate, model.FeatureCloak},
	Draws: genWard,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = wardCasts(c, func(i int, card, target model.ObjectID, theirs bool) error {
			l := map[bool]string{true: "an-opponents-paid", false: "its-controllers"}[theirs]
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"an-opponents-paid": 0.03, "its-controllers": 0.03},
	Check: func(c *Case) error {
		return wardCasts(c, func(i int, card, target model.ObjectID, theirs bool) error {
			st := &c.Trace.Steps[i].State
			if slices.ContainsFunc(st.Stack, func(so model.StackObject) bool { return so.Object == card }) {
				return nil
			}
			if theirs {
				return problemOf("ward-countered-though-paid", "%s, %s is not on the stack: %s's ward {2} triggered, and its caster paid, so ward does not counter it", after(c, i), card, target)
			}
			return problemOf("ward-countered-its-controllers-spell", "%s, %s is not on the stack: %s's controller cast it, and ward triggers only on a spell an opponent controls", after(c, i), card, target)
		})
	},
}

// wardCasts calls f for each mutating spell cast, allowed by the rules,
// at a target with ward that the engine's trace has as the rules' do,
// with whether an opponent of the spell's controller controls the target.
func wardCasts(c *Case, f func(i int, card, target model.ObjectID, theirs bool) error) error {
	return mutateCasts(c, "702.21a", func(i int, card, target model.ObjectID) error {
		p := stateAt(c.Reference, i).Permanent(target)
		if !hasAbility(p, model.Ward2) || forbidden(c.Reference.Steps[i]) || forbidden(c.Trace.Steps[i]) {
			return nil
		}
		o := c.Scenario.Object(card)
		return f(i, card, target, o != nil && p.Controller != o.Owner)
	})
}
