package properties

import (
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P702_140a: mutate's target is a non-Human creature with the same owner.
var P702_140a = &Property{
	Rule:  "702.140a",
	Needs: []model.Feature{model.FeatureMutate, model.FeatureIllegalTargets},
	Draws: genMutateTargets,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = mutateCasts(c, "702.140a", func(i int, card, target model.ObjectID) error {
			if l := mutateTargetLabel(c, i, card, target); l != "legal" && !slices.Contains(out, l) {
				out = append(out, l)
			}
			return nil
		})
		return out
	},
	// A legal cast is in nearly every case; what makes one illegal is
	// asked a share of, and explored first.
	Cover: map[string]float64{"human": 0.1, "other-owner": 0.1, "noncreature": 0.005},
	Check: func(c *Case) error {
		return mutateCasts(c, "702.140a", func(i int, card, target model.ObjectID) error {
			rules, engine := forbidden(c.Reference.Steps[i]), forbidden(c.Trace.Steps[i])
			why := "a mutating creature spell targets a non-Human creature with the same owner as the spell"
			switch {
			case engine && !rules:
				return problemOf("mutate-cast-refused", "%s, the engine answers that %s can't be cast at %s (not_allowed), but the rules allow it: %s", after(c, i), card, target, why)
			case rules && !engine:
				return problemOf("mutate-cast-though-forbidden", "%s, the engine does not answer that %s can't be cast at %s (no not_allowed), but the rules forbid it (%s): %s", after(c, i), card, target, mutateTargetLabel(c, i, card, target), why)
			}
			return nil
		})
	},
}

// mutateCasts calls f for each mutating spell cast of the scenario whose
// target the engine's trace has as the rules' does before the step
// (made, attached and characterized alike: otherwise what makes it legal
// is another rule's finding), whose spell is where the rules have it, and
// which the rules allow or forbid by rule: a cast they forbid by another
// (its target phased out, 702.26b; with shroud, 702.18a) is that rule's,
// and so is one they allow that a restriction on casting is in question
// for (601.3) or whose target has hexproof (702.11b) or protection
// (702.16b).
func mutateCasts(c *Case, rule model.RuleID, f func(i int, card, target model.ObjectID) error) error {
	for i, a := range c.Scenario.Actions {
		if a.Type != model.CastMutate || i >= len(c.Reference.Steps) || i >= len(c.Trace.Steps) {
			continue
		}
		if slices.ContainsFunc(c.Reference.Steps[i].Events, func(e model.Event) bool { return e.Kind == model.NotAllowed && e.Rule != rule }) {
			continue
		}
		if !likeRulesAt(c, i, a.Target) || !inHand(stateAt(c.Trace, i), a.Object) || !inHand(stateAt(c.Reference, i), a.Object) {
			continue
		}
		// Where the rules allow the cast and the engine refuses it, and a
		// restriction, hexproof or protection is in question, the refusal
		// is that rule's finding (601.3, 702.11b, 702.16b).
		refused := !forbidden(c.Reference.Steps[i]) && forbidden(c.Trace.Steps[i])
		if len(restricted(c, i)) > 0 && refused {
			continue
		}
		if rule != "702.11b" && hexproofed(stateAt(c.Reference, i).Permanent(a.Target)) && refused {
			continue
		}
		if rule != "702.16b" && rule != "702.11b" && protected(stateAt(c.Reference, i).Permanent(a.Target)) && refused {
			continue
		}
		if err := f(i, a.Object, a.Target); err != nil {
			return err
		}
	}
	return nil
}

// forbidden reports whether a step reports its action not allowed.
func forbidden(st model.Step) bool {
	return slices.ContainsFunc(st.Events, func(e model.Event) bool { return e.Kind == model.NotAllowed })
}

// inHand reports whether card is in a player's hand in st.
func inHand(st *model.State, card model.ObjectID) bool {
	for _, pl := range st.Players {
		if slices.Contains(pl.Zones.Hand, card) {
			return true
		}
	}
	return false
}

// mutateTargetLabel names what makes step i's mutate target legal or not
// in the rules' trace: "human", "other-owner", both
// ("human-of-other-owner"), "noncreature", a noncreature of the other
// owner ("noncreature-of-other-owner"), "legal", or "gone" when the
// rules' state has no such permanent, or none with characteristics.
func mutateTargetLabel(c *Case, i int, card, target model.ObjectID) string {
	p := stateAt(c.Reference, i).Permanent(target)
	if p == nil || p.Derived == nil {
		return "gone"
	}
	creature := slices.Contains(p.Derived.Characteristics.Types, "creature")
	human := slices.Contains(p.Derived.Characteristics.Subtypes, "Human")
	other := false
	if o := c.Scenario.Object(card); o != nil && ownerOf(c.Scenario, p) != o.Owner {
		other = true
	}
	// Each reason is labelled alone only where it alone forbids the cast:
	// an engine that breaks one of them shows it only there.
	switch {
	case !creature && other:
		return "noncreature-of-other-owner"
	case !creature:
		return "noncreature"
	case human && other:
		return "human-of-other-owner"
	case human:
		return "human"
	case other:
		return "other-owner"
	}
	return "legal"
}

// mutatingResolve returns the mutating spell that step i of the rules'
// trace resolves and its target, or "" when the step resolves none.
func mutatingResolve(c *Case, i int) (card, target model.ObjectID) {
	if !actionIs(c, i, model.Resolve) {
		return "", ""
	}
	st := stateAt(c.Reference, i)
	if n := len(st.Stack); n > 0 && st.Stack[n-1].Target != "" {
		return st.Stack[n-1].Object, st.Stack[n-1].Target
	}
	return "", ""
}

// illegalResolves calls f for each step of the rules' trace in which a
// mutating spell resolves with an illegal target and enters on its own,
// when the engine's target was as the rules' (made the same, phased the
// same way) before the step.
func illegalResolves(c *Case, f func(i int, card, target model.ObjectID) error) error {
	for i := range c.Reference.Steps {
		card, target := mutatingResolve(c, i)
		if card == "" || c.Reference.Steps[i].State.Permanent(model.EnteredID(card, i)) == nil || !agreesAt(c, i, target) {
			continue
		}
		e, r := stateAt(c.Trace, i).Permanent(target), stateAt(c.Reference, i).Permanent(target)
		if e != nil && r != nil && e.Status.PhasedOut != r.Status.PhasedOut {
			continue
		}
		if err := f(i, card, target); err != nil {
			return err
		}
	}
	return nil
}

// enteredAlone fails unless, after step i, card is a permanent of its own
// and not part of target.
func enteredAlone(c *Case, i int, card, target model.ObjectID, why string) error {
	next := &c.Trace.Steps[i].State
	if q := next.Permanent(target); q != nil && slices.Contains(ids(q), card) {
		return problemOf("illegal-target-merged", "%s, %s merged with %s: %s", after(c, i), card, target, why)
	}
	id := model.EnteredID(card, i)
	if q := next.Permanent(id); q == nil || !slices.Equal(ids(q), []model.ObjectID{card}) {
		return problemOf("illegal-target-not-own-permanent", "%s, %s is not on the battlefield as permanent %s of its own (it is in %s): %s", after(c, i), card, id, whereabouts(next, []model.ObjectID{card}), why)
	}
	return nil
}

// P702_140b: a mutating spell whose target is illegal enters on its own.
var P702_140b = &Property{
	Rule:  "702.140b",
	Needs: []model.Feature{model.FeatureMutate},
	Draws: genIllegal,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		n := 0
		_ = illegalResolves(c, func(int, model.ObjectID, model.ObjectID) error { n++; return nil })
		return label(n > 0, "illegal-target")
	},
	Cover: map[string]float64{"illegal-target": 0.3},
	Check: func(c *Case) error {
		return illegalResolves(c, func(i int, card, target model.ObjectID) error {
			return enteredAlone(c, i, card, target, "its target is illegal, so it resolves as a creature spell and enters the battlefield on its own")
		})
	},
}

// mutations calls f for each step of the rules' trace in which a mutating
// spell merges with its target, when the engine had the target made as
// the rules did before the step.
func mutations(c *Case, f func(i int, card, target model.ObjectID) error) error {
	return eachMerge(c, func(i int, card, target model.ObjectID) error {
		if !actionIs(c, i, model.Resolve) {
			return nil
		}
		return f(i, card, target)
	})
}

// P702_140c: the spell goes on top or underneath as its controller chose,
// and the result is a mutated permanent.
var P702_140c = &Property{
	Rule:  "702.140c",
	Needs: []model.Feature{model.FeatureMutate},
	Draws: genMutate,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = mutations(c, func(i int, card, target model.ObjectID) error {
			out = append(out, string(s.Actions[i].Choices.Position))
			return nil
		})
		return out
	},
	Cover: map[string]float64{"top": 0.03, "bottom": 0.03},
	Check: func(c *Case) error {
		err := mutations(c, func(i int, card, target model.ObjectID) error {
			q := didMerge(c, i, card, target)
			if q == nil {
				return nil
			}
			pos := c.Scenario.Actions[i].Choices.Position
			want := 0
			if pos == model.Bottom {
				want = len(q.Components) - 1
			}
			if got := slices.Index(ids(q), card); got != want {
				return problemOf("mutate-position-ignored", "%s, %s is component %d of %s, but its controller chose to put it on the %s", after(c, i), card, got, listWords(ids(q)), pos)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return counterparts(c, func(r *model.Permanent) bool { return r.Mutated }, func(k int, r, e *model.Permanent) error {
			if !e.Mutated {
				return problemOf("not-reported-mutated", "%s, %s of components %s does not report mutated: a mutating spell merged with it, so it is a mutated permanent", at(c, k), e.ID, listWords(ids(e)))
			}
			return nil
		})
	},
}

// P702_140d: each "whenever this creature mutates" ability triggers.
var P702_140d = &Property{
	Rule:         "702.140d",
	Needs:        []model.Feature{model.FeatureMutate},
	Observes:     []model.Observer{model.Mutates},
	Draws:        genMutateOnto,
	Differential: true,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyStep(rules, func(i int) bool { return len(triggered(rules.Steps[i], model.Mutates, "")) > 1 }), "onto-a-mutator")
	},
	Cover: map[string]float64{"onto-a-mutator": 0.1},
	Check: func(c *Case) error {
		return mutations(c, func(i int, card, target model.ObjectID) error {
			if didMerge(c, i, card, target) == nil {
				return nil
			}
			if !abilitiesAsRules(c, i, target) {
				return nil // another rule's finding: 702.140e's, 730.2e's
			}
			return sameTriggers(c, i, model.Mutates, "", fmt.Sprintf("every \"whenever this creature mutates\" ability of the mutated %s triggers", target))
		})
	},
}

// P702_140e: a mutated permanent has every component's abilities.
var P702_140e = &Property{
	Rule:         "702.140e",
	Needs:        []model.Feature{model.FeatureMutate},
	Differential: true,
	Draws:        genStacks,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyState(rules, func(p *model.Permanent) bool { return p.Mutated && !p.Status.FaceDown }), "face-up-mutated")
	},
	Cover: map[string]float64{"face-up-mutated": 0.2},
	Check: func(c *Case) error {
		return counterparts(c, func(r *model.Permanent) bool { return r.Mutated && !r.Status.FaceDown }, func(k int, r, e *model.Permanent) error {
			if physical(c.Scenario, e) != physical(c.Scenario, r) || r.Status.Flipped && slices.ContainsFunc(r.Components, func(comp model.Component) bool { return isFlipCard(c.Scenario, comp) }) {
				return nil // made otherwise, or flipped with a flip card (730.2h): another rule's finding
			}
			if keywords(e) != keywords(r) {
				return nil // a keyword counter lost or gained: another rule's finding
			}
			if _, abl := staticsGive(c.Scenario, stateAt(c.Reference, k), r); abl {
				return nil // what a static effect gives or takes is 613.1f's finding
			}
			d, err := derived(e)
			if err != nil {
				return err
			}
			got, want := abilitySet(d.Characteristics.Abilities), abilitySet(r.Derived.Characteristics.Abilities)
			if got != want {
				return problemOf("mutated-abilities", "%s, mutated permanent %s of components %s has abilities %s, but the rules give %s: it has every ability of each component, and no others", at(c, k), e.ID, listWords(ids(e)), setWords(d.Characteristics.Abilities), setWords(r.Derived.Characteristics.Abilities))
			}
			return nil
		})
	},
}

func abilitySet(abs []model.AbilityID) string {
	out := make([]string, len(abs))
	for i, a := range abs {
		out[i] = string(a)
	}
	slices.Sort(out)
	return fmt.Sprint(slices.Compact(out))
}

// P702_140f: effects referring to the mutating spell refer to the merged permanent.
var P702_140f = &Property{
	Rule: "702.140f",
	Uncheckable: "no action of the scenario format refers to or modifies a mutating creature spell on the stack, " +
		"so no trace can show what such an effect would refer to",
}

// ownerOf is a permanent's owner: its topmost component's (the
// reference's reading of 108.3 for a merged permanent), a token an action
// created being its player's (CR 111.2).
func ownerOf(s *model.Scenario, p *model.Permanent) model.PlayerID {
	top := p.Components[0].Object
	if o := s.Object(top); o != nil {
		return o.Owner
	}
	for _, a := range s.Actions {
		if (a.Type == model.CreateToken || a.Type == model.TokenCopy) && a.Token == top {
			return a.Player
		}
	}
	return ""
}
