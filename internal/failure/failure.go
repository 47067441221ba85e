// Package failure says a counterexample (a rule's failure: its problem,
// its shrunk scenario, the traces that depart, how to play it again) as
// every output shows it to a user. The text output, the Markdown, HTML
// and JUnit reports, the issues and enginetest take each fact's words
// from here and only lay them out, so that one failure reads the same
// wherever it is shown.
package failure

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/rules"
)

// Intermittent says that the engine did not fail a counterexample again.
const Intermittent = "intermittent: the engine did not fail again when the scenario was played once more"

// FaultIntermittent says that an engine fault did not recur.
const FaultIntermittent = "intermittent: the fault did not recur when the scenario was played again"

// Rule is a rule with its summary: "rule 730.2: ...".
func Rule(id model.RuleID) string { return fmt.Sprintf("rule %s: %s", id, rules.Summary(id)) }

// FoundBy names the rule whose check found a problem, with its summary:
// "found by the check of 400.1: ...".
func FoundBy(id model.RuleID) string {
	return fmt.Sprintf("found by the check of %s: %s", id, rules.Summary(id))
}

// Size is a scenario's size: "2 components, 1 action".
func Size(components, actions int) string {
	return words.Count(components, "component") + ", " + words.Count(actions, "action")
}

// Shrunk is a counterexample's shrunk scenario by its size: "scenario
// (shrunk): 2 components, 1 action".
func Shrunk(ce *harness.Counterexample) string { return "scenario (shrunk): " + Size(ce.Size()) }

// Notes are what a counterexample's problem alone does not say: the rule
// whose check found it, that it did not fail again, and the other rules
// of its finding (shared), which depart from the rules the same way.
func Notes(ce *harness.Counterexample, shared []model.RuleID) []string {
	var out []string
	if ce.Found != "" && ce.Found != ce.Rule {
		out = append(out, FoundBy(ce.Found))
	}
	if ce.Intermittent {
		out = append(out, Intermittent)
	}
	if len(shared) > 0 {
		out = append(out, fmt.Sprintf("one finding with %s: its failures depart from the rules in the same way, one bug", words.List(shared)))
	}
	return out
}

// Another is a further counterexample of one rule, of another class:
// "another problem under this rule: ... (2 components, 1 action)".
func Another(ce *harness.Counterexample) string {
	return fmt.Sprintf("another problem under this rule: %s (%s)", ce.Problem, Size(ce.Size()))
}

// Cases says which rules' cases showed a departure, in the rules index's
// order (a rule it lacks last): "3 cases of 730.2, 1 of 730.2c".
func Cases(by map[model.RuleID]int) string {
	var ids []model.RuleID
	for _, r := range rules.All() {
		if _, ok := by[r.ID]; ok {
			ids = append(ids, r.ID)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(by)) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprintf("%d of %s", by[id], id)
	}
	if len(ids) > 0 {
		out[0] = words.Count(by[ids[0]], "case") + " of " + string(ids[0])
	}
	return strings.Join(out, ", ")
}

// Unexplained says an unexplained departure in a sentence, without the
// word "unexplained", which each output puts where it fits: "departure
// in the active player, where no rule's check looks (the engine is wrong
// there, or mergecheck: ...): PROBLEM; seen in 3 cases of 730.3, it fails
// none of them".
func Unexplained(u *harness.Unexplained) string {
	problem := "(no counterexample kept)"
	if u.Counterexample != nil {
		problem = u.Counterexample.Problem
	}
	return fmt.Sprintf("departure in %s, where no rule's check looks (the engine is wrong there, or mergecheck: a rule it lacks a property for, a check too narrow, or its reference): %s; seen in %s, it fails none of them",
		u.Aspect, problem, Cases(u.Cases))
}

// WhoIsWrong says, of an unexplained departure, that the engine or
// mergecheck's reference may be wrong there, how to tell which, and how
// to report the reference.
const WhoIsWrong = "either the engine or mergecheck's reference is wrong here: `mergecheck explain SCENARIO --engine E` shows each step of the rules' trace with the rule behind it, beside the engine's (`run --dump DIR` writes every case played as such a file); if the rules' trace is wrong, report it to mergecheck with the scenario and the JSON report"

// Engine is how a command that plays a case again names an engine of
// this name: by its name for the reference, a mutant or a lazy engine,
// and "" for an adapter, whose exec: line only its reader knows.
func Engine(name string) string {
	if strings.HasPrefix(name, "mutant:") || strings.HasPrefix(name, "lazy:") || name == reference.Name {
		return name
	}
	return ""
}

// Replay is the command that plays a saved counterexample on engine (""
// for the placeholder ENGINE), quoted for a shell: "mergecheck replay
// --engine mutant:dies-per-card corpus/730.3-1a2b.json".
func Replay(engine, file string) string {
	if engine == "" {
		engine = "ENGINE"
	}
	return "mergecheck replay --engine " + ShellQuote(engine) + " " + ShellQuote(file)
}

// Saved says where a counterexample was saved and how to play it again:
// "saved: FILE (replay: mergecheck replay --engine E FILE)".
func Saved(engine, file string) string {
	return fmt.Sprintf("saved: %s (replay: %s)", file, Replay(engine, file))
}

// ShellQuote quotes s for a POSIX shell where it needs it, so that a
// printed command pastes as one: an adapter's command line is one
// --engine value.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=,@%+-", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ScenarioJSON is a scenario as a scenario file, or a note saying why it
// could not be encoded.
func ScenarioJSON(s *model.Scenario) string {
	data, err := model.Encode(s)
	if err != nil {
		return fmt.Sprintf("(the scenario could not be encoded: %v)\n", err)
	}
	return string(data)
}

// Text is a counterexample as plain text, a fact a line: its problem, its
// rule, its notes, its shrunk scenario as a scenario file, the trace diff,
// the seed and, when it was saved, how to play it again on engine (see
// Replay). A JUnit failure's body and enginetest's failure are this.
func Text(ce *harness.Counterexample, engine string) string {
	var b strings.Builder
	b.WriteString(ce.Error() + "\n" + Rule(ce.Rule) + "\n")
	for _, n := range Notes(ce, nil) {
		b.WriteString(n + "\n")
	}
	if ce.Scenario != nil {
		b.WriteString(Shrunk(ce) + "\n" + ScenarioJSON(ce.Scenario))
	}
	if d := ce.Diff(); d != "" {
		b.WriteString("trace " + strings.TrimSuffix(d, "\n") + "\n")
	}
	fmt.Fprintf(&b, "seed: %d\n", ce.Seed)
	if ce.File != "" {
		b.WriteString(Saved(engine, ce.File) + "\n")
	}
	return b.String()
}
