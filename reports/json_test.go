package reports_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/jsonschema"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
)

func runOn(t *testing.T, engine string, seed uint64, shard harness.Shard, props ...*properties.Property) *harness.Results {
	t.Helper()
	e, err := harness.Reference(engine)
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 50, Seed: seed, Shard: shard})
	require.NoError(t, err)
	return res
}

func TestJSON_ConformsToItsSchema(t *testing.T) {
	res := runOn(t, "token-if-any-token", 1, harness.Shard{}, properties.P730_2d, properties.P730_3, properties.P702_140f)
	// Every field an engine can declare, so that the schema must know each.
	res.Engine.PartialTraces, res.Engine.NoDirectSetup = true, true
	var buf bytes.Buffer
	require.NoError(t, reports.WriteJSON(&buf, res))
	schema, err := jsonschema.Parse(reports.Schema)
	require.NoError(t, err)
	doc, err := jsonschema.Parse(buf.Bytes())
	require.NoError(t, err)
	assert.Empty(t, jsonschema.Validate(schema, doc))

	// The validator itself must catch a broken document.
	doc.(map[string]any)["results"].([]any)[0].(map[string]any)["verdict"] = "passed-ish"
	delete(doc.(map[string]any), "seed")
	assert.Len(t, jsonschema.Validate(schema, doc), 2)
}

func TestJSON_RoundTrips(t *testing.T) {
	res := runOn(t, "token-if-any-token", 1, harness.Shard{}, properties.P730_2d, properties.P730_3)
	var buf bytes.Buffer
	require.NoError(t, reports.WriteJSON(&buf, res))
	d, err := reports.ReadJSON(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	back := d.ToResults()
	require.Len(t, back.Results, 2)
	assert.Equal(t, harness.Failed, back.Results[0].Verdict)
	assert.Equal(t, res.Results[0].Counterexample.Scenario, back.Results[0].Counterexample.Scenario)
	var again bytes.Buffer
	require.NoError(t, reports.WriteJSON(&again, back))
	assert.JSONEq(t, buf.String(), again.String())
}

func TestJSON_ReadRejectsOtherVersionsAndUnknownFields(t *testing.T) {
	_, err := reports.ReadJSON(strings.NewReader(`{"schema": "mergecheck.results/v0"}`))
	assert.ErrorContains(t, err, `want "mergecheck.results/v1"`)
	_, err = reports.ReadJSON(strings.NewReader(`{"schema": "mergecheck.results/v1", "surprise": 1}`))
	assert.ErrorContains(t, err, "surprise")
	_, err = reports.ReadJSON(strings.NewReader(`not json`))
	assert.Error(t, err)
}

// TestMerge_ShardsEqualTheUnshardedRun: two shards with one seed, merged,
// have the verdicts and counterexamples of the whole run.
func TestMerge_ShardsEqualTheUnshardedRun(t *testing.T) {
	props := []*properties.Property{properties.P730_2d, properties.P730_3, properties.P730_3c, properties.P702_140f, properties.P712_21e}
	var order []model.RuleID
	for _, p := range props {
		order = append(order, p.Rule)
	}
	// dies-per-card's finding (730.3) blocks 730.2d, which is in the
	// other shard: merged, it is blocked as in the whole run.
	for _, engine := range []string{"token-if-any-token", "dies-per-card"} {
		whole := runOn(t, engine, 7, harness.Shard{}, props...)
		one := runOn(t, engine, 7, harness.Shard{Index: 1, Count: 2}, props...)
		two := runOn(t, engine, 7, harness.Shard{Index: 2, Count: 2}, props...)
		assert.NotEmpty(t, one.Results)
		assert.NotEmpty(t, two.Results)
		merged, err := reports.Merge(order, false, two, one)
		require.NoError(t, err)
		require.Len(t, merged.Results, len(whole.Results))
		for i, w := range whole.Results {
			m := merged.Results[i]
			assert.Equal(t, w.Rule, m.Rule)
			assert.Equal(t, w.Verdict, m.Verdict, "%s %s", engine, w.Rule)
			assert.Equal(t, w.BlockedBy, m.BlockedBy, "%s %s", engine, w.Rule)
			assert.Equal(t, w.Why, m.Why, "%s %s", engine, w.Rule)
			assert.Equal(t, w.Digest, m.Digest, w.Rule)
			if w.Counterexample != nil {
				assert.Equal(t, w.Counterexample.Scenario, m.Counterexample.Scenario, w.Rule)
			}
		}
		if engine == "dies-per-card" {
			assert.Equal(t, harness.Blocked, merged.Results[0].Verdict, "730.2d, blocked by 730.3 in the other shard")
		}
	}
	one := runOn(t, "token-if-any-token", 7, harness.Shard{Index: 1, Count: 2}, props...)
	_, err := reports.Merge(order, false, one, one)
	assert.ErrorContains(t, err, "both shard 1/2")
	other := runOn(t, "token-if-any-token", 8, harness.Shard{Index: 2, Count: 2}, props...)
	_, err = reports.Merge(order, false, one, other)
	assert.ErrorContains(t, err, "share a seed")
}

// TestMerge_ACompleteSetOfShardsOrSaysWhichAreMissing: two of three shards
// are refused, naming the third, unless a partial merge is allowed, which
// every report then marks; shards of different splits are refused as such.
func TestMerge_ACompleteSetOfShardsOrSaysWhichAreMissing(t *testing.T) {
	props := []*properties.Property{properties.P730_2d, properties.P730_3, properties.P712_21e}
	var order []model.RuleID
	for _, p := range props {
		order = append(order, p.Rule)
	}
	shard := func(i, n int) *harness.Results { return runOn(t, "", 3, harness.Shard{Index: i, Count: n}, props...) }
	one, two := shard(1, 3), shard(2, 3)
	_, err := reports.Merge(order, false, one, two)
	assert.ErrorContains(t, err, "shard 3/3 of the run is missing")

	merged, err := reports.Merge(order, true, one, two)
	require.NoError(t, err)
	assert.Equal(t, []string{"3/3"}, merged.MissingShards)
	note := reports.Incomplete(merged)
	assert.Contains(t, note, "shard 3/3 of the run is missing")
	var md, junit, html, js bytes.Buffer
	require.NoError(t, reports.WriteMarkdown(&md, merged))
	require.NoError(t, reports.WriteJUnit(&junit, merged))
	require.NoError(t, reports.WriteHTML(&html, merged))
	require.NoError(t, reports.WriteJSON(&js, merged))
	for name, out := range map[string]string{"markdown": md.String(), "junit": junit.String(), "html": html.String(), "json": js.String()} {
		assert.Contains(t, out, "3/3", "the %s report says which shard is missing", name)
	}
	back, err := reports.ReadJSON(&js)
	require.NoError(t, err)
	assert.Equal(t, []string{"3/3"}, back.MissingShards)

	_, err = reports.Merge(order, false, one, shard(2, 4))
	assert.ErrorContains(t, err, "split 4 ways, result 0 of one split 3 ways")
}

func TestBaseline_FailsOnlyOnNewFailuresAndShrinks(t *testing.T) {
	res := runOn(t, "token-if-any-token", 1, harness.Shard{}, properties.P730_2d, properties.P730_3, properties.P712_21e)
	require.Equal(t, harness.Failed, res.Results[0].Verdict)
	b, err := reports.ReadBaseline(strings.NewReader(`{"format": "mergecheck/baseline/v1", "expected": [
		{"rule": "730.2d", "reason": "token-ness from the wrong component, ticket 12"},
		{"rule": "730.3", "reason": "fixed last week", "until": "2099-01-01"},
		{"rule": "712.21e", "reason": "old", "until": "2020-01-01"}]}`))
	require.NoError(t, err)
	marked, rep := b.Apply(res, "baseline.json", time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	assert.Equal(t, []model.RuleID{"730.2d"}, rep.Expected)
	assert.True(t, marked.Results[0].Expected)
	assert.False(t, res.Results[0].Expected, "the run's own results are left as they were")
	assert.Equal(t, []model.RuleID{"730.3"}, rep.Fixed, "an expected failure that holds is reported, so the baseline shrinks")
	assert.Equal(t, []model.RuleID{"712.21e"}, rep.Expired)
	assert.Empty(t, rep.New)
	assert.False(t, rep.OK())

	written := reports.NewBaseline(res, "why")
	assert.Equal(t, []reports.Expected{{Rule: "730.2d", Reason: "why"}}, written.Expected)

	for _, bad := range []string{
		`{"format": "mergecheck/baseline/v1", "expected": [{"rule": "730.2d"}]}`,
		`{"format": "mergecheck/baseline/v1", "expected": [{"rule": "730.2d", "reason": "x", "until": "tomorrow"}]}`,
		`{"format": "nope", "expected": []}`,
	} {
		_, err := reports.ReadBaseline(strings.NewReader(bad))
		assert.Error(t, err, bad)
	}
}

// TestReadJSON_RefusesResultsThatMeanNothing: a results file is input too:
// a value that means nothing, or parts that disagree, is refused with the
// line and column to fix.
func TestReadJSON_RefusesResultsThatMeanNothing(t *testing.T) {
	res := runOn(t, "token-if-any-token", 1, harness.Shard{}, properties.P730_2d, properties.P730_3)
	var buf bytes.Buffer
	require.NoError(t, reports.WriteJSON(&buf, res))
	good := buf.String()
	_, err := reports.ReadJSON(strings.NewReader(good))
	require.NoError(t, err)
	edit := func(old, new string) string {
		require.Contains(t, good, old)
		return strings.Replace(good, old, new, 1)
	}
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"unknown verdict", edit(`"verdict": "held"`, `"verdict": "banana"`), []string{"line", "column", "verdict", `"banana" is not a verdict`}},
		{"negative cases", regexp.MustCompile(`"cases": \d+`).ReplaceAllString(good, `"cases": -5`), []string{"line", "column", "cases: -5 is negative"}},
		{"unknown rule", edit(`"rule": "730.3",`+"\n"+`      "summary"`, `"rule": "999.9z",`+"\n"+`      "summary"`), []string{"line", "column", `"999.9z" is not a rule`}},
		{"duplicate rule", edit(`"rule": "730.3",`+"\n"+`      "summary"`, `"rule": "730.2d",`+"\n"+`      "summary"`), []string{"line", "column", "reported twice"}},
		{"unknown lead", regexp.MustCompile(`("lead": \{\s*"rule": )"[^"]*"`).ReplaceAllString(good, `$1"999.9z"`), []string{"line", "column", "lead", `"999.9z"`}},
		{"no results", strings.Join(strings.SplitAfterN(good, `"results": [`, 2)[:1], "") + "]}", []string{"results is empty"}},
		{"summary disagrees", edit(`"held": 1`, `"held": 2`), []string{"line", "column", "summary says 2 held, 1 failed, but the results hold 1 held, 1 failed"}},
		{"truncated", good[:len(good)/2], []string{"not a JSON document: line", "column", "input ends in the middle of a JSON value"}},
		{"broken", edit(`"verdict": "held"`, `"verdict": held`), []string{"not a JSON document: line", "column", "invalid character"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := reports.ReadJSON(strings.NewReader(tc.doc))
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestReadBaseline_SaysWhere: a baseline naming no rule mergecheck checks,
// or one rule twice, is refused with the line and column.
func TestReadBaseline_SaysWhere(t *testing.T) {
	for doc, want := range map[string]string{
		`{"format": "mergecheck/baseline/v1", "expected": [{"rule": "999.9z", "reason": "r"}]}`:                                    `line 1, column 60: expected[0]: "999.9z" is not a rule`,
		`{"format": "mergecheck/baseline/v1", "expected": [{"rule": "730.2d", "reason": "r"}, {"rule": "730.2d", "reason": "s"}]}`: "expected[1]: rule 730.2d is listed twice",
		"{\"format\": \"mergecheck/baseline/v1\",\n \"expected\": [{\"rule\": \"730.2d\", \"reasn\": \"r\"}]}":                     "line 2",
	} {
		_, err := reports.ReadBaseline(strings.NewReader(doc))
		assert.ErrorContains(t, err, want)
	}
}

// TestFromElsewhere_CheckedBeforeTaken: a results file or shard from
// elsewhere is checked before it is used: shards run by two versions of
// mergecheck are not merged, and a results file whose shard is no shard
// (7/3) or whose options are negative is refused where it says so.
func TestFromElsewhere_CheckedBeforeTaken(t *testing.T) {
	props := []*properties.Property{properties.P730_2d, properties.P730_3}
	order := []model.RuleID{properties.P730_2d.Rule, properties.P730_3.Rule}
	one := runOn(t, "", 3, harness.Shard{Index: 1, Count: 2}, props...)
	two := runOn(t, "", 3, harness.Shard{Index: 2, Count: 2}, props...)
	one.Suite, two.Suite = "mergecheck 0.1.0", "mergecheck 0.2.0"
	_, err := reports.Merge(order, false, one, two)
	assert.ErrorContains(t, err, "run by mergecheck 0.2.0")
	two.Suite = one.Suite
	_, err = reports.Merge(order, false, one, two)
	assert.NoError(t, err)

	var js bytes.Buffer
	require.NoError(t, reports.WriteJSON(&js, one))
	for from, to := range map[string]string{`"shard": "1/2"`: `"shard": "7/3"`, `"timeout_seconds": 5`: `"timeout_seconds": -5`} {
		bad := strings.Replace(js.String(), from, to, 1)
		require.NotEqual(t, js.String(), bad, "the document holds %s", from)
		_, err := reports.ReadJSON(strings.NewReader(bad))
		assert.ErrorContains(t, err, "options.", to)
		assert.ErrorContains(t, err, "line ", "says where")
	}
}
