package harness

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
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
	Interrupted Verdict = "interrupted"  // the run was stopped (a signal) before the rule's cases were done
	// Blocked: most of the rule's cases were lost to another finding of
	// the run (Result.BlockedBy), so it was judged on too few to hold;
	// never held, never failed. Fix that finding first.
	Blocked Verdict = "blocked"
	// Internal: mergecheck itself broke while it judged the rule (a panic
	// or an error in generation, judging or shrinking; Result.Internal):
	// a bug of the suite's to report, never held, and the run exits 2.
	Internal Verdict = "internal-error"
)

// Results is the outcome of one run.
type Results struct {
	Engine  EngineInfo
	Seed    uint64
	Options Options
	Started time.Time
	Elapsed time.Duration
	Results []Result // in rule order
	// Corpus reports the corpus files replayed before generation.
	Corpus []CorpusReplay
	// Interrupted is set when the run was stopped before its end (by a
	// signal): its rules not done are Interrupted, never held.
	Interrupted bool
	// Suite names the suite that ran ("mergecheck 0.2.0 (commit
	// 1a2b3c4d5e6f)"), when the caller says: results of two suites may
	// differ by the suite alone. Build says the same in parts.
	Suite string
	Build Build
	// MissingShards names the shards ("3/3") a merge went without, when
	// it was allowed to: the rules they hold are not in Results.
	MissingShards []string
	// Unexplained are the ways the engine's traces departed from the
	// rules' where no rule's check looks: each a finding that fails no
	// rule, and each a rule mergecheck lacks a property for or a check
	// too narrow.
	Unexplained []Unexplained
}

// An Unexplained departure is one way in which the engine's traces
// departed from the rules' where no rule's check looks (an aspect of the
// trace such as a permanent's status, the parts that differ, the role of
// the object and the kind of action: its signature), with the cases of
// each rule that showed it, and a counterexample shrunk from the first
// such case, keeping that signature. The counterexample's Rule is the
// rule whose case it was drawn for, which it does not fail.
type Unexplained struct {
	Aspect         string
	Cases          map[model.RuleID]int
	Counterexample *Counterexample
	// key is the departures' key in the judges that showed them
	// (departureKey), for the run to find their first cases by.
	key string
}

func (u *Unexplained) Error() string {
	return fmt.Sprintf("unexplained departure (%s), in a case drawn for %s: %s", u.Aspect, u.Counterexample.Rule, u.Counterexample.Problem)
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
	// Calls counts the scenarios put to the engine for this rule:
	// replaying the corpus, searching and shrinking.
	Calls int
	// FailedAtCall is the rule's engine call that first failed it (1 for
	// the first scenario put to the engine for the rule), 0 if none did.
	FailedAtCall int
	// ShrunkAtCall is the rule's engine call that finished shrinking that
	// first failure (its last replay included): ShrunkAtCall less
	// FailedAtCall is what shrinking it cost; the calls after it looked
	// for other failures of the rule.
	ShrunkAtCall int
	// Lead names, on a failed rule, the first other rule whose case
	// showed a failure of it. When the rule's own cases held, that case,
	// played again as this rule's, is its counterexample (FromLead).
	Lead     *Lead
	FromLead bool
	// Outside marks a rule the run was not asked to check (--rules, a
	// shard) whose check named the way a case of a rule it checked
	// departed from the rules': failed on that case, which is its
	// finding wherever it was drawn.
	Outside bool
	// BlockedBy names, on a blocked rule, the rule whose finding took
	// most of its cases; empty when an unexplained departure did.
	BlockedBy model.RuleID
	// LostTo names, on an uncovered rule judged on too few of its cases,
	// the rule whose check took most of them when that rule did not fail
	// in this run (it is in another shard, say): merged with the run where
	// it failed, the rule is blocked by it (BlockAcross).
	LostTo model.RuleID
	// Reached counts the cases drawn for other rules that reached this
	// rule's situation (its Classify labels them) and kept it: judged on
	// this rule too, at no engine call of its own. They are not among
	// Cases, and no verdict or coverage rests on them.
	Reached int
	// SetAside are the coverage labels not asked of this engine, each
	// with why: no scenario drawn with the features it declares reaches
	// them (see "Partial engines" in docs/REPORTS.md).
	SetAside map[string]string
	// Shares are the coverage shares asked of this engine where they are
	// below the property's own: measured, for each label, on the draws
	// the features it declares allow (see "Partial engines" in
	// docs/REPORTS.md). A label not here is asked the property's share.
	Shares map[string]float64

	// Excluded counts the cases in which the engine's trace departed from
	// the rules' in a way another rule's check names: those cases are
	// that rule's findings, not cases of this one. ExcludedBy says which.
	// A rule judged on fewer cases than it excluded is uncovered.
	Excluded   int
	ExcludedBy map[model.RuleID]int
	// Departed counts the cases whose trace departed from the rules'
	// where no rule's check looks: unexplained departures (see
	// Results.Unexplained), not cases of this rule either.
	Departed int
	// lost counts the coverage labels of the excluded and departed cases,
	// and lostCover is set when those cases alone kept a label short of
	// its share: the rule is then not judged, rather than uncovered.
	lost      map[string]int
	lostCover bool
	// basis is what the verdict rests on besides the counts (verdictOf).
	basis basis
	// Refused counts the scenarios the engine refused as unsupported, and
	// Refusals gives the three commonest reasons it gave.
	Refused  int
	Refusals []Refusal
	// RefusedLabels counts, by coverage label, the scenarios the engine
	// refused that have it: the situations it refuses by name. A label
	// short of its share for want of them is not asked of the engine
	// (SetAside says so, with the count).
	RefusedLabels map[string]int

	Counterexample *Counterexample // set iff Verdict is Failed
	// Others are further counterexamples of the rule, each of another
	// class of problem than the first and than each other (at most two),
	// so a second bug under one rule is not hidden behind the first.
	Others []Counterexample
	Fault  *EngineFault // set iff Verdict is Fault
	// Internal is what broke, set iff Verdict is Internal.
	Internal *InternalError
	// Expected is set on a failure that a baseline of known
	// nonconformance expects (see package reports).
	Expected bool
}

// A Lead names the rule whose case showed another rule's failure, and
// that rule's engine call that played it.
type Lead struct {
	Rule model.RuleID `json:"rule"`
	Call int          `json:"call"`
}

// A Refusal is one reason an engine gave for refusing scenarios, with how
// many it refused for it.
type Refusal struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
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
	for i := range r.Unexplained {
		errs = append(errs, &r.Unexplained[i])
	}
	return errors.Join(errs...)
}

// Calls returns how many scenarios the run put to the engine.
func (r *Results) Calls() int {
	n := 0
	for _, res := range r.Results {
		n += res.Calls
	}
	return n
}

// Judged returns how many cases the rules were judged on, their own
// and those drawn for other rules that reached them (Result.Reached):
// over Calls, what one engine call is worth.
func (r *Results) Judged() int {
	n := 0
	for _, res := range r.Results {
		n += res.Cases + res.Reached
	}
	return n
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

// Timing splits a property's time into the parts a run can't do without:
// drawing its scenarios, the engine under test playing them, the
// reference engine playing them for the rules' traces, and the checks (of
// the rule and of the other rules a case reaches); and minimising a
// counterexample after rapid's own shrinking. What explore spent on the
// rule counts with it. What a run spends beyond these is overhead
// (BenchmarkRun reports the ratio).
type Timing struct {
	Generate  time.Duration
	Engine    time.Duration
	Reference time.Duration
	Check     time.Duration
	Minimize  time.Duration
}

// add adds u's parts to t's.
func (t *Timing) add(u Timing) {
	t.Generate += u.Generate
	t.Engine += u.Engine
	t.Reference += u.Reference
	t.Check += u.Check
	t.Minimize += u.Minimize
}

// A Counterexample is a minimal scenario on which an engine violates a rule.
type Counterexample struct {
	Rule    model.RuleID
	Problem string // from the property's check
	// Class names the kind of problem whatever its objects and numbers;
	// shrinking keeps it, and a rule reports one counterexample a class.
	Class string
	// Found names the rule whose check found the problem when it is not
	// Rule's own: 400.1 for a trace that breaks the format's accounting
	// of objects.
	Found    model.RuleID
	Scenario *model.Scenario // shrunk; replayable with mergecheck replay
	Got      *model.Trace    // the engine's trace
	Want     *model.Trace    // the reference engine's trace of the same scenario
	Seed     uint64
	File     string // corpus file it was saved to, if any
	// Intermittent is set when the engine did not fail again when the
	// scenario was played once more: the failure is real (Got is the
	// trace it gave), but it does not reproduce every time.
	Intermittent bool
	// ShrinkErrors are the engine's refusals and faults met while this
	// counterexample was shrunk, the three commonest with their counts:
	// scenarios the shrinker tried that the engine would not play, which
	// may have kept it from shrinking further.
	ShrinkErrors []Refusal
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

// size is the counterexample's components and actions together.
func (c *Counterexample) size() int { n, m := c.Size(); return n + m }

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
	Class    string   // the kind of fault, which shrinking keeps
	Stderr   []string // last lines of an adapter's stderr
	// Intermittent is set when the fault did not recur when the scenario
	// was played again; Err is the error it gave the first time.
	Intermittent bool
}

// message is the fault's error, or a word that there is none (which a
// fault built outside the harness may lack).
func (f *EngineFault) message() string {
	if f.Err == nil {
		return "no error recorded"
	}
	return f.Err.Error()
}

func (f *EngineFault) Error() string {
	what := "engine fault"
	if f.Intermittent {
		what = "intermittent engine fault (it did not recur when the scenario was played again)"
	}
	msg := fmt.Sprintf("%s: %s: %s", f.Rule, what, f.message())
	if len(f.Stderr) > 0 {
		msg += "\n\t" + strings.Join(f.Stderr, "\n\t")
	}
	return msg
}

// Unwrap returns the engine's error.
func (f *EngineFault) Unwrap() error { return f.Err }

// Departure says in a line where the engine's trace first departs from
// the rules' trace ("" when it follows it or can't be read): the short
// form of Diff, for a terminal. It speaks only of what the engine, as e
// describes it, reports: its observers' triggers, and events other than
// triggers only when its traces are not partial.
func (c *Counterexample) Departure(e EngineInfo) string {
	if _, d, ok := c.Bug(e); ok {
		return d.Error()
	}
	return ""
}

// Bug returns the bug the counterexample shows (properties.BugOf): where
// the engine's trace first departs from the rules', as e reports it. ok
// is false when the traces agree or can't be read.
func (c *Counterexample) Bug(e EngineInfo) (b properties.Bug, d *properties.Problem, ok bool) {
	if c.Got == nil || c.Want == nil || c.Scenario == nil {
		return b, nil, false
	}
	defer func() {
		if recover() != nil {
			b, d, ok = properties.Bug{}, nil, false // a trace cut short, or too malformed to compare
		}
	}()
	got, err := inScenarioTerms(c.Scenario, c.Got, c.Want)
	if err != nil || len(got.Steps) != len(c.Want.Steps) {
		return b, nil, false
	}
	return properties.BugOf(&properties.Case{Scenario: c.Scenario, Trace: got, Reference: properties.Settle(c.Want, got), Partial: e.PartialTraces, Observers: e.Observers})
}

// Signature says what is wrong in the counterexample, whichever rule's
// case showed it (properties.SignatureOf): its class of problem without
// the rule, the kind of action the problem follows, and where the
// engine's trace first departs from the rules' as e reports it (none
// where the traces agree or can't be read). Failures with one signature
// are one finding of the reports.
func (c *Counterexample) Signature(e EngineInfo) properties.Signature {
	_, class, ok := strings.Cut(c.Class, ": ")
	if !ok {
		class = c.Class
	}
	if strings.HasPrefix(class, unexplainedPrefix) {
		class = properties.Unexplained // the departure's parts say the rest
	}
	_, d, _ := c.Bug(e)
	return properties.SignatureOf(class, c.Problem, d, c.Want)
}

// A Build identifies the mergecheck that judged a run: its release, and
// the commit it was built from (from the Go build's version-control
// information), with whether its tree had changes, or the module version
// it was installed as. Empty parts are unknown.
type Build struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Module   string `json:"module,omitempty"`
}

// String is the build in words: "0.2.0 (commit 1a2b3c4d5e6f, modified)",
// "0.2.0 (module v0.2.0)", or "0.2.0 (commit unknown)".
func (b Build) String() string {
	switch {
	case b.Commit != "":
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if b.Modified {
			c += ", modified"
		}
		return b.Version + " (commit " + c + ")"
	case b.Module != "":
		return b.Version + " (module " + b.Module + ")"
	}
	return b.Version + " (commit unknown)"
}
