package harness

import (
	"context"
	"maps"
	"slices"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// This file is what a run does once every rule's search is done: it
// blames each departure on the rule whose check names it (follow), makes
// the departures no check names findings of their own (unexplain), and
// tells the rules a finding kept from being judged (block).

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

// leadsTried is how many other rules' cases follow plays again as one
// rule's before it gives up: an engine that answers a case differently
// the second time gets a few chances, not one per rule.
const leadsTried = 3

// follow judges again, as a case of the rule its check named and on the
// traces it had, each case of another rule whose departure from the
// rules' trace that check named (a lead), for every rule whose own cases
// did not fail it: the case is that rule's failure, wherever it was
// drawn, and is shrunk as one (within the rule's share of the call
// budget). Leads are taken in rule
// order, so the outcome does not depend on how workers were scheduled.
func follow(ctx context.Context, selected []*properties.Property, judges map[model.RuleID]*judge, results []*Result, engines []Engine) {
	type lead struct {
		from model.RuleID
		lc   leadCase
	}
	var todo []int
	leads := map[int][]lead{}
	for i, q := range selected {
		r := results[i]
		if r == nil || r.Verdict == Failed || r.Verdict == Fault || r.Verdict == Interrupted || r.Verdict == Internal || judges[q.Rule].broken() {
			continue
		}
		if ok, _ := applicable(judges[q.Rule].info, q); !ok {
			continue
		}
		for _, p := range selected {
			if lc, ok := judges[p.Rule].leads[q.Rule]; ok && p != q && len(leads[i]) < leadsTried {
				leads[i] = append(leads[i], lead{p.Rule, lc})
			}
		}
		if len(leads[i]) > 0 {
			todo = append(todo, i)
		}
	}
	// Even when the run is stopped: judging a lead costs no engine call,
	// and a failure found is kept, shrunk as far as there is time.
	onWorkers(engines, len(todo), func() bool { return true }, func(e Engine, k int) {
		i := todo[k]
		j := judges[selected[i].Rule]
		j.guard(func() {
			for _, l := range leads[i] {
				if followLead(ctx, e, j, results[i], l.from, l.lc) {
					return
				}
			}
		})
	})
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
func (l aLead) played() *model.Scenario {
	if l.lc.out.played != nil {
		return l.lc.out.played
	}
	return l.lc.s
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

// followLead judges a case of rule from as one of j's rule, on the
// traces it had, and if that rule's check fails it, makes it the rule's
// counterexample, shrunk. It reports whether it did.
func followLead(ctx context.Context, e Engine, j *judge, r *Result, from model.RuleID, lc leadCase) bool {
	done := j.resume(ctx, e, r)
	defer done()
	played := lc.s
	if lc.out.played != nil {
		played = lc.out.played
	}
	out := j.judgeTraces(played, lc.out.got, lc.out.want, lc.out.diverged)
	if out.problem == nil {
		return false
	}
	out.key, out.played, out.call = lc.out.key, lc.out.played, lc.out.call
	j.remember(out)
	j.shrinking = true
	ce := j.counterexample(&failing{lc.s, out})
	r.Counterexample, r.ShrunkAtCall = ce, j.calls
	r.Lead, r.FromLead = &Lead{Rule: from, Call: lc.out.call}, true
	r.basis.followed = from
	r.conclude()
	if j.o.OnShrunk != nil {
		j.o.OnShrunk(j.p.Rule)
	}
	return true
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

// unexplain makes each aspect of the trace in which the engine departed
// from the rules' where no rule's check looks one finding: the cases of
// each rule that showed it, and the first of them, taken in rule order,
// shrunk keeping a departure in that aspect (within that rule's share of
// the call budget).
func unexplain(ctx context.Context, selected []*properties.Property, judges map[model.RuleID]*judge, results []*Result, engines []Engine) []Unexplained {
	var out []Unexplained
	index := map[string]int{}    // aspect -> index in out
	shrinker := map[string]int{} // aspect -> index in selected of the rule whose case is shrunk
	for i, p := range selected {
		j := judges[p.Rule]
		for _, aspect := range slices.Sorted(maps.Keys(j.departures)) {
			k, ok := index[aspect]
			if !ok {
				k, index[aspect], shrinker[aspect] = len(out), len(out), i
				out = append(out, Unexplained{Aspect: aspect, Cases: map[model.RuleID]int{}})
			}
			out[k].Cases[p.Rule] += j.departures[aspect].n
		}
	}
	// One worker per rule whose cases are shrunk, so that no judge plays
	// on two workers at once.
	var rules []int
	for _, i := range shrinker {
		if !slices.Contains(rules, i) {
			rules = append(rules, i)
		}
	}
	slices.Sort(rules)
	onWorkers(engines, len(rules), func() bool { return true }, func(e Engine, k int) {
		i := rules[k]
		j := judges[selected[i].Rule]
		done := j.resume(ctx, e, results[i])
		defer done()
		for u := range out {
			if shrinker[out[u].Aspect] == i {
				first := j.departures[out[u].Aspect].first
				j.guard(func() { out[u].Counterexample = j.unexplained(first) })
				if out[u].Counterexample == nil {
					// Shrinking it broke (the rule's internal error):
					// the departure is kept as it was drawn.
					out[u].Counterexample = j.departedAsDrawn(first, false)
				}
			}
		}
	})
	return out
}

// unexplained shrinks a case whose trace departed from the rules' where
// no rule's check looks, keeping a departure in the same aspect, and
// reports it. A departure the engine does not repeat is reported as it
// was drawn, intermittent.
func (j *judge) unexplained(f *failing) *Counterexample {
	j.hunting = true
	defer func() { j.hunting = false }()
	out := j.play(f.s)
	if out.problem != nil && out.class == string(j.p.Rule)+": "+unexplainedClass(f.out.departed) {
		j.remember(out)
		j.shrinking = true
		return j.counterexample(&failing{f.s, out})
	}
	return j.departedAsDrawn(f, !out.stopped)
}

// departedAsDrawn reports a case whose trace departed from the rules'
// where no rule's check looks as it was drawn, unshrunk.
func (j *judge) departedAsDrawn(f *failing, intermittent bool) *Counterexample {
	s := f.s
	if f.out.played != nil {
		s = f.out.played
	}
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

// unexplainedClass is the class of an unexplained departure: its aspect
// as a key, so that shrinking keeps a departure in that aspect.
func unexplainedClass(d error) string {
	return "unexplained-" + properties.Key(properties.AspectOf(d))
}
