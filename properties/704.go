package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P704_5d: a token outside the battlefield ceases to exist.
var P704_5d = &Property{
	Rule:  "704.5d",
	Draws: genTokenLeaves,
	Needs: nil,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(anyStep(rules, func(i int) bool {
			return slices.ContainsFunc(leaves(rules, i), func(p *model.Permanent) bool {
				return slices.ContainsFunc(p.Components, func(comp model.Component) bool { return isToken(s, comp.Object) })
			})
		}), "token-leaves")
	},
	Cover: map[string]float64{"token-leaves": 0.25},
	Check: func(c *Case) error {
		for k := 1; k <= len(c.Trace.Steps); k++ {
			st := stateAt(c.Trace, k)
			for _, pl := range st.Players {
				for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
					list, _ := pl.Zones.Get(z)
					for _, id := range list {
						if isToken(c.Scenario, id) {
							return problemOf("token-outside-battlefield", "%s, token %s is in %s's %s: a token outside the battlefield ceases to exist", at(c, k), id, pl.ID, z)
						}
					}
				}
			}
			if c.Partial {
				continue
			}
			got := eventsView(c.Trace.Steps[k-1], model.CeaseToExist, objectView)
			want := eventsView(c.Reference.Steps[k-1], model.CeaseToExist, objectView)
			if !slices.Equal(got, want) {
				return problemOf("tokens-ceasing-to-exist", "%s, the engine reports %s ceasing to exist, but the rules end %s: a token that leaves the battlefield ceases to exist", at(c, k), listWords(got), listWords(want))
			}
		}
		return nil
	},
}
