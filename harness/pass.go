package harness

import (
	"maps"
	"slices"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// This file is the verdict pass: what a run decides once every rule's
// search is done, from what the searches left as plain values. It blames
// each departure on the rule whose check names it (leads), makes the
// departures no check names findings of their own (unexplained), and
// tells the rules a finding kept from being judged (blocked). The pass
// plays no engine: judging a lead and shrinking a failure are handed to
// it (a finisher), so that a table of plain values tests it
// (TestSettle).

// A searchEnd is what one rule's search left: all the pass needs of it.
type searchEnd struct {
	rule model.RuleID
	// result is the rule's result so far, its verdict concluded.
	result *Result
	// open is set when a lead may still fail the rule: the engine can be
	// judged on it and mergecheck did not break on it.
	open bool
	// leads are, by the rule whose check failed it, the first case of
	// this rule that it failed.
	leads map[model.RuleID]leadCase
	// departures are, by departureKey, this rule's cases that departed
	// from the rules' where no rule's check looks.
	departures map[string]*departed
}

// A finisher does what the pass can't do on plain values: judge a case
// again as another rule's, shrink what it finds and say where mergecheck
// broke. The run's plays the engine on its workers; a test's answers from
// a table.
type finisher interface {
	// judge judges lead case lc as a case of rule i, on the traces it had
	// (Judge); it asks the engine nothing.
	judge(i int, lc leadCase) outcome
	// shrinkLeads shrinks each failure fs shows of its rule and sets its
	// counterexample, nil where shrinking broke.
	shrinkLeads(fs []*leadFix)
	// shrinkDepartures sets the counterexample of each unexplained
	// departure: its first case, drawn for rule by[k], shrunk.
	shrinkDepartures(us []Unexplained, by []int)
	// internal is rule i's result when mergecheck broke on it, or nil.
	internal(i int) *Result
}

// A leadFix is a failure of rule i that a case drawn for rule from shows,
// and once shrunk, its counterexample and the rule's engine calls then.
type leadFix struct {
	i    int
	from model.RuleID
	lc   leadCase
	out  outcome // rule i's judgment of the case
	ce   *Counterexample
	// calls is the rule's engine calls once the failure is shrunk.
	calls int
}

// settleAll is the verdict pass over the rules' ends, in rule order. It
// sets their results' verdicts and returns the unexplained departures.
func settleAll(ends []searchEnd, f finisher) []Unexplained {
	settleBroken(ends, f)
	fixes := leadFixes(ends, f.judge)
	f.shrinkLeads(fixes)
	for _, fx := range fixes {
		if fx.ce == nil {
			continue // shrinking broke: the rule's internal error says so
		}
		r := ends[fx.i].result
		r.Counterexample, r.ShrunkAtCall, r.Calls = fx.ce, fx.calls, fx.calls
		r.Lead, r.FromLead = &Lead{Rule: fx.from, Call: fx.lc.out.call}, true
		r.basis.followed = fx.from
		r.conclude()
	}
	unexplained, by := groupDepartures(ends)
	f.shrinkDepartures(unexplained, by)
	settleBroken(ends, f)
	results := make([]*Result, len(ends))
	for i := range ends {
		results[i] = ends[i].result
	}
	block(results, unexplained)
	return unexplained
}

// settleBroken gives each rule mergecheck broke on that verdict, whatever
// its search found: nothing it judged of the rule can be trusted.
func settleBroken(ends []searchEnd, f finisher) {
	for i := range ends {
		if r := f.internal(i); r != nil {
			ends[i].result, ends[i].open = r, false
		}
	}
}

// leadsTried is how many other rules' cases the pass judges again as one
// rule's before it gives up: an engine that answers a case differently
// the second time gets a few chances, not one per rule.
const leadsTried = 3

// leadFixes judges again, as a case of the rule whose check named it,
// each case of another rule whose departure from the rules' trace that
// check named (a lead), for every open rule whose own cases did not fail
// it: the first lead, taken in rule order, that fails the rule is its
// failure, wherever it was drawn.
func leadFixes(ends []searchEnd, judge func(i int, lc leadCase) outcome) []*leadFix {
	var fixes []*leadFix
	for i, q := range ends {
		if r := q.result; r == nil || !q.open || r.Verdict == Failed || r.Verdict == Fault || r.Verdict == Interrupted || r.Verdict == Internal {
			continue
		}
		tried := 0
		for k, p := range ends {
			lc, ok := p.leads[q.rule]
			if !ok || k == i {
				continue
			}
			if tried++; tried > leadsTried {
				break
			}
			if out := judge(i, lc); out.problem != nil {
				fixes = append(fixes, &leadFix{i: i, from: p.rule, lc: lc, out: out})
				break
			}
		}
	}
	return fixes
}

// groupDepartures makes each way in which the engine departed from the
// rules' where no rule's check looks (departureKey: the aspect of the
// trace, the parts that differ and the kind of action) one finding: the cases of each rule that showed it, in order of
// the first rule to show it, and for each, that rule's index (by), whose
// first case of it is to be shrunk.
func groupDepartures(ends []searchEnd) (out []Unexplained, by []int) {
	index := map[string]int{} // departureKey -> index in out
	for i, e := range ends {
		for _, key := range slices.Sorted(maps.Keys(e.departures)) {
			k, ok := index[key]
			if !ok {
				k, index[key] = len(out), len(out)
				out = append(out, Unexplained{Aspect: aspectOf(e.departures[key]), Cases: map[model.RuleID]int{}, key: key})
				by = append(by, i)
			}
			out[k].Cases[e.rule] += e.departures[key].n
		}
	}
	return out, by
}

// aspectOf is the aspect of the trace a rule's departures of one key are
// in.
func aspectOf(d *departed) string {
	if d == nil || d.first == nil {
		return ""
	}
	return properties.AspectOf(d.first.out.departed)
}
