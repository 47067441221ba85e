package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reports"
)

// withBroken is every property, with rule's replaced by a copy that break
// changes.
func withBroken(rule model.RuleID, breaks func(p *properties.Property)) []*properties.Property {
	props := slices.Clone(properties.All)
	for i, p := range props {
		if p.Rule == rule {
			c := *p
			breaks(&c)
			props[i] = &c
		}
	}
	return props
}

// TestInternalError_OnlyItsRule: a property whose check panics, or whose
// coverage labels do (in judging and in generation's look-ahead), is a
// bug of mergecheck's: its rule's verdict is an internal error with the
// message, every other rule's verdict is what it is without it, the run
// exits 2, the text output says so with the command that plays it again
// and no Go traceback (that is in -v and in the JSON report), and the
// summary counts every rule.
func TestInternalError_OnlyItsRule(t *testing.T) {
	if testing.Short() {
		t.Skip("three whole runs")
	}
	e, err := harness.Reference("")
	require.NoError(t, err)
	check := func(props []*properties.Property) *harness.Results {
		res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 100, Seed: 1})
		require.NoError(t, err)
		require.Len(t, res.Results, len(props), "every rule in the results")
		return res
	}
	plain := check(properties.All)
	for name, tt := range map[string]struct {
		rule   model.RuleID
		breaks func(p *properties.Property)
	}{
		"check": {"730.2d", func(p *properties.Property) {
			p.Check = func(*properties.Case) error { panic("a check broken for the test") }
		}},
		"labels": {"730.3", func(p *properties.Property) {
			classify := p.Classify
			p.Classify = func(s *model.Scenario, rules *model.Trace) []string {
				if len(s.Actions) > 0 {
					panic("labels broken for the test")
				}
				return classify(s, rules)
			}
		}},
	} {
		t.Run(name, func(t *testing.T) {
			res := check(withBroken(tt.rule, tt.breaks))
			for i, r := range res.Results {
				if r.Rule == tt.rule {
					assert.Equal(t, harness.Internal, r.Verdict, r.Why)
					require.NotNil(t, r.Internal)
					assert.Contains(t, r.Internal.Msg, "broken for the test")
					assert.NotContains(t, r.Why, "\n", "the message is a line")
					assert.NotEmpty(t, r.Internal.Stack, "where it broke is kept")
					continue
				}
				assert.Equal(t, plain.Results[i].Verdict, r.Verdict, "%s: %s", r.Rule, r.Why)
			}
			assert.Equal(t, exitTrouble, exitCode(res, nil))

			var text bytes.Buffer
			printResults(&text, res, false, "reference", 100)
			out := text.String()
			assert.Contains(t, out, "INTERNAL    "+string(tt.rule)+": mergecheck broke while judging this rule")
			assert.Contains(t, out, "again: mergecheck run --engine reference --rules "+string(tt.rule)+" --checks 100 --seed 1")
			assert.Contains(t, out, "1 internal errors")
			for _, line := range strings.Split(out, "\n") {
				assert.NotRegexp(t, `\.go:\d+|^goroutine |Traceback`, line, "a traceback in the text output")
			}
			text.Reset()
			printResults(&text, res, true, "reference", 100)
			assert.Contains(t, text.String(), ".go:", "-v shows where it broke")

			var doc bytes.Buffer
			require.NoError(t, reports.WriteJSON(&doc, res))
			read, err := reports.ReadJSON(&doc)
			require.NoError(t, err, "the JSON report of an internal error is valid")
			for _, r := range read.Results {
				if r.Rule == tt.rule {
					require.NotNil(t, r.Internal)
					assert.NotEmpty(t, r.Internal.Stack)
				}
			}
		})
	}
}

// TestWriteReports_ABrokenReportLosesNoOther: a report whose rendering
// panics (mergecheck's bug) is an error that says so in a line, and the
// reports after it are still written whole.
func TestWriteReports_ABrokenReportLosesNoOther(t *testing.T) {
	dir := t.TempDir()
	broken, after := dir+"/broken.md", dir+"/after.json"
	err := writeReports(&bytes.Buffer{},
		report{broken, func(io.Writer) error { panic("a renderer broken for the test\nwith more lines") }},
		report{after, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }},
	)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "rendering "+broken+": mergecheck broke")
	assert.NotContains(t, err.Error(), "more lines", "one line")
	assert.NoFileExists(t, broken, "no partial file")
	data, readErr := os.ReadFile(after)
	require.NoError(t, readErr)
	assert.Equal(t, "{}\n", string(data))
}

// TestInternalError_TheSearchBreakingKeepsExploresFailure: a check whose
// first judging, an exploring case of its rule (explore plays every
// rule's first case before any search), fails, and which breaks on every
// judging after, is an internal error that keeps a failing case, whether
// the search breaks on a case of its own before it gets back to that
// one or while shrinking it; the corpus has it. It holds whatever order
// explore plays in.
func TestInternalError_TheSearchBreakingKeepsExploresFailure(t *testing.T) {
	for _, rule := range []model.RuleID{"730.2d", "702.140a", "110.5b"} {
		t.Run(string(rule), func(t *testing.T) {
			var judged atomic.Int32
			i := slices.IndexFunc(properties.All, func(p *properties.Property) bool { return p.Rule == rule })
			props := []*properties.Property{withBroken(rule, func(p *properties.Property) {
				p.Check = func(*properties.Case) error {
					if judged.Add(1) > 1 {
						panic("a check broken after its first judging, for the test")
					}
					return errors.New("failed on its first judging, for the test")
				}
			})[i]}
			corpus := t.TempDir()
			e, err := harness.Reference("")
			require.NoError(t, err)
			res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 100, Seed: 1, Corpus: corpus, Timeout: time.Hour})
			require.NoError(t, err)
			r := res.Results[0]
			require.Equal(t, harness.Internal, r.Verdict, r.Why)
			require.NotNil(t, r.Internal.Scenario, "the failure explore found is kept")
			files, err := os.ReadDir(corpus)
			require.NoError(t, err)
			assert.Len(t, files, 1, "and saved to the corpus")
		})
	}
}

// TestInternalError_ShrinkingKeepsTheFailure: a check that breaks once
// it has found a failure, before or while that failure shrinks, is an
// internal error of its rule, and the failure found before it broke is
// not lost: the internal error keeps its scenario, and the corpus has
// it, to be played first next run. At seed 1 the failure is found by an
// exploring case, and the check breaks in the rule's search before the
// search gets back to that case.
func TestInternalError_ShrinkingKeepsTheFailure(t *testing.T) {
	e, err := harness.Reference("token-if-any-token")
	require.NoError(t, err)
	var failed atomic.Bool
	props := []*properties.Property{withBroken("730.2d", func(p *properties.Property) {
		check := p.Check
		p.Check = func(c *properties.Case) error {
			if failed.Load() {
				panic("a check broken after its first failure, for the test")
			}
			err := check(c)
			if err != nil {
				failed.Store(true)
			}
			return err
		}
	})[slices.IndexFunc(properties.All, func(p *properties.Property) bool { return p.Rule == "730.2d" })]}
	corpus := t.TempDir()
	res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 100, Seed: 1, Corpus: corpus})
	require.NoError(t, err)
	r := res.Results[0]
	require.Equal(t, harness.Internal, r.Verdict, r.Why)
	require.NotNil(t, r.Internal.Scenario, "the failure found is kept")
	problem, fault := harness.CheckScenario(context.Background(), e, properties.P730_2d, r.Internal.Scenario, time.Minute)
	assert.NoError(t, fault)
	assert.Error(t, problem, "the scenario kept still fails the rule")
	files, err := os.ReadDir(corpus)
	require.NoError(t, err)
	assert.Len(t, files, 1, "and saved to the corpus")
}
