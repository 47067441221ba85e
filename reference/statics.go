package reference

import (
	"cmp"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// A layerEffect is one continuous effect from a static ability that
// applies to a permanent: the ability, what it does, and its timestamp,
// which is its source's (CR 613.7a; an Aura's or Equipment's changes as
// it becomes attached, 613.7e).
type layerEffect struct {
	ability model.AbilityID
	effect  *model.StaticEffect
	source  *model.Permanent
	ts      int
}

// staticsOn returns the effects of the interpreted static abilities in
// play that apply to p, in timestamp order (CR 613.7). A static ability
// of a merged permanent is one ability of one object, whichever component
// gives it (CR 730.2, 702.140e), and applies to a merged permanent once.
// A phased-out permanent is treated as though it does not exist
// (CR 702.26b): it neither gives nor gets such an effect.
func (g *game) staticsOn(p *model.Permanent) ([]layerEffect, error) {
	if len(g.effects) == 0 || p.Status.PhasedOut {
		return nil, nil
	}
	creature := 0 // unknown; 1 a creature, -1 not
	var out []layerEffect
	for i := range g.st.Battlefield {
		q := &g.st.Battlefield[i]
		if q.Status.PhasedOut {
			continue
		}
		abs, err := g.staticAbilities(q)
		if err != nil {
			return nil, err
		}
		for _, ab := range abs {
			e := g.effects[ab]
			if e.Affects.Attached() && q.AttachedTo != p.ID || e.Affects == model.AffectsYourCreatures && q.Controller != p.Controller {
				continue
			}
			if e.Affects == model.AffectsYourCreatures && creature == 0 {
				// No effect in play changes card types (layer 4), so the
				// copiable values say whether p is a creature.
				face, _, err := g.copiable(p)
				if err != nil {
					return nil, err
				}
				creature = map[bool]int{true: 1, false: -1}[face.Has("creature")]
			}
			if e.Affects == model.AffectsYourCreatures && creature < 0 {
				continue
			}
			out = append(out, layerEffect{ability: ab, effect: e, source: q, ts: q.Timestamp})
		}
	}
	slices.SortStableFunc(out, func(a, b layerEffect) int { return cmp.Compare(a.ts, b.ts) })
	return out, nil
}

// staticAbilities returns the abilities of q that have an interpreted
// effect, from its copiable values (CR 613.2c): no effect in play grants
// one (a granted ability can't have an effect), and one that removes
// them from q is refused (see refuseLostSource).
func (g *game) staticAbilities(q *model.Permanent) ([]model.AbilityID, error) {
	face, _, err := g.copiable(q)
	if err != nil {
		return nil, err
	}
	var out []model.AbilityID
	for _, ab := range face.Abilities {
		if g.effects[ab] != nil && !slices.Contains(out, ab) {
			out = append(out, ab)
		}
	}
	return out, nil
}

// refuseLostSource refuses an effect on p whose source itself loses its
// abilities to a static effect: which of the effects still applies, and
// in which layers, depends on 613.6 and on dependency (613.8), which the
// reference does not model.
func (g *game) refuseLostSource(p *model.Permanent, statics []layerEffect) error {
	for _, s := range statics {
		on, err := g.staticsOn(s.source)
		if err != nil {
			return err
		}
		for _, l := range on {
			if l.effect.LosesAllAbilities {
				return unsupported("static-source-loses-its-abilities",
					"%s gets %s's effect from %s, and %s loses all its abilities to %s of %s: which effects still apply is a matter of CR 613.6 and dependency (613.8), which the reference does not model",
					p.ID, s.ability, s.source.ID, s.source.ID, l.ability, l.source.ID)
			}
		}
	}
	return nil
}

// layer6 applies the ability-adding and -removing effects on p to the
// abilities layers 1 to 5 and its keyword counters gave it, in timestamp
// order (CR 613.1f, 613.7): what an Equipment grants (Lightning Greaves),
// what static effects grant, and "loses all abilities", which removes
// every ability an earlier effect gave, the abilities of every component
// of a merged permanent among them.
func (g *game) layer6(p *model.Permanent, abilities []model.AbilityID, statics []layerEffect) ([]model.AbilityID, error) {
	effects := slices.Clone(statics)
	// What an Equipment attached to p grants; a phased-out one does not
	// exist (CR 702.26b) and a face-down one has no abilities.
	for i := range g.st.Battlefield {
		q := &g.st.Battlefield[i]
		if q.AttachedTo != p.ID || q.Status.PhasedOut || q.Status.FaceDown {
			continue
		}
		if f, _ := g.faceOf(q.Components[0]); f.HasAbility(model.EquippedHasteShroud) {
			e := &model.StaticEffect{Affects: model.AffectsEquipped, Grants: equipmentGrants}
			effects = append(effects, layerEffect{ability: model.EquippedHasteShroud, effect: e, source: q, ts: q.Timestamp})
		}
	}
	slices.SortStableFunc(effects, func(a, b layerEffect) int { return cmp.Compare(a.ts, b.ts) })
	for _, l := range effects {
		if !l.effect.LosesAllAbilities {
			continue
		}
		for _, k := range model.KeywordCounters {
			if p.Counters[string(k)] > 0 {
				return nil, unsupported("keyword-counter-under-ability-loss",
					"%s has a %s counter and loses all its abilities to %s of %s: whether the counter's keyword survives depends on the counter's timestamp (CR 613.7c), which the model does not keep", p.ID, k, l.ability, l.source.ID)
			}
		}
	}
	for _, l := range effects {
		switch {
		case l.effect.LosesAllAbilities && g.is(bugLosesAllTopOnly) && p.Mutated:
			abilities = g.lowerAbilities(p)
		case l.effect.LosesAllAbilities:
			abilities = nil
		}
		abilities = append(abilities, l.effect.Grants...)
	}
	if g.is(bugLosesAllIgnoresTimestamps) && slices.ContainsFunc(effects, func(l layerEffect) bool { return l.effect.LosesAllAbilities }) {
		abilities = nil
	}
	slices.Sort(abilities)
	return slices.Compact(abilities), nil
}

// lowerAbilities returns the abilities of mutated p's components other
// than the topmost, for the mutant that removes only the top's.
func (g *game) lowerAbilities(p *model.Permanent) []model.AbilityID {
	var out []model.AbilityID
	for _, c := range p.Components[1:] {
		if f, _ := g.componentFace(p, c); !c.FaceDown {
			out = append(out, f.Abilities...)
		}
	}
	return out
}

// layer7c returns p's power and toughness with the modifications of
// layer 7c applied (CR 613.4c): "gets +N/+M" effects of resolved spells,
// static effects, and +1/+1 and -1/-1 counters. Each applies once to a
// merged permanent, as to any other object.
func (g *game) layer7c(p *model.Permanent, pw, tg int, statics []layerEffect) (int, int) {
	for _, e := range p.Effects {
		if e.Kind == model.EffectPump {
			pw, tg = pw+e.Power, tg+e.Toughness
		}
	}
	times := 1
	if g.is(bugStaticBonusPerComponent) {
		times = len(p.Components)
	}
	for _, l := range statics {
		if g.is(bugAttachedBonusSkipsMerged) && l.effect.Affects.Attached() && len(p.Components) > 1 {
			continue
		}
		pw, tg = pw+times*l.effect.Power, tg+times*l.effect.Toughness
	}
	n := p.Counters["+1/+1"] - p.Counters["-1/-1"]
	return pw + n, tg + n
}
