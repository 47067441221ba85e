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
	"github.com/mergecheck/mergecheck/rules"
)

// A Matrix sets engines side by side: a column per engine, a row per
// rule, grouped by section, each cell the engine's verdict on the rule.
type Matrix struct {
	Engines  []MatrixEngine  `json:"engines"`
	Sections []MatrixSection `json:"sections"`
}

// MatrixEngine is one column: the engine, its latest run, and its totals.
type MatrixEngine struct {
	Name          string         `json:"name"`
	Version       string         `json:"version"`
	PartialTraces bool           `json:"partial_traces,omitempty"`
	Seed          uint64         `json:"seed"`
	Checks        int            `json:"checks"`
	Started       string         `json:"started,omitempty"`
	Runs          int            `json:"runs"`   // results given for it: more than one with --history
	Totals        map[string]int `json:"totals"` // verdict -> rules, in its latest run
}

// MatrixSection is a group of rules: a section of the rules.
type MatrixSection struct {
	Name string      `json:"name"`
	Rows []MatrixRow `json:"rows"`
}

// MatrixRow is one rule across the engines.
type MatrixRow struct {
	Rule    model.RuleID `json:"rule"`
	Summary string       `json:"summary"`
	Cells   []MatrixCell `json:"cells"`   // one per engine, in Engines' order
	Holding int          `json:"holding"` // engines that hold it
}

// MatrixCell is one engine's outcome on one rule; Verdict is empty when
// its run did not report the rule.
type MatrixCell struct {
	Verdict harness.Verdict `json:"verdict,omitempty"`
	Cases   int             `json:"cases"`
	Problem string          `json:"problem,omitempty"` // of a failure or a fault
	// Trend is the verdicts of the engine's last runs, oldest first,
	// the latest included (with --history).
	Trend  []harness.Verdict `json:"trend,omitempty"`
	result *harness.Result
}

// trendLength is how many runs of one engine a cell's trend shows.
const trendLength = 7

// BuildMatrix lays the runs side by side. Without history, each run is an
// engine of its own, and two runs of one engine and version are an error;
// with history, the runs of one engine (by name) are its nights, the
// latest is its column, and each cell shows the trend of the last runs.
func BuildMatrix(history bool, runs ...*harness.Results) (*Matrix, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("matrix: no results")
	}
	var order []string
	byEngine := map[string][]*harness.Results{}
	for i, r := range runs {
		key := r.Engine.Name
		if !history {
			key += " " + r.Engine.Version
			if len(byEngine[key]) > 0 {
				return nil, runsError("matrix", "%[1]s and %[2]s are both of %[3]s %[4]s: give one run per engine, or --history for several runs of one",
					[]int{slices.Index(runs, byEngine[key][0]), i}, r.Engine.Name, r.Engine.Version)
			}
		}
		if len(byEngine[key]) == 0 {
			order = append(order, key)
		}
		byEngine[key] = append(byEngine[key], r)
	}
	m := &Matrix{}
	var latest []*harness.Results
	var nights [][]*harness.Results
	for _, key := range order {
		rs := byEngine[key]
		slices.SortStableFunc(rs, func(a, b *harness.Results) int { return a.Started.Compare(b.Started) })
		last := rs[len(rs)-1]
		latest = append(latest, last)
		nights = append(nights, rs[max(0, len(rs)-trendLength):])
		e := MatrixEngine{Name: last.Engine.Name, Version: last.Engine.Version, PartialTraces: last.Engine.PartialTraces,
			Seed: last.Seed, Checks: last.Options.Checks, Runs: len(rs), Totals: map[string]int{}}
		if !last.Started.IsZero() {
			e.Started = last.Started.UTC().Format("2006-01-02 15:04 MST")
		}
		for _, res := range last.Results {
			e.Totals[string(res.Verdict)]++
		}
		m.Engines = append(m.Engines, e)
	}
	seen := map[model.RuleID]bool{}
	for _, r := range latest {
		for _, res := range r.Results {
			seen[res.Rule] = true
		}
	}
	ids := slices.Collect(maps.Keys(seen))
	slices.SortFunc(ids, compareRules)
	sections := map[string]*MatrixSection{}
	for _, id := range ids {
		row := MatrixRow{Rule: id, Summary: rules.Summary(id)}
		for i, r := range latest {
			var cell MatrixCell
			if res := resultOf(r, id); res != nil {
				cell = MatrixCell{Verdict: res.Verdict, Cases: res.Cases, result: res}
				if res.Counterexample != nil {
					cell.Problem = res.Counterexample.Problem
				} else if res.Fault != nil {
					cell.Problem = faultText(*res)
				}
			}
			if history {
				for _, night := range nights[i] {
					v := harness.Verdict("")
					if res := resultOf(night, id); res != nil {
						v = res.Verdict
					}
					cell.Trend = append(cell.Trend, v)
				}
			}
			if cell.Verdict == harness.Held {
				row.Holding++
			}
			row.Cells = append(row.Cells, cell)
		}
		name := sectionOf(id)
		if sections[name] == nil {
			sections[name] = &MatrixSection{Name: name}
		}
		sections[name].Rows = append(sections[name].Rows, row)
	}
	for _, name := range sectionNames {
		if s := sections[name]; s != nil {
			m.Sections = append(m.Sections, *s)
		}
	}
	return m, nil
}

func resultOf(r *harness.Results, id model.RuleID) *harness.Result {
	for i := range r.Results {
		if r.Results[i].Rule == id {
			return &r.Results[i]
		}
	}
	return nil
}

// sectionNames are the matrix's sections, in order.
var sectionNames = []string{
	"730: merged permanents", "702.140: mutate", "701.42, 712.4, 712.21: meld", "708: face-down permanents",
	"710: flip cards", "712: double-faced cards", "110.5 and 702.26: status and phasing", "other rules",
}

// sectionOf is the section a rule belongs to.
func sectionOf(id model.RuleID) string {
	r := string(id)
	in := func(prefixes ...string) bool {
		return slices.ContainsFunc(prefixes, func(p string) bool { return r == p || strings.HasPrefix(r, p) && !isDigit(r[len(p)]) })
	}
	switch {
	case in("730"):
		return sectionNames[0]
	case in("702.140"):
		return sectionNames[1]
	case in("701.42", "712.4", "712.21", "712.8g"):
		return sectionNames[2]
	case in("708"):
		return sectionNames[3]
	case in("710"):
		return sectionNames[4]
	case in("712"):
		return sectionNames[5]
	case in("110.5", "702.26"):
		return sectionNames[6]
	}
	return sectionNames[7]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// MatrixFormat names the JSON form of a matrix.
const MatrixFormat = "mergecheck.matrix/v1"

// WriteMatrixJSON writes m as JSON.
func WriteMatrixJSON(w io.Writer, m *Matrix) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Format string `json:"format"`
		*Matrix
	}{MatrixFormat, m})
}

// trendMarks are the one-character marks of a trend, by verdict.
var trendMarks = map[harness.Verdict]string{
	harness.Held: "✓", harness.Failed: "✗", harness.Fault: "!", harness.Uncovered: "?", harness.Interrupted: "…", harness.Blocked: "#",
	harness.Unsupported: "–", harness.Unchecked: "·", "": " ",
}

func trendText(t []harness.Verdict) string {
	var b strings.Builder
	for _, v := range t {
		mark, ok := trendMarks[v]
		if !ok {
			mark = "?"
		}
		b.WriteString(mark)
	}
	return b.String()
}

func cellText(c MatrixCell) string {
	if c.Verdict == "" {
		return "—"
	}
	s := string(c.Verdict)
	switch c.Verdict {
	case harness.Unsupported, harness.Unchecked:
		// No case was played.
	case harness.Failed, harness.Fault:
		s += fmt.Sprintf(" (after %d)", c.Cases) // the cases that held before it
	default:
		s += fmt.Sprintf(" (%d)", c.Cases)
	}
	return s
}

// WriteMatrixMarkdown writes m as Markdown: the engines, then a table per
// section with a column per engine and how many engines hold each rule.
func WriteMatrixMarkdown(w io.Writer, m *Matrix) error {
	var b strings.Builder
	b.WriteString("## mergecheck matrix\n\n| engine | version | held | failed | blocked | faults | uncovered | unsupported | runs |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, e := range m.Engines {
		name := mdText(e.Name)
		if e.PartialTraces {
			name += " (partial traces)"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d |\n", name, mdText(e.Version), e.Totals[string(harness.Held)], e.Totals[string(harness.Failed)],
			e.Totals[string(harness.Blocked)], e.Totals[string(harness.Fault)], e.Totals[string(harness.Uncovered)]+e.Totals[string(harness.Interrupted)], e.Totals[string(harness.Unsupported)], e.Runs)
	}
	for _, s := range m.Sections {
		fmt.Fprintf(&b, "\n### %s\n\n| rule |", mdText(s.Name))
		for _, e := range m.Engines {
			fmt.Fprintf(&b, " %s |", mdText(e.Name))
		}
		b.WriteString(" holding |\n|---|")
		b.WriteString(strings.Repeat("---|", len(m.Engines)+1))
		b.WriteString("\n")
		for _, r := range s.Rows {
			fmt.Fprintf(&b, "| %s |", mdText(string(r.Rule)))
			for _, c := range r.Cells {
				text := mdText(cellText(c))
				if c.Verdict == harness.Failed || c.Verdict == harness.Fault {
					text = "**" + text + "**"
				}
				if len(c.Trend) > 1 {
					text += " `" + trendText(c.Trend) + "`"
				}
				fmt.Fprintf(&b, " %s |", text)
			}
			fmt.Fprintf(&b, " %d of %d |\n", r.Holding, len(m.Engines))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

//go:embed matrix.html.tmpl
var matrixTemplateText string

var matrixTemplate = template.Must(template.Must(htmlTemplate.Clone()).New("matrix").Parse(matrixTemplateText))

type matrixPage struct {
	Engines  []MatrixEngine
	Sections []matrixPageSection
	Cases    []htmlSection
	CRDate   string
}

type matrixPageSection struct {
	Name string
	Rows []matrixPageRow
}

type matrixPageRow struct {
	Rule, Summary string
	Cells         []matrixPageCell
	Holding       string
}

type matrixPageCell struct {
	Text, Class, Anchor, Trend, Title string
}

// WriteMatrixHTML writes m as a self-contained page: the engines with
// their totals, a table per section, and every failure and fault drawn as
// the report draws it, linked from its cell.
func WriteMatrixHTML(w io.Writer, m *Matrix) error {
	p := matrixPage{Engines: m.Engines, CRDate: rules.CRDate}
	for _, s := range m.Sections {
		ps := matrixPageSection{Name: s.Name}
		for _, r := range s.Rows {
			pr := matrixPageRow{Rule: string(r.Rule), Summary: r.Summary, Holding: fmt.Sprintf("%d of %d", r.Holding, len(m.Engines))}
			for i, c := range r.Cells {
				pc := matrixPageCell{Text: cellText(c), Class: verdictClass(c.Verdict, false), Title: c.Problem}
				if len(c.Trend) > 1 {
					pc.Trend = trendText(c.Trend)
				}
				if c.result != nil && (c.result.Counterexample != nil || c.result.Fault != nil) {
					sec := newHTMLSection(m.Engines[i].Name, *c.result)
					sec.Anchor = fmt.Sprintf("e%d-rule-%s", i+1, r.Rule)
					sec.Notes = append(sec.Notes, "engine: "+m.Engines[i].Name+" "+m.Engines[i].Version)
					pc.Anchor = sec.Anchor
					p.Cases = append(p.Cases, sec)
				}
				pr.Cells = append(pr.Cells, pc)
			}
			ps.Rows = append(ps.Rows, pr)
		}
		p.Sections = append(p.Sections, ps)
	}
	var buf bytes.Buffer
	if err := matrixTemplate.Execute(&buf, p); err != nil {
		return err
	}
	_, err := buf.WriteTo(w)
	return err
}
