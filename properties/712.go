package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// isMelded reports whether p is a melded permanent: two meld cards, both
// back faces up (CR 712.4a), judged from its components.
func isMelded(s *model.Scenario, p *model.Permanent) bool {
	if len(p.Components) != 2 {
		return false
	}
	a, b := defOf(s, p.Components[0].Object), defOf(s, p.Components[1].Object)
	return a != nil && b != nil && a.Layout == model.LayoutMeld && p.Components[0].Face == model.Back && p.Components[1].Face == model.Back
}

func isMeldedP(s *model.Scenario) func(p *model.Permanent) bool {
	return func(p *model.Permanent) bool { return isMelded(s, p) }
}

// P712_4a: melding makes one permanent represented by two cards.
var P712_4a = &Property{
	Rule:     "712.4a",
	Needs:    []model.Feature{model.FeatureMeld},
	Draws:    genMeld,
	Classify: func(s *model.Scenario, rules *model.Trace) []string { return meldLabels(s, rules) },
	Cover:    map[string]float64{"a-half-tapped": 0.1, "halves-untapped": 0.1},
	Check: func(c *Case) error {
		err := melds(c, func(i int, made *model.Permanent, names []model.ObjectID) error {
			if made == nil {
				return nil
			}
			return backFacesUp(c, i, made)
		})
		if err != nil {
			return err
		}
		return counterparts(c, isMeldedP(c.Scenario), func(k int, r, e *model.Permanent) error {
			if physical(c.Scenario, e) != physical(c.Scenario, r) {
				return nil // made otherwise: 701.42a's to judge
			}
			if e.Derived == nil || !e.Derived.Melded || e.Derived.Merged {
				return problemOf("melded-flag-wrong", "%s, melded permanent %s reports it %s and %s: it is a melded permanent, one object of two cards", at(c, k), e.ID, flagWords(e.Derived != nil && e.Derived.Melded, "melded"), flagWords(e.Derived != nil && e.Derived.Merged, "merged"))
			}
			return nil
		})
	},
}

// P712_4b: a meld card's back face shows only in a melded permanent.
var P712_4b = changing(&Property{
	Rule:  "712.4b",
	Needs: []model.Feature{model.FeatureMeld},
	Draws: genMeldTransform,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		return label(anyStep(rules, func(i int) bool { return meldCardTransforms(c, i) != nil }), "told-to-transform")
	},
	Cover: map[string]float64{ElseHappens: 0.1, "told-to-transform": 0.25},
	Check: func(c *Case) error {
		return counterparts(c, func(r *model.Permanent) bool { return !isMelded(c.Scenario, r) }, func(k int, r, e *model.Permanent) error {
			for _, comp := range e.Components {
				d := defOf(c.Scenario, comp.Object)
				if d != nil && d.Layout == model.LayoutMeld && comp.Face == model.Back {
					return problemOf("meld-back-face-outside-pair", "%s, %s shows the back face of meld card %s outside a melded pair: a meld card's back face is used only by the melded permanent", at(c, k), e.ID, comp.Object)
				}
			}
			return nil
		})
	},
})

// meldCardTransforms returns the permanent of meld cards, lone or melded,
// that step i tells to transform or convert.
func meldCardTransforms(c *Case, i int) *model.Permanent {
	if !actionIs(c, i, model.Transform, model.Convert) {
		return nil
	}
	p := stateAt(c.Reference, i).Permanent(c.Scenario.Actions[i].Object)
	if p == nil || isMerged(c.Scenario, p) {
		return nil // a merged permanent's meld cards are 730.2i's
	}
	if d := defOf(c.Scenario, p.Components[0].Object); d == nil || d.Layout != model.LayoutMeld {
		return nil
	}
	return p
}

// P712_4c: meld cards can't transform or convert.
var P712_4c = changing(&Property{
	Rule:  "712.4c",
	Needs: []model.Feature{model.FeatureMeld, model.FeatureDoubleFaced},
	Draws: genMeldTransform,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		return label(anyStep(rules, func(i int) bool { return meldCardTransforms(c, i) != nil }), "told-to-transform")
	},
	Cover: map[string]float64{ElseHappens: 0.1, "told-to-transform": 0.25},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := meldCardTransforms(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			if err := nothingHappens(c, i, p.ID, "meld cards can't transform or convert; the instruction is ignored"); err != nil {
				return err
			}
		}
		return nil
	},
})

// lonelyDFC reports a double-faced permanent of one component, face up.
func lonelyDFC(s *model.Scenario, p *model.Permanent) bool {
	return len(p.Components) == 1 && !p.Status.FaceDown && hasDFC(s, p)
}

// P712_8d: a double-faced permanent front face up has only that face's
// characteristics.
var P712_8d = &Property{
	Rule:         "712.8d",
	Needs:        nil,
	Draws:        genDFCChars,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		out := label(anyState(rules, func(p *model.Permanent) bool { return lonelyDFC(s, p) && p.Components[0].Face != model.Back }), "front-face-up")
		return append(out, label(anyState(rules, func(p *model.Permanent) bool {
			return lonelyDFC(s, p) && p.Components[0].Face != model.Back && (len(p.Counters) > 0 || len(p.Effects) > 0)
		}), "front-face-with-counters-or-effects")...)
	},
	Cover: map[string]float64{"front-face-up": 0.5, "front-face-with-counters-or-effects": 0.1},
	Check: func(c *Case) error {
		return sameCharacteristics(c, "double-faced permanent, front face up,", func(*model.Permanent) bool { return true }, func(r *model.Permanent) bool {
			return lonelyDFC(c.Scenario, r) && r.Components[0].Face != model.Back && !hasCopyEffect(r)
		})
	},
}

// backFaceUp reports a nonmodal double-faced permanent of one card with
// its back face up.
func backFaceUp(s *model.Scenario, p *model.Permanent) bool {
	if !lonelyDFC(s, p) || p.Components[0].Face != model.Back || hasCopyEffect(p) {
		return false
	}
	d := defOf(s, p.Components[0].Object)
	return d != nil && d.Layout == model.LayoutTransform
}

// P712_8e: back face up, a nonmodal double-faced permanent has the back
// face's characteristics but its front face's mana value.
var P712_8e = &Property{
	Rule:         "712.8e",
	Needs:        []model.Feature{model.FeatureDoubleFaced},
	Draws:        genDFCChars,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyState(rules, func(p *model.Permanent) bool { return backFaceUp(s, p) }), "back-face")
	},
	Cover: map[string]float64{"back-face": 0.15},
	Check: func(c *Case) error {
		return sameCharacteristics(c, "double-faced permanent, back face up,", func(*model.Permanent) bool { return true }, func(r *model.Permanent) bool {
			return backFaceUp(c.Scenario, r)
		})
	},
}

// P712_8g: a melded permanent has the combined back face's characteristics
// and the sum of its front faces' mana values.
var P712_8g = &Property{
	Rule:         "712.8g",
	Needs:        []model.Feature{model.FeatureMeld},
	Draws:        genMeldedLeave,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyState(rules, func(p *model.Permanent) bool {
			return isMelded(s, p) && (p.Status != model.Status{} || len(p.Counters) > 0)
		}), "melded-with-status-or-counters")
	},
	Cover: map[string]float64{"melded-with-status-or-counters": 0.05},
	Check: func(c *Case) error {
		err := counterparts(c, isMeldedP(c.Scenario), func(k int, r, e *model.Permanent) error {
			if physical(c.Scenario, e) != physical(c.Scenario, r) {
				return nil // made otherwise: 701.42a's to judge
			}
			want := 0
			for _, comp := range r.Components {
				want += defOf(c.Scenario, comp.Object).Front.ManaValue()
			}
			if d, err := derived(e); err != nil || d.Characteristics.ManaValue != want {
				got := -1
				if err == nil {
					got = d.Characteristics.ManaValue
				}
				return problemOf("melded-mana-value", "%s, melded permanent %s has mana value %d: it is the sum of its front faces' mana values, %d", at(c, k), e.ID, got, want)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return sameCharacteristics(c, "melded permanent", func(*model.Permanent) bool { return true }, isMeldedP(c.Scenario))
	},
}

// transformsFaceDown returns the face-down double-faced permanent (not
// merged) that step i tells to transform, convert or turn face up.
func transformsFaceDown(c *Case, i int) *model.Permanent {
	if !actionIs(c, i, model.Transform, model.Convert, model.TurnFaceUp) {
		return nil
	}
	p := stateAt(c.Reference, i).Permanent(c.Scenario.Actions[i].Object)
	if p == nil || !p.Status.FaceDown || len(p.Components) != 1 || !hasDFC(c.Scenario, p) {
		return nil
	}
	return p
}

// P712_15a: a face-down double-faced permanent can't transform, and turns
// face up with its front face up.
var P712_15a = &Property{
	Rule:  "712.15a",
	Needs: []model.Feature{model.FeatureFaceDown},
	Draws: genFaceDownDFC,
	Classify: byStep(func(c *Case, i int) []string {
		if transformsFaceDown(c, i) == nil {
			return nil
		}
		return []string{map[bool]string{true: "told-to-turn-up", false: "told-to-transform"}[actionIs(c, i, model.TurnFaceUp)]}
	}),
	Cover: map[string]float64{"told-to-transform": 0.3, "told-to-turn-up": 0.1},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := transformsFaceDown(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			if !actionIs(c, i, model.TurnFaceUp) {
				if err := nothingHappens(c, i, p.ID, "a face-down double-faced permanent can't transform or convert"); err != nil {
					return err
				}
				continue
			}
			q, err := madeAs(c, i, p.ID, "turning it face up")
			if err != nil {
				return err
			}
			r := c.Reference.Steps[i].State.Permanent(p.ID)
			if componentsView(q) != componentsView(r) {
				return problemOf("turned-up-face-otherwise", "%s, %s was turned face up as %s: it turns face up with its front face up, %s", after(c, i), q.ID, componentsWords(c.Scenario, q), componentsWords(c.Scenario, r))
			}
		}
		return nil
	},
}

// P712_16: melded and double-faced permanents can't be turned face down.
var P712_16 = changing(&Property{
	Rule:  "712.16",
	Needs: []model.Feature{model.FeatureFaceDown},
	Draws: genDFC,
	Classify: byStep(func(c *Case, i int) []string {
		p := dfcFaceDown(c, i)
		if p == nil {
			return nil
		}
		return []string{map[bool]string{true: "melded-told-face-down", false: "dfc-told-face-down"}[isMelded(c.Scenario, p)]}
	}),
	Cover: map[string]float64{ElseHappens: 0.1, "dfc-told-face-down": 0.2, "melded-told-face-down": 0.05},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := dfcFaceDown(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			if err := nothingHappens(c, i, p.ID, "a double-faced or melded permanent can't be turned face down: nothing happens, and none of its characteristics change"); err != nil {
				return err
			}
		}
		return nil
	},
})

// dfcFaceDown returns the face-up double-faced or melded permanent (not
// merged) that step i tells to turn face down.
func dfcFaceDown(c *Case, i int) *model.Permanent {
	if !actionIs(c, i, model.TurnFaceDown) {
		return nil
	}
	p := stateAt(c.Reference, i).Permanent(c.Scenario.Actions[i].Object)
	if p == nil || p.Status.FaceDown || isMerged(c.Scenario, p) || !hasDFC(c.Scenario, p) {
		return nil
	}
	return p
}

// P712_18: a transforming permanent stays the same object, effects and all.
var P712_18 = &Property{
	Rule:  "712.18",
	Needs: []model.Feature{model.FeatureDoubleFaced},
	Draws: genTransformEffects,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		return label(anyStep(rules, func(i int) bool {
			p := transforming(c, i)
			return p != nil && len(p.Effects)+len(p.Counters) > 0
		}), "under-effects")
	},
	Cover: map[string]float64{"under-effects": 0.3},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := transforming(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			q, err := madeAs(c, i, p.ID, "a transforming permanent stays the same object")
			if err != nil {
				return err
			}
			e := stateAt(c.Trace, i).Permanent(p.ID)
			if effectsView(e) != effectsView(q) || countersView(e.Counters) != countersView(q.Counters) {
				return problemOf("transform-lost-effects", "%s, %s has effects %s and counters %s, had %s and %s: effects that applied to it still do", after(c, i), q.ID, effectsWords(q), countersWords(q.Counters), effectsWords(e), countersWords(e.Counters))
			}
			// Which faces a merged permanent shows after is 730.2i's to
			// judge; a lone double-faced permanent shows its other face.
			if r := c.Reference.Steps[i].State.Permanent(p.ID); len(r.Components) == 1 && facesByObject(q) != facesByObject(r) {
				return problemOf("transformed-otherwise", "%s, %s shows %s: the rules turn it to %s", after(c, i), q.ID, facesByObject(q), facesByObject(r))
			}
		}
		return nil
	},
}

// transforming returns the permanent step i of the rules' trace turns to
// its other face (transform or convert), as it was.
func transforming(c *Case, i int) *model.Permanent {
	if !actionIs(c, i, model.Transform, model.Convert) {
		return nil
	}
	id := c.Scenario.Actions[i].Object
	p, q := stateAt(c.Reference, i).Permanent(id), c.Reference.Steps[i].State.Permanent(id)
	if p == nil || q == nil || facesByObject(p) == facesByObject(q) {
		return nil
	}
	return p
}

// meldedLeaves reports whether a melded permanent leaves in the rules' trace.
func meldedLeaves(s *model.Scenario, rules *model.Trace) bool {
	return anyStep(rules, func(i int) bool { return slices.ContainsFunc(leaves(rules, i), isMeldedP(s)) })
}

// P712_21: a melded permanent leaving is one permanent leaving.
var P712_21 = &Property{
	Rule:     "712.21",
	Needs:    []model.Feature{model.FeatureMeld},
	Observes: []model.Observer{model.CreatureDies},
	Draws:    genMelded,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		out := label(meldedLeaves(s, rules), "melded-leaves")
		return append(out, label(anyStep(rules, func(i int) bool {
			return slices.ContainsFunc(leaves(rules, i), func(p *model.Permanent) bool { return isMelded(s, p) && toLibrary(rules, i, p.ID) })
		}), "melded-to-library")...)
	},
	Cover: map[string]float64{"melded-leaves": 0.1, "melded-to-library": 0.03},
	Check: func(c *Case) error {
		return eachLeaving(c, isMeldedP(c.Scenario), func(i int, p *model.Permanent) error { return leftAsOne(c, i, p) })
	},
}

// P712_21a: the owner orders a melded permanent's two cards.
var P712_21a = &Property{
	Rule:         "712.21a",
	Needs:        []model.Feature{model.FeatureMeld},
	Draws:        genMeldedOrdered,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(ordered(s, rules, isMeldedP(s), model.Graveyard, model.Library), "melded-to-graveyard-or-library")
	},
	Cover: map[string]float64{"melded-to-graveyard-or-library": 0.08},
	Check: func(c *Case) error {
		return eachLeaving(c, isMeldedP(c.Scenario), func(i int, p *model.Permanent) error {
			return sameOrder(c, i, p, []model.Zone{model.Graveyard, model.Library}, "their owner")
		})
	},
}

// P712_21b: the exiling player orders the two cards' timestamps.
var P712_21b = &Property{
	Rule:         "712.21b",
	Needs:        []model.Feature{model.FeatureMeld},
	Draws:        genMeldedExile,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(ordered(s, rules, isMeldedP(s), model.Exile), "melded-exiled")
	},
	Cover: map[string]float64{"melded-exiled": 0.2},
	Check: func(c *Case) error {
		return eachLeaving(c, isMeldedP(c.Scenario), func(i int, p *model.Permanent) error {
			return sameOrder(c, i, p, []model.Zone{model.Exile}, "the exiling player")
		})
	},
}

// P712_21c: an effect finds both cards a melded permanent became.
var P712_21c = &Property{
	Rule:         "712.21c",
	Needs:        []model.Feature{model.FeatureMeld, model.FeatureLinked},
	Draws:        genMeldedFind,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(findsAny(s, rules, isMeldedP(s)), "finds")
	},
	Cover: map[string]float64{"finds": 0.01},
	Check: func(c *Case) error {
		return finds(c, isMeldedP(c.Scenario), func(i int, cards []model.ObjectID) error { return foundAll(c, i, cards) })
	},
}

// P712_21d: one replacement effect applies to both cards.
var P712_21d = &Property{
	Rule:         "712.21d",
	Needs:        []model.Feature{model.FeatureMeld, model.FeatureReplacement},
	Draws:        genMeldedReplace,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyStep(rules, func(i int) bool {
			return slices.ContainsFunc(leaves(rules, i), func(p *model.Permanent) bool { return isMelded(s, p) && replaced(rules, i, p.ID) })
		}), "replacement")
	},
	Cover: map[string]float64{"replacement": 0.05},
	Check: func(c *Case) error {
		return eachLeaving(c, isMeldedP(c.Scenario), func(i int, p *model.Permanent) error {
			if !replaced(c.Reference, i, p.ID) {
				return nil
			}
			return sameDestinations(c, i, p, "a replacement effect applied to one of the two cards affects both")
		})
	},
}

// P712_21e: one object, but as many cards as it has, moved.
var P712_21e = &Property{
	Rule:   "712.21e",
	Needs:  []model.Feature{model.FeatureMeld},
	Events: true,
	Draws:  genMelded,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(meldedLeaves(s, rules), "melded-leaves")
	},
	Cover: map[string]float64{"melded-leaves": 0.1},
	Check: func(c *Case) error {
		return eachLeaving(c, isMeldedP(c.Scenario), func(i int, p *model.Permanent) error {
			want := cardCount(c.Scenario, p)
			n := 0
			for _, e := range events(c.Trace.Steps[i], model.ZoneChange) {
				if e.Object == p.ID && e.From == model.Battlefield {
					n++
					if e.Cards != want || e.Objects != 1 {
						// The classes of 730.3's counts, which find the
						// same problem of a merged permanent.
						class := "leaving-card-count"
						if e.Objects != 1 {
							class = "leaving-object-count"
						}
						return problemOf(class, "%s, %s leaving counts %d objects and %d cards: it is one object and %d cards", after(c, i), p.ID, e.Objects, e.Cards, want)
					}
				}
			}
			if n == 0 {
				return problemOf("melded-leaving-unreported", "%s, no zone change reports %s leaving the battlefield: it is one object and %d cards that moved", after(c, i), p.ID, want)
			}
			return nil
		})
	},
}
