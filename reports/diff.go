package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/rules"
)

// A Diff is what changed between two runs of one engine, OLD and NEW, rule
// by rule: what a vendor reads in the morning. Worse says whether anything
// got worse, for a nightly job to alert on.
type Diff struct {
	Old, New RunInfo
	// Notes say what makes the two runs less comparable (another seed,
	// another number of checks, another engine version) without refusing
	// the comparison.
	Notes []string `json:"notes,omitempty"`
	// Changes lists every rule whose outcome changed, in rule order.
	Changes []Change `json:"changes"`
	// Findings are the bugs of both runs (Findings), each said to be
	// new, still there or gone, by its key (Finding.FindingKey): the
	// new ones first, then those still there, then those gone.
	Findings []FindingChange `json:"findings"`
	Worse    bool            `json:"worse"`
}

// A FindingChange is one bug of either run, and whether it is new, still
// there or gone in the new run.
type FindingChange struct {
	Key   string         `json:"key"` // the finding's issue name (Finding.IssueName), the same from night to night
	State string         `json:"state"`
	Rules []model.RuleID `json:"rules"` // the run's that has it; the new run's when both have it
	// Headline is the finding's problem.
	Headline string `json:"headline"`
}

// The states of a finding between two runs. A finding the new run's
// baseline expects is still there (expected), never gone while any of
// its rules fails.
const (
	FindingNew           = "new"
	FindingStill         = "still there"
	FindingStillExpected = "still there (expected)"
	FindingGone          = "gone"
)

// compareFindings says of each bug of old and new whether it is new,
// still there or gone. A bug of the old run that no finding of the new
// run matches by key is gone only when none of its rules fails there any
// more: otherwise it is still there, shown by another scenario. A bug is
// still there (expected) when the new run's baseline expects it.
func compareFindings(old, new *harness.Results) []FindingChange {
	was := map[string]Finding{}
	for _, f := range Findings(old) {
		was[f.IssueName()] = f
	}
	failing := map[model.RuleID]bool{}
	expected := map[model.RuleID]bool{}
	for _, r := range new.Results {
		failing[r.Rule] = r.Verdict == harness.Failed
		expected[r.Rule] = r.Expected
	}
	still := func(f Finding) string {
		if f.Expected {
			return FindingStillExpected
		}
		return FindingStill
	}
	out := []FindingChange{}
	seen := map[string]bool{}
	var stay []FindingChange
	for _, f := range Findings(new) {
		name := f.IssueName()
		seen[name] = true
		c := FindingChange{Key: name, State: FindingNew, Rules: f.Rules, Headline: f.Headline()}
		if _, ok := was[name]; ok {
			c.State = still(f)
			stay = append(stay, c)
			continue
		}
		out = append(out, c)
	}
	out = append(out, stay...)
	for _, f := range Findings(old) {
		name := f.IssueName()
		if seen[name] {
			continue
		}
		c := FindingChange{Key: name, State: FindingGone, Rules: f.Rules, Headline: f.Headline()}
		for _, rule := range f.Rules {
			if failing[rule] {
				c.State = FindingStill
				if expected[rule] {
					c.State = FindingStillExpected
				}
				break
			}
		}
		out = append(out, c)
	}
	return out
}

// RunInfo identifies one run of a diff.
type RunInfo struct {
	Engine  string `json:"engine"`
	Version string `json:"version"`
	Seed    uint64 `json:"seed"`
	Checks  int    `json:"checks"`
	Started string `json:"started,omitempty"`
}

// A ChangeKind names how a rule's outcome changed.
type ChangeKind string

// The kinds of change, worst first.
const (
	NewlyFailing          ChangeKind = "newly failing"
	FaultAppeared         ChangeKind = "engine fault appeared"
	NewlyUncovered        ChangeKind = "newly uncovered"
	NewlyUnsupported      ChangeKind = "newly unsupported"
	CoverageDropped       ChangeKind = "coverage dropped"
	RuleGone              ChangeKind = "no longer reported"
	CounterexampleChanged ChangeKind = "counterexample changed"
	FaultGone             ChangeKind = "engine fault gone"
	NewlyHolding          ChangeKind = "newly holding"
	RuleAdded             ChangeKind = "newly reported"
	VerdictChanged        ChangeKind = "verdict changed"
)

// worse are the kinds that make a diff worse.
var worse = []ChangeKind{NewlyFailing, FaultAppeared, NewlyUncovered, NewlyUnsupported, CoverageDropped, RuleGone}

// A Change is one rule's change between the runs.
type Change struct {
	Rule    model.RuleID    `json:"rule"`
	Summary string          `json:"summary"`
	Kind    ChangeKind      `json:"kind"`
	Old     harness.Verdict `json:"old,omitempty"`
	New     harness.Verdict `json:"new,omitempty"`
	// Detail says what: the new problem of a failure, the label whose
	// coverage dropped, the reason of a new verdict.
	Detail string `json:"detail,omitempty"`
	// Counterexample is the new run's, for a rule failing now.
	Counterexample *harness.Counterexample `json:"counterexample,omitempty"`
}

// Worse reports whether the change makes the engine's standing worse.
func (c Change) Worse() bool { return slices.Contains(worse, c.Kind) }

// Compare returns what changed from old to new.
func Compare(old, new *harness.Results) *Diff {
	d := &Diff{Old: runInfo(old), New: runInfo(new), Changes: []Change{}}
	if old.Engine.Name != new.Engine.Name {
		d.Notes = append(d.Notes, fmt.Sprintf("the runs are of two engines, %s and %s", old.Engine.Name, new.Engine.Name))
	}
	if old.Engine.Version != new.Engine.Version {
		d.Notes = append(d.Notes, fmt.Sprintf("the engine's version changed from %s to %s", old.Engine.Version, new.Engine.Version))
	}
	if old.Suite != new.Suite && old.Suite != "" && new.Suite != "" {
		d.Notes = append(d.Notes, fmt.Sprintf("the suite changed from %s to %s: its rules and generators may have changed too", old.Suite, new.Suite))
	}
	if old.Seed != new.Seed {
		d.Notes = append(d.Notes, fmt.Sprintf("the seeds differ (%d, %d): the runs drew other scenarios, so a change may come from what was drawn", old.Seed, new.Seed))
	}
	if old.Options.Checks != new.Options.Checks {
		d.Notes = append(d.Notes, fmt.Sprintf("the runs checked %d and %d cases per rule", old.Options.Checks, new.Options.Checks))
	}
	if note := Incomplete(old); note != "" {
		d.Notes = append(d.Notes, "OLD: "+note)
	}
	if note := Incomplete(new); note != "" {
		d.Notes = append(d.Notes, "NEW: "+note)
	}
	was := map[model.RuleID]harness.Result{}
	for _, r := range old.Results {
		was[r.Rule] = r
	}
	now := map[model.RuleID]harness.Result{}
	for _, r := range new.Results {
		now[r.Rule] = r
	}
	ids := slices.Collect(maps.Keys(was))
	for id := range now {
		if _, ok := was[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, compareRules)
	for _, id := range ids {
		o, inOld := was[id]
		n, inNew := now[id]
		var c *Change
		switch {
		case !inNew:
			c = &Change{Kind: RuleGone, Old: o.Verdict}
		case !inOld:
			c = &Change{Kind: RuleAdded, New: n.Verdict}
		default:
			c = change(o, n)
		}
		if c == nil {
			continue
		}
		c.Rule, c.Summary = id, rules.Summary(id)
		if c.Worse() {
			d.Worse = true
		}
		d.Changes = append(d.Changes, *c)
	}
	slices.SortStableFunc(d.Changes, func(a, b Change) int { return kindOrder(a.Kind) - kindOrder(b.Kind) })
	d.Findings = compareFindings(old, new)
	for _, f := range d.Findings {
		if f.State == FindingNew && !allExpected(new, f.Rules) {
			d.Worse = true
		}
	}
	return d
}

// allExpected reports whether the run's baseline expects every one of
// rules to fail (none for an unexplained departure, which no baseline
// names).
func allExpected(r *harness.Results, rules []model.RuleID) bool {
	for _, res := range r.Results {
		if slices.Contains(rules, res.Rule) && !res.Expected {
			return false
		}
	}
	return len(rules) > 0
}

func runInfo(r *harness.Results) RunInfo {
	info := RunInfo{Engine: r.Engine.Name, Version: r.Engine.Version, Seed: r.Seed, Checks: r.Options.Checks}
	if !r.Started.IsZero() {
		info.Started = r.Started.UTC().Format("2006-01-02 15:04 MST")
	}
	return info
}

// change says how one rule's outcome changed, or nil if it did not.
func change(o, n harness.Result) *Change {
	c := &Change{Old: o.Verdict, New: n.Verdict}
	switch {
	case n.Verdict == harness.Failed && o.Verdict != harness.Failed:
		c.Kind, c.Detail, c.Counterexample = NewlyFailing, n.Counterexample.Problem, n.Counterexample
	case n.Verdict == harness.Fault && o.Verdict != harness.Fault:
		c.Kind, c.Detail = FaultAppeared, faultText(n)
	case (n.Verdict == harness.Uncovered || n.Verdict == harness.Interrupted) && n.Verdict != o.Verdict:
		c.Kind, c.Detail = NewlyUncovered, n.Why
	case n.Verdict == harness.Unsupported && o.Verdict != harness.Unsupported:
		c.Kind, c.Detail = NewlyUnsupported, n.Why
	case n.Verdict == harness.Failed:
		if sameCounterexample(o.Counterexample, n.Counterexample) {
			return nil
		}
		c.Kind, c.Detail, c.Counterexample = CounterexampleChanged, n.Counterexample.Problem, n.Counterexample
	case o.Verdict == harness.Fault && n.Verdict != harness.Fault:
		c.Kind = FaultGone
	case n.Verdict == harness.Held && o.Verdict != harness.Held:
		c.Kind = NewlyHolding
	case n.Verdict != o.Verdict:
		c.Kind, c.Detail = VerdictChanged, n.Why
	case n.Verdict == harness.Held:
		if label := droppedLabel(n.Rule, o, n); label != "" {
			c.Kind, c.Detail = CoverageDropped, label
			break
		}
		return nil
	default:
		return nil
	}
	return c
}

// droppedLabel names a coverage label of rule that met its requirement in
// o and falls short of it in n, or "".
func droppedLabel(rule model.RuleID, o, n harness.Result) string {
	p := properties.Find(properties.All, rule)
	if p == nil {
		return ""
	}
	for _, l := range slices.Sorted(maps.Keys(p.Cover)) {
		share := func(r harness.Result) float64 {
			if r.Cases == 0 {
				return 0
			}
			return float64(r.Coverage[l]) / float64(r.Cases)
		}
		if was, is := share(o), share(n); was >= p.Cover[l] && is < p.Cover[l] {
			return fmt.Sprintf("label %q covered %.0f%% of the cases, down from %.0f%%, under the %.0f%% it needs", l, 100*is, 100*was, 100*p.Cover[l])
		}
	}
	return ""
}

func sameCounterexample(a, b *harness.Counterexample) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Problem == b.Problem && string(encodeScenario(a.Scenario)) == string(encodeScenario(b.Scenario))
}

func encodeScenario(s *model.Scenario) []byte {
	data, _ := model.Encode(s)
	return data
}

func faultText(r harness.Result) string {
	if r.Fault != nil && r.Fault.Err != nil {
		return r.Fault.Err.Error()
	}
	return r.Why
}

func kindOrder(k ChangeKind) int {
	return slices.Index([]ChangeKind{NewlyFailing, FaultAppeared, NewlyUncovered, NewlyUnsupported, CoverageDropped, RuleGone,
		CounterexampleChanged, FaultGone, NewlyHolding, RuleAdded, VerdictChanged}, k)
}

// compareRules orders rule numbers as the rules index does, unknown ones
// last.
func compareRules(a, b model.RuleID) int {
	ia, ib := ruleIndex(a), ruleIndex(b)
	if ia != ib {
		return ia - ib
	}
	return strings.Compare(string(a), string(b))
}

func ruleIndex(id model.RuleID) int {
	for i, p := range properties.All {
		if p.Rule == id {
			return i
		}
	}
	return len(properties.All)
}

// WriteDiffText writes d for a terminal or a log: the runs, the notes, and
// a line per changed rule, worst first.
func WriteDiffText(w io.Writer, d *Diff) error {
	var b strings.Builder
	fmt.Fprintf(&b, "mergecheck diff: %s %s (seed %d) -> %s %s (seed %d)\n", d.Old.Engine, d.Old.Version, d.Old.Seed, d.New.Engine, d.New.Version, d.New.Seed)
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, c := range d.Changes {
		fmt.Fprintf(&b, "%-24s %-9s %s", strings.ToUpper(string(c.Kind)), c.Rule, transition(c))
		if c.Detail != "" {
			fmt.Fprintf(&b, ": %s", c.Detail)
		}
		b.WriteString("\n")
		if c.Counterexample != nil && c.Kind == NewlyFailing {
			comps, acts := c.Counterexample.Size()
			fmt.Fprintf(&b, "    scenario (shrunk): %d components, %d actions\n", comps, acts)
			if data, err := model.Encode(c.Counterexample.Scenario); err == nil {
				fmt.Fprintf(&b, "        %s\n", strings.ReplaceAll(strings.TrimSpace(string(data)), "\n", "\n        "))
			}
		}
	}
	for _, f := range d.Findings {
		fmt.Fprintf(&b, "%-24s %s: %s (%s)\n", strings.ToUpper("bug "+f.State), rulesWords(f.Rules), Headline(f.Headline, "", 160), f.Key)
	}
	fmt.Fprintf(&b, "%d rules changed, %s; %s\n", len(d.Changes), findingCounts(d.Findings), map[bool]string{true: "WORSE: something got worse", false: "nothing got worse"}[d.Worse])
	_, err := io.WriteString(w, b.String())
	return err
}

func transition(c Change) string {
	switch {
	case c.Old == "":
		return string(c.New)
	case c.New == "":
		return string(c.Old)
	case c.Old == c.New:
		return string(c.New)
	}
	return fmt.Sprintf("%s → %s", c.Old, c.New)
}

// WriteDiffJSON writes d as JSON (the Diff type's fields).
func WriteDiffJSON(w io.Writer, d *Diff) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Format string `json:"format"`
		*Diff
	}{DiffFormat, d})
}

// DiffFormat names the JSON form of a diff.
const DiffFormat = "mergecheck.diff/v1"

// WriteDiffMarkdown writes d for a pull-request comment or a chat message:
// a heading, the notes, and a table of the changed rules, worst first,
// with each new failure's problem.
func WriteDiffMarkdown(w io.Writer, d *Diff) error {
	var b strings.Builder
	verdict := map[bool]string{true: "something got worse", false: "nothing got worse"}[d.Worse]
	fmt.Fprintf(&b, "## mergecheck diff: %s %s → %s %s: %s\n\n", mdText(d.Old.Engine), mdText(d.Old.Version), mdText(d.New.Engine), mdText(d.New.Version), verdict)
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "> %s\n", mdText(n))
	}
	if len(d.Notes) > 0 {
		b.WriteString("\n")
	}
	if len(d.Findings) > 0 {
		fmt.Fprintf(&b, "Bugs: %s.\n\n| bug | rules | problem | key |\n|---|---|---|---|\n", findingCounts(d.Findings))
		for _, f := range d.Findings {
			fmt.Fprintf(&b, "| %s | %s | %s | `%s` |\n", mdText(f.State), mdText(rulesWords(f.Rules)), mdText(Headline(f.Headline, "", 200)), f.Key)
		}
		b.WriteString("\n")
	}
	if len(d.Changes) == 0 {
		b.WriteString("No rule changed.\n")
	} else {
		b.WriteString("| change | rule | verdict | detail |\n|---|---|---|---|\n")
		for _, c := range d.Changes {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdText(string(c.Kind)), mdText(string(c.Rule)), mdText(transition(c)), mdText(c.Detail))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

//go:embed diff.html.tmpl
var diffTemplateText string

var diffTemplate = template.Must(template.Must(htmlTemplate.Clone()).New("diff").Parse(diffTemplateText))

type diffPage struct {
	Old, New RunInfo
	Worse    bool
	Notes    []string
	Rows     []diffRow
	Sections []htmlSection
	CRDate   string
}

type diffRow struct {
	Kind, Class, Rule, Transition, Summary, Detail, Anchor string
}

// WriteDiffHTML writes d as a self-contained page: the runs, the notes, a
// table of the changed rules, and each new or changed counterexample
// drawn as the report draws a failure.
func WriteDiffHTML(w io.Writer, d *Diff) error {
	p := diffPage{Old: d.Old, New: d.New, Worse: d.Worse, Notes: d.Notes, CRDate: rules.CRDate}
	for _, c := range d.Changes {
		class := "v-unchecked"
		switch {
		case c.Worse():
			class = "v-failed"
		case c.Kind == NewlyHolding || c.Kind == FaultGone:
			class = "v-held"
		}
		row := diffRow{Kind: string(c.Kind), Class: class, Rule: string(c.Rule), Transition: transition(c), Summary: c.Summary, Detail: c.Detail}
		if c.Counterexample != nil {
			sec := newHTMLSection(d.New.Engine, harness.Result{Rule: c.Rule, Verdict: harness.Failed, Counterexample: c.Counterexample})
			row.Anchor = sec.Anchor
			p.Sections = append(p.Sections, sec)
		}
		p.Rows = append(p.Rows, row)
	}
	var buf bytes.Buffer
	if err := diffTemplate.Execute(&buf, p); err != nil {
		return err
	}
	_, err := buf.WriteTo(w)
	return err
}

// findingCounts counts the bugs by state: "1 new, 2 still there, 1 gone".
func findingCounts(fs []FindingChange) string {
	n := map[string]int{}
	for _, f := range fs {
		n[f.State]++
	}
	out := fmt.Sprintf("%d new %s, %d still there", n[FindingNew], plural(n[FindingNew], "bug", "bugs"), n[FindingStill])
	if k := n[FindingStillExpected]; k > 0 {
		out += fmt.Sprintf(", %d still there (expected)", k)
	}
	return out + fmt.Sprintf(", %d gone", n[FindingGone])
}
