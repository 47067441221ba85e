package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

func meldedMoves(s *model.Scenario, to ...model.Zone) bool {
	return melded(s) && slices.ContainsFunc(s.Actions, func(a model.Action) bool {
		return a.Type == model.Move && (len(to) == 0 || slices.Contains(to, a.To))
	})
}

// P712_21a: the owner orders a melded permanent's two cards.
var P712_21a = &Property{
	Rule:         "712.21a",
	Needs:        []model.Feature{model.FeatureMeld},
	Gen:          genMeldedLeave,
	Differential: true,
	Classify: func(s *model.Scenario) []string {
		return label(meldedMoves(s, model.Graveyard, model.LibraryTop, model.LibraryBottom), "melded-to-graveyard-or-library")
	},
	Cover: map[string]float64{"melded-to-graveyard-or-library": 0.2},
	Check: func(c *Case) error {
		return sameAsReference(c, "the graveyards and libraries", zonesView(model.Graveyard, model.Library))
	},
}

// P712_21b: the exiling player orders the two cards' timestamps.
var P712_21b = &Property{
	Rule:         "712.21b",
	Needs:        []model.Feature{model.FeatureMeld},
	Gen:          genMeldedLeave,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(meldedMoves(s, model.Exile), "melded-exiled") },
	Cover:        map[string]float64{"melded-exiled": 0.05},
	Check:        func(c *Case) error { return sameAsReference(c, "exile, in timestamp order,", zonesView(model.Exile)) },
}

// P712_21c: an effect finds both cards a melded permanent became.
var P712_21c = &Property{
	Rule:         "712.21c",
	Needs:        []model.Feature{model.FeatureMeld, model.FeatureLinked},
	Gen:          genMeldedFind,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(has(s, model.Return, model.ExileFound), "finds") },
	Cover:        map[string]float64{"finds": 0.2},
	Check:        sameFoundObjects,
}

// P712_21d: one replacement effect applies to both cards.
var P712_21d = &Property{
	Rule:         "712.21d",
	Needs:        []model.Feature{model.FeatureMeld, model.FeatureReplacement},
	Gen:          genMeldedLeave,
	Differential: true,
	Classify: func(s *model.Scenario) []string {
		return label(hasReplacementSource(s) && meldedMoves(s), "replacement")
	},
	Cover: map[string]float64{"replacement": 0.2},
	Check: sameMoves,
}

func meldedView(st model.State) any {
	var keep model.State
	for _, p := range st.Battlefield {
		if p.Derived != nil && p.Derived.Melded {
			keep.Battlefield = append(keep.Battlefield, p)
		}
	}
	return characteristics(keep)
}

// P712_8g: a melded permanent has the combined back face's characteristics
// and the sum of its front faces' mana values.
var P712_8g = &Property{
	Rule:         "712.8g",
	Needs:        []model.Feature{model.FeatureMeld},
	Gen:          genMeldedLeave,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(melded(s), "melded") },
	Cover:        map[string]float64{"melded": 0.5},
	Check: func(c *Case) error {
		err := eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			if !isMelded(c.Scenario, p) || p.Derived == nil {
				return nil
			}
			want := 0
			for _, comp := range p.Components {
				want += defOf(c.Scenario, comp.Object).Front.ManaValue()
			}
			if got := p.Derived.Characteristics.ManaValue; got != want {
				return problem("%s, melded permanent %s has mana value %d: it is the sum of its front faces' mana values, %d", where, p.ID, got, want)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return sameAsReference(c, "the melded permanents' characteristics", meldedView)
	},
}

// P712_4a: melding makes one permanent represented by two cards.
var P712_4a = &Property{
	Rule:         "712.4a",
	Needs:        []model.Feature{model.FeatureMeld},
	Gen:          genMeld,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(has(s, model.Meld), "meld") },
	Cover:        map[string]float64{"meld": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.Meld) {
			prev := before(c.Trace, i)
			for _, q := range c.Trace.Steps[i].State.Battlefield {
				if prev.Permanent(q.ID) != nil {
					continue
				}
				if len(q.Components) != 2 || q.Derived == nil || !q.Derived.Melded {
					return problem("after action %d, the meld made %s of components %v (melded=%v): a meld pair becomes one permanent represented by both cards", c.Trace.Steps[i].Action, q.ID, ids(&q), q.Derived != nil && q.Derived.Melded)
				}
			}
		}
		return sameAsReference(c, "the components' faces", facesView)
	},
}

// P712_4b: a meld card's back face shows only in a melded permanent.
var P712_4b = &Property{
	Rule:  "712.4b",
	Needs: []model.Feature{model.FeatureMeld},
	Gen:   genMeldTransform,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.Transform, model.Convert), "told-to-transform")
	},
	Cover: map[string]float64{"told-to-transform": 0.5},
	Check: func(c *Case) error {
		return eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			for _, comp := range p.Components {
				d := defOf(c.Scenario, comp.Object)
				if d != nil && d.Layout == model.LayoutMeld && comp.Face == model.Back && !isMelded(c.Scenario, p) {
					return problem("%s, %s shows the back face of meld card %s outside a melded pair: a meld card's back face is used only by the melded permanent", where, p.ID, comp.Object)
				}
			}
			return nil
		})
	},
}

// P712_4c: meld cards can't transform or convert.
var P712_4c = &Property{
	Rule:  "712.4c",
	Needs: []model.Feature{model.FeatureMeld, model.FeatureDoubleFaced},
	Gen:   genMeldTransform,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.Transform, model.Convert), "told-to-transform")
	},
	Cover: map[string]float64{"told-to-transform": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.Transform, model.Convert) {
			a, p, q := acted(c, i)
			if p == nil || merged(p) && !isMelded(c.Scenario, p) {
				continue
			}
			if d := defOf(c.Scenario, p.Components[0].Object); d == nil || d.Layout != model.LayoutMeld {
				continue
			}
			if q == nil || facesView(model.State{Battlefield: []model.Permanent{*q}}) != facesView(model.State{Battlefield: []model.Permanent{*p}}) {
				return problem("after action %d (%s), meld card permanent %s turned over: meld cards can't transform or convert", c.Trace.Steps[i].Action, a.Type, a.Object)
			}
		}
		return nil
	},
}

// meldObjects returns the objects of the two permanents a meld action names.
func meldObjects(c *Case, i int) []model.ObjectID {
	a := action(c, i)
	prev := before(c.Trace, i)
	var out []model.ObjectID
	for _, id := range []model.ObjectID{a.Object, a.With} {
		if p := prev.Permanent(id); p != nil {
			out = append(out, ids(p)...)
		}
	}
	return out
}

func pairOfCards(s *model.Scenario, objs []model.ObjectID) bool {
	if len(objs) != 2 || isToken(s, objs[0]) || isToken(s, objs[1]) {
		return false
	}
	a, b := defOf(s, objs[0]), defOf(s, objs[1])
	return a != nil && b != nil && a.MeldPartner == b.Name && b.MeldPartner == a.Name
}

// eachFailedMeld calls f for each meld step whose objects are not two cards
// of one meld pair, with the objects and the state after the step.
func eachFailedMeld(c *Case, f func(i int, objs []model.ObjectID, st *model.State) error) error {
	for _, i := range stepsOf(c, model.Meld) {
		if objs := meldObjects(c, i); !pairOfCards(c.Scenario, objs) {
			if err := f(i, objs, &c.Trace.Steps[i].State); err != nil {
				return err
			}
		}
	}
	return nil
}

func meldsAToken(s *model.Scenario) bool {
	return has(s, model.Meld) && slices.ContainsFunc(s.Objects, func(o model.Object) bool { return o.Token })
}

// P701_42b: only the two cards of one meld pair can be melded.
var P701_42b = &Property{
	Rule:     "701.42b",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMeldTokens,
	Classify: func(s *model.Scenario) []string { return label(meldsAToken(s), "token-half") },
	Cover:    map[string]float64{"token-half": 0.3},
	Check: func(c *Case) error {
		return eachFailedMeld(c, func(i int, objs []model.ObjectID, st *model.State) error {
			for _, q := range st.Battlefield {
				if slices.ContainsFunc(ids(&q), func(id model.ObjectID) bool { return slices.Contains(objs, id) }) {
					return problem("after action %d, %v were melded into %s, but they are not two cards of one meld pair", c.Trace.Steps[i].Action, objs, q.ID)
				}
			}
			return nil
		})
	},
}

// P701_42c: objects that can't be melded stay in the zone they are in.
var P701_42c = &Property{
	Rule:     "701.42c",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMeldTokens,
	Classify: func(s *model.Scenario) []string { return label(meldsAToken(s), "token-half") },
	Cover:    map[string]float64{"token-half": 0.3},
	Check: func(c *Case) error {
		return eachFailedMeld(c, func(i int, objs []model.ObjectID, st *model.State) error {
			for _, id := range objs {
				if isToken(c.Scenario, id) {
					continue
				}
				o := c.Scenario.Object(id)
				if pl := st.Player(o.Owner); pl == nil || !slices.Contains(pl.Zones.Exile, id) {
					return problem("after action %d, %s could not be melded but is not in exile: objects that can't be melded stay where they are", c.Trace.Steps[i].Action, id)
				}
			}
			return nil
		})
	},
}
