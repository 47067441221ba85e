package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
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

// FindingKey identifies a finding from one night to the next: its
// signature (properties.Signature), whatever scenario or seed showed it.
func (f *Finding) FindingKey() string { return f.key }

// IssueName is a finding's file name: its bug in words as a slug, cut
// between words, and a short hash of its key.
func (f *Finding) IssueName() string {
	sum := sha256.Sum256([]byte(f.key))
	words := f.Bug
	if words == "" {
		words = "scenario"
	}
	slug := properties.Key(words)
	if len(slug) > 60 {
		cut := strings.LastIndexByte(slug[:61], '-')
		if cut <= 0 {
			cut = 60
		}
		slug = strings.TrimRight(slug[:cut], "-")
	}
	return slug + "-" + hex.EncodeToString(sum[:])[:10]
}

// Issues writes a bug report of each of a run's findings, unexplained
// departures among them, in the order to fix them; the findings a
// baseline expects are left out. engine is how to name the engine in the
// commands that play the bug again ("" for ENGINE, a placeholder for the
// reader's own).
func Issues(r *harness.Results, engine string) ([]Issue, error) {
	if engine == "" {
		engine = "ENGINE"
	}
	var out []Issue
	findings := Unexpected(Findings(r))
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
		lead := strings.Join(rs, ", ")
		if f.Unexplained != nil {
			lead = "unexplained departure"
		}
		title := lead + ": " + Headline(f.Headline(), f.Bug, 200-len(lead)-2)
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", mdText(title))
		if f.Unexplained != nil {
			fmt.Fprintf(&b, "The engine's trace departs from the rules' where no rule's check looks, in a case drawn for rule %s: %s.\n\n%s\n",
				ce.Rule, mdText(rules.Summary(ce.Rule)), mdSentence(failure.WhoIsWrong))
		} else {
			fmt.Fprintf(&b, "**Rule %s** (Comprehensive Rules of %s): %s.\n", f.Rules[0], rules.CRDate, mdText(rules.Summary(f.Rules[0])))
			for _, rule := range f.Rules[1:] {
				fmt.Fprintf(&b, "It also fails rule %s: %s.\n", rule, mdText(rules.Summary(rule)))
			}
		}
		if len(f.Blocks) > 0 {
			fmt.Fprintf(&b, "\nFix it first: while it stands, %d other %s can't be judged (%s).\n", len(f.Blocks), plural(len(f.Blocks), "rule", "rules"), mdText(rulesWords(f.Blocks)))
		}
		b.WriteString("\n## What the engine did\n\n")
		if f.Unexplained != nil {
			fmt.Fprintf(&b, "- %s\n", mdText(f.Headline()))
		}
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
		again := againRules(r, f)
		b.WriteString(mdFence("sh", fmt.Sprintf("%s\nmergecheck run --engine %s --rules %s --checks %d --seed %d\n",
			failure.Replay(engine, name+".scenario.json"), failure.ShellQuote(engine), again, r.Options.Checks, r.Seed)))
		if ce.Intermittent {
			b.WriteString("\n" + mdSentence(failure.Intermittent) + "\n")
		}
		b.WriteString("\n## Versions\n\n")
		fmt.Fprintf(&b, "- engine: %s %s\n- %s\n- seed: %d, %d cases per rule\n", mdText(r.Engine.Name), mdText(r.Engine.Version), mdText(orUnknown(r.Suite)), r.Seed, r.Options.Checks)
		out = append(out, Issue{Name: name, Title: title, Markdown: Printable(b.String()), Scenario: scenario})
	}
	return out, nil
}

// againRules are the rules a run checks to show a finding again: its
// rules and, for a failure a lead found, the rule whose case showed it;
// for an unexplained departure, the rule whose case showed it.
func againRules(r *harness.Results, f *Finding) string {
	if f.Unexplained != nil {
		return string(f.Cases[0].Rule)
	}
	var out []string
	add := func(rule model.RuleID) {
		if !slices.Contains(out, string(rule)) {
			out = append(out, string(rule))
		}
	}
	for _, rule := range f.Rules {
		add(rule)
	}
	for _, res := range r.Results {
		if slices.Contains(f.Rules, res.Rule) && res.FromLead && res.Lead != nil {
			add(res.Lead.Rule)
		}
	}
	return strings.Join(out, ",")
}
