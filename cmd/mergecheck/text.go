package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reports"
	"github.com/mergecheck/mergecheck/rules"
)

// printResults writes a run for a terminal, what to fix first at the
// top: each finding once (a failed rule, with the rules its minimal
// scenario fails too; an engine fault; an unexplained departure), then
// the rules a finding blocked, those not judged enough, and the rest as
// lists of rule numbers. With verbose, every rule has a line of its own,
// and each counterexample its scenario and trace diff in full.
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
	shown := map[model.RuleID]bool{}
	faults := faultsByCause(res)
	for _, r := range res.Results {
		switch {
		case r.Verdict == harness.Failed && r.Expected:
			fmt.Fprintf(w, "expected    %s (in the baseline)\n", r.Counterexample.Error())
		case r.Verdict == harness.Failed && !shown[r.Rule]:
			same := reports.SharedWith(findings, r.Rule, r.Counterexample)
			printFailure(w, res, r, same, verbose, engine, checks)
			for _, q := range same {
				shown[q] = true
			}
		case r.Verdict == harness.Failed:
			fmt.Fprintf(w, "FAILED      %s (the finding above)\n", r.Counterexample.Error())
		case r.Verdict == harness.Fault:
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
	}
	for _, u := range res.Unexplained {
		printUnexplained(w, u, verbose)
	}
	printBlocked(w, res)
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

// printFailure shows one finding: the failed rule's problem, the other
// rules its minimal scenario fails, the scenario and where the engine's
// trace departs from the rules'.
func printFailure(w io.Writer, res *harness.Results, r harness.Result, same []model.RuleID, verbose bool, engine string, checks int) {
	ce := r.Counterexample
	comps, acts := ce.Size()
	fmt.Fprintf(w, "FAILED      %s\n", ce.Error())
	fmt.Fprintf(w, "    rule %s: %s\n", r.Rule, rules.Summary(r.Rule))
	if len(same) > 0 {
		fmt.Fprintf(w, "    one finding with %v: the same minimal scenario fails them too\n", same)
	}
	if ce.Found != "" {
		fmt.Fprintf(w, "    found by %s's check: %s\n", ce.Found, rules.Summary(ce.Found))
	}
	if r.FromLead && r.Lead != nil {
		fmt.Fprintf(w, "    found in a case drawn for %s; this rule's own %d cases held\n", r.Lead.Rule, r.Cases)
	}
	if ce.Intermittent {
		fmt.Fprintln(w, "    intermittent: the engine did not fail again when the scenario was played once more")
	}
	for _, e := range ce.ShrinkErrors {
		fmt.Fprintf(w, "    while shrinking, the engine would not play %s: %s\n", count(e.Count, "scenario"), e.Reason)
	}
	printScenario(w, ce, comps, acts, verbose)
	if ce.File != "" {
		fmt.Fprintf(w, "    saved: %s (replay: mergecheck replay --engine %s %s)\n", ce.File, shellQuote(engine), shellQuote(ce.File))
	}
	fmt.Fprintf(w, "    again: %s\n", againCommand(res, r, engine, checks))
	for _, o := range r.Others {
		comps, acts := o.Size()
		fmt.Fprintf(w, "    and another problem: %s (%d components, %d actions)\n", o.Problem, comps, acts)
		if o.File != "" {
			fmt.Fprintf(w, "        saved: %s\n", o.File)
		}
	}
}

// printScenario shows a counterexample's scenario and traces: briefly,
// and with verbose in full.
func printScenario(w io.Writer, ce *harness.Counterexample, comps, acts int, verbose bool) {
	fmt.Fprintf(w, "    scenario (shrunk): %d components, %d actions\n", comps, acts)
	if verbose {
		if b, err := model.Encode(ce.Scenario); err == nil {
			fmt.Fprintf(w, "        %s\n", strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", "\n        "))
		}
		if d := ce.Diff(); d != "" {
			fmt.Fprintf(w, "    trace %s\n", strings.ReplaceAll(strings.TrimSpace(d), "\n", "\n        "))
		}
		return
	}
	for _, l := range reports.Brief(ce.Scenario) {
		fmt.Fprintf(w, "        %s\n", l)
	}
	if d := ce.Departure(); d != "" {
		fmt.Fprintf(w, "    the engine's trace first departs from the rules' %s\n", d)
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
		fmt.Fprintf(w, "    rule %s: %s\n", r.Rule, rules.Summary(r.Rule))
		fmt.Fprintf(w, "    again: %s\n", againCommand(res, r, engine, checks))
		if verbose && r.Internal.Stack != "" {
			fmt.Fprintf(w, "    where:\n        %s\n", strings.ReplaceAll(strings.TrimSpace(r.Internal.Stack), "\n", "\n        "))
		} else {
			fmt.Fprintln(w, "    please report it with the JSON report (--json), which holds where it broke; -v prints it")
		}
	}
}

// printUnexplained shows a departure no rule's check names.
func printUnexplained(w io.Writer, u harness.Unexplained, verbose bool) {
	ce := u.Counterexample
	comps, acts := ce.Size()
	fmt.Fprintf(w, "UNEXPLAINED departure in %s, where no rule's check looks (a rule mergecheck lacks, or a check too narrow): %s\n", u.Aspect, ce.Problem)
	fmt.Fprintf(w, "    seen in %s; it fails none of them\n", reports.CasesText(u.Cases))
	printScenario(w, ce, comps, acts, verbose)
}

// printBlocked lists the blocked rules by the finding that blocked them.
func printBlocked(w io.Writer, res *harness.Results) {
	var by []model.RuleID
	rulesBy := map[model.RuleID][]string{}
	for _, r := range res.Results {
		if r.Verdict != harness.Blocked {
			continue
		}
		if _, ok := rulesBy[r.BlockedBy]; !ok {
			by = append(by, r.BlockedBy)
		}
		rulesBy[r.BlockedBy] = append(rulesBy[r.BlockedBy], string(r.Rule))
	}
	for _, b := range by {
		finding := string(b) + "'s finding"
		if b == "" {
			finding = "an unexplained departure"
		}
		fmt.Fprintf(w, "blocked     %s, their cases lost to %s (fix it first; then they can be judged): %s\n", count(len(rulesBy[b]), "rule"), finding, strings.Join(rulesBy[b], " "))
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
			fmt.Fprintf(w, "unsupported %s: %s\n", strings.Join(why[y], " "), y)
		}
	case v == harness.Unchecked:
		fmt.Fprintf(w, "unchecked   %s (no trace can show them; mergecheck list says why)\n", strings.Join(list, " "))
	default:
		fmt.Fprintf(w, "%-11s %s\n", v, strings.Join(list, " "))
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
	failed := 0
	for _, f := range findings {
		failed += len(f.Rules)
	}
	var parts []string
	if len(findings) > 0 {
		parts = append(parts, fmt.Sprintf("%s failing %s", count(len(findings), "minimal scenario"), count(failed, "rule")))
	}
	if n := len(res.Unexplained); n > 0 {
		parts = append(parts, count(n, "unexplained departure"))
	}
	if n := res.Count(harness.Fault); n > 0 {
		parts = append(parts, count(n, "engine fault"))
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
	fmt.Fprintf(w, " (%v, %s", res.Elapsed.Round(time.Millisecond), count(res.Calls(), "engine call"))
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
// the cases this run drew for it: the same engine, checks and seed, and,
// for a finding a lead found, the rule whose case showed it too.
func againCommand(res *harness.Results, r harness.Result, engine string, checks int) string {
	rules := string(r.Rule)
	if r.FromLead && r.Lead != nil && r.Lead.Rule != r.Rule {
		rules += "," + string(r.Lead.Rule)
	}
	line := fmt.Sprintf("mergecheck run --engine %s --rules %s --checks %d --seed %d", shellQuote(engine), rules, checks, res.Seed)
	// A slow engine's time limits, which decide whether a case is a fault.
	if t := res.Options.Timeout; t != 0 && t != 5*time.Second {
		line += " --timeout " + t.String()
	}
	if t := res.Options.ShrinkTime; t != 0 && t != 30*time.Second {
		line += " --shrink-time " + t.String()
	}
	return line
}

// shellQuote quotes s for a POSIX shell where it needs it, so that a
// printed command pastes as one: an adapter's command line is one
// --engine value.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=,@%+-", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
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
