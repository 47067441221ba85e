package failure

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

func TestSize_CountsEachInWords(t *testing.T) {
	assert.Equal(t, "2 components, 1 action", Size(2, 1))
	assert.Equal(t, "1 component, 0 actions", Size(1, 0))
}

func TestNotes_WhatTheProblemDoesNotSay(t *testing.T) {
	for name, c := range map[string]struct {
		ce     harness.Counterexample
		shared []model.RuleID
		want   []string
	}{
		"none":           {harness.Counterexample{Rule: "730.2"}, nil, nil},
		"its own check":  {harness.Counterexample{Rule: "730.2", Found: "730.2"}, nil, nil},
		"another check":  {harness.Counterexample{Rule: "730.2", Found: "400.1"}, nil, []string{"found by the check of 400.1: " + rules.Summary("400.1")}},
		"intermittent":   {harness.Counterexample{Rule: "730.2", Intermittent: true}, nil, []string{Intermittent}},
		"one finding of": {harness.Counterexample{Rule: "730.2"}, []model.RuleID{"730.2c", "730.3"}, []string{"one finding with 730.2c and 730.3: its failures depart from the rules in the same way, one bug"}},
	} {
		assert.Equal(t, c.want, Notes(&c.ce, c.shared), name)
	}
}

func TestCases_InTheRulesOrderUnknownLast(t *testing.T) {
	assert.Equal(t, "", Cases(nil))
	assert.Equal(t, "1 case of 730.2d", Cases(map[model.RuleID]int{"730.2d": 1}))
	assert.Equal(t, "1 case of 730.2d, 3 of 730.3", Cases(map[model.RuleID]int{"730.3": 3, "730.2d": 1}))
	assert.Equal(t, "3 cases of 730.3, 2 of 9999.9", Cases(map[model.RuleID]int{"9999.9": 2, "730.3": 3}))
}

func TestReplay_NamesTheEngineQuoted(t *testing.T) {
	for want, c := range map[string][2]string{
		"mergecheck replay --engine mutant:dies-per-card c/730.3-ab.json":  {"mutant:dies-per-card", "c/730.3-ab.json"},
		"mergecheck replay --engine 'exec:python3 toy.py' 'my dir/x.json'": {"exec:python3 toy.py", "my dir/x.json"},
		"mergecheck replay --engine ENGINE x.json":                         {"", "x.json"},
	} {
		assert.Equal(t, want, Replay(c[0], c[1]))
	}
	assert.Equal(t, "saved: x.json (replay: mergecheck replay --engine ENGINE x.json)", Saved("", "x.json"))
}

func TestEngine_AnAdapterIsTheReaders(t *testing.T) {
	for name, want := range map[string]string{
		"mutant:dies-per-card": "mutant:dies-per-card", "lazy:no-steps": "lazy:no-steps",
		"mergecheck-reference": "mergecheck-reference", "tiny-adapter": "",
	} {
		assert.Equal(t, want, Engine(name), name)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"reference":                  "reference",
		"mutant:dies-per-card":       "mutant:dies-per-card",
		"exec:python3 toy_engine.py": "'exec:python3 toy_engine.py'",
		"exec:sh -c 'it''s'":         `'exec:sh -c '\''it'\'''\''s'\'''`,
		"":                           "''",
	} {
		assert.Equal(t, want, ShellQuote(in), in)
	}
}

func TestText_AFactALine(t *testing.T) {
	ce := &harness.Counterexample{Rule: "730.2", Problem: "p1 is tapped", Found: "400.1", Intermittent: true, Seed: 7, File: "c/x.json",
		Scenario: &model.Scenario{Actions: []model.Action{{Type: "tap"}}}}
	got := Text(ce, "")
	assert.Equal(t, "730.2: p1 is tapped\n"+Rule("730.2")+"\n"+FoundBy("400.1")+"\n"+Intermittent+"\n"+
		"scenario (shrunk): 0 components, 1 action\n"+ScenarioJSON(ce.Scenario)+
		"seed: 7\nsaved: c/x.json (replay: mergecheck replay --engine ENGINE c/x.json)\n", got)
}

func TestUnexplained_OneSentence(t *testing.T) {
	u := &harness.Unexplained{Aspect: "the active player", Cases: map[model.RuleID]int{"730.3": 3},
		Counterexample: &harness.Counterexample{Rule: "730.3", Problem: "the engine's trace has A, the rules' B"}}
	assert.Equal(t, "departure in the active player, where no rule's check looks (the engine is wrong there, or mergecheck: a rule it lacks a property for, a check too narrow, or its reference): "+
		"the engine's trace has A, the rules' B; seen in 3 cases of 730.3, it fails none of them", Unexplained(u))
}
