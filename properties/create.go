package properties

import (
	"github.com/mergecheck/mergecheck/model"
)

// Objects that enter other than by being cast: a created token (CR 111.1)
// and a card entering as a copy (CR 707.5).

// entries calls f for every step i of the rules' trace whose action of
// type typ put a new permanent onto the battlefield, with that permanent
// (rules' r, and engine's e, nil when the engine has none of that id).
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
	Gen:   genCreate,
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
			case makeup(e) != makeup(r):
				return nil // made of other objects: another rule's finding
			case e.Derived == nil || !e.Derived.Token:
				return problemOf("created-token-not-a-token", "%s, the created %s is not a token: no card represents it", after(c, i), r.ID)
			}
			return nil
		})
	},
}

// P707_5: a card entering as a copy is a copy as it enters: it has the
// copiable values of what it copies (CR 707.2), of a merged permanent
// every component's abilities, of a face-down one the face-down values.
var P707_5 = &Property{
	Rule:  "707.5",
	Needs: []model.Feature{model.FeatureCopy},
	Gen:   genClone,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = entries(c, model.EnterAsCopy, func(i int, r, e *model.Permanent) error {
			switch q := stateAt(rules, i).Permanent(s.Actions[i].Target); {
			case q == nil:
			case q.Status.FaceDown:
				out = append(out, "copy-of-face-down")
			case len(q.Components) > 1:
				out = append(out, "copy-of-merged")
			default:
				out = append(out, "copy-of-lone")
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"copy-of-merged": 0.14, "copy-of-face-down": 0.05},
	Check: func(c *Case) error {
		return entries(c, model.EnterAsCopy, func(i int, r, e *model.Permanent) error {
			target := c.Scenario.Actions[i].Target
			if !likeRulesAt(c, i, target) {
				return nil // the original differs already: another rule's finding
			}
			switch {
			case e == nil:
				return problemOf("copy-not-entered", "%s, no permanent %s: the card enters the battlefield as a copy of %s", after(c, i), r.ID, target)
			case makeup(e) != makeup(r):
				return nil
			case e.Derived == nil || r.Derived == nil:
				return problemOf("copy-without-characteristics", "%s, %s reports no characteristics", after(c, i), r.ID)
			}
			if got, want := charsView(e.Derived.Characteristics), charsView(r.Derived.Characteristics); got != want {
				return problemOf("copy-takes-other-values", "%s, %s entered as a copy of %s with %s, but a copy takes the original's copiable values: %s", after(c, i), r.ID, target, got, want)
			}
			return nil
		})
	},
}
