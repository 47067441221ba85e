package reference

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// A mutated permanent that a copy effect applies to has settled
// characteristics but unsettled abilities: whether each component gives
// its card's printed abilities or those a copy effect gave it (CR
// 702.140e, 707.2) the texts do not say. The reference lists one reading
// and marks it unsettled (model.Derived.Unsettled); where an action's
// result would depend on the reading, it refuses the action by name.

// copiedAndMutated reports whether p is a face-up mutated permanent that a
// copy effect applies to, before or after a merge, or that has a component
// that entered as a copy. Its name, mana cost, colours, types, power and
// toughness are settled by timestamp order in layer 1a (CR 613.2a, 730.2a,
// 707.2; a copy that mutates takes the mutation after the copy). Whether
// the abilities each component gives (CR 702.140e) are its card's printed
// ones or those a copy effect gave it the texts do not say, so its
// abilities are unsettled; the reference lists one reading.
func (g *game) copiedAndMutated(p *model.Permanent) bool {
	return p.Mutated && !p.Status.FaceDown && g.merged(p) &&
		(slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy }) ||
			slices.ContainsFunc(p.Components, func(c model.Component) bool { return g.cloned[c.Object] }))
}

// refuseUnsettledTrigger refuses a mutation of p whose "whenever this
// creature mutates" triggers the rules leave open: p's abilities are
// unsettled (copiedAndMutated), and a component that may be under a copy
// effect has that ability by one reading, its card's printed abilities
// or those a copy effect gives.
func (g *game) refuseUnsettledTrigger(p *model.Permanent) error {
	if !g.copiedAndMutated(p) {
		return nil
	}
	readings := [][]model.AbilityID{}
	for _, e := range p.Effects {
		if e.Kind == model.EffectCopy {
			readings = append(readings, g.s.Def(e.Of).Front.Abilities, e.Gains)
		}
	}
	for _, c := range p.Components {
		if c.FaceDown || g.settledComponent(p, c) {
			continue
		}
		f, _ := g.componentFace(p, c)
		printed := g.s.Def(g.obj(c.Object).Def)
		rs := append(slices.Clone(readings), f.Abilities, printed.Front.Abilities)
		if printed.Back != nil {
			rs = append(rs, printed.Back.Abilities)
		}
		if slices.ContainsFunc(rs, func(abs []model.AbilityID) bool { return slices.ContainsFunc(abs, g.mutatesTrigger) }) {
			return unsupported("mutate-trigger-of-unsettled-ability",
				"%s mutates, and a copy effect applies to it: whether component %s gives a \"whenever this creature mutates\" ability (CR 702.140d, 702.140e) depends on whether it gives its card's printed abilities or the copy's, which the rules leave open", p.ID, c.Object)
		}
	}
	return nil
}

// settledComponent reports whether component c of p gives its card's own
// abilities whatever reading of the copy effects on p is taken: a card or
// token that merged with p after every copy effect on p began, and did
// not enter as a copy itself.
func (g *game) settledComponent(p *model.Permanent, c model.Component) bool {
	at, ok := g.joinedAt[c.Object]
	if !ok || g.cloned[c.Object] {
		return false
	}
	return !slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy && e.Timestamp > at })
}

// layer1Readings returns, for ability ab of the copied and mutated
// permanent p after layer 1, whether every reading gives it (sure) and
// whether some reading does (maybe). When a copy effect is newer than
// p's latest merge, that copy's abilities are sure and the components'
// may survive it; otherwise the components that merged after every copy
// effect give theirs surely, and the others by their card's printed
// abilities or the copy's.
func (g *game) layer1Readings(p *model.Permanent, ab model.AbilityID) (sure, maybe bool) {
	has := func(abs []model.AbilityID) bool { return slices.Contains(abs, ab) }
	copies := slices.DeleteFunc(slices.Clone(p.Effects), func(e model.Effect) bool { return e.Kind != model.EffectCopy })
	copyLast := g.copiedNow(p)
	for _, e := range copies {
		mine := has(g.s.Def(e.Of).Front.Abilities) || has(e.Gains)
		if copyLast && e.Timestamp == copies[len(copies)-1].Timestamp {
			sure = sure || mine
		} else {
			maybe = maybe || mine
		}
	}
	top := p.Components[0]
	for _, c := range p.Components {
		if c.FaceDown && !top.FaceDown {
			// What a face-down component adds is set by the rule that
			// turned it face down, not by its card (faceDownAbilities).
			hidden, _ := g.faceDownAbilities(p, c)
			if copyLast {
				maybe = maybe || has(hidden)
			} else {
				sure = sure || has(hidden)
			}
			continue
		}
		f, _ := g.componentFace(p, c)
		if !copyLast && g.settledComponent(p, c) {
			sure = sure || has(f.Abilities)
			continue
		}
		printed := g.s.Def(g.obj(c.Object).Def)
		maybe = maybe || has(f.Abilities) || has(printed.Front.Abilities) || printed.Back != nil && has(printed.Back.Abilities)
	}
	return sure, sure || maybe
}

// abilityOpen reports whether the rules leave open whether p has ability
// ab: p's abilities are unsettled, its readings differ on ab after layer
// 1, and neither a keyword counter nor the effects of layer 6 decide it.
func (g *game) abilityOpen(p *model.Permanent, ab model.AbilityID) (bool, error) {
	if !g.copiedAndMutated(p) || p.Counters[string(ab)] > 0 {
		return false, nil
	}
	if sure, maybe := g.layer1Readings(p, ab); sure || !maybe {
		return false, nil
	}
	statics, err := g.staticsOn(p)
	if err != nil {
		return false, err
	}
	with, err := g.layer6(p, []model.AbilityID{ab}, statics)
	if err != nil {
		return false, err
	}
	without, err := g.layer6(p, nil, statics)
	if err != nil {
		return false, err
	}
	return slices.Contains(with, ab) != slices.Contains(without, ab), nil
}

// settledHas reports whether p, derived as d, has ability ab, or refuses
// with unsettled-ability where the rules leave that open and an action's
// result turns on it.
func (g *game) settledHas(p *model.Permanent, d model.Derived, ab model.AbilityID) (bool, error) {
	open, err := g.abilityOpen(p, ab)
	if err != nil {
		return false, err
	}
	if open {
		return false, unsupported("unsettled-ability",
			"%s is a mutated permanent a copy effect applies to, and whether it has %s depends on whether its components give their cards' printed abilities or the copy's (CR 702.140e, 707.2), which the rules leave open", p.ID, ab)
	}
	return slices.Contains(d.Characteristics.Abilities, ab), nil
}

// possibleAbilities returns abs, the abilities derived for the copied and
// mutated permanent p, with every ability some reading of layer 1 gives
// it: those of its copy effects and of each component's card.
func (g *game) possibleAbilities(p *model.Permanent, abs []model.AbilityID) []model.AbilityID {
	out := slices.Clone(abs)
	for _, e := range p.Effects {
		if e.Kind == model.EffectCopy {
			out = append(append(out, g.s.Def(e.Of).Front.Abilities...), e.Gains...)
		}
	}
	for _, c := range p.Components {
		if c.FaceDown {
			continue
		}
		f, _ := g.componentFace(p, c)
		printed := g.s.Def(g.obj(c.Object).Def)
		out = append(append(out, f.Abilities...), printed.Front.Abilities...)
		if printed.Back != nil {
			out = append(out, printed.Back.Abilities...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
