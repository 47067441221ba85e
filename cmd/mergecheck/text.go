package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reports"
	"github.com/mergecheck/mergecheck/rules"
)

// printResults writes a run for a terminal, as a list of bugs in the
// order to fix them: each finding once (the rules one bug fails, those it
// blocks first, then those failing the most rules), engine faults and
// unexplained departures, then the rules not judged enough, and the rest
// as lists of rule numbers. With verbose, every rule has a line of its
// own, and each counterexample its scenario and trace diff in full.
func printResults(w io.Writer, res *harness.Results, verbose bool, engine string, checks int) {
	fmt.Fprintf(w, "mergecheck run: engine %s %s, seed %d, %d checks per rule\n", res.Engine.Name, res.Engine.Version, res.Seed, checks)
	for _, c := range res.Corpus {
		if c.Outcome != "held" {
			fmt.Fprintf(w, "corpus      %s: %s %s\n", c.File, c.Outcome, c.Detail)
		}
	}
	if n := len(res.Corpus); n > 0 {
		fmt.Fprintf(w, "corpus      %d files replayed first\n", n)
	}
	printInternal(w, res, verbose, engine, checks)
	findings := reports.Findings(res)
	for i := range findings {
		if f := &findings[i]; f.Expected {
			fmt.Fprintf(w, "expected    %s: %s (in the baseline)\n", rulesList(f.Rules), f.Headline())
		}
	}
	for i := range findings {
		switch f := &findings[i]; {
		case f.Expected:
		case f.Unexplained != nil:
			printUnexplained(w, res, f, verbose, engine, checks)
		default:
			printFinding(w, res, f, verbose, engine, checks)
		}
	}
	faults := faultsByCause(res)
	for _, r := range res.Results {
		if r.Verdict != harness.Fault {
			continue
		}
		key := faultKey(r.Fault)
		if rules := faults[key]; len(rules) > 0 {
			text := faultCause(r.Fault)
			if len(rules) > 1 && text != key {
				text += "\n\t(the adapter's stderr of the first of them)"
			}
			fmt.Fprintf(w, "FAULT       %s: %s\n", rulesText(rules), text)
			delete(faults, key) // one line a cause
		}
	}
	printBlocked(w, res, findings)
	for _, r := range res.Results {
		switch r.Verdict {
		case harness.Uncovered:
			fmt.Fprintf(w, "UNCOVERED   %-9s %s\n", r.Rule, r.Why)
		case harness.Interrupted:
			fmt.Fprintf(w, "INTERRUPTED %-9s %s\n", r.Rule, r.Why)
		}
	}
	for _, v := range []harness.Verdict{harness.Held, harness.Unsupported, harness.Unchecked} {
		printVerdict(w, res, v, verbose)
	}
	printSummary(w, res, findings)
}

// headlineWidth is the most a finding's headline line takes.
const headlineWidth = 200

// printFinding shows one bug: a headline with the rules it fails and its
// problem, then what it blocks, each rule's words, the smallest scenario
// that shows it and where the engine's trace departs there, and how to
// play it again.
func printFinding(w io.Writer, res *harness.Results, f *reports.Finding, verbose bool, engine string, checks int) {
	ce := f.Cases[0]
	byRule := map[model.RuleID]harness.Result{}
	for _, r := range res.Results {
		byRule[r.Rule] = r
	}
	prefix := "FAILED      " + rulesList(f.Rules) + ": "
	head := reports.Headline(f.Headline(), f.Bug, headlineWidth-len(prefix))
	fmt.Fprintln(w, prefix+head)
	if head != f.Headline() {
		printWrapped(w, "    the problem: ", f.Headline())
	}
	if f.Bug != "" && len(f.Cases) > 1 {
		printWrapped(w, "    one bug: ", fmt.Sprintf("%s, shown by %s", f.Bug, words.Count(len(f.Cases), "shrunk scenario")))
	}
	if len(f.Blocks) > 0 {
		printWrapped(w, "    fix it first: ", fmt.Sprintf("it blocks %s, judged once it is fixed: %s", words.Count(len(f.Blocks), "rule"), rulesList(f.Blocks)))
	}
	for k, rule := range f.Rules {
		r := byRule[rule]
		line := "    " + failure.Rule(rule)
		if k > 0 {
			line = "    also " + failure.Rule(rule)
		}
		fmt.Fprintln(w, line)
		if r.Counterexample != nil && r.Counterexample.Found != "" && r.Counterexample.Found != rule {
			fmt.Fprintf(w, "        %s\n", failure.FoundBy(r.Counterexample.Found))
		}
		if r.FromLead && r.Lead != nil {
			if r.Outside {
				fmt.Fprintf(w, "        outside the rules selected: found in a case drawn for %s, whose departure from the rules this rule's check names\n", r.Lead.Rule)
			} else if r.Cases > 0 {
				fmt.Fprintf(w, "        found in a case drawn for %s; this rule's own %d cases held\n", r.Lead.Rule, r.Cases)
			} else {
				fmt.Fprintf(w, "        found in a case drawn for %s, before this rule's own cases were searched\n", r.Lead.Rule)
			}
		}
	}
	if ce.Intermittent {
		fmt.Fprintln(w, "    "+failure.Intermittent)
	}
	printShrinkErrors(w, f, verbose)
	printScenario(w, res.Engine, ce, verbose)
	if ce.File != "" {
		fmt.Fprintln(w, "    "+failure.Saved(engine, ce.File))
	}
	fmt.Fprintf(w, "    again: %s\n", againFinding(res, f, byRule, engine, checks))
	for _, o := range f.Cases[1:] {
		if verbose || o.File != "" {
			line := fmt.Sprintf("    also shown by a case of %s (%s)", o.Rule, failure.Size(o.Size()))
			if o.File != "" {
				line += ", saved: " + o.File
			}
			fmt.Fprintln(w, line)
		}
	}
}

// printShrinkErrors sums up, in one line, the scenarios the engine would
// not play while a finding's cases were shrunk (each, with verbose).
func printShrinkErrors(w io.Writer, f *reports.Finding, verbose bool) {
	n := 0
	var all []harness.Refusal
	for _, ce := range f.Cases {
		for _, e := range ce.ShrinkErrors {
			n += e.Count
			all = append(all, e)
		}
	}
	switch {
	case n == 0:
	case verbose:
		for _, e := range all {
			printWrapped(w, "    while shrinking, the engine would not play ", fmt.Sprintf("%s: %s", words.Count(e.Count, "scenario"), e.Reason))
		}
	default:
		fmt.Fprintf(w, "    while shrinking, the engine would not play %s, which may have kept it from shrinking further (-v says why)\n", words.Count(n, "scenario"))
	}
}

// printWrapped writes prefix and text, wrapped at word breaks so that no
// line passes lineWidth; continued lines are indented under the text.
func printWrapped(w io.Writer, prefix, text string) {
	lead := len(prefix) - len(strings.TrimLeft(prefix, " "))
	indent := 4 // under an indented line, four further in
	if lead == 0 {
		indent = len(prefix) // under a verdict's column, the text's
	}
	for _, line := range wrap(prefix[lead:]+text, lineWidth-lead, strings.Repeat(" ", indent)) {
		fmt.Fprintln(w, prefix[:lead]+line)
	}
}

// lineWidth is the most a line of the text output takes, where it can be
// broken between words.
const lineWidth = 200

// wrap breaks text into lines of at most width, between words, each line
// after the first indented.
func wrap(text string, width int, indent string) []string {
	var lines []string
	line := ""
	for _, word := range strings.Split(text, " ") {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width && strings.TrimSpace(line) != "":
			lines = append(lines, line)
			line = indent + word
		default:
			line += " " + word
		}
	}
	return append(lines, line)
}

// rulesList joins rule numbers with commas.
func rulesList(rules []model.RuleID) string {
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}

// againFinding is the command that checks a finding's rules once more
// with the cases this run drew for them (againCommand for its first
// rule, with the others).
func againFinding(res *harness.Results, f *reports.Finding, byRule map[model.RuleID]harness.Result, engine string, checks int) string {
	r := byRule[f.Rules[0]]
	line := againCommand(res, r, engine, checks)
	var more []string
	for _, q := range f.Rules[1:] {
		if !strings.Contains(line, string(q)) {
			more = append(more, string(q))
		}
	}
	if len(more) == 0 {
		return line
	}
	rulesFlag := "--rules " + string(r.Rule)
	i := strings.Index(line, rulesFlag)
	if i < 0 {
		return line
	}
	end := i + len(rulesFlag)
	for end < len(line) && line[end] != ' ' {
		end++
	}
	return line[:end] + "," + strings.Join(more, ",") + line[end:]
}

// printScenario shows a counterexample's scenario and traces: briefly,
// and with verbose in full.
func printScenario(w io.Writer, e harness.EngineInfo, ce *harness.Counterexample, verbose bool) {
	fmt.Fprintf(w, "    %s\n", failure.Shrunk(ce))
	if verbose {
		fmt.Fprintf(w, "        %s\n", strings.ReplaceAll(strings.TrimSpace(failure.ScenarioJSON(ce.Scenario)), "\n", "\n        "))
		if d := ce.Diff(); d != "" {
			fmt.Fprintf(w, "    trace %s\n", strings.ReplaceAll(strings.TrimSpace(d), "\n", "\n        "))
		}
		return
	}
	for _, l := range reports.Brief(ce.Scenario) {
		fmt.Fprintf(w, "        %s\n", l)
	}
	if d := ce.Departure(e); d != "" {
		printWrapped(w, "    the engine's trace first departs from the rules' ", d)
	}
}

// printInternal shows the rules mergecheck itself broke on, first: their
// verdicts are none of the engine's doing. Where it broke (a stack) is
// shown with verbose only; the JSON report always has it.
func printInternal(w io.Writer, res *harness.Results, verbose bool, engine string, checks int) {
	for _, r := range res.Results {
		if r.Verdict != harness.Internal || r.Internal == nil {
			continue
		}
		fmt.Fprintf(w, "INTERNAL    %s\n", r.Internal.Error())
		fmt.Fprintf(w, "    %s\n", failure.Rule(r.Rule))
		fmt.Fprintf(w, "    again: %s\n", againCommand(res, r, engine, checks))
		if verbose && r.Internal.Stack != "" {
			fmt.Fprintf(w, "    where:\n        %s\n", strings.ReplaceAll(strings.TrimSpace(r.Internal.Stack), "\n", "\n        "))
		} else {
			fmt.Fprintln(w, "    please report it with the JSON report (--json), which holds where it broke; -v prints it")
		}
	}
}

// printUnexplained shows a departure no rule's check names, as a
// finding: what departs, what it blocks, that the reference may be the
// one wrong and how to tell, the smallest scenario and how to play it
// again (a run of the rule whose case showed it).
func printUnexplained(w io.Writer, res *harness.Results, f *reports.Finding, verbose bool, engine string, checks int) {
	ce := f.Cases[0]
	printWrapped(w, "UNEXPLAINED ", failure.Unexplained(f.Unexplained))
	if len(f.Blocks) > 0 {
		printWrapped(w, "    fix it first: ", fmt.Sprintf("it blocks %s, judged once it is fixed: %s", words.Count(len(f.Blocks), "rule"), rulesList(f.Blocks)))
	}
	printWrapped(w, "    ", failure.WhoIsWrong)
	if ce.Intermittent {
		fmt.Fprintln(w, "    "+failure.Intermittent)
	}
	printScenario(w, res.Engine, ce, verbose)
	if ce.File != "" {
		fmt.Fprintln(w, "    "+failure.Saved(engine, ce.File))
	}
	fmt.Fprintf(w, "    again: %s\n", againCommand(res, harness.Result{Rule: ce.Rule}, engine, checks))
}

// printBlocked lists the blocked rules by the finding that blocked them.
func printBlocked(w io.Writer, res *harness.Results, findings []reports.Finding) {
	told := map[model.RuleID]bool{}
	for _, f := range findings {
		if len(f.Blocks) == 0 {
			continue
		}
		var what string
		if f.Unexplained != nil {
			what = "the unexplained departure in " + f.Unexplained.Aspect + " (above)"
		} else {
			what = "the finding of " + string(f.Rules[0]) + " (above)"
		}
		var list []string
		for _, r := range f.Blocks {
			told[r] = true
			list = append(list, string(r))
		}
		printWrapped(w, "blocked     ", fmt.Sprintf("%s, their cases lost to %s, judged once it is fixed: %s", words.Count(len(list), "rule"), what, strings.Join(list, " ")))
	}
	// A rule blocked by a finding no finding here shows (of another
	// shard's run, merged): by the rule it names.
	var by []model.RuleID
	rulesBy := map[model.RuleID][]string{}
	for _, r := range res.Results {
		if r.Verdict != harness.Blocked || told[r.Rule] {
			continue
		}
		if _, ok := rulesBy[r.BlockedBy]; !ok {
			by = append(by, r.BlockedBy)
		}
		rulesBy[r.BlockedBy] = append(rulesBy[r.BlockedBy], string(r.Rule))
	}
	for _, b := range by {
		finding := "the finding of " + string(b)
		if b == "" {
			finding = "an unexplained departure"
		}
		printWrapped(w, "blocked     ", fmt.Sprintf("%s, their cases lost to %s, judged once it is fixed: %s", words.Count(len(rulesBy[b]), "rule"), finding, strings.Join(rulesBy[b], " ")))
	}
}

// printVerdict lists the rules with verdict v: each on a line with why,
// with verbose; otherwise their numbers, with why for unsupported ones,
// grouped by it.
func printVerdict(w io.Writer, res *harness.Results, v harness.Verdict, verbose bool) {
	var list []string
	why := map[string][]string{}
	var whys []string
	for _, r := range res.Results {
		if r.Verdict != v {
			continue
		}
		if verbose {
			printVerbose(w, r)
			continue
		}
		list = append(list, string(r.Rule))
		if v == harness.Unsupported {
			if _, ok := why[r.Why]; !ok {
				whys = append(whys, r.Why)
			}
			why[r.Why] = append(why[r.Why], string(r.Rule))
		}
	}
	switch {
	case len(list) == 0:
	case v == harness.Unsupported:
		for _, y := range whys {
			printWrapped(w, "unsupported ", fmt.Sprintf("%s: %s", strings.Join(why[y], " "), y))
		}
	case v == harness.Unchecked:
		printWrapped(w, "unchecked   ", strings.Join(list, " ")+" (no trace can show them; mergecheck list says why)")
	default:
		printWrapped(w, fmt.Sprintf("%-11s ", v), strings.Join(list, " "))
	}
}

// printVerbose is one rule's line, with verbose.
func printVerbose(w io.Writer, r harness.Result) {
	title := rules.Summary(r.Rule)
	switch r.Verdict {
	case harness.Held:
		fmt.Fprintf(w, "held        %-9s %d cases  %s\n", r.Rule, r.Cases, title)
		if r.Excluded+r.Departed > 0 {
			fmt.Fprintf(w, "            %d more cases were other findings' (%s)\n", r.Excluded+r.Departed, harness.ExcludedList(r.ExcludedBy))
		}
	default:
		fmt.Fprintf(w, "%-11s %-9s %s\n", r.Verdict, r.Rule, r.Why)
	}
	if len(r.Coverage) > 0 {
		var labels []string
		for l, n := range r.Coverage {
			labels = append(labels, fmt.Sprintf("%s=%d", l, n))
		}
		slices.Sort(labels)
		fmt.Fprintf(w, "            coverage: %s\n", strings.Join(labels, " "))
	}
}

// printSummary is the run's last lines: the findings, the verdicts
// counted, and whether the run is complete.
func printSummary(w io.Writer, res *harness.Results, findings []reports.Finding) {
	bugs, unexplained := 0, 0
	var rules []model.RuleID
	for _, f := range reports.Unexpected(findings) {
		if f.Unexplained != nil {
			unexplained++
			continue
		}
		bugs++
		for _, r := range f.Rules {
			if !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	failed := len(rules)
	var parts []string
	if bugs > 0 {
		parts = append(parts, fmt.Sprintf("%s failing %s", words.Count(bugs, "bug"), words.Count(failed, "rule")))
	}
	if unexplained > 0 {
		parts = append(parts, words.Count(unexplained, "unexplained departure"))
	}
	if n := res.Count(harness.Fault); n > 0 {
		parts = append(parts, words.Count(n, "engine fault"))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "findings    %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "%d rules: %d held, %d failed, %d blocked, %d uncovered, %d engine faults, %d unsupported, %d unchecked",
		len(res.Results), res.Count(harness.Held), res.Count(harness.Failed), res.Count(harness.Blocked), res.Count(harness.Uncovered),
		res.Count(harness.Fault), res.Count(harness.Unsupported), res.Count(harness.Unchecked))
	if n := res.Count(harness.Interrupted); n > 0 || res.Interrupted {
		fmt.Fprintf(w, ", %d interrupted", n)
	}
	if n := res.Count(harness.Internal); n > 0 {
		fmt.Fprintf(w, ", %d internal errors", n)
	}
	fmt.Fprintf(w, " (%v, %s", res.Elapsed.Round(time.Millisecond), words.Count(res.Calls(), "engine call"))
	if calls := res.Calls(); calls > 0 {
		fmt.Fprintf(w, ", %.1f rules' cases judged a call", float64(res.Judged())/float64(calls))
	}
	fmt.Fprintln(w, ")")
	if !judgedAny(res) && res.Count(harness.Unsupported)+res.Count(harness.Unchecked) == len(res.Results) {
		fmt.Fprintln(w, "NOTHING JUDGED: no rule held or failed (each was unsupported, unchecked or refused): the run checked nothing, and exits 1")
	}
	if note := reports.Incomplete(res); note != "" {
		fmt.Fprintln(w, strings.ToUpper(note[:len("Incomplete")])+note[len("Incomplete"):])
	}
}

// againCommand is the command line that checks r's rule once more with
// the cases this run drew for it: the same engine, checks, seed, time
// limits and corpus, and, for a finding a lead found, the rule whose case
// showed it too.
func againCommand(res *harness.Results, r harness.Result, engine string, checks int) string {
	rules := string(r.Rule)
	if r.FromLead && r.Lead != nil && r.Lead.Rule != r.Rule {
		rules += "," + string(r.Lead.Rule)
	}
	line := fmt.Sprintf("mergecheck run --engine %s --rules %s --checks %d --seed %d", failure.ShellQuote(engine), rules, checks, res.Seed)
	// A slow engine's time limits, which decide whether a case is a fault.
	if t := res.Options.Timeout; t != 0 && t != 5*time.Second {
		line += " --timeout " + t.String()
	}
	if t := res.Options.ShrinkTime; t != 0 && t != 30*time.Second {
		line += " --shrink-time " + t.String()
	}
	// The corpus given, which a run replays first: none is not the
	// default's.
	if c := res.Options.Corpus; c != defaultCorpus {
		line += " --corpus " + failure.ShellQuote(c)
	}
	return line
}

// faultCause is an engine fault as it reads without its rule: what the
// engine did, and its stderr.
func faultCause(f *harness.EngineFault) string {
	return strings.TrimPrefix(f.Error(), string(f.Rule)+": ")
}

// faultKey is what faults of one cause share: the cause without the
// adapter's stderr, which names each request ("answering request 15").
func faultKey(f *harness.EngineFault) string {
	key, _, _ := strings.Cut(faultCause(f), "\n")
	key, _, _ = strings.Cut(key, " (adapter stderr: ")
	return key
}

// faultsByCause groups the rules whose engine faults have one cause, so
// that an adapter that fails every scenario one way is one line.
func faultsByCause(res *harness.Results) map[string][]model.RuleID {
	by := map[string][]model.RuleID{}
	for _, r := range res.Results {
		if r.Verdict == harness.Fault && r.Fault != nil {
			by[faultKey(r.Fault)] = append(by[faultKey(r.Fault)], r.Rule)
		}
	}
	return by
}

// rulesText names rules: one by itself, a few listed, many counted with
// the first and last.
func rulesText(rules []model.RuleID) string {
	switch {
	case len(rules) == 1:
		return string(rules[0])
	case len(rules) <= 6:
		parts := make([]string, len(rules))
		for i, r := range rules {
			parts[i] = string(r)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%d rules, %s to %s", len(rules), rules[0], rules[len(rules)-1])
}
