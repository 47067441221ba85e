package reference

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// Needs lists the choices an action requires in a given state and does not
// yet script, so that a
// generator can script exactly those and build valid scenarios by
// construction rather than by filtering.
type Needs struct {
	// Position is set when the action merges an object (CR 702.140c, 730.2).
	Position bool
	// Order lists the cards that move together into one ordered zone or
	// enter together; a permutation of them must be scripted.
	Order []model.ObjectID
	// Replacements lists the permanents whose replacement effects apply
	// when there are several; one must be scripted.
	Replacements []model.ObjectID
	// CommandZone is set when a commander moves (CR 903.9).
	CommandZone bool
	// May is set for a "you may" instruction.
	May bool
}

// Probe plays s, then action a, with the choices a scripts and a default
// for each it lacks, and reports the lacking ones. One choice can change
// what another is about (a commander sent to the command zone leaves fewer
// cards to order), so a caller scripts what Probe reports and probes again
// until nothing is lacking. An error means s or a cannot be played (an
// error of the kind [Run] returns). Probe trusts s to be a valid scenario,
// as a generator builds it, and does not validate it again.
func Probe(s *model.Scenario, a model.Action) (Needs, error) {
	p, err := NewPlay(s)
	if err != nil {
		return Needs{}, err
	}
	return p.Probe(a)
}

// Final plays a scenario the caller built valid and returns only what a
// generator needs to draw the next action: the final state, and the
// permanents that left the battlefield along the way. It skips the
// per-step states that make Run's trace, which is most of Run's cost.
func Final(s *model.Scenario) (model.State, []model.ObjectID, error) {
	p, err := NewPlay(s)
	if err != nil {
		return model.State{}, nil, err
	}
	return p.State()
}

// A Play is a scenario being played one action at a time, for a generator
// that builds its actions as it goes: [Play.Probe] tries one more action
// on a copy of the game so far, where [Probe] would replay the scenario
// from its start, which makes drawing n actions cost n steps, not n².
// Like Probe it trusts its scenario to be valid.
type Play struct {
	g       *game
	actions []model.Action // played so far
	left    []model.ObjectID
	// probed is the game after the action last probed, when it lacked no
	// choice and was played: Do of that same action takes it rather than
	// play the action again, which a generator's every action would.
	probed *probedAction
	// declineCasts plays a spell cast the rules forbid as a not_allowed
	// step (DeclineForbiddenCasts).
	declineCasts bool
}

// DeclineForbiddenCasts makes p play a spell the rules forbid casting
// (CR 702.140a: a mutating spell's target is a Human, another owner's, or
// no creature; 702.11b, 702.16b, 702.18a: hexproof, protection or shroud
// keeps it from being targeted; 601.3: an effect forbids the cast) as Run
// does, a step in
// which nothing changes and the engine must say not_allowed (CR 733),
// rather than refuse it: for a generator that draws forbidden casts.
// Other generators draw only what can be done.
func (p *Play) DeclineForbiddenCasts() { p.declineCasts = true }

// Declined reports whether the last action played was one the rules
// forbid, played as a step that reports not_allowed.
func (p *Play) Declined() bool {
	return slices.ContainsFunc(p.g.events, func(e model.Event) bool { return e.Kind == model.NotAllowed })
}

// Countered reports whether the last action played countered a spell
// (CR 701.6a), as an unpaid ward does: nothing is left to resolve.
func (p *Play) Countered() bool {
	return slices.ContainsFunc(p.g.events, func(e model.Event) bool { return e.Kind == model.ZoneChange && e.Rule == "701.6a" })
}

// Uses returns the features the last action played asks of an engine
// by what the rules did (model.Trace.Uses): a cast or an attack they
// forbid, a ward that counters.
func (p *Play) Uses() []model.Feature {
	t := model.Trace{Steps: []model.Step{{Events: p.g.events}}}
	return t.Uses()
}

// declined reports whether err is the rules forbidding a, and p plays
// such an action as a not_allowed step: an attack always, a spell cast
// when DeclineForbiddenCasts says so.
func (p *Play) declined(a model.Action, err error) bool {
	var no *illegalAction
	return declinedAttack(a, err) || p.declineCasts && (a.Type == model.CastMutate || a.Type == model.Cast) && errors.As(err, &no)
}

// A probedAction is an action as Probe was given it and the game after it.
type probedAction struct {
	a model.Action
	g *game
}

// NewPlay plays s's actions and returns the game after them. It keeps s
// and its catalogue but copies what it changes.
func NewPlay(s *model.Scenario) (p *Play, err error) {
	defer recoverInternal(&err)
	sc := *s
	sc.Expect = nil
	g, err := startGame(&sc)
	var ae *ActionError
	if errors.As(err, &ae) {
		return nil, ae
	}
	if err != nil {
		return nil, &ActionError{Index: -1, Err: err}
	}
	p = &Play{g: g, actions: sc.Actions[:len(sc.Actions):len(sc.Actions)]}
	for i := range sc.Actions {
		a := sc.Actions[i]
		g.action, g.events = i, nil
		if err := g.step(&a); err != nil {
			return nil, &ActionError{Index: i, Type: a.Type, Err: err}
		}
		p.noteLeft(g.events)
	}
	return p, nil
}

// noteLeft records the permanents that events moved off the battlefield.
func (p *Play) noteLeft(events []model.Event) {
	for _, e := range events {
		if e.Kind == model.ZoneChange && e.From == model.Battlefield && !slices.Contains(p.left, e.Object) {
			p.left = append(p.left, e.Object)
		}
	}
}

// Probe reports the choices a lacks if played next, as [Probe] does; p is
// left as it was.
func (p *Play) Probe(a model.Action) (n Needs, err error) {
	defer recoverInternal(&err)
	p.probed = nil
	given := a
	g := p.g.clone(append(p.actions[:len(p.actions):len(p.actions)], a))
	g.probe = &Needs{}
	g.action, g.events = len(p.actions), nil
	err = g.do(&a)
	if err != nil && !p.declined(a, err) {
		return Needs{}, &ActionError{Index: len(p.actions), Type: a.Type, Err: err}
	}
	n = *g.probe
	if err == nil && n.IsZero() {
		// Nothing was lacking, so no default was taken: the game is the
		// one Do would make.
		g.probe = nil
		p.probed = &probedAction{a: given, g: g}
	}
	return n, nil
}

// declinedAttack reports whether err is the rules forbidding attack a. A
// Play plays such an attack as Run does, a step in which nothing changes
// and the engine must say not_allowed (CR 508.1, 733), so that generated
// scenarios judge refusals as well as declarations. Other forbidden
// actions stay errors for a Play: a generator draws only what can be done.
func declinedAttack(a model.Action, err error) bool {
	var no *illegalAction
	return a.Type == model.Attack && errors.As(err, &no)
}

// Do plays a, which must script every choice it needs, and keeps the game
// after it. On error p is left as it was.
func (p *Play) Do(a model.Action) (err error) {
	defer recoverInternal(&err)
	return p.do(a)
}

// Then returns the game after a, leaving p as it was: for looking two
// actions ahead, such as a spell cast and its resolution.
func (p *Play) Then(a model.Action) (*Play, error) {
	q := &Play{g: p.g.clone(p.actions), actions: slices.Clone(p.actions), left: slices.Clone(p.left), declineCasts: p.declineCasts}
	if err := q.Do(a); err != nil {
		return nil, err
	}
	return q, nil
}

func (p *Play) do(a model.Action) error {
	if pr := p.probed; pr != nil && reflect.DeepEqual(pr.a, a) {
		p.probed = nil
		p.noteLeft(pr.g.events)
		p.g, p.actions = pr.g, pr.g.s.Actions
		return nil
	}
	p.probed = nil
	g := p.g.clone(append(p.actions[:len(p.actions):len(p.actions)], a))
	g.action, g.events = len(p.actions), nil
	if err := g.do(&a); p.declined(a, err) {
		var no *illegalAction
		errors.As(err, &no)
		g = p.g.clone(append(p.actions[:len(p.actions):len(p.actions)], a))
		g.action, g.events = len(p.actions), []model.Event{{Kind: model.NotAllowed, Rule: no.rule, Object: a.Object}}
	} else if err != nil {
		return &ActionError{Index: len(p.actions), Type: a.Type, Err: err}
	}
	p.noteLeft(g.events)
	p.g, p.actions = g, g.s.Actions
	return nil
}

// State returns the game's state now, with every permanent's derived
// values, and the permanents that have left the battlefield.
func (p *Play) State() (st model.State, left []model.ObjectID, err error) {
	defer recoverInternal(&err)
	st, err = p.g.snapshot()
	if err != nil {
		return model.State{}, nil, err
	}
	return st, slices.Clone(p.left), nil
}

// recoverInternal turns a panic, always a bug in the reference, into an
// error wrapping [ErrInternal].
func recoverInternal(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: %v\n%s", ErrInternal, r, debug.Stack())
	}
}

// probing reports whether the game is probing the action it is doing: it
// records that action's needs and takes a default for each choice missing.
func (g *game) probing() bool { return g.probe != nil && g.action == len(g.s.Actions)-1 }

// IsZero reports whether nothing is lacking.
func (n Needs) IsZero() bool {
	return !n.Position && len(n.Order) == 0 && len(n.Replacements) == 0 && !n.CommandZone && !n.May
}
