package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// lowSpellsForbidden is Brisela's ability: her controller's opponents
// can't cast spells of mana value 3 or less.
const lowSpellsForbidden model.AbilityID = "opponents_cant_cast_mv_3_or_less"

// genBrisela casts spells while Brisela, Voice of Nightmares is on the
// battlefield under either player: spells of mana value 2, 3 and 4, a
// morph card cast face up or face down, by her controller and by the
// opponent. The tuning of 601.3, kept with it.
var genBrisela = generators.NewShape(generators.Options{
	MaxPermanents: 1, MaxComponents: 2, Brisela: true,
	Kinds:     []generators.Kind{generators.Card, generators.Token},
	Focus:     []model.ActionType{model.Cast, model.CastMutate},
	FocusThen: []model.ActionType{model.Cast, model.CastMutate},
})

// P601_3: a player can't begin to cast a spell that an effect forbids
// them to cast: Brisela's controller's opponents can't cast a spell of
// mana value 3 or less.
var P601_3 = &Property{
	Rule:  "601.3",
	Needs: []model.Feature{model.FeatureMeld, model.FeatureCastRestrictions},
	Draws: genBrisela,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = restrictedCasts(c, func(i int, card model.ObjectID, barred bool) error {
			a := s.Actions[i]
			if a.Type == model.CastMutate && !legalTarget(c, i, card, a.Target) {
				// Each situation is labelled only where the restriction
				// alone decides the cast: an engine that breaks it shows
				// it only there.
				return nil
			}
			// A cast by an opponent of mana value 2 or less is the plain
			// case, in most draws, and unlabelled: what is labelled comes
			// first when the rules are explored.
			l := "by-its-controller"
			switch {
			case barred && a.Method != "":
				l = "face-down"
			case barred && spellManaValue(s, a) == 3:
				l = "mana-value-3"
			case barred:
				return nil
			}
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"mana-value-3": 0.05, "face-down": 0.02, "by-its-controller": 0.1},
	Check: func(c *Case) error {
		return restrictedCasts(c, func(i int, card model.ObjectID, rules bool) error {
			engine := forbidden(c.Trace.Steps[i])
			mv := spellManaValue(c.Scenario, c.Scenario.Actions[i])
			switch {
			case rules && !engine:
				return problemOf("cast-though-forbidden", "%s, the engine does not answer that %s can't be cast (no not_allowed), but the rules forbid it: an opponent of its caster controls Brisela, whose effect forbids spells of mana value 3 or less, and as cast it has mana value %d%s", after(c, i), card, mv, faceDownNote(c.Scenario.Actions[i]))
			case engine && !rules:
				return problemOf("cast-refused", "%s, the engine answers that %s can't be cast (not_allowed), but the rules allow it: Brisela's restriction binds only her controller's opponents, and the caster of %s controls her", after(c, i), card, card)
			}
			return nil
		})
	},
}

// restrictedCasts calls f for each cast of the scenario that a
// restriction on mana value is in question for (see restricted), with
// whether the rules forbid it: where the engine's trace had the
// restricting permanents and the spell as the rules' did before the step.
func restrictedCasts(c *Case, f func(i int, card model.ObjectID, barred bool) error) error {
	for i, a := range c.Scenario.Actions {
		if i >= len(c.Reference.Steps) || i >= len(c.Trace.Steps) {
			break
		}
		by := restricted(c, i)
		if len(by) == 0 || !inHand(stateAt(c.Trace, i), a.Object) || !inHand(stateAt(c.Reference, i), a.Object) {
			continue
		}
		if !likeRulesAt(c, i, by[0]) || slices.ContainsFunc(by[1:], func(id model.ObjectID) bool { return !likeRulesAt(c, i, id) }) {
			continue
		}
		rules := slices.ContainsFunc(c.Reference.Steps[i].Events, func(e model.Event) bool { return e.Kind == model.NotAllowed && e.Rule == "601.3" })
		if !rules && forbidden(c.Reference.Steps[i]) {
			continue // forbidden by another rule: that rule's
		}
		if err := f(i, a.Object, rules); err != nil {
			return err
		}
	}
	return nil
}

// restricted returns, for a cast at step i of a spell of mana value 3 or
// less (a face-down one's is 0), the phased-in permanents of the rules'
// state before it whose restriction could forbid it, whoever controls
// them: the cast is 601.3's to judge, not 702.140a's.
func restricted(c *Case, i int) []model.ObjectID {
	a := c.Scenario.Actions[i]
	if a.Type != model.Cast && a.Type != model.CastMutate || spellManaValue(c.Scenario, a) > 3 {
		return nil
	}
	var out []model.ObjectID
	for _, p := range stateAt(c.Reference, i).Battlefield {
		if !p.Status.PhasedOut && hasAbility(&p, lowSpellsForbidden) {
			out = append(out, p.ID)
		}
	}
	return out
}

// legalTarget reports whether, in the rules' state before step i, target
// is a legal target of mutating spell card but for any restriction on
// casting: a phased-in non-Human creature of the spell's owner, without
// shroud (CR 702.140a, 702.26b, 702.18a).
func legalTarget(c *Case, i int, card, target model.ObjectID) bool {
	p := stateAt(c.Reference, i).Permanent(target)
	return p != nil && !p.Status.PhasedOut && !shrouded(p) && mutateTargetLabel(c, i, card, target) == "legal"
}

// faceDownNote says why a spell cast face down has mana value 0.
func faceDownNote(a model.Action) string {
	if a.Method == "" {
		return ""
	}
	return " (cast face down, it has no mana cost, CR 702.37c)"
}

// spellManaValue is the mana value of the spell cast a makes: its card's,
// or 0 cast face down (CR 702.37c, 702.168b).
func spellManaValue(s *model.Scenario, a model.Action) int {
	o := s.Object(a.Object)
	if a.Method != "" || o == nil || s.Def(o.Def) == nil {
		return 0
	}
	return s.Def(o.Def).Front.ManaValue()
}
