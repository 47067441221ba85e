package properties_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/internal/testenv"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// needsSeeds and needsDraws are the draws the needs tests read of each
// rule's generator: needsDraws from each of seeds 1 to 3.
const needsSeeds, needsDraws = 3, 40

// drawsOf calls f with every draw the needs tests read of g, skipping
// those g can't draw (an engine whose features leave a shape nothing to
// draw from); a draw that breaks one of the generators' own invariants
// (a start that uses what the engine lacks, say) fails t.
func drawsOf(t *testing.T, g interface{ Example(...int) *model.Scenario }, f func(seed, i int, s *model.Scenario)) {
	t.Helper()
	for seed := 1; seed <= needsSeeds; seed++ {
		for i := range needsDraws {
			s, broke := testenv.Draw(g, seed*1_000+i)
			if broke != "" {
				t.Errorf("draw %d at seed %d: %s", i, seed, broke)
			}
			if s != nil {
				f(seed, i, s)
			}
		}
	}
}

// TestNeeds_EverySituationOfARuleNeedsItsNeeds: what a rule needs is what
// every situation it governs uses. In every draw of every rule's
// generator, each rule whose situation the draw reaches (its Classify
// labels it) has its needs among the features the draw uses, by the
// scenario and by the rules' trace of it. A need that a situation of the
// rule does without (712.15a listing transform, where a convert reaches
// it) would leave the rule unsupported for an engine whose cases reach it,
// and a bug there an unexplained departure.
func TestNeeds_EverySituationOfARuleNeedsItsNeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("every rule's draws classified by every rule")
	}
	reported := map[string]bool{}
	for _, p := range properties.All {
		if p.Draws == nil {
			continue
		}
		drawsOf(t, p.Draws.Gen(), func(seed, i int, s *model.Scenario) {
			rules, err := reference.Run(s)
			if err != nil {
				return // refused: no situation of any rule
			}
			info := engine.Info{Features: reference.UsesWith(s, rules)}
			for _, q := range properties.All {
				if q.Classify == nil || q.Uncheckable != "" || info.Supports(q.Needs) {
					continue
				}
				labels := q.Situations(s, rules)
				key := fmt.Sprintf("%s %v", q.Rule, info.Lacks(q.Needs))
				if len(labels) > 0 && !reported[key] {
					reported[key] = true
					assert.Fail(t, "a situation without the rule's needs", "%s's situation %v is reached in %s's draw %d at seed %d, which uses %v and not %v of its needs %v",
						q.Rule, labels, p.Rule, i, seed, info.Features, info.Lacks(q.Needs), q.Needs)
				}
			}
		})
	}
}

// TestNeeds_ARuleDrawnForItsNeedsUsesOnlyThem: an engine that declares
// just what a rule needs is given, for that rule, scenarios that use
// nothing else, by the scenario or by the rules' trace (a cast forbidden
// for a reason it does not declare, a ward): the generators leave out all
// the rest from the first draw. Of a shorthand, every part is declared.
func TestNeeds_ARuleDrawnForItsNeedsUsesOnlyThem(t *testing.T) {
	if testing.Short() {
		t.Skip("every rule's draws for an engine of its needs")
	}
	for _, p := range properties.All {
		if p.Draws == nil {
			continue
		}
		t.Run(string(p.Rule), func(t *testing.T) {
			declared, _ := model.ExpandFeatures(p.Needs)
			lacks := slices.DeleteFunc(slices.Clone(model.Features), func(f model.Feature) bool { return slices.Contains(declared, f) })
			drawn := 0
			drawsOf(t, p.Draws.For(generators.Engine{Lacks: lacks}), func(seed, i int, s *model.Scenario) {
				drawn++
				uses := reference.Uses(s)
				if more := (engine.Info{Features: declared}).Lacks(uses); len(more) > 0 {
					assert.Fail(t, "a draw uses what the engine does not declare", "draw %d at seed %d uses %v, and the engine declares only %v", i, seed, more, declared)
				}
			})
			assert.Positive(t, drawn, "no draw for an engine of the rule's needs %v", p.Needs)
		})
	}
}
