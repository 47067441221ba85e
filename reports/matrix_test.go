package reports_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
)

// partialEngine declares partial traces, as an engine that reports no
// zone changes or reveals does.
type partialEngine struct{ harness.Engine }

func (p partialEngine) Info() harness.EngineInfo {
	i := p.Engine.Info()
	i.Name, i.PartialTraces = "partial <b>&\"engine\"</b>", true
	return i
}

// matrixRuns are runs of the reference, two mutants and an engine with
// partial traces whose name would be markup if it were not escaped.
func matrixRuns(t *testing.T) []*harness.Results {
	// 712.21 with 730.3: a dies-per-card run on 730.3 alone fails 712.21
	// outside the selection, on its melded cases.
	props := []*properties.Property{properties.P730_2d, properties.P730_3, properties.P712_21, properties.P712_21e, properties.P702_140f, properties.P708_8}
	var runs []*harness.Results
	for _, name := range []string{"", "token-if-any-token", "dies-per-card"} {
		runs = append(runs, runOn(t, name, 1, harness.Shard{}, props...))
	}
	ref, err := harness.Reference("")
	require.NoError(t, err)
	res, err := harness.Check(t.Context(), partialEngine{ref}, props, &harness.Options{Checks: 30, Seed: 1})
	require.NoError(t, err)
	return append(runs, res)
}

// TestMatrix_HTMLHasARowPerRuleAndAColumnPerEngine parses the matrix page:
// one row per rule, one column per engine, a verdict in every cell, and
// every engine's name escaped. The Markdown has the same rows.
func TestMatrix_HTMLHasARowPerRuleAndAColumnPerEngine(t *testing.T) {
	runs := matrixRuns(t)
	m, err := reports.BuildMatrix(false, runs...)
	require.NoError(t, err)
	var page bytes.Buffer
	require.NoError(t, reports.WriteMatrixHTML(&page, m))
	assert.NotContains(t, page.String(), "<b>&", "an engine's name is escaped")

	rows, heads := parseMatrix(t, page.Bytes())
	require.Len(t, heads, 4, "a table per section: 730, 702.140, meld, 708")
	for _, h := range heads {
		assert.Len(t, h, len(runs)+3, "a column per engine, with the rule, holding and summary: %v", h)
		assert.Contains(t, h, `partial <b>&"engine"</b> 0.1.0`)
	}
	assert.Len(t, rows, 6, "a row per rule")
	verdicts := map[string]bool{}
	for _, r := range rows {
		require.Len(t, r, len(runs)+3)
		for _, cell := range r[1 : 1+len(runs)] {
			require.NotEqual(t, "—", cell, "every engine reports every rule")
			verdicts[strings.Fields(cell)[0]] = true
		}
	}
	for _, v := range []string{"held", "failed", "unchecked"} {
		assert.True(t, verdicts[v], "the matrix shows %s; it shows %v", v, verdicts)
	}
	assert.Contains(t, page.String(), `href="#e2-rule-730.2d"`, "a failure links to its counterexample")
	assert.Contains(t, page.String(), `id="e2-rule-730.2d"`)

	var md bytes.Buffer
	require.NoError(t, reports.WriteMatrixMarkdown(&md, m))
	for _, rule := range []string{"| 730.2d |", "| 730.3 |", "| 712.21e |", "| 702.140f |", "| 708.8 |"} {
		assert.Contains(t, md.String(), rule)
	}
	assert.Contains(t, md.String(), `partial \<b\>\&"engine"\</b\> (partial traces)`)

	_, err = reports.BuildMatrix(false, runs[0], runs[0])
	assert.ErrorContains(t, err, "both of mergecheck-reference")
}

// TestMatrix_HistoryShowsTheTrend: runs of one engine over nights are
// one column, the latest, with the verdicts of the runs in order.
func TestMatrix_HistoryShowsTheTrend(t *testing.T) {
	runs := matrixRuns(t)
	fixed, broken := runs[0], runs[1] // the reference, and token-if-any-token
	night := func(r *harness.Results, day int) *harness.Results {
		c := *r
		c.Engine.Name, c.Engine.Version = "vendor", "1."+string(rune('0'+day))
		c.Started = fixed.Started.AddDate(0, 0, day)
		return &c
	}
	m, err := reports.BuildMatrix(true, night(fixed, 1), night(broken, 2), night(fixed, 3))
	require.NoError(t, err)
	require.Len(t, m.Engines, 1)
	assert.Equal(t, "1.3", m.Engines[0].Version, "the latest run's version")
	assert.Equal(t, 3, m.Engines[0].Runs)
	for _, row := range m.Sections[0].Rows {
		if row.Rule == "730.2d" {
			assert.Equal(t, []harness.Verdict{harness.Held, harness.Failed, harness.Held}, row.Cells[0].Trend)
		}
	}
	var md bytes.Buffer
	require.NoError(t, reports.WriteMatrixMarkdown(&md, m))
	assert.Contains(t, md.String(), "`✓✗✓`")
}

// parseMatrix returns the cells' text of every matrix table's body rows,
// and each table's header cells.
func parseMatrix(t *testing.T, page []byte) (rows, heads [][]string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict, dec.AutoClose, dec.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	var inMatrix, inHead bool
	var row []string
	var cell *strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			switch tok.Name.Local {
			case "table":
				for _, a := range tok.Attr {
					inMatrix = inMatrix || a.Name.Local == "class" && strings.Contains(a.Value, "matrix")
				}
			case "thead":
				inHead = true
			case "tr":
				row = nil
			case "td", "th":
				cell = &strings.Builder{}
			}
		case xml.CharData:
			if cell != nil {
				cell.Write(tok)
			}
		case xml.EndElement:
			switch tok.Name.Local {
			case "td", "th":
				if cell != nil {
					row = append(row, strings.TrimSpace(cell.String()))
				}
				cell = nil
			case "tr":
				if inMatrix && inHead {
					heads = append(heads, row)
				} else if inMatrix {
					rows = append(rows, row)
				}
			case "thead":
				inHead = false
			case "table":
				inMatrix = false
			}
		}
	}
	return rows, heads
}

// TestReportsShowRefusals: a rule whose scenarios the engine partly
// refused shows how many and the commonest reasons, in HTML even when it
// held, and in Markdown when it did not.
func TestReportsShowRefusals(t *testing.T) {
	res := &harness.Results{Engine: harness.EngineInfo{Name: "partial"}, Options: harness.Options{Checks: 100}, Results: []harness.Result{
		{Rule: "730.2d", Verdict: harness.Held, Cases: 60, Refused: 40, Refusals: []harness.Refusal{{Reason: "no face-down merged permanents", Count: 30}, {Reason: "no tokens", Count: 10}}},
		{Rule: "730.3", Verdict: harness.Uncovered, Cases: 5, Why: "label \"token-on-top\" covered 0%", Refused: 95, Refusals: []harness.Refusal{{Reason: "no merged stacks", Count: 95}}},
	}}
	var page, md bytes.Buffer
	require.NoError(t, reports.WriteHTML(&page, res))
	require.NoError(t, reports.WriteMarkdown(&md, res))
	assert.Contains(t, page.String(), "the engine refused 40 scenarios drawn for this rule; the commonest reasons: no face-down merged permanents (30); no tokens (10)")
	assert.Contains(t, md.String(), "the engine refused 95 scenarios drawn for this rule; the commonest reasons: no merged stacks (95)")
}
