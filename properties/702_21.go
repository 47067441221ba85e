package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genWard casts mutating spells at a cloaked creature, which has ward
// {2}, controlled by the caster or by the opponent, who pays for the ward
// or not. The tuning of 702.21a and 701.6a, kept with them.
var genWard = generators.NewShape(generators.Options{
	MaxPermanents: 1, MaxComponents: 2, Hand: true, Ward: true,
	Kinds: []generators.Kind{generators.Card, generators.Token},
	Focus: []model.ActionType{model.CastMutate},
})

// A wardCast is a mutating spell cast at a permanent whose ward the
// rules' trace has triggering or not.
type wardCast struct {
	step         int
	card, target model.ObjectID
	// theirs: an opponent of the spell's controller controls the target,
	// so ward triggers; paid: its caster pays, as the scenario scripts.
	theirs, paid bool
}

// label names the situation of 702.21a a ward cast is: cast by the
// permanent's controller, or by an opponent who pays. The third, an
// opponent who does not pay, is 701.6a's label (countered-by-ward),
// which draws from the same shape and explores it first: labelled here
// too, one of three situations would wait for a third exploring round.
func (w wardCast) label() string {
	switch {
	case !w.theirs:
		return "its-controllers"
	case w.paid:
		return "an-opponents-paid"
	}
	return ""
}

// P702_21a: ward triggers when its permanent becomes the target of a
// spell an opponent of its controller controls, and counters the spell
// unless the caster pays: a spell paid for, or cast by the permanent's
// controller, stays on the stack, and one not paid for leaves it.
var P702_21a = &Property{
	Rule:  "702.21a",
	Needs: []model.Feature{model.FeatureMutate, model.FeatureCloak},
	Draws: genWard,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = wardCasts(c, func(w wardCast) error {
			if l := w.label(); l != "" && !slices.Contains(out, l) {
				out = append(out, l)
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"an-opponents-paid": 0.03, "its-controllers": 0.03},
	Check: func(c *Case) error {
		return wardCasts(c, func(w wardCast) error {
			on := onStack(&c.Trace.Steps[w.step].State, w.card)
			switch {
			case w.theirs && !w.paid && on:
				return problemOf("ward-did-not-counter-unpaid", "%s, %s is still on the stack: %s's ward {2} triggered and its caster did not pay, so ward counters it", after(c, w.step), w.card, w.target)
			case w.theirs && w.paid && !on:
				return problemOf("ward-countered-though-paid", "%s, %s is not on the stack: %s's ward {2} triggered, and its caster paid, so ward does not counter it", after(c, w.step), w.card, w.target)
			case !w.theirs && !on:
				return problemOf("ward-countered-its-controllers-spell", "%s, %s is not on the stack: %s's controller cast it, and ward triggers only on a spell an opponent controls", after(c, w.step), w.card, w.target)
			}
			return nil
		})
	},
}

// P701_6a: a countered spell leaves the stack for its owner's graveyard,
// or where a replacement effect sends a card going there instead (CR
// 614.1a, 616.1: Rest in Peace exiles it); put into the graveyard, it is
// a card put there from anywhere (card_to_graveyard). The format counters
// a spell only by an unpaid ward (702.21a). Whether ward counters it is
// 702.21a's to judge; where the engine has the spell off the stack, this
// rule judges where it went and what that triggered.
var P701_6a = &Property{
	Rule:  "701.6a",
	Needs: []model.Feature{model.FeatureMutate, model.FeatureCloak, model.FeatureWard},
	Draws: genWard,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = counteredCasts(c, func(wardCast) error {
			out = []string{"countered-by-ward"}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"countered-by-ward": 0.03},
	Check: func(c *Case) error {
		return counteredCasts(c, func(w wardCast) error {
			st := &c.Trace.Steps[w.step].State
			if onStack(st, w.card) {
				return nil
			}
			owner := c.Scenario.Object(w.card).Owner
			want, _ := zoneOf(&c.Reference.Steps[w.step].State, w.card)
			got, holder := zoneOf(st, w.card)
			switch {
			case want == model.Graveyard && (got != model.Graveyard || holder != owner):
				return problemOf("countered-spell-not-in-owners-graveyard", "%s, %s, countered by %s's ward, is not in its owner %s's graveyard", after(c, w.step), w.card, w.target, owner)
			case got != want || holder != owner:
				return problemOf("countered-spell-not-where-replaced", "%s, %s, countered by %s's ward, is %s, but a replacement effect sends it to its owner %s's %s instead of the graveyard (CR 614.1a, 616.1)", after(c, w.step), w.card, w.target, whereWords(got, holder), owner, want)
			}
			if !c.Reports(model.CardToGraveyard) {
				return nil
			}
			of := func(id model.ObjectID) bool { return id == w.card }
			if n, m := countTriggers(c.Trace.Steps[w.step], model.CardToGraveyard, of), countTriggers(c.Reference.Steps[w.step], model.CardToGraveyard, of); n != m {
				return problemOf("countered-spell-card-to-graveyard", "%s, \"card_to_graveyard\" triggered %s for %s, countered by %s's ward, but the rules trigger it %s: %s", after(c, w.step), times(n), w.card, w.target, times(m), map[bool]string{true: "a card put into a graveyard from anywhere, the stack too", false: "it did not go to a graveyard"}[m > 0])
			}
			return nil
		})
	},
}

// times says how many times a trigger fired, in words.
func times(n int) string {
	switch n {
	case 0:
		return "never"
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// whereWords says where a card is, for a problem: in whose zone, or
// nowhere but the battlefield or the stack.
func whereWords(z model.Zone, owner model.PlayerID) string {
	if z == "" {
		return "in no player's zone"
	}
	return fmt.Sprintf("in %s's %s", owner, z)
}

// counteredCasts calls f for each ward cast whose spell the rules'
// trace has countered: ward triggered and its caster did not pay.
func counteredCasts(c *Case, f func(wardCast) error) error {
	return wardCasts(c, func(w wardCast) error {
		if !w.theirs || w.paid || onStack(&c.Reference.Steps[w.step].State, w.card) {
			return nil
		}
		return f(w)
	})
}

// wardCasts calls f for each mutating spell cast, allowed by the rules,
// at a target with ward that the engine's trace has as the rules' do.
func wardCasts(c *Case, f func(wardCast) error) error {
	return mutateCasts(c, "702.21a", func(i int, card, target model.ObjectID) error {
		p := stateAt(c.Reference, i).Permanent(target)
		if !hasAbility(p, model.Ward2) || forbidden(c.Reference.Steps[i]) || forbidden(c.Trace.Steps[i]) {
			return nil
		}
		o := c.Scenario.Object(card)
		may := c.Scenario.Actions[i].Choices.May
		return f(wardCast{step: i, card: card, target: target,
			theirs: o != nil && p.Controller != o.Owner, paid: may != nil && *may})
	})
}

// onStack reports whether card is a spell on the stack in st.
func onStack(st *model.State, card model.ObjectID) bool {
	return slices.ContainsFunc(st.Stack, func(so model.StackObject) bool { return so.Object == card })
}
