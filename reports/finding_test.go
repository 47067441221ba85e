package reports_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/reports"
)

// withFindings is the mutant run with a rule blocked by 730.2d's finding
// and an unexplained departure added (their contents made up).
func withFindings(t *testing.T) *harness.Results {
	t.Helper()
	r := mutantResults(t)
	ce := *r.Results[0].Counterexample
	ce.Rule, ce.Problem, ce.Class = "730.3", "after action 0 (next_turn), the active player: the engine's trace has A, the rules' B", "730.3: unexplained-the-active-player"
	r.Results = append(r.Results, harness.Result{Rule: "730.2e", Verdict: harness.Blocked, BlockedBy: "730.2d", Cases: 10, Excluded: 40,
		ExcludedBy: map[model.RuleID]int{"730.2d": 40}, Why: "40 of its 50 cases were lost to 730.2d's finding: fix that first"})
	r.Unexplained = []harness.Unexplained{{Aspect: "the active player", Cases: map[model.RuleID]int{"730.3": 3, "730.2d": 1}, Counterexample: &ce}}
	return r
}

// TestReports_ShowBlockedRulesAndUnexplainedDepartures: every report
// shows a blocked rule with the finding that blocked it, and an
// unexplained departure as a finding of its own; the JSON reads back the
// same.
func TestReports_ShowBlockedRulesAndUnexplainedDepartures(t *testing.T) {
	r := withFindings(t)

	var js bytes.Buffer
	require.NoError(t, reports.WriteJSON(&js, r))
	d, err := reports.ReadJSON(bytes.NewReader(js.Bytes()))
	require.NoError(t, err)
	back := d.ToResults()
	require.Len(t, back.Unexplained, 1)
	assert.Equal(t, r.Unexplained[0].Aspect, back.Unexplained[0].Aspect)
	assert.Equal(t, r.Unexplained[0].Cases, back.Unexplained[0].Cases)
	assert.Equal(t, model.RuleID("730.3"), back.Unexplained[0].Counterexample.Rule)
	assert.Equal(t, model.RuleID("730.2d"), back.Results[2].BlockedBy)
	assert.Equal(t, harness.Blocked, back.Results[2].Verdict)

	suites, xmlText := readJUnit(t, r)
	assert.Contains(t, xmlText, `type="unexplained"`)
	assert.Equal(t, 2, suites.Failures, "the failed rule and the unexplained departure")

	var md bytes.Buffer
	require.NoError(t, reports.WriteMarkdown(&md, r))
	assert.Contains(t, md.String(), "1 unexplained departure")
	assert.Contains(t, md.String(), "1 case of 730.2d, 3 of 730.3")
	assert.Contains(t, md.String(), "| 730.2e | blocked | 40 of its 50 cases were lost to 730.2d")

	doc := htmlDoc(t, r)
	sec := byID(t, doc, "unexplained-1")
	assert.Contains(t, text(sec), "unexplained departure in the active player")
	rows := find(doc, class("v-blocked"))
	assert.NotEmpty(t, rows, "the blocked rule's row is coloured as blocked")
}

// TestFindings_OneDivergenceIsOneFinding: rules that failed because the
// engine could not play the same kind of action are one finding, whatever
// their minimal scenarios; other failures are grouped by the way their
// traces depart.
func TestFindings_OneDivergenceIsOneFinding(t *testing.T) {
	r := mutantResults(t)
	ce := *r.Results[0].Counterexample
	other := ce
	other.Scenario = &model.Scenario{Name: "another"}
	d1, d2 := ce, other
	d1.Rule, d1.Class = "730.2", "730.2: divergence-cast-mutate"
	d2.Rule, d2.Class = "730.2c", "730.2c: divergence-cast-mutate"
	r.Results = append(r.Results,
		harness.Result{Rule: "730.2", Verdict: harness.Failed, Counterexample: &d1},
		harness.Result{Rule: "730.2c", Verdict: harness.Failed, Counterexample: &d2})
	f := reports.Findings(r)
	require.Len(t, f, 2, "730.2d's failure, and the divergence")
	assert.ElementsMatch(t, []model.RuleID{"730.2", "730.2c"}, f[0].Rules, "the finding that fails the most rules first")
	assert.Equal(t, []model.RuleID{"730.2c"}, reports.SharedWith(f, "730.2", &d1))
}

// TestFindings_OneABug: an engine with four bugs in four mechanics (a
// merge that makes a new object, dies triggers a card, melded cards front
// face up, a token copy that copies status), each shown by the cases of
// several rules in several shrunk scenarios, gives exactly four findings
// at seeds 1 to 5, each under a rule its bug breaks and holding only
// rules its bug breaks or blocks.
func TestFindings_OneABug(t *testing.T) {
	if testing.Short() {
		t.Skip("five whole runs")
	}
	bugs := []string{"merge-new-object", "dies-per-card", "meld-front-faces", "copy-copies-status"}
	e, err := harness.Reference(strings.Join(bugs, "+"))
	require.NoError(t, err)
	for seed := uint64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed})
			require.NoError(t, err)
			found := reports.Findings(res)
			var heads []model.RuleID
			for _, f := range found {
				heads = append(heads, f.Rules[0])
			}
			require.Len(t, found, len(bugs), "one finding a bug: %v", heads)
			seen := map[string]bool{}
			for _, f := range found {
				for _, name := range bugs {
					m := reference.FindMutant(name)
					if slices.Contains(m.Breaks, f.Rules[0]) {
						assert.False(t, seen[name], "%s shows as two findings", name)
						seen[name] = true
						for _, r := range f.Rules {
							assert.Contains(t, slices.Concat(m.Breaks, m.Also), r, "%s's finding holds %s", name, r)
						}
					}
				}
			}
			assert.Len(t, seen, len(bugs), "each bug under a rule it breaks: %v", heads)
			var md bytes.Buffer
			require.NoError(t, reports.WriteMarkdown(&md, res))
			assert.Contains(t, md.String(), "4 bugs failing ")
			assert.Contains(t, md.String(), "\n1. "+string(found[0].Rules[0]), "the Markdown lists the bugs in the order to fix them")
		})
	}
}

// Test730_3_ADiesTriggerACardIsNot730_2ds: an engine whose "whenever a
// creature dies" and "whenever a nontoken creature dies" both trigger
// once per card of a merged creature fails 730.3, and 730.2d (the token
// rule) does not fail, at seeds 1 to 5.
func Test730_3_ADiesTriggerACardIsNot730_2ds(t *testing.T) {
	if testing.Short() {
		t.Skip("five runs")
	}
	e, err := harness.Reference("dies-per-card-both")
	require.NoError(t, err)
	rules := []*properties.Property{properties.P730_2d, properties.P730_3, properties.P712_21}
	for seed := uint64(1); seed <= 5; seed++ {
		res, err := harness.Check(context.Background(), e, rules, &harness.Options{Checks: 100, Seed: seed})
		require.NoError(t, err)
		verdicts := map[model.RuleID]harness.Verdict{}
		for _, r := range res.Results {
			verdicts[r.Rule] = r.Verdict
		}
		assert.Equal(t, harness.Failed, verdicts["730.3"], "seed %d", seed)
		assert.NotEqual(t, harness.Failed, verdicts["730.2d"], "seed %d", seed)
	}
}
