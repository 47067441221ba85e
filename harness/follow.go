package harness

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// This file is the run's side of the verdict pass (see pass.go): what a
// run left for it, and the engine work it hands back, done on the run's
// workers.

// resume readies a rule's judge to play again after its search: on the
// run's context, with what is left of its share of the call budget, its
// time counted in r. The function it returns ends that.
func (j *judge) resume(ctx context.Context, e Engine, r *Result) (done func()) {
	j.e, j.time, j.cache, j.ctx = e, &r.Time, nil, ctx
	if !j.limited {
		return func() { r.Calls = j.calls }
	}
	c, cancel := context.WithCancelCause(ctx)
	j.ctx, j.cancel = c, cancel
	return func() { cancel(nil); r.Calls = j.calls }
}

// ends are what the rules' searches left, in rule order, for the pass,
// and after them an end for each rule outside the selection whose check
// named a departure in a selected rule's case (addOutside).
func (rn *run) ends() []searchEnd {
	rn.addOutside()
	out := make([]searchEnd, len(rn.selected))
	for i, p := range rn.selected {
		j := rn.judges[p.Rule]
		ok, _ := applicable(j.info, p)
		out[i] = searchEnd{rule: p.Rule, result: rn.results[i], open: ok && !j.broken(), leads: j.leads, departures: j.departures}
	}
	return out
}

// addOutside adds to the run, after the rules it searched, each rule not
// selected (by --rules or a shard) whose check named the way a selected
// rule's case departed from the rules': its judge, and a result that
// only its leads can fail. Such a case is that rule's finding wherever
// it was drawn, so that no selection hides it: the verdict pass judges
// it as that rule's case and shrinks it, and the run reports the rule
// failed outside the selection. One that nothing fails is left out.
func (rn *run) addOutside() {
	if len(rn.selected) > rn.searched {
		return // added already
	}
	for _, q := range rn.explain {
		if _, in := rn.index[q.Rule]; in {
			continue
		}
		lead, ok := firstLead(rn.selected[:rn.searched], rn.judges, &judge{p: q})
		if !ok {
			continue
		}
		if ok, _ := applicable(rn.res.Engine, q); !ok {
			continue
		}
		j := &judge{ctx: rn.ctx, p: q, o: rn.o, info: rn.res.Engine, time: &Timing{}, explain: rn.explain, judged400: rn.judged400, internals: rn.internals}
		if from := rn.judges[lead.from]; from.limited {
			// Under --budget-calls, shrinking it spends half of what is
			// left of the share of the rule whose case showed it (the
			// rest may shrink that rule's own findings): the run keeps
			// to its budget.
			half := max(from.allot-from.calls, 0) / 2
			j.limited, j.allot = true, half
			from.allot -= half
		}
		rn.index[q.Rule] = len(rn.selected)
		rn.selected = append(rn.selected, q)
		rn.judges[q.Rule] = j
		rn.results = append(rn.results, &Result{Rule: q.Rule, Outside: true, basis: basis{outside: true}})
	}
}

// finishing is the run's finisher: it judges and shrinks with the rules'
// judges, a rule at a time on each of the run's workers. Even when the
// run is stopped: judging a lead costs no engine call, and a failure
// found is kept, shrunk as far as there is time.
type finishing struct {
	*run
	engines []Engine
}

func (f finishing) judge(i int, lc leadCase) outcome {
	j := f.judges[f.selected[i].Rule]
	var out outcome
	j.guard(func() { out = j.judgeTraces(lc.played(), lc.out.got, lc.out.want, lc.out.diverged) })
	return out
}

func (f finishing) shrinkLeads(fs []*leadFix) {
	onWorkers(f.engines, len(fs), func() bool { return true }, func(e Engine, k int) {
		fx := fs[k]
		j := f.judges[f.selected[fx.i].Rule]
		r := f.results[fx.i]
		done := j.resume(f.ctx, e, r)
		defer done()
		j.guard(func() {
			out := fx.out
			out.key, out.played, out.call = fx.lc.out.key, fx.lc.out.played, fx.lc.out.call
			j.remember(out)
			j.shrinking = true
			fx.ce = j.counterexample(&failing{fx.lc.s, out})
			fx.calls = j.calls
			if j.o.OnShrunk != nil {
				j.o.OnShrunk(j.p.Rule)
			}
		})
	})
}

func (f finishing) shrinkDepartures(us []Unexplained, by []int) {
	// One worker per rule whose cases are shrunk, so that no judge plays
	// on two workers at once.
	var rules []int
	for _, i := range by {
		if !slices.Contains(rules, i) {
			rules = append(rules, i)
		}
	}
	slices.Sort(rules)
	onWorkers(f.engines, len(rules), func() bool { return true }, func(e Engine, k int) {
		i := rules[k]
		j := f.judges[f.selected[i].Rule]
		done := j.resume(f.ctx, e, f.results[i])
		defer done()
		for u := range us {
			if by[u] != i {
				continue
			}
			first := j.departures[us[u].key].first
			j.guard(func() { us[u].Counterexample = j.unexplained(first) })
			if us[u].Counterexample == nil {
				// Shrinking it broke (the rule's internal error): the
				// departure is kept as it was drawn.
				us[u].Counterexample = j.departedAsDrawn(first, false)
			}
		}
	})
}

func (f finishing) internal(i int) *Result {
	p := f.selected[i]
	ie := f.internals.of(p.Rule)
	if ie == nil {
		return nil
	}
	calls := 0
	if r := f.results[i]; r != nil {
		calls = r.Calls
		if ce := r.Counterexample; ce != nil {
			// The failure found before it broke is kept, shrunk as far
			// as it got.
			f.internals.keep(p.Rule, ce.Scenario)
			ie = f.internals.of(p.Rule)
		}
	}
	r := internalResult(p, ie, calls)
	f.results[i] = &r
	return &r
}

// A leadFailure is a failure of one rule shown by a case drawn for
// another (from), and that rule's call that played it.
type leadFailure struct {
	from model.RuleID
	f    failing
	call int
}

// aLead is a rule's lead case and the rule it was drawn for.
type aLead struct {
	from model.RuleID
	lc   leadCase
}

// played is the scenario the lead's case gave the engine.
func (l aLead) played() *model.Scenario { return l.lc.played() }

// played is the scenario the case gave the engine.
func (lc leadCase) played() *model.Scenario {
	if lc.out.played != nil {
		return lc.out.played
	}
	return lc.s
}

// failure is the lead's case failing with out.
func (l aLead) failure(out outcome) *leadFailure {
	return &leadFailure{from: l.from, f: failing{l.lc.s, out}, call: l.lc.out.call}
}

// firstLead is the first case, taken in rule order, that another rule
// drew and j's rule's check names.
func firstLead(selected []*properties.Property, judges map[model.RuleID]*judge, j *judge) (aLead, bool) {
	for _, p := range selected {
		if lc, ok := judges[p.Rule].leads[j.p.Rule]; ok && p != j.p {
			return aLead{p.Rule, lc}, true
		}
	}
	return aLead{}, false
}

// failFromLead makes the failure a lead showed while the rules explored
// the rule's result, shrunk, without a search of its own: the rule is
// failed, and its search would only look for other failures.
func failFromLead(j *judge, r *Result) {
	lf := j.fromLead
	j.remember(lf.f.out)
	j.shrinking = true
	ce := j.counterexample(&lf.f)
	r.Counterexample, r.ShrunkAtCall, r.Calls = ce, j.calls, j.calls
	r.Lead, r.FromLead = &Lead{Rule: lf.from, Call: lf.call}, true
	r.basis.explored = lf.from
	r.conclude()
	if j.o.OnShrunk != nil {
		j.o.OnShrunk(j.p.Rule)
	}
}

// noteLeads notes on each rule that failed on its own cases the first
// other rule whose case showed a failure of it, taken in rule order, so
// that it does not depend on how workers were scheduled.
func noteLeads(selected []*properties.Property, judges map[model.RuleID]*judge, results []*Result) {
	for i, q := range selected {
		r := results[i]
		if r == nil || r.Verdict != Failed || r.Lead != nil {
			continue
		}
		for _, p := range selected {
			if lc, ok := judges[p.Rule].leads[q.Rule]; ok && p != q {
				r.Lead = &Lead{Rule: p.Rule, Call: lc.out.call}
				break
			}
		}
	}
}

// unexplained shrinks a case whose trace departed from the rules' where
// no rule's check looks, keeping a departure in the same aspect, and
// reports it. A departure the engine does not repeat is reported as it
// was drawn, intermittent.
func (j *judge) unexplained(f *failing) *Counterexample {
	j.hunting = true
	defer func() { j.hunting = false }()
	out := j.play(f.s)
	if out.problem != nil && out.sigKey == shrinkKey(string(j.p.Rule)+": "+unexplainedClass(f.out.departed), f.out.departed, f.out.departed, f.out.want) {
		j.remember(out)
		j.shrinking = true
		return j.counterexample(&failing{f.s, out})
	}
	return j.departedAsDrawn(f, !out.stopped)
}

// departedAsDrawn reports a case whose trace departed from the rules'
// where no rule's check looks as it was drawn, unshrunk.
func (j *judge) departedAsDrawn(f *failing, intermittent bool) *Counterexample {
	s := f.played()
	return &Counterexample{Rule: j.p.Rule, Problem: f.out.departed.Error(), Class: string(j.p.Rule) + ": " + unexplainedClass(f.out.departed),
		Scenario: s, Got: f.out.got, Want: f.out.want, Seed: j.o.Seed, Intermittent: intermittent}
}

// block blocks each rule judged on too few of its cases (see notJudged)
// when the others were lost to a finding of the run: first to a trace
// that breaks its own accounting (400.1), then to an unexplained
// departure, then to the rule whose check took most of them, if it
// failed. Such a rule is neither held nor failed: the finding hides it,
// and is the bug to fix first.
func block(results []*Result, unexplained []Unexplained) {
	failed := map[model.RuleID]bool{}
	for _, r := range results {
		if r != nil && r.Verdict == Failed {
			failed[r.Rule] = true
		}
	}
	for _, r := range results {
		if r == nil || r.Verdict != Uncovered || !notJudged(*r) {
			continue
		}
		top, most := blocker(*r)
		switch {
		case top == "" && most > 0 && len(unexplained) > 0, top != "" && failed[top]:
			r.basis.blocked = &blocking{top, most}
			r.conclude()
		case top != "":
			r.LostTo = top // blocked if top fails elsewhere (BlockAcross)
		}
	}
}

// BlockAcross blocks, in the results of runs merged (shards), each
// uncovered rule whose cases were lost to a rule that failed in another of
// them (Result.LostTo), as one run of them all would have.
func BlockAcross(results []Result) {
	failed := map[model.RuleID]bool{}
	for _, r := range results {
		if r.Verdict == Failed {
			failed[r.Rule] = true
		}
	}
	for i := range results {
		r := &results[i]
		if r.Verdict == Uncovered && r.LostTo != "" && failed[r.LostTo] {
			r.basis.blocked = &blocking{r.LostTo, r.ExcludedBy[r.LostTo]}
			r.conclude()
		}
	}
}

// notJudged reports whether a rule's cases lost to findings keep it from
// holding: any whose trace broke its own accounting or departed where no
// check looks (the engine went where the suite can't follow), more than
// it was judged on, or the cases that alone kept a coverage label short.
func notJudged(r Result) bool {
	return r.ExcludedBy[properties.P400_1.Rule] > 0 || r.Departed > 0 || r.Excluded+r.Departed > r.Cases || r.lostCover
}

// blocker is the finding that took a rule's cases: 400.1's, then an
// unexplained departure's (""), then the rule whose check took most.
func blocker(r Result) (model.RuleID, int) {
	if n := r.ExcludedBy[properties.P400_1.Rule]; n > 0 {
		return properties.P400_1.Rule, n
	}
	if r.Departed > 0 {
		return "", r.Departed
	}
	var top model.RuleID
	most := 0
	for _, q := range slices.Sorted(maps.Keys(r.ExcludedBy)) {
		if n := r.ExcludedBy[q]; n > most {
			top, most = q, n
		}
	}
	return top, most
}

// unexplainedPrefix begins the class of every unexplained departure.
const unexplainedPrefix = "unexplained-"

// unexplainedClass is the class of an unexplained departure: its aspect
// and the parts that differ, as a key, so that shrinking keeps a
// departure of that kind (after the same kind of action, which
// outcome.same compares). The role of its object is left to shrinking:
// a departure that shows for a permanent of one object shrinks to one,
// whichever permanent the case drawn had, so that one bug is one finding.
func unexplainedClass(d error) string {
	var p *properties.Problem
	if !errors.As(d, &p) {
		return unexplainedPrefix + "departure"
	}
	return unexplainedPrefix + properties.Key(p.Aspect+" "+p.Detail)
}

// departureKey groups the unexplained departures of a run: one finding
// each key, the class of the departure out shows (its aspect and the
// parts that differ) and the kind of action it follows.
func departureKey(out outcome) string {
	return shrinkKey(unexplainedClass(out.departed), out.departed, out.departed, out.want)
}
