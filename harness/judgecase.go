package harness

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Traces are one scenario as the engine and the rules played it: all that
// Judge reads of a case besides the rules it judges it by.
type Traces struct {
	// Scenario is what the engine was given.
	Scenario *model.Scenario
	// Engine is the engine's trace: at a divergence, the steps it played
	// before the action it could not play.
	Engine *model.Trace
	// Rules is the reference engine's trace of Scenario.
	Rules *model.Trace
	// Divergence is the engine's answer that it could not play an
	// action, or nil.
	Divergence *Divergence
}

// A Judging is what a case is judged by beside its rule.
type Judging struct {
	// Info is what the engine declares; Judge reads what it says of its
	// traces (PartialTraces, Observers).
	Info EngineInfo
	// Explain are the rules whose checks may name a departure of the
	// engine's trace from the rules' (400.1 aside, which judges the
	// trace itself): a departure one of them names is its finding.
	Explain []*properties.Property
	// Judged400 is set when 400.1 is judged beside the case's rule: a
	// trace that breaks its own accounting is then 400.1's finding, not
	// a failure of the case's rule.
	Judged400 bool
}

// A CaseOutcome is what one case says of the rule it is judged on.
type CaseOutcome int

const (
	// CaseHeld: the engine played the case as the rule says, and went
	// nowhere the rules did not.
	CaseHeld CaseOutcome = iota
	// CaseFailed: a check found a problem: the rule's own, 400.1's on
	// the trace's accounting, or, at a divergence, the rule in play.
	CaseFailed
	// CaseSetAside: the case is another rule's finding (its check names
	// the engine's departure, or it is the rule in play at a divergence),
	// not a case of this one.
	CaseSetAside
	// CaseDeparted: the engine went another way than the rules where no
	// rule's check looks: neither a case of the rule nor its failure.
	CaseDeparted
	// CaseBroken: the rule's own check broke on the case (a bug of
	// mergecheck's), so nothing can be said of it.
	CaseBroken
)

// A Judgment is what Judge says of a case.
type Judgment struct {
	Outcome CaseOutcome
	// Rule is the rule whose check found the problem (CaseFailed) or
	// whose finding the case is (CaseSetAside).
	Rule model.RuleID
	// Problem is what failed (CaseFailed) or how the engine departed from
	// the rules (CaseDeparted).
	Problem error
	// Departure is, for a case a check failed, where the engine's trace
	// first departs from the rules' (properties.Departure; nil where it
	// follows them): with the problem, the failure's signature.
	Departure error
	// Internal are the checks that broke while the case was judged: the
	// rule's own (CaseBroken) or those asked whether they name a
	// departure. Each is its rule's internal error.
	Internal []*InternalError
}

// Judge judges a case on p, by: first the engine's trace itself (its new
// objects and its accounting, 400.1), then p's check, then, so that no
// case holds while the engine went another way, the whole trace against
// the rules' (properties.Departure), and last any action the engine could
// not play. It is a function of its arguments alone: no engine, no clock,
// no randomness.
func Judge(p *properties.Property, by Judging, t Traces) Judgment {
	c, lost := by.read(t)
	return by.judgeRead(p, t, &readCase{c: c, lost: lost})
}

// A readCase is a case as read for its checks (Judging.read), with its
// departure from the rules' trace once found: what judging one case on
// many rules reads once.
type readCase struct {
	c         *properties.Case
	lost      error
	departed  bool // departure holds properties.Departure(c)
	departure error
}

// departs is properties.Departure of r's case, found once.
func (r *readCase) departs() error {
	if !r.departed {
		r.departure, r.departed = properties.Departure(r.c), true
	}
	return r.departure
}

// judgeRead is Judge on a case already read from t.
func (by Judging) judgeRead(p *properties.Property, t Traces, r *readCase) Judgment {
	c, lost := r.c, r.lost
	if lost != nil {
		if p.Rule == properties.P400_1.Rule || !by.Judged400 {
			return Judgment{Outcome: CaseFailed, Rule: properties.P400_1.Rule, Problem: lost}
		}
		return Judgment{Outcome: CaseSetAside, Rule: properties.P400_1.Rule}
	}
	if err := safeCheck(p, c); err != nil {
		if ie := asInternal(err); ie != nil {
			return Judgment{Outcome: CaseBroken, Rule: p.Rule, Internal: []*InternalError{ie}}
		}
		return Judgment{Outcome: CaseFailed, Rule: p.Rule, Problem: err, Departure: r.departs()}
	}
	var j Judgment
	if d := r.departs(); d != nil {
		// Blame by the check: the departure is the finding of the rule
		// whose check names it, wherever it was drawn.
		for _, q := range by.Explain {
			if q == p || q.Rule == properties.P400_1.Rule {
				continue
			}
			switch err := safeCheck(q, c); {
			case asInternal(err) != nil:
				j.Internal = append(j.Internal, asInternal(err))
			case err != nil:
				j.Outcome, j.Rule = CaseSetAside, q.Rule
				return j
			}
		}
		// One that no check names fails no rule (before a divergence
		// too: the steps the engine did play went another way, which
		// says more than the action it then refused).
		j.Outcome, j.Problem = CaseDeparted, d
		return j
	}
	if t.Divergence != nil {
		return by.diverged(p, t, j)
	}
	return j
}

// read makes the case p's check reads from t: the engine's trace in the
// scenario's terms, and at a divergence the scenario and the rules' trace
// cut to the actions the engine played. lost is how the trace breaks its
// own accounting (400.1), which leaves nothing to judge.
func (by Judging) read(t Traces) (c *properties.Case, lost error) {
	s, got, want := t.Scenario, t.Engine, t.Rules
	c = &properties.Case{Scenario: s, Trace: got, Reference: properties.Settle(want, got), Partial: by.Info.PartialTraces, Observers: by.Info.Observers}
	if div := t.Divergence; div != nil {
		if div.Action < 0 || div.Action >= len(s.Actions) || div.Action >= len(want.Steps) {
			return nil, &properties.Problem{Class: "bad-divergence", Msg: badDivergence(s, div)}
		}
		prefix := *s
		prefix.Actions = s.Actions[:div.Action]
		ref := *want
		ref.Steps = want.Steps[:div.Action]
		c.Scenario, c.Reference = &prefix, &ref
	}
	read, err := inScenarioTerms(s, got, want)
	if err != nil {
		return nil, &properties.Problem{Class: "new-objects", Msg: "the trace's new objects: " + err.Error()}
	}
	c.Trace = read
	if err := properties.ValidTrace(c); err != nil {
		return nil, err
	}
	return c, nil
}

// badDivergence says what is wrong with an engine's answer that it could
// not play an action the scenario does not have.
func badDivergence(s *model.Scenario, div *Divergence) string {
	return fmt.Sprintf("the engine answered that it could not play action %d, but the scenario has %d actions", div.Action, len(s.Actions))
}

// diverged judges on p a case whose engine could not play an action, its
// steps before that held: the failure of the rule in play, the one the
// rules' trace cites for what the action does (of p and the rules that
// explain, the first in properties.All's order), and of no other. A case
// of another rule is that rule's finding, so that one divergence is one
// finding, not a failure of every rule whose cases meet it. When the
// rules' trace cites no rule judged, the divergence is an unexplained
// departure: no rule's check speaks of the action.
func (by Judging) diverged(p *properties.Property, t Traces, j Judgment) Judgment {
	problem := divergence(t)
	inPlay := inPlayOf(t.Rules.Steps[t.Divergence.Action], append([]*properties.Property{p}, by.Explain...))
	switch {
	case slices.Contains(inPlay, p):
		j.Outcome, j.Rule, j.Problem = CaseFailed, p.Rule, problem
	case len(inPlay) > 0:
		j.Outcome, j.Rule = CaseSetAside, inPlay[0].Rule
	default:
		j.Outcome, j.Problem = CaseDeparted, problem
	}
	return j
}

// divergence is the problem of an engine that could not play an action:
// one the rules play, or one they forbid, which an engine answers with a
// not-allowed event rather than by stopping.
func divergence(t Traces) *properties.Problem {
	div := t.Divergence
	a := t.Scenario.Actions[div.Action]
	st := t.Rules.Steps[div.Action]
	msg := fmt.Sprintf("the engine could not play action %d (%s): %s; ", div.Action, a.Type, div.Reason)
	if e := forbidden(st); e != nil {
		msg += fmt.Sprintf("the rules forbid it (CR %s), and an engine says so with a %s event and the state unchanged", e.Rule, model.NotAllowed)
	} else {
		msg += "the rules allow it, and the reference engine plays it: " + summarize(st)
	}
	return &properties.Problem{
		Class:  "divergence-" + properties.Key(string(a.Type)),
		Aspect: "an action the engine could not play (" + string(a.Type) + ")",
		Msg:    msg,
	}
}

// asInternal returns err as a check's internal error (see safeCheck), or
// nil.
func asInternal(err error) *InternalError {
	var ie *InternalError
	if errors.As(err, &ie) {
		return ie
	}
	return nil
}

// JudgeAll judges a case on every property of props the engine can be
// judged on, as Judge judges it on each, and returns each problem found,
// prefixed by its rule; the rules that fail alike (at a divergence, every
// rule in play) share one problem. A departure no rule's check names is a
// problem too, when nothing else is, and so is a check that broke.
func JudgeAll(props []*properties.Property, info EngineInfo, t Traces) []error {
	var judged []*properties.Property
	for _, p := range props {
		if ok, _ := applicable(info, p); ok && p.Rule != properties.P400_1.Rule {
			judged = append(judged, p)
		}
	}
	by := Judging{Info: info, Explain: judged}
	c, lost := by.read(t)
	if lost != nil {
		return []error{fmt.Errorf("%s: %w", properties.P400_1.Rule, lost)}
	}
	read := &readCase{c: c}
	type found struct {
		rules   []string
		problem error
	}
	var all []found // each rule's problem, or a check's internal error
	var departed error
	broken := map[model.RuleID]bool{}
	for _, p := range judged {
		j := by.judgeRead(p, t, read)
		for _, ie := range j.Internal {
			if !broken[ie.Rule] {
				broken[ie.Rule] = true
				all = append(all, found{problem: ie})
			}
		}
		switch {
		case j.Outcome == CaseDeparted:
			departed = j.Problem
		case j.Outcome != CaseFailed:
		case len(all) > 0 && all[len(all)-1].rules != nil && all[len(all)-1].problem.Error() == j.Problem.Error():
			all[len(all)-1].rules = append(all[len(all)-1].rules, string(j.Rule))
		default:
			all = append(all, found{rules: []string{string(j.Rule)}, problem: j.Problem})
		}
	}
	var problems []error
	for _, f := range all {
		if f.rules == nil {
			problems = append(problems, f.problem)
		} else {
			problems = append(problems, fmt.Errorf("%s: %w", strings.Join(f.rules, ", "), f.problem))
		}
	}
	if departed != nil && len(problems) == 0 {
		if t.Divergence != nil {
			return []error{fmt.Errorf("an unexplained departure (no rule judged speaks of the action): %w", departed)}
		}
		return []error{fmt.Errorf("an unexplained departure (%s), where no rule's check looks; it fails no rule: %w", properties.AspectOf(departed), departed)}
	}
	return problems
}

// An answer is an engine's answer to a scenario, sorted: a trace (with
// the divergence it ended in, if any), a refusal or a fault.
type answer struct {
	got     *model.Trace
	div     *Divergence
	refused error  // the engine's "unsupported", wrapping ErrUnsupported
	fault   error  // the engine crashed, hung or answered garbage
	class   string // the fault's class, for shrinking
}

// sortAnswer sorts what an engine's Run returned for s.
func sortAnswer(s *model.Scenario, got *model.Trace, err error) answer {
	var div *Divergence
	switch {
	case errors.As(err, &div):
		if div.Action < 0 || div.Action >= len(s.Actions) {
			return answer{fault: errors.New(badDivergence(s, div)), class: "bad-divergence"}
		}
		return answer{got: div.Trace, div: div}
	case errors.Is(err, ErrUnsupported):
		return answer{refused: err}
	case err != nil:
		return answer{fault: err, class: faultClass(err)}
	}
	return answer{got: got}
}

// Play plays s on e once, as a run plays a case, for Judge or JudgeAll:
// an engine that can't set up merged stacks is given them built by
// actions, and the rules' trace comes first, since a scenario the
// reference engine can't play is no scenario to judge an engine by. The
// error is the engine's refusal (wrapping ErrUnsupported) or failure, or
// the reference's.
func Play(ctx context.Context, e Engine, s *model.Scenario) (Traces, error) {
	info := e.Info()
	s, err := AsPlayed(info, s)
	if err != nil {
		return Traces{}, err
	}
	if err := undeclared(info, s); err != nil {
		return Traces{}, err
	}
	want, err := reference.Run(s)
	if err != nil {
		return Traces{}, fmt.Errorf("the reference engine can't play this scenario, so it can't judge an engine: %w", err)
	}
	got, err := e.Run(ctx, s)
	a := sortAnswer(s, got, err)
	switch {
	case a.refused != nil:
		return Traces{}, a.refused
	case a.fault != nil:
		return Traces{Engine: got}, a.fault
	}
	return Traces{Scenario: s, Engine: a.got, Rules: want, Divergence: a.div}, nil
}

// PlayAndJudge plays s on e (Play) and judges the case by every property
// of props the engine can be judged on (JudgeAll). It returns the
// engine's trace (the steps it played) and the problems found.
func PlayAndJudge(ctx context.Context, e Engine, s *model.Scenario, props []*properties.Property) (*model.Trace, []error, error) {
	t, err := Play(ctx, e, s)
	if err != nil {
		return t.Engine, nil, err
	}
	return t.Engine, JudgeAll(props, e.Info(), t), nil
}
