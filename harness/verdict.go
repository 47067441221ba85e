package harness

import (
	"fmt"
	"strings"

	"github.com/mergecheck/mergecheck/model"
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
	// unreached is set for a rule with situations (its Classify labels)
	// when no case the engine played reached one: nothing it did was
	// what the rule is about.
	unreached bool
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
	case e.unreached && r.Refused > 0:
		// The cases that reach the rule were refused, or reach it too
		// rarely in what the engine plays: it is not held on the others.
		return decision{verdict: Unsupported, why: fmt.Sprintf("none of the %d cases the engine played reached the rule's situation; it refused %d scenarios drawn for the rule, as: %s", r.Cases, r.Refused, r.Refusals[0].Reason)}
	case e.unreached && (len(r.SetAside) > 0 || len(r.Shares) > 0):
		return decision{verdict: Unsupported, why: fmt.Sprintf("none of the %d cases the engine played reached the rule's situation, which the scenarios its declared features allow reach rarely", r.Cases)}
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
		refused, rare := map[string]string{}, map[string]string{}
		for l, w := range r.SetAside {
			if strings.HasPrefix(w, refusedPrefix) {
				refused[l] = w
			} else {
				rare[l] = w
			}
		}
		if len(rare) > 0 {
			why = append(why, "set aside, as its scenarios reach them never or too rarely: "+setAsideText(rare))
		}
		if len(refused) > 0 {
			why = append(why, "unsupported, as the engine refused the scenarios that reach them: "+refusedText(refused, r.RefusedLabels))
		}
		if len(r.Shares) > 0 {
			why = append(why, "covered at the shares measured for its features: "+sharesText(r.Shares))
		}
		what := "judged on what the engine's features reach; "
		if len(rare) == 0 && len(r.Shares) == 0 {
			what = "judged on what the engine plays; "
		}
		return decision{verdict: Held, why: what + strings.Join(why, "; ")}
	}
	return decision{verdict: Held}
}

// A basis is what a rule's verdict rests on besides its counts, as the
// run learns it: each part is set where the run learns it, and only
// verdictOf turns them into the verdict, so that the verdict is decided
// in one place.
type basis struct {
	// unsupported is why the engine can't be judged on the rule: a
	// feature or observer it lacks, or no scenario it can be given
	// reaches the rule. unchecked marks a rule no trace can show.
	unsupported string
	unchecked   bool
	// explored names the rule whose case, met while the rules explored,
	// failed this one before its own search (failFromLead).
	explored model.RuleID
	// corpus is set when a corpus scenario still breaks the rule.
	corpus bool
	// followed names the rule whose case failed this one after its own
	// cases held (settleAll); outside is set for a rule the run did not
	// search, whose only cases are such (addOutside).
	followed model.RuleID
	outside  bool
	// unshrunk is set when a failing or faulting case is kept as it was
	// played: the run stopped before it could be shrunk.
	unshrunk bool
	// blocked is the finding that took most of the rule's cases, when it
	// keeps the rule from being judged (block).
	blocked *blocking
	// stoppedBefore is set when the run stopped before the rule began;
	// interrupted when a signal stopped it, starting while the engine was
	// still starting.
	stoppedBefore, interrupted, starting bool
	// startFault is set when the engine could not be started at all.
	startFault bool
	// searched is what the rule's own search decided (decide).
	searched *decision
}

// A blocking is the finding that took most of a blocked rule's cases:
// top's ("" for an unexplained departure), most of them.
type blocking struct {
	top  model.RuleID
	most int
}

// verdictOf is a rule's verdict and why, from its counts and its basis:
// the one place a verdict is decided (TestVerdictOf). A rule whose basis
// says nothing is not held.
func verdictOf(r Result) decision {
	b := r.basis
	switch {
	case r.Internal != nil:
		return decision{verdict: Internal, why: r.Internal.Msg}
	case b.unchecked:
		return decision{verdict: Unchecked, why: b.unsupported}
	case b.unsupported != "":
		return decision{verdict: Unsupported, why: b.unsupported}
	case b.startFault:
		return decision{verdict: Fault}
	case b.explored != "":
		return decision{verdict: Failed, why: fmt.Sprintf("a case drawn for %s breaks it, found while the rules explored; the rule was not searched further", b.explored)}
	case b.corpus:
		return decision{verdict: Failed, why: "a corpus scenario still breaks it"}
	case b.followed != "" && b.outside:
		return decision{verdict: Failed, why: fmt.Sprintf("outside the rules selected: a case drawn for %s departs from the rules in a way this rule's check names", b.followed)}
	case b.followed != "":
		return decision{verdict: Failed, why: fmt.Sprintf("its own %d cases held; a case drawn for %s breaks it", r.Cases, b.followed)}
	case b.unshrunk:
		const why = "the run was stopped before this case could be shrunk: it is reported as it was played"
		if r.Counterexample != nil {
			return decision{verdict: Failed, why: why}
		}
		return decision{verdict: Fault, why: why}
	case b.blocked != nil:
		return decision{verdict: Blocked, why: blockedWhy(r, *b.blocked)}
	case b.stoppedBefore && b.starting:
		return decision{verdict: Interrupted, why: "the run was interrupted while the engine was starting, before this rule began"}
	case b.stoppedBefore && b.interrupted:
		return decision{verdict: Interrupted, why: "the run was interrupted before this rule began"}
	case b.stoppedBefore:
		return decision{verdict: Uncovered, why: stoppedBeforeAnyCase}
	case b.searched != nil:
		return *b.searched
	}
	return decision{verdict: Uncovered, why: "the rule was not judged"}
}

// blockedWhy says which finding took a blocked rule's cases.
func blockedWhy(r Result, b blocking) string {
	total := r.Cases + r.Excluded + r.Departed
	why := fmt.Sprintf("%d of its %d cases were lost to %s's finding: fix that first", b.most, total, b.top)
	if b.top == "" {
		why = fmt.Sprintf("%d of its %d cases departed from the rules' where no rule's check looks (an unexplained departure): fix that first", b.most, total)
	}
	if others := r.Excluded + r.Departed - b.most; others > 0 {
		why += fmt.Sprintf(" (%d more were other findings': %s)", others, lostCases(r))
	}
	return why
}

// conclude sets r's verdict, and the rule that blocks it, from what the
// run has learned of it (verdictOf).
func (r *Result) conclude() {
	d := verdictOf(*r)
	r.Verdict, r.Why = d.verdict, d.why
	if b := r.basis.blocked; d.verdict == Blocked && b != nil {
		r.BlockedBy = b.top
		if b.top != "" {
			r.LostTo = ""
		}
	}
}
