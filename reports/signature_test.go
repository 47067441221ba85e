package reports_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
)

// A bug of a test engine with several: a mutant of the reference, and the
// kind of action after which it shows (a mutant that gets two actions
// wrong is two bugs of the engine, as a vendor fixes two pieces of code).
type plantedBug struct {
	mutant string
	action model.ActionType
}

// shows reports whether the finding is this bug's: its shown case, played
// by the mutant alone, fails the finding's first rule after the bug's
// action with the finding's signature.
func (b plantedBug) shows(t *testing.T, r *harness.Results, f *reports.Finding) bool {
	t.Helper()
	alone, err := harness.Reference(b.mutant)
	require.NoError(t, err)
	ce := f.Cases[0]
	if f.Signature.Action != "" && f.Signature.Action != b.action {
		return false
	}
	tr, err := harness.Play(context.Background(), alone, ce.Scenario)
	require.NoError(t, err)
	p := properties.Find(properties.All, ce.Rule)
	require.NotNil(t, p, "rule %s", ce.Rule)
	j := harness.Judge(p, harness.Judging{Info: r.Engine, Explain: properties.All}, tr)
	if f.Unexplained != nil {
		return j.Outcome == harness.CaseDeparted
	}
	return j.Outcome == harness.CaseFailed
}

// Test730_2_EachBugAtOneActionKindIsItsOwnFinding: engines with two to
// four bugs in different mechanics whose failing cases depart at the same
// kind of action (turning a merged permanent face up or face down turns
// only its topmost component; transforming it turns only its first
// double-faced component; a face-up merged permanent with a double-faced
// component is turned face down; a merged permanent leaving the
// battlefield triggers "dies" per card, puts its cards in component
// order, escapes a replacement effect on cards with its tokens, or does
// not reveal its face-down cards) get one finding per bug at seeds 1 to
// 5: each
// finding's shown case is that bug's alone, and no bug is two findings.
func Test730_2_EachBugAtOneActionKindIsItsOwnFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs at five seeds")
	}
	engines := [][]plantedBug{
		{{"turn-top-only", model.TurnFaceUp}, {"turn-top-only", model.TurnFaceDown}, {"transform-top-only", model.Transform}, {"dfc-merged-turns-face-down", model.TurnFaceDown}},
		{{"dies-per-card", model.Move}, {"ignore-order", model.Move}, {"card-replacement-skips-tokens", model.Move}, {"no-reveal", model.Move}},
		{{"transform-top-only", model.Transform}, {"meld-card-transforms", model.Transform}},
	}
	for _, bugs := range engines {
		var names []string
		for _, b := range bugs {
			if !slices.Contains(names, b.mutant) {
				names = append(names, b.mutant)
			}
		}
		e, err := harness.Reference(strings.Join(names, "+"))
		require.NoError(t, err)
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", strings.Join(names, "+"), seed), func(t *testing.T) {
				r, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed})
				require.NoError(t, err)
				found := reports.Unexpected(reports.Findings(r))
				owner := map[int]int{} // bug -> finding
				for k := range found {
					f := &found[k]
					var whose []int
					for i, b := range bugs {
						if b.shows(t, r, f) {
							whose = append(whose, i)
						}
					}
					if !assert.Len(t, whose, 1, "finding %q (%v) is one bug's: %v", f.Headline(), f.Rules, f.Bug) {
						continue
					}
					if k0, twice := owner[whose[0]]; twice {
						// One bug's own rules: a consequence it breaks too
						// under another rule's check is another class.
						assert.NotEqual(t, found[k0].Signature.Class, f.Signature.Class, "%v is one finding, not two", bugs[whose[0]])
					}
					owner[whose[0]] = k
					for _, ce := range f.Cases {
						assert.Equal(t, f.Signature, ce.Signature(r.Engine), "every case of a finding has its signature")
					}
					assert.Equal(t, f.Cases[0].Problem, f.Problems[0], "the headline is the shown case's")
				}
				for i, b := range bugs {
					_, ok := owner[i]
					assert.True(t, ok, "%v has a finding of its own", b)
				}
				issuesReplayTheirBugs(t, e, r, found, seed == 1)
			})
		}
	}
}

// Test730_3_OneBugUnderSeveralRulesIsOneFinding: an engine whose one bug
// fails several rules (a merged or melded permanent's "dies" triggers
// once per card, under 730.3 and 712.21; its cards go to a graveyard in
// component order, under 730.3a and 712.21a; a merge makes a new object,
// under 730.2 and 730.2c, whether a merge or a resolving mutating spell
// made it) gets one finding holding them all, at seeds 1 to 5.
func Test730_3_OneBugUnderSeveralRulesIsOneFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs at five seeds")
	}
	for _, c := range []struct {
		mutant string
		rules  []model.RuleID
	}{
		{"dies-per-card", []model.RuleID{"730.3", "712.21"}},
		{"ignore-order", []model.RuleID{"730.3a", "712.21a"}},
		{"merge-new-object", []model.RuleID{"730.2", "730.2c"}},
	} {
		e, err := harness.Reference(c.mutant)
		require.NoError(t, err)
		for seed := uint64(1); seed <= 5; seed++ {
			r, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed})
			require.NoError(t, err)
			found := reports.Findings(r)
			if assert.Len(t, found, 1, "%s at seed %d: one finding", c.mutant, seed) {
				assert.ElementsMatch(t, c.rules, found[0].Rules, "%s at seed %d", c.mutant, seed)
			}
		}
	}
}

// unnamedBugs is the reference engine with two bugs no rule's check
// names: adding counters adds one more than asked, and a pump gives one
// more power than asked.
type unnamedBugs struct{ harness.Engine }

func (e unnamedBugs) Info() harness.EngineInfo {
	info := e.Engine.Info()
	info.Name = "test:unnamed-bugs"
	return info
}

func (e unnamedBugs) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	c := *s
	c.Actions = slices.Clone(s.Actions)
	for i := range c.Actions {
		switch a := &c.Actions[i]; a.Type {
		case model.AddCounters:
			a.N++
		case model.Pump:
			a.Power++
		}
	}
	return e.Engine.Run(ctx, &c)
}

// TestUnexplained_TwoBugsNoCheckNamesAreTwoFindings: an engine with two
// bugs that no rule's check names (counters, a pump's power) gets two
// findings, each an unexplained departure with its own shrunk scenario
// and its own bug report, at seeds 1 to 3.
func TestUnexplained_TwoBugsNoCheckNamesAreTwoFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("whole runs")
	}
	ref, err := harness.Reference("")
	require.NoError(t, err)
	e := unnamedBugs{ref}
	for seed := uint64(1); seed <= 3; seed++ {
		r, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: seed})
		require.NoError(t, err)
		found := reports.Findings(r)
		var actions []model.ActionType
		for _, f := range found {
			assert.NotNil(t, f.Unexplained, "seed %d: %v %s is no rule's failure", seed, f.Rules, f.Headline())
			actions = append(actions, f.Signature.Action)
			assert.Equal(t, f.Signature.Action, f.Cases[0].Scenario.Actions[len(f.Cases[0].Scenario.Actions)-1].Type, "seed %d: its scenario ends with the action that departs", seed)
		}
		assert.ElementsMatch(t, []model.ActionType{model.AddCounters, model.Pump}, actions, "seed %d: one finding a bug", seed)
		issues, err := reports.Issues(r, "")
		require.NoError(t, err)
		assert.Len(t, issues, len(found), "seed %d: a bug report a finding", seed)
		names := map[string]bool{}
		for _, is := range issues {
			names[is.Name] = true
			assert.Contains(t, is.Markdown, "Either the engine or mergecheck's reference is wrong here")
		}
		assert.Len(t, names, len(issues), "each report its own file")
	}
}

// vendorEngine is a mutant under a vendor's engine name, the same from
// night to night whichever bugs it has, as matrix --history reads nights.
type vendorEngine struct{ harness.Engine }

func (e vendorEngine) Info() harness.EngineInfo {
	info := e.Engine.Info()
	info.Name = "vendor-engine"
	return info
}

// TestBaseline_ABugStillThereIsNeverGone: the nightly flow over three
// nights with a baseline. The first night has two bugs and makes the
// baseline; the second, run with it, has both still: diff says each is
// still there (expected), and matrix --history says their rules still
// fail; the third has one fixed: diff says that one is gone, the other
// still there (expected), and the matrix agrees.
func TestBaseline_ABugStillThereIsNeverGone(t *testing.T) {
	if testing.Short() {
		t.Skip("three runs")
	}
	rules := []*properties.Property{properties.P730_2i, properties.P730_3, properties.P712_21, properties.P730_2d}
	run := func(mutant string, seed uint64, b *reports.Baseline) *harness.Results {
		e, err := harness.Reference(mutant)
		require.NoError(t, err)
		r, err := harness.Check(context.Background(), vendorEngine{e}, rules, &harness.Options{Checks: 100, Seed: seed})
		require.NoError(t, err)
		if b != nil {
			r, _ = b.Apply(r, "baseline.json", time.Now())
		}
		return r
	}
	night1 := run("dies-per-card+transform-top-only", 1, nil)
	b := reports.NewBaseline(night1, "known")
	night2 := run("dies-per-card+transform-top-only", 2, b)
	night3 := run("dies-per-card", 3, b)
	states := func(old, new *harness.Results) map[string]string {
		d := reports.Compare(old, new)
		out := map[string]string{}
		for _, f := range d.Findings {
			out[string(f.Rules[0])] = f.State
		}
		return out
	}
	assert.Equal(t, map[string]string{"730.3": reports.FindingStillExpected, "730.2i": reports.FindingStillExpected}, states(night1, night2))
	assert.Equal(t, map[string]string{"730.3": reports.FindingStillExpected, "730.2i": reports.FindingGone}, states(night2, night3))

	m, err := reports.BuildMatrix(true, night1, night2, night3)
	require.NoError(t, err)
	verdict := map[model.RuleID]harness.Verdict{}
	for _, sec := range m.Sections {
		for _, row := range sec.Rows {
			verdict[row.Rule] = row.Cells[0].Verdict
		}
	}
	assert.Equal(t, harness.Failed, verdict["730.3"], "the matrix says the bug still there still fails")
	assert.Equal(t, harness.Held, verdict["730.2i"], "and the bug gone holds")
}

// issuesReplayTheirBugs checks report --issues of a run: a bug report a
// finding, each in a file of its own, whose attached scenario played on
// the engine shows that finding's signature, and, with again, whose run
// command shows it too.
func issuesReplayTheirBugs(t *testing.T, e harness.Engine, r *harness.Results, found []reports.Finding, again bool) {
	t.Helper()
	issues, err := reports.Issues(r, r.Engine.Name)
	require.NoError(t, err)
	require.Len(t, issues, len(found), "a bug report a finding")
	names := map[string]bool{}
	for k, is := range issues {
		f := &found[k]
		assert.False(t, names[is.Name], "%s: a file of its own", is.Name)
		names[is.Name] = true
		s, err := model.DecodeScenario(is.Scenario)
		require.NoError(t, err, is.Name)
		tr, err := harness.Play(context.Background(), e, s)
		require.NoError(t, err, is.Name)
		rule := f.Cases[0].Rule
		j := harness.Judge(properties.Find(properties.All, rule), harness.Judging{Info: r.Engine, Explain: properties.All}, tr)
		if assert.Equal(t, harness.CaseFailed, j.Outcome, "%s: its scenario fails %s", is.Name, rule) {
			ce := &harness.Counterexample{Rule: rule, Problem: j.Problem.Error(), Class: string(rule) + ": " + properties.ClassOf(j.Problem), Scenario: s, Got: tr.Engine, Want: tr.Rules}
			assert.Equal(t, f.Signature, ce.Signature(r.Engine), "%s: its scenario shows its bug", is.Name)
		}
		if !again {
			continue
		}
		// The run command of the report: the finding's rules (and the
		// rules whose cases showed it), at the run's seed.
		var props []*properties.Property
		for _, rule := range f.Rules {
			props = append(props, properties.Find(properties.All, rule))
		}
		for _, res := range r.Results {
			if slices.Contains(f.Rules, res.Rule) && res.Lead != nil && res.FromLead && !slices.ContainsFunc(props, func(p *properties.Property) bool { return p.Rule == res.Lead.Rule }) {
				props = append(props, properties.Find(properties.All, res.Lead.Rule))
			}
		}
		slices.SortFunc(props, func(a, b *properties.Property) int {
			return slices.Index(properties.All, a) - slices.Index(properties.All, b)
		})
		rerun, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: r.Options.Checks, Seed: r.Seed})
		require.NoError(t, err)
		var keys []string
		for _, g := range reports.Findings(rerun) {
			keys = append(keys, g.FindingKey())
		}
		assert.Contains(t, keys, f.FindingKey(), "%s: its run command shows it again", is.Name)
	}
}
