package properties_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// The cover margin: a correct engine must reach every declared share at
// any seed, or an uncovered verdict says more about the seed than about
// the engine. A rule short of a share draws up to three more rounds of
// cases (the harness's coverRounds), so at the default checks it is
// uncovered only when short over coverageCases.
const (
	coverageCases = 4 * 100 // four rounds of harness.Options.Checks' default
	coverageDraws = 2000    // draws per rule that estimate a label's rate
	maxShortfall  = 1e-6    // the chance, per label and run, of falling short
)

// TestCover_EveryShareHoldsAtAnySeed: every label a property covers is
// drawn often enough that a correct engine falls short of its share, over
// the four rounds of 100 cases a rule draws at most, with a chance below
// one in a million, the label's rate taken two standard errors below its
// estimate from 2,000 draws. Drawing at fixed seeds, the test itself is
// deterministic.
func TestCover_EveryShareHoldsAtAnySeed(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 draws a rule")
	}
	for _, p := range properties.All {
		if p.Draws == nil || len(p.Cover) == 0 {
			continue
		}
		t.Run(string(p.Rule), func(t *testing.T) {
			t.Parallel()
			seen, drawn := map[string]int{}, 0
			for i := range coverageDraws {
				s := p.Draws.Gen().Example(i)
				rules, err := reference.Run(s)
				// A draw is valid by construction, which the harness
				// takes on trust (reference.RunValid).
				require.NotErrorIs(t, err, reference.ErrInvalid, "draw %d", i)
				if err != nil {
					continue // the harness counts refused cases apart
				}
				drawn++
				labels := p.Classify(s, rules)
				slices.Sort(labels)
				for _, l := range slices.Compact(labels) {
					seen[l]++
				}
			}
			if drawn < coverageDraws/2 {
				t.Fatalf("the reference refused %d of %d draws", coverageDraws-drawn, coverageDraws)
			}
			var short []string
			for _, l := range sortedKeys(p.Cover) {
				rate := float64(seen[l]) / float64(drawn)
				low := max(0, rate-2*math.Sqrt(rate*(1-rate)/float64(drawn)))
				need := int(math.Ceil(p.Cover[l]*coverageCases - 1e-9))
				if chance := binomialBelow(coverageCases, low, need); chance > maxShortfall {
					short = append(short, fmt.Sprintf("%q: drawn in %.1f%% of cases, share %.0f%% missed with chance %.1g; at most %.0f%% would hold",
						l, 100*rate, 100*p.Cover[l], chance, 100*float64(safeCount(coverageCases, low))/coverageCases))
				}
			}
			if len(short) > 0 {
				t.Errorf("%s: labels short of their share at some seeds:\n\t%s", p.Rule, strings.Join(short, "\n\t"))
			}
		})
	}
}

// binomialBelow is the chance that n trials of chance p succeed fewer
// than k times.
func binomialBelow(n int, p float64, k int) float64 {
	sum := 0.0
	for i := range min(k, n+1) {
		sum += math.Exp(logChoose(n, i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return sum
}

// safeCount is the largest k whose shortfall chance is within maxShortfall.
func safeCount(n int, p float64) int {
	k := 0
	for k < n && binomialBelow(n, p, k+1) <= maxShortfall {
		k++
	}
	return k
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestSituationsAreClassifyWithoutElseHappens: a property's Situations,
// which a harness asks of every held case for every rule, are its
// Classify's labels less properties.ElseHappens, on the draws of every
// property's generator, and some of those draws do have that label.
func TestSituationsAreClassifyWithoutElseHappens(t *testing.T) {
	withElse := 0
	for _, p := range properties.All {
		if p.Classify == nil {
			continue
		}
		for _, q := range properties.All {
			if q.Draws == nil {
				continue
			}
			for i := range 3 {
				s := q.Draws.Gen().Example(i)
				rules, err := reference.Run(s)
				if err != nil {
					continue
				}
				all := p.Classify(s, rules)
				if slices.Contains(all, properties.ElseHappens) {
					withElse++
				}
				want := slices.DeleteFunc(slices.Clone(all), func(l string) bool { return l == properties.ElseHappens })
				if got := p.Situations(s, rules); !slices.Equal(got, want) {
					t.Errorf("%s on draw %d of %s's generator: Situations %q, Classify less %q %q", p.Rule, i, q.Rule, got, properties.ElseHappens, want)
				}
			}
		}
	}
	if withElse == 0 {
		t.Errorf("no draw had the label %q: the test compared nothing it skips", properties.ElseHappens)
	}
}
