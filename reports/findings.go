package reports

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
)

// A Finding is one bug of the engine as the reports show it: every failed
// rule whose counterexample departs from the rules' trace in the same way
// (properties.Bug: the same aspect, the same parts, the same role of
// object), whichever scenario showed it, or that met the same divergence
// (the engine could not play an action of one type the rules allow). A
// counterexample whose traces can't be compared is a finding of its own
// minimal scenario.
type Finding struct {
	// Rules are the rules it fails, the one it breaks first: the rule
	// whose own check found it in its own cases, in the smallest
	// scenario.
	Rules []model.RuleID
	// Problems are each rule's problem, in the order of Rules.
	Problems []string
	// Cases are every counterexample that showed it, smallest first;
	// Scenario is the smallest's.
	Cases    []*harness.Counterexample
	Scenario *model.Scenario
	// Bug says in words how the engine departs ("" where its traces
	// can't be compared).
	Bug string
	// Blocks are the rules whose cases it took: judged once it is fixed.
	Blocks []model.RuleID
	key    string
}

// Findings groups a run's counterexamples (each failed rule's first and
// others; failures the baseline expects are left out) into bugs, in the
// order to fix them: those that block other rules first, then those that
// fail the most rules, then by their first rule.
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
		key, words := findingKey(r.Engine, ce)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Finding{key: key, Bug: words})
		}
		f := &out[i]
		f.Cases = append(f.Cases, ce)
		if !slices.Contains(f.Rules, rule) {
			f.Rules = append(f.Rules, rule)
			f.Problems = append(f.Problems, ce.Problem)
		}
	}
	for _, res := range r.Results {
		if res.Verdict != harness.Failed || res.Expected {
			continue
		}
		add(res.Rule, res.Counterexample)
		for i := range res.Others {
			add(res.Rule, &res.Others[i])
		}
	}
	for i := range out {
		f := &out[i]
		slices.SortStableFunc(f.Cases, func(a, b *harness.Counterexample) int { return cmp.Compare(caseSize(a), caseSize(b)) })
		f.Scenario = f.Cases[0].Scenario
		// The rule it breaks first: found by its own check, in its own
		// cases, in the smallest scenario; then in the rules' order.
		rank := func(rule model.RuleID) (int, int, int) {
			res := byRule[rule]
			ce := res.Counterexample
			other := 0
			if ce.Found != "" && ce.Found != rule {
				other = 2
			}
			if res.FromLead {
				other++
			}
			return other, caseSize(ce), order[rule]
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
		f.Rules, f.Problems = rules, problems
		for _, res := range r.Results {
			if res.Verdict == harness.Blocked && slices.Contains(f.Rules, res.BlockedBy) {
				f.Blocks = append(f.Blocks, res.Rule)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(len(b.Blocks), len(a.Blocks)), cmp.Compare(len(b.Rules), len(a.Rules)), cmp.Compare(order[a.Rules[0]], order[b.Rules[0]]))
	})
	return out
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

// findingKey identifies a counterexample's finding, and says its bug in
// words: its divergence, the way its traces depart (properties.Bug), or
// its minimal scenario.
func findingKey(e harness.EngineInfo, ce *harness.Counterexample) (key, words string) {
	if _, class, ok := strings.Cut(ce.Class, ": "); ok && strings.HasPrefix(class, "divergence-") {
		return class, "the engine could not play a " + strings.TrimPrefix(class, "divergence-") + " action the rules play"
	}
	if b, _, ok := ce.Bug(e); ok {
		return "bug " + b.Key(), b.Words()
	}
	return scenarioKey(ce.Scenario), ""
}

// scenarioKey identifies a scenario by its content, leaving out its name
// (a counterexample is named for its rule).
func scenarioKey(s *model.Scenario) string {
	c := *s
	c.Name = ""
	b, _ := json.Marshal(&c)
	return string(b)
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
