// Package harness checks a rules engine against properties, shrinks every
// counterexample to its minimum, and returns the results as values.
//
// [Check] is the core: it runs each property's generator with rapid, plays
// every drawn scenario in the engine under test (and in the reference
// engine for differential properties), and judges the pair with the
// property's check. Failures are shrunk by rapid, then by a domain-aware
// pass of its own so that one bug yields one canonical counterexample.
package harness

import (
	"context"
	"errors"
	"fmt"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// An Engine is a rules engine under test (see [engine.Engine]).
type Engine = engine.Engine

// EngineInfo describes an engine (see [engine.Info]).
type EngineInfo = engine.Info

// ErrUnsupported is wrapped by an engine's error for a scenario that needs
// something it does not implement (see [engine.ErrUnsupported]).
var ErrUnsupported = engine.ErrUnsupported

// undeclared wraps ErrUnsupported for a scenario that uses features the
// engine does not declare, naming them; it returns nil for one the engine
// declares everything of. Such a scenario is never put to the engine.
func undeclared(info EngineInfo, s *model.Scenario) error {
	if len(info.Lacks(model.Features)) == 0 {
		return nil // it declares every feature Uses can name: the scenario need not be read
	}
	lacks := info.Lacks(reference.Uses(s))
	if len(lacks) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the scenario uses %s, which the engine does not declare", ErrUnsupported, words.List(lacks))
}

// Reference returns the built-in reference engine, or, if mutant is not
// empty, the reference with that mutant's one deliberate bug (see
// [reference.Mutants]).
func Reference(mutant string) (Engine, error) {
	if mutant != "" {
		if err := reference.CheckMutant(mutant); err != nil {
			return nil, fmt.Errorf("%w; mergecheck selftest lists them", err)
		}
	}
	return refEngine{mutant: mutant}, nil
}

type refEngine struct{ mutant string }

func (e refEngine) Info() EngineInfo {
	name := reference.Name
	if e.mutant != "" {
		name = "mutant:" + e.mutant
	}
	return EngineInfo{Name: name, Version: reference.Version, Features: model.Features, Observers: model.Observers}
}

func (e refEngine) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.answer(reference.RunMutant(s, e.mutant))
}

// runValid is Run of a scenario known to be valid, such as a draw: it is
// not validated again (reference.RunValidMutant).
func (e refEngine) runValid(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.answer(reference.RunValidMutant(s, e.mutant))
}

// answer is the engine's answer from the reference's play: only a
// mutant diverges (see DivergenceOf).
func (e refEngine) answer(t *model.Trace, err error) (*model.Trace, error) {
	return answerOf(t, err, e.mutant != "")
}

// answerOf is an in-process engine's answer from package reference's
// play: a Divergence where the engine may diverge, a refusal as
// ErrUnsupported, anything else as it is.
func answerOf(t *model.Trace, err error, diverges bool) (*model.Trace, error) {
	if d := DivergenceOf(t, err); d != nil && diverges {
		return nil, d
	}
	if errors.Is(err, reference.ErrUnsupported) {
		return t, errors.Join(ErrUnsupported, err)
	}
	return t, err
}

// DivergenceOf turns a mutant's or a lazy engine's failure to play an
// action as scripted (package reference's error, with the steps before
// it) into the Divergence it is: its bug took its game elsewhere (it gave
// a merged permanent a new id, so a later action's permanent is gone),
// and the scenario, which the reference plays, is not at fault. It
// returns nil for any other outcome. For the reference itself such an
// error means the scenario is not playable, which is no divergence.
func DivergenceOf(t *model.Trace, err error) *Divergence {
	var ae *reference.ActionError
	if !errors.As(err, &ae) || ae.Index < 0 || !errors.Is(err, reference.ErrInvalid) || t == nil {
		return nil
	}
	return &Divergence{Action: ae.Index, Reason: ae.Err.Error(), Trace: t}
}

// Lazy returns one of the lazy engines of package reference (see
// reference.Lazies): the reference with its traces cut short, frozen,
// silenced or edited the way a lazy real engine's are. A flaky one draws
// its flakes from seed and the scenario (see reference.Flakes), so that
// a run is the same at any parallelism.
func Lazy(name string, seed uint64) (Engine, error) {
	l := reference.FindLazy(name)
	if l == nil {
		return nil, fmt.Errorf("unknown lazy engine %s; they are: %s", name, reference.LazyNames())
	}
	return &lazyEngine{l: l, flakes: reference.NewFlakes(seed)}, nil
}

type lazyEngine struct {
	l      *reference.Lazy
	flakes *reference.Flakes
}

func (e *lazyEngine) Info() EngineInfo {
	return EngineInfo{Name: "lazy:" + e.l.Name, Version: reference.Version, Features: model.Features, Observers: model.Observers}
}

func (e *lazyEngine) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.answer(e.l.Run(s, e.flakes.For(s)))
}

// fromRules is Run of s given want, the rules' trace of s, which it
// leaves as it is: the lazy engine's edit of a copy.
func (e *lazyEngine) fromRules(ctx context.Context, s *model.Scenario, want *model.Trace) (*model.Trace, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.answer(e.l.Edit(s, cloneTrace(want), e.flakes.For(s)))
}

// answer is the engine's answer from the lazy engine's.
func (e *lazyEngine) answer(t *model.Trace, err error) (*model.Trace, error) {
	return answerOf(t, err, true)
}
