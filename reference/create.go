package reference

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// createToken creates a token that is not a copy of anything; the player
// who creates it owns it and controls it (CR 111.1, 111.2).
func (g *game) createToken(a *model.Action) error {
	if err := g.noChoices(a); err != nil {
		return err
	}
	if g.objects[a.Token] != nil {
		return invalid("token id %s is already in use", a.Token)
	}
	d := g.s.Def(a.Def)
	switch {
	case d.InstantOrSorcery():
		return invalid("%s is an instant or sorcery, which can't be on the battlefield (CR 400.4a)", a.Def)
	case d.Layout != model.LayoutNormal:
		return unsupported("create-token-of-layout", "%s has layout %s; the model creates only single-faced tokens (CR 111.10 defines the double-faced ones)", a.Def, d.Layout)
	case slices.Contains(d.Front.Subtypes, "Aura"):
		return unsupported("create-aura-token", "the action does not say what the Aura token %s enchants (CR 303.4f)", a.Def)
	}
	tok := &model.Object{ID: a.Token, Def: a.Def, Owner: a.Player, Token: !g.is(bugCreatedTokenIsACard)}
	g.objects[a.Token] = tok
	p := model.Permanent{ID: model.EnteredID(a.Token, g.action), Controller: a.Player, Components: []model.Component{{Object: a.Token}}}
	return g.enter(p, "")
}

// enterAsCopy puts a creature card with Clone's ability from its owner's
// hand onto the battlefield as a copy of a creature: it becomes the copy as
// it enters, not after (CR 707.5), and takes the copiable values of the
// face that is up (CR 707.2, 707.8): of a merged permanent, every
// component's abilities; of a face-down one, the face-down values.
func (g *game) enterAsCopy(a *model.Action) error {
	if err := g.noChoices(a); err != nil {
		return err
	}
	o, err := g.cardInHand(a.Object)
	if err != nil {
		return err
	}
	if !g.def(a.Object).Front.HasAbility(model.AsCopy) {
		return invalid("%s (%s) has no ability that lets it enter as a copy", a.Object, g.def(a.Object).Name)
	}
	p := g.st.Permanent(a.Target)
	if p == nil {
		return invalid("%s is not on the battlefield", a.Target)
	}
	if p.Status.PhasedOut {
		return invalid("%s is phased out and can't be chosen: it is treated as though it does not exist (CR 702.26b)", a.Target)
	}
	d, err := g.derive(p)
	if err != nil {
		return err
	}
	if !slices.Contains(d.Characteristics.Types, "creature") {
		return invalid("%s is not a creature, and Clone copies a creature", a.Target)
	}
	cd, err := g.cloneDef(p)
	if err != nil {
		return err
	}
	if g.is(bugCloneCopiesTopCard) {
		cd = g.def(p.Components[0].Object)
	}
	if err := g.takeFromZone(a.Object, model.Hand); err != nil {
		return err
	}
	// A new *Object: clones of the game share the old one (see clone).
	oc := *o
	oc.Copy = cd
	g.objects[a.Object] = &oc
	if g.cloned == nil {
		g.cloned = map[model.ObjectID]bool{}
	}
	g.cloned[a.Object] = true
	np := model.Permanent{ID: model.EnteredID(a.Object, g.action), Controller: o.Owner, Components: []model.Component{{Object: a.Object}}}
	return g.enter(np, model.Hand)
}

// cloneDef returns what a card entering as a copy of p becomes. Of a
// lone flipped flip card it is that flip card, both halves: the copy's own
// status picks the half (CR 707.3), and it enters unflipped (CR 110.5b),
// so it has the normal half's characteristics (CR 710.2). Of any other
// permanent it is p's copiable values (copyDef).
func (g *game) cloneDef(p *model.Permanent) (*model.CardDef, error) {
	if !p.Status.Flipped {
		return g.copyDef(p)
	}
	if g.merged(p) || p.Status.FaceDown || slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy }) {
		return nil, unsupported("copy-of-flipped-permanent",
			"%s is flipped and merged, face down or under a copy effect: CR 707.3 and 730.2h do not say which values a copy of it takes", p.ID)
	}
	if d := g.def(p.Components[0].Object); d.Layout == model.LayoutFlip {
		return d, nil
	}
	// A permanent keeps a flipped status that is not relevant to it
	// (CR 110.5c); of any other card the copy takes the face that is up
	// (CR 707.8).
	return g.copyDef(p)
}

// copyDef returns p's copiable values as a single-faced card definition:
// what a copy of p is (CR 707.2, 707.8). Its mana value is that of the face
// copied, so a copy of a back face has mana value 0 (CR 712.8e).
func (g *game) copyDef(p *model.Permanent) (*model.CardDef, error) {
	if g.copiedAndMutated(p) {
		return nil, unsupported("copy-of-unsettled-abilities",
			"%s is a mutated permanent a copy effect applies to, whose abilities the rules leave open (CR 702.140e, 613.2a), and a copy of it would take them (CR 707.2)", p.ID)
	}
	f, err := g.copiableFace(p)
	if err != nil {
		return nil, err
	}
	return &model.CardDef{Name: f.Name, Layout: model.LayoutNormal, Front: f}, nil
}

// forget ends the copy effects of cards that entered as copies, and the
// record of merges, once their permanent leaves the battlefield: each card
// is a new object (CR 400.7).
func (g *game) forget(p *model.Permanent) {
	delete(g.mergedAt, p.ID)
	for _, c := range p.Components {
		delete(g.joinedAt, c.Object)
		if g.cloned[c.Object] {
			o := *g.obj(c.Object)
			o.Copy = nil
			g.objects[c.Object] = &o
			delete(g.cloned, c.Object)
		}
	}
}
