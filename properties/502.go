package properties

import (
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// genUntapStep taps and phases out permanents and their attachments
// (some tapped from the start), then begins the next turns. The tuning of
// 502.3, kept with it.
var genUntapStep = generators.NewShape(generators.Options{
	MaxPermanents: 2, MaxComponents: 2, Status: true, Attach: true, Prefix: 1,
	PrefixTypes: []model.ActionType{model.Tap, model.PhaseOut},
	Focus:       []model.ActionType{model.PhaseOut, model.Tap},
	FocusThen:   []model.ActionType{model.NextTurn},
	FocusLast:   []model.ActionType{model.NextTurn},
})

// P502_3: in the untap step the active player's permanents untap, after
// phasing (502.1): what phased in, attachments with their hosts among
// them, untaps too.
var P502_3 = &Property{
	Rule:  "502.3",
	Draws: genUntapStep,
	Classify: func(s *model.Scenario, rules *model.Trace) []string {
		c := &Case{Scenario: s, Reference: rules, Trace: rules}
		var out []string
		_ = untaps(c, func(i int, p, q *model.Permanent) error {
			l := "untaps"
			switch {
			case p.Status.PhasedOut && p.AttachedTo != "":
				l = "attached-phases-in-and-untaps"
			case p.Status.PhasedOut:
				l = "phases-in-and-untaps"
			}
			out = append(out, l)
			return nil
		})
		return out
	},
	Cover: map[string]float64{"untaps": 0.2, "phases-in-and-untaps": 0.05, "attached-phases-in-and-untaps": 0.005},
	Check: func(c *Case) error {
		return untaps(c, func(i int, p, q *model.Permanent) error {
			e := c.Trace.Steps[i].State.Permanent(q.ID)
			if e == nil || !agreesAt(c, i+1, q.ID) || e.Controller != q.Controller || e.Status.PhasedOut {
				// Gone, made otherwise, another's, or not phased in:
				// another rule's finding (702.26c for phasing).
				return nil
			}
			if e.Status.Tapped {
				why := ""
				if p.Status.PhasedOut {
					why = ", phasing in first (CR 502.1)"
				}
				return problemOf("not-untapped-in-untap-step", "%s, %s is still tapped: in the untap step its controller, the active player, untaps every permanent they control%s", after(c, i), q.ID, why)
			}
			return nil
		})
	},
}

// untaps calls f for each permanent the rules untap in an untap step
// (next_turn), with its state before (p) and after (q).
func untaps(c *Case, f func(i int, p, q *model.Permanent) error) error {
	for i := range c.Reference.Steps {
		if i >= len(c.Trace.Steps) || !actionIs(c, i, model.NextTurn) {
			continue
		}
		before := stateAt(c.Reference, i)
		for _, q := range c.Reference.Steps[i].State.Battlefield {
			p := before.Permanent(q.ID)
			if p == nil || !p.Status.Tapped || q.Status.Tapped {
				continue
			}
			if err := f(i, p, &q); err != nil {
				return err
			}
		}
	}
	return nil
}
