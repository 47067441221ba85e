package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

func statusView(st model.State) any {
	var out []string
	for _, p := range st.Battlefield {
		out = append(out, fmt.Sprintf("%s%+v", p.ID, p.Status))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// P110_5: every permanent has a value in each of the four status categories.
var P110_5 = &Property{
	Rule:         "110.5",
	Gen:          genStatus,
	Differential: true,
	Classify:     func(s *model.Scenario) []string { return label(len(s.Actions) > 1, "several-actions") },
	Cover:        map[string]float64{"several-actions": 0.15},
	Check:        func(c *Case) error { return sameAsReference(c, "the permanents' status", statusView) },
}

// P110_5a: status is not a characteristic, so a copy does not take it.
var P110_5a = &Property{
	Rule:  "110.5a",
	Needs: []model.Feature{model.FeatureCopy},
	Gen:   genCopy,
	Classify: func(s *model.Scenario) []string {
		return label(slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return p.Status.Tapped || p.Status.Flipped }), "copy-of-tapped-or-flipped")
	},
	Cover: map[string]float64{"copy-of-tapped-or-flipped": 0.2},
	Check: func(c *Case) error {
		for _, i := range stepsOf(c, model.TokenCopy) {
			a := action(c, i)
			q := c.Trace.Steps[i].State.Permanent(model.EnteredID(a.Token, c.Trace.Steps[i].Action))
			if q == nil {
				continue
			}
			if q.Status.Tapped || q.Status.Flipped {
				return problem("after action %d, token copy %s entered with status %+v: status is not a characteristic and is not copied", c.Trace.Steps[i].Action, q.ID, q.Status)
			}
		}
		return nil
	},
}

// P110_5b: permanents enter untapped, unflipped, face up and phased in.
var P110_5b = &Property{
	Rule: "110.5b",
	Gen:  genCopy,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.TokenCopy, model.Cast, model.Manifest), "enters")
	},
	Cover: map[string]float64{"enters": 0.3},
	Check: func(c *Case) error {
		for i := range c.Trace.Steps {
			prev := before(c.Trace, i)
			for _, q := range c.Trace.Steps[i].State.Battlefield {
				if prev.Permanent(q.ID) != nil {
					continue
				}
				want := model.Status{FaceDown: q.Components[0].FaceDown && q.Components[0].FaceDownBy != model.ByEffect}
				if q.Status != want {
					return problem("after action %d, %s entered with status %+v: a permanent enters untapped, unflipped, face up (unless put there face down) and phased in", c.Trace.Steps[i].Action, q.ID, q.Status)
				}
			}
		}
		return nil
	},
}

// changes lists the status categories an action may change, for the
// permanent it names.
func changes(a model.Action) (string, []string) {
	switch a.Type {
	case model.Tap, model.Untap:
		return string(a.Object), []string{"tapped"}
	case model.Flip:
		return string(a.Object), []string{"flipped"}
	case model.TurnFaceDown, model.TurnFaceUp:
		return string(a.Object), []string{"face_down"}
	case model.PhaseOut, model.PhaseIn:
		return "*", []string{"phased_out"}
	case model.Resolve, model.Merge:
		return "*", []string{"face_down"}
	case model.NextTurn:
		return "*", []string{"tapped", "phased_out"}
	}
	return "", nil
}

// P110_5c: a permanent keeps its status until something changes it.
var P110_5c = &Property{
	Rule: "110.5c",
	Gen:  genStatus,
	Classify: func(s *model.Scenario) []string {
		return label(has(s, model.Resolve, model.Merge, model.BecomeCopy), "merge-or-copy")
	},
	Cover: map[string]float64{"merge-or-copy": 0.1},
	Check: func(c *Case) error {
		for i := range c.Trace.Steps {
			a := action(c, i)
			who, may := changes(a)
			prev := before(c.Trace, i)
			for _, q := range c.Trace.Steps[i].State.Battlefield {
				p := prev.Permanent(q.ID)
				if p == nil {
					continue
				}
				free := who == "*" || who == string(q.ID)
				for _, cat := range []struct {
					name    string
					was, is bool
				}{{"tapped", p.Status.Tapped, q.Status.Tapped}, {"flipped", p.Status.Flipped, q.Status.Flipped},
					{"face_down", p.Status.FaceDown, q.Status.FaceDown}, {"phased_out", p.Status.PhasedOut, q.Status.PhasedOut}} {
					if cat.was != cat.is && !(free && slices.Contains(may, cat.name)) {
						return problem("after action %d (%s), %s's %s status went from %t to %t: a permanent keeps its status until something changes it", c.Trace.Steps[i].Action, a.Type, q.ID, cat.name, cat.was, cat.is)
					}
				}
			}
		}
		return nil
	},
}

// P110_5d: only permanents have status.
var P110_5d = &Property{
	Rule: "110.5d",
	Uncheckable: "the trace format gives a status only to permanents, so no engine can report one for a card " +
		"off the battlefield; that a card that left forgets its status is checked by 110.5b on its return",
}
