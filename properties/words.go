package properties

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
)

// This file says what a trace holds in words, for messages: a list of
// objects as "c1, c2 and c3", a permanent as named parts ("tapped: yes",
// "power/toughness: 2/2"), and two permanents by the parts in which they
// differ, never as Go values.

// listWords joins words as a reader would (words.List).
func listWords[T ~string](xs []T) string { return words.List(xs) }

// yesNo is a flag in words.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// A field is one named part of a permanent, its value in words.
type field struct{ name, value string }

// statusFields are a permanent's four statuses (CR 110.5).
func statusFields(st model.Status) []field {
	return []field{{"tapped", yesNo(st.Tapped)}, {"flipped", yesNo(st.Flipped)}, {"face down", yesNo(st.FaceDown)}, {"phased out", yesNo(st.PhasedOut)}}
}

// statusWords is a status in words (words.Status): "tapped and face
// down", or "untapped, face up, phased in" when none of them holds.
func statusWords(st model.Status) string { return words.Status(st) }

// componentWords is one component in words: "c1 (back face up)", "c2
// (face down by morph)".
func componentWords(comp model.Component) string {
	switch {
	case comp.FaceDown && comp.FaceDownBy != "":
		return fmt.Sprintf("%s (%s face down by %s)", comp.Object, orFront(comp.Face), comp.FaceDownBy)
	case comp.FaceDown:
		return fmt.Sprintf("%s (%s face down)", comp.Object, orFront(comp.Face))
	}
	return fmt.Sprintf("%s (%s face up)", comp.Object, orFront(comp.Face))
}

// componentsWords lists a permanent's components, topmost first (a
// melded permanent's in no order, so sorted).
func componentsWords(s *model.Scenario, p *model.Permanent) string {
	out := make([]string, len(p.Components))
	for i, comp := range p.Components {
		out[i] = componentWords(comp)
	}
	if isMelded(s, p) {
		slices.Sort(out)
	}
	return listWords(out)
}

// countersWords lists counters by kind: "2 +1/+1, 1 -1/-1", "none".
func countersWords(cs map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(cs)) {
		if cs[k] != 0 {
			out = append(out, strconv.Itoa(cs[k])+" "+k)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// effectsWords lists the effects on a permanent: "+1/+1 until end of
// turn", "a copy of Grizzly Bears that also has flying".
func effectsWords(p *model.Permanent) string {
	var out []string
	for _, e := range p.Effects {
		var w string
		switch e.Kind {
		case model.EffectPump:
			w = fmt.Sprintf("%+d/%+d", e.Power, e.Toughness)
		case model.EffectCopy:
			w = "a copy of " + e.Of
		default:
			w = string(e.Kind)
		}
		if len(e.Gains) > 0 {
			w += " that also has " + listWords(sorted(toIDs(e.Gains)))
		}
		if e.UntilEndOfTurn {
			w += " until end of turn"
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "; ")
}

func toIDs(as []model.AbilityID) []model.ObjectID {
	out := make([]model.ObjectID, len(as))
	for i, a := range as {
		out[i] = model.ObjectID(a)
	}
	return out
}

// setWords is a set-valued characteristic: its members sorted, each once,
// or "none".
func setWords[T ~string](xs []T) string {
	set := slices.Clone(xs)
	slices.Sort(set)
	set = slices.Compact(set)
	if len(set) == 0 {
		return "none"
	}
	return listWords(set)
}

// ptWords is power/toughness, "2/2", or "none" for a noncreature.
func ptWords(p, t *int) string {
	if p == nil && t == nil {
		return "none"
	}
	return fmtInt(p) + "/" + fmtInt(t)
}

// characteristicFields are a permanent's characteristics as the trace
// reports them (CR 109.3), each named.
func characteristicFields(ch model.Characteristics) []field {
	name := ch.Name
	if name == "" {
		name = "none"
	}
	return []field{
		{"name", name}, {"mana value", strconv.Itoa(ch.ManaValue)},
		{"colors", setWords(ch.Colors)}, {"types", setWords(ch.Types)}, {"subtypes", setWords(ch.Subtypes)},
		{"supertypes", setWords(ch.Supertypes)}, {"power/toughness", ptWords(ch.Power, ch.Toughness)},
		{"abilities", setWords(ch.Abilities)},
	}
}

// flagFields are the flags a trace derives for a permanent.
func flagFields(p *model.Permanent) []field {
	d := p.Derived
	return []field{
		{"token", yesNo(d.Token)}, {"merged", yesNo(d.Merged)}, {"melded", yesNo(d.Melded)},
		{"double-faced", yesNo(d.DoubleFaced)}, {"transformed", yesNo(d.Transformed)},
		{"commander", yesNo(d.Commander)}, {"mutated", yesNo(p.Mutated)},
	}
}

// attachmentFields say what a permanent is attached to.
func attachmentFields(p *model.Permanent) []field {
	to, player := string(p.AttachedTo), string(p.EnchantedPlayer)
	if to == "" {
		to = "nothing"
	}
	if player == "" {
		player = "none"
	}
	return []field{{"attached to", to}, {"enchanted player", player}}
}

// differing returns the names of the fields in which got and want differ
// (by name; a field one of them lacks differs), in want's order, then
// got's.
func differing(got, want []field) []string {
	value := func(fs []field, name string) (string, bool) {
		for _, f := range fs {
			if f.name == name {
				return f.value, true
			}
		}
		return "", false
	}
	var names []string
	for _, f := range want {
		if v, ok := value(got, f.name); !ok || v != f.value {
			names = append(names, f.name)
		}
	}
	for _, f := range got {
		if _, ok := value(want, f.name); !ok {
			names = append(names, f.name)
		}
	}
	return names
}

// fieldsWords shows the named fields of fs: "tapped yes", "tapped yes,
// power/toughness 3/3".
func fieldsWords(fs []field, names []string) string {
	var out []string
	for _, n := range names {
		v := "none"
		for _, f := range fs {
			if f.name == n {
				v = f.value
			}
		}
		out = append(out, n+" "+v)
	}
	return strings.Join(out, ", ")
}

// changedWords says how permanent after differs from before, part by
// part: "components c1 (front face down) rather than c1 (back face down),
// transformed yes rather than no". It is "" when they are the same.
func changedWords(before, after []field) string {
	var out []string
	for _, n := range differing(after, before) {
		a, b := fieldsWords(after, []string{n}), fieldsWords(before, []string{n})
		out = append(out, a+" rather than "+strings.TrimPrefix(b, n+" "))
	}
	return strings.Join(out, ", ")
}

// countWords is "1 card", "2 cards", "0 cards" (words.Count).
func countWords(n int, noun string) string { return words.Count(n, noun) }

// stackWords lists the stack, top last: "c3 (cast by A, targeting p1)".
func stackWords(st *model.State) string {
	var out []string
	for _, so := range st.Stack {
		w := fmt.Sprintf("%s (cast by %s", so.Object, so.Controller)
		if so.Target != "" {
			w += ", targeting " + string(so.Target)
		}
		if so.FaceDownBy != "" {
			w += ", face down by " + string(so.FaceDownBy)
		}
		out = append(out, w+")")
	}
	if len(out) == 0 {
		return "an empty stack"
	}
	return strings.Join(out, ", ")
}

// linksWords lists what linked abilities exiled: "c4 by p2".
func linksWords(st *model.State) string {
	var out []string
	for _, l := range st.Links {
		out = append(out, listWords(l.Cards)+" by "+string(l.Source))
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, "; ")
}

// charsApart says in words the characteristics in which got and want
// differ: "power/toughness 3/3, abilities flying" against "power/toughness
// 2/2, abilities none".
func charsApart(got, want model.Characteristics) (g, w string) {
	gf, wf := characteristicFields(got), characteristicFields(want)
	names := differing(gf, wf)
	return fieldsWords(gf, names), fieldsWords(wf, names)
}

// permCharsApart is charsApart for two permanents as characteristics(p,
// abilities) shows them: power and toughness without their own counters
// and pumps, abilities left out unless asked for.
func permCharsApart(got, want *model.Permanent, abilities bool) (g, w string) {
	ch := func(p *model.Permanent) model.Characteristics {
		if p.Derived == nil {
			return model.Characteristics{}
		}
		c := p.Derived.Characteristics
		if !abilities {
			c.Abilities = nil
		}
		c.Power, c.Toughness = basePT(p)
		return c
	}
	if got.Derived == nil || want.Derived == nil {
		return map[bool]string{true: "no characteristics", false: "characteristics"}[got.Derived == nil],
			map[bool]string{true: "no characteristics", false: "characteristics"}[want.Derived == nil]
	}
	return charsApart(ch(got), ch(want))
}

// flagWords is a flag in words, as the engine reports it: "face down"
// or "not face down".
func flagWords(b bool, flag string) string {
	if b {
		return flag
	}
	return "not " + flag
}
