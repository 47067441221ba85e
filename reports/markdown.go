package reports

import (
	"fmt"
	"html"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

// verdictOrder is the order in which reports count verdicts: the ones that
// need attention first.
var verdictOrder = []harness.Verdict{
	harness.Internal, harness.Failed, harness.Fault, harness.Blocked, harness.Interrupted, harness.Uncovered, harness.Unsupported, harness.Unchecked, harness.Held,
}

// verdictCounts returns the number of results of each verdict, in
// verdictOrder and then any other verdict in order of first appearance,
// leaving out verdicts no result has.
func verdictCounts(r *harness.Results) []verdictCount {
	var out []verdictCount
	seen := map[harness.Verdict]bool{}
	for _, v := range verdictOrder {
		seen[v] = true
		if n := r.Count(v); n > 0 {
			out = append(out, verdictCount{Verdict: v, N: n})
		}
	}
	for _, res := range r.Results {
		if !seen[res.Verdict] {
			seen[res.Verdict] = true
			out = append(out, verdictCount{Verdict: res.Verdict, N: r.Count(res.Verdict)})
		}
	}
	return out
}

type verdictCount struct {
	Verdict harness.Verdict
	N       int
}

// countExpected returns how many failed or faulted results a baseline expects.
func countExpected(r *harness.Results) int {
	n := 0
	for _, res := range r.Results {
		if res.Expected {
			n++
		}
	}
	return n
}

// WriteMarkdown writes a summary of the run for a pull-request comment: a
// heading with the engine and seed, the count of each verdict, the bugs
// found in the order to fix them (Findings), a table of
// the rules that did not hold, and a collapsed section per failure and
// engine fault with its shrunk scenario and trace diff. Rules that held are
// counted, not listed.
//
// Text from the engine is escaped: it cannot end a table cell or a code
// block early, or open HTML elements.
func WriteMarkdown(w io.Writer, r *harness.Results) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## mergecheck: %s %s, seed %d\n\n", mdText(r.Engine.Name), mdText(r.Engine.Version), r.Seed)
	if note := Incomplete(r); note != "" {
		fmt.Fprintf(&b, "**%s**\n\n", mdText(note))
	}

	var counts []string
	for _, c := range verdictCounts(r) {
		s := fmt.Sprintf("%d %s", c.N, c.Verdict)
		if c.Verdict == harness.Failed || c.Verdict == harness.Fault {
			s = "**" + s + "**"
		}
		counts = append(counts, s)
	}
	if len(counts) == 0 {
		counts = []string{"no rules checked"}
	}
	line := fmt.Sprintf("%d %s: %s", len(r.Results), plural(len(r.Results), "rule", "rules"), strings.Join(counts, " · "))
	if n := countExpected(r); n > 0 {
		line += fmt.Sprintf(" (%d expected by the baseline)", n)
	}
	fmt.Fprintf(&b, "%s  \n%d cases per rule, %s, Comprehensive Rules effective %s\n\n",
		line, r.Options.Checks, r.Elapsed.Round(1e6), rules.CRDate)

	findings, engine := Findings(r), failure.Engine(r.Engine.Name)
	if bugs := Unexpected(findings); len(bugs) > 0 {
		n := r.Count(harness.Failed) - countExpected(r)
		fmt.Fprintf(&b, "%d %s failing %d %s, in the order to fix them (the failures of one finding have one signature: one bug):\n\n",
			len(bugs), plural(len(bugs), "bug", "bugs"), n, plural(n, "rule", "rules"))
		for i, f := range bugs {
			var rs []string
			for _, rule := range f.Rules {
				rs = append(rs, string(rule))
			}
			if f.Unexplained != nil {
				rs = []string{"unexplained departure"}
			}
			fmt.Fprintf(&b, "%d. %s: %s", i+1, mdText(strings.Join(rs, ", ")), mdText(Headline(f.Headline(), f.Bug, 200)))
			if len(f.Blocks) > 0 {
				fmt.Fprintf(&b, " (fix it first: it blocks %d %s)", len(f.Blocks), plural(len(f.Blocks), "rule", "rules"))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}

	var notHeld []harness.Result
	for _, res := range r.Results {
		if res.Verdict != harness.Held {
			notHeld = append(notHeld, res)
		}
	}
	if held := r.Count(harness.Held); held == len(r.Results) && held > 0 {
		fmt.Fprintf(&b, "Every rule held.\n")
	} else if held > 0 {
		fmt.Fprintf(&b, "%d %s held; these did not:\n", held, plural(held, "rule", "rules"))
	}
	// Rules the engine could not be judged on are grouped by why, so that
	// a partial engine's report stays short enough for a comment.
	var table []harness.Result
	for _, res := range notHeld {
		if res.Verdict != harness.Unsupported && res.Verdict != harness.Unchecked {
			table = append(table, res)
		}
	}
	unsupported, unchecked := unjudged(r)
	if len(table) > 0 {
		b.WriteString("\n| rule | verdict | problem or reason |\n|---|---|---|\n")
		for _, res := range table {
			verdict := string(res.Verdict)
			if res.Expected {
				verdict += " (expected)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCell(string(res.Rule)), mdCell(verdict), mdCell(reasonOf(res)))
		}
	}
	if n := r.Count(harness.Unsupported); n > 0 {
		fmt.Fprintf(&b, "\n%d %s unsupported, by why:\n\n", n, plural(n, "rule", "rules"))
		for _, g := range unsupported {
			fmt.Fprintf(&b, "- %s: %s\n", mdText(ruleList(g.Rules)), mdText(g.Why))
		}
	}
	if len(unchecked) > 0 {
		fmt.Fprintf(&b, "\n%d unchecked (no trace can show them; `mergecheck list` says why): %s\n", len(unchecked), mdText(ruleList(unchecked)))
	}

	if n := len(r.Unexplained); n > 0 {
		fmt.Fprintf(&b, "\n%d unexplained %s:\n\n", n, plural(n, "departure", "departures"))
		for _, u := range r.Unexplained {
			fmt.Fprintf(&b, "- %s\n", mdText(oneLine(failure.Unexplained(&u))))
		}
	}

	for _, res := range notHeld {
		if res.Counterexample == nil && res.Fault == nil {
			continue
		}
		title := problemOf(res)
		if res.Expected {
			title = "expected failure (baseline): " + title
		}
		// <summary> is raw HTML to Markdown renderers: escape it as HTML.
		fmt.Fprintf(&b, "\n<details>\n<summary>%s</summary>\n\n", html.EscapeString(oneLine(title)))
		b.WriteString(mdText(failure.Rule(res.Rule)) + "\n\n")
		switch {
		case res.Counterexample != nil:
			ce := res.Counterexample
			writeNotes(&b, findings, res.Rule, ce)
			if ce.Scenario != nil {
				b.WriteString(mdSentence(failure.Shrunk(ce)) + "\n\n")
				b.WriteString(mdFence("json", failure.ScenarioJSON(ce.Scenario)))
			}
			if d := ce.Diff(); d != "" {
				b.WriteString("\nTrace " + mdText(firstLine(d)) + "\n\n")
				b.WriteString(mdFence("diff", afterFirstLine(d)))
			}
			if ce.File != "" {
				b.WriteString("\nReplay with " + mdCode(failure.Replay(engine, ce.File)) + ".\n")
			}
			for i := range res.Others {
				o := &res.Others[i]
				b.WriteString("\n" + mdSentence(oneLine(failure.Another(o))) + "\n\n")
				writeNotes(&b, findings, res.Rule, o)
				b.WriteString(mdFence("json", failure.ScenarioJSON(o.Scenario)))
			}
		case res.Fault != nil:
			f := res.Fault
			if f.Intermittent {
				b.WriteString(mdSentence(failure.FaultIntermittent) + "\n\n")
			}
			b.WriteString("Engine error:\n\n")
			b.WriteString(mdFence("", fmt.Sprint(f.Err)))
			if len(f.Stderr) > 0 {
				b.WriteString("\nLast lines of its stderr:\n\n")
				b.WriteString(mdFence("", strings.Join(f.Stderr, "\n")))
			}
			if f.Scenario != nil {
				b.WriteString("\nScenario:\n\n")
				b.WriteString(mdFence("json", failure.ScenarioJSON(f.Scenario)))
			}
		}
		b.WriteString("\n</details>\n")
	}
	_, err := io.WriteString(w, Printable(b.String()))
	return err
}

// writeNotes writes a counterexample's notes (failure.Notes), a sentence
// each.
func writeNotes(b *strings.Builder, findings []Finding, rule model.RuleID, ce *harness.Counterexample) {
	for _, n := range failure.Notes(ce, SharedWith(findings, rule, ce)) {
		b.WriteString(mdSentence(n) + "\n\n")
	}
}

// mdSentence is words as a sentence of Markdown text: escaped, its first
// letter capital and a full stop after it.
func mdSentence(s string) string {
	if s == "" {
		return ""
	}
	return mdText(strings.ToUpper(s[:1])+s[1:]) + "."
}

// reasonOf is the table's account of a rule that did not hold: the
// problem of a failure, the error of a fault, or why it was not checked.
func reasonOf(res harness.Result) string {
	var reason string
	switch {
	case res.Counterexample != nil:
		reason = res.Counterexample.Problem
	case res.Fault != nil:
		reason = fmt.Sprint(res.Fault.Err)
	default:
		reason = res.Why
	}
	return reason + refusalsText(res)
}

// refusalsText says how many scenarios drawn for a rule the engine
// refused, and why most often: what to implement next.
func refusalsText(res harness.Result) string {
	if res.Refused == 0 || strings.HasPrefix(res.Why, "the engine refused") {
		return ""
	}
	var why []string
	for _, r := range res.Refusals {
		why = append(why, fmt.Sprintf("%s (%d)", r.Reason, r.Count))
	}
	return fmt.Sprintf(" [the engine refused %d %s drawn for this rule; the commonest reasons: %s]",
		res.Refused, plural(res.Refused, "scenario", "scenarios"), strings.Join(why, "; "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func afterFirstLine(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

// mdSpecial holds the characters that mean something in Markdown text.
// Every one is ASCII punctuation, so a backslash escapes it.
const mdSpecial = "\\`*_[]<>|~&#!"

// mdText escapes s for Markdown text, so that it reads as itself.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCell escapes s for a table cell: line breaks become <br>, so the row
// stays one line, and | is escaped with the rest.
func mdCell(s string) string {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n"), "\n")
	for i, l := range lines {
		lines[i] = mdText(strings.TrimSpace(strings.ReplaceAll(l, "\r", " ")))
	}
	return strings.Join(lines, "<br>")
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c rune) int {
	best, n := 0, 0
	for _, r := range s {
		if r == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// mdFence puts content in a fenced code block whose fence is longer than
// any run of backticks in it, so that nothing inside can close it.
func mdFence(lang, content string) string {
	fence := strings.Repeat("`", max(3, longestRun(content, '`')+1))
	if !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return fence + lang + "\n" + content + fence + "\n"
}

// mdCode puts s in an inline code span whose delimiters no run of
// backticks in s can match.
func mdCode(s string) string {
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return ticks + pad + s + pad + ticks
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// ruleList names rules, comma-separated.
func ruleList(rs []model.RuleID) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}

// A ruleGroup is rules that share one reason.
type ruleGroup struct {
	Why   string
	Rules []model.RuleID
}

// unjudged returns the unsupported rules grouped by why, in the order of
// their first rule, and the unchecked rules.
func unjudged(r *harness.Results) (unsupported []ruleGroup, unchecked []model.RuleID) {
	at := map[string]int{}
	for _, res := range r.Results {
		switch res.Verdict {
		case harness.Unsupported:
			k, ok := at[res.Why]
			if !ok {
				k = len(unsupported)
				at[res.Why] = k
				unsupported = append(unsupported, ruleGroup{Why: res.Why})
			}
			unsupported[k].Rules = append(unsupported[k].Rules, res.Rule)
		case harness.Unchecked:
			unchecked = append(unchecked, res.Rule)
		}
	}
	return unsupported, unchecked
}
