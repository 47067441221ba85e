package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

func isMeldedP(s *model.Scenario) func(p *model.Permanent) bool {
	return func(p *model.Permanent) bool { return isMelded(s, p) }
}

// P712_21a: the owner orders a melded permanent's two cards.
var P712_21a = &Property{
	Rule:         "712.21a",
	Needs:        []model.Feature{model.FeatureMeld},
	Gen:          genMeldedOrdered,
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
	Gen:          genMeldedExile,
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
	Gen:          genMeldedFind,
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
	Gen:          genMeldedReplace,
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

// P712_8g: a melded permanent has the combined back face's characteristics
// and the sum of its front faces' mana values.
var P712_8g = &Property{
	Rule:         "712.8g",
	Needs:        []model.Feature{model.FeatureMeld},
	Gen:          genMeldedLeave,
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

// melds calls f for each meld step of the rules' trace, with the two
// permanents it names as they were, when the engine had both made as the
// rules did; made is the melded permanent the rules make, or nil when the
// two can't be melded.
func melds(c *Case, f func(i int, made *model.Permanent, names []model.ObjectID) error) error {
	for i, a := range c.Scenario.Actions {
		if a.Type != model.Meld || !agreesAt(c, i, a.Object, a.With) {
			continue
		}
		var made *model.Permanent
		for _, q := range enters(c.Reference, i) {
			if isMelded(c.Scenario, q) {
				made = q
			}
		}
		if err := f(i, made, []model.ObjectID{a.Object, a.With}); err != nil {
			return err
		}
	}
	return nil
}

// meldedAs fails unless the engine's step i made the melded permanent the
// rules make, of the same two cards.
func meldedAs(c *Case, i int, made *model.Permanent) (*model.Permanent, error) {
	return madeAs(c, i, made.ID, "melding a meld pair makes one permanent of both cards")
}

// backFacesUp fails unless the engine's permanent that step i melds is
// the rules' made, its two cards combined with their back faces up
// (CR 701.42a, 712.4a).
func backFacesUp(c *Case, i int, made *model.Permanent) error {
	q, err := meldedAs(c, i, made)
	if err != nil {
		return err
	}
	if g, w := pieces(c.Scenario, q), pieces(c.Scenario, made); g != w {
		return problemOf("melded-permanent-made-otherwise", "%s, melded permanent %s is %s: it is its two cards, combined with their back faces up, %s", after(c, i), q.ID, componentsView(q), componentsView(made))
	}
	return nil
}

// P712_4a: melding makes one permanent represented by two cards.
var P712_4a = &Property{
	Rule:     "712.4a",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMeld,
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
				return problemOf("melded-flag-wrong", "%s, melded permanent %s reports melded=%t merged=%t: it is a melded permanent, one object of two cards", at(c, k), e.ID, e.Derived != nil && e.Derived.Melded, e.Derived != nil && e.Derived.Merged)
			}
			return nil
		})
	},
}

// P712_4b: a meld card's back face shows only in a melded permanent.
var P712_4b = &Property{
	Rule:  "712.4b",
	Needs: []model.Feature{model.FeatureMeld},
	Gen:   genMeldTransform,
	Classify: withChange(func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		return label(anyStep(rules, func(i int) bool { return meldCardTransforms(c, i) != nil }), "told-to-transform")
	}),
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
}

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
var P712_4c = &Property{
	Rule:  "712.4c",
	Needs: []model.Feature{model.FeatureMeld, model.FeatureDoubleFaced},
	Gen:   genMeldTransform,
	Classify: withChange(func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		return label(anyStep(rules, func(i int) bool { return meldCardTransforms(c, i) != nil }), "told-to-transform")
	}),
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
}

// P701_42b: only the two cards of one meld pair can be melded.
var P701_42b = &Property{
	Rule:     "701.42b",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMeldGone,
	Classify: failedMeldLabels,
	Cover:    map[string]float64{"token-half": 0.15, "pair-gone": 0.05},
	Check: func(c *Case) error {
		return melds(c, func(i int, made *model.Permanent, names []model.ObjectID) error {
			if made != nil {
				return nil
			}
			objs := meldObjects(c, i)
			for _, q := range enters(c.Trace, i) {
				if slices.ContainsFunc(ids(q), func(id model.ObjectID) bool { return slices.Contains(objs, id) }) {
					return problemOf("melded-non-pair", "%s, %v were melded into %s, but they are not two cards of one meld pair", after(c, i), objs, q.ID)
				}
			}
			return nil
		})
	},
}

// meldObjects returns the objects of the two permanents the meld action of
// step i names, as the rules had them.
func meldObjects(c *Case, i int) []model.ObjectID {
	a := c.Scenario.Actions[i]
	prev := stateAt(c.Reference, i)
	var out []model.ObjectID
	for _, id := range []model.ObjectID{a.Object, a.With} {
		if p := prev.Permanent(id); p != nil {
			out = append(out, ids(p)...)
		}
	}
	return out
}

// failedMeldLabels labels the melds that make nothing: one whose partner
// left the battlefield ("pair-gone") or one of whose halves is a token.
func failedMeldLabels(s *model.Scenario, rules *model.Trace) []string {
	c := &Case{Scenario: s, Reference: rules, Trace: rules}
	var out []string
	_ = melds(c, func(i int, made *model.Permanent, names []model.ObjectID) error {
		switch before := stateAt(rules, i); {
		case made != nil:
		case before.Permanent(names[0]) == nil || before.Permanent(names[1]) == nil:
			out = append(out, "pair-gone")
		default:
			out = append(out, "token-half")
		}
		return nil
	})
	return out
}

// P701_42c: objects that can't be melded stay in the zone they are in.
var P701_42c = &Property{
	Rule:     "701.42c",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMeldGone,
	Classify: failedMeldLabels,
	Cover:    map[string]float64{"token-half": 0.15, "pair-gone": 0.05},
	Check: func(c *Case) error {
		return melds(c, func(i int, made *model.Permanent, names []model.ObjectID) error {
			if made != nil {
				return nil
			}
			var cards []model.ObjectID
			for _, id := range meldObjects(c, i) {
				if !isToken(c.Scenario, id) {
					cards = append(cards, id)
				}
			}
			if g, w := whereabouts(&c.Trace.Steps[i].State, cards), whereabouts(&c.Reference.Steps[i].State, cards); g != w {
				return problemOf("unmeldable-objects-moved", "%s, the engine left %s, but objects that can't be melded stay where they are: %s", after(c, i), g, w)
			}
			return nil
		})
	},
}

// meldLabels tells meld steps apart by whether a half was tapped before
// it melded (the melded permanent is new, and untapped).
func meldLabels(s *model.Scenario, rules *model.Trace) []string {
	c := &Case{Scenario: s, Reference: rules, Trace: rules}
	var out []string
	_ = melds(c, func(i int, made *model.Permanent, names []model.ObjectID) error {
		if made == nil {
			return nil
		}
		tapped := false
		for _, id := range names {
			tapped = tapped || stateAt(rules, i).Permanent(id).Status.Tapped
		}
		out = append(out, map[bool]string{true: "a-half-tapped", false: "halves-untapped"}[tapped])
		return nil
	})
	return out
}
