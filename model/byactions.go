package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// BuildByActions rewrites s for an engine that can't start from merged
// stacks: each merged permanent of the starting state becomes its base
// card or token alone, with the other components in their owner's hand,
// cast for their mutate cost onto it, on top or underneath, by actions put
// before the scenario's own. The later actions' references to permanents
// that enter (OBJECT@INDEX) are renumbered to match. It reports false when
// a stack can't be built that way: a face-down or back-face component, a
// token that is not the base, two components without mutate, or several
// owners. A face-down component can be the base (a face-down permanent is
// a creature without subtypes, CR 708.2a, so a legal target of a mutating
// spell, 702.140a), and only the base. The expectations are kept, moved
// past the casts. The caller should check that the result plays (a Human base is not a legal
// target, for instance).
func BuildByActions(s *Scenario) (*Scenario, bool) {
	var pre []Action
	out := *s
	out.Start.Players = append([]Player(nil), s.Start.Players...)
	for i := range out.Start.Players {
		out.Start.Players[i].Zones.Hand = append([]ObjectID(nil), s.Start.Players[i].Zones.Hand...)
	}
	out.Start.Battlefield = append([]Permanent(nil), s.Start.Battlefield...)
	for i := range out.Start.Battlefield {
		p := &out.Start.Battlefield[i]
		if len(p.Components) < 2 {
			continue
		}
		if !p.Mutated {
			return nil, false
		}
		base := -1
		for k, c := range p.Components {
			o := s.Object(c.Object)
			d := s.Def(o.Def)
			if c.Face == Back || d == nil || o.Owner != s.Object(p.Components[0].Object).Owner {
				return nil, false
			}
			if c.FaceDown || o.Token || !d.Front.HasAbility(Mutate) {
				if base >= 0 {
					return nil, false
				}
				base = k
			}
		}
		if base < 0 {
			base = len(p.Components) - 1
		}
		owner := s.Object(p.Components[0].Object).Owner
		hand := out.Start.Player(owner)
		comps := p.Components
		for k := base - 1; k >= 0; k-- {
			hand.Zones.Hand = append(hand.Zones.Hand, comps[k].Object)
			pre = append(pre, Action{Type: CastMutate, Object: comps[k].Object, Target: p.ID}, Action{Type: Resolve, Choices: Choices{Position: Top}})
		}
		for k := base + 1; k < len(comps); k++ {
			hand.Zones.Hand = append(hand.Zones.Hand, comps[k].Object)
			pre = append(pre, Action{Type: CastMutate, Object: comps[k].Object, Target: p.ID}, Action{Type: Resolve, Choices: Choices{Position: Bottom}})
		}
		q := *p
		q.Components = []Component{comps[base]}
		q.Mutated = false
		q.Status.FaceDown = comps[base].FaceDown // the base alone is its own top
		*p = q
	}
	if len(pre) == 0 {
		return s, true
	}
	shift := func(id ObjectID) ObjectID {
		obj, at, ok := strings.Cut(string(id), "@")
		if !ok {
			return id
		}
		n, err := strconv.Atoi(at)
		if err != nil {
			return id
		}
		return ObjectID(fmt.Sprintf("%s@%d", obj, n+len(pre)))
	}
	out.Actions = append([]Action(nil), pre...)
	for _, a := range s.Actions {
		a.Object, a.Target, a.With, a.Card, a.Source = shift(a.Object), shift(a.Target), shift(a.With), shift(a.Card), shift(a.Source)
		a.Choices.Replacement = shift(a.Choices.Replacement)
		out.Actions = append(out.Actions, a)
	}
	// The expectations speak of the same steps, now after the casts.
	out.Expect = make([]Expectation, len(s.Expect))
	for i, x := range s.Expect {
		x.After += len(pre)
		if x.Permanents != nil {
			ps := make(map[ObjectID]PermanentClaim, len(x.Permanents))
			for id, c := range x.Permanents {
				if c.AttachedTo != nil {
					to := shift(*c.AttachedTo)
					c.AttachedTo = &to
				}
				ps[shift(id)] = c
			}
			x.Permanents = ps
		}
		x.Sequence = slices.Clone(x.Sequence)
		for k := range x.Sequence {
			x.Sequence[k].Object = shift(x.Sequence[k].Object)
		}
		out.Expect[i] = x
	}
	if s.Expect == nil {
		out.Expect = nil
	}
	return &out, true
}
