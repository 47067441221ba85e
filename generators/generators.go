// Package generators draws random scenarios for mergecheck's properties
// with pgregory.net/rapid: merged stacks of cards and tokens of every
// layout, face-up and face-down components, statuses, counters and
// effects, and action sequences over them with their scripted choices.
//
// Scenarios are valid by construction: each action is drawn from the
// actions the reference engine can perform in the state the previous ones
// left ([reference.Play] keeps that state, and its Probe tells which
// choices an action needs), never generated and then filtered. Every draw is an index or a small integer, so rapid
// shrinks toward fewer permanents, fewer components and fewer actions.
package generators

import (
	"fmt"
	"slices"
	"sync"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/catalogue"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// A Kind is a kind of component a stack may contain.
type Kind string

// Component kinds.
const (
	Card          Kind = "card"            // a face-up creature card
	Token         Kind = "token"           // a face-up token
	Flip          Kind = "flip"            // a face-up flip card
	Transform     Kind = "transform"       // a nonmodal double-faced card, either face up
	Modal         Kind = "modal"           // a modal double-faced card
	MeldHalf      Kind = "meld"            // one card of a meld pair, front face up
	FaceDown      Kind = "face_down"       // a face-down creature card (morph, manifest, cloak, effect)
	FaceDownSpell Kind = "face_down_spell" // a face-down instant or sorcery card
	FaceDownDFC   Kind = "face_down_dfc"   // a face-down double-faced card
)

// AllKinds lists every component kind.
var AllKinds = []Kind{Card, Token, Flip, Transform, Modal, MeldHalf, FaceDown, FaceDownSpell, FaceDownDFC}

// Options shape a family of scenarios. The zero value draws one permanent
// of one to three components of any kind and no actions.
type Options struct {
	// Permanents is the range of merged stacks on the battlefield.
	MinPermanents, MaxPermanents int
	// Components is the range of components per stack.
	MinComponents, MaxComponents int
	// Kinds restricts the component kinds; empty means all.
	Kinds []Kind
	// NeedKinds makes the first stack contain each of these kinds.
	NeedKinds []Kind
	// FaceDownTop makes the first stack's topmost component face down
	// (true), face up (false), or either (nil).
	FaceDownTop *bool
	// Status draws tapped and flipped statuses, counters and effects.
	Status bool
	// Replacements adds Leyline of the Void, Wheel of Sun and Moon and Rest
	// in Peace to the battlefield, each at random.
	Replacements bool
	// Linked adds Duplicant and Mimic Vat at random.
	Linked bool
	// Commander makes one card a commander at random.
	Commander bool
	// Attach adds Auras (False Demise) and Equipment (Lightning Greaves)
	// attached to the stacks at random, under either player's control,
	// tapped at random with Status.
	Attach bool
	// Hand puts mutate creatures into the players' hands.
	Hand bool
	// NoSwarm draws every scenario from all the kinds allowed, leaving
	// none out (see swarm): for rules whose bugs show only where several
	// kinds meet, which swarm would reach later.
	NoSwarm bool
	// Clones puts Clone into a player's hand, so that a card can enter as
	// a copy (CR 707.5).
	Clones bool
	// Create adds the token definitions to the catalogue, so that tokens
	// can be created (CR 111.1).
	Create bool
	// Vigilance puts a vigilance counter on a stack at random (CR 122.1b).
	Vigilance bool
	// CantAttack draws what forbids an attack (CR 508.1c): Wall of Omens,
	// which has defender (702.3b), as one component of a stack at random,
	// so that it may lie under a mutated top; and Pacifism attached to a
	// stack at random, under either player's control. The first stack is
	// the active player's. Only stacks drawn whole (not ByActions) get a
	// Wall.
	CantAttack bool
	// Brisela draws what her restriction speaks of (CR 601.3): Brisela,
	// Voice of Nightmares (Gisela and Bruna melded) under either player,
	// and in each player's hand spells on either side of its mana value 3:
	// a vanilla creature, Sea-Dasher Octopus (3), a mutate card of 4 and a
	// morph card (4, or 0 cast face down). Casts it forbids are drawn as
	// well as those it allows; the reference plays them as steps that
	// report not_allowed.
	Brisela bool
	// Hexproof draws a creature one player owns and either controls,
	// with a hexproof counter (CR 702.11b, 122.1b), as a target for
	// mutating spells its owner casts: hexproof forbids the cast only
	// while the owner's opponent controls it. Casts the rules forbid are
	// drawn with the legal ones.
	Hexproof bool
	// Ward draws a cloaked face-down creature, which has ward {2}
	// (CR 701.58a, 702.21a), that one player owns and either controls, and
	// puts a mutating card into its owner's hand: cast by the owner while
	// the opponent controls it, ward triggers, and the caster pays or
	// not (see withChoices).
	Ward bool
	// Protection draws Soltari Priest, a creature with protection from
	// red (CR 702.16b) that one player owns and controls, and puts a red
	// mutating card, Illuna, Apex of Wishes, into its owner's hand with
	// whatever else: a red spell can't target it, another can. Casts the
	// rules forbid are drawn with the legal ones.
	Protection bool
	// Statics draws the commonest static abilities with declared effects
	// (CR 604, 613) around the stacks, each at random: Short Sword
	// (equipped creature gets +1/+1), Lightning Greaves (equipped creature
	// has haste and shroud) and Mystic Subdual (enchanted creature gets
	// -2/-0 and loses all abilities) attached to a stack, and Glorious
	// Anthem (creatures you control get +1/+1) under either player: one
	// to four, in a drawn order, so that their timestamps (CR 613.7) fall
	// either way. Only for an engine that declares static_effects.
	Statics bool
	// MeldGone lets a meld name a half that has left the battlefield
	// (CR 701.42c).
	MeldGone bool
	// Prefix is the most random actions drawn before the focus.
	Prefix int
	// PrefixTypes are the actions the prefix draws from; empty means all.
	PrefixTypes []model.ActionType
	// Focus is the action types the scenario ends with, when one can be
	// performed; empty means no focus action.
	Focus []model.ActionType
	// FocusThen is the action types of one more action drawn after the
	// focus, when one can be performed.
	FocusThen []model.ActionType
	// FocusLast is the action types of one more action drawn after
	// FocusThen's, when one can be performed.
	FocusLast []model.ActionType
	// Then is actions drawn after the focus (at most this many).
	Then int
	// MoveTo restricts the zones a drawn move sends a permanent to;
	// empty means every zone.
	MoveTo []model.Zone
	// MeldPair adds Graf Rats and Midnight Scavengers as two permanents
	// that one player owns and controls; Melded adds a melded Chittering
	// Host.
	MeldPair, Melded bool
	// MeldTokens makes either half of the meld pair a token at random.
	MeldTokens bool
	// Illegal always makes a mutating spell's target illegal before it
	// resolves (CR 702.140b), by phasing it out or moving it.
	Illegal bool
	// IllegalTargets draws mutating spells cast at targets the rules
	// forbid (CR 702.140a) as well as legal ones: a Human (Elite
	// Vanguard, put onto the battlefield under either player), a
	// noncreature (Chimeric Staff, now and then) or a creature of the
	// other owner. The reference plays such a cast as a step that
	// reports not_allowed, and the spell stays in its owner's hand.
	IllegalTargets bool
	// Lacks are the features (parts, as model.ExpandFeatures gives them)
	// the engine does not declare: no scenario uses one
	// (model.Scenario.Uses). Components, statuses, permanents, actions
	// and choices are drawn from what the rest allow, from the first draw,
	// so that an engine is never given a scenario it would refuse for
	// lack of a feature. Empty draws from every feature.
	Lacks []model.Feature
	// ByActions draws only starting stacks that an engine unable to set
	// up merged stacks can be given built by actions
	// ([model.BuildByActions]): a face-up base that is not a Human, every
	// other component a face-up mutate card of the same owner, and no
	// melded permanent. Kinds the base can't be are left out.
	ByActions bool
}

// Scenario returns a generator of scenarios shaped by o.
func Scenario(o Options) *rapid.Generator[*model.Scenario] {
	return rapid.Custom(func(t *rapid.T) *model.Scenario {
		d := &drawer{t: t, o: o}
		return d.scenario()
	})
}

// An Engine is what an engine can be given, for [Shape.For]: the features
// it lacks (Options.Lacks) and whether its merged stacks must be built by
// casting (Options.ByActions).
type Engine struct {
	Lacks     []model.Feature
	ByActions bool
}

// A Shape is a family of scenarios: the Options that shape it, with the
// generator they make and its counterparts for engines (see For), each
// made once and kept, so that one engine is given the same generator, and
// so the same scenarios for a seed, every time. Make one with NewShape and
// use it by pointer.
type Shape struct {
	opts Options
	alts []*Shape // for a shape made by Either, its shapes
	gen  *rapid.Generator[*model.Scenario]

	mu           sync.Mutex
	counterparts map[string]*rapid.Generator[*model.Scenario] // by the options' Lacks and ByActions
}

// NewShape returns the family of scenarios o shapes.
func NewShape(o Options) *Shape {
	return &Shape{opts: o, gen: Scenario(o)}
}

// Either returns the family of scenarios drawn from one of shapes, each
// about as often (of two, 1,013 and 987 in 2,000 draws), and shrinking
// toward the first: for a rule that several paths reach, each drawn as
// its own shape (a path drawn alone shows a bug that another path's
// actions would hide), with the simplest first.
func Either(shapes ...*Shape) *Shape {
	gens := make([]*rapid.Generator[*model.Scenario], len(shapes))
	for i, a := range shapes {
		gens[i] = a.gen
	}
	return &Shape{alts: shapes, gen: rapid.OneOf(gens...)}
}

// Gen returns the shape's generator: what an engine that lacks nothing
// and can be given any stack draws, For(Engine{}).
func (s *Shape) Gen() *rapid.Generator[*model.Scenario] { return s.gen }

// For returns the shape's generator for engine e: the same families of
// scenarios without the features e lacks, and with stacks that casting
// can build when e.ByActions; the same generator each time. For an engine
// that lacks nothing the options do not already leave out, and can be
// given any stack they allow, it is Gen itself, so such an engine gets
// exactly the scenarios it always did.
func (s *Shape) For(e Engine) *rapid.Generator[*model.Scenario] {
	if s.alts != nil {
		return s.eitherFor(e)
	}
	opts := s.opts
	lacks := slices.Clone(opts.Lacks)
	for _, f := range e.Lacks {
		if !slices.Contains(lacks, f) {
			lacks = append(lacks, f)
		}
	}
	slices.Sort(lacks)
	if len(lacks) == len(opts.Lacks) && (opts.ByActions || !e.ByActions) {
		return s.gen
	}
	opts.Lacks, opts.ByActions = lacks, opts.ByActions || e.ByActions
	return s.counterpart(fmt.Sprint(opts.Lacks, opts.ByActions), func() *rapid.Generator[*model.Scenario] { return Scenario(opts) })
}

// counterpart returns the generator kept under key, made by newGen the
// first time.
func (s *Shape) counterpart(key string, newGen func() *rapid.Generator[*model.Scenario]) *rapid.Generator[*model.Scenario] {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.counterparts[key]
	if !ok {
		if s.counterparts == nil {
			s.counterparts = map[string]*rapid.Generator[*model.Scenario]{}
		}
		g = newGen()
		s.counterparts[key] = g
	}
	return g
}

// eitherFor is For of a shape made by Either: one of its shapes' For,
// made once for e and kept.
func (s *Shape) eitherFor(e Engine) *rapid.Generator[*model.Scenario] {
	gens := make([]*rapid.Generator[*model.Scenario], len(s.alts))
	same := true
	for i, a := range s.alts {
		gens[i] = a.For(e)
		same = same && gens[i] == a.gen
	}
	if same {
		return s.gen
	}
	lacks := slices.Clone(e.Lacks)
	slices.Sort(lacks)
	key := fmt.Sprint(slices.Compact(lacks), e.ByActions)
	return s.counterpart(key, func() *rapid.Generator[*model.Scenario] { return rapid.OneOf(gens...) })
}

type drawer struct {
	t      *rapid.T
	o      Options
	bd     *build.Builder
	cards  int
	tokens int
	play   *reference.Play // the scenario's actions so far, played
	// kept are the component kinds this scenario draws from, once swarm
	// has drawn them; nil before.
	kept []Kind
}

func (d *drawer) card(owner model.PlayerID, def string) model.ObjectID {
	d.cards++
	return d.bd.Card(model.ObjectID(fmt.Sprintf("c%d", d.cards)), owner, def)
}

func (d *drawer) token(owner model.PlayerID, def string) model.ObjectID {
	d.tokens++
	return d.bd.Token(model.ObjectID(fmt.Sprintf("t%d", d.tokens)), owner, def)
}

func (d *drawer) kinds() []Kind {
	if d.kept != nil {
		return d.kept
	}
	kinds := AllKinds
	if len(d.o.Kinds) > 0 {
		kinds = d.o.Kinds
	}
	if !d.restricted() {
		return kinds
	}
	kinds = slices.DeleteFunc(slices.Clone(kinds), func(k Kind) bool { return !d.kindOK(k) })
	if len(kinds) == 0 {
		kinds = []Kind{Card}
	}
	return kinds
}

// swarm draws the component kinds this scenario draws from: each of the
// kinds the options and the engine allow is left out at random (a draw of
// 0 in [0, leaveOut)), at least one kept. A bug that needs few kinds comes
// up sooner among scenarios of few kinds, and rapid's shrinking, which
// takes a draw toward 0, goes toward fewer kinds (swarm testing, Groce et
// al., 2012).
func (d *drawer) swarm() {
	kinds := d.kinds()
	if len(kinds) < 2 || d.o.NoSwarm {
		return
	}
	var kept []Kind
	for _, k := range kinds {
		if rapid.IntRange(0, leaveOut-1).Draw(d.t, "leave out "+string(k)) != leaveOut-1 {
			kept = append(kept, k)
		}
	}
	if len(kept) == 0 {
		kept = kinds[:1]
	}
	d.kept = kept
}

// leaveOut is the odds, about one in leaveOut, that swarm leaves a kind
// out.
const leaveOut = 4

// cantAttack is Options.CantAttack for an engine that declares the
// restrictions on attacking.
func (d *drawer) cantAttack() bool {
	return d.o.CantAttack && d.can(model.FeatureAttackRestrictions)
}

// brisela is Options.Brisela for an engine that declares the
// restrictions on casting.
func (d *drawer) brisela() bool { return d.o.Brisela && d.can(model.FeatureCastRestrictions) }

// restricted reports whether the engine lacks a feature: the drawer then
// leaves out what needs it. An engine that lacks none gets exactly the
// draws it always did.
func (d *drawer) restricted() bool { return len(d.o.Lacks) > 0 }

// can reports whether the scenarios may use feature f.
func (d *drawer) can(f model.Feature) bool { return !slices.Contains(d.o.Lacks, f) }

// allows reports whether s with acts appended uses only what the engine
// declares. Stacks that casting builds (Options.ByActions) ask for
// mutating spells, not for merged stacks in the starting state.
func (d *drawer) allows(s *model.Scenario, acts ...model.Action) bool {
	if !d.restricted() {
		return true
	}
	c := *s
	c.Actions = append(slices.Clip(s.Actions), acts...)
	for _, f := range c.Uses() {
		if !d.can(f) && !(d.o.ByActions && f == model.FeatureMergedStacks) {
			return false
		}
	}
	return true
}

// multi reports whether a stack may have more than one component: merged
// stacks in the starting state, or, when casting builds them, mutating
// spells.
func (d *drawer) multi() bool {
	if d.o.ByActions {
		return d.can(model.FeatureMutate)
	}
	return d.can(model.FeatureMergedStacks)
}

// hows returns the ways of being face down of ks that the engine
// declares.
func (d *drawer) hows(ks ...model.FaceDownKind) []model.FaceDownKind {
	if !d.restricted() {
		return ks
	}
	return slices.DeleteFunc(ks, func(k model.FaceDownKind) bool { return !d.can(model.FaceDownFeature(k)) })
}

// layouts returns the cards of pool whose layout the engine declares.
func (d *drawer) layouts(pool []string) []string {
	if !d.restricted() {
		return pool
	}
	return slices.DeleteFunc(slices.Clone(pool), func(name string) bool {
		f := model.LayoutFeature(catalogue.MustGet(name).Layout)
		return f != "" && !d.can(f)
	})
}

// kindOK reports whether a component of kind k can be drawn with the
// features the engine declares.
func (d *drawer) kindOK(k Kind) bool {
	switch k {
	case Flip:
		return d.can(model.FeatureFlip)
	case Transform:
		return d.can(model.FeatureTransform)
	case Modal:
		return d.can(model.FeatureModal)
	case MeldHalf:
		return d.can(model.FeatureMeld)
	case FaceDown:
		return len(d.hows(model.ByManifest, model.ByCloak, model.ByMorph, model.ByEffect)) > 0
	case FaceDownSpell:
		return len(d.hows(model.ByManifest, model.ByCloak)) > 0
	case FaceDownDFC:
		return len(d.hows(model.ByManifest, model.ByCloak, model.ByEffect)) > 0 && len(d.layouts(append(slices.Clone(transforms), modals...))) > 0
	}
	return true
}

// faceDownTop is Options.FaceDownTop as the engine can have it: a face-down
// top asks for a way of being face down.
func (d *drawer) faceDownTop() *bool {
	if d.o.FaceDownTop != nil && *d.o.FaceDownTop && !d.canFaceDown() {
		return new(false)
	}
	return d.o.FaceDownTop
}

// canFaceDown reports whether any card can be face down: by an effect,
// manifested or cloaked.
func (d *drawer) canFaceDown() bool {
	return len(d.hows(model.ByEffect, model.ByManifest, model.ByCloak)) > 0
}

// rng returns the range lo..hi, with defaults for zero bounds.
func rng(lo, hi, dlo, dhi int) (int, int) {
	if lo == 0 {
		lo = dlo
	}
	if hi == 0 {
		hi = dhi
	}
	return lo, max(lo, hi)
}

func (d *drawer) scenario() *model.Scenario {
	t := d.t
	d.swarm()
	d.bd = build.New("generated", "")
	players := []model.PlayerID{build.A, build.B}
	lo, hi := rng(d.o.MinPermanents, d.o.MaxPermanents, 1, 1)
	n := rapid.IntRange(lo, hi).Draw(t, "permanents")
	for i := range n {
		if i == 0 && d.cantAttack() {
			// The active player's, so that a restriction is what decides
			// its attack more often than not.
			d.stack(i, build.A)
			continue
		}
		d.stack(i, rapid.SampledFrom(players).Draw(t, "owner"))
	}
	extra := 0
	addPerm := func(owner model.PlayerID, def string) model.ObjectID {
		extra++
		id := model.ObjectID(fmt.Sprintf("e%d", extra))
		d.bd.Perm(id, owner, build.Up(d.card(owner, def)))
		return id
	}
	if d.o.IllegalTargets && d.can(model.FeatureIllegalTargets) {
		addPerm(rapid.SampledFrom(players).Draw(t, "human controller"), "Elite Vanguard")
		if rapid.IntRange(0, 2).Draw(t, "noncreature") == 0 {
			// An artifact whose only ability no action activates: a
			// target that is no creature (CR 702.140a).
			addPerm(rapid.SampledFrom(players).Draw(t, "noncreature controller"), "Chimeric Staff")
		}
	}
	if d.o.Hexproof && d.can(model.FeatureHexproof) && d.can(model.FeatureMutate) {
		owner := rapid.SampledFrom(players).Draw(t, "hexproof owner")
		id := addPerm(owner, rapid.SampledFrom(vanilla).Draw(t, "hexproof card"))
		controller := rapid.SampledFrom(players).Draw(t, "hexproof controller")
		d.bd.Mod(id, func(p *model.Permanent) {
			p.Controller, p.Counters = controller, map[string]int{"hexproof": 1}
		})
	}
	if d.o.Ward && d.can(model.FeatureWard) && d.can(model.FeatureMutate) && len(d.hows(model.ByCloak)) > 0 {
		owner := rapid.SampledFrom(players).Draw(t, "ward owner")
		extra++
		id := model.ObjectID(fmt.Sprintf("e%d", extra))
		d.bd.Perm(id, owner, build.Down(d.card(owner, rapid.SampledFrom(vanilla).Draw(t, "cloaked card")), model.ByCloak))
		controller := rapid.SampledFrom(players).Draw(t, "ward controller")
		d.bd.Mod(id, func(p *model.Permanent) { p.Controller = controller })
		d.bd.Put(owner, model.Hand, d.card(owner, rapid.SampledFrom(mutators).Draw(t, "ward mutator")))
	}
	if d.o.Protection && d.can(model.FeatureProtection) && d.can(model.FeatureMutate) {
		owner := rapid.SampledFrom(players).Draw(t, "protection owner")
		addPerm(owner, "Soltari Priest")
		d.bd.Put(owner, model.Hand, d.card(owner, "Illuna, Apex of Wishes"))
	}
	if d.o.Replacements && d.can(model.FeatureReplacement) {
		if rapid.Bool().Draw(t, "leyline") {
			addPerm(rapid.SampledFrom(players).Draw(t, "leyline controller"), "Leyline of the Void")
		}
		if rapid.Bool().Draw(t, "wheel") {
			id := addPerm(rapid.SampledFrom(players).Draw(t, "wheel controller"), "Wheel of Sun and Moon")
			player := rapid.SampledFrom(players).Draw(t, "enchanted player")
			d.bd.Mod(id, func(p *model.Permanent) { p.EnchantedPlayer = player })
		}
		if rapid.IntRange(0, 3).Draw(t, "rest in peace") == 0 {
			addPerm(rapid.SampledFrom(players).Draw(t, "rest in peace controller"), "Rest in Peace")
		}
	}
	if d.o.Linked && d.can(model.FeatureLinked) {
		if rapid.Bool().Draw(t, "duplicant") {
			addPerm(rapid.SampledFrom(players).Draw(t, "duplicant controller"), "Duplicant")
		}
		if rapid.Bool().Draw(t, "mimic vat") {
			addPerm(rapid.SampledFrom(players).Draw(t, "mimic vat controller"), "Mimic Vat")
		}
	}
	if d.cantAttack() && rapid.IntRange(0, 2).Draw(t, "pacifism") == 0 {
		host := model.ObjectID(fmt.Sprintf("p%d", rapid.IntRange(1, n).Draw(t, "pacified")))
		id := addPerm(rapid.SampledFrom(players).Draw(t, "pacifism controller"), "Pacifism")
		d.bd.Mod(id, func(p *model.Permanent) { p.AttachedTo = host })
	}
	if d.o.Statics && d.can(model.FeatureStatics) {
		// One at a time, each later than the last (CR 613.7d, 613.7e);
		// shrinking leaves fewer, and the plainer (Short Sword first).
		for j := range rapid.IntRange(1, len(statics)).Draw(t, "statics") {
			name := rapid.SampledFrom(statics).Draw(t, fmt.Sprintf("static %d", j))
			id := addPerm(rapid.SampledFrom(players).Draw(t, name+" controller"), name)
			if name == "Glorious Anthem" {
				continue
			}
			host := model.ObjectID(fmt.Sprintf("p%d", rapid.IntRange(1, n).Draw(t, name+" host")))
			d.bd.Mod(id, func(p *model.Permanent) { p.AttachedTo = host })
			if name == "Mystic Subdual" && rapid.IntRange(0, 2).Draw(t, "greaves after subdual") == 2 {
				// Often enough, something granted later than the loss.
				id := addPerm(rapid.SampledFrom(players).Draw(t, "later greaves controller"), "Lightning Greaves")
				d.bd.Mod(id, func(p *model.Permanent) { p.AttachedTo = host })
			}
		}
	}
	if d.o.Attach {
		// With Status, an attachment may be tapped: one that phases out
		// with its host and in again must untap with the rest (CR 502.3).
		attach := func(id, host model.ObjectID) {
			tapped := d.o.Status && rapid.Bool().Draw(t, "attachment tapped")
			d.bd.Mod(id, func(p *model.Permanent) { p.AttachedTo, p.Status.Tapped = host, tapped })
		}
		for range rapid.IntRange(0, 2).Draw(t, "auras") {
			host := model.ObjectID(fmt.Sprintf("p%d", rapid.IntRange(1, n).Draw(t, "enchanted")))
			attach(addPerm(rapid.SampledFrom(players).Draw(t, "aura controller"), "False Demise"), host)
		}
		for range rapid.IntRange(0, 1).Draw(t, "equipment") {
			host := model.ObjectID(fmt.Sprintf("p%d", rapid.IntRange(1, n).Draw(t, "equipped")))
			attach(addPerm(rapid.SampledFrom(players).Draw(t, "equipment controller"), "Lightning Greaves"), host)
		}
	}
	// An engine that can't start from a melded permanent gets its meld
	// pair instead, melded by the first action.
	meld := d.can(model.FeatureMeld)
	meldFirst := (d.o.Melded || d.brisela()) && d.o.ByActions && meld
	if d.o.MeldPair && meld || meldFirst && d.o.Melded {
		who := rapid.SampledFrom(players).Draw(t, "meld pair owner")
		for _, half := range []string{"Graf Rats", "Midnight Scavengers"} {
			if d.o.MeldTokens && !meldFirst && rapid.Bool().Draw(t, "token "+half) {
				extra++
				id := model.ObjectID(fmt.Sprintf("e%d", extra))
				d.bd.Perm(id, who, build.Up(d.token(who, half)))
				continue
			}
			id := addPerm(who, half)
			if d.o.Status {
				d.status(id, 8)
			}
		}
	}
	if d.o.Melded && !d.o.ByActions && meld {
		who := rapid.SampledFrom(players).Draw(t, "melded owner")
		extra++
		id := model.ObjectID(fmt.Sprintf("e%d", extra))
		pair := []string{"Midnight Scavengers", "Graf Rats"}
		if rapid.Bool().Draw(t, "rats first") {
			pair[0], pair[1] = pair[1], pair[0]
		}
		d.bd.Perm(id, who, build.BackUp(d.card(who, pair[0])), build.BackUp(d.card(who, pair[1])))
		if d.o.Status {
			d.status(id, 9)
		}
	}
	if d.brisela() && meld {
		who := rapid.SampledFrom(players).Draw(t, "brisela controller")
		if meldFirst {
			// Gisela and Bruna, melded by the first action.
			addPerm(who, "Gisela, the Broken Blade")
			addPerm(who, "Bruna, the Fading Light")
		} else {
			extra++
			id := model.ObjectID(fmt.Sprintf("e%d", extra))
			d.bd.Perm(id, who, build.BackUp(d.card(who, "Bruna, the Fading Light")), build.BackUp(d.card(who, "Gisela, the Broken Blade")))
		}
	}
	if d.o.Clones && d.can(model.FeatureCopy) {
		who := rapid.SampledFrom(players).Draw(t, "clone owner")
		d.bd.Put(who, model.Hand, d.card(who, "Clone"))
	}
	if d.o.Create {
		for _, name := range tokens {
			d.bd.Def(name)
		}
	}
	for _, p := range players {
		if d.o.Hand {
			// An engine without mutate is given creatures it can cast
			// only as creatures, not cards whose mutate it does not know.
			pool := mutators
			if !d.can(model.FeatureMutate) {
				pool = vanilla
			}
			for range rapid.IntRange(0, 2).Draw(t, "mutators in hand") {
				d.bd.Put(p, model.Hand, d.card(p, rapid.SampledFrom(pool).Draw(t, "mutator")))
			}
		}
		if d.brisela() && meld {
			pool := briselaSpells
			if !d.can(model.FeatureMutate) {
				pool = slices.DeleteFunc(slices.Clone(pool), func(name string) bool { return slices.Contains(mutators, name) })
			}
			for range rapid.IntRange(1, 2).Draw(t, "spells in hand") {
				d.bd.Put(p, model.Hand, d.card(p, rapid.SampledFrom(pool).Draw(t, "spell")))
			}
		}
		for range rapid.IntRange(0, 1).Draw(t, "graveyard cards") {
			d.bd.Put(p, model.Graveyard, d.card(p, rapid.SampledFrom(append(slices.Clone(vanilla), flips...)).Draw(t, "graveyard card")))
		}
		for range rapid.IntRange(0, 1).Draw(t, "library cards") {
			d.bd.Put(p, model.Library, d.card(p, rapid.SampledFrom(append(slices.Clone(vanilla), spells[0])).Draw(t, "library card")))
		}
	}
	s := d.bd.Scenario()
	if !d.allows(s) {
		panic(fmt.Sprintf("generators: drew a start that uses %v, with the engine lacking %v", s.Uses(), d.o.Lacks))
	}
	var err error
	if d.play, err = reference.NewPlay(s); err != nil {
		panic(fmt.Sprintf("generators: built an unplayable start: %v", err))
	}
	if d.o.IllegalTargets || d.o.Brisela || d.o.Hexproof || d.o.Protection {
		// Forbidden casts of every reason are drawn; playable keeps out
		// those whose reason the engine does not declare.
		d.play.DeclineForbiddenCasts()
	}
	if meldFirst && !d.action(s, []model.ActionType{model.Meld}) {
		panic("generators: the meld pair could not be melded")
	}
	for range rapid.IntRange(0, d.o.Prefix).Draw(t, "prefix actions") {
		if !d.action(s, d.o.PrefixTypes) {
			break
		}
	}
	if len(d.o.Focus) > 0 && d.action(s, d.o.Focus) && len(d.o.FocusThen) > 0 && d.action(s, d.o.FocusThen) && len(d.o.FocusLast) > 0 {
		d.action(s, d.o.FocusLast)
	}
	for range rapid.IntRange(0, d.o.Then).Draw(t, "actions after") {
		if !d.action(s, nil) {
			break
		}
	}
	return s
}

// stack draws the i-th merged stack, owned and controlled by owner.
func (d *drawer) stack(i int, owner model.PlayerID) {
	t := d.t
	lo, hi := rng(d.o.MinComponents, d.o.MaxComponents, 1, 3)
	n := rapid.IntRange(lo, hi).Draw(t, "components")
	var need []Kind
	if i == 0 {
		need = d.o.NeedKinds
		if d.restricted() {
			need = slices.DeleteFunc(slices.Clone(need), func(k Kind) bool { return !d.kindOK(k) })
		}
		n = max(n, len(need))
	}
	if !d.multi() {
		n, need = 1, need[:min(len(need), 1)]
	}
	if d.o.ByActions {
		d.castableStack(i, owner, n, need)
		return
	}
	faceDownTop := rapid.Bool().Draw(t, "face-down top")
	if i == 0 && d.faceDownTop() != nil {
		faceDownTop = *d.faceDownTop()
	}
	if !d.canFaceDown() {
		faceDownTop = false
	}
	kinds := d.kinds()
	wallAt := -1
	if d.cantAttack() && n > len(need) && rapid.Bool().Draw(t, "defender") {
		wallAt = rapid.IntRange(len(need), n-1).Draw(t, "defender at")
	}
	var comps []model.Component
	for j := range n {
		var k Kind
		switch {
		case j == wallAt:
			comps = append(comps, build.Up(d.card(owner, rapid.SampledFrom(defenders).Draw(t, "defender card"))))
			continue
		case j < len(need):
			k = need[j]
		default:
			k = rapid.SampledFrom(kinds).Draw(t, "kind")
		}
		comps = append(comps, d.component(owner, k))
	}
	if i == 0 && d.o.Commander && d.canCommander() && rapid.Bool().Draw(t, "commander") {
		d.cards++
		id := d.bd.Commander(model.ObjectID(fmt.Sprintf("c%d", d.cards)), owner, "Nethroi, Apex of Death")
		comps = append(comps, build.Up(id))
	}
	// Put the kinds in a drawn order, then repair what the rules the
	// reference refuses would need: the topmost component decides whether
	// the permanent is face down.
	comps = rapid.Permutation(comps).Draw(t, "order")
	topIdx := slices.IndexFunc(comps, func(c model.Component) bool { return c.FaceDown == faceDownTop })
	if topIdx < 0 {
		// No component fits: turn the topmost one.
		topIdx = 0
		c := &comps[0]
		if faceDownTop {
			*c = model.Component{Object: c.Object, FaceDown: true, FaceDownBy: d.hows(model.ByEffect, model.ByManifest, model.ByCloak)[0]}
		} else if d.isSpell(c.Object) {
			comps[0] = model.Component{Object: d.card(owner, rapid.SampledFrom(vanilla).Draw(t, "top card"))}
		} else {
			*c = model.Component{Object: c.Object, Face: c.Face}
		}
	}
	comps[0], comps[topIdx] = comps[topIdx], comps[0]
	if !faceDownTop && len(comps) > 1 {
		// Under a face-up mutated top, a face-down component must have no
		// abilities (the reference refuses the rules' silence there).
		for j := 1; j < len(comps); j++ {
			if comps[j].FaceDown && d.hasAbilities(comps[j].Object) {
				comps[j] = model.Component{Object: d.card(owner, rapid.SampledFrom(vanilla).Draw(t, "vanilla")), FaceDown: true, FaceDownBy: comps[j].FaceDownBy}
			}
		}
	}
	if !faceDownTop && len(comps) == 1 && d.isSpell(comps[0].Object) {
		comps[0] = model.Component{Object: d.card(owner, rapid.SampledFrom(vanilla).Draw(t, "card"))}
	}
	for j := range comps {
		if comps[j].FaceDown {
			comps[j].Face = ""
		}
	}
	d.permanent(i, owner, comps)
}

// permanent puts the i-th stack on the battlefield, with a drawn status
// when the options ask for one.
func (d *drawer) permanent(i int, owner model.PlayerID, comps []model.Component) {
	id := model.ObjectID(fmt.Sprintf("p%d", i+1))
	d.bd.Perm(id, owner, comps...)
	if !d.can(model.FeatureMutate) {
		// Merged by a bare merge, for an engine without mutate: not mutated.
		d.bd.Mod(id, func(p *model.Permanent) { p.Mutated = false })
	}
	if d.o.Status {
		d.status(id, i)
	}
	if d.o.Vigilance && rapid.Bool().Draw(d.t, "vigilance counter") {
		d.bd.Mod(id, func(p *model.Permanent) {
			if p.Counters == nil {
				p.Counters = map[string]int{}
			}
			p.Counters[string(model.Vigilance)] = 1
		})
	}
}

// status draws permanent id's tapped and flipped status, counters, a pump
// effect and whether it came under its controller's control this turn.
func (d *drawer) status(id model.ObjectID, i int) {
	t := d.t
	tapped := rapid.Bool().Draw(t, "tapped")
	flipped := rapid.IntRange(0, 3).Draw(t, "flipped") == 0 && d.can(model.FeatureFlip)
	counters := rapid.IntRange(0, 2).Draw(t, "+1/+1 counters")
	pump := rapid.IntRange(0, 2).Draw(t, "pump")
	recent := rapid.IntRange(0, 3).Draw(t, "entered this turn") == 0
	d.bd.Mod(id, func(p *model.Permanent) {
		p.Status.Tapped, p.Status.Flipped = tapped, flipped
		if counters > 0 {
			p.Counters = map[string]int{"+1/+1": counters}
		}
		if pump > 0 {
			p.Effects = []model.Effect{{Kind: model.EffectPump, Timestamp: 100 + i, Power: pump, Toughness: pump, UntilEndOfTurn: true}}
		}
		p.ControlledSinceTurnStart = !recent
	})
}

// castableStack draws the i-th stack of n components for Options.ByActions:
// a base (of the first kind in need that can be one, or a drawn kind) and
// mutate cards, in a drawn order, each of which can be cast onto the base
// on top or underneath. The base may be face down: a face-down permanent
// is a creature without subtypes (CR 708.2a), so a legal target of a
// mutating spell (702.140a).
func (d *drawer) castableStack(i int, owner model.PlayerID, n int, need []Kind) {
	t := d.t
	if n == 1 && !(i == 0 && d.o.Commander && d.canCommander()) {
		// Nothing is cast onto a lone permanent, so it need not be a legal
		// mutate target: it can be any kind (a Human, a double-faced card
		// either face up, a flip card, a face-down card).
		kinds := d.kinds()
		if i == 0 && d.faceDownTop() != nil {
			kinds = slices.DeleteFunc(slices.Clone(kinds), func(k Kind) bool { return slices.Contains(faceDownKinds, k) != *d.faceDownTop() })
		}
		if len(kinds) > 0 {
			k := rapid.SampledFrom(kinds).Draw(t, "kind")
			if len(need) > 0 && slices.Contains(kinds, need[0]) {
				k = need[0]
			}
			comp := d.component(owner, k)
			if !comp.FaceDown && d.isSpell(comp.Object) {
				comp = build.Up(d.card(owner, rapid.SampledFrom(vanilla).Draw(t, "card")))
			}
			d.permanent(i, owner, []model.Component{comp})
			return
		}
	}
	canBase := func(k Kind) bool { return slices.Contains(faceUpKinds, k) || slices.Contains(faceDownKinds, k) }
	var bases []Kind
	for _, k := range d.kinds() {
		if canBase(k) {
			bases = append(bases, k)
		}
	}
	top := (*bool)(nil)
	if i == 0 {
		top = d.faceDownTop()
	}
	if top != nil && (*top || n == 1) {
		// The base is the top when it must be face down, and when it is
		// alone: it must then be face down, or face up, as asked.
		bases = slices.DeleteFunc(bases, func(k Kind) bool { return slices.Contains(faceDownKinds, k) != *top })
	}
	if len(bases) == 0 {
		bases = []Kind{Card}
		if top != nil && *top {
			bases = []Kind{FaceDown}
		}
	}
	k := rapid.SampledFrom(bases).Draw(t, "base kind")
	for _, want := range need {
		// The mutate cards are cards already: a needed Card need not be
		// the base.
		if want != Card && canBase(want) && slices.Contains(bases, want) {
			k = want
			break
		}
	}
	base := d.component(owner, k)
	if !base.FaceDown {
		base.Face = "" // the front: a back face can't be cast onto
		if def := d.def(base.Object); slices.Contains(def.Front.Subtypes, "Human") || !def.Front.Has("creature") {
			// Not a legal mutate target: another card of its kind that is
			// (a non-Human double-faced card, say), or a plain creature.
			pool := vanilla
			if k == Transform {
				pool = nonHumanTransforms
			}
			base = build.Up(d.card(owner, rapid.SampledFrom(pool).Draw(t, "base card")))
		}
	}
	var rest []model.Component
	for range n - 1 {
		rest = append(rest, build.Up(d.card(owner, rapid.SampledFrom(mutators).Draw(t, "mutator"))))
	}
	if i == 0 && d.o.Commander && d.canCommander() && rapid.Bool().Draw(t, "commander") {
		d.cards++
		rest = append(rest, build.Up(d.bd.Commander(model.ObjectID(fmt.Sprintf("c%d", d.cards)), owner, "Nethroi, Apex of Death")))
	}
	// The base's place: on top for a face-down top, under at least one
	// mutate card for a face-up top, drawn otherwise.
	above := rapid.IntRange(0, len(rest)).Draw(t, "cast on top")
	switch {
	case top != nil && *top:
		above = 0
	case top != nil && !*top && base.FaceDown && len(rest) > 0:
		above = max(above, 1)
	}
	if base.FaceDown && above > 0 && d.hasAbilities(base.Object) {
		// Under a face-up mutated top a face-down component must have no
		// abilities (the reference refuses the rules' silence there).
		base = model.Component{Object: d.card(owner, rapid.SampledFrom(vanilla).Draw(t, "vanilla")), FaceDown: true, FaceDownBy: base.FaceDownBy}
	}
	comps := append(append(append([]model.Component{}, rest[:above]...), base), rest[above:]...)
	d.permanent(i, owner, comps)
}

// faceUpKinds and faceDownKinds are the kinds a base can be: a mutating
// spell's caster can cast it onto or under any of them.
var (
	faceUpKinds   = []Kind{Card, Token, Flip, Transform, Modal, MeldHalf}
	faceDownKinds = []Kind{FaceDown, FaceDownSpell, FaceDownDFC}
)

// canCommander reports whether a commander can be drawn: it is a
// component of a merged stack.
func (d *drawer) canCommander() bool { return d.can(model.FeatureCommander) && d.multi() }

func (d *drawer) def(id model.ObjectID) model.CardDef { return *d.bd.DefOf(id) }

func (d *drawer) isSpell(id model.ObjectID) bool { dd := d.def(id); return dd.InstantOrSorcery() }

func (d *drawer) hasAbilities(id model.ObjectID) bool { return len(d.def(id).Front.Abilities) > 0 }

// component draws one component of kind k owned by owner.
func (d *drawer) component(owner model.PlayerID, k Kind) model.Component {
	t := d.t
	pick := func(pool []string) string { return rapid.SampledFrom(pool).Draw(t, string(k)) }
	switch k {
	case Token:
		return build.Up(d.token(owner, pick(tokens)))
	case Flip:
		return build.Up(d.card(owner, pick(flips)))
	case Transform:
		c := build.Up(d.card(owner, pick(transforms)))
		if rapid.Bool().Draw(t, "back face up") {
			c.Face = model.Back
		}
		return c
	case Modal:
		return build.Up(d.card(owner, pick(modals)))
	case MeldHalf:
		return build.Up(d.card(owner, pick(meldHalves)))
	case FaceDown:
		how := rapid.SampledFrom(d.hows(model.ByManifest, model.ByCloak, model.ByMorph, model.ByEffect)).Draw(t, "face down by")
		pool := vanilla
		if how == model.ByMorph {
			pool = morphs
		}
		return build.Down(d.card(owner, pick(pool)), how)
	case FaceDownDFC:
		how := rapid.SampledFrom(d.hows(model.ByManifest, model.ByCloak, model.ByEffect)).Draw(t, "face down by")
		return build.Down(d.card(owner, pick(d.layouts(append(slices.Clone(transforms), modals...)))), how)
	case FaceDownSpell:
		how := rapid.SampledFrom(d.hows(model.ByManifest, model.ByCloak)).Draw(t, "face down by")
		return build.Down(d.card(owner, pick(d.layouts(spells))), how)
	}
	return build.Up(d.card(owner, pick(append(slices.Clone(vanilla), mutators...))))
}

// Defs reports whether every pool's cards are in the catalogue.
func Defs() error {
	for name, pool := range Pools() {
		for _, c := range pool {
			if _, err := catalogue.Get(c); err != nil {
				return fmt.Errorf("pool %s: %w", name, err)
			}
		}
	}
	return nil
}
