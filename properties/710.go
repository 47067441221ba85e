package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// withFlipCard reports a permanent that holds a flip card.
func withFlipCard(s *model.Scenario) func(p *model.Permanent) bool {
	return func(p *model.Permanent) bool {
		return slices.ContainsFunc(p.Components, func(comp model.Component) bool { return isFlipCard(s, comp) })
	}
}

// unflippedFlip reports an unflipped, face-up flip card permanent that is
// not merged (a merged one has its topmost component's characteristics,
// 730.2a).
func unflippedFlip(s *model.Scenario, p *model.Permanent) bool {
	return !p.Status.Flipped && !p.Status.FaceDown && !isMerged(s, p) && isFlipCard(s, p.Components[0])
}

// P710_1b: a flip card's alternative half applies only to a flipped
// permanent: compared with the rules for every permanent with a flip card
// that is not merged.
var P710_1b = &Property{
	Rule:         "710.1b",
	Needs:        []model.Feature{model.FeatureFlip},
	Draws:        genFlipChars,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		out := label(anyState(rules, func(p *model.Permanent) bool { return unflippedFlip(s, p) }), "unflipped-flip-card")
		return append(out, label(anyState(rules, func(p *model.Permanent) bool {
			return p.Status.Flipped && !isMerged(s, p) && withFlipCard(s)(p)
		}), "flipped-flip-card")...)
	},
	Cover: map[string]float64{"unflipped-flip-card": 0.15, "flipped-flip-card": 0.05},
	Check: func(c *Case) error {
		return sameCharacteristics(c, "flip card permanent", func(*model.Permanent) bool { return true }, func(r *model.Permanent) bool {
			return !r.Status.FaceDown && !isMerged(c.Scenario, r) && isFlipCard(c.Scenario, r.Components[0]) && !hasCopyEffect(r)
		})
	},
}

func hasCopyEffect(p *model.Permanent) bool {
	return slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy })
}

// P710_2: a flip card has its normal characteristics until its permanent
// flips: its name, types, power and toughness, and abilities.
var P710_2 = &Property{
	Rule:  "710.2",
	Needs: []model.Feature{model.FeatureFlip},
	Draws: genFlipChars,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyState(rules, func(p *model.Permanent) bool { return unflippedFlip(s, p) }), "unflipped-flip-card")
	},
	Cover: map[string]float64{"unflipped-flip-card": 0.15},
	Check: func(c *Case) error {
		return counterparts(c, func(r *model.Permanent) bool { return unflippedFlip(c.Scenario, r) && !hasCopyEffect(r) }, func(k int, r, e *model.Permanent) error {
			d := defOf(c.Scenario, r.Components[0].Object)
			if d == nil || d.Layout != model.LayoutFlip || e.Derived == nil || physical(c.Scenario, e) != physical(c.Scenario, r) {
				return nil
			}
			ch, f := e.Derived.Characteristics, d.Front
			switch {
			case ch.Name != f.Name:
				return problemOf("unflipped-name", "%s, unflipped %s is named %q: a flip card has its normal characteristics, %q, until its permanent flips", at(c, k), e.ID, ch.Name, f.Name)
			case fmt.Sprint(sortedStrings(ch.Types), sortedStrings(ch.Subtypes)) != fmt.Sprint(sortedStrings(f.Types), sortedStrings(f.Subtypes)):
				return problemOf("unflipped-types", "%s, unflipped %s has types %s and subtypes %s: a flip card has its normal type line, %s and %s, until its permanent flips", at(c, k), e.ID, setWords(ch.Types), setWords(ch.Subtypes), setWords(f.Types), setWords(f.Subtypes))
			case !r.Mutated && slices.ContainsFunc(f.Abilities, func(a model.AbilityID) bool { return !slices.Contains(ch.Abilities, a) }):
				return problemOf("unflipped-abilities", "%s, unflipped %s has abilities %s: a flip card has its normal text, %s, until its permanent flips", at(c, k), e.ID, setWords(ch.Abilities), setWords(f.Abilities))
			}
			if p, _ := basePT(e); f.Power != nil && (p == nil || *p != *f.Power) {
				return problemOf("unflipped-power", "%s, unflipped %s has power %s before its counters and effects: a flip card has its normal power, %d, until its permanent flips", at(c, k), e.ID, fmtInt(p), *f.Power)
			}
			return nil
		})
	},
}

func sortedStrings(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// P710_4: flipping is one-way, and a flipped permanent that leaves the
// battlefield forgets it was flipped.
var P710_4 = &Property{
	Rule:  "710.4",
	Needs: []model.Feature{model.FeatureFlip},
	Draws: genFlipTwice,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		out := byStep(func(c *Case, i int) []string {
			a := c.Scenario.Actions[i]
			p := stateAt(c.Reference, i).Permanent(a.Object)
			return label(a.Type == model.Flip && p != nil && p.Status.Flipped, "flip-again")
		})(s, rules)
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		_ = returns(c, func(p *model.Permanent) bool { return p.Status.Flipped }, func(int, *model.Permanent, *model.Permanent) error {
			out = append(out, "flipped-returns")
			return nil
		})
		return out
	},
	Cover: map[string]float64{"flip-again": 0.2, "flipped-returns": 0.05},
	Check: func(c *Case) error {
		err := counterparts(c, func(*model.Permanent) bool { return true }, func(k int, r, e *model.Permanent) error {
			if k == 0 {
				return nil
			}
			if p := stateAt(c.Trace, k-1).Permanent(e.ID); p != nil && p.Status.Flipped && !e.Status.Flipped {
				return problemOf("became-unflipped", "%s, %s became unflipped: flipping is one-way", at(c, k), e.ID)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return returns(c, func(p *model.Permanent) bool { return p.Status.Flipped }, func(i int, gone, r *model.Permanent) error {
			if c.Trace.Steps[i].State.Permanent(r.ID) == nil {
				return nil // not returned at all: the comparison with the rules' trace reports it (730.3c, 712.21c where a merged or melded permanent left)
			}
			return enteredWith(c, i, r, fmt.Sprintf("%s left the battlefield flipped, and a flipped permanent that leaves retains no memory of its status", gone.ID))
		})
	},
}
