package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// Ground truth. The reference trace says where a rule applies: which step
// merges, which permanent is melded, face down or double-faced. A check
// finds those places there and judges the engine's trace at each; where
// the engine's trace lacks what the rules have, the check fails rather
// than skip, so doing nothing never passes a rule. Where the engine had
// already gone another way before the place (the permanent is made of
// other cards), the place is not this rule's to judge: the harness
// compares the whole trace with the rules' and reports that departure
// under the rule that names it.

// stateAt returns state k of a trace: 0 is the start, k the state after
// step k-1.
func stateAt(t *model.Trace, k int) *model.State {
	if k == 0 {
		return &t.Start
	}
	return &t.Steps[k-1].State
}

// at names state k of a case in messages.
func at(c *Case, k int) string {
	if k == 0 {
		return "at the start"
	}
	return after(c, k-1)
}

// after names step i of a case in messages.
func after(c *Case, i int) string {
	return fmt.Sprintf("after action %d (%s)", i, c.Scenario.Actions[i].Type)
}

// makeup identifies what a permanent is made of: its components' objects,
// in any order. Two traces' permanents with one id and one makeup are the
// same permanent, whatever else they say of it.
func makeup(p *model.Permanent) string {
	if p == nil {
		return ""
	}
	ids := make([]string, len(p.Components))
	for i, comp := range p.Components {
		ids[i] = string(comp.Object)
	}
	slices.Sort(ids)
	return strings.Join(ids, " ")
}

// sameMakeup reports whether a and b have one makeup (makeup(a) ==
// makeup(b)), without sorting when their components come in one order,
// as they mostly do: a stack of a hundred thousand is then compared in
// linear time.
func sameMakeup(a, b *model.Permanent) bool {
	if a != nil && b != nil && slices.EqualFunc(a.Components, b.Components, func(x, y model.Component) bool { return x.Object == y.Object }) {
		return true
	}
	return makeup(a) == makeup(b)
}

// agreesAt reports whether the engine's state k has each named permanent
// made as the rules' state k has it (absent from both counts as agreeing).
func agreesAt(c *Case, k int, ids ...model.ObjectID) bool {
	es, rs := stateAt(c.Trace, k), stateAt(c.Reference, k)
	for _, id := range ids {
		e, r := es.Permanent(id), rs.Permanent(id)
		if (e == nil) != (r == nil) || !sameMakeup(e, r) {
			return false
		}
	}
	return true
}

// counterparts calls f for every permanent of every state of the rules'
// trace that sel selects, with the engine's permanent of the same id and
// makeup in the same state. Permanents the engine made of other cards, or
// lacks, are skipped: how they came to differ is another rule's finding,
// which the harness reports.
func counterparts(c *Case, sel func(r *model.Permanent) bool, f func(k int, r, e *model.Permanent) error) error {
	for k := 0; k <= len(c.Reference.Steps); k++ {
		rs, es := stateAt(c.Reference, k), stateAt(c.Trace, k)
		for i := range rs.Battlefield {
			r := &rs.Battlefield[i]
			if !sel(r) {
				continue
			}
			e := es.Permanent(r.ID)
			if e == nil || !sameMakeup(e, r) {
				continue
			}
			if err := f(k, r, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// madeAs fails unless the engine's state after step i has permanent id
// made as the rules' state has it: what "the engine did what this rule
// governs" means at a step that changes a permanent's makeup. what says
// what the step does, for the message.
func madeAs(c *Case, i int, id model.ObjectID, what string) (*model.Permanent, error) {
	r, e := c.Reference.Steps[i].State.Permanent(id), c.Trace.Steps[i].State.Permanent(id)
	switch {
	case r == nil:
		return nil, nil
	case e == nil:
		where := "keep it there"
		if stateAt(c.Reference, i).Permanent(id) == nil {
			where = "put it there"
		}
		return nil, problemOf("not-on-battlefield", "%s, %s is not on the battlefield: %s, and the rules %s, made of %s", after(c, i), id, what, where, listWords(ids(r)))
	case !sameMakeup(e, r):
		return nil, problemOf("made-otherwise", "%s, %s is made of %s: %s, and the rules make it of %s", after(c, i), id, listWords(ids(e)), what, listWords(ids(r)))
	}
	return e, nil
}

// likeRulesAt reports whether the engine's permanent id in state k is
// made, attached and characterized as the rules' is. What a permanent
// does by its characteristics (an ability that phases it out, an Aura
// that phases out with what it enchants) is judged only on one that has
// them as the rules say: otherwise the finding is the rule's that gave
// it others.
func likeRulesAt(c *Case, k int, id model.ObjectID) bool {
	r, e := stateAt(c.Reference, k).Permanent(id), stateAt(c.Trace, k).Permanent(id)
	if r == nil || e == nil {
		return r == nil && e == nil
	}
	chars := func(p *model.Permanent) string {
		if p.Derived == nil {
			return "none"
		}
		return charsView(p.Derived.Characteristics)
	}
	return sameMakeup(r, e) && r.AttachedTo == e.AttachedTo && r.EnchantedPlayer == e.EnchantedPlayer && chars(r) == chars(e)
}

// abilitiesAsRules reports whether the engine's permanent id after step
// i has the abilities the rules' has and is face down exactly when it
// is. A trigger of an ability the engine's permanent lacks, or has
// besides, is the finding of the rule that gave it those abilities (or
// turned it face down), not of the rule about what triggers.
func abilitiesAsRules(c *Case, i int, id model.ObjectID) bool {
	r, e := c.Reference.Steps[i].State.Permanent(id), c.Trace.Steps[i].State.Permanent(id)
	if r == nil || e == nil || r.Derived == nil || e.Derived == nil {
		return r == nil && e == nil
	}
	return r.Status.FaceDown == e.Status.FaceDown &&
		abilitySet(r.Derived.Characteristics.Abilities) == abilitySet(e.Derived.Characteristics.Abilities)
}

// triggered lists a step's triggers of observer o as "object/source"
// strings, sorted, for comparing the engine's step with the rules'.
func triggered(st model.Step, o model.Observer, id model.ObjectID) []string {
	var out []string
	for _, e := range st.Events {
		if e.Kind == model.Trigger && e.Observer == o && (id == "" || e.Object == id) {
			out = append(out, fmt.Sprintf("%s/%s", e.Object, e.Source))
		}
	}
	slices.Sort(out)
	return out
}

// countTriggers counts a step's triggers of observer o whose object of
// is true for.
func countTriggers(st model.Step, o model.Observer, of func(model.ObjectID) bool) int {
	n := 0
	for _, e := range st.Events {
		if e.Kind == model.Trigger && e.Observer == o && of(e.Object) {
			n++
		}
	}
	return n
}

// sameTriggers fails unless step i's triggers of observer o for object
// id ("" for any) are those of the rules' step: the engine reports each
// trigger the rules have and none they do not.
func sameTriggers(c *Case, i int, o model.Observer, id model.ObjectID, why string) error {
	return sameTriggersOf(c, i, o, func(e model.ObjectID) bool { return id == "" || e == id }, why)
}

// sameTriggersOf is sameTriggers for the triggers whose object of is
// true for: a permanent and its cards, say, so that an extra trigger for
// one of them is seen too.
func sameTriggersOf(c *Case, i int, o model.Observer, of func(model.ObjectID) bool, why string) error {
	pick := func(st model.Step) []string {
		var out []string
		for _, e := range st.Events {
			if e.Kind == model.Trigger && e.Observer == o && of(e.Object) {
				out = append(out, string(e.Object)+"/"+string(e.Source))
			}
		}
		return out
	}
	got, want := pick(c.Trace.Steps[i]), pick(c.Reference.Steps[i])
	if slices.Equal(got, want) {
		return nil // the same in the same order, as an engine that agrees mostly gives them
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return problemOf("triggers-"+Key(string(o)), "%s, %q triggered %s, but the rules trigger it %s: %s", after(c, i), o, triggersText(got), triggersText(want), why)
	}
	return nil
}

// triggersText shows a sorted list of "object/source" triggers in words:
// "once for p1", "twice for p1 (one from c2)", "for nothing".
func triggersText(list []string) string {
	if len(list) == 0 {
		return "for nothing"
	}
	var parts []string
	for i := 0; i < len(list); {
		n := 1
		for i+n < len(list) && list[i+n] == list[i] {
			n++
		}
		object, source, _ := strings.Cut(list[i], "/")
		part := object
		if source != "" {
			part += " from " + source
		}
		times := map[int]string{1: "once", 2: "twice"}[n]
		if times == "" {
			times = fmt.Sprintf("%d times", n)
		}
		parts = append(parts, times+" for "+part)
		i += n
	}
	return strings.Join(parts, ", ")
}

func orNone(list []string) any {
	if len(list) == 0 {
		return "nothing"
	}
	return list
}

// mergeStep returns the card that step i of the rules' trace merges and
// the permanent it merges with, or "" when the step merges nothing: the
// rules' permanent gained that card during the step.
func mergeStep(c *Case, i int) (card, target model.ObjectID) {
	prev, next := stateAt(c.Reference, i), &c.Reference.Steps[i].State
	for _, q := range next.Battlefield {
		p := prev.Permanent(q.ID)
		if p == nil || len(q.Components) <= len(p.Components) {
			continue
		}
		for _, comp := range q.Components {
			if !slices.Contains(ids(p), comp.Object) {
				return comp.Object, q.ID
			}
		}
	}
	return "", ""
}

// merges lists the steps of the rules' trace that merge something.
func merges(c *Case) []int {
	var out []int
	for i := range c.Reference.Steps {
		if card, _ := mergeStep(c, i); card != "" {
			out = append(out, i)
		}
	}
	return out
}

// rulesMerge reports whether the rules' trace of a scenario merges
// something, for Classify.
func rulesMerge(s *model.Scenario, rules *model.Trace) bool {
	return len(merges(&Case{Scenario: s, Reference: rules})) > 0
}

// leaves lists, for each step of the rules' trace, the permanents that
// left the battlefield during it, as they were before.
func leaves(t *model.Trace, i int) []*model.Permanent {
	var out []*model.Permanent
	prev, next := stateAt(t, i), &t.Steps[i].State
	for k := range prev.Battlefield {
		if p := &prev.Battlefield[k]; next.Permanent(p.ID) == nil {
			out = append(out, p)
		}
	}
	return out
}

// enters lists the permanents that are on the battlefield after step i of
// t and were not before it.
func enters(t *model.Trace, i int) []*model.Permanent {
	var out []*model.Permanent
	prev, next := stateAt(t, i), &t.Steps[i].State
	for k := range next.Battlefield {
		if q := &next.Battlefield[k]; prev.Permanent(q.ID) == nil {
			out = append(out, q)
		}
	}
	return out
}

// anyState reports whether some state of the rules' trace has a permanent
// that f selects, for Classify.
func anyState(rules *model.Trace, f func(p *model.Permanent) bool) bool {
	for k := 0; k <= len(rules.Steps); k++ {
		st := stateAt(rules, k)
		for i := range st.Battlefield {
			if f(&st.Battlefield[i]) {
				return true
			}
		}
	}
	return false
}

// anyStep reports whether some step of the rules' trace is one f selects.
func anyStep(rules *model.Trace, f func(i int) bool) bool {
	for i := range rules.Steps {
		if f(i) {
			return true
		}
	}
	return false
}

// byStep returns a Classify that gathers, step by step of the rules'
// trace, the labels f gives step i: the loop most per-step labels need,
// written once. f's case has the rules' trace as the engine's too.
func byStep(f func(c *Case, i int) []string) func(s *model.Scenario, rules *model.Trace) []string {
	return func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		for i := range rules.Steps {
			out = append(out, f(c, i)...)
		}
		return out
	}
}

// isMerged reports whether p, a permanent of the rules' trace, is a merged
// permanent: several components, not a melded pair (CR 730.2).
func isMerged(s *model.Scenario, p *model.Permanent) bool {
	return len(p.Components) > 1 && !isMelded(s, p)
}

// actionIs reports whether step i's action has one of the types.
func actionIs(c *Case, i int, types ...model.ActionType) bool {
	return slices.Contains(types, c.Scenario.Actions[i].Type)
}

// somethingHappens reports whether some step of the rules' trace changes
// the game: a permanent, a zone or the stack. A rule whose instruction
// does nothing needs cases where the engine must also do something, or an
// engine that plays no action at all would pass it.
func somethingHappens(s *model.Scenario, rules *model.Trace) bool {
	return anyStep(rules, func(i int) bool {
		return sameState("", stateAt(rules, i), &rules.Steps[i].State, s) != nil
	})
}

// ElseHappens is the label changing adds: a case in which the rules
// change the game in some step. It counts the cases that keep an engine
// doing nothing from passing a rule whose instruction does nothing, not
// the cases that reach the rule's own situation.
const ElseHappens = "something-else-happens"

// changing makes p a rule whose instruction does nothing: its Classify
// also gives the label ElseHappens (see somethingHappens), and
// Situations gives p's own labels without the work of that one.
func changing(p *Property) *Property {
	own := p.Classify
	p.situations = own
	p.Classify = func(s *model.Scenario, rules *model.Trace) []string {
		return append(own(s, rules), label(somethingHappens(s, rules), ElseHappens)...)
	}
	return p
}
