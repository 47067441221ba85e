package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// P702_140a: mutate's target is a non-Human creature with the same owner.
var P702_140a = &Property{
	Rule: "702.140a",
	Uncheckable: "a scenario scripts only legal casts (the reference rejects an illegal mutate target as an invalid scenario), " +
		"so no trace can show an engine accepting an illegal target; engines are judged on what happens once the spell is cast",
}

func illegalTarget(s *model.Scenario) bool {
	for i, a := range s.Actions {
		if a.Type == model.CastMutate && i+1 < len(s.Actions) && s.Actions[i+1].Type != model.Resolve {
			return true
		}
	}
	return false
}

// P702_140b: a mutating spell whose target is illegal enters on its own.
var P702_140b = &Property{
	Rule:         "702.140b",
	Needs:        []model.Feature{model.FeatureMutate},
	Gen:          genIllegal,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(illegalTarget(s), "illegal-target") },
	Cover:        map[string]float64{"illegal-target": 0.5},
	Check: func(c *Case) error {
		if err := sameAsReference(c, "the battlefield", battlefieldView); err != nil {
			return err
		}
		return sameAsReference(c, "the graveyards", zonesView(model.Graveyard))
	},
}

// P702_140c: the spell goes on top or underneath as its controller chose.
var P702_140c = &Property{
	Rule:  "702.140c",
	Needs: []model.Feature{model.FeatureMutate},
	Gen:   genMutate,
	Classify: func(s *model.Scenario) []string {
		var out []string
		for _, a := range s.Actions {
			if a.Type == model.Resolve && a.Choices.Position != "" {
				out = append(out, string(a.Choices.Position))
			}
		}
		return out
	},
	Cover: map[string]float64{"top": 0.03, "bottom": 0.03},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.Resolve) {
			a := action(c, i)
			card, target := merging(c, i)
			q := c.Trace.Steps[i].State.Permanent(target)
			if card == "" || q == nil || a.Choices.Position == "" {
				continue
			}
			at := slices.Index(ids(q), card)
			if at < 0 {
				continue
			}
			want := 0
			if a.Choices.Position == model.Bottom {
				want = len(q.Components) - 1
			}
			if at != want {
				return problem("after action %d, %s is component %d of %v, but its controller chose to put it on the %s", c.Trace.Steps[i].Action, card, at, ids(q), a.Choices.Position)
			}
		}
		return nil
	},
}

// mutateTriggers lists, per step, the "mutates" triggers.
func mutateTriggers(t *model.Trace) []string {
	var out []string
	for _, st := range t.Steps {
		var srcs []string
		for _, e := range st.Events {
			if e.Kind == model.Trigger && e.Observer == model.Mutates {
				srcs = append(srcs, fmt.Sprintf("%s/%s", e.Object, e.Source))
			}
		}
		slices.Sort(srcs)
		out = append(out, strings.Join(srcs, " "))
	}
	return out
}

func mutatesOntoMutator(s *model.Scenario) bool {
	for _, a := range s.Actions {
		if a.Type != model.CastMutate {
			continue
		}
		for _, p := range s.Start.Battlefield {
			if p.ID != a.Target {
				continue
			}
			for _, comp := range p.Components {
				if d := defOf(s, comp.Object); d != nil && !comp.FaceDown && d.Front.HasAbility(model.OnMutate) {
					return true
				}
			}
		}
	}
	return false
}

// P702_140d: each "whenever this creature mutates" ability triggers.
var P702_140d = &Property{
	Rule:         "702.140d",
	Needs:        []model.Feature{model.FeatureMutate},
	Gen:          genMutateOnto,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(mutatesOntoMutator(s), "onto-a-mutator") },
	Cover:        map[string]float64{"onto-a-mutator": 0.1},
	Check: func(c *Case) error {
		got, want := mutateTriggers(c.Trace), mutateTriggers(c.Reference)
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				return problem("after action %d, \"whenever this creature mutates\" triggered for %q, but the rules trigger it for %q: every such ability of the mutated permanent triggers", c.Trace.Steps[i].Action, got[i], want[i])
			}
		}
		return nil
	},
}

// P702_140e: a mutated permanent has every component's abilities.
var P702_140e = &Property{
	Rule:  "702.140e",
	Needs: []model.Feature{model.FeatureMutate},
	Gen:   genStacks,
	Classify: func(s *model.Scenario) []string {
		return label(slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return p.Mutated && !p.Status.FaceDown }), "face-up-mutated")
	},
	Cover: map[string]float64{"face-up-mutated": 0.2},
	Check: func(c *Case) error {
		return eachPermanent(c.Trace, func(where string, p *model.Permanent) error {
			if !p.Mutated || p.Status.FaceDown {
				return nil
			}
			d, err := derived(p)
			if err != nil {
				return err
			}
			for _, comp := range p.Components {
				if comp.FaceDown {
					continue
				}
				abilities, known := faceAbilities(c.Scenario, comp, p.Status.Flipped)
				if !known || slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy }) {
					continue
				}
				for _, ab := range abilities {
					if !slices.Contains(d.Characteristics.Abilities, ab) {
						return problem("%s, mutated permanent %s lacks %s, an ability of its component %s: it has every component's abilities", where, p.ID, ab, comp.Object)
					}
				}
			}
			return nil
		})
	},
}

// P702_140f: effects referring to the mutating spell refer to the merged permanent.
var P702_140f = &Property{
	Rule: "702.140f",
	Uncheckable: "no action of the scenario format refers to or modifies a mutating creature spell on the stack, " +
		"so no trace can show what such an effect would refer to",
}
