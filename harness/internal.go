package harness

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// An InternalError is mergecheck's own failure while it judged a rule: a
// panic or an error in generation, judging or shrinking. It is a bug of
// the suite, not of the engine, and it is that rule's verdict alone
// (Internal): every other rule keeps its own.
type InternalError struct {
	Rule  model.RuleID
	Msg   string // what broke, in a line
	Stack string // where, for a bug report
	// Scenario is the case the engine failed or faulted on when it was
	// shrinking that broke: the failure, unshrunk, kept for the report
	// and the corpus.
	Scenario *model.Scenario
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("%s: mergecheck broke while judging this rule (a bug of mergecheck's, not of the engine): %s", e.Rule, e.Msg)
}

// internalFrom makes the internal error of rule from a recovered panic
// value and the stack where it was recovered.
func internalFrom(rule model.RuleID, v any, stack []byte) *InternalError {
	msg, more, _ := strings.Cut(fmt.Sprintf("panic: %v", v), "\n")
	if more != "" {
		more += "\n"
	}
	return &InternalError{Rule: rule, Msg: msg, Stack: more + string(stack)}
}

// internalFromLogs makes the internal error of rule from what rapid said
// of a property function that broke: its first line is the message, the
// rest (rapid's traceback) the stack.
func internalFromLogs(rule model.RuleID, logs []string) *InternalError {
	text := strings.TrimSpace(strings.Join(logs, "\n"))
	msg, stack, _ := strings.Cut(text, "\n")
	if msg == "" {
		msg = "the property's search failed without a case going wrong"
	}
	return &InternalError{Rule: rule, Msg: msg, Stack: stack}
}

// internals are the internal errors of a run's rules, the first of each
// rule kept, shared by its judges: a judge that finds another rule's
// check broken says so here, under that rule.
type internals struct {
	mu   sync.Mutex
	errs map[model.RuleID]*InternalError
	// any is set once errs holds one: of is asked for every rule of
	// every case judged, and almost always of none.
	any atomic.Bool
}

// add keeps e as its rule's internal error, unless the rule has one.
func (in *internals) add(e *InternalError) {
	if in == nil {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.errs == nil {
		in.errs = map[model.RuleID]*InternalError{}
	}
	if in.errs[e.Rule] == nil {
		in.errs[e.Rule] = e
		in.any.Store(true)
	}
}

// keep notes on rule's internal error the failing case s, unless it has
// one: the failure found before mergecheck broke is not lost.
func (in *internals) keep(rule model.RuleID, s *model.Scenario) {
	if in == nil || s == nil {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if e := in.errs[rule]; e != nil && e.Scenario == nil {
		kept := *e
		kept.Scenario = s
		in.errs[rule] = &kept
	}
}

// of returns rule's internal error, or nil.
func (in *internals) of(rule model.RuleID) *InternalError {
	if in == nil || !in.any.Load() {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.errs[rule]
}

// guard runs f for j's rule, making a panic in it the rule's internal
// error rather than the end of the run.
func (j *judge) guard(f func()) {
	defer func() {
		if v := recover(); v != nil {
			j.internals.add(internalFrom(j.p.Rule, v, debug.Stack()))
		}
	}()
	f()
}

// broken reports whether j's rule has an internal error.
func (j *judge) broken() bool { return j.internals.of(j.p.Rule) != nil }

// internalResult is the result of a rule that broke.
func internalResult(p *properties.Property, e *InternalError, calls int) Result {
	r := Result{Rule: p.Rule, Internal: e, Calls: calls}
	r.conclude()
	return r
}
