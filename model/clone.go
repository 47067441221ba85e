package model

import (
	"maps"
	"slices"
)

// Clone returns a deep copy of st that shares no memory with it. The copy
// is exactly what encoding st as JSON and decoding it again would give
// (an empty list or map under omitempty comes back nil), so an engine may
// use it in place of that round trip at a fraction of the cost.
func (st State) Clone() State {
	c := st
	c.Players = slices.Clone(st.Players)
	for i := range c.Players {
		z := &c.Players[i].Zones
		z.Library, z.Hand, z.Graveyard = omitted(z.Library), omitted(z.Hand), omitted(z.Graveyard)
		z.Exile, z.Command = omitted(z.Exile), omitted(z.Command)
	}
	c.Battlefield = omitted(st.Battlefield)
	for i := range c.Battlefield {
		c.Battlefield[i] = c.Battlefield[i].Clone()
	}
	c.Stack = omitted(st.Stack)
	c.Links = omitted(st.Links)
	for i := range c.Links {
		c.Links[i].Cards = slices.Clone(c.Links[i].Cards)
	}
	return c
}

// Clone returns a deep copy of p, in the sense of [State.Clone].
func (p Permanent) Clone() Permanent {
	c := p
	c.Components = slices.Clone(p.Components)
	if len(p.Counters) == 0 {
		c.Counters = nil
	} else {
		c.Counters = maps.Clone(p.Counters)
	}
	c.Effects = omitted(p.Effects)
	for i := range c.Effects {
		c.Effects[i].Gains = omitted(c.Effects[i].Gains)
	}
	if p.Derived != nil {
		d := *p.Derived
		ch := &d.Characteristics
		ch.Colors, ch.Types, ch.Subtypes = omitted(ch.Colors), omitted(ch.Types), omitted(ch.Subtypes)
		ch.Supertypes, ch.Abilities = omitted(ch.Supertypes), omitted(ch.Abilities)
		ch.Power, ch.Toughness = cloneInt(ch.Power), cloneInt(ch.Toughness)
		d.Unsettled = omitted(d.Unsettled)
		c.Derived = &d
	}
	return c
}

// omitted copies a list kept under omitempty: empty comes back nil, as
// from JSON.
func omitted[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Clone returns a deep copy of d, in the sense of [State.Clone].
func (d CardDef) Clone() CardDef {
	c := d
	c.Front = d.Front.clone()
	c.Flipped, c.Back, c.Melded = cloneFace(d.Flipped), cloneFace(d.Back), cloneFace(d.Melded)
	return c
}

func (f Face) clone() Face {
	c := f
	c.Colors, c.Types, c.Subtypes = omitted(f.Colors), omitted(f.Types), omitted(f.Subtypes)
	c.Supertypes, c.Abilities, c.ColorIndicator = omitted(f.Supertypes), omitted(f.Abilities), omitted(f.ColorIndicator)
	c.Power, c.Toughness, c.Loyalty = cloneInt(f.Power), cloneInt(f.Toughness), cloneInt(f.Loyalty)
	if f.AbilityKinds != nil {
		c.AbilityKinds = maps.Clone(f.AbilityKinds)
		for ab, k := range c.AbilityKinds {
			if k.Effect != nil {
				e := *k.Effect
				e.Grants = omitted(e.Grants)
				k.Effect = &e
				c.AbilityKinds[ab] = k
			}
		}
	}
	return c
}

func cloneFace(f *Face) *Face {
	if f == nil {
		return nil
	}
	c := f.clone()
	return &c
}
