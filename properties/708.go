package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P708_2a: a face-down permanent is a 2/2 creature with no name, text,
// subtypes or mana cost (with the abilities its way of being face down
// gives, such as ward 2 for disguise and cloak).
var P708_2a = &Property{
	Rule:         "708.2a",
	Needs:        []model.Feature{model.FeatureFaceDown},
	Draws:        genFaceDownStatus,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		out := label(anyState(rules, func(p *model.Permanent) bool { return p.Status.FaceDown && len(p.Components) > 1 }), "face-down-merged")
		return append(out, label(anyState(rules, func(p *model.Permanent) bool {
			return p.Status.FaceDown && (len(p.Counters) > 0 || len(p.Effects) > 0)
		}), "face-down-with-counters-or-effects")...)
	},
	Cover: map[string]float64{"face-down-merged": 0.2, "face-down-with-counters-or-effects": 0.1},
	Check: func(c *Case) error {
		return sameCharacteristics(c, "face-down permanent", func(*model.Permanent) bool { return true },
			func(r *model.Permanent) bool { return r.Status.FaceDown })
	},
}

// turnsDownAgain returns the face-down permanent step i of the rules'
// trace tells to turn face down, if any.
func turnsDownAgain(c *Case, i int) *model.Permanent {
	if !actionIs(c, i, model.TurnFaceDown) {
		return nil
	}
	p := stateAt(c.Reference, i).Permanent(c.Scenario.Actions[i].Object)
	if p == nil || !p.Status.FaceDown {
		return nil
	}
	return p
}

// P708_2b: a face-down permanent can't be turned face down.
var P708_2b = changing(&Property{
	Rule:  "708.2b",
	Needs: []model.Feature{model.FeatureFaceDown},
	Draws: genFaceDownAgain,
	Classify: byStep(func(c *Case, i int) []string {
		p := turnsDownAgain(c, i)
		if p == nil {
			return nil
		}
		switch p.Components[0].FaceDownBy {
		case model.ByMorph, model.ByDisguise:
			return []string{"again-morph-or-disguise"}
		case model.ByManifest, model.ByCloak:
			return []string{"again-manifest-or-cloak"}
		}
		return []string{"again-effect"}
	}),
	Cover: map[string]float64{ElseHappens: 0.05, "again-morph-or-disguise": 0.02, "again-manifest-or-cloak": 0.1, "again-effect": 0.1},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := turnsDownAgain(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			if err := nothingHappens(c, i, p.ID, "a face-down permanent can't be turned face down, so nothing happens"); err != nil {
				return err
			}
		}
		return nil
	},
})

// turnedUp returns the permanent that step i of the rules' trace turns
// face up, as it was, if any.
func turnedUp(c *Case, i int) *model.Permanent {
	if !actionIs(c, i, model.TurnFaceUp) {
		return nil
	}
	id := c.Scenario.Actions[i].Object
	p, q := stateAt(c.Reference, i).Permanent(id), c.Reference.Steps[i].State.Permanent(id)
	if p == nil || q == nil || !p.Status.FaceDown || q.Status.FaceDown {
		return nil
	}
	return p
}

// P708_8: turning a permanent face up does not make it enter again.
var P708_8 = &Property{
	Rule:     "708.8",
	Needs:    []model.Feature{model.FeatureFaceDown},
	Observes: []model.Observer{model.CreatureEnters, model.TurnedFaceUp},
	Draws:    genFaceUp,
	Classify: byStep(func(c *Case, i int) []string {
		if turnedUp(c, i) == nil {
			return nil
		}
		how := c.Scenario.Actions[i].Method
		return []string{map[bool]string{true: "by-effect", false: "by-special-action"}[how == "" || how == model.ByEffect]}
	}),
	Cover: map[string]float64{"by-effect": 0.2, "by-special-action": 0.01},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := turnedUp(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			q, err := madeAs(c, i, p.ID, "turning it face up does not make a new object")
			if err != nil {
				return err
			}
			if q.Status.FaceDown {
				return problemOf("still-face-down", "%s, %s is still face down: the rules turn it face up", after(c, i), q.ID)
			}
			if err := sameTriggers(c, i, model.CreatureEnters, "", "a permanent turned face up has already entered the battlefield"); err != nil {
				return err
			}
			if err := sameTriggers(c, i, model.TurnedFaceUp, "", "it was turned face up, once"); err != nil {
				return err
			}
		}
		return nil
	},
}

// P708_9: face-down components leaving the battlefield are revealed.
var P708_9 = &Property{
	Rule:   "708.9",
	Needs:  []model.Feature{model.FeatureFaceDown},
	Events: true,
	Draws:  genFaceDownLeaves,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyStep(rules, func(i int) bool {
			return slices.ContainsFunc(leaves(rules, i), func(p *model.Permanent) bool {
				return slices.ContainsFunc(p.Components, func(comp model.Component) bool { return comp.FaceDown && !isToken(s, comp.Object) })
			})
		}), "face-down-leaves")
	},
	Cover: map[string]float64{"face-down-leaves": 0.3},
	Check: func(c *Case) error {
		return eachLeaving(c, func(p *model.Permanent) bool {
			return slices.ContainsFunc(p.Components, func(comp model.Component) bool { return comp.FaceDown })
		}, func(i int, p *model.Permanent) error {
			// Only a card the engine too had face down and moved off:
			// where it had the card face up, or kept it on the
			// battlefield, the finding is the rule's that says how
			// (730.2f, 730.3d).
			faceDownAndGone := func(id model.ObjectID) bool {
				return faceDownIn(holderOf(stateAt(c.Trace, i), id), id) && holderOf(&c.Trace.Steps[i].State, id) == nil
			}
			return sameRevealsOf(c, i, faceDownAndGone, "a face-down component that leaves the battlefield is revealed by its owner")
		})
	},
}
