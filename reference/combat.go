package reference

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// attack declares a creature an attacker (CR 508.1a). The declaration is
// not allowed unless the active player controls the creature, it is
// untapped, and it has haste or has been under that player's control since
// the turn began (CR 302.6, 702.10b); a merged creature keeps that from
// before it merged (CR 730.2c).
func (g *game) attack(a *model.Action) error {
	if err := g.noChoices(a); err != nil {
		return err
	}
	p := g.st.Permanent(a.Object)
	if p == nil {
		return invalid("%s is not on the battlefield", a.Object)
	}
	if p.Status.PhasedOut {
		return illegal("702.26b", "%s is phased out and treated as though it does not exist", p.ID)
	}
	d, err := g.derive(p)
	if err != nil {
		return err
	}
	haste := true
	if !p.ControlledSinceTurnStart {
		if haste, err = g.settledHas(p, d, model.Haste); err != nil {
			return err
		}
	}
	switch {
	case !slices.Contains(d.Characteristics.Types, "creature"):
		return illegal("508.1a", "%s is not a creature", p.ID)
	case p.Controller != g.st.Active:
		return illegal("508.1a", "%s is controlled by %s, not by the active player %s", p.ID, p.Controller, g.st.Active)
	case p.Status.Tapped:
		return illegal("508.1a", "%s is tapped", p.ID)
	case !p.ControlledSinceTurnStart && !haste && !g.is(bugAttackIgnoresSummoningSickness):
		return illegal("302.6", "%s has not been under %s's control since the turn began and has no haste (CR 508.1a, 702.10b)", p.ID, p.Controller)
	}
	if err := g.restricted(p, d); err != nil {
		return err
	}
	g.emit(model.Event{Kind: model.Attacks, Rule: "508.1a", Object: p.ID})
	// CR 508.1f: declaring it an attacker taps it, unless it has vigilance
	// (CR 702.20b). The tap is no cost, and the status change says so.
	vigilance, err := g.settledHas(p, d, model.Vigilance)
	if err != nil {
		return err
	}
	if vigilance && !g.is(bugVigilanceAttackerTaps) {
		return nil
	}
	if g.is(bugAttackerStaysUntapped) {
		return nil
	}
	p.Status.Tapped = true
	g.statusChanged("508.1f", p)
	return nil
}

// destroyAll destroys every creature (CR 701.8a). A phased-out permanent
// is treated as though it does not exist, so it is spared (CR 702.26b).
// Each permanent leaves as one, its components going to their owner's
// graveyard (CR 730.3).
func (g *game) destroyAll(a *model.Action) error {
	var doomed []model.ObjectID
	owners := map[model.PlayerID]int{}
	for i := range g.st.Battlefield {
		p := &g.st.Battlefield[i]
		if p.Status.PhasedOut && !g.is(bugDestroyAllHitsPhasedOut) {
			continue
		}
		d, err := g.derive(p)
		if err != nil {
			return err
		}
		if slices.Contains(d.Characteristics.Types, "creature") {
			if indestructible, err := g.settledHas(p, d, "indestructible"); err != nil || indestructible {
				if err != nil {
					return err
				}
				return unsupported("destroy-indestructible", "%s has indestructible, and CR 702.12 is not among the rules the model holds", p.ID)
			}
			doomed = append(doomed, p.ID)
			if slices.ContainsFunc(p.Components, func(c model.Component) bool { return !g.obj(c.Object).Token }) {
				owners[g.ownerOf(p)]++ // tokens put nowhere in order (CR 704.5d)
			}
		}
	}
	for owner, n := range owners {
		if n > 1 {
			return unsupported("destroy-all-several-permanents-of-one-owner",
				"%d permanents of %s's go to that graveyard at once; the owner arranges all their cards (CR 404.3), and an action scripts the order of one permanent's cards only", n, owner)
		}
	}
	if len(doomed) > 1 && !a.Choices.IsZero() {
		return unsupported("destroy-all-choices-for-several-permanents", "choices are scripted, but %d permanents are destroyed and a choice can't say which it is for", len(doomed))
	}
	// No two of them share a graveyard, so the order in which they leave
	// here makes no difference to where any card ends up.
	for _, id := range doomed {
		if _, err := g.leave(g.st.Permanent(id), &model.Action{To: model.Graveyard}, &a.Choices, false); err != nil {
			return err
		}
	}
	if len(doomed) == 0 && !a.Choices.IsZero() {
		return invalid("choices are scripted, but no creature is destroyed")
	}
	return nil
}

// restricted returns why p may not attack, if a restriction forbids it
// (CR 508.1c): its own defender (702.3b), which a mutated permanent has
// from any component (702.140e), or an Aura's "can't attack" on it. An
// Aura that is phased out does not exist (702.26b), and a face-down one
// has no abilities (708.2a).
func (g *game) restricted(p *model.Permanent, d model.Derived) error {
	defender, err := g.settledHas(p, d, model.Defender)
	if err != nil {
		return err
	}
	if g.is(bugDefenderTopOnly) {
		f, _ := g.componentFace(p, p.Components[0])
		defender = !p.Components[0].FaceDown && f.HasAbility(model.Defender)
	}
	if defender && !g.is(bugAttackIgnoresDefender) {
		return illegal("702.3b", "%s has defender", p.ID)
	}
	if g.is(bugAttackIgnoresEnchantment) {
		return nil
	}
	for i := range g.st.Battlefield {
		q := &g.st.Battlefield[i]
		if q.AttachedTo != p.ID || q.Status.PhasedOut {
			continue
		}
		qd, err := g.derive(q)
		if err != nil {
			return err
		}
		if slices.Contains(qd.Characteristics.Abilities, model.EnchantedCantAttackOrBlock) {
			return illegal("508.1c", "%s is enchanted by %s, which says it can't attack", p.ID, q.ID)
		}
	}
	return nil
}
