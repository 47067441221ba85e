package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P701_42a: melding makes one permanent of two cards, back faces up.
var P701_42a = &Property{
	Rule:     "701.42a",
	Needs:    []model.Feature{model.FeatureMeld},
	Gen:      genMeld,
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

// isMelded reports whether p is a melded permanent: two meld cards, both
// back faces up (CR 712.4a), judged from its components.
func isMelded(s *model.Scenario, p *model.Permanent) bool {
	if len(p.Components) != 2 {
		return false
	}
	a, b := defOf(s, p.Components[0].Object), defOf(s, p.Components[1].Object)
	return a != nil && b != nil && a.Layout == model.LayoutMeld && p.Components[0].Face == model.Back && p.Components[1].Face == model.Back
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
	Gen:      genMelded,
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

// P712_21e: one object, but as many cards as it has, moved.
var P712_21e = &Property{
	Rule:   "712.21e",
	Needs:  []model.Feature{model.FeatureMeld},
	Events: true,
	Gen:    genMelded,
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
						return problemOf("melded-leaving-counts", "%s, %s leaving counts %d objects and %d cards: it is one object and %d cards", after(c, i), p.ID, e.Objects, e.Cards, want)
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

// phasings calls f for each permanent whose phased-in or phased-out status
// a step of the rules' trace changes, as it was before and after, when
// the engine had it made as the rules did.
func phasings(c *Case, f func(i int, p, q *model.Permanent) error) error {
	for i := range c.Reference.Steps {
		prev := stateAt(c.Reference, i)
		for k := range c.Reference.Steps[i].State.Battlefield {
			q := &c.Reference.Steps[i].State.Battlefield[k]
			p := prev.Permanent(q.ID)
			if p == nil || p.Status.PhasedOut == q.Status.PhasedOut || !agreesAt(c, i, q.ID) {
				continue
			}
			if !likeRulesAt(c, i, q.ID) || !likeRulesAt(c, i, p.AttachedTo) {
				// Phasing with what it is attached to, and that
				// permanent's own phasing, follow from how the engine
				// made them: another rule's finding when it made them
				// otherwise.
				continue
			}
			if err := f(i, p, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// phased fails unless the engine's permanent is, after step i, made as
// the rules' q and phased as q is.
func phased(c *Case, i int, q *model.Permanent) (*model.Permanent, error) {
	way := map[bool]string{true: "out", false: "in"}[q.Status.PhasedOut]
	e, err := madeAs(c, i, q.ID, "phasing "+way+" is not a zone change, and the permanent stays on the battlefield")
	if err != nil {
		return nil, err
	}
	if e.Status.PhasedOut != q.Status.PhasedOut {
		return nil, problemOf("phased-otherwise", "%s, %s reports phased_out=%t: the rules phase it %s", after(c, i), e.ID, e.Status.PhasedOut, way)
	}
	return e, nil
}

// P702_26d: phasing is not a zone change.
var P702_26d = &Property{
	Rule:  "702.26d",
	Needs: []model.Feature{model.FeaturePhasing},
	Gen:   genPhase,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = phasings(c, func(i int, p, q *model.Permanent) error {
			if q.Status.PhasedOut {
				out = append(out, label(slices.ContainsFunc(p.Components, func(comp model.Component) bool { return isToken(s, comp.Object) }), "phases-out-with-token")...)
				out = append(out, label(len(p.Counters) > 0, "phases-out-with-counters")...)
			}
			out = append(out, label(actionIs(c, i, model.NextTurn), "untap-step")...)
			return nil
		})
		return out
	},
	Cover: map[string]float64{"phases-out-with-token": 0.05, "phases-out-with-counters": 0.1, "untap-step": 0.1},
	Check: func(c *Case) error {
		return phasings(c, func(i int, p, q *model.Permanent) error {
			e, err := madeAs(c, i, q.ID, "phasing is not a zone change, and the permanent stays on the battlefield")
			if err != nil {
				return err
			}
			if e.Status.PhasedOut != q.Status.PhasedOut {
				return nil // it did not phase: 702.26b's or 702.26c's to judge
			}
			before := stateAt(c.Trace, i).Permanent(q.ID)
			if !slices.Equal(ids(before), ids(e)) || countersView(before.Counters) != countersView(e.Counters) {
				return problemOf("phasing-lost-components-or-counters", "%s, %s has components %v and counters %s, had %v and %s: tokens and counters stay on a permanent that phases", after(c, i), e.ID, ids(e), countersView(e.Counters), ids(before), countersView(before.Counters))
			}
			if !c.Partial {
				for _, ev := range events(c.Trace.Steps[i], model.ZoneChange) {
					if ev.Object == q.ID || slices.Contains(ids(q), ev.Object) {
						return problemOf("phasing-changed-zones", "%s, %s changed zones as it phased: phasing is not a zone change", after(c, i), ev.Object)
					}
				}
			}
			return nil
		})
	},
}

// P712_16: melded and double-faced permanents can't be turned face down.
var P712_16 = &Property{
	Rule:  "712.16",
	Needs: []model.Feature{model.FeatureFaceDown, model.FeatureDoubleFaced},
	Gen:   genDFC,
	Classify: withChange(func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		var out []string
		for i := range rules.Steps {
			if p := dfcFaceDown(c, i); p != nil {
				out = append(out, map[bool]string{true: "melded-told-face-down", false: "dfc-told-face-down"}[isMelded(s, p)])
			}
		}
		return out
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
}

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

// P710_4: flipping is one-way, and a flipped permanent that leaves the
// battlefield forgets it was flipped.
var P710_4 = &Property{
	Rule:  "710.4",
	Needs: []model.Feature{model.FeatureFlip},
	Gen:   genFlipTwice,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		var out []string
		for i, a := range s.Actions {
			if p := stateAt(rules, i).Permanent(a.Object); a.Type == model.Flip && p != nil && p.Status.Flipped {
				out = append(out, "flip-again")
			}
		}
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

// P704_5d: a token outside the battlefield ceases to exist.
var P704_5d = &Property{
	Rule:  "704.5d",
	Gen:   genTokenLeaves,
	Needs: nil,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyStep(rules, func(i int) bool {
			return slices.ContainsFunc(leaves(rules, i), func(p *model.Permanent) bool {
				return slices.ContainsFunc(p.Components, func(comp model.Component) bool { return isToken(s, comp.Object) })
			})
		}), "token-leaves")
	},
	Cover: map[string]float64{"token-leaves": 0.25},
	Check: func(c *Case) error {
		for k := 1; k <= len(c.Trace.Steps); k++ {
			st := stateAt(c.Trace, k)
			for _, pl := range st.Players {
				for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
					list, _ := pl.Zones.Get(z)
					for _, id := range list {
						if isToken(c.Scenario, id) {
							return problemOf("token-outside-battlefield", "%s, token %s is in %s's %s: a token outside the battlefield ceases to exist", at(c, k), id, pl.ID, z)
						}
					}
				}
			}
			if c.Partial {
				continue
			}
			got := eventsView(c.Trace.Steps[k-1], model.CeaseToExist, objectView)
			want := eventsView(c.Reference.Steps[k-1], model.CeaseToExist, objectView)
			if !slices.Equal(got, want) {
				return problemOf("tokens-ceasing-to-exist", "%s, the engine reports %v ceasing to exist, but the rules end %v: a token that leaves the battlefield ceases to exist", at(c, k), orNone(got), orNone(want))
			}
		}
		return nil
	},
}

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
	Gen:          genFlipChars,
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
	Gen:   genFlipChars,
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
				return problemOf("unflipped-types", "%s, unflipped %s has types %v %v: a flip card has its normal type line, %v %v, until its permanent flips", at(c, k), e.ID, ch.Types, ch.Subtypes, f.Types, f.Subtypes)
			case !r.Mutated && slices.ContainsFunc(f.Abilities, func(a model.AbilityID) bool { return !slices.Contains(ch.Abilities, a) }):
				return problemOf("unflipped-abilities", "%s, unflipped %s has abilities %v: a flip card has its normal text, %v, until its permanent flips", at(c, k), e.ID, ch.Abilities, f.Abilities)
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

// lonelyDFC reports a double-faced permanent of one component, face up.
func lonelyDFC(s *model.Scenario, p *model.Permanent) bool {
	return len(p.Components) == 1 && !p.Status.FaceDown && hasDFC(s, p)
}

// P712_8d: a double-faced permanent front face up has only that face's
// characteristics.
var P712_8d = &Property{
	Rule:         "712.8d",
	Needs:        []model.Feature{model.FeatureDoubleFaced},
	Gen:          genDFCChars,
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
	Gen:          genDFCChars,
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

// P712_18: a transforming permanent stays the same object, effects and all.
var P712_18 = &Property{
	Rule:  "712.18",
	Needs: []model.Feature{model.FeatureDoubleFaced},
	Gen:   genTransformEffects,
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
				return problemOf("transform-lost-effects", "%s, %s has effects %s and counters %s, had %s and %s: effects that applied to it still do", after(c, i), q.ID, effectsView(q), countersView(q.Counters), effectsView(e), countersView(e.Counters))
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

// P702_26b: a phased-out permanent is treated as though it does not exist.
// sparedPhasedOut returns the phased-out permanents that the rules' step
// i, destroying every creature, leaves where they are (CR 702.26b).
func sparedPhasedOut(c *Case, i int) []model.ObjectID {
	if !actionIs(c, i, model.DestroyAll) {
		return nil
	}
	var out []model.ObjectID
	for _, p := range stateAt(c.Reference, i).Battlefield {
		if p.Status.PhasedOut && c.Reference.Steps[i].State.Permanent(p.ID) != nil {
			out = append(out, p.ID)
		}
	}
	return out
}

var P702_26b = &Property{
	Rule:  "702.26b",
	Needs: []model.Feature{model.FeaturePhasing},
	Gen:   genPhasedOut,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		out := label(anyStep(rules, func(i int) bool {
			_, target := mutatingResolve(c, i)
			p := stateAt(rules, i).Permanent(target)
			return p != nil && p.Status.PhasedOut
		}), "target-phased-out")
		return append(out, label(anyStep(rules, func(i int) bool { return len(sparedPhasedOut(c, i)) > 0 }), "destroy-spares-phased-out")...)
	},
	Cover: map[string]float64{"target-phased-out": 0.05, "destroy-spares-phased-out": 0.1},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			for _, id := range sparedPhasedOut(c, i) {
				if !agreesAt(c, i, id) {
					continue
				}
				if e := c.Trace.Steps[i].State.Permanent(id); e == nil || makeup(e) != makeup(c.Reference.Steps[i].State.Permanent(id)) {
					return problemOf("phased-out-destroyed", "%s, phased-out %s is gone or changed: a phased-out permanent is treated as though it does not exist, so destroying every creature spares it", after(c, i), id)
				}
			}
		}
		err := phasings(c, func(i int, p, q *model.Permanent) error {
			if e := c.Trace.Steps[i].State.Permanent(q.ID); q.Status.PhasedOut && e != nil && !e.Status.PhasedOut {
				return problemOf("not-phased-out", "%s, %s reports phased_out=false: the rules phase it out", after(c, i), e.ID)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return illegalResolves(c, func(i int, card, target model.ObjectID) error {
			if p := stateAt(c.Reference, i).Permanent(target); p == nil || !p.Status.PhasedOut {
				return nil
			}
			return enteredAlone(c, i, card, target, "its target is phased out and treated as though it does not exist, so the target is illegal")
		})
	},
}

// P702_26c: a permanent that phases in exists again.
var P702_26c = &Property{
	Rule:  "702.26c",
	Needs: []model.Feature{model.FeaturePhasing},
	Gen:   genPhase,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = phasings(c, func(i int, p, q *model.Permanent) error {
			if !q.Status.PhasedOut {
				out = append(out, map[bool]string{true: "phase-in-at-untap-step", false: "phase-in-by-action"}[actionIs(c, i, model.NextTurn)])
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"phase-in-by-action": 0.2, "phase-in-at-untap-step": 0.1},
	Check: func(c *Case) error {
		return phasings(c, func(i int, p, q *model.Permanent) error {
			if q.Status.PhasedOut {
				return nil
			}
			_, err := phased(c, i, q)
			return err
		})
	},
}

// P702_26g: Auras and Equipment attached to a permanent phase out with it,
// indirectly, and phase in with it.
var P702_26g = &Property{
	Rule:  "702.26g",
	Needs: []model.Feature{model.FeaturePhaseAttached},
	Gen:   genPhaseAttached,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = phasings(c, func(i int, p, q *model.Permanent) error {
			if p.AttachedTo != "" {
				out = append(out, map[bool]string{true: "attached-phases-out", false: "attached-phases-in"}[q.Status.PhasedOut])
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"attached-phases-out": 0.3, "attached-phases-in": 0.1},
	Check: func(c *Case) error {
		return phasings(c, func(i int, p, q *model.Permanent) error {
			if p.AttachedTo == "" || stateAt(c.Trace, i).Permanent(p.ID).AttachedTo != p.AttachedTo {
				return nil // attached elsewhere already: another rule's finding
			}
			e, err := phased(c, i, q)
			if err != nil {
				return err
			}
			if e.AttachedTo != q.AttachedTo {
				return problemOf("left-attached-when-phasing", "%s, %s is attached to %q: an Aura or Equipment phasing with the permanent it is attached to stays attached to %q", after(c, i), e.ID, e.AttachedTo, q.AttachedTo)
			}
			return nil
		})
	},
}

// P702_26h: an object that would phase out directly and indirectly at
// once phases out indirectly.
var P702_26h = &Property{
	Rule: "702.26h",
	Uncheckable: "no Aura, Equipment or Fortification of the catalogue has phasing, and no action gives it phasing, " +
		"so none can phase out directly and indirectly at once; an attached permanent phases out with what it is attached to (702.26g)",
}
