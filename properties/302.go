package properties

import (
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// P302_6: a creature that has not been under its controller's control
// since their latest turn began can't attack unless it has haste; a merged
// creature keeps that from before it merged (CR 730.2c).
var P302_6 = &Property{
	Rule:  "302.6",
	Needs: []model.Feature{model.FeatureCombat},
	Draws: genAttackNew,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(slices.Contains(attackLabels(s, rules), "new-under-control"), "new-under-control")
	},
	Cover: map[string]float64{"new-under-control": 0.25},
	Check: func(c *Case) error {
		return attacks(c, func(i int, id model.ObjectID) error {
			if p := stateAt(c.Reference, i).Permanent(id); p == nil || p.ControlledSinceTurnStart {
				return nil
			}
			if _, decides := restrictionDecides(c, i, id); decides {
				return nil // 702.3b's or 508.1c's
			}
			return sameDeclaration(c, i, id, "a creature new under its controller's control attacks only with haste")
		})
	},
}
