// Package reference is mergecheck's reference engine: a minimal model of the
// rules of merged permanents (CR 730, 702.140, 701.42, 712.21) and permanent
// status (CR 110.5) that plays a scenario and returns its trace.
//
// Each rule it implements carries its number in a comment. Where the rules
// are silent or a case is outside mergecheck's scope, it refuses the
// scenario with an [UnsupportedError] naming the feature, rather than guess.
package reference

import (
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// Name and Version identify the reference engine in traces.
const (
	Name    = "mergecheck-reference"
	Version = "0.1.0"
)

// Run plays s and returns its trace. It is safe for concurrent use: each
// call works on its own copy of the scenario's state.
//
// On error, the returned trace holds the steps completed before the failing
// action, and the error is an [*ActionError] wrapping [ErrUnsupported] or
// [ErrInvalid].
func Run(s *model.Scenario) (*model.Trace, error) { return run(s, "", newGame) }

// Uses returns the features s asks of an engine: those the scenario
// itself shows (model.Scenario.Uses) and those the rules' trace of it
// shows (model.Trace.Uses), such as a cast the rules forbid for a reason
// of its own; the scenario's alone when the reference can't play it.
func Uses(s *model.Scenario) []model.Feature {
	t, err := Run(s)
	if err != nil {
		return s.Uses()
	}
	return UsesWith(s, t)
}

// UsesWith is Uses given the rules' trace of s.
func UsesWith(s *model.Scenario, rules *model.Trace) []model.Feature {
	used, more := s.Uses(), rules.Uses()
	if len(more) == 0 {
		return used
	}
	return slices.DeleteFunc(slices.Clone(model.Features), func(f model.Feature) bool {
		return !slices.Contains(used, f) && !slices.Contains(more, f)
	})
}

// RunValid plays s as Run does, without validating it first: for a
// scenario known to be valid, such as one a generator drew (the
// generators build only valid scenarios, which their tests check). Given
// an invalid scenario, it may answer wrongly.
func RunValid(s *model.Scenario) (*model.Trace, error) { return run(s, "", startGame) }

func run(s *model.Scenario, mutant string, begin func(*model.Scenario) (*game, error)) (t *model.Trace, err error) {
	defer func() {
		// A panic here is a bug in the reference, never the user's fault;
		// report it as an error so no caller crashes on it.
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("%w: %v\n%s", ErrInternal, r, debug.Stack())
		}
	}()
	g, err := begin(s)
	var ae *ActionError
	if errors.As(err, &ae) {
		return nil, ae
	}
	if err != nil {
		return nil, &ActionError{Index: -1, Err: err}
	}
	g.mutant, g.several = mutant, strings.Contains(mutant, "+")
	start, err := g.snapshot()
	if err != nil {
		return nil, &ActionError{Index: -1, Err: err}
	}
	t = &model.Trace{Format: model.TraceFormat, Scenario: s.Name, Engine: Name + " " + Version, Start: start}
	for i := range s.Actions {
		a := s.Actions[i] // a copy: playing never changes the caller's scenario
		g.action, g.events = i, nil
		if err := g.step(&a); err != nil {
			return t, &ActionError{Index: i, Type: a.Type, Err: err}
		}
		st, err := g.snapshot()
		if err != nil {
			return t, &ActionError{Index: i, Type: a.Type, Err: err}
		}
		t.Steps = append(t.Steps, model.Step{Action: i, Events: g.events, State: st})
	}
	if err := unsettledClaims(s, t); err != nil {
		t.Steps = t.Steps[:err.Index] // as for an action refused
		return t, err
	}
	return t, nil
}

// step performs one action of a scenario. An action the rules forbid
// (CR 508.1, 601.3, 702.140a, 702.37e) can't be taken: the game is as it was,
// and the step reports not_allowed (CR 733).
func (g *game) step(a *model.Action) error {
	var before model.State
	ts := g.ts
	forbiddable := a.Type == model.CastMutate || a.Type == model.Cast || a.Type == model.Attack || a.Type == model.TurnFaceUp
	if forbiddable {
		before = g.st.Clone()
	}
	var no *illegalAction
	if err := g.do(a); errors.As(err, &no) && forbiddable {
		g.st, g.ts = before, ts
		g.events = []model.Event{{Kind: model.NotAllowed, Rule: no.rule, Object: a.Object}}
	} else if err != nil {
		return err
	}
	return nil
}

// unsettledClaims refuses an expectation that claims what the rules leave
// open: the abilities of a permanent its step marks unsettled. A scenario
// that claims only the settled values is answered.
func unsettledClaims(s *model.Scenario, t *model.Trace) *ActionError {
	for i, e := range s.Expect {
		if e.After < 0 || e.After >= len(t.Steps) {
			continue // CheckExpectations reports it
		}
		st := &t.Steps[e.After].State
		for _, id := range slices.Sorted(maps.Keys(e.Permanents)) {
			c := e.Permanents[id]
			p := st.Permanent(id)
			if p == nil || p.Derived == nil || !slices.Contains(p.Derived.Unsettled, model.UnsettledAbilities) {
				continue
			}
			if c.Abilities != nil || c.AbilitiesExactly != nil || c.Lacks != nil {
				return &ActionError{Index: e.After, Type: s.Actions[e.After].Type, Permanent: id,
					Err: unsupported("copy-effect-on-merged-permanent", "expectation %d claims the abilities of %s, a mutated permanent a copy effect applies to: "+
						"CR 613.2a and 707.2 settle its other values, but not whether each component gives its card's abilities or the copy's (CR 702.140e)", i, id)}
			}
		}
	}
	return nil
}

// A departure remembers where the components of a permanent went when it
// left the battlefield, so that an effect can find the new objects
// (CR 400.7, 730.3c, 712.21c).
type departure struct {
	moves       []model.Placement
	wasCreature bool
	wasToken    bool
	status      model.Status // what it was; only a mutant remembers it
}

type game struct {
	s       *model.Scenario
	st      model.State
	objects map[model.ObjectID]*model.Object
	ts      int // last timestamp handed out
	action  int
	events  []model.Event
	gone    map[model.ObjectID]departure
	mutant  string // see mutants.go
	several bool   // mutant names several, joined by "+"
	// reached, if not nil, notes what the play comes to of the mutants'
	// code (RunValidReached).
	reached *Reached
	// declared are the kinds the scenario's definitions declare for
	// abilities the reference does not know (model.Face.AbilityKinds).
	declared map[model.AbilityID]model.AbilityKind
	// effects are the declared static abilities with an effect, which
	// the reference interprets by layers (statics.go); nil if none.
	effects map[model.AbilityID]*model.StaticEffect
	// marked holds the permanents a mutant wrongly gave face-down
	// characteristics to (see mutant "failed-face-down-still-2-2").
	marked map[model.ObjectID]bool
	// copies holds the tokens made as copies of a lone double-faced
	// permanent, which are double-faced themselves (CR 707.8a): one back
	// face up has mana value 0 (CR 712.8e).
	copies map[model.ObjectID]bool
	// cloned holds the cards on the battlefield that entered as a copy
	// (CR 707.5); the copy ends when they leave.
	cloned map[model.ObjectID]bool
	// mergedAt holds, for each permanent something merged with during the
	// game, the timestamp at its latest merge: layer 1a orders the merge
	// against copy effects by it (CR 613.2a, 730.2a).
	mergedAt map[model.ObjectID]int
	// joinedAt holds, for each card or token that merged with a permanent
	// during the game and is still part of it, the timestamp at its merge.
	joinedAt map[model.ObjectID]int
	probe    *Needs // set by Probe: record the last action's needs and choose defaults
	// watch lists the unmodelled and unknown abilities the scenario can
	// bring into play; nil when there are none (see unmodelled.go).
	watch *watch
}

func newGame(s *model.Scenario) (*game, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return startGame(s)
}

// startGame sets up a game from a scenario already validated.
func startGame(s *model.Scenario) (*game, error) {
	g := &game{s: s, objects: make(map[model.ObjectID]*model.Object, len(s.Objects)), gone: map[model.ObjectID]departure{}}
	g.st = s.Start.Clone()
	for i := range s.Objects {
		o := s.Objects[i]
		g.objects[o.ID] = &o
	}
	for _, p := range g.st.Battlefield {
		g.ts = max(g.ts, p.Timestamp)
		for _, e := range p.Effects {
			g.ts = max(g.ts, e.Timestamp)
		}
	}
	for i := range g.st.Battlefield {
		p := &g.st.Battlefield[i]
		if err := g.checkStack(p); err != nil {
			return nil, &ActionError{Index: -1, Permanent: p.ID, Err: err}
		}
	}
	g.declared, _ = s.DeclaredKinds() // validated
	for ab, k := range g.declared {
		if k.Effect != nil {
			if g.effects == nil {
				g.effects = map[model.AbilityID]*model.StaticEffect{}
			}
			g.effects[ab] = k.Effect
		}
	}
	g.watch = watchStart(s).withActions(s.Actions)
	if g.watch != nil && g.watch.every {
		if err := g.refuseInPlay(nil); err != nil {
			return nil, &ActionError{Index: -1, Err: err}
		}
	}
	return g, nil
}

// checkStack refuses permanents whose makeup the rules do not define.
func (g *game) checkStack(p *model.Permanent) error {
	owner := g.obj(p.Components[0].Object).Owner
	for _, c := range p.Components {
		o := g.obj(c.Object)
		if o.Owner != owner {
			// CR 730.3a speaks of "its owner's graveyard": the rules assume
			// one owner for a merged permanent.
			return unsupported("merged-permanent-with-several-owners",
				"components %s and %s have different owners; CR 730.3a assumes a merged permanent has one owner", p.Components[0].Object, c.Object)
		}
		if !c.FaceDown && g.def(c.Object).InstantOrSorcery() && c.Face != model.Back {
			return invalid("%s (%s) is an instant or sorcery card face up on the battlefield", c.Object, g.def(c.Object).Name)
		}
	}
	if len(p.Components) > 1 && !g.melded(p) {
		for _, e := range p.Effects {
			if e.Kind == model.EffectCopy {
				return unsupported("copy-effect-on-merged-permanent",
					"CR 730.2a and 707 do not say how a copy effect and the merge effect combine on the components")
			}
		}
	}
	return nil
}

// clone returns a copy of g to play on without changing g, for a
// scenario whose actions are those given. Objects and departures are never
// changed once recorded, so the maps of them are copied but not the values.
func (g *game) clone(actions []model.Action) *game {
	c := *g
	s := *g.s
	s.Actions = actions
	c.s = &s
	c.st = g.st.Clone()
	c.objects = maps.Clone(g.objects)
	c.gone = maps.Clone(g.gone)
	c.marked = maps.Clone(g.marked)
	c.copies = maps.Clone(g.copies)
	c.cloned = maps.Clone(g.cloned)
	c.mergedAt = maps.Clone(g.mergedAt)
	c.joinedAt = maps.Clone(g.joinedAt)
	if len(actions) > len(g.s.Actions) {
		// Actions are only ever appended to a game's own.
		c.watch = g.watch.withActions(actions[len(g.s.Actions):])
	}
	c.events, c.probe = nil, nil
	return &c
}

// obj returns the object with the given id. Ids were validated, so a
// missing one is a bug in the engine.
func (g *game) obj(id model.ObjectID) *model.Object {
	o := g.objects[id]
	if o == nil {
		panic(fmt.Sprintf("reference: unknown object %s", id))
	}
	return o
}

// def returns the definition an object's characteristics come from.
func (g *game) def(id model.ObjectID) *model.CardDef {
	o := g.obj(id)
	if o.Copy != nil {
		return o.Copy
	}
	return g.s.Def(o.Def)
}

func (g *game) ownerOf(p *model.Permanent) model.PlayerID {
	return g.obj(p.Components[0].Object).Owner
}

func (g *game) nextTimestamp() int {
	g.ts++
	return g.ts
}

func (g *game) emit(e model.Event) { g.events = append(g.events, e) }

// melded reports whether p is a melded permanent: the two cards of one meld
// pair with their back faces up (CR 701.42a, 712.4a).
func (g *game) melded(p *model.Permanent) bool {
	if len(p.Components) != 2 {
		return false
	}
	a, b := p.Components[0], p.Components[1]
	da, db := g.def(a.Object), g.def(b.Object)
	return a.Face == model.Back && b.Face == model.Back && da.Layout == model.LayoutMeld &&
		da.MeldPartner == db.Name && db.MeldPartner == da.Name
}

// merged reports whether p is a merged permanent (CR 730.2).
func (g *game) merged(p *model.Permanent) bool {
	return len(p.Components) > 1 && !g.melded(p)
}

// permanent returns the permanent id names, refusing one that is absent or
// phased out: a phased-out permanent is treated as though it does not
// exist (CR 702.26b).
func (g *game) permanent(id model.ObjectID) (*model.Permanent, error) {
	p := g.st.Permanent(id)
	if p == nil {
		return nil, invalid("%s is not on the battlefield", id)
	}
	if p.Status.PhasedOut {
		return nil, invalid("%s is phased out and is treated as though it does not exist (CR 702.26b)", id)
	}
	return p, nil
}

func (g *game) player(id model.PlayerID) *model.Player { return g.st.Player(id) }

func (g *game) opponent(id model.PlayerID) model.PlayerID {
	for _, p := range g.st.Players {
		if p.ID != id {
			return p.ID
		}
	}
	return ""
}

// zoneOf finds which of its owner's zones a card is in.
func (g *game) zoneOf(id model.ObjectID) (model.Zone, int) {
	p := g.player(g.obj(id).Owner)
	for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
		ids, _ := p.Zones.Get(z)
		if i := slices.Index(ids, id); i >= 0 {
			return z, i
		}
	}
	return "", -1
}

// takeFromZone removes card id from the named zone of its owner.
func (g *game) takeFromZone(id model.ObjectID, z model.Zone) error {
	ref := g.player(g.obj(id).Owner).Zones.Ref(z)
	i := slices.Index(*ref, id)
	if i < 0 {
		return invalid("%s is not in its owner's %s", id, z)
	}
	*ref = slices.Delete(*ref, i, i+1)
	return nil
}

func (g *game) removePermanent(id model.ObjectID) model.Permanent {
	i := slices.IndexFunc(g.st.Battlefield, func(p model.Permanent) bool { return p.ID == id })
	p := g.st.Battlefield[i]
	g.st.Battlefield = slices.Delete(g.st.Battlefield, i, i+1)
	g.forget(&p)
	return p
}

// enter puts a new permanent onto the battlefield with a new timestamp
// (CR 613.7d) and the default status (CR 110.5b, or face down for
// CR 708.3), and reports the zone change and the enters observer.
func (g *game) enter(p model.Permanent, from model.Zone) error {
	p.Timestamp = g.nextTimestamp()
	p.Status.FaceDown = p.Components[0].FaceDown
	g.st.Battlefield = append(g.st.Battlefield, p)
	cards := 0
	for _, c := range p.Components {
		if !g.obj(c.Object).Token {
			cards++
		}
	}
	g.emit(model.Event{Kind: model.ZoneChange, Rule: "613.7d", Object: p.ID, From: from, To: model.Battlefield, Objects: 1, Cards: cards})
	d, err := g.derive(g.st.Permanent(p.ID))
	if err != nil {
		return err
	}
	if slices.Contains(d.Characteristics.Types, "creature") {
		g.emit(model.Event{Kind: model.Trigger, Observer: model.CreatureEnters, Object: p.ID})
	}
	g.emit(model.Event{Kind: model.Trigger, Observer: model.PermanentEnters, Object: p.ID})
	return nil
}

// snapshot returns the observable state with every permanent's derived values.
func (g *game) snapshot() (model.State, error) {
	st := g.st.Clone()
	for i := range st.Battlefield {
		p := &st.Battlefield[i]
		d, err := g.derive(p)
		if err != nil {
			return st, fmt.Errorf("permanent %s: %w", p.ID, err)
		}
		// A state-based action would put a creature with toughness 0 or
		// less into its owner's graveyard (CR 704.5f), a rule whose text
		// the model does not hold. It is checked here, where every
		// permanent is derived after each action anyway.
		if ch := d.Characteristics; !p.Status.PhasedOut && ch.Toughness != nil && *ch.Toughness <= 0 && slices.Contains(ch.Types, "creature") {
			return st, unsupported("creature-with-toughness-0",
				"%s is a creature with toughness %d, which a state-based action puts into its owner's graveyard; that rule (CR 704.5f) is not among the rule texts the model holds", p.ID, *ch.Toughness)
		}
		p.Derived = &d
	}
	for i := range st.Players {
		slices.Sort(st.Players[i].Zones.Hand)
		slices.Sort(st.Players[i].Zones.Command)
	}
	return st, nil
}
