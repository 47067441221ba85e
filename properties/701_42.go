package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P701_42a: melding makes one permanent of two cards, back faces up.
var P701_42a = &Property{
	Rule:     "701.42a",
	Needs:    []model.Feature{model.FeatureMeld},
	Draws:    genMeld,
	Classify: func(s *model.Scenario, rules *model.Trace) []string { return meldLabels(s, rules) },
	Cover:    map[string]float64{"a-half-tapped": 0.1, "halves-untapped": 0.1},
	Check: func(c *Case) error {
		return melds(c, func(i int, made *model.Permanent, names []model.ObjectID) error {
			if made == nil {
				return nil
			}
			for _, id := range names {
				if p := c.Trace.Steps[i].State.Permanent(id); p != nil {
					return problemOf("meld-half-not-exiled", "%s, %s is still on the battlefield: both halves are exiled and return as one melded permanent", after(c, i), id)
				}
			}
			return backFacesUp(c, i, made)
		})
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
		return problemOf("melded-permanent-made-otherwise", "%s, melded permanent %s is %s: it is its two cards, combined with their back faces up, %s", after(c, i), q.ID, componentsWords(c.Scenario, q), componentsWords(c.Scenario, made))
	}
	return nil
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

// P701_42b: only the two cards of one meld pair can be melded.
var P701_42b = &Property{
	Rule:     "701.42b",
	Needs:    []model.Feature{model.FeatureMeld},
	Draws:    genMeldGone,
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
					return problemOf("melded-non-pair", "%s, %s were melded into %s, but they are not two cards of one meld pair", after(c, i), listWords(objs), q.ID)
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
	Draws:    genMeldGone,
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
