package properties

import (
	"github.com/mergecheck/mergecheck/model"
)

// commanderCard returns the commander card among p's components, or "".
func commanderCard(s *model.Scenario, p *model.Permanent) model.ObjectID {
	for _, comp := range p.Components {
		if o := s.Object(comp.Object); o != nil && o.Commander {
			return comp.Object
		}
	}
	return ""
}

// commanderLeaves returns, for step i of the rules' trace, the merged or
// melded permanents with a commander among their cards that leave the
// battlefield, and the owner's scripted command-zone choice.
func commanderLeaves(s *model.Scenario, rules *model.Trace, i int) (ps []*model.Permanent, chose bool) {
	for _, p := range leaves(rules, i) {
		if len(p.Components) > 1 && commanderCard(s, p) != "" {
			ps = append(ps, p)
		}
	}
	if cz := s.Actions[i].Choices.CommandZone; cz != nil {
		chose = *cz
	}
	return ps, chose
}

// P903_9c: a merged or melded permanent that is a commander (CR 903.3b-c)
// leaving the battlefield: its owner may put the commander card into the
// command zone (CR 903.9b, for a hand or a library; 903.9a and 704.6d, for
// a graveyard or exile, as a state-based action), a choice the scenario
// scripts. If the owner does, only that card goes there (903.9c); if not,
// it is not put there.
var P903_9c = &Property{
	Rule:  "903.9c",
	Needs: []model.Feature{model.FeatureCommander},
	Draws: genLeave,
	Classify: byStep(func(c *Case, i int) []string {
		ps, chose := commanderLeaves(c.Scenario, c.Reference, i)
		if len(ps) == 0 {
			return nil
		}
		return []string{map[bool]string{true: "owner-chooses-command-zone", false: "owner-declines-command-zone"}[chose]}
	}),
	Cover: map[string]float64{"owner-chooses-command-zone": 0.03, "owner-declines-command-zone": 0.03},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			ps, chose := commanderLeaves(c.Scenario, c.Reference, i)
			for _, p := range ps {
				if !agreesAt(c, i, p.ID) {
					continue // made otherwise before: another rule's finding
				}
				card := commanderCard(c.Scenario, p)
				gz, _ := zoneOf(&c.Trace.Steps[i].State, card)
				wz, _ := zoneOf(&c.Reference.Steps[i].State, card)
				switch {
				case chose && gz != wz && (gz == model.Command || wz == model.Command):
					return problemOf("commander-not-to-command-zone", "%s, commander %s of %s is in %s: its owner chose the command zone, and the commander card goes there, alone (the rules put it in %s)", after(c, i), card, p.ID, orNowhere(gz), orNowhere(wz))
				case !chose && gz == model.Command:
					return problemOf("commander-to-command-zone-unasked", "%s, commander %s of %s went to the command zone: its owner chose not to put it there, so it goes with the permanent, to %s", after(c, i), card, p.ID, orNowhere(wz))
				}
				if chose && wz == model.Command {
					// Only the commander card: the others go on.
					got, want := placesOf(&c.Trace.Steps[i].State), placesOf(&c.Reference.Steps[i].State)
					for _, comp := range p.Components {
						g, w := got[comp.Object].zone, want[comp.Object].zone
						if comp.Object != card && g == model.Command && w != model.Command {
							return problemOf("other-card-to-command-zone", "%s, %s went to the command zone with commander %s: only the commander card goes there", after(c, i), comp.Object, card)
						}
					}
				}
			}
		}
		return nil
	},
}

// orNowhere names a zone, or says there is none.
func orNowhere(z model.Zone) string {
	if z == "" {
		return "no zone"
	}
	return string(z)
}
