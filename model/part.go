package model

import (
	"fmt"
	"slices"
)

// Prefix returns s cut after its first n actions, with the expectations
// about those actions only: what can still be checked when a later action
// can't be played.
func (s *Scenario) Prefix(n int) *Scenario {
	c := *s
	c.Actions = slices.Clone(s.Actions[:n])
	c.Expect = slices.DeleteFunc(slices.Clone(s.Expect), func(e Expectation) bool { return e.After >= n })
	return &c
}

// Without returns s without the starting permanent id, for a file that
// holds several independent permanents when one of them can't be set up:
// the rest can still be played and checked. The expectations lose their
// claims about id and their counts of the battlefield. It fails when
// anything else in s names id or one of its components, since then the
// permanent is not independent of the rest.
func (s *Scenario) Without(id ObjectID) (*Scenario, error) {
	p := s.Start.Permanent(id)
	if p == nil {
		return nil, fmt.Errorf("no starting permanent %s", id)
	}
	if len(s.Start.Battlefield) < 2 {
		return nil, fmt.Errorf("%s is the only starting permanent", id)
	}
	names := map[ObjectID]bool{id: true}
	for _, c := range p.Components {
		names[c.Object] = true
	}
	if p.AttachedTo != "" {
		return nil, fmt.Errorf("%s is attached to %s", id, p.AttachedTo)
	}
	for _, c := range p.Components {
		if o := s.Object(c.Object); o != nil && s.Def(o.Def) != nil {
			for _, ab := range s.Def(o.Def).Front.Abilities {
				if slices.Contains(reachingAbilities, ab) {
					return nil, fmt.Errorf("%s has %s, which acts on other permanents", id, ab)
				}
			}
		}
	}
	for i, a := range s.Actions {
		if a.Type == DestroyAll {
			return nil, fmt.Errorf("actions[%d] (%s) acts on every creature", i, a.Type)
		}
		for _, f := range []ObjectID{a.Object, a.Target, a.With, a.Card, a.Source, a.Choices.Replacement} {
			if names[f] {
				return nil, fmt.Errorf("actions[%d] (%s) names %s", i, a.Type, f)
			}
		}
	}
	for _, q := range s.Start.Battlefield {
		if q.ID != id && names[q.AttachedTo] {
			return nil, fmt.Errorf("%s is attached to %s", q.ID, id)
		}
	}
	for _, l := range s.Start.Links {
		if names[l.Source] || slices.ContainsFunc(l.Cards, func(c ObjectID) bool { return names[c] }) {
			return nil, fmt.Errorf("a linked ability of %s names %s", l.Source, id)
		}
	}
	c := *s
	c.Start = s.Start.Clone()
	c.Start.Battlefield = slices.DeleteFunc(c.Start.Battlefield, func(q Permanent) bool { return q.ID == id })
	c.Objects = slices.DeleteFunc(slices.Clone(s.Objects), func(o Object) bool { return names[o.ID] })
	c.Expect = slices.Clone(s.Expect)
	for i := range c.Expect {
		e := &c.Expect[i]
		e.Battlefield = nil
		if _, ok := e.Permanents[id]; ok {
			ps := make(map[ObjectID]PermanentClaim, len(e.Permanents))
			for k, v := range e.Permanents {
				if k != id {
					ps[k] = v
				}
			}
			e.Permanents = ps
		}
	}
	return &c, nil
}

// reachingAbilities are the abilities by which a permanent changes what
// happens to others: replacement effects, linked abilities, what an
// Equipment grants.
var reachingAbilities = []AbilityID{LeylineOfTheVoid, WheelOfSunAndMoon, RestInPeace, DuplicantImprint, EquippedHasteShroud}
