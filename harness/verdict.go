package harness

import (
	"fmt"
	"strings"
)

// An ending is how a rule's search ended, beside the counts of its
// Result: all that its verdict depends on besides them.
type ending struct {
	failed, faulted bool
	// stopped is set when the search ended before its cases were all
	// drawn: out of time or engine calls, or interrupted.
	stopped     bool
	interrupted bool // by a signal, not by a budget
	// callShare is the rule's share of --budget-calls when that share
	// ended the search, 0 otherwise.
	callShare int
	checks    int // cases asked for
	// short says which coverage label fell short of its share; empty
	// when none did.
	short         string
	noDirectSetup bool
}

// A decision is a rule's verdict and why. forShort is set when the verdict
// is for a coverage label short of its share.
type decision struct {
	verdict  Verdict
	why      string
	forShort bool
}

// decide gives a rule's verdict from its counts in r (cases held,
// refused, lost to findings, what was set aside) and how its search
// ended. It reads r and changes nothing: a table of Results and endings
// tests it (TestDecide).
func decide(r Result, e ending) decision {
	d := decided(r, e)
	if e.stopped && e.interrupted {
		switch d.verdict {
		case Failed:
			d.why = "the run was interrupted: the counterexample may not be shrunk to its minimum"
		case Fault:
		default:
			// A rule cut short by a signal is never held: its cases were
			// not all run.
			d = decision{verdict: Interrupted, why: fmt.Sprintf("the run was interrupted after %d of %d cases", r.Cases, e.checks)}
		}
	}
	return d
}

func decided(r Result, e ending) decision {
	switch {
	case e.failed:
		return decision{verdict: Failed}
	case e.faulted:
		return decision{verdict: Fault}
	case e.stopped && r.Cases == 0 && r.Excluded == 0:
		why := stoppedBeforeAnyCase
		if r.Refused > 0 {
			why += fmt.Sprintf("; the engine refused the %d scenarios drawn before it stopped, as: %s", r.Refused, r.Refusals[0].Reason)
		}
		return decision{verdict: Uncovered, why: why}
	case notJudged(r):
		// A case whose trace breaks its own accounting, or departs where
		// no check looks, was not judged on any rule: the rule is not
		// held while any was lost so. Cases lost to a finding are lost
		// to it whatever else the engine refused: the finding blocks the
		// rule (see block), rather than the rule being unsupported one
		// seed and blocked the next.
		return decision{verdict: Uncovered, why: lostCases(r)}
	case r.Refused > 0 && r.Cases == 0 && r.Excluded == 0:
		return decision{verdict: Unsupported, why: "the engine refused every scenario drawn for this rule: " + r.Refusals[0].Reason}
	case r.Refused > 0 && r.Cases < minCases(e.checks) && !e.stopped:
		// A handful of cases the engine played is no evidence that it
		// keeps the rule: it refused the rest.
		return decision{verdict: Unsupported, why: fmt.Sprintf("the engine refused %d of the scenarios drawn for this rule and played %d, too few to judge it by (%d are needed); it refused them as: %s",
			r.Refused, r.Cases, minCases(e.checks), r.Refusals[0].Reason)}
	case e.short != "" && e.noDirectSetup:
		// Not the generators' failing but the engine's limit: the stacks
		// it can be given don't reach the rule enough.
		return decision{verdict: Unsupported, why: "the engine can't set up merged stacks, and those that can be built for it by casting mutating spells don't reach this rule often enough: " + e.short, forShort: true}
	case e.short != "":
		return decision{verdict: Uncovered, why: e.short, forShort: true}
	case e.stopped && e.callShare > 0:
		return decision{verdict: Held, why: fmt.Sprintf("the rule's share of --budget-calls (%d engine calls) was spent after %d of %d cases; all of them held", e.callShare, r.Cases, e.checks)}
	case e.stopped:
		return decision{verdict: Held, why: fmt.Sprintf("the run was stopped after %d of %d cases; all of them held", r.Cases, e.checks)}
	case len(r.SetAside) > 0 || len(r.Shares) > 0:
		var why []string
		if len(r.SetAside) > 0 {
			why = append(why, "set aside, as its scenarios reach them never or too rarely: "+setAsideText(r.SetAside))
		}
		if len(r.Shares) > 0 {
			why = append(why, "covered at the shares measured for its features: "+sharesText(r.Shares))
		}
		return decision{verdict: Held, why: "judged on what the engine's features reach; " + strings.Join(why, "; ")}
	}
	return decision{verdict: Held}
}
