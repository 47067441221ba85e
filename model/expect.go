package model

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// An Expectation is a hand-written claim about the step after one action of
// a scenario, such as "one creature died and two cards went to a
// graveyard". Any engine's trace can be checked against it; fields left
// empty claim nothing.
type Expectation struct {
	// After is the index of the action whose step is checked.
	After int `json:"after"`
	// Why says which rule or ruling the expectation comes from.
	Why string `json:"why,omitempty"`
	// Triggers gives the exact number of triggers of each named observer.
	Triggers map[Observer]int `json:"triggers,omitempty"`
	// NothingHappens names the rule by which the action is taken and does
	// nothing: the step must have a nothing-happens event citing that
	// rule or none (citing rules is mergecheck's business, not an
	// engine's).
	NothingHappens RuleID `json:"nothing_happens,omitempty"`
	// NotAllowed names a rule that forbids the action: it can't be taken,
	// so the step reports a not-allowed event (citing that rule or none)
	// and the state is exactly as before it.
	NotAllowed RuleID `json:"not_allowed,omitempty"`
	// Revealed lists cards that must be revealed during the step.
	Revealed []ObjectID `json:"revealed,omitempty"`
	// LeftBattlefield gives the objects and cards counted by the zone
	// changes that took objects off the battlefield (CR 712.21e).
	LeftBattlefield *Count `json:"left_battlefield,omitempty"`
	// Zones gives the exact contents of named zones by player: for example
	// {"A": {"graveyard": ["c2", "c1"]}}. Hand and command are compared as sets.
	Zones map[PlayerID]map[Zone][]ObjectID `json:"zones,omitempty"`
	// Permanents gives claims about permanents by id.
	Permanents map[ObjectID]PermanentClaim `json:"permanents,omitempty"`
	// Battlefield gives the exact number of permanents on the battlefield.
	Battlefield *int `json:"battlefield,omitempty"`
	// NoReveal claims that no card was revealed during the step.
	NoReveal bool `json:"no_reveal,omitempty"`
	// Sequence lists events that happen during the step in this order
	// (others may come between them): a replacement before the trigger
	// it causes, say.
	Sequence []EventClaim `json:"sequence,omitempty"`
}

// An EventClaim picks events of a step: those of its kind and, where set,
// of its observer and object.
type EventClaim struct {
	Kind     EventKind `json:"kind"`
	Observer Observer  `json:"observer,omitempty"`
	Object   ObjectID  `json:"object,omitempty"`
}

func (c EventClaim) matches(e Event) bool {
	return e.Kind == c.Kind && (c.Observer == "" || e.Observer == c.Observer) && (c.Object == "" || e.Object == c.Object)
}

func (c EventClaim) String() string {
	s := string(c.Kind)
	if c.Observer != "" {
		s += " " + string(c.Observer)
	}
	if c.Object != "" {
		s += " of " + string(c.Object)
	}
	return s
}

// A FaceClaim is a claim about one component: which face is up, and
// whether it is face down.
type FaceClaim struct {
	Object   ObjectID `json:"object"`
	Face     FaceSide `json:"face,omitempty"` // front when empty
	FaceDown bool     `json:"face_down,omitempty"`
}

// A Count is a number of objects and of cards.
type Count struct {
	Objects int `json:"objects"`
	Cards   int `json:"cards"`
}

// A PermanentClaim is a set of claims about one permanent.
type PermanentClaim struct {
	Absent     bool           `json:"absent,omitempty"`
	Components []ObjectID     `json:"components,omitempty"` // topmost first
	Controller PlayerID       `json:"controller,omitempty"`
	Name       *string        `json:"name,omitempty"`
	Power      *int           `json:"power,omitempty"`
	Toughness  *int           `json:"toughness,omitempty"`
	Token      *bool          `json:"token,omitempty"`
	Status     *Status        `json:"status,omitempty"`
	Counters   map[string]int `json:"counters,omitempty"`
	Abilities  []AbilityID    `json:"abilities,omitempty"` // must all be present
	// AbilitiesExactly is the whole set of abilities; Lacks lists
	// abilities that must be absent.
	AbilitiesExactly *[]AbilityID `json:"abilities_exactly,omitempty"`
	Lacks            []AbilityID  `json:"lacks,omitempty"`
	ManaValue        *int         `json:"mana_value,omitempty"`
	// Colors, Types, Subtypes and Supertypes are exact sets: [] claims
	// none (a colourless permanent has "colors": []).
	Colors     *[]Color  `json:"colors,omitempty"`
	Types      *[]string `json:"types,omitempty"`
	Subtypes   *[]string `json:"subtypes,omitempty"`
	Supertypes *[]string `json:"supertypes,omitempty"`
	// Faces gives each component's face and face-down state, topmost
	// first.
	Faces []FaceClaim `json:"faces,omitempty"`
	// AttachedTo is the permanent it is attached to; "" claims it is
	// attached to nothing, and nil (the field left out) claims nothing.
	AttachedTo               *ObjectID `json:"attached_to,omitempty"`
	ControlledSinceTurnStart *bool     `json:"controlled_since_turn_start,omitempty"`
}

// CheckExpectations checks every expectation of s against t and returns
// the errors.Join of those that fail, each naming its action and claim.
func CheckExpectations(s *Scenario, t *Trace) error {
	var errs []error
	for i, e := range s.Expect {
		if err := e.Check(t); err != nil {
			errs = append(errs, fmt.Errorf("expectation %d (after action %d): %w", i, e.After, err))
		}
	}
	return errors.Join(errs...)
}

// Check returns nil if the step of t after action e.After meets every claim
// of e, and otherwise an error listing each claim it misses.
func (e *Expectation) Check(t *Trace) error {
	var step *Step
	before := &t.Start
	for i := range t.Steps {
		if t.Steps[i].Action == e.After {
			step = &t.Steps[i]
			if i > 0 {
				before = &t.Steps[i-1].State
			}
		}
	}
	if step == nil {
		return fmt.Errorf("trace has no step for action %d", e.After)
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	got := map[Observer]int{}
	left := Count{}
	revealed := map[ObjectID]bool{}
	// An event citing no rule meets a claim of any rule.
	nothing, forbidden := map[RuleID]bool{}, map[RuleID]bool{}
	for _, ev := range step.Events {
		switch ev.Kind {
		case Trigger:
			got[ev.Observer]++
		case ZoneChange:
			if ev.From == Battlefield {
				left.Objects += ev.Objects
				left.Cards += ev.Cards
			}
		case Reveal:
			for _, o := range ev.Revealed {
				revealed[o] = true
			}
		case NothingHappens:
			nothing[ev.Rule] = true
		case NotAllowed:
			forbidden[ev.Rule] = true
		}
	}
	for _, o := range slices.Sorted(maps.Keys(e.Triggers)) {
		if got[o] != e.Triggers[o] {
			fail("observer %s triggered %d times, want %d", o, got[o], e.Triggers[o])
		}
	}
	if e.NothingHappens != "" && !nothing[e.NothingHappens] && !nothing[""] {
		fail("no nothing-happens event (for %s)", e.NothingHappens)
	}
	if e.NotAllowed != "" {
		if !forbidden[e.NotAllowed] && !forbidden[""] {
			fail("no not-allowed event (for %s): the action can't be taken", e.NotAllowed)
		}
		if !sameState(before, &step.State) {
			fail("the state changed: an action that can't be taken leaves the game as it was (CR 733)")
		}
	}
	for _, o := range e.Revealed {
		if !revealed[o] {
			fail("%s was not revealed", o)
		}
	}
	if e.LeftBattlefield != nil && left != *e.LeftBattlefield {
		fail("left the battlefield: %d objects and %d cards, want %d objects and %d cards",
			left.Objects, left.Cards, e.LeftBattlefield.Objects, e.LeftBattlefield.Cards)
	}
	if e.NoReveal && len(revealed) > 0 {
		fail("%v revealed, want no reveal", slices.Sorted(maps.Keys(revealed)))
	}
	if len(e.Sequence) > 0 {
		next := 0
		for _, ev := range step.Events {
			if next < len(e.Sequence) && e.Sequence[next].matches(ev) {
				next++
			}
		}
		if next < len(e.Sequence) {
			fail("events are not in the order %v: none %s after the ones before it", e.Sequence, e.Sequence[next])
		}
	}
	if e.Battlefield != nil && len(step.State.Battlefield) != *e.Battlefield {
		fail("battlefield holds %d permanents, want %d", len(step.State.Battlefield), *e.Battlefield)
	}
	for _, pid := range slices.Sorted(maps.Keys(e.Zones)) {
		p := step.State.Player(pid)
		if p == nil {
			fail("no player %s", pid)
			continue
		}
		for _, z := range slices.Sorted(maps.Keys(e.Zones[pid])) {
			have, ok := p.Zones.Get(z)
			if !ok {
				fail("unknown zone %q", z)
				continue
			}
			want := e.Zones[pid][z]
			if z == Hand || z == Command {
				have, want = slices.Sorted(slices.Values(have)), slices.Sorted(slices.Values(want))
			}
			if !slices.Equal(have, want) {
				fail("%s's %s is %v, want %v", pid, z, have, want)
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(e.Permanents)) {
		for _, msg := range e.Permanents[id].check(id, step.State.Permanent(id)) {
			fail("%s", msg)
		}
	}
	return errors.Join(errs...)
}

func (c PermanentClaim) check(id ObjectID, p *Permanent) []string {
	if p == nil {
		if c.Absent {
			return nil
		}
		return []string{fmt.Sprintf("permanent %s is not on the battlefield", id)}
	}
	if c.Absent {
		return []string{fmt.Sprintf("permanent %s is on the battlefield, want it gone", id)}
	}
	var out []string
	if c.Components != nil {
		var have []ObjectID
		for _, comp := range p.Components {
			have = append(have, comp.Object)
		}
		if !slices.Equal(have, c.Components) {
			out = append(out, fmt.Sprintf("%s has components %v, want %v", id, have, c.Components))
		}
	}
	if c.Faces != nil {
		var have []FaceClaim
		for _, comp := range p.Components {
			face := comp.Face
			if face == "" {
				face = Front
			}
			have = append(have, FaceClaim{Object: comp.Object, Face: face, FaceDown: comp.FaceDown})
		}
		want := slices.Clone(c.Faces)
		for i := range want {
			if want[i].Face == "" {
				want[i].Face = Front
			}
		}
		if !slices.Equal(have, want) {
			out = append(out, fmt.Sprintf("%s's components show %v, want %v", id, have, want))
		}
	}
	if c.AttachedTo != nil && p.AttachedTo != *c.AttachedTo {
		out = append(out, fmt.Sprintf("%s is attached to %q, want %q", id, p.AttachedTo, *c.AttachedTo))
	}
	if c.ControlledSinceTurnStart != nil && p.ControlledSinceTurnStart != *c.ControlledSinceTurnStart {
		out = append(out, fmt.Sprintf("%s has controlled_since_turn_start=%t, want %t", id, p.ControlledSinceTurnStart, *c.ControlledSinceTurnStart))
	}
	if c.Controller != "" && p.Controller != c.Controller {
		out = append(out, fmt.Sprintf("%s is controlled by %s, want %s", id, p.Controller, c.Controller))
	}
	if c.Status != nil && p.Status != *c.Status {
		out = append(out, fmt.Sprintf("%s has status %+v, want %+v", id, p.Status, *c.Status))
	}
	for _, k := range slices.Sorted(maps.Keys(c.Counters)) {
		if p.Counters[k] != c.Counters[k] {
			out = append(out, fmt.Sprintf("%s has %d %s counters, want %d", id, p.Counters[k], k, c.Counters[k]))
		}
	}
	d := p.Derived
	if d == nil {
		if c.characteristic() {
			out = append(out, fmt.Sprintf("%s has no derived values to check", id))
		}
		return out
	}
	ch := d.Characteristics
	if c.Name != nil && ch.Name != *c.Name {
		out = append(out, fmt.Sprintf("%s is named %q, want %q", id, ch.Name, *c.Name))
	}
	if c.Power != nil && (ch.Power == nil || *ch.Power != *c.Power) {
		out = append(out, fmt.Sprintf("%s has power %s, want %d", id, fmtInt(ch.Power), *c.Power))
	}
	if c.Toughness != nil && (ch.Toughness == nil || *ch.Toughness != *c.Toughness) {
		out = append(out, fmt.Sprintf("%s has toughness %s, want %d", id, fmtInt(ch.Toughness), *c.Toughness))
	}
	if c.Token != nil && d.Token != *c.Token {
		out = append(out, fmt.Sprintf("%s reports token=%t, want %t", id, d.Token, *c.Token))
	}
	for _, a := range c.Abilities {
		if !slices.Contains(ch.Abilities, a) {
			out = append(out, fmt.Sprintf("%s lacks ability %s", id, a))
		}
	}
	for _, a := range c.Lacks {
		if slices.Contains(ch.Abilities, a) {
			out = append(out, fmt.Sprintf("%s has ability %s, want it absent", id, a))
		}
	}
	if c.ManaValue != nil && ch.ManaValue != *c.ManaValue {
		out = append(out, fmt.Sprintf("%s has mana value %d, want %d", id, ch.ManaValue, *c.ManaValue))
	}
	out = append(out, sameSet(id, "abilities", ch.Abilities, c.AbilitiesExactly)...)
	out = append(out, sameSet(id, "colors", ch.Colors, c.Colors)...)
	out = append(out, sameSet(id, "types", ch.Types, c.Types)...)
	out = append(out, sameSet(id, "subtypes", ch.Subtypes, c.Subtypes)...)
	out = append(out, sameSet(id, "supertypes", ch.Supertypes, c.Supertypes)...)
	return out
}

// characteristic reports whether c claims anything of the permanent's
// derived values.
func (c PermanentClaim) characteristic() bool {
	return c.Name != nil || c.Power != nil || c.Toughness != nil || c.Token != nil || c.Abilities != nil ||
		c.AbilitiesExactly != nil || c.Lacks != nil || c.ManaValue != nil ||
		c.Colors != nil || c.Types != nil || c.Subtypes != nil || c.Supertypes != nil
}

// sameSet fails unless have holds exactly the values of *want, in any
// order; a nil want claims nothing.
func sameSet[T ~string](id ObjectID, what string, have []T, want *[]T) []string {
	if want == nil {
		return nil
	}
	h, w := slices.Sorted(slices.Values(have)), slices.Sorted(slices.Values(*want))
	h, w = slices.Compact(h), slices.Compact(w)
	if !slices.Equal(h, w) {
		return []string{fmt.Sprintf("%s has %s %v, want exactly %v", id, what, h, w)}
	}
	return nil
}

func fmtInt(p *int) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

// Get returns the contents of zone z, and false if z is not a player zone.
func (z *Zones) Get(zone Zone) ([]ObjectID, bool) {
	switch zone {
	case Library:
		return z.Library, true
	case Hand:
		return z.Hand, true
	case Graveyard:
		return z.Graveyard, true
	case Exile:
		return z.Exile, true
	case Command:
		return z.Command, true
	}
	return nil, false
}

// Ref returns a pointer to the list for zone z, or nil if z is not a player zone.
func (z *Zones) Ref(zone Zone) *[]ObjectID {
	switch zone {
	case Library:
		return &z.Library
	case Hand:
		return &z.Hand
	case Graveyard:
		return &z.Graveyard
	case Exile:
		return &z.Exile
	case Command:
		return &z.Command
	}
	return nil
}

// sameState reports whether two states encode alike.
func sameState(a, b *State) bool {
	x, errx := Encode(a)
	y, erry := Encode(b)
	return errx == nil && erry == nil && bytes.Equal(x, y)
}
