package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P701_42a: melding makes one permanent of two cards, back faces up.
var P701_42a = &Property{
	Rule:         "701.42a",
	Needs:        []model.Feature{model.FeatureMeld},
	Gen:          genMeld,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(has(s, model.Meld), "meld") },
	Cover:        map[string]float64{"meld": 0.5},
	Check: func(c *Case) error {
		if err := sameAsReference(c, "the battlefield", battlefieldView); err != nil {
			return err
		}
		return sameAsReference(c, "the components' faces", facesView)
	},
}

func melded(s *model.Scenario) bool {
	return slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool {
		return len(p.Components) == 2 && p.Components[0].Face == model.Back && p.Components[1].Face == model.Back
	})
}

func isMelded(s *model.Scenario, p *model.Permanent) bool {
	if len(p.Components) != 2 {
		return false
	}
	a, b := defOf(s, p.Components[0].Object), defOf(s, p.Components[1].Object)
	return a != nil && b != nil && a.Layout == model.LayoutMeld && p.Components[0].Face == model.Back && p.Components[1].Face == model.Back
}

// P712_21: a melded permanent leaving is one permanent leaving.
var P712_21 = &Property{
	Rule:     "712.21",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMelded,
	Classify: func(s *model.Scenario) []string { return label(melded(s) && has(s, model.Move), "melded-leaves") },
	Cover:    map[string]float64{"melded-leaves": 0.2},
	Check: func(c *Case) error {
		return leaving(c, func(i int, p *model.Permanent) error {
			if !isMelded(c.Scenario, p) {
				return nil
			}
			return oneObjectLeaves(c, i, p)
		})
	},
}

// P712_21e: one object, but as many cards as it has, moved.
var P712_21e = &Property{
	Rule:     "712.21e",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMelded,
	Classify: func(s *model.Scenario) []string { return label(melded(s) && has(s, model.Move), "melded-leaves") },
	Cover:    map[string]float64{"melded-leaves": 0.2},
	Check: func(c *Case) error {
		return leaving(c, func(i int, p *model.Permanent) error {
			if len(p.Components) < 2 {
				return nil
			}
			for _, e := range events(c.Trace.Steps[i], model.ZoneChange) {
				if e.Object == p.ID && e.From == model.Battlefield {
					if want := cardCount(c.Scenario, p); e.Cards != want || e.Objects != 1 {
						return problem("after action %d, %s leaving counts %d objects and %d cards: it is one object and %d cards", c.Trace.Steps[i].Action, p.ID, e.Objects, e.Cards, want)
					}
				}
			}
			return nil
		})
	},
}

// P702_26d: phasing is not a zone change.
var P702_26d = &Property{
	Rule:     "702.26d",
	Needs:    []model.Feature{model.FeaturePhasing},
	Gen:      genPhase,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.PhaseOut), "phase-out") },
	Cover:    map[string]float64{"phase-out": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.PhaseOut, model.PhaseIn) {
			a := action(c, i)
			if zc := events(c.Trace.Steps[i], model.ZoneChange); len(zc) > 0 {
				return problem("after action %d (%s), %s changed zones: phasing is not a zone change", c.Trace.Steps[i].Action, a.Type, zc[0].Object)
			}
			p, q := before(c.Trace, i).Permanent(a.Object), c.Trace.Steps[i].State.Permanent(a.Object)
			if p == nil {
				continue
			}
			if q == nil {
				return problem("after action %d (%s), %s is gone from the battlefield: a phased-out permanent stays there", c.Trace.Steps[i].Action, a.Type, a.Object)
			}
			if !slices.Equal(ids(p), ids(q)) || fmt.Sprint(p.Counters) != fmt.Sprint(q.Counters) {
				return problem("after action %d (%s), %s has components %v and counters %v, had %v and %v: tokens and counters stay", c.Trace.Steps[i].Action, a.Type, a.Object, ids(q), q.Counters, ids(p), p.Counters)
			}
		}
		return nil
	},
}

// P712_16: melded and double-faced permanents can't be turned face down.
var P712_16 = &Property{
	Rule:     "712.16",
	Needs:    []model.Feature{model.FeatureFaceDown, model.FeatureDoubleFaced},
	Gen:      genDFC,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.TurnFaceDown), "turn-face-down") },
	Cover:    map[string]float64{"turn-face-down": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.TurnFaceDown) {
			a := action(c, i)
			p, q := before(c.Trace, i).Permanent(a.Object), c.Trace.Steps[i].State.Permanent(a.Object)
			if p == nil || p.Status.FaceDown || merged(p) || !hasDFC(c.Scenario, p) {
				continue
			}
			if q == nil || q.Status != p.Status || fmt.Sprint(q.Components) != fmt.Sprint(p.Components) {
				return problem("after action %d, double-faced permanent %s changed when turned face down: nothing happens", c.Trace.Steps[i].Action, a.Object)
			}
		}
		return nil
	},
}

// P710_4: flipping is one-way.
var P710_4 = &Property{
	Rule:     "710.4",
	Needs:    []model.Feature{model.FeatureFlip},
	Gen:      genFlipTwice,
	Classify: func(s *model.Scenario) []string { return label(len(s.Actions) == 2, "flipped-twice") },
	Cover:    map[string]float64{"flipped-twice": 0.3},
	Check: func(c *Case) error {
		for i := range c.Trace.Steps {
			prev := before(c.Trace, i)
			for _, q := range c.Trace.Steps[i].State.Battlefield {
				if p := prev.Permanent(q.ID); p != nil && p.Status.Flipped && !q.Status.Flipped {
					return problem("after action %d, %s became unflipped: flipping is one-way", c.Trace.Steps[i].Action, q.ID)
				}
			}
		}
		return nil
	},
}

// P704_5d: a token outside the battlefield ceases to exist.
var P704_5d = &Property{
	Rule:     "704.5d",
	Gen:      genTokenLeaves,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.Move), "token-leaves") },
	Cover:    map[string]float64{"token-leaves": 0.5},
	Check: func(c *Case) error {
		for i, st := range states(c.Trace) {
			for _, pl := range st.Players {
				for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
					list, _ := pl.Zones.Get(z)
					for _, id := range list {
						if isToken(c.Scenario, id) {
							return problem("in state %d, token %s is in %s's %s: a token outside the battlefield ceases to exist", i, id, pl.ID, z)
						}
					}
				}
			}
		}
		return nil
	},
}
