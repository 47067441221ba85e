package reference

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// faceOf returns the face a component shows while face up, and the mana
// value that face has on the battlefield.
func (g *game) faceOf(c model.Component) (model.Face, int) {
	d := g.def(c.Object)
	front := d.Front.ManaValue()
	if c.Face != model.Back {
		if g.is(bugFrontFaceHasBothAbilities) && d.Back != nil && g.alone(c.Object) {
			f := d.Front
			f.Abilities = append(slices.Clone(f.Abilities), d.Back.Abilities...)
			return f, front
		}
		return d.Front, front // CR 712.8d
	}
	switch d.Layout {
	case model.LayoutTransform:
		if g.is(bugBackFaceManaValueZero) {
			return *d.Back, 0
		}
		if g.is(bugBackFaceFrontPower) {
			f := *d.Back
			f.Power, f.Toughness = d.Front.Power, d.Front.Toughness
			return f, front
		}
		if g.copies[c.Object] {
			return *d.Back, 0 // CR 712.8e: a copy of a back face
		}
		return *d.Back, front // CR 712.8e: the front face's mana value
	case model.LayoutModal:
		return *d.Back, d.Back.ManaValue() // CR 712.8f
	}
	return *d.Melded, 0 // meld halves are handled as a pair by derive
}

// flipped applies a flip card's alternative characteristics: name, text,
// type line, power and toughness; color and mana cost stay (CR 710.1b-c).
func flipped(f model.Face, alt *model.Face) model.Face {
	f.Name, f.Abilities = alt.Name, alt.Abilities
	f.Types, f.Subtypes, f.Supertypes = alt.Types, alt.Subtypes, alt.Supertypes
	f.Power, f.Toughness = alt.Power, alt.Toughness
	return f
}

// componentFace is the face-up face of a component of permanent p, with
// the flip card's alternative characteristics if p is flipped (CR 730.2h,
// 710.2).
func (g *game) componentFace(p *model.Permanent, c model.Component) (model.Face, int) {
	f, mv := g.faceOf(c)
	if d := g.def(c.Object); (p.Status.Flipped || g.is(bugFlipAlways)) && d.Layout == model.LayoutFlip {
		f = flipped(f, d.Flipped)
	} else if d.Layout == model.LayoutFlip && g.is(bugUnflippedTakesFlipPower) {
		f.Power, f.Toughness = d.Flipped.Power, d.Flipped.Toughness
	}
	return f, mv
}

// derive computes p's characteristics by layers (CR 613) and the values
// that follow from its components.
func (g *game) derive(p *model.Permanent) (model.Derived, error) {
	d := g.componentValues(p)
	face, mv, err := g.copiable(p)
	if err != nil {
		return d, err
	}
	ch := model.Characteristics{
		Name: face.Name, ManaValue: mv, Colors: face.Colors,
		Types: face.Types, Subtypes: face.Subtypes, Supertypes: face.Supertypes,
		Power: face.Power, Toughness: face.Toughness,
	}
	abilities := slices.Clone(face.Abilities)
	// Layer 6: a keyword counter gives its keyword (CR 122.1b, 613.1f).
	for _, k := range model.KeywordCounters {
		if p.Counters[string(k)] > 0 {
			abilities = append(abilities, k)
		}
	}
	slices.Sort(abilities)
	ch.Abilities = slices.Compact(abilities)

	// Layers 4 and 7b: Duplicant's ability (a static ability of the
	// permanent, linked to its exile ability, CR 607). Having applied in
	// layer 4, it applies in 7b even if layer 6 removes it (CR 613.6).
	if slices.Contains(ch.Abilities, model.DuplicantImprint) {
		if last := g.lastExiledCreature(p.ID); last != nil {
			ch.Power, ch.Toughness = last.Power, last.Toughness
			subtypes := append([]string{"Shapeshifter"}, last.Subtypes...)
			slices.Sort(subtypes)
			ch.Subtypes = slices.Compact(subtypes)
		}
	}
	statics, err := g.staticsOn(p)
	if err != nil {
		return d, err
	}
	if err := g.refuseLostSource(p, statics); err != nil {
		return d, err
	}
	if ch.Abilities, err = g.layer6(p, ch.Abilities, statics); err != nil {
		return d, err
	}
	if ch.Power != nil && ch.Toughness != nil {
		pw, tg := g.layer7c(p, *ch.Power, *ch.Toughness, statics)
		ch.Power, ch.Toughness = &pw, &tg
	}
	d.Characteristics = ch
	if g.copiedAndMutated(p) {
		d.Unsettled = []string{model.UnsettledAbilities}
	}
	return d, nil
}

// componentValues returns the derived values of p that come from its
// components rather than from the layers, since each depends on which
// cards represent it: melded, merged, token, commander, double-faced and
// transformed.
func (g *game) componentValues(p *model.Permanent) model.Derived {
	var d model.Derived
	top := p.Components[0]
	topObj := g.obj(top.Object)
	melded, merged := g.melded(p), g.merged(p)
	d.Melded, d.Merged = melded, merged
	d.Token = topObj.Token // CR 730.2d: a token only if the topmost component is
	if g.is(bugTokenIfAnyToken) {
		d.Token = slices.ContainsFunc(p.Components, func(c model.Component) bool { return g.obj(c.Object).Token })
	}
	for _, c := range p.Components {
		d.Commander = d.Commander || g.obj(c.Object).Commander // CR 903.3b-c
	}
	if !merged {
		// CR 712.16 speaks of melded and other double-faced permanents;
		// a merged permanent is never one (CR 730.2i).
		d.DoubleFaced = g.def(top.Object).Layout.DoubleFaced()
		// CR 701.27g: only a lone double-faced permanent back face up.
		d.Transformed = !melded && top.Face == model.Back
	} else if g.is(bugMergedDoubleFaced) {
		d.DoubleFaced = slices.ContainsFunc(p.Components, func(c model.Component) bool { return g.def(c.Object).Layout.DoubleFaced() })
	}
	return d
}

// lastExiledCreature returns the front face of the last creature card
// exiled with source's linked ability that is still in exile, or nil.
func (g *game) lastExiledCreature(source model.ObjectID) *model.Face {
	for _, l := range g.st.Links {
		if l.Source != source {
			continue
		}
		for i := len(l.Cards) - 1; i >= 0; i-- {
			c := l.Cards[i]
			if z, _ := g.zoneOf(c); z == model.Exile && g.def(c).Front.Has("creature") {
				f := g.def(c).Front // CR 712.8a: the front face in exile
				return &f
			}
		}
	}
	return nil
}

// alone reports whether object id is a permanent's only component.
func (g *game) alone(id model.ObjectID) bool {
	for _, p := range g.st.Battlefield {
		if slices.ContainsFunc(p.Components, func(c model.Component) bool { return c.Object == id }) {
			return len(p.Components) == 1
		}
	}
	return false
}

// copiable computes layer 1 of p's characteristics (CR 613.2a-b): the
// face its components and copy effects give it, then face-down values.
// The face keeps its printed mana cost, which a copy of p copies
// (CR 707.2); mv is p's own mana value.
func (g *game) copiable(p *model.Permanent) (face model.Face, mv int, err error) {
	top := p.Components[0]
	melded := g.melded(p)
	// Layer 1a: copiable values (CR 613.2a).
	switch {
	case melded:
		// CR 712.8g: the combined back face; mana value is the sum of the
		// front faces' mana values.
		face = *g.def(top.Object).Melded
		mv = g.def(top.Object).Front.ManaValue() + g.def(p.Components[1].Object).Front.ManaValue()
		if g.is(bugMeldedManaValueZero) {
			mv = 0
		}
		if g.is(bugMeldedNoAbilities) {
			face.Abilities = nil
		}
	case g.is(bugCharacteristicsFromBottom):
		face, mv = g.componentFace(p, p.Components[len(p.Components)-1])
	default:
		// CR 730.2a: the topmost component's characteristics.
		face, mv = g.componentFace(p, top)
	}
	if p.Mutated && !g.is(bugAbilitiesTopOnly) {
		abilities, err := g.mutatedAbilities(p)
		if err != nil {
			return face, mv, err
		}
		face.Abilities = abilities
	}
	at, merged := g.mergedAt[p.ID]
	for _, e := range p.Effects {
		if e.Kind != model.EffectCopy || merged && e.Timestamp <= at && !g.is(bugCopyAfterMerge) || g.is(bugMergeAfterCopy) && g.merged(p) {
			// A copy effect older than the merge applies first in layer 1a,
			// and the merge then gives the topmost component's values
			// (CR 613.2a, 730.2a).
			continue
		}
		// CR 707.2: the copy takes the card's copiable values; a card off
		// the battlefield has only its front face (CR 712.8a).
		cd := g.s.Def(e.Of)
		face, mv = cd.Front, cd.Front.ManaValue()
		face.Abilities = append(slices.Clone(face.Abilities), e.Gains...) // CR 707.9a
		if p.Status.Flipped && cd.Layout == model.LayoutFlip {
			// CR 707.3, 110.5c: the copy's own flipped status picks the
			// alternative characteristics.
			face = flipped(face, cd.Flipped)
			face.Abilities = append(slices.Clone(face.Abilities), e.Gains...)
		}
	}
	face, mv = g.faceDownValues(p, face, mv)
	return face, mv, nil
}

// mutatedAbilities returns the abilities of mutated permanent p, every
// component's in component order, since a mutated permanent has them all
// whichever component is topmost (CR 702.140e).
func (g *game) mutatedAbilities(p *model.Permanent) ([]model.AbilityID, error) {
	top := p.Components[0]
	// CR 702.140e: every component's abilities.
	var abilities []model.AbilityID
	for i, c := range p.Components {
		if c.FaceDown && !top.FaceDown && i > 0 {
			hidden, err := g.faceDownAbilities(p, c)
			if err != nil {
				return nil, err
			}
			abilities = append(abilities, hidden...)
			continue
		}
		f, _ := g.componentFace(p, c)
		if i > 0 && g.is(bugFlipTopOnly) {
			f, _ = g.faceOf(c)
		}
		abilities = append(abilities, f.Abilities...)
	}
	return abilities, nil
}

// faceDownValues applies layer 1b to the face and mana value layer 1a gave
// p, returning the face-down characteristics if p is face down, since
// those replace its copiable values.
func (g *game) faceDownValues(p *model.Permanent, face model.Face, mv int) (model.Face, int) {
	top := p.Components[0]
	// Layer 1b: face-down characteristics (CR 613.2b, 708.2). The topmost
	// component decides the status (CR 730.2e) and its face-down rule lists
	// what the permanent has.
	if g.marked[p.ID] {
		face, mv = model.Face{Types: []string{"creature"}, Power: model.Int(2), Toughness: model.Int(2)}, 0
	}
	if p.Status.FaceDown {
		name := ""
		if g.is(bugFaceDownKeepsName) {
			name = face.Name
		}
		toughness := model.Int(2)
		if g.is(bugFaceDownToughnessFromCard) && face.Toughness != nil {
			toughness = face.Toughness
		}
		face = model.Face{Name: name, Types: []string{"creature"}, Power: model.Int(2), Toughness: toughness}
		if top.FaceDownBy == model.ByCloak || top.FaceDownBy == model.ByDisguise {
			face.Abilities = []model.AbilityID{model.Ward2} // CR 701.58a, 702.168a
		}
		mv = 0
	}
	return face, mv
}

// faceDownAbilities returns the abilities face-down component c adds to
// the face-up mutated permanent p (CR 702.140e): those the rule that made
// the card face down lists for it, wherever it is. Morph and manifest give
// the card no text (CR 702.37c, 701.40a); disguise and cloak give it ward
// {2} (CR 702.168a, 701.58a). A card turned face down by an effect is
// refused: CR 708.2a lists what the face-down permanent has, not what its
// card has once a face-up card tops it, unless the card has no abilities
// to add either way.
func (g *game) faceDownAbilities(p *model.Permanent, c model.Component) ([]model.AbilityID, error) {
	switch c.FaceDownBy {
	case model.ByMorph, model.ByManifest:
		return nil, nil
	case model.ByDisguise, model.ByCloak:
		return []model.AbilityID{model.Ward2}, nil
	}
	if f, _ := g.faceOf(c); len(f.Abilities) == 0 {
		return nil, nil
	}
	return nil, unsupported("abilities-of-face-down-component",
		"%s is a card turned face down by an effect (face_down_by %q) under the face-up mutated permanent %s: CR 708.2a lists the face-down permanent's characteristics, not its card's, so CR 702.140e does not settle which abilities the card adds", c.Object, c.FaceDownBy, p.ID)
}
