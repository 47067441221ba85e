package harness_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// hostDies is Chittering Host (melded from Midnight Scavengers and Graf
// Rats) dying: the rules' trace cites 712.21 for one creature dying.
func hostDies() *model.Scenario {
	bd := build.New("712.21-host-dies", "Chittering Host dies.", "712.21")
	bd.Card("c1", build.A, "Midnight Scavengers")
	bd.Card("c2", build.A, "Graf Rats")
	bd.Perm("p1", build.A, build.BackUp("c1"), build.BackUp("c2"))
	return bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Order: []model.ObjectID{"c2", "c1"}}}).Scenario()
}

// wallAttacks is Wall of Omens declared an attacker, which 702.3b forbids.
func wallAttacks() *model.Scenario {
	bd := build.New("702.3b-wall-attacks", "Wall of Omens attacks.", "702.3b")
	bd.Card("c1", build.A, "Wall of Omens")
	return bd.Perm("p1", build.A, build.Up("c1")).Do(model.Action{Type: model.Attack, Object: "p1"}).Scenario()
}

// played is s as the reference plays it and as the engine named by
// mutant ("" for the reference) plays it: plain values for Judge.
func played(t *testing.T, s *model.Scenario, mutant string) harness.Traces {
	t.Helper()
	want, err := reference.Run(s)
	require.NoError(t, err)
	e, err := harness.Reference(mutant)
	require.NoError(t, err)
	got, err := e.Run(context.Background(), s)
	require.NoError(t, err)
	return harness.Traces{Scenario: s, Engine: got, Rules: want}
}

// diverging is t with the engine stopping at action i, the steps before
// it played as the rules play them.
func diverging(t harness.Traces, i int) harness.Traces {
	got := *t.Rules
	got.Steps = got.Steps[:min(i, len(got.Steps))]
	t.Engine, t.Divergence = &got, &engine.Divergence{Action: i, Reason: "not in this engine", Trace: &got}
	return t
}

// unaccounted is t with the engine's trace missing its last step: a trace
// that breaks its own accounting (400.1).
func unaccounted(t harness.Traces) harness.Traces {
	got := *t.Rules
	got.Steps = got.Steps[:len(got.Steps)-1]
	t.Engine = &got
	return t
}

// panicking is a property whose check breaks on every trace, the rules'
// too: a bug of the check's.
var panicking = &properties.Property{Rule: "999.9", Check: func(*properties.Case) error { panic("a broken check") }}

// engineOnly is a property whose check breaks on any trace but the rules'
// own.
var engineOnly = &properties.Property{Rule: "999.8", Check: func(c *properties.Case) error {
	if c.Trace != c.Reference {
		panic("not the rules' trace")
	}
	return nil
}}

// Test400_1_JudgeIsAFunctionOfItsValues: Judge, given a property, what
// the engine declares, and the two traces of a scenario, says what the
// case is, for every kind of outcome: held, failed by the rule's own
// check, by 400.1's or at a divergence in play; set aside as another
// rule's finding (a departure its check names, 400.1 judged beside, a
// divergence another rule is in play at); an unexplained departure; and
// a check that broke, its own or one asked to explain.
func Test400_1_JudgeIsAFunctionOfItsValues(t *testing.T) {
	all := harness.EngineInfo{Name: "values", Features: model.Features}
	dies := played(t, hostDies(), "")
	perCard := played(t, hostDies(), "dies-per-card")
	wall := played(t, wallAttacks(), "")
	explain := []*properties.Property{properties.P730_2a, properties.P712_21}
	for _, tt := range []struct {
		name     string
		p        *properties.Property
		by       harness.Judging
		t        harness.Traces
		want     harness.CaseOutcome
		rule     model.RuleID
		problem  string // a part of the problem's text
		internal []model.RuleID
	}{
		{name: "the rules' own trace holds", p: properties.P712_21, t: dies, want: harness.CaseHeld},
		{name: "the rule's check fails", p: properties.P712_21, t: perCard, want: harness.CaseFailed, rule: "712.21", problem: `"creature_dies"`},
		{name: "a departure another rule's check names is its finding", p: properties.P730_2a, by: harness.Judging{Explain: explain}, t: perCard,
			want: harness.CaseSetAside, rule: "712.21"},
		{name: "a departure no rule's check names is unexplained", p: properties.P730_2a, t: perCard, want: harness.CaseDeparted, problem: `"creature_dies"`},
		{name: "a broken accounting fails 400.1 when it is not judged beside", p: properties.P712_21, t: unaccounted(dies), want: harness.CaseFailed, rule: "400.1", problem: "0 steps for 1 actions"},
		{name: "a broken accounting is 400.1's finding when judged beside", p: properties.P712_21, by: harness.Judging{Judged400: true}, t: unaccounted(dies),
			want: harness.CaseSetAside, rule: "400.1"},
		{name: "a broken accounting fails 400.1 itself", p: properties.P400_1, by: harness.Judging{Judged400: true}, t: unaccounted(dies), want: harness.CaseFailed, rule: "400.1", problem: "0 steps"},
		{name: "a divergence fails the rule in play", p: properties.P712_21, t: diverging(dies, 0), want: harness.CaseFailed, rule: "712.21", problem: "the rules allow it"},
		{name: "a divergence is the finding of the rule in play", p: properties.P730_2a, by: harness.Judging{Explain: explain}, t: diverging(dies, 0),
			want: harness.CaseSetAside, rule: "712.21"},
		{name: "a divergence no rule judged is in play at is unexplained", p: properties.P730_2a, t: diverging(dies, 0), want: harness.CaseDeparted, problem: "could not play action 0"},
		{name: "a divergence at a forbidden action says the rules forbid it", p: properties.P702_3b, t: diverging(wall, 0), want: harness.CaseFailed, rule: "702.3b", problem: "the rules forbid it (CR 702.3b)"},
		{name: "a divergence past the actions breaks the accounting", p: properties.P712_21, t: diverging(dies, 3), want: harness.CaseFailed, rule: "400.1", problem: "the scenario has 1 actions"},
		{name: "a check that breaks on the rules' trace too is broken", p: panicking, t: dies, want: harness.CaseBroken, rule: "999.9", internal: []model.RuleID{"999.9"}},
		{name: "a check that breaks on the engine's trace alone fails", p: engineOnly, t: perCard, want: harness.CaseFailed, rule: "999.8", problem: "could not be judged"},
		{name: "a check asked to explain that breaks is kept", p: properties.P730_2a, by: harness.Judging{Explain: []*properties.Property{panicking}}, t: perCard,
			want: harness.CaseDeparted, internal: []model.RuleID{"999.9"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			by := tt.by
			by.Info = all
			got := harness.Judge(tt.p, by, tt.t)
			assert.Equal(t, tt.want, got.Outcome)
			assert.Equal(t, tt.rule, got.Rule)
			if tt.problem != "" {
				require.Error(t, got.Problem)
				assert.Contains(t, got.Problem.Error(), tt.problem)
			} else if tt.want != harness.CaseDeparted {
				assert.NoError(t, got.Problem)
			}
			var internal []model.RuleID
			for _, ie := range got.Internal {
				internal = append(internal, ie.Rule)
			}
			assert.Equal(t, tt.internal, internal)
		})
	}
}

// Test400_1_JudgeAllNamesEachProblemOnce: JudgeAll judges a case on every
// rule and says each problem once: a divergence once, under every rule in
// play; an unexplained departure only when nothing else is found.
func Test400_1_JudgeAllNamesEachProblemOnce(t *testing.T) {
	all := harness.EngineInfo{Name: "values", Features: model.Features}
	dies := played(t, hostDies(), "")
	assert.Empty(t, harness.JudgeAll(properties.All, all, dies))

	problems := harness.JudgeAll(properties.All, all, diverging(dies, 0))
	require.Len(t, problems, 1)
	assert.Regexp(t, `^712\.21(, [0-9a-z.]+)*: the engine could not play action 0`, problems[0].Error())

	problems = harness.JudgeAll([]*properties.Property{properties.P730_2a}, all, played(t, hostDies(), "dies-per-card"))
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), "an unexplained departure")

	problems = harness.JudgeAll(properties.All, all, unaccounted(dies))
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), "400.1: ")
}
