package properties

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// eachMerge calls f for every step of the rules' trace that merges a card
// into a permanent the engine had made as the rules did before the step.
func eachMerge(c *Case, f func(i int, card, target model.ObjectID) error) error {
	for _, i := range merges(c) {
		card, target := mergeStep(c, i)
		if !agreesAt(c, i, target) {
			continue
		}
		if err := f(i, card, target); err != nil {
			return err
		}
	}
	return nil
}

// holderOf returns the permanent of st that has object id as a component.
func holderOf(st *model.State, id model.ObjectID) *model.Permanent {
	for k := range st.Battlefield {
		if slices.Contains(ids(&st.Battlefield[k]), id) {
			return &st.Battlefield[k]
		}
	}
	return nil
}

// faceDownIn reports whether card id is a face-down component of p.
func faceDownIn(p *model.Permanent, id model.ObjectID) bool {
	if p == nil {
		return false
	}
	k := slices.IndexFunc(p.Components, func(comp model.Component) bool { return comp.Object == id })
	return k >= 0 && p.Components[k].FaceDown
}

// didMerge returns the engine's permanent target after step i when it
// holds card: the merge happened, and a rule about what merging does can
// be judged there. Whether it happened at all is 730.2's and 730.2c's to
// judge; a case where it did not is theirs.
func didMerge(c *Case, i int, card, target model.ObjectID) *model.Permanent {
	q := c.Trace.Steps[i].State.Permanent(target)
	if q == nil || !slices.Contains(ids(q), card) {
		return nil
	}
	return q
}

// mergedInto fails unless, after step i, the engine's permanent target
// holds card: the merge the rules make there happened.
func mergedInto(c *Case, i int, card, target model.ObjectID) (*model.Permanent, error) {
	next := &c.Trace.Steps[i].State
	q := next.Permanent(target)
	if q != nil && slices.Contains(ids(q), card) {
		return q, nil
	}
	if h := holderOf(next, card); h != nil {
		return nil, problemOf("merged-into-other-permanent", "%s, %s merged into permanent %s, not into %s: a merged permanent is the permanent it merged with, the same object with the same id", after(c, i), card, h.ID, target)
	}
	return nil, problemOf("did-not-merge", "%s, %s did not merge with %s (the engine's %s is %s): the rules merge it there", after(c, i), card, target, target, idsOrGoneWords(q))
}

func idsOrGoneWords(p *model.Permanent) string {
	if p == nil {
		return "gone"
	}
	return "made of " + listWords(ids(p))
}

// P730_2: merging keeps one permanent, the object going on top or under.
var P730_2 = &Property{
	Rule:  "730.2",
	Needs: nil,
	Draws: genMutate,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		var out []string
		for _, i := range merges(c) {
			out = append(out, label(actionIs(c, i, model.Resolve), "mutate")...)
			out = append(out, label(actionIs(c, i, model.Merge), "bare-merge")...)
		}
		return out
	},
	Cover: map[string]float64{"mutate": 0.1, "bare-merge": 0.05},
	Check: func(c *Case) error {
		err := eachMerge(c, func(i int, card, target model.ObjectID) error {
			q, err := mergedInto(c, i, card, target)
			if err != nil {
				return err
			}
			old := stateAt(c.Trace, i).Permanent(target)
			top := append([]model.ObjectID{card}, ids(old)...)
			bottom := append(ids(old), card)
			if got := ids(q); !slices.Equal(got, top) && !slices.Equal(got, bottom) {
				return problemOf("merged-between-components", "%s, %s has components %s: %s goes on top of or under %s, never between", after(c, i), target, listWords(got), card, listWords(ids(old)))
			}
			for _, p := range enters(c.Trace, i) {
				if !slices.ContainsFunc(enters(c.Reference, i), func(r *model.Permanent) bool { return r.ID == p.ID }) {
					return problemOf("merge-made-new-permanent", "%s, new permanent %s appeared as %s merged: merging makes no new permanent", after(c, i), p.ID, card)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		// The engine's own word for it: a merged permanent reports itself
		// merged, and not melded.
		return counterparts(c, func(r *model.Permanent) bool { return len(r.Components) > 1 }, func(k int, r, e *model.Permanent) error {
			if physical(c.Scenario, e) != physical(c.Scenario, r) {
				return nil // made otherwise: the rules of how it was made judge it
			}
			want := isMerged(c.Scenario, r)
			if e.Derived == nil || e.Derived.Merged != want || want && e.Derived.Melded {
				merged, melded := e.Derived != nil && e.Derived.Merged, e.Derived != nil && e.Derived.Melded
				return problemOf("merged-flag-wrong", "%s, %s of components %s reports it %s and %s: it is %s (CR 730.2, 701.42a)", at(c, k), e.ID, listWords(ids(e)), flagWords(merged, "merged"), flagWords(melded, "melded"), map[bool]string{true: "a merged permanent", false: "no merged permanent"}[want])
			}
			return nil
		})
	},
}

// characteristics shows a permanent's characteristics, abilities left out
// when abilities is false, for comparison with the rules'. Power and
// toughness are shown without what the permanent's own counters and
// pump effects add: a counter or effect lost or kept is the concern of
// the rules about those (730.2c, 712.18), not of characteristics.
func characteristics(p *model.Permanent, abilities bool) string {
	if p.Derived == nil {
		return "none"
	}
	ch := p.Derived.Characteristics
	if !abilities {
		ch.Abilities = nil
	}
	ch.Power, ch.Toughness = basePT(p)
	return charsView(ch)
}

// basePT returns a permanent's power and toughness without what its own
// counters and pump effects add.
func basePT(p *model.Permanent) (power, toughness *int) {
	if p.Derived == nil {
		return nil, nil
	}
	ch := p.Derived.Characteristics
	dp := p.Counters["+1/+1"] - p.Counters["-1/-1"]
	dt := dp
	for _, e := range p.Effects {
		if e.Kind == model.EffectPump {
			dp, dt = dp+e.Power, dt+e.Toughness
		}
	}
	if ch.Power != nil {
		v := *ch.Power - dp
		power = &v
	}
	if ch.Toughness != nil {
		v := *ch.Toughness - dt
		toughness = &v
	}
	return power, toughness
}

// physical shows what a permanent physically is: its components in order,
// each with its face and how it is face down, and whether it is flipped
// or face down. Characteristics are judged only where the engine's
// permanent is physically the rules': a permanent made otherwise is
// another rule's finding.
func physical(s *model.Scenario, p *model.Permanent) string {
	return pieces(s, p) + " flipped=" + strconv.FormatBool(p.Status.Flipped) + " face_down=" + strconv.FormatBool(p.Status.FaceDown)
}

// keywords lists the keyword counters on a permanent, which give it
// abilities (CR 122.1b) whatever its components.
func keywords(p *model.Permanent) string {
	var out []string
	for _, k := range model.KeywordCounters {
		if p.Counters[string(k)] > 0 {
			out = append(out, string(k))
		}
	}
	return strings.Join(out, " ")
}

func fmtInt(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

// sameCharacteristics fails unless the engine's permanents that sel picks
// in the rules' trace have the rules' characteristics (abilities too when
// abilities is set), compared as sets where the format has sets.
func sameCharacteristics(c *Case, what string, abilities func(r *model.Permanent) bool, sel func(r *model.Permanent) bool) error {
	return counterparts(c, sel, func(k int, r, e *model.Permanent) error {
		if physical(c.Scenario, e) != physical(c.Scenario, r) {
			return nil
		}
		ab := abilities(r)
		if ab && keywords(e) != keywords(r) {
			return nil // a keyword counter lost or gained: the finding of the rule that moved it
		}
		if attachedApart(c, k, r) {
			return nil // what an Aura or Equipment grants it is that permanent's finding
		}
		// What a static effect changes is 613's finding; the rest is judged.
		pt, abl := staticsGive(c.Scenario, stateAt(c.Reference, k), r)
		e, r = withoutStatics(e, pt, abl), withoutStatics(r, pt, abl)
		if g, w := characteristics(e, ab), characteristics(r, ab); g != w {
			g, w = permCharsApart(e, r, ab)
			return problemOf("characteristics-of-"+Key(what), "%s, %s %s has %s, but the rules give %s", at(c, k), what, e.ID, g, w)
		}
		return nil
	})
}

// attachedApart reports whether a permanent attached to r in the rules'
// state k is otherwise in the engine's (gone, made otherwise, or with
// other characteristics): what it grants r is then its own finding, not
// one of r's characteristics.
func attachedApart(c *Case, k int, r *model.Permanent) bool {
	rs, es := stateAt(c.Reference, k), stateAt(c.Trace, k)
	for i := range rs.Battlefield {
		q := &rs.Battlefield[i]
		if q.AttachedTo != r.ID {
			continue
		}
		if e := es.Permanent(q.ID); e == nil || !sameMakeup(e, q) || characteristics(e, true) != characteristics(q, true) {
			return true
		}
	}
	return false
}

// P730_2a: a merged permanent has the topmost component's characteristics.
var P730_2a = &Property{
	Rule:         "730.2a",
	Needs:        nil,
	Draws:        genStacks,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		out := label(anyState(rules, func(p *model.Permanent) bool { return isMerged(s, p) }), "merged")
		return append(out, label(anyState(rules, func(p *model.Permanent) bool {
			return isMerged(s, p) && isToken(s, p.Components[0].Object) != isToken(s, p.Components[1].Object)
		}), "token-and-card")...)
	},
	Cover: map[string]float64{"merged": 0.3, "token-and-card": 0.05},
	Check: func(c *Case) error {
		// A mutated permanent's abilities are every component's (CR
		// 702.140e, judged there); the rest is the topmost component's.
		return sameCharacteristics(c, "merged permanent", func(r *model.Permanent) bool { return !r.Mutated },
			func(r *model.Permanent) bool {
				return isMerged(c.Scenario, r) && !r.Status.FaceDown && !flippedMergedFlip(c.Scenario, r)
			})
	},
}

// P730_2b: merging is not entering the battlefield.
var P730_2b = &Property{
	Rule:     "730.2b",
	Needs:    nil,
	Observes: []model.Observer{model.CreatureEnters},
	Draws:    genMutate,
	Classify: func(s *model.Scenario, rules *model.Trace) []string { return label(rulesMerge(s, rules), "merge") },
	Cover:    map[string]float64{"merge": 0.2},
	Check: func(c *Case) error {
		return eachMerge(c, func(i int, card, target model.ObjectID) error {
			if didMerge(c, i, card, target) == nil {
				return nil
			}
			why := fmt.Sprintf("%s merging with %s is not entering the battlefield", card, target)
			if err := sameTriggers(c, i, model.CreatureEnters, "", why); err != nil {
				return err
			}
			if c.Reports(model.PermanentEnters) {
				return sameTriggers(c, i, model.PermanentEnters, "", why)
			}
			return nil
		})
	},
}

// P730_2c: a merged permanent is the same object.
var P730_2c = &Property{
	Rule:     "730.2c",
	Needs:    nil,
	Draws:    genMutate,
	Classify: func(s *model.Scenario, rules *model.Trace) []string { return label(rulesMerge(s, rules), "merge") },
	Cover:    map[string]float64{"merge": 0.2},
	Check: func(c *Case) error {
		return eachMerge(c, func(i int, card, target model.ObjectID) error {
			q := c.Trace.Steps[i].State.Permanent(target)
			if q == nil {
				// Merged into another permanent is the problem 730.2's
				// check finds too: one class, so that one bug is one
				// finding.
				class, where := "merged-permanent-gone", "is nowhere on the battlefield"
				if h := holderOf(&c.Trace.Steps[i].State, card); h != nil {
					class, where = "merged-into-other-permanent", "is part of permanent "+string(h.ID)
				}
				return problemOf(class, "%s, %s is gone and %s %s: the merged permanent is no longer the same object, but merging keeps it one object with its id", after(c, i), target, card, where)
			}
			p := stateAt(c.Trace, i).Permanent(target)
			// One class for every way of not staying the same object, so a
			// counterexample shrinks to the plainest of them.
			const class = "not-the-same-object"
			at := fmt.Sprintf("%s, merged permanent %s", after(c, i), q.ID)
			switch {
			case p.Controller != q.Controller:
				return problemOf(class, "%s changed controller from %s to %s: it is the same object", at, p.Controller, q.Controller)
			case countersView(p.Counters) != countersView(q.Counters):
				return problemOf(class, "%s has counters %s, had %s: it is the same object and keeps them", at, countersWords(q.Counters), countersWords(p.Counters))
			case effectsView(p) != effectsView(q):
				return problemOf(class, "%s is under effects %s, was under %s: effects that applied to it still do", at, effectsWords(q), effectsWords(p))
			case p.ControlledSinceTurnStart != q.ControlledSinceTurnStart:
				return problemOf(class, "%s reports it %s, was %s: it hasn't just come under its controller's control", at, flagWords(q.ControlledSinceTurnStart, "controlled since the turn began"), flagWords(p.ControlledSinceTurnStart, "so"))
			}
			return nil
		})
	},
}

// P730_2d: a merged permanent is a token only if its topmost component is.
var P730_2d = &Property{
	Rule:  "730.2d",
	Needs: nil,
	Draws: genTokens,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		var out []string
		withToken := func(p *model.Permanent) bool {
			return isMerged(s, p) && slices.ContainsFunc(p.Components, func(comp model.Component) bool { return isToken(s, comp.Object) })
		}
		out = append(out, label(anyState(rules, func(p *model.Permanent) bool { return withToken(p) && isToken(s, p.Components[0].Object) }), "token-on-top")...)
		out = append(out, label(anyState(rules, func(p *model.Permanent) bool { return withToken(p) && !isToken(s, p.Components[0].Object) }), "card-on-token")...)
		return out
	},
	Cover: map[string]float64{"token-on-top": 0.1, "card-on-token": 0.1},
	Check: func(c *Case) error {
		err := counterparts(c, func(r *model.Permanent) bool { return isMerged(c.Scenario, r) }, func(k int, r, e *model.Permanent) error {
			d, err := derived(e)
			if err != nil {
				return err
			}
			top := e.Components[0].Object
			if want := isToken(c.Scenario, top); d.Token != want {
				kind := map[bool]string{true: "a token", false: "a card"}[want]
				return problemOf("token-unlike-top", "%s, %s's topmost component %s is %s, but it reports itself %s", at(c, k), e.ID, top, kind, map[bool]string{true: "a token", false: "no token"}[d.Token])
			}
			return nil
		})
		if err != nil || !c.Reports(model.NontokenCreatureDies) {
			return err
		}
		// A merged creature that dies is a nontoken creature dying exactly
		// when its topmost component is a card.
		return eachLeaving(c, func(p *model.Permanent) bool { return isMerged(c.Scenario, p) }, func(i int, p *model.Permanent) error {
			if e := stateAt(c.Trace, i).Permanent(p.ID); e == nil || e.Components[0].Object != p.Components[0].Object || isCreature(e) != isCreature(p) {
				// Another topmost component (702.140c's business) or
				// another creature-ness (730.2a's): whether the trigger
				// is right then is not a question of tokens.
				return nil
			}
			// Whether it triggers, not how often: a trigger a card is
			// 730.3's finding (one permanent leaves), not a question of
			// tokens.
			comps := make(map[model.ObjectID]bool, len(p.Components))
			for _, comp := range p.Components {
				comps[comp.Object] = true
			}
			ours := func(id model.ObjectID) bool { return id == p.ID || comps[id] }
			got, want := countTriggers(c.Trace.Steps[i], model.NontokenCreatureDies, ours), countTriggers(c.Reference.Steps[i], model.NontokenCreatureDies, ours)
			if (got > 0) == (want > 0) {
				return nil
			}
			top, kind := p.Components[0].Object, "a card"
			if isToken(c.Scenario, top) {
				kind = "a token"
			}
			did := map[bool]string{true: "triggered", false: "did not trigger"}
			return problemOf("triggers-"+Key(string(model.NontokenCreatureDies)), "%s, %q %s for %s, whose topmost component %s is %s: it is a token exactly when that component is", after(c, i), model.NontokenCreatureDies, did[got > 0], p.ID, top, kind)
		})
	},
}

// P730_2e: the topmost component decides face-down status, and becoming
// face up by merging is not turning face up.
var P730_2e = &Property{
	Rule:     "730.2e",
	Needs:    []model.Feature{model.FeatureFaceDown},
	Observes: []model.Observer{model.TurnedFaceUp},
	Draws:    genMergeFaceDown,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		var out []string
		for _, i := range merges(c) {
			_, target := mergeStep(c, i)
			out = append(out, label(stateAt(rules, i).Permanent(target).Status.FaceDown, "merge-onto-face-down")...)
		}
		return out
	},
	Cover: map[string]float64{"merge-onto-face-down": 0.15},
	Check: func(c *Case) error {
		err := counterparts(c, func(r *model.Permanent) bool { return len(r.Components) > 1 }, func(k int, r, e *model.Permanent) error {
			if top := e.Components[0]; e.Status.FaceDown != top.FaceDown {
				return problemOf("face-down-unlike-top", "%s, %s reports it %s, but its topmost component %s is %s", at(c, k), e.ID, flagWords(e.Status.FaceDown, "face down"), top.Object, flagWords(top.FaceDown, "face down"))
			}
			return nil
		})
		if err != nil {
			return err
		}
		return eachMerge(c, func(i int, card, target model.ObjectID) error {
			if !stateAt(c.Reference, i).Permanent(target).Status.FaceDown {
				return nil
			}
			q := didMerge(c, i, card, target)
			if q == nil {
				return nil
			}
			r := c.Reference.Steps[i].State.Permanent(target)
			if q.Components[0].Object == r.Components[0].Object {
				// The same card on top as the rules put there (where it
				// goes is 702.140c's to judge): the permanent is face down
				// exactly when that card is.
				if q.Status.FaceDown != r.Status.FaceDown {
					return problemOf("face-down-not-as-top", "%s, %s is %s with %s on top: a merged permanent is face down only if its topmost component is, and the rules make it %s", after(c, i), q.ID, flagWords(q.Status.FaceDown, "face down"), r.Components[0].Object, flagWords(r.Status.FaceDown, "face down"))
				}
				before := stateAt(c.Trace, i)
				for _, w := range r.Components {
					if h := holderOf(before, w.Object); h != nil && faceDownIn(h, w.Object) != faceDownIn(holderOf(stateAt(c.Reference, i), w.Object), w.Object) {
						continue // the engine had it turned otherwise before: another rule's finding (730.2f)
					}
					if k := slices.IndexFunc(q.Components, func(g model.Component) bool { return g.Object == w.Object }); k >= 0 && q.Components[k].FaceDown != w.FaceDown {
						return problemOf("merge-turned-component", "%s, component %s of %s is %s: merging turns no card over, and the rules keep it %s", after(c, i), w.Object, q.ID, flagWords(q.Components[k].FaceDown, "face down"), flagWords(w.FaceDown, "face down"))
					}
				}
			}
			return sameTriggers(c, i, model.TurnedFaceUp, target, fmt.Sprintf("a face-down permanent that a face-up %s merges onto is not turned face up", card))
		})
	},
}

// turns lists the steps of the rules' trace in which an action turns a
// permanent of several components face down or face up, with it.
func turns(c *Case, f func(i int, p *model.Permanent) error) error {
	for i, a := range c.Scenario.Actions {
		if a.Type != model.TurnFaceDown && a.Type != model.TurnFaceUp {
			continue
		}
		if p := stateAt(c.Reference, i).Permanent(a.Object); p != nil {
			if err := f(i, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// P730_2f: turning a merged permanent turns each component.
var P730_2f = &Property{
	Rule:  "730.2f",
	Needs: []model.Feature{model.FeatureMerge, model.FeatureFaceDown},
	Draws: genTurn,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		var out []string
		_ = turns(c, func(i int, p *model.Permanent) error {
			q := rules.Steps[i].State.Permanent(p.ID)
			if isMerged(s, p) && q != nil && q.Status.FaceDown != p.Status.FaceDown {
				out = append(out, map[bool]string{true: "down", false: "up"}[q.Status.FaceDown])
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"down": 0.05, "up": 0.05},
	Check: func(c *Case) error {
		return turns(c, func(i int, p *model.Permanent) error {
			r := c.Reference.Steps[i].State.Permanent(p.ID)
			if !isMerged(c.Scenario, p) || r == nil || r.Status.FaceDown == p.Status.FaceDown || !agreesAt(c, i, p.ID) {
				return nil
			}
			q, err := madeAs(c, i, p.ID, "turning it over")
			if err != nil {
				return err
			}
			way := map[bool]string{true: "down", false: "up"}[r.Status.FaceDown]
			if q.Status.FaceDown != r.Status.FaceDown {
				return problemOf("merged-not-turned", "%s, merged permanent %s reports it %s: the rules turn it face %s", after(c, i), q.ID, flagWords(q.Status.FaceDown, "face down"), way)
			}
			for _, comp := range q.Components {
				if comp.FaceDown != r.Status.FaceDown {
					return problemOf("component-not-turned", "%s, %s was turned face %s but its component %s is %s: each component turns", after(c, i), q.ID, way, comp.Object, flagWords(comp.FaceDown, "face down"))
				}
			}
			if r.Status.FaceDown && c.Reports(model.TurnedFaceDown) {
				return sameTriggers(c, i, model.TurnedFaceDown, q.ID, fmt.Sprintf("%s is one permanent turned face down, however many cards it has", q.ID))
			}
			return nil
		})
	},
}

// hasInstant reports whether a permanent holds an instant or sorcery card.
func hasInstant(s *model.Scenario, p *model.Permanent) bool {
	return slices.ContainsFunc(p.Components, func(comp model.Component) bool {
		d := defOf(s, comp.Object)
		return d != nil && !isToken(s, comp.Object) && d.InstantOrSorcery()
	})
}

// faceUpWithInstant reports whether step i of the rules' trace tells a
// face-down merged permanent holding an instant or sorcery card to turn
// face up, returning it as it was.
func faceUpWithInstant(c *Case, i int) *model.Permanent {
	a := c.Scenario.Actions[i]
	if a.Type != model.TurnFaceUp {
		return nil
	}
	p := stateAt(c.Reference, i).Permanent(a.Object)
	if p == nil || !p.Status.FaceDown || !isMerged(c.Scenario, p) || !hasInstant(c.Scenario, p) {
		return nil
	}
	return p
}

// P730_2g: a face-down merged permanent with an instant or sorcery card
// stays face down, and is revealed.
var P730_2g = &Property{
	Rule:     "730.2g",
	Needs:    []model.Feature{model.FeatureMerge, model.FeatureFaceDown},
	Observes: []model.Observer{model.TurnedFaceUp},
	Draws:    genInstant,
	Classify: byStep(func(c *Case, i int) []string {
		p := faceUpWithInstant(c, i)
		if p == nil {
			return nil
		}
		top := defOf(c.Scenario, p.Components[0].Object)
		out := label(top != nil && top.InstantOrSorcery(), "instant-on-top")
		return append(out, label(slices.ContainsFunc(p.Components, func(comp model.Component) bool { return !comp.FaceDown }), "face-up-component-under")...)
	}),
	Cover: map[string]float64{"instant-on-top": 0.1, "face-up-component-under": 0.1},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := faceUpWithInstant(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			q, err := madeAs(c, i, p.ID, "turning it face up is impossible")
			if err != nil {
				return err
			}
			if was := stateAt(c.Trace, i).Permanent(p.ID); !q.Status.FaceDown || componentsView(q) != componentsView(was) {
				return problemOf("instant-in-face-down-turned-over", "%s, face-down merged permanent %s holds an instant or sorcery card but was turned over, from %s to %s (face down: %s): it is revealed and stays face down", after(c, i), q.ID, componentsWords(c.Scenario, was), componentsWords(c.Scenario, q), yesNo(q.Status.FaceDown))
			}
			if err := sameTriggers(c, i, model.TurnedFaceUp, q.ID, "it stayed face down"); err != nil {
				return err
			}
			if !c.Partial {
				if err := sameReveals(c, i, "its controller reveals it and leaves it face down"); err != nil {
					return err
				}
			}
		}
		return nil
	},
}

// sameReveals fails unless the engine's step i reveals at least the cards
// the rules' step reveals.
func sameReveals(c *Case, i int, why string) error {
	return sameRevealsOf(c, i, func(model.ObjectID) bool { return true }, why)
}

// sameRevealsOf is sameReveals for the cards judge selects.
func sameRevealsOf(c *Case, i int, judge func(model.ObjectID) bool, why string) error {
	shown := map[model.ObjectID]bool{}
	for _, e := range events(c.Trace.Steps[i], model.Reveal) {
		for _, id := range e.Revealed {
			shown[id] = true
		}
	}
	for _, e := range events(c.Reference.Steps[i], model.Reveal) {
		for _, id := range e.Revealed {
			if !shown[id] && judge(id) {
				return problemOf("not-revealed", "%s, %s was not revealed: %s", after(c, i), id, why)
			}
		}
	}
	return nil
}

// P730_2h: a flipped merged permanent uses its flip components'
// alternative characteristics.
var P730_2h = &Property{
	Rule:         "730.2h",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureFlip},
	Draws:        genFlip,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyState(rules, func(p *model.Permanent) bool { return flippedMergedFlip(s, p) && !isFlipCard(s, p.Components[0]) }), "flip-card-underneath")
	},
	Cover: map[string]float64{"flip-card-underneath": 0.2},
	Check: func(c *Case) error {
		return sameCharacteristics(c, "flipped merged permanent", func(*model.Permanent) bool { return true },
			func(r *model.Permanent) bool { return flippedMergedFlip(c.Scenario, r) })
	},
}

func isFlipCard(s *model.Scenario, comp model.Component) bool {
	d := defOf(s, comp.Object)
	return d != nil && d.Layout == model.LayoutFlip
}

// flippedMergedFlip reports a flipped, face-up merged permanent with a
// face-up flip card among its components.
func flippedMergedFlip(s *model.Scenario, p *model.Permanent) bool {
	return p.Status.Flipped && !p.Status.FaceDown && isMerged(s, p) &&
		slices.ContainsFunc(p.Components, func(comp model.Component) bool { return !comp.FaceDown && isFlipCard(s, comp) })
}

// facesByObject shows which face each component shows, by object.
func facesByObject(p *model.Permanent) string {
	var out []string
	for _, comp := range p.Components {
		out = append(out, fmt.Sprintf("%s:%s", comp.Object, orFront(comp.Face)))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func orFront(f model.FaceSide) model.FaceSide {
	if f == "" {
		return model.Front
	}
	return f
}

// hasDFC reports whether a permanent holds a double-faced component.
func hasDFC(s *model.Scenario, p *model.Permanent) bool {
	return slices.ContainsFunc(p.Components, func(comp model.Component) bool {
		d := defOf(s, comp.Object)
		return d != nil && d.Layout.DoubleFaced()
	})
}

// transformsMerged returns the merged permanent step i of the rules'
// trace transforms or converts, as it was, when the step turns one of its
// components over.
func transformsMerged(c *Case, i int) *model.Permanent {
	a := c.Scenario.Actions[i]
	if a.Type != model.Transform && a.Type != model.Convert {
		return nil
	}
	p, q := stateAt(c.Reference, i).Permanent(a.Object), c.Reference.Steps[i].State.Permanent(a.Object)
	if p == nil || q == nil || !isMerged(c.Scenario, p) || facesByObject(p) == facesByObject(q) {
		return nil
	}
	return p
}

// P730_2i: a merged permanent is not double-faced; transforming it turns
// each transformable double-faced component.
var P730_2i = &Property{
	Rule:  "730.2i",
	Needs: []model.Feature{model.FeatureMerge, model.FeatureDoubleFaced},
	Draws: genTransform,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		turns := byStep(func(c *Case, i int) []string { return label(transformsMerged(c, i) != nil, "transforms") })(s, rules)
		// Turned over once, or turned over and back.
		switch {
		case len(turns) == 1:
			return []string{"transforms-once"}
		case len(turns) > 1:
			return []string{"transforms-and-back"}
		}
		return nil
	},
	Cover: map[string]float64{"transforms-once": 0.15, "transforms-and-back": 0.15},
	Check: func(c *Case) error {
		err := counterparts(c, func(r *model.Permanent) bool { return isMerged(c.Scenario, r) && hasDFC(c.Scenario, r) }, func(k int, r, e *model.Permanent) error {
			if e.Derived != nil && (e.Derived.DoubleFaced || e.Derived.Transformed) {
				return problemOf("merged-reports-double-faced", "%s, merged permanent %s reports it %s and %s: a merged permanent is never a double-faced or transformed permanent", at(c, k), e.ID, flagWords(e.Derived.DoubleFaced, "double-faced"), flagWords(e.Derived.Transformed, "transformed"))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i := range c.Reference.Steps {
			p := transformsMerged(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			q, err := madeAs(c, i, p.ID, "transforming it")
			if err != nil {
				return err
			}
			if g, w := facesByObject(q), facesByObject(c.Reference.Steps[i].State.Permanent(p.ID)); g != w {
				return problemOf("merged-components-not-transformed", "%s, merged permanent %s shows faces %s, but the rules turn each component that can transform: %s", after(c, i), q.ID, g, w)
			}
		}
		return nil
	},
}

// unchangedView shows all of a permanent that an instruction that does
// nothing leaves as it was: components, their faces and how they are
// face down, status, counters and characteristics.
func unchangedView(p *model.Permanent) string {
	var how []string
	for _, comp := range p.Components {
		how = append(how, string(comp.FaceDownBy))
	}
	flags := ""
	if p.Derived != nil {
		flags = fmt.Sprintf("double_faced=%t transformed=%t", p.Derived.DoubleFaced, p.Derived.Transformed)
	}
	return fmt.Sprintf("%s by=%v %+v counters=%s %s %s", componentsView(p), how, p.Status, countersView(p.Counters), characteristics(p, true), flags)
}

// unchangedFields are the parts of a permanent unchangedView compares,
// named, to say in words which of them changed.
func unchangedFields(s *model.Scenario, p *model.Permanent) []field {
	out := []field{{"components", componentsWords(s, p)}}
	out = append(out, statusFields(p.Status)...)
	out = append(out, field{"counters", countersWords(p.Counters)})
	if p.Derived == nil {
		return append(out, field{"characteristics", "none"})
	}
	ch := p.Derived.Characteristics
	ch.Power, ch.Toughness = basePT(p)
	out = append(out, characteristicFields(ch)...)
	return append(out, field{"double-faced", yesNo(p.Derived.DoubleFaced)}, field{"transformed", yesNo(p.Derived.Transformed)})
}

// nothingHappens fails unless the engine's permanent id is after step i
// exactly as it was before: the rules say the step does nothing to it.
func nothingHappens(c *Case, i int, id model.ObjectID, why string) error {
	p, q := stateAt(c.Trace, i).Permanent(id), c.Trace.Steps[i].State.Permanent(id)
	if q == nil {
		return problemOf("found-object-gone", "%s, %s is gone: %s", after(c, i), id, why)
	}
	if g, w := unchangedView(q), unchangedView(p); g != w {
		return problemOf("found-object-changed", "%s, %s changed, %s: %s", after(c, i), id, changedWords(unchangedFields(c.Scenario, p), unchangedFields(c.Scenario, q)), why)
	}
	return nil
}

// P730_2j: a face-up merged permanent with a double-faced component can't
// be turned face down.
var P730_2j = changing(&Property{
	Rule:  "730.2j",
	Needs: []model.Feature{model.FeatureMerge, model.FeatureFaceDown},
	Draws: genDFCFaceDown,
	Classify: byStep(func(c *Case, i int) []string {
		p := mergedDFCFaceDown(c, i)
		if p == nil {
			return nil
		}
		top := defOf(c.Scenario, p.Components[0].Object)
		return []string{map[bool]string{true: "dfc-on-top", false: "dfc-underneath"}[top != nil && top.Layout.DoubleFaced()]}
	}),
	Cover: map[string]float64{ElseHappens: 0.1, "dfc-on-top": 0.01, "dfc-underneath": 0.03},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			p := mergedDFCFaceDown(c, i)
			if p == nil || !agreesAt(c, i, p.ID) {
				continue
			}
			if err := nothingHappens(c, i, p.ID, "a face-up merged permanent with a double-faced component can't be turned face down, and nothing about it changes"); err != nil {
				return err
			}
		}
		return nil
	},
})

// mergedDFCFaceDown returns the face-up merged permanent with a
// double-faced component that step i tells to turn face down, if any.
func mergedDFCFaceDown(c *Case, i int) *model.Permanent {
	a := c.Scenario.Actions[i]
	if a.Type != model.TurnFaceDown {
		return nil
	}
	p := stateAt(c.Reference, i).Permanent(a.Object)
	if p == nil || p.Status.FaceDown || !isMerged(c.Scenario, p) || !hasDFC(c.Scenario, p) {
		return nil
	}
	return p
}

// eachLeaving calls f for each permanent sel picks that leaves the
// battlefield in a step of the rules' trace, as it was before, when the
// engine had made it as the rules did.
func eachLeaving(c *Case, sel func(p *model.Permanent) bool, f func(i int, p *model.Permanent) error) error {
	for i := range c.Reference.Steps {
		for _, p := range leaves(c.Reference, i) {
			if !sel(p) || !agreesAt(c, i, p.ID) {
				continue
			}
			if err := f(i, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// toLibrary reports whether step i of a trace puts permanent id into a
// library, on top or at the bottom, by the move itself (no replacement
// effect sends it there).
func toLibrary(t *model.Trace, i int, id model.ObjectID) bool {
	if replaced(t, i, id) {
		return false
	}
	return slices.ContainsFunc(events(t.Steps[i], model.ZoneChange), func(e model.Event) bool {
		return e.Object == id && e.From == model.Battlefield && e.To == model.Library
	})
}

// byCommander is what a move's placement is "by" when a commander went
// to the command zone by its owner's choice (CR 903.9b-c).
const byCommander = "commander"

// wentWithTheRest fails unless, after step i, each card of permanent p
// is where the rules put it, when the move alone sends it there: the
// permanent goes to one zone and every card with it (CR 730.3, 712.21),
// to the top or the bottom of a library as to a graveyard. Where a
// replacement effect applies, the cards' destinations are 730.3d-e's to
// judge; whether a commander goes to the command zone is 903.9's, and
// where it goes otherwise, this rule's.
func wentWithTheRest(c *Case, i int, p *model.Permanent) error {
	if replaced(c.Reference, i, p.ID) {
		return nil
	}
	by := make(map[model.ObjectID]model.ObjectID, len(p.Components))
	for _, e := range events(c.Reference.Steps[i], model.ZoneChange) {
		if e.Object == p.ID {
			for _, m := range e.Moves {
				by[m.Object] = m.By
			}
		}
	}
	next, rules := placesOf(&c.Trace.Steps[i].State), placesOf(&c.Reference.Steps[i].State)
	for _, comp := range p.Components {
		o := c.Scenario.Object(comp.Object)
		if o == nil || o.Token {
			continue
		}
		gz, gp := next[comp.Object].zone, next[comp.Object].owner
		wz, wp := rules[comp.Object].zone, rules[comp.Object].owner
		if o.Commander && (by[comp.Object] == byCommander || gz == model.Command) {
			continue // whether it goes to the command zone: 903.9's
		}
		if wz == "" || gz == wz && gp == wp {
			continue
		}
		got := "nowhere"
		if gz != "" {
			got = fmt.Sprintf("%s's %s", gp, gz)
		}
		return problemOf("card-elsewhere", "%s, card %s of %s went to %s, but the rules put it into %s's %s: every card goes where the permanent goes", after(c, i), comp.Object, p.ID, got, wp, wz)
	}
	return nil
}

// leftAsOne checks that permanent p left the battlefield in the engine's
// step i as one permanent: it is gone, none of its components stays on
// the battlefield where the rules move it off, its leaving is one zone
// change of one object (when the engine reports zone changes), and "dies"
// triggers for it as the rules trigger it (CR 730.3, 712.21).
func leftAsOne(c *Case, i int, p *model.Permanent) error {
	next := &c.Trace.Steps[i].State
	if q := next.Permanent(p.ID); q != nil {
		return problemOf("still-on-battlefield", "%s, %s is still on the battlefield: the rules move it off, as one permanent", after(c, i), p.ID)
	}
	got, want := placesOf(next), placesOf(&c.Reference.Steps[i].State)
	for _, comp := range p.Components {
		if h := got[comp.Object].holder; h != nil && want[comp.Object].holder == nil {
			return problemOf("component-stayed", "%s, component %s of %s stayed on the battlefield as %s: the whole permanent leaves", after(c, i), comp.Object, p.ID, h.ID)
		}
	}
	if err := wentWithTheRest(c, i, p); err != nil {
		return err
	}
	if !c.Partial {
		var zc []model.Event
		for _, e := range events(c.Trace.Steps[i], model.ZoneChange) {
			if e.Object == p.ID && e.From == model.Battlefield {
				zc = append(zc, e)
			}
		}
		if len(zc) != 1 {
			return problemOf("leaving-reported-twice", "%s, %d zone changes report %s leaving the battlefield: one permanent leaves, once", after(c, i), len(zc), p.ID)
		}
		if zc[0].Objects != 1 {
			return problemOf("leaving-object-count", "%s, %s leaving counts as %d objects: it is one object", after(c, i), p.ID, zc[0].Objects)
		}
		// A melded permanent's cards are 712.21e's to count; a merged
		// permanent's, the mutate notes count as one card each.
		if want := cardCount(c.Scenario, p); !isMelded(c.Scenario, p) && zc[0].Cards != want {
			return problemOf("leaving-card-count", "%s, %s leaving counts as %d cards: each of its %d cards moved (mutate notes)", after(c, i), p.ID, zc[0].Cards, want)
		}
	}
	// The permanent and each of its cards: a trigger for any of them
	// that the rules don't have is as wrong as one missing.
	comps := make(map[model.ObjectID]bool, len(p.Components))
	for _, comp := range p.Components {
		comps[comp.Object] = true
	}
	ours := func(id model.ObjectID) bool { return id == p.ID || comps[id] }
	if c.Reports(model.CreatureDies) {
		if err := sameTriggersOf(c, i, model.CreatureDies, ours, fmt.Sprintf("%s is one creature", p.ID)); err != nil {
			return err
		}
	}
	if c.Reports(model.CardToGraveyard) {
		// But each of its cards put into a graveyard is a card put into a
		// graveyard. Where a card goes is the replacement rules' concern:
		// a card the engine put elsewhere than the rules is left to them.
		gotMoves, wantMoves := wentTo(c.Trace.Steps[i], p.ID), wentTo(c.Reference.Steps[i], p.ID)
		went := make(map[model.ObjectID]bool, len(p.Components)) // the cards judged: worked out once each
		for _, comp := range p.Components {
			id := comp.Object
			went[id] = got[id].where() == want[id].where() && (c.Partial || gotMoves[id] == wantMoves[id])
		}
		judged := func(id model.ObjectID) bool { return id == p.ID || went[id] }
		if err := sameTriggersOf(c, i, model.CardToGraveyard, judged, fmt.Sprintf("each card of %s put into a graveyard is a card put into a graveyard, and the permanent is no card", p.ID)); err != nil {
			return err
		}
	}
	return nil
}

// P730_3: a merged permanent leaving is one permanent leaving.
var P730_3 = &Property{
	Rule:     "730.3",
	Needs:    nil,
	Observes: []model.Observer{model.CreatureDies},
	Draws:    genLeave,
	Classify: byStep(func(c *Case, i int) []string {
		var out []string
		for _, p := range leaves(c.Reference, i) {
			if isMerged(c.Scenario, p) {
				out = append(out, "merged-leaves")
				out = append(out, label(len(triggered(c.Reference.Steps[i], model.CreatureDies, p.ID)) > 0, "merged-dies")...)
				out = append(out, label(toLibrary(c.Reference, i, p.ID), "merged-to-library")...)
			}
		}
		return out
	}),
	Cover: map[string]float64{"merged-leaves": 0.25, "merged-dies": 0.02, "merged-to-library": 0.05},
	Check: func(c *Case) error {
		return eachLeaving(c, func(p *model.Permanent) bool { return isMerged(c.Scenario, p) }, func(i int, p *model.Permanent) error {
			return leftAsOne(c, i, p)
		})
	},
}

// zoneOf returns where object id is in st: its zone and owner, or "" when
// it is on the battlefield, on the stack or nowhere.
func zoneOf(st *model.State, id model.ObjectID) (model.Zone, model.PlayerID) {
	for _, pl := range st.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			list, _ := pl.Zones.Get(z)
			if slices.Contains(list, id) {
				return z, pl.ID
			}
		}
	}
	return "", ""
}

// relativeOrder returns the cards of a permanent, in the order a zone of
// st holds them.
func relativeOrder(st *model.State, owner model.PlayerID, z model.Zone, cards []model.ObjectID) []model.ObjectID {
	pl := st.Player(owner)
	if pl == nil {
		return nil
	}
	list, _ := pl.Zones.Get(z)
	in := make(map[model.ObjectID]bool, len(cards))
	for _, id := range cards {
		in[id] = true
	}
	return slices.DeleteFunc(slices.Clone(list), func(id model.ObjectID) bool { return !in[id] })
}

// sameOrder fails unless the cards of p that the rules put together into
// one ordered zone (the given ones) are there in the rules' order in the
// engine's state after step i: what the owner, or the exiling player,
// chose.
func sameOrder(c *Case, i int, p *model.Permanent, zones []model.Zone, who string) error {
	rs, es := &c.Reference.Steps[i].State, &c.Trace.Steps[i].State
	groups := map[string][]model.ObjectID{}
	at := placesOf(rs)
	for _, comp := range p.Components {
		if z, owner := at[comp.Object].zone, at[comp.Object].owner; slices.Contains(zones, z) {
			key := string(owner) + "/" + string(z)
			groups[key] = append(groups[key], comp.Object)
		}
	}
	for key, cards := range groups {
		if len(cards) < 2 {
			continue
		}
		owner, z, _ := strings.Cut(key, "/")
		want := relativeOrder(rs, model.PlayerID(owner), model.Zone(z), cards)
		got := relativeOrder(es, model.PlayerID(owner), model.Zone(z), cards)
		if !slices.Equal(sorted(got), sorted(want)) {
			continue // other cards went there: where cards go is another rule's (730.3d-e, 712.21d)
		}
		if !slices.Equal(got, want) {
			return problemOf("cards-in-other-order", "%s, %s's cards are in %s's %s in the order %s, but %s chose %s", after(c, i), p.ID, owner, z, listWords(got), who, listWords(want))
		}
	}
	return nil
}

// ordered reports whether the rules put two or more cards of a permanent
// sel picks together into one of the zones.
func ordered(s *model.Scenario, rules *model.Trace, sel func(p *model.Permanent) bool, zones ...model.Zone) bool {
	return anyStep(rules, func(i int) bool {
		for _, p := range leaves(rules, i) {
			if !sel(p) {
				continue
			}
			n := map[string]int{}
			at := placesOf(&rules.Steps[i].State)
			for _, comp := range p.Components {
				if z, owner := at[comp.Object].zone, at[comp.Object].owner; slices.Contains(zones, z) {
					n[string(owner)+string(z)]++
					if n[string(owner)+string(z)] > 1 {
						return true
					}
				}
			}
		}
		return false
	})
}

// P730_3a: the owner orders a merged permanent's cards.
var P730_3a = &Property{
	Rule:         "730.3a",
	Needs:        []model.Feature{model.FeatureMerge},
	Draws:        genLeave,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(ordered(s, rules, func(p *model.Permanent) bool { return isMerged(s, p) }, model.Graveyard, model.Library), "ordered")
	},
	Cover: map[string]float64{"ordered": 0.1},
	Check: func(c *Case) error {
		return eachLeaving(c, func(p *model.Permanent) bool { return isMerged(c.Scenario, p) }, func(i int, p *model.Permanent) error {
			return sameOrder(c, i, p, []model.Zone{model.Graveyard, model.Library}, "their owner")
		})
	},
}

// P730_3b: the exiling player orders the cards' timestamps.
var P730_3b = &Property{
	Rule:         "730.3b",
	Needs:        []model.Feature{model.FeatureMerge},
	Draws:        genLeave,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(ordered(s, rules, func(p *model.Permanent) bool { return isMerged(s, p) }, model.Exile), "exile-ordered")
	},
	Cover: map[string]float64{"exile-ordered": 0.03},
	Check: func(c *Case) error {
		return eachLeaving(c, func(p *model.Permanent) bool { return isMerged(c.Scenario, p) }, func(i int, p *model.Permanent) error {
			return sameOrder(c, i, p, []model.Zone{model.Exile}, "the exiling player")
		})
	},
}

// finds calls f for each step of the rules' trace whose action finds what
// a permanent sel picks became when it left (return, exile_found), when
// the engine had those cards where the rules had them before the step.
func finds(c *Case, sel func(p *model.Permanent) bool, f func(i int, cards []model.ObjectID) error) error {
	for i, a := range c.Scenario.Actions {
		if a.Type != model.Return && a.Type != model.ExileFound {
			continue
		}
		gone := departed(c.Reference, i, a.Object)
		if gone == nil || !sel(gone) {
			continue
		}
		var cards []model.ObjectID
		for _, comp := range gone.Components {
			if !isToken(c.Scenario, comp.Object) {
				cards = append(cards, comp.Object)
			}
		}
		if !sameWhereabouts(stateAt(c.Trace, i), stateAt(c.Reference, i), cards) {
			continue
		}
		if err := f(i, cards); err != nil {
			return err
		}
	}
	return nil
}

// departed returns permanent id as it was when it last left the
// battlefield before step i of t, or nil.
func departed(t *model.Trace, i int, id model.ObjectID) *model.Permanent {
	var out *model.Permanent
	for k := range i {
		for _, p := range leaves(t, k) {
			if p.ID == id {
				out = p
			}
		}
	}
	return out
}

// whereabouts shows where each of the cards is in st: its zone, or the
// permanent it is part of.
func whereabouts(st *model.State, cards []model.ObjectID) string {
	at := placesOf(st)
	var out []string
	for _, id := range cards {
		out = append(out, fmt.Sprintf("%s in %s", id, at[id].where()))
	}
	return strings.Join(out, ", ")
}

// A place is where an object is in a state: a zone and the player whose
// it is, or the permanent it is a component of, or neither.
type place struct {
	zone   model.Zone
	owner  model.PlayerID
	holder *model.Permanent
}

// where says the place in words, the zone before the permanent.
func (pl place) where() string {
	switch {
	case pl.zone != "":
		return string(pl.owner) + "'s " + string(pl.zone)
	case pl.holder != nil:
		return "permanent " + string(pl.holder.ID)
	}
	return "nowhere"
}

// placesOf maps every object of st to its place, in one pass, so that a
// check asking about each component of a large permanent stays linear.
// Where an object is listed twice, the place zoneOf and holderOf find
// first is kept.
func placesOf(st *model.State) map[model.ObjectID]place {
	n := 0 // how many objects, about: sized up front, a large stack's map is not grown step by step
	for _, pl := range st.Players {
		n += len(pl.Zones.Library) + len(pl.Zones.Hand) + len(pl.Zones.Graveyard) + len(pl.Zones.Exile) + len(pl.Zones.Command)
	}
	for k := range st.Battlefield {
		n += len(st.Battlefield[k].Components)
	}
	at := make(map[model.ObjectID]place, n)
	for _, pl := range st.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			list, _ := pl.Zones.Get(z)
			for _, id := range list {
				if _, ok := at[id]; !ok {
					at[id] = place{zone: z, owner: pl.ID}
				}
			}
		}
	}
	for k := range st.Battlefield {
		for _, comp := range st.Battlefield[k].Components {
			pl := at[comp.Object]
			if pl.holder == nil {
				pl.holder = &st.Battlefield[k]
				at[comp.Object] = pl
			}
		}
	}
	return at
}

func sameWhereabouts(a, b *model.State, cards []model.ObjectID) bool {
	return whereabouts(a, cards) == whereabouts(b, cards)
}

// foundAll fails unless, after step i, each of the cards is where the
// rules put it: the effect found every one of them.
func foundAll(c *Case, i int, cards []model.ObjectID) error {
	if g, w := whereabouts(&c.Trace.Steps[i].State, cards), whereabouts(&c.Reference.Steps[i].State, cards); g != w {
		return problemOf("found-not-every-card", "%s, the engine left %s, but the effect finds every card the permanent became: %s", after(c, i), g, w)
	}
	return nil
}

// P730_3c: an effect finds every card a merged permanent became.
var P730_3c = &Property{
	Rule:         "730.3c",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureLinked},
	Draws:        genFind,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(findsAny(s, rules, func(p *model.Permanent) bool { return isMerged(s, p) }), "finds")
	},
	Cover: map[string]float64{"finds": 0.08},
	Check: func(c *Case) error {
		return finds(c, func(p *model.Permanent) bool { return isMerged(c.Scenario, p) }, func(i int, cards []model.ObjectID) error {
			return foundAll(c, i, cards)
		})
	},
}

// findsAny reports whether an effect of the rules' trace finds the cards
// of a permanent sel picks that left, with two or more cards to find.
func findsAny(s *model.Scenario, rules *model.Trace, sel func(p *model.Permanent) bool) bool {
	c := &Case{Scenario: s, Reference: rules, Trace: rules}
	n := 0
	_ = finds(c, sel, func(i int, cards []model.ObjectID) error {
		if len(cards) > 1 {
			n++
		}
		return nil
	})
	return n > 0
}

// replaced reports whether a permanent's leaving in step i of the rules'
// trace had a replacement effect applied to some component.
func replaced(t *model.Trace, i int, id model.ObjectID) bool {
	for _, e := range events(t.Steps[i], model.ZoneChange) {
		if e.Object == id && slices.ContainsFunc(e.Moves, func(m model.Placement) bool { return m.By != "" && m.By != byCommander }) {
			return true
		}
	}
	return false
}

// cardOnlyReplaced reports whether p's leaving in step i of the rules'
// trace was replaced by an effect that speaks only of "a card" (Leyline of
// the Void, Wheel of Sun and Moon; Rest in Peace speaks of tokens too),
// as its source stood before the step: with token components, that is
// 730.3e's case, and 730.3d judges the others.
func cardOnlyReplaced(c *Case, i int, p *model.Permanent) bool {
	before := stateAt(c.Reference, i)
	for _, e := range events(c.Reference.Steps[i], model.ZoneChange) {
		if e.Object != p.ID {
			continue
		}
		for _, m := range e.Moves {
			if m.By == "" || m.By == byCommander {
				continue
			}
			if src := before.Permanent(m.By); src != nil && src.Derived != nil &&
				slices.ContainsFunc(src.Derived.Characteristics.Abilities, model.CardOnlyReplacement) {
				return true
			}
		}
	}
	return false
}

// withTokens reports whether some component of p is a token.
func withTokens(s *model.Scenario, p *model.Permanent) bool {
	return slices.ContainsFunc(p.Components, func(comp model.Component) bool { return isToken(s, comp.Object) })
}

// sameDestinations fails unless each card of p is, after step i, in the
// zone the rules put it in, whatever its order there: what one
// replacement effect applied to every component does.
func sameDestinations(c *Case, i int, p *model.Permanent, why string) error {
	var cards []model.ObjectID
	for _, comp := range p.Components {
		if !isToken(c.Scenario, comp.Object) {
			cards = append(cards, comp.Object)
		}
	}
	if err := destinations(c, i, p.ID, cards, why); err != nil || c.Partial {
		return err
	}
	// Tokens cease to exist where they went; the zone change says where.
	// (The commander card's move is judged above, or by 903.9.)
	commander := func(obj model.ObjectID) bool { return obj == commanderCard(c.Scenario, p) }
	if g, w := movesOf(c.Trace.Steps[i], p.ID, commander), movesOf(c.Reference.Steps[i], p.ID, commander); g != w {
		return problemOf(elsewhere, "%s, %s's components moved %s, but the rules move them %s: %s", after(c, i), p.ID, g, w, why)
	}
	return nil
}

// elsewhere is the class of a component that a replacement effect (or
// its absence) sent elsewhere than the rules do, card or token alike.
const elsewhere = "moved-elsewhere-than-replaced"

// wentTo maps each component of permanent id's leaving in step st to the
// zone it went to.
func wentTo(st model.Step, id model.ObjectID) map[model.ObjectID]model.Zone {
	var to map[model.ObjectID]model.Zone // nil, and read as empty, when it did not leave
	for _, e := range events(st, model.ZoneChange) {
		if e.Object == id && e.From == model.Battlefield {
			if to == nil {
				to = make(map[model.ObjectID]model.Zone, len(e.Moves))
			}
			for _, m := range e.Moves {
				if _, ok := to[m.Object]; !ok {
					to[m.Object] = m.To
				}
			}
		}
	}
	return to
}

// moveOf returns the zone a step's zone change of permanent id sent its
// component obj to, or "".
func moveOf(st model.Step, id, obj model.ObjectID) model.Zone {
	for _, e := range events(st, model.ZoneChange) {
		if e.Object == id && e.From == model.Battlefield {
			for _, m := range e.Moves {
				if m.Object == obj {
					return m.To
				}
			}
		}
	}
	return ""
}

// movesOf shows where a step's zone changes of permanent id sent each
// component, sorted.
func movesOf(st model.Step, id model.ObjectID, skip func(model.ObjectID) bool) string {
	var out []string
	for _, e := range events(st, model.ZoneChange) {
		if e.Object != id || e.From != model.Battlefield {
			continue
		}
		for _, m := range e.Moves {
			if !skip(m.Object) {
				out = append(out, fmt.Sprintf("%s to %s", m.Object, m.To))
			}
		}
	}
	slices.Sort(out)
	return listWords(out)
}

func destinations(c *Case, i int, id model.ObjectID, cards []model.ObjectID, why string) error {
	// Whether a commander goes to the command zone is 903.9's to judge.
	cards = slices.DeleteFunc(slices.Clone(cards), func(card model.ObjectID) bool {
		o := c.Scenario.Object(card)
		if o == nil || !o.Commander {
			return false
		}
		g, _ := zoneOf(&c.Trace.Steps[i].State, card)
		w, _ := zoneOf(&c.Reference.Steps[i].State, card)
		return g == model.Command || w == model.Command
	})
	if g, w := whereabouts(&c.Trace.Steps[i].State, cards), whereabouts(&c.Reference.Steps[i].State, cards); g != w {
		return problemOf(elsewhere, "%s, %s's cards went to %s, but the rules put them in %s: %s", after(c, i), id, g, w, why)
	}
	return nil
}

// P730_3d: one replacement effect applies to every component.
var P730_3d = &Property{
	Rule:         "730.3d",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureReplacement},
	Draws:        genLeaveReplace,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		return label(anyStep(rules, func(i int) bool {
			return slices.ContainsFunc(leaves(rules, i), func(p *model.Permanent) bool {
				return isMerged(s, p) && replaced(rules, i, p.ID) && !(withTokens(s, p) && cardOnlyReplaced(c, i, p))
			})
		}), "replacement")
	},
	Cover: map[string]float64{"replacement": 0.1},
	Check: func(c *Case) error {
		return eachLeaving(c, func(p *model.Permanent) bool { return isMerged(c.Scenario, p) }, func(i int, p *model.Permanent) error {
			if !replaced(c.Reference, i, p.ID) || withTokens(c.Scenario, p) && cardOnlyReplaced(c, i, p) {
				return nil // an effect on "a card" with tokens about is 730.3e's
			}
			return sameDestinations(c, i, p, "the replacement effect applied to one component applies to all of them")
		})
	},
}

// P730_3e: a card-only replacement effect and token components.
var P730_3e = &Property{
	Rule:         "730.3e",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureReplacement},
	Draws:        genReplace,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules}
		return label(anyStep(rules, func(i int) bool {
			return slices.ContainsFunc(leaves(rules, i), func(p *model.Permanent) bool {
				return isMerged(s, p) && replaced(rules, i, p.ID) && withTokens(s, p) && cardOnlyReplaced(c, i, p)
			})
		}), "replacement-with-token")
	},
	Cover: map[string]float64{"replacement-with-token": 0.05},
	Check: func(c *Case) error {
		return eachLeaving(c, func(p *model.Permanent) bool {
			return isMerged(c.Scenario, p) && withTokens(c.Scenario, p)
		}, func(i int, p *model.Permanent) error {
			if !replaced(c.Reference, i, p.ID) || !cardOnlyReplaced(c, i, p) {
				return nil // an effect on cards and tokens alike is 730.3d's
			}
			return sameDestinations(c, i, p, "a replacement effect on cards applies to a merged permanent with token components as the rules say")
		})
	},
}
