package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/rules"
)

// An Issue is a bug report of one finding, ready for an engine's tracker:
// Markdown, and its smallest scenario as a file to attach.
type Issue struct {
	// Name is the report's file name without extension, the same from
	// one night to the next for the same bug (FindingKey), so that a job
	// files each bug once.
	Name string
	// Title is the issue's title: its rules and the bug in words.
	Title    string
	Markdown string
	// Scenario is the smallest scenario that shows the bug, as a
	// scenario file (Name + ".scenario.json").
	Scenario []byte
}

// FindingKey identifies a finding from one night to the next: the way
// its failures depart from the rules (properties.Bug), or the action
// type it diverges at, whatever scenario or seed showed it. A finding
// whose traces could not be compared is known by its scenario instead.
func (f *Finding) FindingKey() string { return f.key }

// IssueName is a finding's file name: its bug in words as a slug, and a
// short hash of its key.
func (f *Finding) IssueName() string {
	sum := sha256.Sum256([]byte(f.key))
	words := f.Bug
	if words == "" {
		words = "scenario"
	}
	slug := properties.Key(words)
	if len(slug) > 60 {
		slug = strings.TrimRight(slug[:60], "-")
	}
	return slug + "-" + hex.EncodeToString(sum[:])[:10]
}

// Issues writes a bug report of each of a run's findings (failures the
// baseline expects are left out, as Findings leaves them), in the order
// to fix them. engine is how to name the engine in the commands that play
// the bug again ("" for ENGINE, a placeholder for the reader's own).
func Issues(r *harness.Results, engine string) ([]Issue, error) {
	if engine == "" {
		engine = "ENGINE"
	}
	byRule := map[model.RuleID]harness.Result{}
	for _, res := range r.Results {
		byRule[res.Rule] = res
	}
	var out []Issue
	findings := Findings(r)
	for i := range findings {
		f := &findings[i]
		ce := f.Cases[0]
		name := f.IssueName()
		scenario, err := model.Encode(f.Scenario)
		if err != nil {
			return nil, fmt.Errorf("the scenario of %s: %w", name, err)
		}
		var rs []string
		for _, rule := range f.Rules {
			rs = append(rs, string(rule))
		}
		title := strings.Join(rs, ", ") + ": " + Headline(oneLine(f.Problems[0]), f.Bug, 200-len(strings.Join(rs, ", "))-2)
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", mdText(title))
		fmt.Fprintf(&b, "**Rule %s** (Comprehensive Rules of %s): %s.\n", f.Rules[0], rules.CRDate, mdText(rules.Summary(f.Rules[0])))
		for _, rule := range f.Rules[1:] {
			fmt.Fprintf(&b, "It also fails rule %s: %s.\n", rule, mdText(rules.Summary(rule)))
		}
		if len(f.Blocks) > 0 {
			fmt.Fprintf(&b, "\nFix it first: while it stands, %d other %s can't be judged (%s).\n", len(f.Blocks), plural(len(f.Blocks), "rule", "rules"), mdText(rulesWords(f.Blocks)))
		}
		b.WriteString("\n## What the engine did\n\n")
		for k, rule := range f.Rules {
			fmt.Fprintf(&b, "- %s: %s\n", rule, mdText(oneLine(f.Problems[k])))
		}
		if d := ce.Departure(r.Engine); d != "" {
			fmt.Fprintf(&b, "\nThe engine's trace first departs from the rules' %s.\n", mdText(d))
		}
		if f.Bug != "" {
			fmt.Fprintf(&b, "\nThe bug, in mergecheck's terms: %s (finding key `%s`).\n", mdText(f.Bug), name)
		}
		b.WriteString("\n## The smallest scenario that shows it\n\n")
		comps, acts := ce.Size()
		fmt.Fprintf(&b, "%s:\n\n", failure.Size(comps, acts))
		for _, l := range Brief(f.Scenario) {
			fmt.Fprintf(&b, "- %s\n", mdText(l))
		}
		fmt.Fprintf(&b, "\nAttached: `%s.scenario.json`.\n", name)
		b.WriteString("\n## Play it again\n\n")
		first := byRule[f.Rules[0]]
		b.WriteString(mdFence("sh", fmt.Sprintf("%s\nmergecheck run --engine %s --rules %s --checks %d --seed %d\n",
			failure.Replay(engine, name+".scenario.json"), failure.ShellQuote(engine), strings.Join(rs, ","), r.Options.Checks, r.Seed)))
		if first.Counterexample != nil && first.Counterexample.Intermittent {
			b.WriteString("\n" + mdSentence(failure.Intermittent) + "\n")
		}
		b.WriteString("\n## Versions\n\n")
		fmt.Fprintf(&b, "- engine: %s %s\n- %s\n- seed: %d, %d cases per rule\n", mdText(r.Engine.Name), mdText(r.Engine.Version), mdText(orUnknown(r.Suite)), r.Seed, r.Options.Checks)
		out = append(out, Issue{Name: name, Title: title, Markdown: Printable(b.String()), Scenario: scenario})
	}
	return out, nil
}
