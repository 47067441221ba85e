package gopterscenario_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/gopterscenario"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// gopterCheck runs one property on an engine through gopter and returns
// the shrunk failing scenario, or nil if every test passed.
func gopterCheck(e harness.Engine, p *properties.Property, tests int, seed int64) (*model.Scenario, *gopter.TestResult) {
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = tests
	params.MaxShrinkCount = 200
	r := prop.ForAll1(gopterscenario.Gen(p.Draws.Gen()), func(v any) (any, error) {
		problem, fault := harness.CheckScenario(context.Background(), e, p, v.(*model.Scenario), 0)
		return problem == nil && fault == nil, nil
	}).Check(params)
	if r.Passed() || len(r.Args) == 0 {
		return nil, r
	}
	return r.Args[0].Arg.(*model.Scenario), r
}

func size(s *model.Scenario) (components, actions int) {
	for _, p := range s.Start.Battlefield {
		components += len(p.Components)
	}
	return components, len(s.Actions)
}

// TestGopterFindsAndShrinksAMutant: the gopter generator reaches the bug
// and its shrinker (package shrink's steps) brings it to the minimum.
func TestGopterFindsAndShrinksAMutant(t *testing.T) {
	e, err := harness.Reference("token-if-any-token")
	require.NoError(t, err)
	s, r := gopterCheck(e, properties.P730_2d, 100, 1)
	require.NotNil(t, s, "gopter missed the mutant: %v", r.Status)
	comps, acts := size(s)
	assert.Equal(t, [2]int{2, 0}, [2]int{comps, acts})
	_, err = reference.Run(s)
	assert.NoError(t, err)

	ok, _ := harness.Reference("")
	s, r = gopterCheck(ok, properties.P730_2d, 50, 1)
	assert.Nil(t, s)
	assert.True(t, r.Passed())
}

// BenchmarkRapidVersusGopter compares the two on our generators in one
// run: cases per second on the reference engine over every checkable
// property, then, for each mutant, the size of the counterexample each
// shrinks it to and how long that takes. The table is in the benchmark's
// log (go test -bench RapidVersusGopter -v).
func BenchmarkRapidVersusGopter(b *testing.B) {
	var checkable []*properties.Property
	for _, p := range properties.All {
		if p.Uncheckable == "" {
			checkable = append(checkable, p)
		}
	}
	ref, _ := harness.Reference("")
	const tests = 50
	for b.Loop() {
		t0 := time.Now()
		res, err := harness.Check(context.Background(), ref, checkable, &harness.Options{Checks: tests, Seed: 1, Parallel: 1})
		if err != nil {
			b.Fatal(err)
		}
		rapidCases := 0
		for _, r := range res.Results {
			rapidCases += r.Cases
		}
		rapidRate := float64(rapidCases) / time.Since(t0).Seconds()

		t0 = time.Now()
		gopterCases := 0
		for _, p := range checkable {
			_, r := gopterCheck(ref, p, tests, 1)
			gopterCases += r.Succeeded
		}
		gopterRate := float64(gopterCases) / time.Since(t0).Seconds()

		var table strings.Builder
		fmt.Fprintf(&table, "%-32s %-9s %-22s %-22s\n", "mutant", "rule", "rapid+harness", "gopter")
		rapidTotal, gopterTotal, gopterMissed := 0, 0, 0
		for _, m := range reference.Mutants {
			e, _ := harness.Reference(m.Name)
			p := properties.Find(properties.All, m.Breaks[0])
			t1 := time.Now()
			rr, err := harness.Check(context.Background(), e, []*properties.Property{p}, &harness.Options{Checks: 100, Seed: 1, Parallel: 1})
			if err != nil || rr.Results[0].Counterexample == nil {
				b.Fatalf("rapid missed %s", m.Name)
			}
			rc, ra := rr.Results[0].Counterexample.Size()
			rt := time.Since(t1)
			t1 = time.Now()
			gs, _ := gopterCheck(e, p, 100, 1)
			gt := time.Since(t1)
			gcell := "missed"
			if gs != nil {
				gc, ga := size(gs)
				gcell = fmt.Sprintf("%d+%d in %v", gc, ga, gt.Round(time.Millisecond))
				gopterTotal += gc + ga
			} else {
				gopterMissed++
			}
			rapidTotal += rc + ra
			fmt.Fprintf(&table, "%-32s %-9s %-22s %-22s\n", m.Name, p.Rule, fmt.Sprintf("%d+%d in %v", rc, ra, rt.Round(time.Millisecond)), gcell)
		}
		b.Logf("cases per second on the reference: rapid %.0f, gopter %.0f\ncounterexample sizes (components+actions):\n%s", rapidRate, gopterRate, table.String())
		b.ReportMetric(rapidRate, "rapid-cases/s")
		b.ReportMetric(gopterRate, "gopter-cases/s")
		b.ReportMetric(float64(rapidTotal), "rapid-total-size")
		b.ReportMetric(float64(gopterTotal), "gopter-total-size")
		b.ReportMetric(float64(gopterMissed), "gopter-missed")
	}
}
