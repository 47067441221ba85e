package properties

import (
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// P707_5: a card entering as a copy is a copy as it enters: it has the
// copiable values of what it copies (CR 707.2), of a merged permanent
// every component's abilities, of a face-down one the face-down values.
var P707_5 = &Property{
	Rule:  "707.5",
	Needs: []model.Feature{model.FeatureCopy},
	Draws: genClone,
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
	Cover: map[string]float64{"copy-of-merged": 0.13, "copy-of-face-down": 0.05},
	Check: func(c *Case) error {
		return entries(c, model.EnterAsCopy, func(i int, r, e *model.Permanent) error {
			target := c.Scenario.Actions[i].Target
			if !likeRulesAt(c, i, target) {
				return nil // the original differs already: another rule's finding
			}
			switch {
			case e == nil:
				return problemOf("copy-not-entered", "%s, no permanent %s: the card enters the battlefield as a copy of %s", after(c, i), r.ID, target)
			case !sameMakeup(e, r):
				return nil
			case e.Derived == nil || r.Derived == nil:
				return problemOf("copy-without-characteristics", "%s, %s reports no characteristics", after(c, i), r.ID)
			}
			if got, want := charsView(e.Derived.Characteristics), charsView(r.Derived.Characteristics); got != want {
				got, want = charsApart(e.Derived.Characteristics, r.Derived.Characteristics)
				return problemOf("copy-takes-other-values", "%s, %s entered as a copy of %s with %s, but a copy takes the original's copiable values: %s", after(c, i), r.ID, target, got, want)
			}
			return nil
		})
	},
}

// genCloneDFC has Clone enter as a copy of a lone double-faced permanent,
// either face up. The tuning of 707.8, kept with it.
var genCloneDFC = generators.NewShape(generators.Options{
	MaxPermanents: 1, MaxComponents: 1, Status: true, Clones: true,
	Kinds: []generators.Kind{generators.Transform},
	Focus: []model.ActionType{model.EnterAsCopy},
})

// P707_8: a copy of a double-faced permanent takes the copiable values of
// the face that is up; a card that enters as such a copy is not
// double-faced, nor transformed: its own card has one face. So for a copy
// of a merged permanent topped by a double-faced card, which is not
// double-faced itself (730.2i), and of a meld card or a melded permanent
// (meld cards are double-faced, 712.1). It needs copy, and a double-faced
// card or a meld card to copy: the draws tell which (harness's reach).
var P707_8 = &Property{
	Rule:  "707.8",
	Needs: []model.Feature{model.FeatureCopy},
	Draws: genCloneDFC,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = entries(c, model.EnterAsCopy, func(i int, r, e *model.Permanent) error {
			if q := copiedDFC(c, i); q != nil && len(q.Components) == 1 {
				out = append(out, map[bool]string{true: "copy-of-back-face-up", false: "copy-of-front-face-up"}[q.Components[0].Face == model.Back])
			}
			return nil
		})
		return out
	},
	Cover: map[string]float64{"copy-of-front-face-up": 0.1, "copy-of-back-face-up": 0.1},
	Check: func(c *Case) error {
		return entries(c, model.EnterAsCopy, func(i int, r, e *model.Permanent) error {
			q := copiedDFC(c, i)
			if q == nil || e == nil || e.Derived == nil || r.Derived == nil || !likeRulesAt(c, i, q.ID) || !sameMakeup(e, r) {
				return nil // what the copy is made of, or of, is another rule's finding
			}
			if e.Derived.DoubleFaced != r.Derived.DoubleFaced || e.Derived.Transformed != r.Derived.Transformed {
				what := "double-faced"
				switch {
				case len(q.Components) == 2 && q.Components[0].Face == model.Back && defOf(c.Scenario, q.Components[0].Object).Layout == model.LayoutMeld:
					what = "melded"
				case len(q.Components) > 1:
					what = "merged" // not double-faced itself (CR 730.2i)
				}
				return problemOf("copy-of-double-faced-is-double-faced", "%s, %s, which entered as a copy of %s %s, reports it %s and %s: a copy takes only the copiable values of the face that is up, and its own card has one face", after(c, i), r.ID, what, q.ID, flagWords(e.Derived.DoubleFaced, "double-faced"), flagWords(e.Derived.Transformed, "transformed"))
			}
			return nil
		})
	},
}

// copiedDFC returns the permanent step i of the rules' trace has a card
// enter as a copy of, as it was, when its topmost component is a face-up
// double-faced card (a lone double-faced permanent, or a merged one that
// shows such a card's face).
func copiedDFC(c *Case, i int) *model.Permanent {
	q := stateAt(c.Reference, i).Permanent(c.Scenario.Actions[i].Target)
	if q == nil || q.Status.FaceDown {
		return nil
	}
	if d := defOf(c.Scenario, q.Components[0].Object); d == nil || !d.Layout.DoubleFaced() {
		return nil
	}
	return q
}

// copiedDFCTop returns the permanent step i of the rules' trace makes a
// token copy of, as it was, when its topmost component is a face-up
// double-faced card, and the token's permanent the rules make.
func copiedDFCTop(c *Case, i int) (src, tok *model.Permanent) {
	a := c.Scenario.Actions[i]
	if a.Type != model.TokenCopy {
		return nil, nil
	}
	src = stateAt(c.Reference, i).Permanent(a.Object)
	if src == nil || src.Status.FaceDown {
		return nil, nil
	}
	if d := defOf(c.Scenario, src.Components[0].Object); d == nil || !d.Layout.DoubleFaced() {
		return nil, nil
	}
	return src, c.Reference.Steps[i].State.Permanent(model.EnteredID(a.Token, i))
}

// P707_8a: a token copy of a double-faced permanent is a double-faced
// token with the same face up; a merged permanent is not double-faced
// (CR 730.2i), so a token copy of one topped by a double-faced card is a
// token with one face, the merged permanent's copiable values.
var P707_8a = &Property{
	Rule:  "707.8a",
	Needs: []model.Feature{model.FeatureCopy},
	Draws: genCopyDFC,
	Classify: byStep(func(c *Case, i int) []string {
		switch src, tok := copiedDFCTop(c, i); {
		case tok == nil:
			return nil
		case len(src.Components) > 1:
			return []string{"copy-of-merged-dfc-top"}
		}
		return []string{"copy-of-lone-dfc"}
	}),
	Cover: map[string]float64{"copy-of-merged-dfc-top": 0.05, "copy-of-lone-dfc": 0.1},
	Check: func(c *Case) error {
		for i := range c.Reference.Steps {
			src, r := copiedDFCTop(c, i)
			if r == nil || !agreesAt(c, i, src.ID) {
				continue // made otherwise before: another rule's finding
			}
			e := c.Trace.Steps[i].State.Permanent(r.ID)
			if e == nil {
				return problemOf("no-token-copy", "%s, there is no token copy %s of %s: the rules create one", after(c, i), r.ID, src.ID)
			}
			d, err := derived(e)
			if err != nil {
				return err
			}
			want, got := r.Derived.DoubleFaced, d.DoubleFaced
			if len(src.Components) > 1 && got != want {
				return problemOf("copy-of-merged-double-faced", "%s, token copy %s of merged permanent %s reports it %s: a merged permanent is not double-faced (CR 730.2i), so neither is its copy", after(c, i), e.ID, src.ID, flagWords(got, "double-faced"))
			}
			if got != want || orFront(e.Components[0].Face) != orFront(r.Components[0].Face) {
				return problemOf("copy-of-dfc-otherwise", "%s, token copy %s of %s reports it %s with its %s face up: it is a double-faced token with the %s face up, as %s is", after(c, i), e.ID, src.ID, flagWords(got, "double-faced"), orFront(e.Components[0].Face), orFront(r.Components[0].Face), src.ID)
			}
		}
		return nil
	},
}
