package model

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// idPattern says what an id may be: 1 to 64 letters, digits and _.:@-.
var idPattern = idMatcher{}

type idMatcher struct{}

func (idMatcher) MatchString(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.:@-", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// Validate reports whether s is well formed: known format, unique and
// well-formed ids, a valid catalogue, every object in exactly one place, and
// a starting state that agrees with the rules that define it (for example
// CR 730.2e: a merged permanent's face-down status is its topmost
// component's). It does not play the actions; an engine reports an action
// that cannot be performed when it gets there.
func (s *Scenario) Validate() error {
	v := validator{s: s}
	v.all()
	if len(v.errs) > 0 {
		return fmt.Errorf("scenario %q: %w", s.Name, errors.Join(v.errs...))
	}
	return nil
}

type validator struct {
	s    *Scenario
	errs []error
	// where each object is, for "exactly one place"
	place map[ObjectID]string
}

func (v *validator) fail(format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf(format, args...))
}

// all checks the whole scenario, part by part in a fixed order, so that
// the errors come in the same order every time.
func (v *validator) all() {
	s := v.s
	if !v.header() {
		return
	}
	defs := v.catalogue()
	players := v.players()
	objects := v.objects(defs, players)

	v.tokenColours()
	v.place = make(map[ObjectID]string, len(s.Objects))
	put := func(id ObjectID, where string) {
		o := objects[id]
		switch {
		case o == nil:
			v.fail("%s: no object %q", where, id)
		case v.place[id] != "":
			v.fail("%s: %s is already in %s; an object is in one place", where, id, v.place[id])
		default:
			v.place[id] = where
		}
	}
	v.zones(objects, put)
	perms := v.battlefield(objects, put, players)
	v.stack(put, players, perms)
	v.links(objects, perms)
	for i := range s.Actions {
		v.action(i, &s.Actions[i], players)
	}
	v.expectations()
}

// header checks the scenario's format, name and size, and reports whether
// the rest is worth checking: a scenario of another format or more than
// one case takes is not read further.
func (v *validator) header() bool {
	s := v.s
	if s.Format != ScenarioFormat {
		v.fail("format is %q, want %q", s.Format, ScenarioFormat)
		return false
	}
	if s.Name == "" {
		v.fail("name is empty")
	}
	if len(s.Objects) > MaxObjects || len(s.Actions) > MaxActions || len(s.Catalogue) > MaxObjects {
		v.fail("%d objects, %d actions and %d catalogue entries: more than one case takes (at most %d objects and entries, %d actions)",
			len(s.Objects), len(s.Actions), len(s.Catalogue), MaxObjects, MaxActions)
		return false
	}
	return true
}

// catalogue checks each catalogue definition and that no name is defined
// twice, and returns the names defined, which objects refer to.
func (v *validator) catalogue() map[string]bool {
	s := v.s
	defs := map[string]bool{}
	for i := range s.Catalogue {
		d := &s.Catalogue[i]
		if err := d.Validate(); err != nil {
			v.fail("catalogue[%d]: %w", i, err)
		}
		if defs[d.Name] {
			v.fail("catalogue[%d]: %q is defined twice", i, d.Name)
		}
		defs[d.Name] = true
	}
	if _, err := s.DeclaredKinds(); err != nil {
		v.fail("catalogue: %w", err)
	}
	return defs
}

// players checks the starting players, exactly two with distinct
// well-formed ids, and the active one, and returns the ids, which the rest
// of the scenario refers to.
func (v *validator) players() map[PlayerID]bool {
	s := v.s
	players := map[PlayerID]bool{}
	for i, p := range s.Start.Players {
		if !idPattern.MatchString(string(p.ID)) {
			v.fail("start.players[%d]: bad player id %q", i, p.ID)
		}
		if players[p.ID] {
			v.fail("start.players[%d]: player %s appears twice", i, p.ID)
		}
		players[p.ID] = true
	}
	if len(s.Start.Players) != 2 {
		v.fail("start.players: a scenario has exactly two players, found %d", len(s.Start.Players))
	}
	if !players[s.Start.Active] {
		v.fail("start.active: %q is not a player", s.Start.Active)
	}
	return players
}

// objects checks each object's id, owner and definition, and returns the
// objects by id, for the places and links that name them.
func (v *validator) objects(defs map[string]bool, players map[PlayerID]bool) map[ObjectID]*Object {
	s := v.s
	objects := make(map[ObjectID]*Object, len(s.Objects))
	for i := range s.Objects {
		o := &s.Objects[i]
		at := "objects[" + strconv.Itoa(i) + "] (" + string(o.ID) + ")"
		if !idPattern.MatchString(string(o.ID)) {
			v.fail("objects[%d]: bad id %q (letters, digits and _.:@- only)", i, o.ID)
		}
		if objects[o.ID] != nil {
			v.fail("%s: id is used twice", at)
		}
		objects[o.ID] = o
		if !players[o.Owner] {
			v.fail("%s: owner %q is not a player", at, o.Owner)
		}
		switch {
		case o.Copy != nil && o.Def != "":
			v.fail("%s: has both def and copy", at)
		case o.Copy != nil:
			if !o.Token {
				v.fail("%s: only tokens carry copiable values inline", at)
			}
			if err := o.Copy.Validate(); err != nil {
				v.fail("%s: copy: %w", at, err)
			}
		case !defs[o.Def]:
			v.fail("%s: def %q is not in the catalogue", at, o.Def)
		}
		if o.Commander && o.Token {
			v.fail("%s: a token can't be a commander (CR 903.3: the commander is a card)", at)
		}
	}
	return objects
}

// zones puts the objects of each player's starting zones in their places
// and checks that each is a card in its owner's zone, since a token off
// the battlefield would have ceased to exist.
func (v *validator) zones(objects map[ObjectID]*Object, put func(ObjectID, string)) {
	for _, p := range v.s.Start.Players {
		for _, z := range []Zone{Library, Hand, Graveyard, Exile, Command} {
			ids, _ := p.Zones.Get(z)
			for j, id := range ids {
				where := "start.players[" + string(p.ID) + "]." + string(z) + "[" + strconv.Itoa(j) + "]"
				put(id, where)
				if o := objects[id]; o != nil {
					if o.Token {
						v.fail("%s: token %s is outside the battlefield; it would have ceased to exist (CR 704.5d)", where, id)
					}
					if o.Owner != p.ID {
						v.fail("%s: %s is owned by %s; a card is in its owner's %s (CR 400.3)", where, id, o.Owner, z)
					}
				}
			}
		}
	}
}

// battlefield checks every starting permanent, then what each is attached
// to or enchants, once all of them are known, and returns the permanent
// ids.
func (v *validator) battlefield(objects map[ObjectID]*Object, put func(ObjectID, string), players map[PlayerID]bool) map[ObjectID]bool {
	s := v.s
	perms := map[ObjectID]bool{}
	for i := range s.Start.Battlefield {
		v.permanent(i, objects, put, players, perms)
	}
	for i := range s.Start.Battlefield {
		p := &s.Start.Battlefield[i]
		if p.AttachedTo != "" && !perms[p.AttachedTo] {
			v.fail("start.battlefield[%d] (%s): attached_to %q is not a permanent", i, p.ID, p.AttachedTo)
		} else if p.AttachedTo != "" {
			v.attachment(s, i)
		}
		if p.EnchantedPlayer != "" && !players[p.EnchantedPlayer] {
			v.fail("start.battlefield[%d] (%s): enchanted_player %q is not a player", i, p.ID, p.EnchantedPlayer)
		}
	}
	return perms
}

// stack puts the starting stack's objects in their places and checks that
// each one's controller is a player and its target a permanent, since the
// actions that resolve it read both.
func (v *validator) stack(put func(ObjectID, string), players map[PlayerID]bool, perms map[ObjectID]bool) {
	for i, so := range v.s.Start.Stack {
		where := "start.stack[" + strconv.Itoa(i) + "]"
		put(so.Object, where)
		if !players[so.Controller] {
			v.fail("%s: controller %q is not a player", where, so.Controller)
		}
		if so.Target != "" && !perms[so.Target] {
			v.fail("%s: target %q is not a permanent", where, so.Target)
		}
	}
}

// links checks that each starting link runs from a permanent to objects
// of the scenario, since a linked ability finds both.
func (v *validator) links(objects map[ObjectID]*Object, perms map[ObjectID]bool) {
	for i, l := range v.s.Start.Links {
		if !perms[l.Source] {
			v.fail("start.links[%d]: source %q is not a permanent", i, l.Source)
		}
		for _, c := range l.Cards {
			if objects[c] == nil {
				v.fail("start.links[%d]: no object %q", i, c)
			}
		}
	}
}

// expectations checks each expectation's action index, observers, event
// kinds and permanent claims, so that a judge can read them.
func (v *validator) expectations() {
	s := v.s
	for i, e := range s.Expect {
		if e.After < 0 || e.After >= len(s.Actions) {
			v.fail("expect[%d]: after %d is not an action index (0..%d)", i, e.After, len(s.Actions)-1)
		}
		for _, o := range slices.Sorted(maps.Keys(e.Triggers)) {
			if !slices.Contains(Observers, o) {
				v.fail("expect[%d]: unknown observer %q (want one of %v)", i, o, Observers)
			}
		}
		if e.NoReveal && len(e.Revealed) > 0 {
			v.fail("expect[%d]: no_reveal and revealed claim opposite things", i)
		}
		for k, c := range e.Sequence {
			if !slices.Contains(EventKinds, c.Kind) {
				v.fail("expect[%d].sequence[%d]: unknown event kind %q (want one of %v)", i, k, c.Kind, EventKinds)
			}
			if c.Observer != "" && !slices.Contains(Observers, c.Observer) {
				v.fail("expect[%d].sequence[%d]: unknown observer %q (want one of %v)", i, k, c.Observer, Observers)
			}
		}
		for _, id := range slices.Sorted(maps.Keys(e.Permanents)) {
			v.claim(fmt.Sprintf("expect[%d].permanents[%s]", i, id), e.Permanents[id])
		}
	}
}

// tokenColours rejects a catalogue definition whose front adds colours
// (a token's may: the effect that creates it gives them, CR 111.3) when a
// card uses it: a card is the colours of its mana cost and colour
// indicator only (CR 202.2, 204.2).
func (v *validator) tokenColours() {
	card := map[string]int{} // the first card object of each definition
	for j := len(v.s.Objects) - 1; j >= 0; j-- {
		if o := &v.s.Objects[j]; !o.Token && o.Def != "" {
			card[o.Def] = j
		}
	}
	for i := range v.s.Catalogue {
		d := &v.s.Catalogue[i]
		j, used := card[d.Name]
		if added := d.Front.AddedColors(); len(added) > 0 && used && d.MayBeTokens() {
			v.fail("catalogue[%d]: card %q: face %q is colour %s, which neither its mana cost %q nor its colour indicator %v gives (CR 202.2, 204.2); only a token's definition adds colours (CR 111.3), and objects[%d] (%s) is a card", i, d.Name, d.Front.Name, added[0], d.Front.ManaCost, d.Front.ColorIndicator, j, v.s.Objects[j].ID)
		}
	}
}

// claim checks the values a permanent claim names: colours, faces, and
// claims that contradict each other.
func (v *validator) claim(at string, c PermanentClaim) {
	if c.Colors != nil {
		for _, col := range *c.Colors {
			if !slices.Contains(Colors, col) {
				v.fail("%s: colors: unknown colour %q (want W, U, B, R or G; [] for colourless)", at, col)
			}
		}
	}
	for _, a := range c.Lacks {
		if slices.Contains(c.Abilities, a) || c.AbilitiesExactly != nil && slices.Contains(*c.AbilitiesExactly, a) {
			v.fail("%s: %s is claimed both present and absent", at, a)
		}
	}
	for k, f := range c.Faces {
		if f.Face != "" && f.Face != Front && f.Face != Back {
			v.fail("%s: faces[%d]: face %q is neither front nor back", at, k, f.Face)
		}
		if c.Components != nil && (k >= len(c.Components) || c.Components[k] != f.Object) {
			v.fail("%s: faces[%d] names %s, but components claims another order", at, k, f.Object)
		}
	}
	if c.Absent && (c.characteristic() || c.Components != nil || c.Faces != nil || c.Status != nil || c.Counters != nil ||
		c.Controller != "" || c.AttachedTo != nil || c.ControlledSinceTurnStart != nil) {
		v.fail("%s: absent claims the permanent is gone, so it can claim nothing else", at)
	}
}

func (v *validator) permanent(i int, objects map[ObjectID]*Object, put func(ObjectID, string), players map[PlayerID]bool, perms map[ObjectID]bool) {
	p := &v.s.Start.Battlefield[i]
	at := "start.battlefield[" + strconv.Itoa(i) + "] (" + string(p.ID) + ")"
	if !idPattern.MatchString(string(p.ID)) {
		v.fail("start.battlefield[%d]: bad id %q", i, p.ID)
	}
	if perms[p.ID] || objects[p.ID] != nil {
		v.fail("%s: id is already used by another permanent or object", at)
	}
	perms[p.ID] = true
	if !players[p.Controller] {
		v.fail("%s: controller %q is not a player", at, p.Controller)
	}
	if p.Derived != nil {
		v.fail("%s: derived values are computed by the engine and must not be given", at)
	}
	if len(p.Components) == 0 {
		v.fail("%s: a permanent has at least one component", at)
		return
	}
	if p.Mutated && len(p.Components) < 2 {
		v.fail("%s: mutated is set on a permanent with one component", at)
	}
	if p.Timestamp < 0 {
		v.fail("%s: timestamp %d is negative; timestamps count up from 0", at, p.Timestamp)
	}
	v.counters(at, p)
	v.effects(at, p)
	meld := v.components(at, p, objects, put)
	if meld > 0 && !(meld == 2 && len(p.Components) == 2 && v.meldPair(p)) {
		v.fail("%s: a meld card's back face is up only in a melded pair of exactly two cards (CR 712.4b)", at)
	}
	if top := p.Components[0]; p.Status.FaceDown != top.FaceDown {
		v.fail("%s: status face_down=%t but its topmost component %s has face_down=%t (CR 730.2e)", at, p.Status.FaceDown, top.Object, top.FaceDown)
	}
}

// counters checks that each counter on permanent p (named at) is of a
// kind mergecheck models, with a count within MaxValue, so that no sum an
// engine computes from it overflows.
func (v *validator) counters(at string, p *Permanent) {
	for _, k := range sortedKeys(p.Counters) {
		if !slices.Contains(CounterKinds, k) {
			v.fail("%s: counter %q is not a kind mergecheck models (want one of %v)", at, k, CounterKinds)
		}
		if n := p.Counters[k]; n <= 0 {
			v.fail("%s: counter %q has count %d; omit counters that are absent", at, k, n)
		} else if n > MaxValue {
			v.fail("%s: counter %q has count %d, more than mergecheck takes (%d)", at, k, n, MaxValue)
		}
	}
}

// effects checks each effect on permanent p (named at): a known kind, a
// copy of a catalogue card, values mergecheck takes, and timestamps in
// increasing order, since layers apply effects by timestamp.
func (v *validator) effects(at string, p *Permanent) {
	for j, e := range p.Effects {
		switch e.Kind {
		case EffectPump:
		case EffectCopy:
			if v.s.Def(e.Of) == nil {
				v.fail("%s: effects[%d] copies %q, which is not in the catalogue", at, j, e.Of)
			}
		default:
			v.fail("%s: effects[%d]: unknown kind %q", at, j, e.Kind)
		}
		if e.Timestamp < 0 {
			v.fail("%s: effects[%d]: timestamp %d is negative; timestamps count up from 0", at, j, e.Timestamp)
		}
		if tooBig(e.Power) || tooBig(e.Toughness) {
			v.fail("%s: effects[%d]: +%d/+%d is beyond what mergecheck takes (at most %d either way)", at, j, e.Power, e.Toughness, MaxValue)
		}
		if j > 0 && e.Timestamp <= p.Effects[j-1].Timestamp {
			v.fail("%s: effects are listed in increasing timestamp order", at)
		}
	}
}

// components puts each component of permanent p (named at) in its place
// and checks the face it shows and how it is face down, and returns how
// many are meld cards back face up, which only a melded pair may have.
func (v *validator) components(at string, p *Permanent, objects map[ObjectID]*Object, put func(ObjectID, string)) (meld int) {
	for j, c := range p.Components {
		where := at + ".components[" + strconv.Itoa(j) + "]"
		put(c.Object, where)
		o := objects[c.Object]
		if o == nil {
			continue
		}
		def := v.s.Def(o.Def)
		if o.Copy != nil {
			def = o.Copy
		}
		if def == nil {
			continue
		}
		switch c.Face {
		case "", Front:
		case Back:
			if !def.Layout.DoubleFaced() {
				v.fail("%s: %s (%s, layout %s) has no back face", where, c.Object, def.Name, def.Layout)
			}
			if def.Layout == LayoutMeld {
				meld++
			}
		default:
			v.fail("%s: unknown face %q (want front or back)", where, c.Face)
		}
		if c.FaceDown != (c.FaceDownBy != "") {
			v.fail("%s: face_down_by is set exactly when face_down is", where)
		}
		if c.FaceDown {
			switch c.FaceDownBy {
			case ByMorph, ByDisguise, ByManifest, ByCloak, ByEffect:
			default:
				v.fail("%s: unknown face_down_by %q", where, c.FaceDownBy)
			}
			if c.Face == Back {
				v.fail("%s: a face-down double-faced card has no face up (CR 712.15)", where)
			}
		}
	}
	return meld
}

func (v *validator) meldPair(p *Permanent) bool {
	a, b := v.s.Object(p.Components[0].Object), v.s.Object(p.Components[1].Object)
	if a == nil || b == nil || a.Token || b.Token {
		return false
	}
	da, db := v.s.Def(a.Def), v.s.Def(b.Def)
	return da != nil && db != nil && da.MeldPartner == db.Name && db.MeldPartner == da.Name
}

// MaxObjects and MaxActions bound the size of one scenario: playing,
// validating and judging one costs time linear in its size, and a case
// larger than these would take seconds to play once, let alone to shrink.
const (
	MaxObjects = 200_000
	MaxActions = 10_000
)

// MaxValue bounds every count and modifier a scenario gives (counters,
// pumps): no card makes more, and with it no sum of them an engine
// computes can overflow.
const MaxValue = 1 << 20

// sortedKeys are m's keys in order; nil, without allocating, for an empty
// m, as most are.
func sortedKeys(m map[string]int) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

func tooBig(n int) bool { return n > MaxValue || n < -MaxValue }

// needs lists, per action type, the fields that must be set.
var needs = map[ActionType][]string{
	Cast: {"object"}, CastMutate: {"object", "target"}, Resolve: {},
	Merge: {"object", "target"}, Meld: {"object", "with"},
	TurnFaceDown: {"object"}, TurnFaceUp: {"object"}, Manifest: {"player", "object", "method"},
	Transform: {"object"}, Convert: {"object"}, Flip: {"object"},
	Tap: {"object"}, Untap: {"object"}, PhaseOut: {"object"}, PhaseIn: {"object"},
	Move: {"object", "to"}, Return: {"object"}, ExileFound: {"object", "source"},
	AddCounters: {"object", "counter", "n"}, Pump: {"object"},
	BecomeCopy: {"object", "card"}, TokenCopy: {"object", "token", "player"}, NextTurn: {},
	CreateToken: {"token", "def", "player"}, EnterAsCopy: {"object", "target"}, Attack: {"object"}, DestroyAll: {},
}

// hasField reports whether the action sets the field named f (as needs
// names them).
func hasField(a *Action, f string) bool {
	switch f {
	case "object":
		return a.Object != ""
	case "target":
		return a.Target != ""
	case "with":
		return a.With != ""
	case "card":
		return a.Card != ""
	case "token":
		return a.Token != ""
	case "source":
		return a.Source != ""
	case "player":
		return a.Player != ""
	case "to":
		return a.To != ""
	case "method":
		return a.Method != ""
	case "counter":
		return a.Counter != ""
	case "n":
		return a.N != 0
	case "def":
		return a.Def != ""
	}
	return false
}

func (v *validator) action(i int, a *Action, players map[PlayerID]bool) {
	at := "actions[" + strconv.Itoa(i) + "] (" + string(a.Type) + ")"
	fields, ok := needs[a.Type]
	if !ok {
		v.fail("actions[%d]: unknown type %q (want one of %v)", i, a.Type, ActionTypes)
		return
	}
	for _, f := range fields {
		if !hasField(a, f) {
			v.fail("%s: %s is required", at, f)
		}
	}
	if a.Player != "" && !players[a.Player] {
		v.fail("%s: player %q is not a player", at, a.Player)
	}
	if a.Type == Move {
		switch a.To {
		case Graveyard, Hand, LibraryTop, LibraryBottom, Exile:
		default:
			v.fail("%s: to %q is not a destination (want graveyard, hand, library_top, library_bottom or exile)", at, a.To)
		}
	}
	if a.Type == AddCounters && a.N < 0 {
		v.fail("%s: n must be positive", at)
	}
	if tooBig(a.N) || tooBig(a.Power) || tooBig(a.Toughness) {
		v.fail("%s: n %d, power %d, toughness %d: a value beyond what mergecheck takes (at most %d either way)", at, a.N, a.Power, a.Toughness, MaxValue)
	}
	if a.Counter != "" && !slices.Contains(CounterKinds, a.Counter) {
		v.fail("%s: counter %q is not a kind mergecheck models (want one of %v)", at, a.Counter, CounterKinds)
	}
	for _, k := range sortedKeys(a.Counters) {
		if !slices.Contains(CounterKinds, k) {
			v.fail("%s: counters: %q is not a kind mergecheck models (want one of %v)", at, k, CounterKinds)
		}
		if n := a.Counters[k]; n <= 0 || n > MaxValue {
			v.fail("%s: counters %q has count %d; want 1 to %d", at, k, n, MaxValue)
		}
	}
	switch a.Choices.Position {
	case "", Top, Bottom:
	default:
		v.fail("%s: choices.position %q is neither top nor bottom", at, a.Choices.Position)
	}
	if (a.Type == TokenCopy || a.Type == CreateToken) && v.s.Object(a.Token) != nil {
		v.fail("%s: token id %q is already an object", at, a.Token)
	}
	if a.Type == CreateToken && a.Def != "" && v.s.Def(a.Def) == nil {
		v.fail("%s: def %q is not in the catalogue", at, a.Def)
	}
	if a.Type == Attack && i != len(v.s.Actions)-1 {
		v.fail("%s: an attack must be the last action: the model stops at the declaration of attackers (CR 508.1a)", at)
	}
}

// attachment checks that permanent i of the starting battlefield can be
// attached where it is: not to itself, not round a cycle, and, for a
// face-up Aura that enchants creatures or an Equipment, to a creature (a
// face-down host is one, CR 708.2a). The state-based actions would
// otherwise have moved it before the scenario starts (CR 303.4c-d,
// 301.5c, 704.5m-n), and a cycle has no state at all.
func (v *validator) attachment(s *Scenario, i int) {
	p := &s.Start.Battlefield[i]
	where := "start.battlefield[" + strconv.Itoa(i) + "] (" + string(p.ID) + ")"
	if p.AttachedTo == p.ID {
		v.fail("%s: attached to itself: an Aura can't enchant itself, nor an Equipment equip itself (CR 303.4d, 301.5c)", where)
		return
	}
	chain := []ObjectID{p.ID}
	for at := p.AttachedTo; at != ""; {
		if at == p.ID {
			v.fail("%s: the attachments form a cycle, %s: nothing can be attached to what it is attached to (CR 303.4d, 301.5c)", where, joinIDs(append(chain, at)))
			return
		}
		if len(chain) > len(s.Start.Battlefield) {
			return // a cycle that does not pass through p: its own members say so
		}
		chain = append(chain, at)
		host := s.Start.Permanent(at)
		if host == nil {
			return
		}
		at = host.AttachedTo
	}
	top := v.topFace(s, p)
	if top == nil {
		return
	}
	aura, equipment := slices.Contains(top.Subtypes, "Aura"), slices.Contains(top.Subtypes, "Equipment")
	if !aura && !equipment {
		v.fail("%s: attached to %s, but it is neither an Aura nor an Equipment: such a permanent is never attached (CR 303.4h)", where, p.AttachedTo)
		return
	}
	if aura && !top.HasAbility(enchantCreature) {
		return
	}
	host := s.Start.Permanent(p.AttachedTo)
	if hf := v.topFace(s, host); hf != nil && !hf.Has("creature") && len(host.Effects) == 0 {
		what := "an Equipment equips only a creature (CR 301.5, 301.5c)"
		if aura {
			what = "its enchant ability allows only a creature (CR 303.4c)"
		}
		v.fail("%s: attached to %s, which is no creature: %s", where, host.ID, what)
	}
}

// enchantCreature is the enchant ability of an Aura that enchants a
// creature (CR 702.5a), as the catalogue names it.
const enchantCreature AbilityID = "enchant_creature"

// topFace is the face a permanent shows by its topmost component, or nil
// when it is face down or its card is unknown (a face-down permanent is a
// creature, CR 708.2a).
func (v *validator) topFace(s *Scenario, p *Permanent) *Face {
	if p == nil || len(p.Components) == 0 || p.Components[0].FaceDown {
		return nil
	}
	o := s.Object(p.Components[0].Object)
	if o == nil {
		return nil
	}
	d := s.Def(o.Def)
	if o.Copy != nil {
		d = o.Copy
	}
	if d == nil {
		return nil
	}
	if p.Components[0].Face == Back && d.Back != nil {
		return d.Back
	}
	return &d.Front
}

// joinIDs writes ids as a chain: "p1 -> p2 -> p1".
func joinIDs(ids []ObjectID) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(" -> ")
		}
		b.WriteString(string(id))
	}
	return b.String()
}
