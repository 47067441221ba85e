package reports

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// A Finding is one bug of the engine as the reports show it: every
// failure whose counterexample has one signature (properties.Signature:
// the class of problem its check found, the kind of action it follows,
// and where the engine's trace first departs, with its object named by
// role), whichever rules and scenarios showed it. Two failures with
// different signatures are two findings, even in one scenario. A
// departure from the rules that no check names (harness.Unexplained) is
// a finding too, of its own signature, failing no rule.
type Finding struct {
	// Rules are the rules it fails, the one it breaks first: the rule
	// whose own check found it in its own cases, in the smallest
	// scenario. An unexplained departure fails none.
	Rules []model.RuleID
	// Problems are each rule's problem, in the order of Rules.
	Problems []string
	// Cases are every counterexample that showed it, the one shown
	// first: the smallest of its first rule's (for an unexplained
	// departure, its shrunk case). Scenario is that one's.
	Cases    []*harness.Counterexample
	Scenario *model.Scenario
	// Signature is what is wrong, and Bug says it in words.
	Signature properties.Signature
	Bug       string
	// Blocks are the rules whose cases it took: judged once it is fixed.
	Blocks []model.RuleID
	// Unexplained is set on a departure no rule's check names: how many
	// cases of each rule showed it.
	Unexplained *harness.Unexplained
	// Expected is set when a baseline expects every rule it fails: a
	// known bug, still there.
	Expected bool
	key      string
}

// Headline is the finding's problem on one line: that of the case shown,
// whose scenario shows it.
func (f *Finding) Headline() string {
	if f.Unexplained != nil {
		return oneLine(failure.Unexplained(f.Unexplained))
	}
	return oneLine(f.Cases[0].Problem)
}

// Findings groups a run's failures into bugs by signature: each failed
// rule's counterexamples (its first and others), and each unexplained
// departure. They come in the order to fix them: those that block the
// most other rules first, then those that fail the most rules, then by
// the first rule (an unexplained departure by the rule whose case showed
// it); the failures a baseline expects come last, marked Expected.
func Findings(r *harness.Results) []Finding {
	var out []Finding
	index := map[string]int{}
	order := map[model.RuleID]int{}
	byRule := map[model.RuleID]harness.Result{}
	for i, res := range r.Results {
		order[res.Rule] = i
		byRule[res.Rule] = res
	}
	add := func(rule model.RuleID, ce *harness.Counterexample) {
		if ce == nil || ce.Scenario == nil {
			return
		}
		sig := ce.Signature(r.Engine)
		key := sig.Key()
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Finding{key: key, Signature: sig, Bug: sig.Words(), Expected: true})
		}
		f := &out[i]
		f.Cases = append(f.Cases, ce)
		f.Expected = f.Expected && byRule[rule].Expected
		if !slices.Contains(f.Rules, rule) {
			f.Rules = append(f.Rules, rule)
			f.Problems = append(f.Problems, ce.Problem)
		}
	}
	for _, res := range r.Results {
		if res.Verdict != harness.Failed {
			continue
		}
		add(res.Rule, res.Counterexample)
		for i := range res.Others {
			add(res.Rule, &res.Others[i])
		}
	}
	for i := range out {
		f := &out[i]
		// The rule it breaks first: found by its own check, in its own
		// cases, in the smallest scenario; then in the rules' order.
		rank := func(rule model.RuleID) (int, int, int) {
			res := byRule[rule]
			other := 0
			if ce := casesOf(f, rule)[0]; ce.Found != "" && ce.Found != rule {
				other = 2
			}
			if res.FromLead {
				other++
			}
			return other, caseSize(casesOf(f, rule)[0]), order[rule]
		}
		idx := make([]int, len(f.Rules))
		for k := range idx {
			idx[k] = k
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			oa, sa, pa := rank(f.Rules[a])
			ob, sb, pb := rank(f.Rules[b])
			return cmp.Or(cmp.Compare(oa, ob), cmp.Compare(sa, sb), cmp.Compare(pa, pb))
		})
		rules, problems := make([]model.RuleID, len(idx)), make([]string, len(idx))
		for k, j := range idx {
			rules[k], problems[k] = f.Rules[j], f.Problems[j]
		}
		f.Rules = rules
		// The case shown is the first rule's smallest, so that the
		// headline, the scenario and the command that plays it again
		// are all one failure's.
		first := casesOf(f, f.Rules[0])[0]
		slices.SortStableFunc(f.Cases, func(a, b *harness.Counterexample) int {
			return cmp.Or(cmp.Compare(rankOf(a != first), rankOf(b != first)), cmp.Compare(caseSize(a), caseSize(b)))
		})
		f.Scenario = f.Cases[0].Scenario
		problems[0] = f.Cases[0].Problem
		f.Problems = problems
		for _, res := range r.Results {
			if res.Verdict == harness.Blocked && res.BlockedBy != "" && slices.Contains(f.Rules, res.BlockedBy) {
				f.Blocks = append(f.Blocks, res.Rule)
			}
		}
	}
	failed := len(out)
	for i := range r.Unexplained {
		u := &r.Unexplained[i]
		if u.Counterexample == nil || u.Counterexample.Scenario == nil {
			continue
		}
		sig := u.Counterexample.Signature(r.Engine)
		if k, ok := index[sig.Key()]; ok && k >= failed {
			// Two groups of departures shrunk to one signature: one
			// finding, with the cases of both.
			f := &out[k]
			merged := *f.Unexplained
			merged.Cases = maps.Clone(merged.Cases)
			for rule, n := range u.Cases {
				merged.Cases[rule] += n
			}
			f.Unexplained = &merged
			f.Cases = append(f.Cases, u.Counterexample)
			continue
		}
		index[sig.Key()] = len(out)
		out = append(out, Finding{key: sig.Key(), Signature: sig, Bug: sig.Words(), Cases: []*harness.Counterexample{u.Counterexample},
			Scenario: u.Counterexample.Scenario, Unexplained: u})
	}
	// A rule blocked by an unexplained departure is blocked by the one
	// that took most of its cases.
	for _, res := range r.Results {
		if res.Verdict != harness.Blocked || res.BlockedBy != "" {
			continue
		}
		best, most := -1, 0
		for k := failed; k < len(out); k++ {
			if n := out[k].Unexplained.Cases[res.Rule]; n > most {
				best, most = k, n
			}
		}
		if best < 0 && len(out) > failed {
			best = failed
		}
		if best >= 0 {
			out[best].Blocks = append(out[best].Blocks, res.Rule)
		}
	}
	lead := func(f Finding) int {
		if len(f.Rules) > 0 {
			return order[f.Rules[0]]
		}
		return order[f.Cases[0].Rule]
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(rankOf(a.Expected), rankOf(b.Expected)), cmp.Compare(len(b.Blocks), len(a.Blocks)),
			cmp.Compare(len(b.Rules), len(a.Rules)), cmp.Compare(lead(a), lead(b)))
	})
	return out
}

// Unexpected is findings without those a baseline expects.
func Unexpected(findings []Finding) []Finding {
	return slices.DeleteFunc(slices.Clone(findings), func(f Finding) bool { return f.Expected })
}

// casesOf are the finding's counterexamples of rule, smallest first.
func casesOf(f *Finding, rule model.RuleID) []*harness.Counterexample {
	var out []*harness.Counterexample
	for _, ce := range f.Cases {
		if ce.Rule == rule {
			out = append(out, ce)
		}
	}
	slices.SortStableFunc(out, func(a, b *harness.Counterexample) int { return cmp.Compare(caseSize(a), caseSize(b)) })
	return out
}

// rankOf orders false before true.
func rankOf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// caseSize is a counterexample's components and actions together.
func caseSize(ce *harness.Counterexample) int {
	if ce == nil || ce.Scenario == nil {
		return 0
	}
	n, m := ce.Size()
	return n + m
}

// SharedWith returns the other rules of the finding that ce shows.
func SharedWith(findings []Finding, rule model.RuleID, ce *harness.Counterexample) []model.RuleID {
	if f := FindingOf(findings, ce); f != nil {
		return slices.DeleteFunc(slices.Clone(f.Rules), func(r model.RuleID) bool { return r == rule })
	}
	return nil
}

// FindingOf returns the finding a counterexample is one of, or nil.
func FindingOf(findings []Finding, ce *harness.Counterexample) *Finding {
	for i := range findings {
		if slices.Contains(findings[i].Cases, ce) {
			return &findings[i]
		}
	}
	return nil
}

// Headline shortens a finding's problem to fit in width characters, in
// words: the problem itself if it fits; else where it happened with why it
// breaks the rule (a problem reads "where, what: why"); else where with
// the bug; else that, cut between words.
func Headline(problem, bug string, width int) string {
	if len(problem) <= width {
		return problem
	}
	where, _, _ := strings.Cut(problem, ", ")
	why := problem
	if i := strings.LastIndex(problem, ": "); i >= 0 {
		why = problem[i+2:]
	}
	for _, h := range []string{where + ": " + why, where + ": " + bug} {
		if len(h) <= width && !strings.HasSuffix(h, ": ") {
			return h
		}
	}
	h := where + ": " + why
	for len(h) > width-4 {
		i := strings.LastIndex(h[:width-4], " ")
		if i <= 0 {
			return h[:width-4] + " ..."
		}
		h = h[:i]
	}
	return h + " ..."
}
