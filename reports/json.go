// Package reports renders harness results: a versioned JSON document (the
// stable contract), JUnit XML for CI systems, a self-contained HTML report
// and a Markdown summary for pull requests. Every writer is a pure function
// of its input.
package reports

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

// SchemaVersion identifies the JSON results format; ReadJSON rejects any
// other. docs/REPORTS.md describes it and results.schema.json is its JSON
// Schema.
const SchemaVersion = "mergecheck.results/v1"

//go:embed results.schema.json
var Schema []byte

// Document is the JSON form of a run. Its fields are the stable contract;
// the harness's own types may change.
type Document struct {
	Schema   string             `json:"schema"`
	Engine   harness.EngineInfo `json:"engine"`
	Seed     uint64             `json:"seed"`
	Options  Options            `json:"options"`
	Started  time.Time          `json:"started"`
	Elapsed  float64            `json:"elapsed_seconds"`
	Summary  map[string]int     `json:"summary"` // verdict -> rules
	Results  []Rule             `json:"results"`
	Corpus   []CorpusEntry      `json:"corpus,omitempty"`
	Baseline *BaselineReport    `json:"baseline,omitempty"`
	// Interrupted marks a run stopped before its end (by a signal), and
	// MissingShards the shards a partial merge went without.
	Interrupted   bool     `json:"interrupted,omitempty"`
	MissingShards []string `json:"missing_shards,omitempty"`
	// Suite names the suite and its build, "mergecheck 0.2.0 (commit
	// 1a2b3c4d5e6f)", and Mergecheck says the build in parts: its
	// release, and the commit it was built from.
	Suite      string         `json:"suite,omitempty"`
	Mergecheck *harness.Build `json:"mergecheck,omitempty"`
	// Unexplained are the engine's departures from the rules' traces
	// that no rule's check names: findings that fail no rule.
	Unexplained []Unexplained `json:"unexplained,omitempty"`
}

// Unexplained is one aspect of the trace in which the engine departed
// from the rules where no rule's check looks: how many cases of each
// rule showed it, and the first of them, shrunk.
type Unexplained struct {
	Aspect         string               `json:"aspect"`
	Cases          map[model.RuleID]int `json:"cases"`
	DrawnFor       model.RuleID         `json:"drawn_for"`
	Counterexample *Counterexample      `json:"counterexample"`
}

// Options are the run's settings as the document records them.
type Options struct {
	Checks            int     `json:"checks"`
	TimeoutSeconds    float64 `json:"timeout_seconds"`
	BudgetSeconds     float64 `json:"budget_seconds,omitempty"`
	BudgetCalls       int     `json:"budget_calls,omitempty"`
	ShrinkTimeSeconds float64 `json:"shrink_time_seconds"`
	Shard             string  `json:"shard,omitempty"` // "I/N"
}

// Rule is one property's outcome.
type Rule struct {
	Rule     model.RuleID    `json:"rule"`
	Summary  string          `json:"summary"`
	Verdict  harness.Verdict `json:"verdict"`
	Cases    int             `json:"cases"`
	Coverage map[string]int  `json:"coverage,omitempty"`
	Seconds  float64         `json:"seconds"`
	Why      string          `json:"why,omitempty"`
	Digest   string          `json:"digest,omitempty"`
	// Calls counts the scenarios put to the engine for the rule:
	// replaying the corpus, searching and shrinking.
	Calls int `json:"calls,omitempty"`
	// FailedAtCall is the rule's engine call that first failed it.
	FailedAtCall int `json:"failed_at_call,omitempty"`
	// ShrunkAtCall is the rule's engine call that finished shrinking
	// that failure.
	ShrunkAtCall int `json:"shrunk_at_call,omitempty"`
	// Reached counts the cases drawn for other rules that reached this
	// rule and kept it (not among Cases).
	Reached int `json:"reached,omitempty"`
	// SetAside are the coverage labels not asked of this engine, with
	// why: no scenario drawn with its features reaches them.
	SetAside map[string]string `json:"set_aside,omitempty"`
	// Shares are the coverage shares asked of this engine below the
	// property's own, measured on the draws its features allow.
	Shares map[string]float64 `json:"shares,omitempty"`
	// RefusedLabels counts, by coverage label, the scenarios the engine
	// refused that reach it; a label short of its share for want of them
	// is set aside.
	RefusedLabels map[string]int `json:"refused_labels,omitempty"`
	// Lead names the rule whose case first showed this rule's failure,
	// when it is another's, and that rule's call that played it.
	Lead *harness.Lead `json:"lead,omitempty"`
	// FromLead marks a failure found in that rule's case, this rule's
	// own cases having held.
	FromLead bool `json:"from_lead,omitempty"`
	// Outside marks a rule the run was not asked to check (--rules, a
	// shard) that failed on a case of a rule it checked: its check named
	// the way that case departed from the rules.
	Outside bool `json:"outside,omitempty"`
	// BlockedBy names, on a blocked rule, the rule whose finding took
	// most of its cases (none for an unexplained departure).
	BlockedBy model.RuleID `json:"blocked_by,omitempty"`
	// LostTo names, on an uncovered rule, the rule whose check took most
	// of its cases when that rule failed in no shard of this run: merge
	// blocks it if it failed in another (harness.BlockAcross).
	LostTo model.RuleID `json:"lost_to,omitempty"`
	// Excluded counts the cases another rule's check took (see
	// harness.Result), ExcludedBy which rule took how many; Departed
	// those that departed where no rule's check looks.
	Excluded   int                  `json:"excluded,omitempty"`
	ExcludedBy map[model.RuleID]int `json:"excluded_by,omitempty"`
	Departed   int                  `json:"departed,omitempty"`
	// Refused counts the scenarios the engine refused, with the commonest
	// reasons.
	Refused        int               `json:"refused,omitempty"`
	Refusals       []harness.Refusal `json:"refusals,omitempty"`
	Counterexample *Counterexample   `json:"counterexample,omitempty"`
	// Others are further counterexamples of other classes of problem.
	Others []Counterexample `json:"others,omitempty"`
	Fault  *Fault           `json:"fault,omitempty"`
	// Internal is what broke in mergecheck itself, on a rule whose
	// verdict is internal-error: the message and where (a stack).
	Internal *Internal `json:"internal,omitempty"`
	// Expected marks a failure the baseline expects.
	Expected bool `json:"expected,omitempty"`
}

// Counterexample is a failure's minimal scenario and both traces.
type Counterexample struct {
	Problem string `json:"problem"`
	// Class names the kind of problem; Found the rule whose check found
	// it, when not the result's own (400.1 for a malformed trace).
	Class        string          `json:"class,omitempty"`
	Found        model.RuleID    `json:"found,omitempty"`
	Intermittent bool            `json:"intermittent,omitempty"`
	Scenario     *model.Scenario `json:"scenario"`
	Engine       *model.Trace    `json:"engine_trace"`
	Reference    *model.Trace    `json:"reference_trace,omitempty"`
	File         string          `json:"file,omitempty"`
	// ShrinkErrors are the engine's refusals and faults met while it was
	// shrunk, the commonest three with their counts.
	ShrinkErrors []harness.Refusal `json:"shrink_errors,omitempty"`
}

// Internal is mergecheck's own failure while it judged a rule.
type Internal struct {
	Error string `json:"error"`
	Stack string `json:"stack,omitempty"`
	// Scenario is the case the engine failed when shrinking it broke,
	// unshrunk.
	Scenario *model.Scenario `json:"scenario,omitempty"`
}

// Fault is a scenario the engine could not play.
type Fault struct {
	Error        string          `json:"error"`
	Class        string          `json:"class,omitempty"`
	Intermittent bool            `json:"intermittent,omitempty"`
	Scenario     *model.Scenario `json:"scenario,omitempty"` // none when the engine broke before any scenario
	Stderr       []string        `json:"stderr,omitempty"`
}

// CorpusEntry reports one corpus file replayed before generation.
type CorpusEntry struct {
	File    string       `json:"file"`
	Rule    model.RuleID `json:"rule,omitempty"`
	Outcome string       `json:"outcome"` // "held", "failed", "fault", "unreadable", "skipped", "departed"
	Detail  string       `json:"detail,omitempty"`
}

// BaselineReport says how the run compares with a baseline of expected failures.
type BaselineReport struct {
	File     string         `json:"file"`
	Expected []model.RuleID `json:"expected_failures,omitempty"` // failed, as expected
	Fixed    []model.RuleID `json:"now_holding,omitempty"`       // expected to fail, but held
	Expired  []model.RuleID `json:"expired,omitempty"`           // entries past their date
	New      []model.RuleID `json:"new_failures,omitempty"`      // failed, not expected
}

// FromResults builds the document of a run.
func FromResults(r *harness.Results) *Document {
	d := &Document{
		Schema: SchemaVersion, Engine: r.Engine, Seed: r.Seed, Started: r.Started, Elapsed: r.Elapsed.Seconds(),
		Options: Options{Checks: r.Options.Checks, TimeoutSeconds: r.Options.Timeout.Seconds(),
			BudgetSeconds: r.Options.Budget.Seconds(), BudgetCalls: r.Options.BudgetCalls, ShrinkTimeSeconds: r.Options.ShrinkTime.Seconds()},
		Summary: map[string]int{}, Interrupted: r.Interrupted, MissingShards: r.MissingShards, Suite: r.Suite,
	}
	if r.Build != (harness.Build{}) {
		b := r.Build
		d.Mergecheck = &b
	}
	if d.Engine.Features == nil {
		d.Engine.Features = []model.Feature{}
	}
	if d.Engine.Observers == nil {
		// nil means every observer; the report says which.
		d.Engine.Observers = slices.Clone(model.Observers)
	}
	if r.Options.Shard.Count > 1 {
		d.Options.Shard = r.Options.Shard.String()
	}
	for _, res := range r.Results {
		d.Summary[string(res.Verdict)]++
		rr := Rule{Rule: res.Rule, Summary: rules.Summary(res.Rule), Verdict: res.Verdict, Cases: res.Cases,
			Coverage: res.Coverage, Seconds: res.Elapsed.Seconds(), Why: res.Why, Digest: res.Digest, Expected: res.Expected,
			Excluded: res.Excluded, ExcludedBy: res.ExcludedBy, Refused: res.Refused, Refusals: res.Refusals, Calls: res.Calls, FailedAtCall: res.FailedAtCall, ShrunkAtCall: res.ShrunkAtCall, Reached: res.Reached, Lead: res.Lead, SetAside: res.SetAside, Shares: res.Shares, RefusedLabels: res.RefusedLabels,
			FromLead: res.FromLead, Outside: res.Outside, BlockedBy: res.BlockedBy, LostTo: res.LostTo, Departed: res.Departed}
		if ce := res.Counterexample; ce != nil {
			rr.Counterexample = toCounterexample(ce)
		}
		for i := range res.Others {
			rr.Others = append(rr.Others, *toCounterexample(&res.Others[i]))
		}
		if f := res.Fault; f != nil {
			msg := "no error recorded"
			if f.Err != nil {
				msg = f.Err.Error()
			}
			rr.Fault = &Fault{Error: msg, Class: f.Class, Intermittent: f.Intermittent, Scenario: f.Scenario, Stderr: f.Stderr}
		}
		if ie := res.Internal; ie != nil {
			rr.Internal = &Internal{Error: ie.Msg, Stack: ie.Stack, Scenario: ie.Scenario}
		}
		d.Results = append(d.Results, rr)
	}
	for _, c := range r.Corpus {
		d.Corpus = append(d.Corpus, CorpusEntry{File: c.File, Rule: c.Rule, Outcome: c.Outcome, Detail: c.Detail})
	}
	for _, u := range r.Unexplained {
		d.Unexplained = append(d.Unexplained, Unexplained{Aspect: u.Aspect, Cases: u.Cases, DrawnFor: u.Counterexample.Rule, Counterexample: toCounterexample(u.Counterexample)})
	}
	return d
}

// Results turns a document back into harness results, for re-rendering
// and merging.
func (d *Document) ToResults() *harness.Results {
	r := &harness.Results{Engine: d.Engine, Seed: d.Seed, Started: d.Started, Elapsed: seconds(d.Elapsed),
		Options: harness.Options{Checks: d.Options.Checks, Seed: d.Seed, Timeout: seconds(d.Options.TimeoutSeconds),
			Budget: seconds(d.Options.BudgetSeconds), BudgetCalls: d.Options.BudgetCalls, ShrinkTime: seconds(d.Options.ShrinkTimeSeconds)},
		Interrupted: d.Interrupted, MissingShards: d.MissingShards, Suite: d.Suite}
	if d.Mergecheck != nil {
		r.Build = *d.Mergecheck
	}
	if d.Options.Shard != "" {
		r.Options.Shard, _ = harness.ParseShard(d.Options.Shard)
	}
	for _, rr := range d.Results {
		res := harness.Result{Rule: rr.Rule, Verdict: rr.Verdict, Cases: rr.Cases, Coverage: rr.Coverage,
			Elapsed: seconds(rr.Seconds), Why: rr.Why, Digest: rr.Digest, Expected: rr.Expected,
			Excluded: rr.Excluded, ExcludedBy: rr.ExcludedBy, Refused: rr.Refused, Refusals: rr.Refusals, Calls: rr.Calls, FailedAtCall: rr.FailedAtCall, ShrunkAtCall: rr.ShrunkAtCall, Reached: rr.Reached, Lead: rr.Lead, SetAside: rr.SetAside, Shares: rr.Shares, RefusedLabels: rr.RefusedLabels,
			FromLead: rr.FromLead, Outside: rr.Outside, BlockedBy: rr.BlockedBy, LostTo: rr.LostTo, Departed: rr.Departed}
		if ce := rr.Counterexample; ce != nil {
			res.Counterexample = fromCounterexample(rr.Rule, d.Seed, ce)
		}
		for i := range rr.Others {
			res.Others = append(res.Others, *fromCounterexample(rr.Rule, d.Seed, &rr.Others[i]))
		}
		if f := rr.Fault; f != nil {
			res.Fault = &harness.EngineFault{Rule: rr.Rule, Scenario: f.Scenario, Err: errors.New(f.Error), Class: f.Class, Intermittent: f.Intermittent, Stderr: f.Stderr}
		}
		if ie := rr.Internal; ie != nil {
			res.Internal = &harness.InternalError{Rule: rr.Rule, Msg: ie.Error, Stack: ie.Stack, Scenario: ie.Scenario}
		}
		r.Results = append(r.Results, res)
	}
	for _, c := range d.Corpus {
		r.Corpus = append(r.Corpus, harness.CorpusReplay{File: c.File, Rule: c.Rule, Outcome: c.Outcome, Detail: c.Detail})
	}
	for _, u := range d.Unexplained {
		r.Unexplained = append(r.Unexplained, harness.Unexplained{Aspect: u.Aspect, Cases: u.Cases, Counterexample: fromCounterexample(u.DrawnFor, d.Seed, u.Counterexample)})
	}
	return r
}

func toCounterexample(ce *harness.Counterexample) *Counterexample {
	return &Counterexample{Problem: ce.Problem, Class: ce.Class, Found: ce.Found, Intermittent: ce.Intermittent,
		Scenario: ce.Scenario, Engine: ce.Got, Reference: ce.Want, File: ce.File, ShrinkErrors: ce.ShrinkErrors}
}

func fromCounterexample(rule model.RuleID, seed uint64, ce *Counterexample) *harness.Counterexample {
	return &harness.Counterexample{Rule: rule, Problem: ce.Problem, Class: ce.Class, Found: ce.Found, Intermittent: ce.Intermittent,
		Scenario: ce.Scenario, Got: ce.Engine, Want: ce.Reference, Seed: seed, File: ce.File, ShrinkErrors: ce.ShrinkErrors}
}

// seconds turns a document's seconds back into a duration, rounding to the
// nanosecond so that a written duration reads back exactly.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// WriteJSON writes the run as a versioned JSON document.
func WriteJSON(w io.Writer, r *harness.Results) error {
	return WriteDocument(w, FromResults(r))
}

// WriteDocument writes a document as indented JSON.
func WriteDocument(w io.Writer, d *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// ReadJSON reads a document written by WriteJSON. It rejects another
// schema version and unknown fields, saying where.
func ReadJSON(rd io.Reader) (*Document, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	var probe struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		// The strict decoder says where the JSON breaks.
		if at := model.Unmarshal(data, &Document{}); at != nil {
			err = at
		}
		return nil, fmt.Errorf("results: not a JSON document: %w", err)
	}
	if probe.Schema != SchemaVersion {
		return nil, fmt.Errorf("results: schema is %q, want %q", probe.Schema, SchemaVersion)
	}
	var d Document
	if err := model.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	if err := d.validate(data); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return &d, nil
}

// verdicts are the verdicts a results document may hold.
var verdicts = []harness.Verdict{harness.Held, harness.Failed, harness.Unsupported, harness.Uncovered,
	harness.Fault, harness.Unchecked, harness.Interrupted, harness.Blocked, harness.Internal}

// validate checks what decoding can't: that every value means something
// and the parts agree. An error says where, as a line and column of data.
func (d *Document) validate(data []byte) error {
	fail := fmt.Errorf
	at := func(path ...any) string { return where(data, path...) }
	if d.Options.Checks < 1 {
		return fail("%soptions.checks %d: a run checks at least one case per rule", at("options", "checks"), d.Options.Checks)
	}
	if len(d.Results) == 0 {
		return fail("%sresults is empty: a run, or a shard of one, checks at least one rule", at("results"))
	}
	if d.Options.Shard != "" {
		if _, err := harness.ParseShard(d.Options.Shard); err != nil {
			return fail("%soptions.shard: %v", at("options", "shard"), err)
		}
	}
	for field, v := range map[string]float64{"timeout_seconds": d.Options.TimeoutSeconds, "budget_seconds": d.Options.BudgetSeconds,
		"shrink_time_seconds": d.Options.ShrinkTimeSeconds, "budget_calls": float64(d.Options.BudgetCalls)} {
		if v < 0 {
			return fail("%soptions.%s %g: must not be negative", at("options", field), field, v)
		}
	}
	for i, s := range d.MissingShards {
		if _, err := harness.ParseShard(s); err != nil {
			return fail("%smissing_shards[%d]: %v", at("missing_shards", i), i, err)
		}
	}
	seen := map[model.RuleID]int{}
	count := map[string]int{}
	for i, r := range d.Results {
		where := func(field string) string {
			return at("results", i, field) + fmt.Sprintf("results[%d] (%s).%s", i, r.Rule, field)
		}
		if _, ok := rules.Lookup(r.Rule); !ok {
			return fail("%s: %q is not a rule mergecheck checks", where("rule"), r.Rule)
		}
		if j, dup := seen[r.Rule]; dup {
			return fail("%s: rule %s is reported twice, in results[%d] and results[%d]", where("rule"), r.Rule, j, i)
		}
		seen[r.Rule] = i
		if !slices.Contains(verdicts, r.Verdict) {
			return fail("%s: %q is not a verdict (want one of %v)", where("verdict"), r.Verdict, verdicts)
		}
		count[string(r.Verdict)]++
		for field, n := range map[string]int{"cases": r.Cases, "excluded": r.Excluded, "refused": r.Refused, "calls": r.Calls, "failed_at_call": r.FailedAtCall, "shrunk_at_call": r.ShrunkAtCall, "reached": r.Reached, "departed": r.Departed} {
			if n < 0 {
				return fail("%s: %d is negative", where(field), n)
			}
		}
		if r.Seconds < 0 {
			return fail("%s: %g is negative", where("seconds"), r.Seconds)
		}
		if l := r.Lead; l != nil {
			if _, ok := rules.Lookup(l.Rule); !ok || l.Call < 0 {
				return fail("%s: rule %q, call %d: want a rule mergecheck checks and a call not negative", where("lead"), l.Rule, l.Call)
			}
		}
		if (r.Verdict == harness.Failed) != (r.Counterexample != nil) {
			return fail("%s: a failed rule, and only a failed rule, carries a counterexample", where("verdict"))
		}
		if (r.Verdict == harness.Fault) != (r.Fault != nil) {
			return fail("%s: an engine fault, and only an engine fault, carries a fault", where("verdict"))
		}
		if (r.Verdict == harness.Internal) != (r.Internal != nil) {
			return fail("%s: an internal error, and only an internal error, carries what broke", where("verdict"))
		}
		if r.BlockedBy != "" && r.Verdict != harness.Blocked {
			return fail("%s: only a blocked rule names the finding that blocked it", where("blocked_by"))
		}
		if r.LostTo != "" && r.Verdict != harness.Uncovered {
			return fail("%s: only an uncovered rule names the rule its cases were lost to", where("lost_to"))
		}
	}
	if !maps.Equal(count, d.Summary) {
		return fail("%ssummary says %s, but the results hold %s", at("summary"), countsInWords(d.Summary), countsInWords(count))
	}
	return nil
}

// countsInWords says counts by verdict in words, in the order of
// verdicts: "2 held, 1 failed"; "nothing" for none.
func countsInWords(n map[string]int) string {
	var parts []string
	for _, v := range verdicts {
		if c := n[string(v)]; c != 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, v))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n)) {
		if !slices.Contains(verdicts, harness.Verdict(k)) && n[k] != 0 {
			parts = append(parts, fmt.Sprintf("%d %q", n[k], k))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}
