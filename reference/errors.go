package reference

import (
	"errors"
	"fmt"

	"github.com/mergecheck/mergecheck/model"
)

// ErrUnsupported is wrapped by every error that refuses a scenario because
// the rules are silent on it or it is outside the reference's scope.
// Test for it with errors.Is.
var ErrUnsupported = errors.New("unsupported")

// ErrInvalid is wrapped by every error that rejects an action the game
// cannot perform as written, such as one naming an object that is not
// there or a scripted choice that does not fit.
var ErrInvalid = errors.New("not playable as scripted")

// ErrInternal is wrapped by the error Run returns when the reference engine
// itself fails (a bug), with the stack where it did.
var ErrInternal = errors.New("internal error in the reference engine")

// An UnsupportedError names a feature the reference engine refuses, and
// why: the rules leave it undefined, or it is outside mergecheck's scope.
type UnsupportedError struct {
	Feature string // stable, kebab-case name, e.g. "merge-onto-melded-permanent"
	Why     string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("unsupported feature %s: %s", e.Feature, e.Why)
}

// Is makes errors.Is(err, ErrUnsupported) true.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// An ActionError reports the action at which a run stopped.
type ActionError struct {
	Index int // -1 for the start state
	Type  model.ActionType
	// Permanent is the starting permanent the start state is refused for,
	// when it is refused for one.
	Permanent model.ObjectID
	Err       error
}

func (e *ActionError) Error() string {
	if e.Index < 0 && e.Permanent != "" {
		return fmt.Sprintf("start state: permanent %s: %v", e.Permanent, e.Err)
	}
	if e.Index < 0 {
		return fmt.Sprintf("start state: %v", e.Err)
	}
	return fmt.Sprintf("action %d (%s): %v", e.Index, e.Type, e.Err)
}

func (e *ActionError) Unwrap() error { return e.Err }

func unsupported(feature, format string, args ...any) error {
	return &UnsupportedError{Feature: feature, Why: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// An illegalAction is an action the rules forbid (CR 733): the game shows
// it as a step with a not-allowed event and goes on as before.
type illegalAction struct {
	rule model.RuleID
	why  string
}

func (e *illegalAction) Error() string { return fmt.Sprintf("not allowed (CR %s): %s", e.rule, e.why) }

// Is makes errors.Is(err, ErrInvalid) true: where the game can't show the
// action as not allowed (a generator probing it), it can't be played as
// scripted.
func (e *illegalAction) Is(target error) bool { return target == ErrInvalid }

func illegal(rule model.RuleID, format string, args ...any) error {
	return &illegalAction{rule: rule, why: fmt.Sprintf(format, args...)}
}
