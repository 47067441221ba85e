package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

//go:embed report.html.tmpl
var reportTemplate string

// htmlTemplate renders the HTML report. html/template escapes every
// string by its context, so nothing an engine reports (card names in a
// scenario, problems, errors, stderr) can become markup.
var htmlTemplate = template.Must(template.New("report").Parse(reportTemplate))

// WriteHTML writes the run as one self-contained HTML page: inline CSS,
// no scripts and no links outside the page. It has a header with the
// engine and the settings, a table of every rule with its verdict, and a
// section per failure and engine fault (id "rule-" and the rule number)
// that draws the starting state's stacks as cards, lists the actions, and
// sets the engine's trace beside the reference engine's, step by step, with
// the lines that differ highlighted.
func WriteHTML(w io.Writer, r *harness.Results) error {
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, newHTMLPage(r)); err != nil {
		return err
	}
	_, err := buf.WriteTo(w)
	return err
}

// The values the template renders. Every field is plain text; the
// template does all the escaping.
type (
	htmlPage struct {
		Engine, Version string
		Features        string
		Partial         bool
		Seed            uint64
		Checks          int
		Started         string
		Elapsed         string
		CRDate          string
		RuleCount       string // "57 rules"
		Counts          []htmlCount
		Expected        int
		Incomplete      string    // why the results do not cover the whole run, if they do not
		Bugs            []htmlBug // the findings, in the order to fix them
		Rules           []htmlRule
		Sections        []htmlSection
	}
	htmlBug struct {
		Rules, Anchor, Headline string
		Blocks                  int
	}
	htmlCount struct {
		Verdict, Class string
		N              int
	}
	htmlRule struct {
		Rule, Summary, Verdict, Class, Detail string
		Cases                                 int
		Seconds                               string
		Anchor                                string // "" when the rule has no section
		Expected                              bool
	}
	htmlSection struct {
		Engine                                string // whose trace is beside the reference's
		Anchor, Rule, Summary, Verdict, Class string
		Expected                              bool
		Problem                               string
		Notes                                 []string // what the problem alone does not say
		Fault                                 bool
		Stderr                                []string
		Stacks                                []htmlStack
		Zones                                 []string
		Actions                               []htmlAction
		Steps                                 []htmlStep
		OneSided                              string // set when only one trace exists: whose it is
		Diff                                  []htmlDiffLine
		ScenarioJSON                          string
		Size                                  string // "2 components, 1 action"
		File, Replay                          string // where it was saved, and how to play it again
		Seed                                  uint64
	}
	htmlStack struct {
		ID, Controller string
		Notes          []string // status and other facts about the permanent
		Cards          []htmlCard
	}
	htmlCard struct {
		Z         int    // stacking order: the topmost component is drawn above the rest
		Indent    int    // pixels: each lower component sits a little further right
		Position  string // "top", "2", ..., "bottom"
		Object    string
		Name      string // from the catalogue
		FaceName  string // the name of the face shown, when it is not the front's
		TypeLine  string
		PT        string
		ManaCost  string
		Owner     string
		FaceDown  bool
		DownKind  string
		Token     bool
		Back      bool
		Commander bool
	}
	htmlAction struct {
		Index  int
		Type   string
		Fields []htmlField
	}
	htmlField struct{ Key, Value string }
	htmlStep  struct {
		Title string
		Rows  []htmlRow
		Same  bool // the two renderings are identical
	}
	htmlRow struct {
		Left, Right           string
		LeftClass, RightClass string // "", "changed" or "pad"
	}
	htmlDiffLine struct{ Text, Class string }
)

func newHTMLPage(r *harness.Results) *htmlPage {
	p := &htmlPage{
		Engine: r.Engine.Name, Version: r.Engine.Version, Partial: r.Engine.PartialTraces,
		Seed: r.Seed, Checks: r.Options.Checks, Elapsed: r.Elapsed.Round(time.Millisecond).String(),
		CRDate: rules.CRDate, Expected: countExpected(r), Incomplete: Incomplete(r),
		RuleCount: fmt.Sprintf("%d %s", len(r.Results), plural(len(r.Results), "rule", "rules")),
	}
	var feats []string
	for _, f := range r.Engine.Features {
		feats = append(feats, string(f))
	}
	p.Features = strings.Join(feats, ", ")
	if !r.Started.IsZero() {
		p.Started = r.Started.UTC().Format("2006-01-02 15:04:05 MST")
	}
	for _, c := range verdictCounts(r) {
		p.Counts = append(p.Counts, htmlCount{Verdict: string(c.Verdict), Class: verdictClass(c.Verdict, false), N: c.N})
	}
	findings := Findings(r)
	for _, f := range Unexpected(findings) {
		bug := htmlBug{Headline: Headline(f.Headline(), f.Bug, 200), Blocks: len(f.Blocks)}
		if f.Unexplained != nil {
			bug.Rules = "unexplained departure"
			for i := range r.Unexplained {
				if r.Unexplained[i].Counterexample == f.Cases[0] {
					bug.Anchor = fmt.Sprintf("unexplained-%d", i+1)
				}
			}
		} else {
			bug.Rules, bug.Anchor = rulesWords(f.Rules), anchorOf(r, f.Cases[0])
		}
		p.Bugs = append(p.Bugs, bug)
	}
	for _, res := range r.Results {
		row := htmlRule{
			Rule: string(res.Rule), Summary: rules.Summary(res.Rule), Verdict: string(res.Verdict),
			Class: verdictClass(res.Verdict, res.Expected), Cases: res.Cases, Expected: res.Expected,
			Seconds: strconv.FormatFloat(res.Elapsed.Seconds(), 'f', 2, 64),
		}
		if res.Verdict != harness.Held {
			row.Detail = reasonOf(res)
		} else if res.Refused > 0 {
			row.Detail = strings.TrimSpace(refusalsText(res))
		}
		if res.Counterexample != nil || res.Fault != nil {
			row.Anchor = "rule-" + string(res.Rule)
			sec := newHTMLSection(r.Engine.Name, res)
			sec.Notes = append(sec.Notes, htmlNotes(findings, res.Rule, res.Counterexample)...)
			p.Sections = append(p.Sections, sec)
			for i := range res.Others {
				other := res
				other.Counterexample, other.Others = &res.Others[i], nil
				sec := newHTMLSection(r.Engine.Name, other)
				sec.Anchor = fmt.Sprintf("rule-%s-%d", res.Rule, i+2)
				sec.Notes = append([]string{"another problem under this rule"}, htmlNotes(findings, res.Rule, other.Counterexample)...)
				p.Sections = append(p.Sections, sec)
			}
		}
		p.Rules = append(p.Rules, row)
	}
	for i, u := range r.Unexplained {
		sec := newHTMLSection(r.Engine.Name, harness.Result{Rule: u.Counterexample.Rule, Verdict: "unexplained", Counterexample: u.Counterexample})
		sec.Anchor = fmt.Sprintf("unexplained-%d", i+1)
		sec.Problem = "an unexplained " + failure.Unexplained(&u)
		sec.Notes = append([]string{"shrunk from a case drawn for " + string(u.Counterexample.Rule)}, sec.Notes...)
		p.Sections = append(p.Sections, sec)
	}
	return p
}

// anchorOf is the anchor of the section that shows ce, one of its rule's
// other counterexamples.
func anchorOf(r *harness.Results, ce *harness.Counterexample) string {
	for _, res := range r.Results {
		for i := range res.Others {
			if &res.Others[i] == ce {
				return fmt.Sprintf("rule-%s-%d", res.Rule, i+2)
			}
		}
	}
	return "rule-" + string(ce.Rule)
}

// verdictClass is the CSS class that colours a verdict.
func verdictClass(v harness.Verdict, expected bool) string {
	if expected {
		return "v-expected"
	}
	switch v {
	case harness.Held, harness.Failed, harness.Uncovered, harness.Unsupported, harness.Unchecked, harness.Interrupted, harness.Blocked:
		return "v-" + string(v)
	case harness.Fault, harness.Internal:
		return "v-fault"
	}
	return "v-other"
}

// htmlNotes are a counterexample's notes (failure.Notes), with the other
// rules of its finding.
func htmlNotes(findings []Finding, rule model.RuleID, ce *harness.Counterexample) []string {
	if ce == nil {
		return nil
	}
	return failure.Notes(ce, SharedWith(findings, rule, ce))
}

func newHTMLSection(engine string, res harness.Result) htmlSection {
	s := htmlSection{
		Engine: engine, Anchor: "rule-" + string(res.Rule), Rule: string(res.Rule), Summary: rules.Summary(res.Rule),
		Verdict: string(res.Verdict), Class: verdictClass(res.Verdict, res.Expected), Expected: res.Expected,
	}
	var sc *model.Scenario
	switch {
	case res.Counterexample != nil:
		ce := res.Counterexample
		sc = ce.Scenario
		s.Problem, s.File, s.Seed = ce.Problem, ce.File, ce.Seed
		if ce.File != "" {
			s.Replay = failure.Replay(failure.Engine(engine), ce.File)
		}
		s.Steps, s.OneSided = traceSteps(sc, ce.Want, ce.Got)
		for line := range strings.SplitSeq(strings.TrimSuffix(ce.Diff(), "\n"), "\n") {
			if line == "" {
				continue
			}
			class := ""
			switch {
			case strings.HasPrefix(line, "(-"):
				class = "legend"
			case strings.HasPrefix(line, "-"):
				class = "del"
			case strings.HasPrefix(line, "+"):
				class = "ins"
			}
			s.Diff = append(s.Diff, htmlDiffLine{Text: line, Class: class})
		}
	case res.Fault != nil:
		f := res.Fault
		sc = f.Scenario
		s.Fault = true
		s.Problem = fmt.Sprint(f.Err)
		if f.Intermittent {
			s.Notes = append(s.Notes, failure.FaultIntermittent)
		}
		s.Stderr = f.Stderr
	}
	if sc != nil {
		s.Stacks = stacks(sc, &sc.Start)
		s.Zones = zoneLines(sc, &sc.Start)
		s.Actions = actions(sc.Actions)
		s.ScenarioJSON = failure.ScenarioJSON(sc)
		comps := 0
		for _, p := range sc.Start.Battlefield {
			comps += len(p.Components)
		}
		s.Size = failure.Size(comps, len(sc.Actions))
	}
	return s
}

// stacks draws the permanents of st: one column each, components topmost
// first.
func stacks(sc *model.Scenario, st *model.State) []htmlStack {
	var out []htmlStack
	for _, p := range st.Battlefield {
		hs := htmlStack{ID: string(p.ID), Controller: string(p.Controller), Notes: permanentNotes(&p)}
		for i, c := range p.Components {
			hs.Cards = append(hs.Cards, newHTMLCard(sc, c, &p, i, len(p.Components)))
		}
		out = append(out, hs)
	}
	return out
}

func permanentNotes(p *model.Permanent) []string {
	var notes []string
	if n := len(p.Components); n > 1 {
		notes = append(notes, fmt.Sprintf("%d components", n))
	}
	notes = append(notes, words.Status(p.Status))
	if p.Mutated {
		notes = append(notes, "mutated")
	}
	if len(p.Counters) > 0 {
		notes = append(notes, "counters "+countersText(p.Counters))
	}
	for _, e := range p.Effects {
		notes = append(notes, effectText(e))
	}
	if !p.ControlledSinceTurnStart {
		notes = append(notes, "came under control this turn")
	}
	if p.AttachedTo != "" {
		notes = append(notes, "attached to "+string(p.AttachedTo))
	}
	if p.EnchantedPlayer != "" {
		notes = append(notes, "enchants player "+string(p.EnchantedPlayer))
	}
	notes = append(notes, "timestamp "+strconv.Itoa(p.Timestamp))
	return notes
}

func newHTMLCard(sc *model.Scenario, c model.Component, p *model.Permanent, i, n int) htmlCard {
	hc := htmlCard{
		Z: n - i, Indent: 10 * i, Object: string(c.Object), FaceDown: c.FaceDown, DownKind: string(c.FaceDownBy),
		Back: c.Face == model.Back, Position: strconv.Itoa(i + 1),
	}
	switch {
	case n == 1:
		hc.Position = ""
	case i == 0:
		hc.Position = "top"
	case i == n-1:
		hc.Position = "bottom"
	}
	if hc.FaceDown && hc.DownKind == "" {
		hc.DownKind = "face down"
	}
	o := sc.Object(c.Object)
	if o == nil {
		hc.Name = "(not among the scenario's objects)"
		return hc
	}
	hc.Token, hc.Commander, hc.Owner = o.Token, o.Commander, string(o.Owner)
	def := o.Copy
	if def == nil {
		def = sc.Def(o.Def)
	}
	hc.Name = o.Def
	if def == nil {
		hc.Name += " (not in the catalogue)"
		return hc
	}
	hc.Name = def.Name
	face := shownFace(def, c, p.Status.Flipped)
	if face.Name != def.Name {
		hc.FaceName = face.Name
	}
	hc.ManaCost = def.Front.ManaCost
	if face != &def.Front && def.Layout != model.LayoutFlip {
		hc.ManaCost = face.ManaCost
	}
	hc.TypeLine = typeLine(face.Supertypes, face.Types, face.Subtypes)
	if face.Power != nil && face.Toughness != nil {
		hc.PT = fmt.Sprintf("%d/%d", *face.Power, *face.Toughness)
	}
	return hc
}

// shownFace returns the face of def that component c shows when it is
// face up: its back face (a meld card's combined one) when the back is up,
// a flip card's other half when the permanent is flipped, otherwise its
// front.
func shownFace(def *model.CardDef, c model.Component, flipped bool) *model.Face {
	switch {
	case c.Face == model.Back && def.Back != nil:
		return def.Back
	case c.Face == model.Back && def.Melded != nil:
		return def.Melded
	case flipped && def.Flipped != nil:
		return def.Flipped
	}
	return &def.Front
}

func typeLine(super, types, sub []string) string {
	line := strings.Join(append(append([]string{}, super...), types...), " ")
	if len(sub) > 0 {
		line += " — " + strings.Join(sub, " ")
	}
	return line
}

func countersText(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s×%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

func effectText(e model.Effect) string {
	var s string
	switch e.Kind {
	case model.EffectPump:
		s = fmt.Sprintf("pump %+d/%+d", e.Power, e.Toughness)
	case model.EffectCopy:
		s = fmt.Sprintf("copy of %q", e.Of)
		if len(e.Gains) > 0 {
			s += " gaining " + joinIDs(e.Gains)
		}
	default:
		s = string(e.Kind)
	}
	if e.UntilEndOfTurn {
		s += " until end of turn"
	}
	return s + fmt.Sprintf(" (timestamp %d)", e.Timestamp)
}

func joinIDs[T ~string](ids []T) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = string(id)
	}
	return strings.Join(parts, ", ")
}

// objectName names an object by its id and its catalogue name.
func objectName(sc *model.Scenario, id model.ObjectID) string {
	if sc == nil {
		return string(id)
	}
	o := sc.Object(id)
	if o == nil {
		return string(id)
	}
	name := o.Def
	if o.Copy != nil {
		name = o.Copy.Name
	}
	if o.Token {
		name += ", token"
	}
	return fmt.Sprintf("%s (%s)", id, name)
}

func objectNames(sc *model.Scenario, ids []model.ObjectID) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = objectName(sc, id)
	}
	return strings.Join(parts, ", ")
}

// zoneLines describes what the stacks do not show: the active player, the
// players' other zones, the stack and linked exiles.
func zoneLines(sc *model.Scenario, st *model.State) []string {
	lines := []string{"active player: " + string(st.Active)}
	for _, pl := range st.Players {
		z := pl.Zones
		empty := true
		for _, zone := range []struct {
			name string
			ids  []model.ObjectID
		}{
			{"library (top first)", z.Library}, {"hand", z.Hand}, {"graveyard (top first)", z.Graveyard},
			{"exile (earliest first)", z.Exile}, {"command zone", z.Command},
		} {
			if len(zone.ids) > 0 {
				empty = false
				lines = append(lines, fmt.Sprintf("%s's %s: %s", pl.ID, zone.name, objectNames(sc, zone.ids)))
			}
		}
		if empty {
			lines = append(lines, fmt.Sprintf("%s has no cards outside the battlefield", pl.ID))
		}
	}
	for i := len(st.Stack) - 1; i >= 0; i-- {
		so := st.Stack[i]
		line := fmt.Sprintf("on the stack: %s, controlled by %s", objectName(sc, so.Object), so.Controller)
		if i == len(st.Stack)-1 {
			line = "top of the stack: " + strings.TrimPrefix(line, "on the stack: ")
		}
		if so.Target != "" {
			line += ", mutating onto " + string(so.Target)
		}
		if so.FaceDownBy != "" {
			line += ", cast face down by " + string(so.FaceDownBy)
		}
		lines = append(lines, line)
	}
	for _, l := range st.Links {
		lines = append(lines, fmt.Sprintf("exiled with %s: %s", l.Source, objectNames(sc, l.Cards)))
	}
	return lines
}

// actions lists each action's type and the fields it sets, in the order
// of the scenario format.
func actions(as []model.Action) []htmlAction {
	var out []htmlAction
	for i, a := range as {
		ha := htmlAction{Index: i, Type: string(a.Type)}
		fields, err := orderedFields(a)
		if err != nil {
			fields = []htmlField{{Key: "error", Value: err.Error()}}
		}
		for _, f := range fields {
			if f.Key != "type" {
				ha.Fields = append(ha.Fields, f)
			}
		}
		out = append(out, ha)
	}
	return out
}

// orderedFields returns the members of v's JSON object in order, strings
// unquoted and other values as compact JSON.
func orderedFields(v any) ([]htmlField, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out []htmlField
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		val := string(raw)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			val = s
		}
		out = append(out, htmlField{Key: key, Value: val})
	}
	return out, nil
}

// traceSteps renders the reference trace and the engine's side by side:
// the starting state, then each step, with a line diff of the two
// renderings. When only one trace exists it is shown alone, and oneSided
// says whose it is.
func traceSteps(sc *model.Scenario, want, got *model.Trace) (steps []htmlStep, oneSided string) {
	switch {
	case want == nil && got == nil:
		return nil, ""
	case want == nil:
		oneSided = "engine"
	case got == nil:
		oneSided = "reference"
	}
	n := 0
	for _, t := range []*model.Trace{want, got} {
		if t != nil {
			n = max(n, len(t.Steps))
		}
	}
	for i := -1; i < n; i++ {
		title := "start"
		if i >= 0 {
			title = fmt.Sprintf("after action %d", i)
			if sc != nil && i < len(sc.Actions) {
				title += ": " + string(sc.Actions[i].Type)
			}
		}
		left, right := stepLines(sc, want, i), stepLines(sc, got, i)
		st := htmlStep{Title: title}
		switch oneSided {
		case "engine":
			left, right = right, nil
		case "reference":
			right = nil
		}
		if oneSided != "" {
			for _, l := range left {
				st.Rows = append(st.Rows, htmlRow{Left: l})
			}
		} else {
			st.Rows = sideBySide(left, right)
			st.Same = slices.Equal(left, right)
		}
		steps = append(steps, st)
	}
	return steps, oneSided
}

// stepLines renders step i of t (-1 for the starting state) as lines of
// text: the events, then the state.
func stepLines(sc *model.Scenario, t *model.Trace, i int) []string {
	if t == nil {
		return nil
	}
	if i >= len(t.Steps) {
		return []string{"(no such step: the trace ends here)"}
	}
	var lines []string
	st := &t.Start
	if i >= 0 {
		step := &t.Steps[i]
		st = &step.State
		if step.Action != i {
			lines = append(lines, fmt.Sprintf("reported as the step of action %d", step.Action))
		}
		if len(step.Events) == 0 {
			lines = append(lines, "events: none")
		} else {
			lines = append(lines, "events:")
		}
		for _, e := range step.Events {
			lines = append(lines, "  "+words.Event(e))
		}
		lines = append(lines, "state:")
	}
	return append(lines, stateLines(sc, st)...)
}

func stateLines(sc *model.Scenario, st *model.State) []string {
	lines := zoneLines(sc, st)
	if len(st.Battlefield) == 0 {
		lines = append(lines, "battlefield: empty")
	}
	for _, p := range st.Battlefield {
		lines = append(lines, fmt.Sprintf("%s, controlled by %s:", p.ID, p.Controller))
		for i, c := range p.Components {
			line := fmt.Sprintf("  %d. %s", i+1, objectName(sc, c.Object))
			if c.Face == model.Back {
				line += ", back face up"
			}
			if c.FaceDown {
				line += ", face down"
				if c.FaceDownBy != "" {
					line += " (" + string(c.FaceDownBy) + ")"
				}
			}
			lines = append(lines, line)
		}
		lines = append(lines, "  status: "+words.Status(p.Status))
		for _, note := range permanentNotes(&p) {
			if note != words.Status(p.Status) && !strings.HasSuffix(note, " components") { // said above
				lines = append(lines, "  "+note)
			}
		}
		if d := p.Derived; d != nil {
			lines = append(lines, derivedLines(d)...)
		}
	}
	return lines
}

func derivedLines(d *model.Derived) []string {
	c := d.Characteristics
	name := fmt.Sprintf("  name %q, mana value %d", c.Name, c.ManaValue)
	if len(c.Colors) > 0 {
		name += ", colors " + joinIDs(c.Colors)
	} else {
		name += ", colorless"
	}
	lines := []string{name}
	tl := typeLine(c.Supertypes, c.Types, c.Subtypes)
	if c.Power != nil && c.Toughness != nil {
		tl += fmt.Sprintf(", %d/%d", *c.Power, *c.Toughness)
	}
	lines = append(lines, "  "+strings.TrimPrefix(tl, ", "))
	if len(c.Abilities) > 0 {
		lines = append(lines, "  abilities: "+joinIDs(c.Abilities))
	} else {
		lines = append(lines, "  abilities: none")
	}
	is := []string{"nontoken"}
	if d.Token {
		is[0] = "token"
	}
	for _, f := range []struct {
		on   bool
		name string
	}{
		{d.Merged, "merged"}, {d.Melded, "melded"}, {d.DoubleFaced, "double-faced"},
		{d.Transformed, "transformed"}, {d.Commander, "commander"},
	} {
		if f.on {
			is = append(is, f.name)
		}
	}
	return append(lines, "  is: "+strings.Join(is, ", "))
}

// sideBySide aligns two renderings row by row along their longest common
// subsequence of lines: common lines share a row; a run of lines that
// differ is paired up, the shorter side padded, and marked changed.
func sideBySide(a, b []string) []htmlRow {
	var rows []htmlRow
	var dels, inss []string
	flush := func() {
		for i := range max(len(dels), len(inss)) {
			row := htmlRow{LeftClass: "pad", RightClass: "pad"}
			if i < len(dels) {
				row.Left, row.LeftClass = dels[i], "changed"
			}
			if i < len(inss) {
				row.Right, row.RightClass = inss[i], "changed"
			}
			rows = append(rows, row)
		}
		dels, inss = nil, nil
	}
	for _, op := range lineDiff(a, b) {
		switch op.kind {
		case '=':
			flush()
			rows = append(rows, htmlRow{Left: op.line, Right: op.line})
		case '-':
			dels = append(dels, op.line)
		case '+':
			inss = append(inss, op.line)
		}
	}
	flush()
	return rows
}

type diffOp struct {
	kind byte // '=', '-' (only in a) or '+' (only in b)
	line string
}

// lineDiff returns an edit script from a to b by longest common
// subsequence. Renderings are a few hundred lines at most; past a size
// where the quadratic table would be large, the middle is reported as
// replaced wholesale.
func lineDiff(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{'=', l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > 1<<20 {
		for _, l := range ma {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, diffOp{'+', l})
		}
	} else {
		// lcs[i][j] is the length of the LCS of ma[i:] and mb[j:].
		lcs := make([][]int, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				ops = append(ops, diffOp{'=', ma[i]})
				i, j = i+1, j+1
			case j < len(mb) && (i == len(ma) || lcs[i][j+1] > lcs[i+1][j]):
				ops = append(ops, diffOp{'+', mb[j]})
				j++
			default:
				ops = append(ops, diffOp{'-', ma[i]})
				i++
			}
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{'=', l})
	}
	return ops
}

// rulesWords lists rule numbers in words.
func rulesWords(rules []model.RuleID) string { return words.List(rules) }
