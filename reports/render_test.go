package reports_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
	"github.com/mergecheck/mergecheck/rules"
)

// mutantResults checks the mutant whose merged permanents are tokens when
// any component is one: 730.2d fails with a counterexample of two
// components and no actions, 730.3 holds.
func mutantResults(t *testing.T) *harness.Results {
	t.Helper()
	e, err := harness.Reference("token-if-any-token")
	require.NoError(t, err)
	r, err := harness.Check(context.Background(), e,
		[]*properties.Property{properties.P730_2d, properties.P730_3}, &harness.Options{Checks: 50, Seed: 1})
	require.NoError(t, err)
	require.Len(t, r.Results, 2)
	require.Equal(t, harness.Failed, r.Results[0].Verdict, "the mutant breaks 730.2d")
	require.NotNil(t, r.Results[0].Counterexample)
	require.Equal(t, harness.Held, r.Results[1].Verdict, "the mutant keeps 730.3")
	return r
}

// everyVerdict is the mutant run with a result of every other kind added:
// an engine fault, an uncovered rule, an unsupported one, an unchecked one
// and a failure the baseline expects. Their rule numbers are real, so they
// have summaries; their contents are made up.
func everyVerdict(t *testing.T) *harness.Results {
	t.Helper()
	r := mutantResults(t)
	ce := r.Results[0].Counterexample
	expected := r.Results[0]
	expected.Rule, expected.Expected = "730.2e", true
	expected.Counterexample = &harness.Counterexample{Rule: "730.2e", Problem: "a known failure", Scenario: ce.Scenario, Got: ce.Got, Want: ce.Want, Seed: ce.Seed}
	r.Results = append(r.Results,
		harness.Result{Rule: "730.2", Verdict: harness.Fault, Fault: &harness.EngineFault{
			Rule: "730.2", Scenario: ce.Scenario, Err: errors.New("adapter exited: signal: killed"),
			Stderr: []string{"panic: merge of nil permanent", "goroutine 1 [running]:"},
		}},
		harness.Result{Rule: "730.2b", Verdict: harness.Uncovered, Cases: 50, Why: `label "merge-onto-face-down" reached 1% of cases, needs 5%`,
			Coverage: map[string]int{"merge-onto-face-down": 1}},
		harness.Result{Rule: "730.2c", Verdict: harness.Unsupported, Why: "the engine does not declare meld"},
		harness.Result{Rule: "730.2a", Verdict: harness.Unchecked, Why: "no trace can show it"},
		expected,
	)
	return r
}

// The JUnit elements the tests read back.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string `xml:"name,attr"`
		Tests      int    `xml:"tests,attr"`
		Failures   int    `xml:"failures,attr"`
		Errors     int    `xml:"errors,attr"`
		Skipped    int    `xml:"skipped,attr"`
		Time       string `xml:"time,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Classname string        `xml:"classname,attr"`
		Name      string        `xml:"name,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitOutcome `xml:"failure"`
		Error     *junitOutcome `xml:"error"`
		Skipped   *junitOutcome `xml:"skipped"`
	}
	junitOutcome struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

func readJUnit(t *testing.T, r *harness.Results) (*junitSuites, string) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, reports.WriteJUnit(&buf, r))
	var doc junitSuites
	require.NoError(t, xml.Unmarshal(buf.Bytes(), &doc), "WriteJUnit's output is well-formed XML:\n%s", buf.String())
	require.Len(t, doc.Suites, 1)
	return &doc, buf.String()
}

func TestJUnit_OneTestCasePerRule(t *testing.T) {
	r := everyVerdict(t)
	doc, _ := readJUnit(t, r)
	s := doc.Suites[0]
	assert.Equal(t, "mergecheck", s.Name)
	require.Len(t, s.Cases, len(r.Results))
	for i, res := range r.Results {
		c := s.Cases[i]
		assert.Equal(t, "mergecheck.mutant:token-if-any-token", c.Classname)
		assert.Equal(t, string(res.Rule)+" "+rules.Summary(res.Rule), c.Name, "a test case is named by its rule and the rule's summary")
		assert.NotEmpty(t, c.Time)
	}
	props := map[string]string{}
	for _, p := range s.Properties {
		props[p.Name] = p.Value
	}
	assert.Equal(t, "mutant:token-if-any-token", props["engine"])
	assert.Equal(t, r.Engine.Version, props["version"])
	assert.Equal(t, "1", props["seed"])
}

func TestJUnit_FailureNamesTheRuleAndCarriesTheScenario(t *testing.T) {
	r := mutantResults(t)
	doc, _ := readJUnit(t, r)
	c := doc.Suites[0].Cases[0]
	require.NotNil(t, c.Failure, "730.2d failed")
	assert.Nil(t, c.Error)
	assert.Nil(t, c.Skipped)
	assert.Equal(t, "730.2d", c.Failure.Type)
	assert.True(t, strings.HasPrefix(c.Failure.Message, "730.2d: "), "message %q starts with the rule", c.Failure.Message)
	assert.Contains(t, c.Failure.Message, r.Results[0].Counterexample.Problem)
	assert.Contains(t, c.Failure.Text, rules.Summary("730.2d"))

	want, err := model.Encode(r.Results[0].Counterexample.Scenario)
	require.NoError(t, err)
	assert.Contains(t, c.Failure.Text, string(want), "the failure's text holds the shrunk scenario as JSON")
	assert.Contains(t, c.Failure.Text, "(-reference +engine)", "and the trace diff")

	held := doc.Suites[0].Cases[1]
	assert.Nil(t, held.Failure)
	assert.Nil(t, held.Error)
	assert.Nil(t, held.Skipped)
}

func TestJUnit_CountsMatchTheOutcomes(t *testing.T) {
	r := everyVerdict(t)
	doc, _ := readJUnit(t, r)
	s := doc.Suites[0]
	byRule := map[string]junitCase{}
	var failures, errs, skipped int
	for _, c := range s.Cases {
		byRule[strings.Fields(c.Name)[0]] = c
		n := 0
		if c.Failure != nil {
			failures, n = failures+1, n+1
		}
		if c.Error != nil {
			errs, n = errs+1, n+1
		}
		if c.Skipped != nil {
			skipped, n = skipped+1, n+1
		}
		assert.LessOrEqual(t, n, 1, "%s has at most one outcome element", c.Name)
	}
	assert.Equal(t, len(s.Cases), s.Tests)
	assert.Equal(t, failures, s.Failures)
	assert.Equal(t, errs, s.Errors)
	assert.Equal(t, skipped, s.Skipped)
	assert.Equal(t, []int{s.Tests, s.Failures, s.Errors, s.Skipped}, []int{doc.Tests, doc.Failures, doc.Errors, doc.Skipped})
	assert.Equal(t, []int{7, 2, 1, 3}, []int{s.Tests, s.Failures, s.Errors, s.Skipped},
		"tests: seven rules, 730.3 held; failures: 730.2d and the uncovered rule; errors: the fault; skipped: unsupported, unchecked and the expected failure")

	if c := byRule["730.2b"]; assert.NotNil(t, c.Failure, "an uncovered rule must not pass vacuously") {
		assert.Equal(t, "uncovered", c.Failure.Type)
		assert.Contains(t, c.Failure.Message, "merge-onto-face-down")
	}
	if c := byRule["730.2"]; assert.NotNil(t, c.Error, "an engine fault is an error") {
		assert.Contains(t, c.Error.Message, "adapter exited: signal: killed")
		assert.Contains(t, c.Error.Text, "panic: merge of nil permanent")
		assert.Contains(t, c.Error.Text, `"format": "mergecheck/scenario/v1"`, "with the scenario")
	}
	if c := byRule["730.2c"]; assert.NotNil(t, c.Skipped) {
		assert.Contains(t, c.Skipped.Message, "the engine does not declare meld")
	}
	if c := byRule["730.2a"]; assert.NotNil(t, c.Skipped) {
		assert.Contains(t, c.Skipped.Message, "no trace can show it")
	}
	if c := byRule["730.2e"]; assert.NotNil(t, c.Skipped, "a failure the baseline expects is skipped") {
		assert.True(t, strings.HasPrefix(c.Skipped.Message, "expected failure (baseline): "), c.Skipped.Message)
		assert.Contains(t, c.Skipped.Message, "a known failure")
	}
}

func TestJUnit_EngineTextStaysWellFormed(t *testing.T) {
	r := mutantResults(t)
	r.Results[0].Counterexample.Problem = "ends ]]> here <b>&amp;\x00\x1b[31m"
	doc, _ := readJUnit(t, r)
	f := doc.Suites[0].Cases[0].Failure
	require.NotNil(t, f)
	assert.Contains(t, f.Message, "ends ]]> here <b>&amp;")
	assert.Contains(t, f.Text, "ends ]]> here <b>&amp;", "a CDATA terminator in engine text does not end the text")
	assert.NotContains(t, f.Text, "\x00", "characters XML cannot hold are replaced")
}

// htmlDoc renders r as HTML and parses it.
func htmlDoc(t *testing.T, r *harness.Results) *html.Node {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, reports.WriteHTML(&buf, r))
	doc, err := html.Parse(&buf)
	require.NoError(t, err)
	return doc
}

// find returns the elements under n, in document order, for which keep is true.
func find(n *html.Node, keep func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && keep(d) {
			out = append(out, d)
		}
	}
	return out
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func class(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return hasClass(n, name) }
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, c string) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

func byID(t *testing.T, doc *html.Node, id string) *html.Node {
	t.Helper()
	found := find(doc, func(n *html.Node) bool { return attr(n, "id") == id })
	require.Len(t, found, 1, "one element has id %q", id)
	return found[0]
}

func TestHTML_EveryRuleInTheTable(t *testing.T) {
	r := everyVerdict(t)
	doc := htmlDoc(t, r)
	tables := find(doc, class("rules"))
	require.Len(t, tables, 1)
	rows := find(tables[0], func(n *html.Node) bool { return n.Data == "tr" && len(find(n, tag("td"))) > 0 })
	require.Len(t, rows, len(r.Results), "one row per rule")
	for i, res := range r.Results {
		cells := find(rows[i], tag("td"))
		require.GreaterOrEqual(t, len(cells), 5)
		assert.Equal(t, string(res.Rule), text(cells[0]))
		assert.Contains(t, text(cells[1]), string(res.Verdict))
		assert.Contains(t, text(rows[i]), rules.Summary(res.Rule))
		verdict := find(cells[1], class("verdict"))
		if assert.Len(t, verdict, 1) {
			assert.Regexp(t, `\bv-[a-z]+\b`, attr(verdict[0], "class"), "the verdict is colour-coded")
		}
	}
	for _, c := range []struct {
		rule, class string
	}{{"730.2d", "v-failed"}, {"730.3", "v-held"}, {"730.2", "v-fault"}, {"730.2b", "v-uncovered"}, {"730.2e", "v-expected"}} {
		var got *html.Node
		for _, tr := range rows {
			if text(find(tr, tag("td"))[0]) == c.rule {
				got = tr
			}
		}
		if assert.NotNil(t, got, c.rule) {
			assert.True(t, hasClass(got, c.class), "%s's row has class %s: %q", c.rule, c.class, attr(got, "class"))
		}
	}
}

func TestHTML_SectionPerFailureDrawsTheStack(t *testing.T) {
	r := everyVerdict(t)
	doc := htmlDoc(t, r)
	sections := find(doc, tag("section"))
	var ids []string
	for _, s := range sections {
		ids = append(ids, attr(s, "id"))
	}
	assert.ElementsMatch(t, []string{"rule-730.2d", "rule-730.2", "rule-730.2e"}, ids,
		"a section per failure and per engine fault, expected or not")
	links := find(doc, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "#rule-730.2d" })
	assert.Len(t, links, 2, "the list of bugs and the table link to the failure's section")
	bugs := find(doc, func(n *html.Node) bool { return n.Data == "ol" && attr(n, "class") == "bugs" })
	require.Len(t, bugs, 1, "the bugs, in the order to fix them")
	assert.Contains(t, text(bugs[0]), "730.2d")

	sec := byID(t, doc, "rule-730.2d")
	ce := r.Results[0].Counterexample
	assert.Contains(t, text(sec), ce.Problem)

	stacks := find(sec, class("stack"))
	require.Len(t, stacks, len(ce.Scenario.Start.Battlefield), "a column per permanent")
	cards := find(stacks[0], class("card"))
	require.Len(t, cards, len(ce.Scenario.Start.Battlefield[0].Components), "a card per component")
	// The counterexample: p1 is c1 (Grizzly Bears, a card) on top of t1 (a Saproling token).
	assert.Contains(t, text(cards[0]), "Grizzly Bears", "the topmost component is drawn first")
	assert.Contains(t, text(cards[0]), "top")
	assert.False(t, hasClass(cards[0], "token"))
	assert.Contains(t, text(cards[1]), "Saproling Token")
	assert.True(t, hasClass(cards[1], "token"), "the token component is marked")
	assert.Contains(t, text(cards[1]), "token")
	assert.Len(t, find(sec, class("token")), 1, "exactly one card is marked token")

	actions := find(sec, class("actions"))
	assert.Empty(t, actions, "the counterexample has no actions")
	assert.Contains(t, text(sec), "None: the starting state alone shows the problem")
}

func TestHTML_CardsShowFaceDownAndBackFace(t *testing.T) {
	r := mutantResults(t)
	sc := r.Results[0].Counterexample.Scenario
	bears := sc.Def("Grizzly Bears")
	require.NotNil(t, bears)
	bears.Layout = model.LayoutTransform
	bears.Back = &model.Face{Name: "Grizzly Werebears", Types: []string{"creature"}}
	p := &sc.Start.Battlefield[0]
	p.Components[0].Face = model.Back
	p.Components[1].FaceDown, p.Components[1].FaceDownBy = true, model.ByManifest

	doc := htmlDoc(t, r)
	cards := find(byID(t, doc, "rule-730.2d"), class("card"))
	require.Len(t, cards, 2)
	assert.True(t, hasClass(cards[0], "back-up"))
	assert.Contains(t, text(cards[0]), "back face up")
	assert.Contains(t, text(cards[0]), "Grizzly Werebears", "the face shown is named")
	assert.True(t, hasClass(cards[1], "face-down"))
	assert.True(t, hasClass(cards[1], "token"))
	assert.Contains(t, text(cards[1]), "face down")
	assert.Contains(t, text(cards[1]), "manifest", "the kind of face-down permanent is shown")
}

func TestHTML_HighlightsTheLinesThatDiffer(t *testing.T) {
	r := mutantResults(t)
	doc := htmlDoc(t, r)
	sec := byID(t, doc, "rule-730.2d")
	traces := find(sec, class("trace"))
	require.Len(t, traces, 1, "the starting state is the only step")
	headers := find(traces[0], tag("th"))
	require.Len(t, headers, 2)
	assert.Equal(t, "reference engine", text(headers[0]))
	assert.Equal(t, "mutant:token-if-any-token", text(headers[1]))

	var left, right []string
	for _, tr := range find(traces[0], tag("tr")) {
		cells := find(tr, tag("td"))
		if len(cells) != 2 {
			continue
		}
		if hasClass(cells[0], "changed") {
			left = append(left, text(cells[0]))
		}
		if hasClass(cells[1], "changed") {
			right = append(right, text(cells[1]))
		}
	}
	// The engine says the merged permanent is a token; the reference, not.
	assert.Equal(t, []string{"  is: nontoken, merged"}, left)
	assert.Equal(t, []string{"  is: token, merged"}, right)
	assert.Contains(t, text(sec), "Token:", "the go-cmp diff is shown too")
}

func TestHTML_IsSelfContained(t *testing.T) {
	doc := htmlDoc(t, everyVerdict(t))
	assert.Empty(t, find(doc, tag("script")), "no scripts")
	assert.Empty(t, find(doc, tag("link")), "no linked stylesheets or icons")
	assert.Empty(t, find(doc, tag("img")), "no images")
	assert.Empty(t, find(doc, tag("iframe")))
	for _, n := range find(doc, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			if a.Key == "src" || a.Key == "href" || a.Key == "action" || a.Key == "srcset" {
				assert.NotContains(t, a.Val, "http://", "<%s %s=%q>", n.Data, a.Key, a.Val)
				assert.NotContains(t, a.Val, "https://", "<%s %s=%q>", n.Data, a.Key, a.Val)
				assert.False(t, strings.HasPrefix(a.Val, "//"), "<%s %s=%q> is a network-path reference", n.Data, a.Key, a.Val)
				assert.True(t, strings.HasPrefix(a.Val, "#"), "<%s %s=%q> points inside the page", n.Data, a.Key, a.Val)
			}
			assert.False(t, strings.HasPrefix(a.Key, "on"), "no event handler attributes: <%s %s>", n.Data, a.Key)
		}
	}
	for _, style := range find(doc, tag("style")) {
		css := text(style)
		assert.NotContains(t, css, "url(", "the CSS loads nothing")
		assert.NotContains(t, css, "@import")
	}
}

func TestHTML_EngineFaultHasASection(t *testing.T) {
	doc := htmlDoc(t, everyVerdict(t))
	sec := byID(t, doc, "rule-730.2")
	got := text(sec)
	assert.Contains(t, got, "adapter exited: signal: killed")
	assert.Contains(t, got, "panic: merge of nil permanent")
	assert.Contains(t, got, "goroutine 1 [running]:")
	assert.Contains(t, got, `"format": "mergecheck/scenario/v1"`, "the scenario it could not play")
	assert.NotEmpty(t, find(sec, class("card")), "drawn as stacks too")
}

func TestHTML_StringsFromTheEngineAreInert(t *testing.T) {
	const (
		cardName = `<script>alert(1)</script>`
		problem  = `"><img src=x onerror=alert(1)>`
	)
	r := mutantResults(t)
	r.Engine.Name = `</title><script>alert(2)</script>`
	ce := r.Results[0].Counterexample
	ce.Problem = problem
	sc := ce.Scenario
	renamed := 0
	for i := range sc.Catalogue {
		if sc.Catalogue[i].Name == "Grizzly Bears" {
			sc.Catalogue[i].Name, sc.Catalogue[i].Front.Name = cardName, cardName
		}
	}
	for i := range sc.Objects {
		if sc.Objects[i].Def == "Grizzly Bears" {
			sc.Objects[i].Def = cardName
			renamed++
		}
	}
	require.Positive(t, renamed, "the counterexample has a Grizzly Bears to rename")

	doc := htmlDoc(t, r)
	assert.Empty(t, find(doc, tag("script")), "no script element")
	assert.Empty(t, find(doc, tag("img")), "no img element")
	for _, n := range find(doc, func(*html.Node) bool { return true }) {
		for _, a := range n.Attr {
			assert.False(t, strings.HasPrefix(a.Key, "on"), "no event handler attributes: <%s %s>", n.Data, a.Key)
		}
	}
	all := text(doc)
	assert.Contains(t, all, cardName, "the card's name is shown as text")
	assert.Contains(t, all, problem, "the problem is shown as text")
	assert.Contains(t, all, r.Engine.Name)
	cards := find(byID(t, doc, "rule-730.2d"), class("card"))
	require.NotEmpty(t, cards)
	assert.Contains(t, text(cards[0]), cardName, "the topmost card is named from the catalogue")
}

func markdown(t *testing.T, r *harness.Results) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, reports.WriteMarkdown(&buf, r))
	return buf.String()
}

// fencedBlock is a fenced code block as CommonMark reads it.
type fencedBlock struct {
	fence, info, content string
}

var (
	openingFence = regexp.MustCompile("^ {0,3}(`{3,})([^`]*)$")
	closingFence = regexp.MustCompile("^ {0,3}(`{3,}) *$")
)

// fencedBlocks returns the backtick-fenced code blocks of md: a block
// opens with a line of three or more backticks and an info string, and
// closes at the first line of at least as many backticks and nothing else.
func fencedBlocks(md string) []fencedBlock {
	var out []fencedBlock
	var cur *fencedBlock
	var lines []string
	for line := range strings.SplitSeq(md, "\n") {
		if cur == nil {
			if m := openingFence.FindStringSubmatch(line); m != nil {
				cur, lines = &fencedBlock{fence: m[1], info: strings.TrimSpace(m[2])}, nil
			}
			continue
		}
		if m := closingFence.FindStringSubmatch(line); m != nil && len(m[1]) >= len(cur.fence) {
			cur.content = strings.Join(lines, "\n") + "\n"
			out = append(out, *cur)
			cur = nil
			continue
		}
		lines = append(lines, line)
	}
	return out
}

func blocksWithInfo(blocks []fencedBlock, info string) []fencedBlock {
	var out []fencedBlock
	for _, b := range blocks {
		if b.info == info {
			out = append(out, b)
		}
	}
	return out
}

func TestMarkdown_NamesTheFailingRuleAndTheCounts(t *testing.T) {
	r := mutantResults(t)
	md := markdown(t, r)
	assert.True(t, strings.HasPrefix(md, "## mergecheck: mutant:token-if-any-token"), "a heading names the engine:\n%s", md)
	assert.Contains(t, firstLine(md), "seed 1")
	assert.Contains(t, md, "2 rules: **1 failed** · 1 held")
	assert.Contains(t, md, "| 730.2d | failed | "+r.Results[0].Counterexample.Problem+" |")
	assert.Contains(t, md, "<summary>730.2d: ")
	assert.NotContains(t, md, "| 730.3 |", "held rules are counted, not listed")
	assert.Contains(t, md, "1 rule held")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func TestMarkdown_ScenarioBlockParsesBack(t *testing.T) {
	r := mutantResults(t)
	md := markdown(t, r)
	blocks := fencedBlocks(md)
	jsons := blocksWithInfo(blocks, "json")
	require.Len(t, jsons, 1, "one scenario, in a json block")
	s, err := model.DecodeScenario([]byte(jsons[0].content))
	require.NoError(t, err, "the block is a scenario file:\n%s", jsons[0].content)
	assert.Equal(t, r.Results[0].Counterexample.Scenario, s)

	diffs := blocksWithInfo(blocks, "diff")
	require.Len(t, diffs, 1)
	assert.Contains(t, diffs[0].content, "-")
	assert.Contains(t, diffs[0].content, "Token:")
}

func TestMarkdown_BackticksCannotCloseAFenceEarly(t *testing.T) {
	const cardName = "Bears ``` `````` ```"
	r := everyVerdict(t)
	sc := r.Results[0].Counterexample.Scenario
	for i := range sc.Catalogue {
		if sc.Catalogue[i].Name == "Grizzly Bears" {
			sc.Catalogue[i].Name, sc.Catalogue[i].Front.Name = cardName, cardName
		}
	}
	for i := range sc.Objects {
		if sc.Objects[i].Def == "Grizzly Bears" {
			sc.Objects[i].Def = cardName
		}
	}
	// An engine's stderr line that is a fence by itself would close a
	// three-backtick block; what follows must stay inside.
	fault := &r.Results[2]
	require.Equal(t, harness.Fault, fault.Verdict)
	fault.Fault.Stderr = []string{"```", "# not a heading", "```"}

	md := markdown(t, r)
	blocks := fencedBlocks(md)
	for _, b := range blocks {
		assert.NotContains(t, b.content, b.fence, "a block's content never holds its fence")
	}
	jsons := blocksWithInfo(blocks, "json")
	require.Len(t, jsons, 3, "the scenarios of the failure, the fault and the expected failure")
	s, err := model.DecodeScenario([]byte(jsons[0].content))
	require.NoError(t, err, "the scenario block parses back whole:\n%s", jsons[0].content)
	assert.NotNil(t, s.Def(cardName), "with the card's name intact")

	var stderr *fencedBlock
	for i, b := range blocks {
		if strings.Contains(b.content, "# not a heading") {
			stderr = &blocks[i]
		}
	}
	require.NotNil(t, stderr, "the stderr lines are inside one code block")
	assert.Equal(t, "```\n# not a heading\n```\n", stderr.content)
	assert.NotContains(t, md, "\n# not a heading\n```\n\n", "it is not a heading in the page")
}

func TestMarkdown_TableCellsEscapePipesAndNewlines(t *testing.T) {
	r := mutantResults(t)
	r.Results[0].Counterexample.Problem = "p1 | c1 disagree\n\tgot token=true"
	md := markdown(t, r)
	var row string
	for line := range strings.SplitSeq(md, "\n") {
		if strings.HasPrefix(line, "| 730.2d |") {
			row = line
		}
	}
	require.NotEmpty(t, row, "the failing rule has a table row, on one line:\n%s", md)
	assert.Equal(t, `| 730.2d | failed | p1 \| c1 disagree<br>got token=true |`, row)
	borders := regexp.MustCompile(`(^|[^\\])\|`).FindAllStringIndex(row, -1)
	assert.Len(t, borders, 4, "the row still has three cells")
	assert.Contains(t, md, fmt.Sprintf("<summary>%s</summary>", "730.2d: p1 | c1 disagree / got token=true"))
}

// TestReports_TolerateMissingEvidence renders results read back from a
// document that lacks parts: no rules at all, and a failure without its
// scenario or traces. Every writer still writes a report.
func TestReports_TolerateMissingEvidence(t *testing.T) {
	bare := &harness.Results{Engine: harness.EngineInfo{Name: "bare"}}
	partial := &harness.Results{Engine: harness.EngineInfo{Name: "partial"}, Results: []harness.Result{
		{Rule: "730.2d", Verdict: harness.Failed, Counterexample: &harness.Counterexample{Rule: "730.2d", Problem: "no evidence kept"}},
		{Rule: "730.2", Verdict: harness.Fault, Fault: &harness.EngineFault{Rule: "730.2", Err: errors.New("timed out")}},
	}}
	writers := map[string]func(*bytes.Buffer, *harness.Results) error{
		"junit":    func(b *bytes.Buffer, r *harness.Results) error { return reports.WriteJUnit(b, r) },
		"html":     func(b *bytes.Buffer, r *harness.Results) error { return reports.WriteHTML(b, r) },
		"markdown": func(b *bytes.Buffer, r *harness.Results) error { return reports.WriteMarkdown(b, r) },
	}
	for name, write := range writers {
		for _, r := range []*harness.Results{bare, partial} {
			t.Run(name+"/"+r.Engine.Name, func(t *testing.T) {
				var buf bytes.Buffer
				require.NotPanics(t, func() { require.NoError(t, write(&buf, r)) })
				assert.NotEmpty(t, buf.String())
				for _, res := range r.Results {
					assert.Contains(t, buf.String(), string(res.Rule))
				}
			})
		}
	}
}

// partial is the reference declaring only mutate and merge, as a vendor's
// first adapter does.
type partial struct{ harness.Engine }

func (p partial) Info() harness.EngineInfo {
	info := p.Engine.Info()
	info.Features = []model.Feature{model.FeatureMutate, model.FeatureMerge}
	return info
}

// TestMarkdownAndJUnit_APartialEngineIsSummarised: the rules a partial
// engine can't be judged on are grouped by why, in the Markdown (under
// 4 KB for one that fails nothing, a pull-request comment, where a row a
// rule made 12.8 KB) and in the JUnit's suite output, while rules that
// failed keep their rows.
func TestMarkdownAndJUnit_APartialEngineIsSummarised(t *testing.T) {
	check := func(engine string) *harness.Results {
		e, err := harness.Reference(engine)
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), partial{e}, properties.All, &harness.Options{Checks: 20, Seed: 1})
		require.NoError(t, err)
		require.Positive(t, res.Count(harness.Unsupported))
		return res
	}
	var md bytes.Buffer
	require.NoError(t, reports.WriteMarkdown(&md, check("")))
	assert.Less(t, md.Len(), 4096, md.String())
	assert.Contains(t, md.String(), "rules unsupported, by why:\n\n- ")
	assert.Regexp(t, `\n- [0-9.a-z, ]*710\.1b[0-9.a-z, ]*: the engine does not declare the feature flip\n`, md.String())
	assert.NotContains(t, md.String(), "| unsupported |")

	res := check("token-if-any-token")
	md.Reset()
	require.NoError(t, reports.WriteMarkdown(&md, res))
	assert.Contains(t, md.String(), "| 730.2d | failed |")

	var x bytes.Buffer
	require.NoError(t, reports.WriteJUnit(&x, res))
	var doc struct {
		Suites []struct {
			SystemOut string `xml:"system-out"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(x.Bytes(), &doc))
	require.Len(t, doc.Suites, 1)
	assert.Contains(t, doc.Suites[0].SystemOut, fmt.Sprintf("%d rules unsupported, by why:\n", res.Count(harness.Unsupported)))
	assert.Regexp(t, `\n  [0-9.a-z, ]*710\.1b[0-9.a-z, ]*: the engine does not declare the feature flip\n`, doc.Suites[0].SystemOut)
}
