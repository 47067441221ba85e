package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P708_2a: a face-down permanent is a 2/2 creature with no name, text,
// subtypes or mana cost.
var P708_2a = &Property{
	Rule:  "708.2a",
	Needs: []model.Feature{model.FeatureFaceDown},
	Gen:   genFaceDownStatus,
	Classify: func(s *model.Scenario) []string {
		return label(slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return p.Status.FaceDown }), "face-down")
	},
	Cover: map[string]float64{"face-down": 0.5},
	Check: func(c *Case) error {
		return eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			if !p.Status.FaceDown {
				return nil
			}
			d, err := derived(p)
			if err != nil {
				return err
			}
			ch := d.Characteristics
			bonus := p.Counters["+1/+1"] - p.Counters["-1/-1"]
			for _, e := range p.Effects {
				if e.Kind == model.EffectPump {
					bonus += e.Power
				}
			}
			extra := slices.DeleteFunc(slices.Clone(ch.Abilities), func(a model.AbilityID) bool { return a == model.Ward2 })
			switch {
			case ch.Name != "" || ch.ManaValue != 0 || len(ch.Colors) > 0 || len(ch.Subtypes) > 0 || len(ch.Supertypes) > 0:
				return problem("%s, face-down %s has name %q, mana value %d, colors %v, subtypes %v: a face-down permanent has none", where, p.ID, ch.Name, ch.ManaValue, ch.Colors, ch.Subtypes)
			case fmt.Sprint(ch.Types) != "[creature]":
				return problem("%s, face-down %s has types %v: it is a creature and nothing else", where, p.ID, ch.Types)
			case len(extra) > 0:
				return problem("%s, face-down %s has abilities %v: it has no text", where, p.ID, extra)
			case ch.Power == nil || *ch.Power != 2+bonus:
				return problem("%s, face-down %s has power %s: it is a 2/2 before counters and effects (+%d here)", where, p.ID, fmtInt(ch.Power), bonus)
			}
			return nil
		})
	},
}

// P708_2b: a face-down permanent can't be turned face down.
var P708_2b = &Property{
	Rule:     "708.2b",
	Needs:    []model.Feature{model.FeatureFaceDown},
	Gen:      genFaceDownAgain,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.TurnFaceDown), "again") },
	Cover:    map[string]float64{"again": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.TurnFaceDown) {
			a, p, q := acted(c, i)
			if p == nil || !p.Status.FaceDown {
				continue
			}
			if !unchanged(p, q) {
				return problem("after action %d, face-down %s changed when turned face down again: nothing happens", c.Trace.Steps[i].Action, a.Object)
			}
		}
		return nil
	},
}

// P708_8: turning a permanent face up does not make it enter again.
var P708_8 = &Property{
	Rule:     "708.8",
	Needs:    []model.Feature{model.FeatureFaceDown},
	Gen:      genFaceUp,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.TurnFaceUp), "turned-up") },
	Cover:    map[string]float64{"turned-up": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.TurnFaceUp) {
			a := action(c, i)
			if n := triggers(c.Trace.Steps[i], model.CreatureEnters, ""); n > 0 {
				return problem("after action %d, %s was turned face up and \"whenever a creature enters\" triggered: it has already entered", c.Trace.Steps[i].Action, a.Object)
			}
			if before(c.Trace, i).Permanent(a.Object) != nil && c.Trace.Steps[i].State.Permanent(a.Object) == nil {
				return problem("after action %d, %s is gone: turning it face up does not make a new object", c.Trace.Steps[i].Action, a.Object)
			}
		}
		return nil
	},
}

// P708_9: face-down components leaving the battlefield are revealed.
var P708_9 = &Property{
	Rule:  "708.9",
	Needs: []model.Feature{model.FeatureFaceDown},
	Gen:   genFaceDownLeaves,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.Move) && slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool {
			return slices.ContainsFunc(p.Components, func(c model.Component) bool { return c.FaceDown })
		}), "face-down-leaves")
	},
	Cover: map[string]float64{"face-down-leaves": 0.3},
	Check: func(c *Case) error {
		return leaving(c, func(i int, p *model.Permanent) error {
			shown := map[model.ObjectID]bool{}
			for _, e := range events(c.Trace.Steps[i], model.Reveal) {
				for _, id := range e.Revealed {
					shown[id] = true
				}
			}
			for _, comp := range p.Components {
				if comp.FaceDown && !shown[comp.Object] {
					return problem("after action %d, face-down component %s of %s left the battlefield unrevealed: its owner reveals it", c.Trace.Steps[i].Action, comp.Object, p.ID)
				}
			}
			return nil
		})
	},
}

// P712_15a: a face-down double-faced permanent can't transform, and turns
// face up with its front face up.
var P712_15a = &Property{
	Rule:  "712.15a",
	Needs: []model.Feature{model.FeatureFaceDown, model.FeatureDoubleFaced},
	Gen:   genFaceDownDFC,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.Transform, model.Convert), "told-to-transform")
	},
	Cover: map[string]float64{"told-to-transform": 0.3},
	Check: func(c *Case) error {
		for i := range c.Trace.Steps {
			a, p, q := acted(c, i)
			if p == nil || q == nil || !p.Status.FaceDown || merged(p) {
				continue
			}
			switch a.Type {
			case model.Transform, model.Convert:
				if fmt.Sprint(q.Components) != fmt.Sprint(p.Components) {
					return problem("after action %d (%s), face-down %s turned over: a face-down double-faced permanent can't transform or convert", c.Trace.Steps[i].Action, a.Type, a.Object)
				}
			case model.TurnFaceUp:
				if !q.Status.FaceDown && q.Components[0].Face == model.Back {
					return problem("after action %d, %s was turned face up with its back face up: it turns face up with its front face up", c.Trace.Steps[i].Action, a.Object)
				}
			}
		}
		return nil
	},
}
