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
		_ = untapSteps(c, false, func(i int, p, q *model.Permanent) error {
			if q.Status.PhasedOut {
				out = append(out, "phased-out-stays-tapped")
			}
			return nil
		})
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
	Cover: map[string]float64{"untaps": 0.2, "phases-in-and-untaps": 0.05, "attached-phases-in-and-untaps": 0.005, "phased-out-stays-tapped": 0.1},
	Check: func(c *Case) error {
		if err := staysTapped(c); err != nil {
			return err
		}
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
	return untapSteps(c, true, f)
}

// untapSteps calls f for each permanent tapped before an untap step
// (next_turn) that the rules untap there, or, with untapped false, that
// they leave tapped, with its state before (p) and after (q).
func untapSteps(c *Case, untapped bool, f func(i int, p, q *model.Permanent) error) error {
	for i := range c.Reference.Steps {
		if i >= len(c.Trace.Steps) || !actionIs(c, i, model.NextTurn) {
			continue
		}
		before := stateAt(c.Reference, i)
		for _, q := range c.Reference.Steps[i].State.Battlefield {
			p := before.Permanent(q.ID)
			if p == nil || !p.Status.Tapped || q.Status.Tapped == untapped {
				continue
			}
			if err := f(i, p, &q); err != nil {
				return err
			}
		}
	}
	return nil
}

// staysTapped fails when the engine untaps, in an untap step, a permanent
// the rules leave tapped: another player's, or one phased out, which is
// treated as though it does not exist (CR 702.26b). What the untap step
// untaps is 502.3's to say, so this is its check, before 110.5c's rule
// that a status stays until something changes it.
func staysTapped(c *Case) error {
	return untapSteps(c, false, func(i int, p, q *model.Permanent) error {
		if !agreesAt(c, i, q.ID) || !agreesAt(c, i+1, q.ID) {
			return nil
		}
		e, ep := c.Trace.Steps[i].State.Permanent(q.ID), stateAt(c.Trace, i).Permanent(q.ID)
		if e == nil || ep == nil || !ep.Status.Tapped || e.Status.Tapped {
			return nil
		}
		if ep.Status.PhasedOut != p.Status.PhasedOut || e.Status.PhasedOut != q.Status.PhasedOut {
			// Phased otherwise than the rules' (an Aura left phased in
			// with its host): 702.26's finding, and whether the untap
			// step untaps it follows from that.
			return nil
		}
		why := "it is not the active player's"
		if q.Status.PhasedOut {
			why = "it is phased out, treated as though it does not exist (CR 702.26b)"
		}
		return problemOf("untapped-though-not-untapping", "%s, %s untapped, but the rules leave it tapped: the untap step untaps the active player's phased-in permanents, and %s", after(c, i), q.ID, why)
	})
}
