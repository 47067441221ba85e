package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genStatics draws stacks of cards and tokens with Short Sword, Lightning
// Greaves and Mystic Subdual attached and Glorious Anthem about, may tap
// one, and merges a mutating spell into one: the static effects then
// apply to a merged permanent. The tuning of 613.4c and 613.1f, kept with
// them.
var genStatics = generators.NewShape(generators.Options{
	MaxPermanents: 1, MinComponents: 1, MaxComponents: 3, Hand: true, Statics: true, FaceDownTop: &no,
	Kinds:  []generators.Kind{generators.Card, generators.Token},
	Prefix: 2, PrefixTypes: []model.ActionType{model.Tap, model.NextTurn},
	Focus:     []model.ActionType{model.CastMutate},
	FocusThen: []model.ActionType{model.Resolve},
})

// A staticOn is one effect of a static ability with a declared effect
// that applies to a permanent in the rules' state: the ability, what it
// does, and the permanent whose ability it is.
type staticOn struct {
	ability model.AbilityID
	effect  *model.StaticEffect
	source  *model.Permanent
}

// declaredEffects returns the static effects s's card definitions
// declare, by ability; nil if none, as for most scenarios.
func declaredEffects(s *model.Scenario) map[model.AbilityID]*model.StaticEffect {
	var out map[model.AbilityID]*model.StaticEffect
	for i := range s.Catalogue {
		for ab, k := range s.Catalogue[i].Front.AbilityKinds {
			if k.Effect != nil {
				if out == nil {
					out = map[model.AbilityID]*model.StaticEffect{}
				}
				out[ab] = k.Effect
			}
		}
	}
	return out
}

// staticsOn returns the static effects that apply to r in the rules'
// state st, from the abilities its sources have there: an attached
// source's to what it is attached to, an anthem's to each creature its
// controller controls. Phased-out permanents neither give nor get them
// (CR 702.26b). Lightning Greaves' grant counts, as a layer 6 effect with
// its timestamp (CR 613.7e).
func staticsOn(effects map[model.AbilityID]*model.StaticEffect, st *model.State, r *model.Permanent) []staticOn {
	if r.Status.PhasedOut {
		return nil
	}
	var out []staticOn
	for i := range st.Battlefield {
		q := &st.Battlefield[i]
		if q.Status.PhasedOut || q.Derived == nil {
			continue
		}
		for _, ab := range q.Derived.Characteristics.Abilities {
			e := effects[ab]
			if ab == model.EquippedHasteShroud {
				e = &model.StaticEffect{Affects: model.AffectsEquipped, Grants: []model.AbilityID{model.Haste, "shroud"}}
			}
			switch {
			case e == nil:
			case e.Affects.Attached() && q.AttachedTo == r.ID,
				e.Affects == model.AffectsYourCreatures && q.Controller == r.Controller && isCreature(r):
				out = append(out, staticOn{ability: ab, effect: e, source: q})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b staticOn) int { return a.source.Timestamp - b.source.Timestamp })
	return out
}

// staticsGive reports what the declared static effects on r, in the
// rules' state st, change: its power and toughness (pt), its abilities
// (abilities). What they then are is 613's finding, not that of a rule
// about r's components.
func staticsGive(s *model.Scenario, st *model.State, r *model.Permanent) (pt, abilities bool) {
	effects := declaredEffects(s)
	if effects == nil {
		return false, false
	}
	for _, l := range staticsOn(effects, st, r) {
		if effects[l.ability] != nil {
			pt = pt || modifiesPT(l)
			abilities = abilities || l.effect.LosesAllAbilities || len(l.effect.Grants) > 0
		}
	}
	return pt, abilities
}

// withoutStatics returns p, or a copy of it without the characteristics
// static effects change (see staticsGive), for a comparison of the rest.
func withoutStatics(p *model.Permanent, pt, abilities bool) *model.Permanent {
	if p.Derived == nil || !pt && !abilities {
		return p
	}
	q, d := *p, *p.Derived
	if pt {
		d.Characteristics.Power, d.Characteristics.Toughness = nil, nil
	}
	if abilities {
		d.Characteristics.Abilities = nil
	}
	q.Derived = &d
	return &q
}

// sourcesAsRules reports whether every source of an effect in on is, in
// the engine's state es, where the rules have it: the same permanent, with
// the same controller, abilities and attachment. Where one is not, what
// it gives is the finding of the rule that moved it.
func sourcesAsRules(es *model.State, on []staticOn) bool {
	for _, l := range on {
		e := es.Permanent(l.source.ID)
		if e == nil || !sameMakeup(e, l.source) || e.Controller != l.source.Controller || e.AttachedTo != l.source.AttachedTo ||
			e.Status.PhasedOut || !hasAbility(e, l.ability) {
			return false
		}
	}
	return true
}

// staticsJudged calls f for each permanent of the rules' states that
// gets an effect sel picks, where the engine has it made as the rules do
// (components, status, counters, effects and the sources of its effects):
// there what its power, toughness and abilities are is the layers' alone.
func staticsJudged(c *Case, sel func(on []staticOn) bool, f func(k int, r, e *model.Permanent, on []staticOn) error) error {
	effects := declaredEffects(c.Scenario)
	if effects == nil {
		return nil
	}
	return counterparts(c, func(*model.Permanent) bool { return true }, func(k int, r, e *model.Permanent) error {
		on := staticsOn(effects, stateAt(c.Reference, k), r)
		if !slices.ContainsFunc(on, func(l staticOn) bool { return effects[l.ability] != nil }) || !sel(on) || r.Status.FaceDown {
			return nil // a face-down permanent's values before the layers are 708.2's finding
		}
		if physical(c.Scenario, e) != physical(c.Scenario, r) || e.Controller != r.Controller || keywords(e) != keywords(r) ||
			!sourcesAsRules(stateAt(c.Trace, k), on) || !slices.EqualFunc(e.Effects, r.Effects, sameEffect) ||
			characteristicsBeside(e) != characteristicsBeside(r) {
			return nil
		}
		return f(k, r, e, on)
	})
}

// characteristicsBeside shows a permanent's characteristics other than
// power, toughness and abilities, which static effects change.
func characteristicsBeside(p *model.Permanent) string {
	if p.Derived == nil {
		return "none"
	}
	ch := p.Derived.Characteristics
	ch.Power, ch.Toughness, ch.Abilities = nil, nil, nil
	return charsView(ch)
}

// staticsWords lists static effects in words for a message, in timestamp order.
func staticsWords(on []staticOn, keep func(l staticOn) bool) string {
	var out []string
	for _, l := range on {
		if keep(l) {
			out = append(out, fmt.Sprintf("%s of %s (timestamp %d)", l.ability, l.source.ID, l.source.Timestamp))
		}
	}
	return strings.Join(out, ", ")
}

// staticsAfterActions calls f for each permanent of each state of the
// rules' trace after an action (the start is given, not done), with the
// declared static effects on it.
func staticsAfterActions(s *model.Scenario, rules *model.Trace, f func(r *model.Permanent, on []staticOn)) {
	effects := declaredEffects(s)
	for k := 1; k <= len(rules.Steps); k++ {
		st := stateAt(rules, k)
		for i := range st.Battlefield {
			f(&st.Battlefield[i], staticsOn(effects, st, &st.Battlefield[i]))
		}
	}
}

func modifiesPT(l staticOn) bool { return l.effect.Power != 0 || l.effect.Toughness != 0 }

// P613_4c: a static ability's +N/+M applies once to the permanent it
// affects, a merged permanent as a whole.
var P613_4c = &Property{
	Rule:         "613.4c",
	Needs:        []model.Feature{model.FeatureStatics},
	Draws:        genStatics,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		var out []string
		staticsAfterActions(s, rules, func(r *model.Permanent, on []staticOn) {
			if len(r.Components) < 2 {
				return
			}
			for _, l := range on {
				name := map[bool]string{true: "merged-attached", false: "merged-anthem"}[l.effect.Affects.Attached()]
				if modifiesPT(l) && !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		})
		slices.Sort(out)
		return out
	},
	Cover: map[string]float64{"merged-attached": 0.25, "merged-anthem": 0.05},
	Check: func(c *Case) error {
		return staticsJudged(c, func(on []staticOn) bool { return slices.ContainsFunc(on, modifiesPT) }, func(k int, r, e *model.Permanent, on []staticOn) error {
			gp, gt := basePT(e)
			wp, wt := basePT(r)
			if fmtInt(gp) == fmtInt(wp) && fmtInt(gt) == fmtInt(wt) {
				return nil
			}
			what := "a permanent"
			if len(r.Components) > 1 {
				what = "a merged permanent, one object,"
			}
			return problemOf("power-and-toughness-under-static", "%s, %s of components %s has power and toughness %s/%s before its own counters and effects, but the rules give %s/%s: it is %s that gets each of %s once (CR 613.4c)",
				at(c, k), e.ID, listWords(ids(e)), fmtInt(gp), fmtInt(gt), fmtInt(wp), fmtInt(wt), what, staticsWords(on, modifiesPT))
		})
	},
}

// losesAll reports whether an effect removes all abilities.
func losesAll(l staticOn) bool { return l.effect.LosesAllAbilities }

// P613_1f: effects that add and remove abilities apply in timestamp
// order, to a merged permanent as a whole.
var P613_1f = &Property{
	Rule:         "613.1f",
	Needs:        []model.Feature{model.FeatureStatics},
	Draws:        genStatics,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		var out []string
		add := func(name string) {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
		staticsAfterActions(s, rules, func(r *model.Permanent, on []staticOn) {
			loss := slices.IndexFunc(on, losesAll)
			if loss < 0 {
				return
			}
			if r.Mutated && lowerAbilities(s, r) {
				add("mutated-loses-all")
			}
			if slices.ContainsFunc(on[loss+1:], func(l staticOn) bool { return len(l.effect.Grants) > 0 }) {
				add("granted-after")
			}
		})
		slices.Sort(out)
		return out
	},
	Cover: map[string]float64{"mutated-loses-all": 0.05, "granted-after": 0.05},
	Check: func(c *Case) error {
		return staticsJudged(c, func(on []staticOn) bool { return slices.ContainsFunc(on, losesAll) }, func(k int, r, e *model.Permanent, on []staticOn) error {
			d, err := derived(e)
			if err != nil {
				return err
			}
			got, want := abilitySet(d.Characteristics.Abilities), abilitySet(r.Derived.Characteristics.Abilities)
			if got == want {
				return nil
			}
			return problemOf("abilities-under-ability-loss", "%s, %s of components %s has abilities %s, but the rules give %s: in layer 6 the effects %s apply in timestamp order, so it keeps only what an effect later than the loss grants, whichever component an ability came from (CR 613.1f, 613.7)",
				at(c, k), e.ID, listWords(ids(e)), setWords(d.Characteristics.Abilities), setWords(r.Derived.Characteristics.Abilities), staticsWords(on, func(l staticOn) bool { return losesAll(l) || len(l.effect.Grants) > 0 }))
		})
	},
}

// lowerAbilities reports whether a component of r other than the topmost
// is face up with abilities of its own: what a loss of all abilities
// must remove too.
func lowerAbilities(s *model.Scenario, r *model.Permanent) bool {
	for _, comp := range r.Components[1:] {
		if abs, ok := faceAbilities(s, comp, r.Status.Flipped); ok && !comp.FaceDown && len(abs) > 0 {
			return true
		}
	}
	return false
}
