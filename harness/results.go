package harness

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mergecheck/mergecheck/model"
)

// A Verdict is the outcome of one property against one engine. Its values
// are also its JSON spelling.
type Verdict string

// The verdicts.
const (
	Held        Verdict = "held"         // every case passed and coverage was met
	Failed      Verdict = "failed"       // a counterexample was found
	Unsupported Verdict = "unsupported"  // the engine lacks a feature the property needs
	Uncovered   Verdict = "uncovered"    // generation did not reach the rule often enough
	Fault       Verdict = "engine-fault" // the engine crashed, hung or answered garbage
	Unchecked   Verdict = "unchecked"    // the rule cannot be checked by observing traces
)

// Results is the outcome of one run.
type Results struct {
	Engine  EngineInfo
	Seed    uint64
	Options Options
	Started time.Time
	Elapsed time.Duration
	Results []Result // in rule order
}

// Result is the outcome of one property.
type Result struct {
	Rule     model.RuleID
	Verdict  Verdict
	Cases    int            // cases run before any failure
	Coverage map[string]int // label -> cases
	Elapsed  time.Duration
	// Why explains an unsupported, uncovered or unchecked verdict.
	Why string
	// Digest identifies the scenarios the cases drew, in order: two runs
	// with the same seed draw the same scenarios and have the same digest.
	Digest string
	// Time splits Elapsed by what it was spent on.
	Time Timing

	Counterexample *Counterexample // set iff Verdict is Failed
	Fault          *EngineFault    // set iff Verdict is Fault
}

// Err returns nil if no property failed or faulted, and otherwise the
// errors.Join of every *Counterexample and *EngineFault.
func (r *Results) Err() error {
	var errs []error
	for _, res := range r.Results {
		switch {
		case res.Counterexample != nil:
			errs = append(errs, res.Counterexample)
		case res.Fault != nil:
			errs = append(errs, res.Fault)
		}
	}
	return errors.Join(errs...)
}

// Count returns how many results have verdict v.
func (r *Results) Count(v Verdict) int {
	n := 0
	for _, res := range r.Results {
		if res.Verdict == v {
			n++
		}
	}
	return n
}

// Timing splits a property's time: drawing scenarios, the engine under
// test, the reference engine (differential properties), the checks, and
// minimising a counterexample after rapid's own shrinking.
type Timing struct {
	Generate, Engine, Reference, Check, Minimize time.Duration
}

// A Counterexample is a minimal scenario on which an engine violates a rule.
type Counterexample struct {
	Rule     model.RuleID
	Problem  string          // from the property's check
	Scenario *model.Scenario // shrunk; replayable with mergecheck replay
	Got      *model.Trace    // the engine's trace
	Want     *model.Trace    // the reference engine's trace of the same scenario
	Seed     uint64
	File     string // corpus file it was saved to, if any
}

// Error returns the rule and the problem on one line.
func (c *Counterexample) Error() string { return fmt.Sprintf("%s: %s", c.Rule, c.Problem) }

// Diff returns the difference between the reference trace and the
// engine's, headed "(-reference +engine)", or "" when there is none.
func (c *Counterexample) Diff() string {
	if c.Want == nil || c.Got == nil {
		return ""
	}
	want, got := *c.Want, *c.Got
	want.Engine, got.Engine = "", ""
	d := cmp.Diff(want, got)
	if d == "" {
		return ""
	}
	return "(-reference +engine):\n" + d
}

// Size describes the scenario's size: components on the battlefield and
// actions.
func (c *Counterexample) Size() (components, actions int) {
	for _, p := range c.Scenario.Start.Battlefield {
		components += len(p.Components)
	}
	return components, len(c.Scenario.Actions)
}

// An EngineFault records a scenario the engine could not play.
type EngineFault struct {
	Rule     model.RuleID
	Scenario *model.Scenario
	Err      error
	Stderr   []string // last lines of an adapter's stderr
}

func (f *EngineFault) Error() string {
	msg := fmt.Sprintf("%s: engine fault: %v", f.Rule, f.Err)
	if len(f.Stderr) > 0 {
		msg += "\n\t" + strings.Join(f.Stderr, "\n\t")
	}
	return msg
}

// Unwrap returns the engine's error.
func (f *EngineFault) Unwrap() error { return f.Err }
