package harness_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// situationRefuser is the reference engine situationRefuser by name, as unsupported,
// every scenario in which the rules reach one situation of one rule (a
// coverage label of its Classify): an engine that does not implement
// that situation and says so.
type situationRefuser struct {
	harness.Engine
	p     *properties.Property
	label string
}

func (e situationRefuser) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	if rules, err := reference.Run(s); err == nil && slices.Contains(e.p.Situations(s, rules), e.label) {
		return nil, fmt.Errorf("%w: this engine does not implement %s's situation %q", harness.ErrUnsupported, e.p.Rule, e.label)
	}
	return e.Engine.Run(ctx, s)
}

// TestCoverage_ARefusedSituationIsUnsupportedNeverUncovered: coverage is
// asked only of what an engine plays. An engine that refuses by name one
// optional situation of a rule, every other one played as the rules say,
// has the rule held (the situation set aside, with the count of its
// refusals) or, when it refused all the rule reaches, unsupported: never
// uncovered, never a finding: the verdicts of a run that exits 0 (or,
// for a run of that rule alone when it is unsupported, 1 for judging
// nothing). Each label of each rule, one at a time, at seed 1.
func TestCoverage_ARefusedSituationIsUnsupportedNeverUncovered(t *testing.T) {
	if testing.Short() {
		t.Skip("every rule once for each of its labels")
	}
	ref, err := harness.Reference("")
	require.NoError(t, err)
	for _, p := range properties.All {
		labels := make([]string, 0, len(p.Cover))
		for l := range p.Cover {
			if l != properties.ElseHappens {
				labels = append(labels, l)
			}
		}
		sort.Strings(labels)
		for _, l := range labels {
			t.Run(string(p.Rule)+"/"+l, func(t *testing.T) {
				e := situationRefuser{Engine: ref, p: p, label: l}
				res, err := harness.Check(context.Background(), e, []*properties.Property{p}, &harness.Options{Checks: 100, Seed: 1})
				require.NoError(t, err)
				assert.Empty(t, res.Unexplained)
				for _, r := range res.Results {
					switch r.Verdict {
					case harness.Held:
						if r.Rule == p.Rule && r.RefusedLabels[l] > 0 && r.Coverage[l] == 0 {
							assert.Contains(t, r.Why, fmt.Sprintf("%q (%d refused)", l, r.RefusedLabels[l]), "the why names the refused situation with its count")
						}
					case harness.Unsupported:
						assert.Equal(t, p.Rule, r.Rule)
						assert.Contains(t, r.Why, "refused", "the why says the engine refused what the rule reaches")
					default:
						assert.Fail(t, "a verdict an engine situationRefuser one situation must not get", "%s is %s: %s", r.Rule, r.Verdict, r.Why)
					}
				}
			})
		}
	}
}
