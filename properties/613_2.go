package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genCopyMerge makes permanents copies (a card becoming a copy, Clone
// entering as one) and merges cards with them, or makes a merged
// permanent a copy: the copy effect and the merge then meet in layer 1a,
// in either timestamp order. The tuning of 613.2a, kept with it.
var genCopyMerge = generators.NewShape(generators.Options{
	MaxPermanents: 2, MaxComponents: 2, Hand: true, Clones: true, FaceDownTop: &no,
	Kinds:  []generators.Kind{generators.Card, generators.Token},
	Prefix: 2, PrefixTypes: []model.ActionType{model.BecomeCopy, model.EnterAsCopy},
	Focus:     []model.ActionType{model.CastMutate, model.Merge, model.BecomeCopy},
	FocusThen: []model.ActionType{model.BecomeCopy, model.CastMutate, model.Merge},
})

// P613_2a: in layer 1a, copy effects and merges apply in timestamp order
// (CR 613.2a, 730.2a): a copy that a card merges onto the top of takes
// that card's characteristics (for a mutating card, as the mutate notes
// say), and a merged permanent that becomes a copy takes the copy's.
// Whether a mutated permanent's components give their cards' printed
// abilities or the copy's the rules leave open (the reference marks them
// unsettled).
var P613_2a = &Property{
	Rule:         "613.2a",
	Needs:        []model.Feature{model.FeatureCopy},
	Draws:        genCopyMerge,
	Differential: true,
	Classify:     copyMergeOrder,
	Cover:        map[string]float64{"merged-after-copy": 0.05, "merged-onto-a-clone": 0.05, "copied-after-merge": 0.1},
	Check: func(c *Case) error {
		return sameCharacteristics(c, "merged permanent under a copy effect", func(*model.Permanent) bool { return true },
			func(r *model.Permanent) bool {
				return isMerged(c.Scenario, r) && !r.Status.FaceDown && !flippedMergedFlip(c.Scenario, r) && copiedIn(c.Scenario, r)
			})
	},
}

// copiedIn reports whether a copy effect applies to r in the rules' state:
// one on the permanent, or a component that entered as a copy (CR 707.5).
func copiedIn(s *model.Scenario, r *model.Permanent) bool {
	return hasCopyEffect(r) || slices.ContainsFunc(r.Components, func(comp model.Component) bool {
		return slices.ContainsFunc(s.Actions, func(a model.Action) bool { return a.Type == model.EnterAsCopy && a.Object == comp.Object })
	})
}

// copyMergeOrder labels the rules' trace by the order in which a copy
// effect and a merge met on one permanent, where the order shows (the
// permanent's characteristics change): merged after a copy effect,
// merged onto a card that entered as a copy (Clone), or copied after a
// merge.
func copyMergeOrder(s *model.Scenario, rules *model.Trace) []string {
	var out []string
	prev := &rules.Start
	for k := range rules.Steps {
		st := &rules.Steps[k].State
		for i := range st.Battlefield {
			p := &st.Battlefield[i]
			q := prev.Permanent(p.ID)
			switch {
			case q == nil || p.Status.FaceDown || characteristics(p, false) == characteristics(q, false):
			case len(p.Components) > len(q.Components) && hasCopyEffect(q):
				out = append(out, "merged-after-copy")
			case len(p.Components) > len(q.Components) && copiedIn(s, q):
				out = append(out, "merged-onto-a-clone")
			case isMerged(s, q) && copyEffects(p) > copyEffects(q):
				out = append(out, "copied-after-merge")
			}
		}
		prev = st
	}
	return out
}

func copyEffects(p *model.Permanent) int {
	n := 0
	for _, e := range p.Effects {
		if e.Kind == model.EffectCopy {
			n++
		}
	}
	return n
}
