package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/rules"
)

// The JUnit XML elements WriteJUnit writes. The format has no single
// specification; these are the elements and attributes that Jenkins,
// GitLab, GitHub Actions reporters and Azure Pipelines all read.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Timestamp  string          `xml:"timestamp,attr,omitempty"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
		SystemOut  *junitText      `xml:"system-out,omitempty"`
	}
	junitText struct {
		Text string `xml:",cdata"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Classname string        `xml:"classname,attr"`
		Name      string        `xml:"name,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitOutcome `xml:"failure,omitempty"`
		Error     *junitOutcome `xml:"error,omitempty"`
		Skipped   *junitOutcome `xml:"skipped,omitempty"`
	}
	junitOutcome struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr,omitempty"`
		Text    string `xml:",cdata"`
	}
)

// WriteJUnit writes the run as JUnit XML: one testsuite named "mergecheck"
// with a testcase per rule, named by the rule number and its summary.
//
// A failed rule is a <failure> typed with its rule number, whose text holds
// the shrunk scenario as JSON and the trace diff. An engine fault is an
// <error>. An uncovered rule is a <failure> of type "uncovered": the
// generators no longer reach it, and a rule nothing checked must not pass.
// Unsupported and unchecked rules, and failures a baseline expects, are
// <skipped>, with the reason as message.
func WriteJUnit(w io.Writer, r *harness.Results) error {
	suite := junitSuite{
		Name: "mergecheck",
		Time: junitSeconds(r.Elapsed),
		Properties: []junitProperty{
			{Name: "engine", Value: r.Engine.Name},
			{Name: "version", Value: r.Engine.Version},
			{Name: "seed", Value: strconv.FormatUint(r.Seed, 10)},
			{Name: "checks", Value: strconv.Itoa(r.Options.Checks)},
			{Name: "rules", Value: "Comprehensive Rules effective " + rules.CRDate},
		},
	}
	if !r.Started.IsZero() {
		suite.Timestamp = r.Started.UTC().Format(time.RFC3339)
	}
	if note := Incomplete(r); note != "" {
		// A CI system shows an error; a property alone it would not.
		suite.Properties = append(suite.Properties, junitProperty{Name: "incomplete", Value: note})
		suite.Cases = append(suite.Cases, junitCase{Classname: "mergecheck." + r.Engine.Name, Name: "the run is complete",
			Error: &junitOutcome{Message: note, Type: "incomplete"}})
		suite.Errors++
	}
	engine := failure.Engine(r.Engine.Name)
	for _, res := range r.Results {
		c := junitCase{
			Classname: "mergecheck." + r.Engine.Name,
			Name:      strings.TrimSpace(string(res.Rule) + " " + rules.Summary(res.Rule)),
			Time:      junitSeconds(res.Elapsed),
		}
		switch {
		case res.Expected && (res.Verdict == harness.Failed || res.Verdict == harness.Fault):
			c.Skipped = &junitOutcome{Message: "expected failure (baseline): " + oneLine(problemOf(res)), Text: junitDetail(res, engine)}
			suite.Skipped++
		case res.Verdict == harness.Failed:
			c.Failure = &junitOutcome{Message: oneLine(problemOf(res)), Type: string(res.Rule), Text: junitDetail(res, engine)}
			suite.Failures++
		case res.Verdict == harness.Fault:
			c.Error = &junitOutcome{Message: oneLine(problemOf(res)), Type: string(harness.Fault), Text: junitDetail(res, engine)}
			suite.Errors++
		case res.Verdict == harness.Uncovered:
			c.Failure = &junitOutcome{Message: oneLine(problemOf(res)), Type: string(harness.Uncovered), Text: junitDetail(res, engine)}
			suite.Failures++
		case res.Verdict == harness.Internal:
			// mergecheck broke, not the engine: an error of the run.
			c.Error = &junitOutcome{Message: oneLine(res.Why), Type: string(harness.Internal), Text: internalText(res)}
			suite.Errors++
		case res.Verdict == harness.Interrupted:
			// Not run to its end: neither a pass nor a finding.
			c.Error = &junitOutcome{Message: oneLine(res.Why), Type: string(harness.Interrupted)}
			suite.Errors++
		case res.Verdict == harness.Held:
		default: // unsupported, unchecked, and any verdict added later
			c.Skipped = &junitOutcome{Message: string(res.Verdict) + ": " + oneLine(res.Why)}
			suite.Skipped++
		}
		suite.Cases = append(suite.Cases, c)
	}
	for _, u := range r.Unexplained {
		// A finding that fails no rule: a case of its own, so that a
		// dashboard shows it.
		res := harness.Result{Rule: u.Counterexample.Rule, Verdict: harness.Failed, Counterexample: u.Counterexample}
		suite.Cases = append(suite.Cases, junitCase{Classname: "mergecheck." + r.Engine.Name, Name: "unexplained departure in " + u.Aspect,
			Failure: &junitOutcome{Message: oneLine("an unexplained " + failure.Unexplained(&u)), Type: "unexplained", Text: junitDetail(res, engine)}})
		suite.Failures++
	}
	for i := range suite.Cases {
		c := &suite.Cases[i]
		for _, o := range []*junitOutcome{c.Failure, c.Error, c.Skipped} {
			if o != nil {
				o.Text = xmlChars(o.Text)
			}
		}
	}
	suite.Tests = len(suite.Cases)
	if sum := skippedSummary(r); sum != "" {
		suite.SystemOut = &junitText{xmlChars(sum)}
	}
	doc := junitSuites{
		Name: "mergecheck", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Skipped: suite.Skipped, Time: suite.Time, Suites: []junitSuite{suite},
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// problemOf returns what went wrong with a rule, prefixed by the rule
// number: the counterexample's problem, the engine's error, or why the
// rule was not checked.
func problemOf(res harness.Result) string {
	switch {
	case res.Counterexample != nil:
		return res.Counterexample.Error()
	case res.Fault != nil:
		return fmt.Sprintf("%s: engine fault: %v", res.Rule, res.Fault.Err)
	case res.Why != "":
		return fmt.Sprintf("%s: %s: %s", res.Rule, res.Verdict, res.Why)
	}
	return fmt.Sprintf("%s: %s", res.Rule, res.Verdict)
}

// oneLine joins the lines of s with " / ", for attributes that CI systems
// show on one line.
func oneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " / ")
}

// junitDetail is the body of a failure, error or expected failure: the
// problem, the rule and its summary, and the evidence (a counterexample's
// as failure.Text has it).
func junitDetail(res harness.Result, engine string) string {
	var b strings.Builder
	if ce := res.Counterexample; ce != nil {
		b.WriteString("\n" + failure.Text(ce, engine))
		for i := range res.Others {
			o := &res.Others[i]
			b.WriteString(failure.Another(o) + "\n")
			if o.Scenario != nil {
				b.WriteString(failure.ScenarioJSON(o.Scenario))
			}
		}
		return b.String()
	}
	fmt.Fprintf(&b, "\n%s\n%s\n", problemOf(res), failure.Rule(res.Rule))
	switch {
	case res.Fault != nil:
		f := res.Fault
		fmt.Fprintf(&b, "error: %v\n", f.Err)
		if len(f.Stderr) > 0 {
			b.WriteString("stderr (last lines):\n\t" + strings.Join(f.Stderr, "\n\t") + "\n")
		}
		if f.Scenario != nil {
			b.WriteString("scenario:\n")
			b.WriteString(failure.ScenarioJSON(f.Scenario))
		}
	case res.Verdict == harness.Uncovered:
		fmt.Fprintf(&b, "cases run: %d\n", res.Cases)
		for _, label := range sortedKeys(res.Coverage) {
			fmt.Fprintf(&b, "\t%s: %d cases\n", label, res.Coverage[label])
		}
	}
	return b.String()
}

// xmlChars replaces the characters XML 1.0 cannot hold (most control
// characters, which an engine's stderr may contain) with U+FFFD. The
// encoder does this for attributes and escaped text but not for CDATA.
func xmlChars(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

func junitSeconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// skippedSummary says in a few lines why the skipped rules were skipped:
// the unsupported ones grouped by why, then the unchecked ones. A CI
// page shows it once, where each skipped case says it alone.
func skippedSummary(r *harness.Results) string {
	unsupported, unchecked := unjudged(r)
	var b strings.Builder
	if n := r.Count(harness.Unsupported); n > 0 {
		fmt.Fprintf(&b, "%d %s unsupported, by why:\n", n, plural(n, "rule", "rules"))
		for _, g := range unsupported {
			fmt.Fprintf(&b, "  %s: %s\n", ruleList(g.Rules), g.Why)
		}
	}
	if len(unchecked) > 0 {
		fmt.Fprintf(&b, "%d unchecked (no trace can show them; mergecheck list says why): %s\n", len(unchecked), ruleList(unchecked))
	}
	return b.String()
}

// internalText is what broke in mergecheck, and where.
func internalText(res harness.Result) string {
	if res.Internal == nil {
		return res.Why
	}
	return res.Internal.Msg + "\n" + res.Internal.Stack
}
