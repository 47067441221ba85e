package harness

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// TestDecide: a rule's verdict is a function of its counts and of how its
// search ended, and says why whenever it is not the plain one.
func TestDecide(t *testing.T) {
	refusal := []Refusal{{Reason: "unsupported: no flip", Count: 95}}
	for _, tt := range []struct {
		name     string
		r        Result
		e        ending
		want     Verdict
		why      string // a part of the reason; empty means none at all
		forShort bool
	}{
		{name: "every case held", r: Result{Cases: 100}, want: Held},
		{name: "a case failed", r: Result{Cases: 3}, e: ending{failed: true}, want: Failed},
		{name: "a fault and no failure", r: Result{Cases: 3}, e: ending{faulted: true}, want: Fault},
		{name: "a failure cut short by a signal", r: Result{Cases: 3}, e: ending{failed: true, stopped: true, interrupted: true}, want: Failed, why: "may not be shrunk"},
		{name: "a fault cut short by a signal", e: ending{faulted: true, stopped: true, interrupted: true}, want: Fault},
		{name: "stopped before any case", e: ending{stopped: true}, want: Uncovered, why: stoppedBeforeAnyCase},
		{name: "stopped after refusals only", r: Result{Refused: 4, Refusals: refusal}, e: ending{stopped: true}, want: Uncovered, why: "refused the 4 scenarios drawn before it stopped"},
		{name: "every case refused", r: Result{Refused: 100, Refusals: refusal}, e: ending{checks: 100}, want: Unsupported, why: "refused every scenario"},
		{name: "too few played", r: Result{Cases: 9, Refused: 91, Refusals: refusal}, e: ending{checks: 100}, want: Unsupported, why: "played 9, too few to judge it by (10 are needed)"},
		{name: "enough played", r: Result{Cases: 10, Refused: 90, Refusals: refusal}, e: ending{checks: 100}, want: Held},
		{name: "a case lost to 400.1", r: Result{Cases: 99, Excluded: 1, ExcludedBy: map[model.RuleID]int{properties.P400_1.Rule: 1}}, want: Uncovered, why: "only 99 of 100 cases could be judged"},
		{name: "a case lost to an unexplained departure", r: Result{Cases: 99, Departed: 1}, want: Uncovered, why: "where no rule's check looks"},
		{name: "more taken by other rules than judged", r: Result{Cases: 40, Excluded: 60, ExcludedBy: map[model.RuleID]int{"730.3": 60}}, want: Uncovered, why: "730.3: 60"},
		{name: "a few taken by another rule", r: Result{Cases: 90, Excluded: 10, ExcludedBy: map[model.RuleID]int{"730.3": 10}}, want: Held},
		{name: "a label short", r: Result{Cases: 100}, e: ending{short: "label \"x\" covered 1%"}, want: Uncovered, why: "label \"x\"", forShort: true},
		{name: "a label short for an engine that can't set up stacks", r: Result{Cases: 100}, e: ending{short: "label \"x\" covered 1%", noDirectSetup: true}, want: Unsupported, why: "can't set up merged stacks", forShort: true},
		{name: "stopped after some cases", r: Result{Cases: 40}, e: ending{stopped: true, checks: 100}, want: Held, why: "stopped after 40 of 100 cases"},
		{name: "out of its share of calls", r: Result{Cases: 40}, e: ending{stopped: true, callShare: 45, checks: 100}, want: Held, why: "--budget-calls (45 engine calls) was spent after 40 of 100"},
		{name: "interrupted after some cases", r: Result{Cases: 40}, e: ending{stopped: true, interrupted: true, checks: 100}, want: Interrupted, why: "interrupted after 40 of 100"},
		{name: "labels set aside", r: Result{Cases: 100, SetAside: map[string]string{"flip": "needs flip"}}, want: Held, why: "set aside"},
		{name: "shares measured for the engine's features", r: Result{Cases: 100, Shares: map[string]float64{"merged": 0.12}}, want: Held, why: `"merged" 12.0%`},
		{name: "the situation never reached, the rest refused", r: Result{Cases: 60, Refused: 40, Refusals: refusal}, e: ending{unreached: true, checks: 100}, want: Unsupported, why: "none of the 60 cases the engine played reached the rule's situation; it refused 40"},
		{name: "the situation never reached, its labels set aside", r: Result{Cases: 100, SetAside: map[string]string{"shroud": "needs attach"}}, e: ending{unreached: true, checks: 100}, want: Unsupported, why: "its declared features allow reach rarely"},
		{name: "the situation never reached by an engine with every feature", r: Result{Cases: 100}, e: ending{unreached: true, short: "label \"x\" covered 0%", checks: 100}, want: Uncovered, why: "label \"x\"", forShort: true},
		{name: "refused most, some lost to 400.1", r: Result{Cases: 5, Refused: 80, Refusals: refusal, Excluded: 15, ExcludedBy: map[model.RuleID]int{properties.P400_1.Rule: 15}}, e: ending{checks: 100}, want: Uncovered, why: "only 5 of 20 cases"},
		{name: "refused most, more lost to a finding than judged", r: Result{Cases: 3, Refused: 90, Refusals: refusal, Excluded: 7, ExcludedBy: map[model.RuleID]int{"730.3": 7}}, e: ending{checks: 100}, want: Uncovered, why: "730.3: 7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := decide(tt.r, tt.e)
			assert.Equal(t, tt.want, d.verdict)
			assert.Equal(t, tt.forShort, d.forShort)
			if tt.why == "" {
				assert.Empty(t, d.why)
			} else {
				assert.Contains(t, d.why, tt.why)
			}
		})
	}
}

// TestDeclaredShare: the share asked of a label for an engine's
// declaration is safe for a correct engine (it misses it with a chance
// below one in a million) and no more than its draws reach; nothing is
// asked of a label its draws reach too rarely.
func TestDeclaredShare(t *testing.T) {
	for _, tt := range []struct {
		seen, n, cases int
		lo, hi         float64
	}{
		{seen: 200, n: 200, cases: 400, lo: 1, hi: 1},
		{seen: 100, n: 200, cases: 400, lo: 0.25, hi: 0.4},
		{seen: 40, n: 200, cases: 400, lo: 0.05, hi: 0.15},
		{seen: 2, n: 200, cases: 400, lo: 0, hi: 0},
		{seen: 0, n: 200, cases: 400, lo: 0, hi: 0},
		{seen: 5, n: 0, cases: 400, lo: 0, hi: 0},
	} {
		got := declaredShare(tt.seen, tt.n, tt.cases)
		assert.GreaterOrEqual(t, got, tt.lo, "%+v", tt)
		assert.LessOrEqual(t, got, tt.hi, "%+v", tt)
		if got > 0 && got < 1 {
			// The share's count is one a correct engine reaches at the
			// rate's lower bound but one time in a million.
			rate := float64(tt.seen) / float64(tt.n)
			low := rate - 2*math.Sqrt(rate*(1-rate)/float64(tt.n))
			assert.LessOrEqual(t, binomialBelow(tt.cases, low, int(math.Round(got*float64(tt.cases)))), 1e-6, "%+v", tt)
			assert.Greater(t, binomialBelow(tt.cases, low, int(math.Round(got*float64(tt.cases)))+1), 1e-6, "%+v: the largest such share", tt)
		}
	}
}

// binomialBelow is the chance that n trials of chance p succeed fewer
// than k times, summed term by term.
func binomialBelow(n int, p float64, k int) float64 {
	sum := 0.0
	for i := range min(k, n+1) {
		lg, _ := math.Lgamma(float64(n + 1))
		li, _ := math.Lgamma(float64(i + 1))
		lr, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lg - li - lr + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return sum
}

// TestVerdictOf: every verdict a run gives is decided by verdictOf, from
// a rule's counts and what the run learned of it, in one order: a broken
// check, a rule the engine can't be judged on, a failure however it was
// found, a case kept unshrunk, a finding that blocks the rule, a run
// stopped before the rule began, and last its own search. Nothing learned
// is never held.
func TestVerdictOf(t *testing.T) {
	held := &decision{verdict: Held}
	uncovered := &decision{verdict: Uncovered, why: "label short"}
	ce := &Counterexample{Rule: "730.3"}
	for _, tt := range []struct {
		name string
		r    Result
		want Verdict
		why  string // a part of the reason; empty means none at all
	}{
		{name: "held by its search", r: Result{Cases: 100, basis: basis{searched: held}}, want: Held},
		{name: "uncovered by its search", r: Result{basis: basis{searched: uncovered}}, want: Uncovered, why: "label short"},
		{name: "a broken check whatever else", r: Result{Internal: &InternalError{Msg: "panic: x"}, basis: basis{searched: held, corpus: true}}, want: Internal, why: "panic: x"},
		{name: "a feature the engine lacks", r: Result{basis: basis{unsupported: "the engine does not declare the feature flip"}}, want: Unsupported, why: "flip"},
		{name: "a rule no trace shows", r: Result{basis: basis{unsupported: "no trace shows it", unchecked: true}}, want: Unchecked, why: "no trace shows it"},
		{name: "an engine that never started", r: Result{Fault: &EngineFault{}, basis: basis{startFault: true}}, want: Fault},
		{name: "failed by a case met while exploring", r: Result{Counterexample: ce, basis: basis{explored: "730.2a"}}, want: Failed, why: "a case drawn for 730.2a breaks it, found while the rules explored"},
		{name: "failed by a corpus scenario", r: Result{Counterexample: ce, basis: basis{corpus: true}}, want: Failed, why: "corpus"},
		{name: "failed by a lead after its own cases held", r: Result{Cases: 100, Counterexample: ce, basis: basis{followed: "730.2a", searched: held}}, want: Failed, why: "its own 100 cases held; a case drawn for 730.2a"},
		{name: "a lead fails a rule the run stopped before", r: Result{Counterexample: ce, basis: basis{followed: "730.2a", stoppedBefore: true}}, want: Failed, why: "730.2a"},
		{name: "a failing case kept unshrunk", r: Result{Counterexample: ce, basis: basis{unshrunk: true, stoppedBefore: true}}, want: Failed, why: "reported as it was played"},
		{name: "a faulting case kept unshrunk", r: Result{Fault: &EngineFault{}, basis: basis{unshrunk: true, searched: held}}, want: Fault, why: "reported as it was played"},
		{name: "blocked by a rule that failed", r: Result{Cases: 10, Excluded: 30, ExcludedBy: map[model.RuleID]int{"730.3": 20, "730.2a": 10}, basis: basis{blocked: &blocking{"730.3", 20}, searched: uncovered}},
			want: Blocked, why: "20 of its 40 cases were lost to 730.3's finding: fix that first (10 more were other findings'"},
		{name: "blocked by an unexplained departure", r: Result{Cases: 10, Departed: 5, basis: basis{blocked: &blocking{"", 5}, searched: uncovered}}, want: Blocked, why: "5 of its 15 cases departed"},
		{name: "stopped before it began", r: Result{basis: basis{stoppedBefore: true}}, want: Uncovered, why: stoppedBeforeAnyCase},
		{name: "interrupted before it began", r: Result{basis: basis{stoppedBefore: true, interrupted: true}}, want: Interrupted, why: "interrupted before this rule began"},
		{name: "interrupted while the engine started", r: Result{basis: basis{stoppedBefore: true, interrupted: true, starting: true}}, want: Interrupted, why: "while the engine was starting"},
		{name: "nothing learned is not held", want: Uncovered, why: "not judged"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := verdictOf(tt.r)
			assert.Equal(t, tt.want, d.verdict)
			if tt.why == "" {
				assert.Empty(t, d.why)
			} else {
				assert.Contains(t, d.why, tt.why)
			}
		})
	}
}

// TestBlock_AFindingBlocksTheRulesItKeptFromBeingJudged: block, a pass
// over plain results, blocks an uncovered rule whose cases a failed
// rule's finding or an unexplained departure took, names the rule, and
// leaves a rule lost to a rule that did not fail for BlockAcross.
func TestBlock_AFindingBlocksTheRulesItKeptFromBeingJudged(t *testing.T) {
	uncovered := &decision{verdict: Uncovered, why: "short"}
	lost := func(rule model.RuleID, by model.RuleID) *Result {
		r := &Result{Rule: rule, Cases: 10, Excluded: 20, ExcludedBy: map[model.RuleID]int{by: 20}, basis: basis{searched: uncovered}}
		r.conclude()
		return r
	}
	failed := &Result{Rule: "730.3", Counterexample: &Counterexample{}, basis: basis{corpus: true}}
	failed.conclude()
	toFailed, toHeld := lost("730.2a", "730.3"), lost("730.2b", "730.2c")
	departed := &Result{Rule: "730.2d", Cases: 10, Departed: 3, basis: basis{searched: uncovered}}
	departed.conclude()
	block([]*Result{failed, toFailed, toHeld, departed}, []Unexplained{{Aspect: "status"}})

	assert.Equal(t, Blocked, toFailed.Verdict)
	assert.Equal(t, model.RuleID("730.3"), toFailed.BlockedBy)
	assert.Equal(t, Uncovered, toHeld.Verdict)
	assert.Equal(t, model.RuleID("730.2c"), toHeld.LostTo)
	assert.Equal(t, Blocked, departed.Verdict)
	assert.Empty(t, departed.BlockedBy)

	merged := []Result{*toHeld, {Rule: "730.2c", Verdict: Failed}}
	BlockAcross(merged)
	assert.Equal(t, Blocked, merged[0].Verdict)
	assert.Equal(t, model.RuleID("730.2c"), merged[0].BlockedBy)
	assert.Empty(t, merged[0].LostTo)
}

// TestUnreached: a rule with situations is unreached when no case played
// had one of its labels; ElseHappens is no situation, and a rule without
// labels is never unreached.
func TestUnreached(t *testing.T) {
	labelled := &properties.Property{Rule: "1.1", Classify: func(*model.Scenario, *model.Trace) []string { return nil }}
	for _, tt := range []struct {
		name string
		p    *properties.Property
		r    Result
		want bool
	}{
		{"no label in any case", labelled, Result{Cases: 100, Coverage: map[string]int{}}, true},
		{"only something else happens", labelled, Result{Cases: 100, Coverage: map[string]int{properties.ElseHappens: 30}}, true},
		{"a label reached once", labelled, Result{Cases: 100, Coverage: map[string]int{"shroud": 1}}, false},
		{"a label counted none", labelled, Result{Cases: 100, Coverage: map[string]int{"shroud": 0}}, true},
		{"no case played", labelled, Result{}, false},
		{"a rule without labels", &properties.Property{Rule: "1.2"}, Result{Cases: 100}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, unreached(tt.p, tt.r))
		})
	}
}
