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

// melded reports whether s has a melded permanent to judge: one at the
// start, or one its first action makes.
func melded(s *model.Scenario) bool {
	if slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool {
		return len(p.Components) == 2 && p.Components[0].Face == model.Back && p.Components[1].Face == model.Back
	}) {
		return true
	}
	// Or the first action melds a meld pair of cards whose owner controls
	// them (CR 701.42a-b), as generators draw it for an engine that can't
	// start from a melded permanent.
	if len(s.Actions) == 0 || s.Actions[0].Type != model.Meld {
		return false
	}
	var defs []*model.CardDef
	for _, id := range []model.ObjectID{s.Actions[0].Object, s.Actions[0].With} {
		p := s.Start.Permanent(id)
		if p == nil || len(p.Components) != 1 || p.Components[0].FaceDown || p.Status.PhasedOut {
			return false
		}
		o := s.Object(p.Components[0].Object)
		d := defOf(s, o.ID)
		if o.Token || o.Owner != p.Controller || d == nil || d.Layout != model.LayoutMeld {
			return false
		}
		defs = append(defs, d)
	}
	return defs[0].MeldPartner == defs[1].Name && s.Start.Permanent(s.Actions[0].Object).Controller == s.Start.Permanent(s.Actions[0].With).Controller
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
			a, p, q := acted(c, i)
			if p == nil || p.Status.FaceDown || merged(p) || !hasDFC(c.Scenario, p) {
				continue
			}
			if !unchanged(p, q) {
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

// withFlipCards lists the characteristics and abilities of permanents that
// hold a flip card.
func withFlipCards(s *model.Scenario) func(model.State) any {
	return func(st model.State) any {
		var keep model.State
		for _, p := range st.Battlefield {
			if slices.ContainsFunc(p.Components, func(comp model.Component) bool {
				d := defOf(s, comp.Object)
				return d != nil && d.Layout == model.LayoutFlip
			}) {
				keep.Battlefield = append(keep.Battlefield, p)
			}
		}
		return fmt.Sprint(characteristics(keep), abilitiesView(keep))
	}
}

func abilitiesView(st model.State) any {
	var out []string
	for _, p := range st.Battlefield {
		if p.Derived != nil {
			out = append(out, fmt.Sprintf("%s%v", p.ID, p.Derived.Characteristics.Abilities))
		}
	}
	return out
}

func unflippedFlip(s *model.Scenario) bool {
	return slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool {
		return !p.Status.Flipped && !p.Status.FaceDown && slices.ContainsFunc(p.Components, func(c model.Component) bool {
			d := defOf(s, c.Object)
			return d != nil && d.Layout == model.LayoutFlip
		})
	})
}

// P710_1b: a flip card's alternative half applies only to a flipped permanent.
var P710_1b = &Property{
	Rule:         "710.1b",
	Needs:        []model.Feature{model.FeatureFlip},
	Gen:          genFlipChars,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(unflippedFlip(s), "unflipped-flip-card") },
	Cover:        map[string]float64{"unflipped-flip-card": 0.3},
	Check: func(c *Case) error {
		return sameAsReference(c, "the characteristics of permanents with flip cards", withFlipCards(c.Scenario))
	},
}

// P710_2: a flip card has its normal characteristics until its permanent flips.
var P710_2 = &Property{
	Rule:  "710.2",
	Needs: []model.Feature{model.FeatureFlip},
	Gen:   genFlipChars,
	Classify: func(s *model.Scenario) []string {
		return label(unflippedFlip(s), "unflipped-flip-card")
	},
	Cover: map[string]float64{"unflipped-flip-card": 0.3},
	Check: func(c *Case) error {
		return eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			if p.Status.Flipped || p.Status.FaceDown || p.Derived == nil {
				return nil
			}
			d := defOf(c.Scenario, p.Components[0].Object)
			if d == nil || d.Layout != model.LayoutFlip || slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy }) {
				return nil
			}
			if got := p.Derived.Characteristics.Name; got != d.Front.Name {
				return problem("%s, unflipped %s is named %q: a flip card has its normal characteristics, %q, until its permanent flips", where, p.ID, got, d.Front.Name)
			}
			return nil
		})
	},
}

func dfcView(s *model.Scenario) func(model.State) any {
	return func(st model.State) any {
		var keep model.State
		for _, p := range st.Battlefield {
			if !merged(&p) && hasDFC(s, &p) {
				keep.Battlefield = append(keep.Battlefield, p)
			}
		}
		return fmt.Sprint(characteristics(keep), abilitiesView(keep))
	}
}

// P712_8d: a double-faced permanent front face up has only that face's
// characteristics.
var P712_8d = &Property{
	Rule:         "712.8d",
	Needs:        []model.Feature{model.FeatureDoubleFaced},
	Gen:          genDFCChars,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(len(s.Start.Battlefield) > 0, "double-faced") },
	Cover:        map[string]float64{"double-faced": 0.9},
	Check: func(c *Case) error {
		return sameAsReference(c, "the double-faced permanents' characteristics", dfcView(c.Scenario))
	},
}

// P712_8e: back face up, a nonmodal double-faced permanent has the back
// face's characteristics but its front face's mana value.
var P712_8e = &Property{
	Rule:  "712.8e",
	Needs: []model.Feature{model.FeatureDoubleFaced},
	Gen:   genDFCChars,
	Classify: func(s *model.Scenario) []string {
		back := slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return p.Components[0].Face == model.Back })
		return label(back || has(s, model.Transform, model.Convert), "back-face")
	},
	Cover: map[string]float64{"back-face": 0.3},
	Check: func(c *Case) error {
		return eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			if merged(p) || p.Status.FaceDown || p.Components[0].Face != model.Back || p.Derived == nil {
				return nil
			}
			d := defOf(c.Scenario, p.Components[0].Object)
			if d == nil || d.Layout != model.LayoutTransform {
				return nil
			}
			ch := p.Derived.Characteristics
			if ch.Name != d.Back.Name || ch.ManaValue != d.Front.ManaValue() {
				return problem("%s, %s back face up reports %q with mana value %d: it has the back face's characteristics, %q, and the front face's mana value, %d", where, p.ID, ch.Name, ch.ManaValue, d.Back.Name, d.Front.ManaValue())
			}
			return nil
		})
	},
}

// P712_18: a transforming permanent stays the same object, effects and all.
var P712_18 = &Property{
	Rule:  "712.18",
	Needs: []model.Feature{model.FeatureDoubleFaced},
	Gen:   genTransformEffects,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.Transform, model.Convert) && slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return len(p.Effects)+len(p.Counters) > 0 }) || has(s, model.Pump, model.AddCounters), "under-effects")
	},
	Cover: map[string]float64{"under-effects": 0.3},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.Transform, model.Convert) {
			a, p, q := acted(c, i)
			if p == nil {
				continue
			}
			if q == nil {
				return problem("after action %d (%s), %s is gone: a transforming permanent stays the same object", c.Trace.Steps[i].Action, a.Type, a.Object)
			}
			if fmt.Sprint(p.Effects) != fmt.Sprint(q.Effects) || fmt.Sprint(p.Counters) != fmt.Sprint(q.Counters) {
				return problem("after action %d (%s), %s has effects %v and counters %v, had %v and %v: effects that applied to it still do", c.Trace.Steps[i].Action, a.Type, a.Object, q.Effects, q.Counters, p.Effects, p.Counters)
			}
		}
		return nil
	},
}

// P702_26b: a phased-out permanent is treated as though it does not exist.
var P702_26b = &Property{
	Rule:     "702.26b",
	Needs:    []model.Feature{model.FeaturePhasing, model.FeatureMutate},
	Gen:      genIllegal,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.PhaseOut), "target-phased-out") },
	Cover:    map[string]float64{"target-phased-out": 0.1},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.Resolve) {
			card, target := merging(c, i)
			p := before(c.Trace, i).Permanent(target)
			if card == "" || p == nil || !p.Status.PhasedOut {
				continue
			}
			if q := c.Trace.Steps[i].State.Permanent(target); q != nil && slices.Contains(ids(q), card) {
				return problem("after action %d, %s merged with %s, which is phased out: a phased-out permanent is treated as though it does not exist, so the target is illegal", c.Trace.Steps[i].Action, card, target)
			}
		}
		return nil
	},
}

// P702_26c: a permanent that phases in exists again.
var P702_26c = &Property{
	Rule:     "702.26c",
	Needs:    []model.Feature{model.FeaturePhasing},
	Gen:      genPhase,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.PhaseIn), "phase-in") },
	Cover:    map[string]float64{"phase-in": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.PhaseIn) {
			a := action(c, i)
			q := c.Trace.Steps[i].State.Permanent(a.Object)
			if q == nil || q.Status.PhasedOut {
				return problem("after action %d, %s is still phased out or gone: it phased in", c.Trace.Steps[i].Action, a.Object)
			}
		}
		return nil
	},
}
