package harness

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// A Divergence is an engine's answer that it could not play an action as
// scripted (see [engine.Divergence]).
type Divergence = engine.Divergence

// Kinds of bad outcome, which shrinking keeps.
const (
	kindProblem = "problem" // a check failed, or the engine diverged
	kindFault   = "fault"   // the engine crashed, hung or answered garbage
)

// outcome is what one scenario did on the engine under test.
type outcome struct {
	problem error  // the complaint, if any
	class   string // the problem's or fault's class, for shrinking
	// sigKey is a problem's shrinkKey: shrinking keeps it, and the
	// search for a rule's other failures looks for others.
	sigKey  string
	found   model.RuleID // the rule whose check found the problem, when not the case's own
	fault   error        // the engine's failure, if any
	refused error        // the engine's (or the harness's) "unsupported" for this scenario
	// refusedLabels are the coverage labels of a scenario the engine
	// itself refused, from the rules' trace: the situations it refuses.
	refusedLabels []string
	// excluded names the rule whose check reports the way the engine's
	// trace departed from the rules' in this case: the case is that
	// rule's finding, not a case of this one.
	excluded model.RuleID
	// departed is the way the engine's trace departed from the rules'
	// when no rule's check names it: an unexplained departure, neither a
	// case of this rule nor a failure of it (see Results.Unexplained).
	departed error
	got      *model.Trace // the engine's trace (the steps it played, on a divergence)
	want     *model.Trace // the reference's trace
	diverged *Divergence
	// stopped is set when the run was interrupted or ran out of time
	// while the engine played: neither a case nor a fault.
	stopped bool
	// broken is set when the rule's own check broke on the case (the
	// rule's internal error): nothing can be said of it.
	broken bool
	// played is the scenario the engine was given, when the harness had
	// to rewrite it (EngineInfo.NoDirectSetup).
	played *model.Scenario
	key    string // the hash of the scenario played
	call   int    // the rule's engine call that played it, 0 if none did
}

func (o outcome) bad() bool { return o.problem != nil || o.fault != nil }

func (o outcome) kind() string {
	switch {
	case o.problem != nil:
		return kindProblem
	case o.fault != nil:
		return kindFault
	}
	return ""
}

// same reports whether o is the same failure as p: the same kind, the
// same class and, for a problem, after the same kind of action.
func (o outcome) same(p outcome) bool { return o.bad() && o.kind() == p.kind() && o.sig() == p.sig() }

// sig is what same compares: the kind and class of the failure and, for a
// problem, the kind of action it shows after (shrinkKey), so that two
// bugs one check finds after different actions are shrunk and reported
// apart.
func (o outcome) sig() string {
	if o.problem == nil || o.sigKey == "" {
		return o.kind() + " " + o.class
	}
	return o.kind() + " " + o.sigKey
}

// err is the outcome's problem or fault.
func (o outcome) err() error {
	if o.problem != nil {
		return o.problem
	}
	return o.fault
}

// judge plays scenarios on e (and on the reference) and judges them by p,
// for one rule of a run. Its state is in four parts: the engine calls it
// may make, what it keeps while a failure shrinks, what explore did for
// it, and the leads and departures its cases showed for other rules.
type judge struct {
	ctx  context.Context
	e    Engine
	p    *properties.Property
	o    Options
	info EngineInfo
	time *Timing
	// explain are the other properties that may name a departure of the
	// engine's trace from the rules': every property the engine can be
	// judged on.
	explain []*properties.Property
	// judged400 is set when the run judges 400.1, the trace's own
	// accounting: a case whose trace breaks it is then 400.1's finding,
	// and otherwise a failure of the case's rule found by 400.1's check.
	judged400 bool
	// judgingKey is judging's answer, once worked out.
	judgingKey string
	// internals are the run's internal errors, shared by its judges.
	internals *internals
	callBudget
	shrinkState
	exploring
	findings
}

// callBudget counts the scenarios put to the engine for a rule; when
// limited, allot is the most it may put, and cancel ends the rule's
// context once they are spent (Options.BudgetCalls).
type callBudget struct {
	calls   int
	allot   int
	limited bool
	cancel  context.CancelCauseFunc
}

// shrinkState is what a judge keeps while a failure shrinks.
type shrinkState struct {
	cache map[string]outcome
	// shrinking keeps every outcome in cache while a failure is shrunk.
	shrinking bool
	// hunting is set while an unexplained departure is shrunk: such a
	// departure is then this judge's failure.
	hunting bool
	// shrinkErrors counts, by message, the refusals and faults met while
	// the failure now being shrunk was shrunk.
	shrinkErrors map[string]int
}

// exploring is what explore did for a rule (see explore).
type exploring struct {
	// pre holds the outcomes of the cases explore played for this rule,
	// by the scenario's hash, for its search to take rather than play
	// them again; explored is set once explore is done with the rule.
	pre      map[string]outcome
	explored bool
	tries    int // the cases explore played for the rule
	// drafts are the rule's first draws that explore will play, in the
	// order it plays them (see preplay, playOrder).
	drafts []draft
	// ahead are the rule's first draws, in draw order, as the look-ahead
	// made them, each played on the reference: in a run without
	// Options.Draws, the rule's search takes them rather than draw and
	// play them again. They are dropped once the rule is done.
	ahead []*drawn
	// shared is the rule's set in the run's Draws, once looked up.
	shared *drawSet
	// made counts the draws the judge made itself (makeDrawn), for tests.
	made int
	// departed is set when a case explore played departed from the
	// rules in a way another rule's check names (see searchOrder).
	departed bool
	// fromLead is the failure of this rule that a case drawn for another
	// rule showed while the rules explored: the rule fails on it without
	// a search of its own (see failFromLead). searched is set once explore
	// has handed the rule to its search.
	fromLead *leadFailure
	searched bool
	// bad is the first case explore played that failed or faulted:
	// kept, unshrunk, if the run is stopped before the rule's search.
	bad *failing
}

// findings are what a rule's cases showed of other rules.
type findings struct {
	// leads are, by rule, the first case this rule played that that
	// rule's check failed (see leadFixes).
	leads map[model.RuleID]leadCase
	// departures are, by aspect, the cases this rule played whose trace
	// departed from the rules' where no rule's check looks: how many,
	// and the first (see groupDepartures).
	departures map[string]*departed
	// reached counts, by rule, this rule's held cases that reached that
	// rule too and kept it (see judgeOthers).
	reached map[model.RuleID]int
}

// gen is the rule's generator, as the engine is to be given its
// scenarios: only what the features it declares allow, and for one that
// can't set up merged stacks, only stacks that can be built by casting.
func (j *judge) gen() *rapid.Generator[*model.Scenario] {
	return j.p.Draws.For(drawsFor(j.info))
}

// drawsFor is what the generators may draw for an engine like info: none
// of the features it lacks, and stacks built by casting when it can't
// set them up (they then ask for mutating spells, not merged stacks in
// the starting state).
func drawsFor(info EngineInfo) generators.Engine {
	lacks := info.Lacks(model.Features)
	if info.NoDirectSetup {
		lacks = slices.DeleteFunc(lacks, func(f model.Feature) bool { return f == model.FeatureMergedStacks })
	}
	return generators.Engine{Lacks: lacks, ByActions: info.NoDirectSetup}
}

// lookahead is how many of a rule's first draws explore looks through
// for the ones that reach the rule: as many as the default --checks, so
// that a rule whose situation is one draw in thirty still has a few. Its
// search plays them all in turn, so looking costs generation and
// reference runs, and no engine call. The draws and their rules' traces
// are kept for the search (judge.ahead): every rule's, for as long as
// explore runs, some 60 MB in all, and no more at a larger --checks.
const lookahead = 100

// preplay plays one of the rule's first draws that reach the rule (that
// the rule's Classify gives a label, from the rules' trace, without
// asking the engine; any draw, for a rule without labels), keeps its
// outcome for the search, and notes a lead it shows. Of those draws it
// takes one with the label it has played least, the rarest first (see
// playOrder): a rule's rare situations come up in the first rounds
// rather than when its search gets to them. The search draws the same
// scenarios in the same order (rapid seeds its i-th case with the run's
// seed plus i(i+1)/2) and takes the outcome kept, so the draws explore
// chose are played in their turn and none twice. A case that fails or
// faults ends the exploring of the rule (its search stops there, or goes
// another way), and preplay reports it; a refused one does not, as the
// search plays on past a refusal.
func (j *judge) preplay(checks int) (bad bool) {
	if j.drafts == nil && j.tries == 0 {
		// Only the drafts explore will play are kept: every rule's
		// hundred draws at once would hold the run's memory.
		j.drafts = playOrder(j.lookAhead(min(lookahead, checks)), min(exploreRounds, checks))
		j.shedTraces()
	}
	if j.tries >= len(j.drafts) {
		j.explored, j.drafts = true, nil
		return false
	}
	d := &j.drafts[j.tries]
	j.tries++
	out := j.playDrawn(d.s, d.drawn)
	if out.stopped {
		j.explored = true
		return false
	}
	if j.pre == nil {
		j.pre = map[string]outcome{}
	}
	j.pre[out.key] = out
	if out.excluded != "" {
		j.lead(out.excluded, d.s, out)
		j.departed = true
	}
	if out.bad() {
		j.explored = true
		if j.bad == nil {
			j.bad = &failing{d.s, out}
		}
	}
	return out.bad()
}

// nextIsFresh reports whether the case explore plays next for the rule
// has a label none of its cases played so far had; it is true before the
// rule's first case, whose drafts are not drawn yet.
func (j *judge) nextIsFresh() bool {
	if j.drafts == nil || j.tries >= len(j.drafts) {
		return j.tries == 0
	}
	for _, l := range j.drafts[j.tries].labels {
		if !slices.ContainsFunc(j.drafts[:j.tries], func(d draft) bool { return slices.Contains(d.labels, l) }) {
			return true
		}
	}
	return false
}

// judgeOthers judges a case of this rule that held, its trace the rules'
// own, on every other rule the engine can be judged on whose situation
// it reaches (that rule's Classify gives it a label other than
// properties.ElseHappens): each such rule whose check it keeps counts it
// in reached, and one whose check it breaks gets a lead (see noteLeads),
// as a case is that rule's failure only when drawn for it.
//
// d, if not nil, is the case as drawn, which keeps which rules it reaches
// for the runs that share it.
func (j *judge) judgeOthers(s *model.Scenario, d *drawn, out outcome) {
	t0 := time.Now()
	defer func() { j.time.Check += time.Since(t0) }()
	if out.played != nil {
		s = out.played
	}
	c := &properties.Case{Scenario: s, Trace: out.got, Reference: properties.Settle(out.want, out.got), Partial: j.info.PartialTraces, Observers: j.info.Observers}
	memo := d != nil && out.diverged == nil && properties.SameTrace(out.got, out.want)
	for _, q := range j.explain {
		if q != j.p && j.internals.of(q.Rule) == nil {
			j.judgeOther(q, s, c, d, memo, out)
		}
	}
}

// judgeOther judges a held case of this rule on q (see judgeOthers). A
// panic in q's labels or check is q's internal error, not this rule's.
func (j *judge) judgeOther(q *properties.Property, s *model.Scenario, c *properties.Case, d *drawn, memo bool, out outcome) {
	defer func() {
		if v := recover(); v != nil {
			j.internals.add(internalFrom(q.Rule, v, debug.Stack()))
		}
	}()
	if d != nil && !d.reaches(q) || d == nil && len(situations(q, s, out.want)) == 0 {
		return
	}
	if !memo || !d.heldBefore(j, true, q) {
		if err := safeCheck(q, c); err != nil {
			if !j.brokenCheck(err) {
				j.lead(q.Rule, s, out)
			}
			return
		}
		if memo {
			d.noteHeld(j, true, q)
		}
	}
	if j.reached == nil {
		j.reached = map[model.RuleID]int{}
	}
	j.reached[q.Rule]++
}

// A draft is one of a rule's first draws, as explore sees it.
type draft struct {
	*drawn
	labels []string // the rule's labels for it (properties.ElseHappens aside)
}

// lookAhead draws the rule's first n scenarios and keeps those that reach
// it, in draw order, each scenario once; it stops at a draw the generator
// can't make.
func (j *judge) lookAhead(n int) []draft {
	out := []draft{}
	drawn := map[string]bool{}
	for i := range n {
		d := j.draft(i)
		if j.o.Draws == nil {
			j.ahead = append(j.ahead, d)
		}
		if d.s == nil {
			break
		}
		if !drawn[d.key] {
			drawn[d.key] = true
			if labels, ok := j.reaches(d); ok {
				out = append(out, draft{drawn: d, labels: labels})
			}
		}
	}
	return out
}

// playOrder is the first n of drafts in the order explore plays them:
// each time the unplayed draft that brings the most labels not played
// yet, then, among equals, the one with the label played least, the
// rarest among the drafts of those, the first in draw order among equals
// (a draft without labels counts as having one nothing else has, so a
// rule without labels plays its draws in order). A draft that shows two
// situations at once plays both for one engine call, so every situation
// of the rule comes up in as few rounds as its draws allow; after that,
// each comes up in turn, the rarest first.
func playOrder(drafts []draft, n int) []draft {
	count := map[string]int{}
	for _, d := range drafts {
		for _, l := range d.labels {
			count[l]++
		}
	}
	type key struct{ fresh, played, count int } // fresh counts down: more is better
	less := func(a, b key) bool {
		if a.fresh != b.fresh {
			return a.fresh < b.fresh
		}
		return a.played < b.played || a.played == b.played && a.count < b.count
	}
	seen := map[string]int{}
	played := make([]bool, len(drafts))
	var out []draft
	for len(out) < n {
		best, bestKey := -1, key{}
		for k, d := range drafts {
			if played[k] {
				continue
			}
			dk := key{}
			for i, l := range d.labels {
				if seen[l] == 0 && !slices.Contains(d.labels[:i], l) {
					dk.fresh--
				}
			}
			for i, l := range d.labels {
				if lk := (key{dk.fresh, seen[l], count[l]}); i == 0 || less(lk, dk) {
					dk = lk
				}
			}
			if best < 0 || less(dk, bestKey) {
				best, bestKey = k, dk
			}
		}
		if best < 0 {
			break
		}
		played[best] = true
		for _, l := range drafts[best].labels {
			seen[l]++
		}
		out = append(out, drafts[best])
	}
	return out
}

// draw is the scenario the rule's generator draws with a rapid seed, or
// nil when it can't.
func (j *judge) draw(seed uint64) (s *model.Scenario) {
	defer func() {
		if recover() != nil {
			s = nil // left to the search
		}
	}()
	return j.gen().Example(int(seed))
}

// reaches reports whether the draw d reaches the rule, judged from the
// rules' trace alone, and its labels: it reaches the rule when its
// Situations are not empty (properties.ElseHappens only says that the
// rules change the game somewhere, not that the rule's situation came
// up). A rule without labels is reached by every draw; a draw the
// reference can't play reaches none.
func (j *judge) reaches(d *drawn) ([]string, bool) {
	if j.p.Classify == nil {
		return nil, true
	}
	if d.refused != nil || d.wantErr != nil {
		return nil, false
	}
	labels := d.situationsFor(j.p)
	return labels, len(labels) > 0
}

// situations are p's labels for s that name p's own situation (see
// properties.Property.Situations).
func situations(p *properties.Property, s *model.Scenario, rules *model.Trace) []string {
	return p.Situations(s, rules)
}

// A leadCase is a case of one rule that another rule's check failed: the
// scenario, as drawn, and what it did (its traces, to judge on that rule
// without asking the engine again; the call that played it).
type leadCase struct {
	s   *model.Scenario
	out outcome
}

// lead notes that the case s, which did out, fails rule q, unless an
// earlier case did.
func (j *judge) lead(q model.RuleID, s *model.Scenario, out outcome) {
	if j.leads == nil {
		j.leads = map[model.RuleID]leadCase{}
	}
	if old, ok := j.leads[q]; !ok || out.call < old.out.call {
		j.leads[q] = leadCase{s: s, out: out}
	}
}

// departed counts the cases of a rule that departed from the rules'
// trace in one aspect where no rule's check looks, and keeps the first.
type departed struct {
	first *failing
	n     int
}

// depart notes a case whose trace departed from the rules' where no
// rule's check looks, keeping the first of each aspect for the verdict pass to
// shrink.
func (j *judge) depart(s *model.Scenario, out outcome) {
	if j.departures == nil {
		j.departures = map[string]*departed{}
	}
	key := departureKey(out)
	d := j.departures[key]
	if d == nil {
		d = &departed{first: &failing{s, out}}
		j.departures[key] = d
	}
	d.n++
}

// play plays s, from the cache when it holds s. Outcomes are kept only
// while a failure is shrunk (see remember), where the same scenario comes
// back often; a long run that finds nothing would otherwise hold every
// trace.
func (j *judge) play(s *model.Scenario) outcome { return j.playDrawn(s, nil) }

// playDrawn plays s as play does; d, if not nil, is s as drawn (see
// judge.draft), whose encoding and rules' trace are then not made again.
func (j *judge) playDrawn(s *model.Scenario, d *drawn) outcome {
	var enc []byte
	var key string
	if d != nil {
		key = d.key
		if _, ok := j.e.(EncodedRunner); ok {
			enc = encode(s) // kept in d only as its hash, to keep d small
		}
	} else {
		enc = encode(s)
		key = hashOf(enc)
	}
	if out, ok := j.cache[key]; ok {
		return out
	}
	if out, ok := j.pre[key]; ok {
		// Taken once: a scenario the search draws twice is played twice,
		// as it would be without exploring.
		delete(j.pre, key)
		return out
	}
	out := j.playUncached(s, enc, d)
	out.key = key
	if !out.stopped && j.shrinking {
		j.remember(out)
		j.noteShrinkError(out)
	}
	return out
}

// noteShrinkError counts a refusal or fault the engine answered a
// scenario tried while shrinking with (see Counterexample.ShrinkErrors).
func (j *judge) noteShrinkError(out outcome) {
	var err error
	switch {
	case out.refused != nil && out.call > 0:
		err = out.refused // the engine's, not the harness's before any call
	case out.fault != nil:
		err = out.fault
	default:
		return
	}
	if j.shrinkErrors == nil {
		j.shrinkErrors = map[string]int{}
	}
	j.shrinkErrors[err.Error()]++
}

// remember starts the cache of outcomes, for shrinking, with out in it:
// the failure to shrink stays a failure however the engine answers when
// asked again.
func (j *judge) remember(out outcome) {
	if j.cache == nil {
		j.cache = map[string]outcome{}
	}
	if out.key != "" {
		j.cache[out.key] = out
	}
}

// playUncached plays s, whose encoding is enc; d, if not nil, is s as
// drawn.
func (j *judge) playUncached(s *model.Scenario, enc []byte, d *drawn) outcome {
	var played *model.Scenario
	var err error
	if d != nil {
		played, err = d.played, d.refused
	} else {
		played, err = AsPlayed(j.info, s)
	}
	if err != nil {
		return outcome{refused: err}
	}
	// What the engine is given must use only what it declares: for an
	// engine that can't set up merged stacks, the stacks built by casting.
	if err := undeclared(j.info, played); err != nil {
		return outcome{refused: err}
	}
	if played != s {
		s, enc = played, nil
	} else {
		played = nil
	}
	before := j.calls
	var out outcome
	if d != nil {
		out = j.playWith(s, enc, d.want, d.wantErr, d)
	} else {
		out = j.playScenario(s, enc)
	}
	out.played = played
	if j.calls > before {
		out.call = j.calls
		if j.o.OnPlayed != nil && !out.stopped {
			j.o.OnPlayed(out.asPlayed(j.p.Rule, s))
		}
	}
	return out
}

// A Played is one scenario the engine played, as Options.OnPlayed is
// told of it.
type Played struct {
	// Rule is the rule whose case it was.
	Rule model.RuleID
	// Scenario is what the engine was given; Engine its trace (the steps
	// it played, for a divergence; nil for a fault or refusal) and Rules
	// the rules' trace.
	Scenario      *model.Scenario
	Engine, Rules *model.Trace
	// Outcome is how the case was judged: "held", "failed" (on Rule or,
	// Problem says, by another rule's check), "other-finding" (a
	// departure another rule's check names), "unexplained" (one no
	// check names), "refused", "fault" or "internal". Problem says why
	// for all but held.
	Outcome, Problem string
}

// asPlayed is the outcome of s, a case of rule, as OnPlayed is told of
// it.
func (o outcome) asPlayed(rule model.RuleID, s *model.Scenario) Played {
	p := Played{Rule: rule, Scenario: s, Engine: o.got, Rules: o.want, Outcome: "held"}
	switch {
	case o.broken:
		p.Outcome = "internal"
	case o.fault != nil:
		p.Outcome, p.Problem = "fault", o.fault.Error()
	case o.refused != nil:
		p.Outcome, p.Problem = "refused", o.refused.Error()
	case o.problem != nil:
		p.Outcome, p.Problem = "failed", o.problem.Error()
	case o.excluded != "":
		p.Outcome, p.Problem = "other-finding", "the engine departs from the rules as "+string(o.excluded)+"'s check says"
	case o.departed != nil:
		p.Outcome, p.Problem = "unexplained", o.departed.Error()
	case o.diverged != nil:
		p.Outcome, p.Problem = "failed", o.diverged.Error()
	}
	return p
}

// AsPlayed returns s as an engine like info is given it: s itself, or,
// for an engine that can't set up merged stacks, s with its stacks built
// by casting mutating spells (model.BuildByActions), its expectations
// moved past the casts. It wraps ErrUnsupported when s can't be so built.
func AsPlayed(info EngineInfo, s *model.Scenario) (*model.Scenario, error) {
	if !info.NoDirectSetup || !slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return len(p.Components) > 1 }) {
		return s, nil
	}
	built, ok := model.BuildByActions(s)
	if ok {
		_, err := reference.Run(built)
		ok = err == nil
	}
	if !ok {
		return nil, fmt.Errorf("%w: the engine can't set up merged stacks directly, and this scenario's can't be built by casting mutating spells", ErrUnsupported)
	}
	return built, nil
}

// playScenario plays s on the engine and judges it. enc, if not nil, is
// s's encoding, which an adapter process is given rather than encode s
// again.
func (j *judge) playScenario(s *model.Scenario, enc []byte) outcome {
	// The rules' trace first: a scenario the reference refuses is never
	// put to the engine.
	t0 := time.Now()
	want, err := reference.Run(s)
	j.time.Reference += time.Since(t0)
	return j.playWith(s, enc, want, err, nil)
}

// playWith plays s on the engine and judges it, given the rules' trace
// of s or the reference's error. d, if not nil, is the draw s is played
// from: an engine's trace the same as the rules' is judged there once
// for every engine judged alike (drawn.heldBefore).
func (j *judge) playWith(s *model.Scenario, enc []byte, want *model.Trace, err error, d *drawn) outcome {
	if err != nil {
		return outcome{refused: fmt.Errorf("%w: the reference engine can't play this scenario: %w", ErrUnsupported, err)}
	}
	if j.limited && j.calls >= j.allot {
		if j.cancel != nil {
			j.cancel(errCallBudget)
		}
		return outcome{stopped: true}
	}
	j.calls++
	if r, ok := j.e.(Readier); ok {
		// A restart after a fault has its own time, not the scenario's.
		if err := r.Ready(j.ctx); err != nil {
			if j.ctx.Err() != nil {
				return outcome{stopped: true}
			}
			return outcome{fault: err, class: faultClass(err)}
		}
	}
	ctx, cancel := context.WithTimeout(j.ctx, j.o.Timeout)
	defer cancel()
	t0 := time.Now()
	var got *model.Trace
	ref, isRef := j.e.(refEngine)
	lazy, isLazy := j.e.(*lazyEngine)
	x, encoded := j.e.(EncodedRunner)
	switch drawn := d != nil && s == d.played; {
	case isRef && drawn && ref.mutant != "" && d.reached != nil && !d.reached.Changes(ref.mutant):
		// The rules' play never came to the mutant's bug, so the mutant
		// plays the case as the rules did (reference.Reached): its trace
		// is theirs, known without playing it again.
		got = want
	case isRef && drawn:
		got, err = ref.runValid(ctx, s) // a draw is valid by construction
	case isLazy && drawn:
		got, err = lazy.fromRules(ctx, s, want)
	case encoded && enc != nil:
		got, err = x.RunEncoded(ctx, s, enc)
	default:
		got, err = j.e.Run(ctx, s)
	}
	j.time.Engine += time.Since(t0)
	if err != nil && j.ctx.Err() != nil {
		return outcome{stopped: true}
	}
	a := sortAnswer(s, got, err)
	switch {
	case a.refused != nil:
		return outcome{refused: a.refused, refusedLabels: labelsOf(j.p, s, want)}
	case a.fault != nil:
		return outcome{fault: a.fault, class: a.class}
	}
	got, div := a.got, a.div
	t0 = time.Now()
	defer func() { j.time.Check += time.Since(t0) }()
	memo := d != nil && div == nil && !j.hunting && properties.SameTrace(got, want)
	if memo && d.heldBefore(j, false, j.p) {
		return outcome{got: got, want: want} // what judgeTraces gave the same trace, judged alike
	}
	out := j.judgeTraces(s, got, want, div)
	if memo && out.held() {
		d.noteHeld(j, false, j.p)
	}
	return out
}

// shrinkKey is what tells one failure of a rule from another while the
// rule is searched and shrunk: the failure's class (its rule's, as
// outcome.class has it) and the kind of action it follows, which its
// signature (properties.SignatureOf) leaves out for a value derived from
// the state. The rest of the signature, where the trace first departs,
// is not kept: a failure shrinks through cases whose first departure
// moves (a trigger missing, then the state that made it so) to the
// same minimum from every seed.
func shrinkKey(class string, problem, departure error, want *model.Trace) string {
	var d *properties.Problem
	errors.As(departure, &d)
	return class + " after " + string(properties.SignatureOf(class, problem.Error(), d, want).Action)
}

// held reports whether the case held: nothing failed, faulted, was
// refused, departed or went to another rule.
func (o outcome) held() bool {
	return o.problem == nil && o.fault == nil && o.refused == nil && o.excluded == "" && o.departed == nil && !o.stopped && o.diverged == nil && !o.broken
}

// judging names how the judge judges a trace beside its rule: the
// engine's partial traces and observers, whether 400.1 is judged, and
// the rules that may name a departure. Judges that judge alike judge the
// same trace alike.
func (j *judge) judging() string {
	if j.judgingKey == "" {
		var b strings.Builder
		fmt.Fprintf(&b, "%t %v %t", j.info.PartialTraces, j.info.Observers, j.judged400)
		for _, q := range j.explain {
			b.WriteString(" " + string(q.Rule))
		}
		j.judgingKey = b.String()
	}
	return j.judgingKey
}

// judgeTraces judges the engine's trace of s against the rules' trace on
// j's rule (see Judge), and keeps the internal errors of the checks that
// broke. An unexplained departure is a failure only while it is being
// shrunk (hunting): otherwise it is a finding of its own.
func (j *judge) judgeTraces(s *model.Scenario, got, want *model.Trace, div *Divergence) outcome {
	jd := Judge(j.p, Judging{Info: j.info, Explain: j.explain, Judged400: j.judged400}, Traces{Scenario: s, Engine: got, Rules: want, Divergence: div})
	for _, ie := range jd.Internal {
		j.internals.add(ie)
	}
	out := outcome{got: got, want: want, diverged: div}
	fail := func(rule model.RuleID, err, departure error) outcome {
		out.problem, out.class, out.found = err, string(rule)+": "+properties.ClassOf(err), rule
		out.sigKey = shrinkKey(out.class, err, departure, want)
		if rule == j.p.Rule {
			out.found = ""
		}
		return out
	}
	switch jd.Outcome {
	case CaseFailed:
		return fail(jd.Rule, jd.Problem, jd.Departure)
	case CaseSetAside:
		out.excluded = jd.Rule
	case CaseBroken:
		out.broken = true
	case CaseDeparted:
		if j.hunting {
			return fail(j.p.Rule, &properties.Problem{Class: unexplainedClass(jd.Problem), Msg: jd.Problem.Error(), Aspect: properties.AspectOf(jd.Problem)}, jd.Problem)
		}
		out.departed = jd.Problem
	}
	return out
}

// inPlayOf are the properties of props whose rules st cites, in the order
// of properties.All and then of props.
func inPlayOf(st model.Step, props []*properties.Property) []*properties.Property {
	cited := map[model.RuleID]bool{}
	for _, e := range st.Events {
		if e.Rule != "" {
			cited[e.Rule] = true
		}
	}
	var out []*properties.Property
	for _, p := range append(slices.Clone(properties.All), props...) {
		if cited[p.Rule] && slices.Contains(props, p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// summarize says in a line what a step of the rules' trace did.
func summarize(st model.Step) string {
	var out []string
	for _, e := range st.Events {
		switch e.Kind {
		case model.ZoneChange:
			out = append(out, fmt.Sprintf("%s moves from %s to %s", e.Object, e.From, e.To))
		case model.Merged:
			out = append(out, fmt.Sprintf("%s merges", e.Object))
		case model.Trigger:
			out = append(out, fmt.Sprintf("%q triggers for %s", e.Observer, e.Object))
		case model.StatusChange:
			out = append(out, fmt.Sprintf("%s changes status", e.Object))
		case model.NothingHappens:
			out = append(out, fmt.Sprintf("nothing happens to %s", e.Object))
		case model.Reveal:
			out = append(out, fmt.Sprintf("%s reveals %s", e.Player, words.List(e.Revealed)))
		}
	}
	if len(out) == 0 {
		return "it changes the game state"
	}
	return strings.Join(out, "; ")
}

// faultClass names the kind of an engine's failure, for shrinking: an
// adapter fault's kind, or the failing action's type for an engine that
// returns one of package reference's errors.
func faultClass(err error) string {
	var ae *AdapterError
	if errors.As(err, &ae) && ae.Kind != "" {
		return "adapter: " + ae.Kind
	}
	var re *reference.ActionError
	if errors.As(err, &re) {
		return fmt.Sprintf("engine error on %s", re.Type)
	}
	return "engine error"
}

// safeCheck runs a property's check, turning a panic into a problem
// report when the engine's trace is to blame (the check reads the rules'
// own trace in its place without breaking: the engine's is too malformed
// to read), and into the rule's *InternalError when the check breaks on
// the rules' trace too: a bug of the check's.
func safeCheck(p *properties.Property, c *properties.Case) (err error) {
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			if rulesToo := checkPanics(p, c); rulesToo != nil {
				err = internalFrom(p.Rule, rulesToo, stack)
				return
			}
			err = &properties.Problem{Class: "unreadable-trace", Msg: fmt.Sprintf("the trace could not be judged: %v", r)}
		}
	}()
	return p.Check(c)
}

// checkPanics runs p's check on c with the rules' trace in place of the
// engine's and returns what it panicked with, or nil.
func checkPanics(p *properties.Property, c *properties.Case) (v any) {
	defer func() { v = recover() }()
	if c.Reference == nil {
		return "the case has no rules' trace"
	}
	rules := *c
	rules.Trace = c.Reference
	p.Check(&rules)
	return nil
}

// brokenCheck reports whether err, from safeCheck, is the check's own
// failure, and keeps it as its rule's internal error.
func (j *judge) brokenCheck(err error) bool {
	var ie *InternalError
	if !errors.As(err, &ie) {
		return false
	}
	j.internals.add(ie)
	return true
}

// applicable reports whether e can be judged on p, and if not, why.
func applicable(info EngineInfo, p *properties.Property) (bool, string) {
	switch {
	case p.Uncheckable != "":
		return false, p.Uncheckable
	case !info.Supports(p.Needs):
		var missing []string
		for _, f := range info.Lacks(p.Needs) {
			if parts, short := model.Shorthands[f]; short {
				missing = append(missing, fmt.Sprintf("%s (any of %s)", f, words.List(parts)))
			} else {
				missing = append(missing, string(f))
			}
		}
		return false, "the engine does not declare the feature " + strings.Join(missing, ", ")
	case !info.Reports(p.Observes):
		var missing []string
		for _, o := range p.Observes {
			if !info.Reports([]model.Observer{o}) {
				missing = append(missing, string(o))
			}
		}
		if len(missing) == 1 {
			return false, "the engine does not report the observer " + missing[0]
		}
		return false, "the engine does not report the observers " + words.List(missing)
	case p.Events && info.PartialTraces:
		// The check reads zone changes or reveals, which partial traces
		// may leave out; judging silence would blame the engine for
		// what it left out.
		return false, "the engine's traces are partial, and this rule is judged on the zone changes and reveals they may leave out"
	}
	return true, ""
}

// explainers lists, of props and every built-in property, those the
// engine can be judged on, but the trace's own (properties.P400_1), in
// the order of properties.All and then of props; a property of props
// stands in for the built-in one of its rule.
func explainers(info EngineInfo, props []*properties.Property) []*properties.Property {
	var out []*properties.Property
	for _, p := range append(slices.Clone(properties.All), props...) {
		if i := slices.IndexFunc(props, func(q *properties.Property) bool { return q.Rule == p.Rule }); i >= 0 {
			p = props[i]
		}
		if ok, _ := applicable(info, p); ok && p.Rule != properties.P400_1.Rule && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// forbidden returns the not-allowed event of a step of the rules, or nil.
func forbidden(st model.Step) *model.Event {
	for i := range st.Events {
		if st.Events[i].Kind == model.NotAllowed {
			return &st.Events[i]
		}
	}
	return nil
}
