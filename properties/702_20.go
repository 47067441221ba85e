package properties

import (
	"github.com/mergecheck/mergecheck/model"
)

// P702_20b: a creature with vigilance does not tap when it attacks.
var P702_20b = &Property{
	Rule:  "702.20b",
	Needs: []model.Feature{model.FeatureCombat},
	Draws: genAttackVigilance,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		return label(vigilantAttack(s, rules), "vigilant-attacker")
	},
	Cover: map[string]float64{"vigilant-attacker": 0.1},
	Check: func(c *Case) error {
		return tapsOnAttack(c, true, "a creature with vigilance stays untapped when it attacks")
	},
}
