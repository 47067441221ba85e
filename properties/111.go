package properties

import (
	"github.com/mergecheck/mergecheck/model"
)

// entries calls f for every step i of the rules' trace whose action of
// type typ put a new permanent onto the battlefield other than by being
// cast (a created token, CR 111.1, or a card entering as a copy, CR 707.5),
// with that permanent (rules' r, and engine's e, nil when the engine has
// none of that id).
func entries(c *Case, typ model.ActionType, f func(i int, r, e *model.Permanent) error) error {
	for i := range c.Reference.Steps {
		if !actionIs(c, i, typ) {
			continue
		}
		a := c.Scenario.Actions[i]
		obj := a.Object
		if typ == model.CreateToken {
			obj = a.Token
		}
		id := model.EnteredID(obj, i)
		r := c.Reference.Steps[i].State.Permanent(id)
		if r == nil {
			continue
		}
		if err := f(i, r, c.Trace.Steps[i].State.Permanent(id)); err != nil {
			return err
		}
	}
	return nil
}

// P111_1: a created token is a token: a permanent no card represents.
var P111_1 = &Property{
	Rule:  "111.1",
	Needs: []model.Feature{model.FeatureCreateToken},
	Draws: genCreate,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = entries(c, model.CreateToken, func(i int, r, e *model.Permanent) error {
			out = append(out, "created")
			for k := i + 1; k < len(rules.Steps); k++ {
				if p := rules.Steps[k].State.Permanent(r.ID); p != nil && len(p.Components) > 1 {
					out = append(out, "created-then-merged")
					break
				}
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"created": 0.5, "created-then-merged": 0.05},
	Check: func(c *Case) error {
		return entries(c, model.CreateToken, func(i int, r, e *model.Permanent) error {
			switch {
			case e == nil:
				return problemOf("token-not-created", "%s, no permanent %s: the action creates a token, which enters the battlefield", after(c, i), r.ID)
			case !sameMakeup(e, r):
				return nil // made of other objects: another rule's finding
			case e.Derived == nil || !e.Derived.Token:
				return problemOf("created-token-not-a-token", "%s, the created %s is not a token: no card represents it", after(c, i), r.ID)
			}
			return nil
		})
	},
}
