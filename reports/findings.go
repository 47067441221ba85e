package reports

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
)

// A Finding is one bug of the engine as the reports show it: the rules
// whose counterexamples are one and the same minimal scenario, or the
// same divergence (the engine could not play an action of one type the
// rules allow). One bug that breaks several rules shrinks, under each, to
// the same canonical scenario, so the reports group them and it reads as
// one finding.
type Finding struct {
	Rules    []model.RuleID
	Problems []string // each rule's problem, in the order of Rules
	Scenario *model.Scenario
	key      string
}

// Findings groups a run's counterexamples (each failed rule's first and
// others) by their minimal scenario, in the order of the rules.
func Findings(r *harness.Results) []Finding {
	var out []Finding
	index := map[string]int{}
	add := func(rule model.RuleID, ce *harness.Counterexample) {
		if ce == nil || ce.Scenario == nil {
			return
		}
		key := findingKey(ce)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Finding{Scenario: ce.Scenario, key: key})
		}
		f := &out[i]
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
	return out
}

// SharedWith returns the other rules whose counterexample is the same
// minimal scenario as ce, by finding.
func SharedWith(findings []Finding, rule model.RuleID, ce *harness.Counterexample) []model.RuleID {
	if ce == nil || ce.Scenario == nil {
		return nil
	}
	key := findingKey(ce)
	for _, f := range findings {
		if f.key == key {
			return slices.DeleteFunc(slices.Clone(f.Rules), func(r model.RuleID) bool { return r == rule })
		}
	}
	return nil
}

// findingKey identifies a counterexample's finding: its divergence, or
// its minimal scenario.
func findingKey(ce *harness.Counterexample) string {
	if _, class, ok := strings.Cut(ce.Class, ": "); ok && strings.HasPrefix(class, "divergence-") {
		return class
	}
	return scenarioKey(ce.Scenario)
}

// scenarioKey identifies a scenario by its content, leaving out its name
// (a counterexample is named for its rule).
func scenarioKey(s *model.Scenario) string {
	c := *s
	c.Name = ""
	b, _ := json.Marshal(&c)
	return string(b)
}
