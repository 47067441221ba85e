package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// grew returns the permanents present before and after step i that gained
// components during it: the permanents something merged with.
func grew(c *Case, i int) [][2]*model.Permanent {
	var out [][2]*model.Permanent
	prev, next := before(c.Trace, i), &c.Trace.Steps[i].State
	for k := range next.Battlefield {
		q := &next.Battlefield[k]
		if p := prev.Permanent(q.ID); p != nil && len(q.Components) > len(p.Components) {
			out = append(out, [2]*model.Permanent{p, q})
		}
	}
	return out
}

// merging returns the card a merge or mutate-resolve step merges and the
// permanent it targets, or "" if the step merges nothing.
func merging(c *Case, i int) (card, target model.ObjectID) {
	a := action(c, i)
	switch a.Type {
	case model.Merge:
		return a.Object, a.Target
	case model.Resolve:
		st := before(c.Trace, i)
		if n := len(st.Stack); n > 0 && st.Stack[n-1].Target != "" {
			return st.Stack[n-1].Object, st.Stack[n-1].Target
		}
	}
	return "", ""
}

// P730_2: merging keeps one permanent, the object going on top or under.
var P730_2 = &Property{
	Rule:  "730.2",
	Needs: []model.Feature{model.FeatureMerge, model.FeatureMutate},
	Gen:   genMutate,
	Classify: func(s *model.Scenario) []string {
		return append(label(has(s, model.CastMutate), "mutate"), label(has(s, model.Merge), "bare-merge")...)
	},
	Cover: map[string]float64{"mutate": 0.1, "bare-merge": 0.05},
	Check: func(c *Case) error {
		for i := range c.Trace.Steps {
			card, target := merging(c, i)
			if card == "" {
				continue
			}
			prev, next := before(c.Trace, i), &c.Trace.Steps[i].State
			var holder *model.Permanent
			for k := range next.Battlefield {
				if slices.Contains(ids(&next.Battlefield[k]), card) {
					holder = &next.Battlefield[k]
				}
			}
			old := prev.Permanent(target)
			if holder == nil || !legalTarget(c, i, old) {
				continue // the target was illegal: the spell entered on its own
			}
			if holder.ID != target {
				return problem("after action %d, %s merged into permanent %s, not into its target %s: a merged permanent is the permanent it merged with", c.Trace.Steps[i].Action, card, holder.ID, target)
			}
			if len(next.Battlefield) != len(prev.Battlefield) {
				return problem("after action %d, the battlefield went from %d to %d permanents: merging makes no new permanent", c.Trace.Steps[i].Action, len(prev.Battlefield), len(next.Battlefield))
			}
			top := append([]model.ObjectID{card}, ids(old)...)
			bottom := append(ids(old), card)
			if got := ids(holder); !slices.Equal(got, top) && !slices.Equal(got, bottom) {
				return problem("after action %d, %s has components %v: %s must go on top of or under %v", c.Trace.Steps[i].Action, target, got, card, ids(old))
			}
		}
		return nil
	},
}

// characteristics lists each permanent's characteristics other than
// abilities, for comparison with the reference.
func characteristics(st model.State) any {
	var out []string
	for _, p := range st.Battlefield {
		if p.Derived == nil {
			out = append(out, fmt.Sprintf("%s: none", p.ID))
			continue
		}
		ch := p.Derived.Characteristics
		out = append(out, fmt.Sprintf("%s: %q mv=%d colors=%v types=%v subtypes=%v supertypes=%v p/t=%s/%s",
			p.ID, ch.Name, ch.ManaValue, ch.Colors, ch.Types, ch.Subtypes, ch.Supertypes, fmtInt(ch.Power), fmtInt(ch.Toughness)))
	}
	return strings.Join(out, "; ")
}

func fmtInt(p *int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// P730_2a: a merged permanent has the topmost component's characteristics.
var P730_2a = &Property{
	Rule:         "730.2a",
	Needs:        []model.Feature{model.FeatureMerge},
	Gen:          genStacks,
	Differential: true,
	Classify: func(s *model.Scenario) []string {
		return label(slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return len(p.Components) > 1 }), "merged")
	},
	Cover: map[string]float64{"merged": 0.3},
	Check: func(c *Case) error { return sameAsReference(c, "the battlefield's characteristics", characteristics) },
}

// P730_2b: merging is not entering the battlefield.
var P730_2b = &Property{
	Rule:     "730.2b",
	Needs:    []model.Feature{model.FeatureMerge, model.FeatureMutate},
	Gen:      genMutate,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.Resolve, model.Merge), "merge") },
	Cover:    map[string]float64{"merge": 0.2},
	Check: func(c *Case) error {
		for i := range c.Trace.Steps {
			for _, pq := range grew(c, i) {
				if n := triggers(c.Trace.Steps[i], model.CreatureEnters, pq[1].ID); n > 0 {
					return problem("after action %d, %s gained a component and \"whenever a creature enters\" triggered %d times for it: merging is not entering the battlefield", c.Trace.Steps[i].Action, pq[1].ID, n)
				}
			}
		}
		return nil
	},
}

// P730_2c: a merged permanent is the same object.
var P730_2c = &Property{
	Rule:     "730.2c",
	Needs:    []model.Feature{model.FeatureMerge, model.FeatureMutate},
	Gen:      genMutate,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.Resolve, model.Merge), "merge") },
	Cover:    map[string]float64{"merge": 0.2},
	Check: func(c *Case) error {
		for i := range c.Trace.Steps {
			for _, pq := range grew(c, i) {
				p, q := pq[0], pq[1]
				at := fmt.Sprintf("after action %d, merged permanent %s", c.Trace.Steps[i].Action, q.ID)
				switch {
				case p.Controller != q.Controller:
					return problem("%s changed controller from %s to %s: it is the same object", at, p.Controller, q.Controller)
				case fmt.Sprint(p.Counters) != fmt.Sprint(q.Counters):
					return problem("%s has counters %v, had %v: it is the same object and keeps them", at, q.Counters, p.Counters)
				case fmt.Sprint(p.Effects) != fmt.Sprint(q.Effects):
					return problem("%s is under effects %v, was under %v: effects that applied to it still do", at, q.Effects, p.Effects)
				case p.ControlledSinceTurnStart != q.ControlledSinceTurnStart:
					return problem("%s reports controlled_since_turn_start=%t, was %t: it hasn't just come under its controller's control", at, q.ControlledSinceTurnStart, p.ControlledSinceTurnStart)
				}
			}
		}
		return nil
	},
}

// P730_2d: a merged permanent is a token only if its topmost component is.
var P730_2d = &Property{
	Rule:  "730.2d",
	Needs: []model.Feature{model.FeatureMerge},
	Gen:   genTokens,
	Classify: func(s *model.Scenario) []string {
		var out []string
		for _, p := range s.Start.Battlefield {
			if len(p.Components) < 2 {
				continue
			}
			top := isToken(s, p.Components[0].Object)
			some := slices.ContainsFunc(p.Components[1:], func(c model.Component) bool { return isToken(s, c.Object) })
			out = append(out, label(top, "token-on-top")...)
			out = append(out, label(!top && some, "card-on-token")...)
		}
		return out
	},
	Cover: map[string]float64{"token-on-top": 0.1, "card-on-token": 0.1},
	Check: func(c *Case) error {
		return eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			d, err := derived(p)
			if err != nil {
				return err
			}
			top := p.Components[0].Object
			want := isToken(c.Scenario, top)
			if d.Token != want {
				kind := map[bool]string{true: "a token", false: "a card"}[want]
				return problem("%s, %s's topmost component %s is %s, but it reports token=%t", where, p.ID, top, kind, d.Token)
			}
			return nil
		})
	},
}

// P730_2e: the topmost component decides face-down status, and becoming
// face up by merging is not turning face up.
var P730_2e = &Property{
	Rule:  "730.2e",
	Needs: []model.Feature{model.FeatureMerge, model.FeatureMutate, model.FeatureFaceDown},
	Gen:   genMergeFaceDown,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.CastMutate), "merge-onto-face-down")
	},
	Cover: map[string]float64{"merge-onto-face-down": 0.15},
	Check: func(c *Case) error {
		err := eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			if top := p.Components[0]; p.Status.FaceDown != top.FaceDown {
				return problem("%s, %s reports face_down=%t, but its topmost component %s has face_down=%t", where, p.ID, p.Status.FaceDown, top.Object, top.FaceDown)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i := range c.Trace.Steps {
			for _, pq := range grew(c, i) {
				if pq[0].Status.FaceDown && !pq[1].Status.FaceDown && triggers(c.Trace.Steps[i], model.TurnedFaceUp, pq[1].ID) > 0 {
					return problem("after action %d, %s became face up by merging and \"whenever a permanent is turned face up\" triggered: it was not turned face up", c.Trace.Steps[i].Action, pq[1].ID)
				}
			}
		}
		return nil
	},
}

// P730_2f: turning a merged permanent turns each component.
var P730_2f = &Property{
	Rule:  "730.2f",
	Needs: []model.Feature{model.FeatureMerge, model.FeatureFaceDown},
	Gen:   genTurn,
	Classify: func(s *model.Scenario) []string {
		return append(label(has(s, model.TurnFaceDown), "down"), label(has(s, model.TurnFaceUp), "up")...)
	},
	Cover: map[string]float64{"down": 0.1, "up": 0.1},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.TurnFaceDown, model.TurnFaceUp) {
			_, p, q := acted(c, i)
			if p == nil || q == nil || p.Status.FaceDown == q.Status.FaceDown || len(q.Components) < 2 {
				continue
			}
			for _, comp := range q.Components {
				if comp.FaceDown != q.Status.FaceDown {
					return problem("after action %d, %s was turned face %s but its component %s has face_down=%t: each component turns", c.Trace.Steps[i].Action, q.ID, map[bool]string{true: "down", false: "up"}[q.Status.FaceDown], comp.Object, comp.FaceDown)
				}
			}
		}
		return nil
	},
}

// hasInstant reports whether a permanent holds an instant or sorcery card.
func hasInstant(s *model.Scenario, p *model.Permanent) bool {
	return slices.ContainsFunc(p.Components, func(comp model.Component) bool {
		d := defOf(s, comp.Object)
		return d != nil && !isToken(s, comp.Object) && d.InstantOrSorcery()
	})
}

// P730_2g: a face-down merged permanent with an instant or sorcery card
// stays face down.
var P730_2g = &Property{
	Rule:  "730.2g",
	Needs: []model.Feature{model.FeatureMerge, model.FeatureFaceDown},
	Gen:   genInstant,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.TurnFaceUp) && len(s.Start.Battlefield) > 0 && hasInstant(s, &s.Start.Battlefield[0]), "face-down-with-instant")
	},
	Cover: map[string]float64{"face-down-with-instant": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.TurnFaceUp) {
			_, p, q := acted(c, i)
			if p == nil || q == nil || !p.Status.FaceDown || !merged(p) || !hasInstant(c.Scenario, p) {
				continue
			}
			if !q.Status.FaceDown {
				return problem("after action %d, face-down merged permanent %s holds an instant or sorcery card but was turned face up: it is revealed and stays face down", c.Trace.Steps[i].Action, q.ID)
			}
			if n := triggers(c.Trace.Steps[i], model.TurnedFaceUp, q.ID); n > 0 {
				return problem("after action %d, \"whenever a permanent is turned face up\" triggered for %s, which stayed face down", c.Trace.Steps[i].Action, q.ID)
			}
		}
		return nil
	},
}

// flippedView lists the characteristics of flipped permanents.
func flippedView(st model.State) any {
	var out []string
	for _, p := range st.Battlefield {
		if !p.Status.Flipped || p.Derived == nil {
			continue
		}
		ch := p.Derived.Characteristics
		out = append(out, fmt.Sprintf("%s: %q %s/%s %v", p.ID, ch.Name, fmtInt(ch.Power), fmtInt(ch.Toughness), ch.Abilities))
	}
	return strings.Join(out, "; ")
}

// P730_2h: a flipped merged permanent uses its flip components'
// alternative characteristics.
var P730_2h = &Property{
	Rule:         "730.2h",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureFlip},
	Gen:          genFlip,
	Differential: true,
	Classify: func(s *model.Scenario) []string {
		p := s.Start.Battlefield[0]
		under := slices.ContainsFunc(p.Components[1:], func(comp model.Component) bool {
			d := defOf(s, comp.Object)
			return d != nil && d.Layout == model.LayoutFlip
		})
		return label(under, "flip-card-underneath")
	},
	Cover: map[string]float64{"flip-card-underneath": 0.2},
	Check: func(c *Case) error { return sameAsReference(c, "the flipped permanents' characteristics", flippedView) },
}

// facesView lists every permanent's components with their faces.
func facesView(st model.State) any {
	var out []string
	for _, p := range st.Battlefield {
		var cs []string
		for _, comp := range p.Components {
			cs = append(cs, fmt.Sprintf("%s:%s", comp.Object, orFront(comp.Face)))
		}
		out = append(out, fmt.Sprintf("%s[%s]", p.ID, strings.Join(cs, " ")))
	}
	return strings.Join(out, " ")
}

func orFront(f model.FaceSide) model.FaceSide {
	if f == "" {
		return model.Front
	}
	return f
}

// P730_2i: a merged permanent is not double-faced; transforming it turns
// each transformable double-faced component.
var P730_2i = &Property{
	Rule:         "730.2i",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureDoubleFaced},
	Gen:          genTransform,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(has(s, model.Transform, model.Convert), "transform") },
	Cover:        map[string]float64{"transform": 0.5},
	Check: func(c *Case) error {
		err := eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			if !merged(p) || p.Derived == nil {
				return nil
			}
			if p.Derived.DoubleFaced || p.Derived.Transformed {
				return problem("%s, merged permanent %s reports double_faced=%t transformed=%t: a merged permanent is never a double-faced or transformed permanent", where, p.ID, p.Derived.DoubleFaced, p.Derived.Transformed)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return sameAsReference(c, "the components' faces", facesView)
	},
}

// hasDFC reports whether a permanent holds a double-faced component.
func hasDFC(s *model.Scenario, p *model.Permanent) bool {
	return slices.ContainsFunc(p.Components, func(comp model.Component) bool {
		d := defOf(s, comp.Object)
		return d != nil && d.Layout.DoubleFaced()
	})
}

// P730_2j: a face-up merged permanent with a double-faced component can't
// be turned face down.
var P730_2j = &Property{
	Rule:     "730.2j",
	Needs:    []model.Feature{model.FeatureMerge, model.FeatureFaceDown, model.FeatureDoubleFaced},
	Gen:      genDFCFaceDown,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.TurnFaceDown), "turn-face-down") },
	Cover:    map[string]float64{"turn-face-down": 0.5},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.TurnFaceDown) {
			a, p, q := acted(c, i)
			if p == nil || p.Status.FaceDown || !merged(p) || !hasDFC(c.Scenario, p) {
				continue
			}
			if !unchanged(p, q) {
				return problem("after action %d, face-up merged permanent %s with a double-faced component changed when turned face down: nothing happens", c.Trace.Steps[i].Action, a.Object)
			}
		}
		return nil
	},
}

// leaving calls f for each permanent that left the battlefield in a step,
// with the step and the permanent as it was before.
func leaving(c *Case, f func(i int, p *model.Permanent) error) error {
	for i := range c.Trace.Steps {
		prev, next := before(c.Trace, i), &c.Trace.Steps[i].State
		for k := range prev.Battlefield {
			p := &prev.Battlefield[k]
			if next.Permanent(p.ID) == nil {
				if err := f(i, p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// oneObjectLeaves checks CR 730.3 and 712.21 for permanent p leaving in step i.
func oneObjectLeaves(c *Case, i int, p *model.Permanent) error {
	st := c.Trace.Steps[i]
	var zc []model.Event
	for _, e := range events(st, model.ZoneChange) {
		if e.Object == p.ID && e.From == model.Battlefield {
			zc = append(zc, e)
		}
	}
	at := fmt.Sprintf("after action %d", st.Action)
	if len(zc) != 1 {
		return problem("%s, %d zone changes report %s leaving the battlefield: one permanent leaves, once", at, len(zc), p.ID)
	}
	if zc[0].Objects != 1 {
		return problem("%s, %s leaving counts as %d objects: it is one object", at, p.ID, zc[0].Objects)
	}
	if n := triggers(st, model.CreatureDies, p.ID); n > 1 {
		return problem("%s, \"whenever a creature dies\" triggered %d times for %s: one creature died", at, n, p.ID)
	}
	return nil
}

// P730_3: a merged permanent leaving is one permanent leaving.
var P730_3 = &Property{
	Rule:     "730.3",
	Needs:    []model.Feature{model.FeatureMerge},
	Gen:      genLeave,
	Classify: func(s *model.Scenario) []string { return label(has(s, model.Move), "merged-leaves") },
	Cover:    map[string]float64{"merged-leaves": 0.5},
	Check: func(c *Case) error {
		return leaving(c, func(i int, p *model.Permanent) error {
			if !merged(p) {
				return nil
			}
			return oneObjectLeaves(c, i, p)
		})
	},
}

// zonesView lists every player's graveyard and library.
func zonesView(zones ...model.Zone) func(model.State) any {
	return func(st model.State) any {
		var out []string
		for _, pl := range st.Players {
			for _, z := range zones {
				list, _ := pl.Zones.Get(z)
				out = append(out, fmt.Sprintf("%s's %s %v", pl.ID, z, list))
			}
		}
		return strings.Join(out, ", ")
	}
}

func ordersInto(s *model.Scenario, exile bool) bool {
	return slices.ContainsFunc(s.Actions, func(a model.Action) bool {
		return a.Type == model.Move && len(a.Choices.Order) > 1 && (a.To == model.Exile) == exile
	})
}

// P730_3a: the owner orders a merged permanent's cards.
var P730_3a = &Property{
	Rule:         "730.3a",
	Needs:        []model.Feature{model.FeatureMerge},
	Gen:          genLeave,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(ordersInto(s, false), "ordered") },
	Cover:        map[string]float64{"ordered": 0.1},
	Check: func(c *Case) error {
		return sameAsReference(c, "the graveyards and libraries", zonesView(model.Graveyard, model.Library))
	},
}

// P730_3b: the exiling player orders the cards' timestamps.
var P730_3b = &Property{
	Rule:         "730.3b",
	Needs:        []model.Feature{model.FeatureMerge},
	Gen:          genLeave,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(ordersInto(s, true), "exile-ordered") },
	Cover:        map[string]float64{"exile-ordered": 0.03},
	Check:        func(c *Case) error { return sameAsReference(c, "exile, in timestamp order,", zonesView(model.Exile)) },
}

// battlefieldView lists the permanents by id with their components.
func battlefieldView(st model.State) any {
	var out []string
	for _, p := range st.Battlefield {
		out = append(out, fmt.Sprintf("%s%v", p.ID, ids(&p)))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// P730_3c: an effect finds every card a merged permanent became.
var P730_3c = &Property{
	Rule:         "730.3c",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureLinked},
	Gen:          genFind,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(has(s, model.Return, model.ExileFound), "finds") },
	Cover:        map[string]float64{"finds": 0.15},
	Check:        sameFoundObjects,
}

// movesView lists each step's zone changes off the battlefield, with where
// each component went and by what.
func movesView(c *Case, t *model.Trace) []string {
	var out []string
	for _, st := range t.Steps {
		var ms []string
		for _, e := range events(st, model.ZoneChange) {
			if e.From != model.Battlefield {
				continue
			}
			for _, m := range e.Moves {
				ms = append(ms, fmt.Sprintf("%s->%s(by %s)", m.Object, m.To, m.By))
			}
		}
		slices.Sort(ms)
		out = append(out, strings.Join(ms, " "))
	}
	return out
}

func sameMoves(c *Case) error {
	got, want := movesView(c, c.Trace), movesView(c, c.Reference)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return problem("after action %d, the components went %q, but the rules send them %q", c.Trace.Steps[i].Action, got[i], want[i])
		}
	}
	return nil
}

func hasReplacementSource(s *model.Scenario) bool {
	for _, o := range s.Objects {
		switch o.Def {
		case "Leyline of the Void", "Wheel of Sun and Moon", "Rest in Peace":
			return true
		}
	}
	return false
}

// P730_3d: one replacement effect applies to every component.
var P730_3d = &Property{
	Rule:         "730.3d",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureReplacement},
	Gen:          genLeave,
	Differential: true,
	Classify: func(s *model.Scenario) []string {
		return label(hasReplacementSource(s) && has(s, model.Move), "replacement")
	},
	Cover: map[string]float64{"replacement": 0.2},
	Check: sameMoves,
}

// P730_3e: a card-only replacement effect and token components.
var P730_3e = &Property{
	Rule:         "730.3e",
	Needs:        []model.Feature{model.FeatureMerge, model.FeatureReplacement},
	Gen:          genReplace,
	Differential: true,
	Classify: func(s *model.Scenario) []string {
		return label(hasReplacementSource(s) && has(s, model.Move), "replacement-with-token")
	},
	Cover: map[string]float64{"replacement-with-token": 0.2},
	Check: sameMoves,
}

// legalTarget reports whether permanent p, as the engine reported it before
// step i, is still a legal target for what merges in that step: a bare
// merge's target needs only be there; a mutating spell's must be a
// non-Human creature (CR 702.140a-b).
func legalTarget(c *Case, i int, p *model.Permanent) bool {
	if p == nil || p.Status.PhasedOut {
		return false
	}
	if action(c, i).Type == model.Merge {
		return true
	}
	if p.Derived == nil {
		return false
	}
	ch := p.Derived.Characteristics
	return slices.Contains(ch.Types, "creature") && !slices.Contains(ch.Subtypes, "Human")
}
