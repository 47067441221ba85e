// Package properties states each rule of merged permanents and permanent
// status as an invariant: a value with its rule number, its words and its
// check.
//
// A [Property] is a logically constant value, declared once as a package
// variable and listed in [All]. Its summary lives in the rules index
// (package rules), its Check is a pure function over a [Case], and its
// Draws shapes the scenarios that reach the rule.
package properties

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

// A Property describes one rule as an invariant over a scenario and the
// trace an engine produced for it.
type Property struct {
	// Rule is the rule this property enforces. It is unique in All and
	// names the property in --rules globs, reports and corpus files.
	Rule model.RuleID

	// Needs lists the engine features every case of the property
	// exercises. An engine that lacks one gets the verdict unsupported
	// for this property. A shorthand ("face_down") needs any one of its
	// parts: the engine is judged on the cases that use only the parts it
	// declares, and refuses the others (model.Scenario.Uses says which).
	Needs []model.Feature

	// Observes lists the standard observers whose triggers Check reads.
	// An engine that does not report one of them gets unsupported.
	Observes []model.Observer

	// Events is set when Check reads events other than observers'
	// triggers (zone changes, reveals): an engine that declares partial
	// traces may leave those out, and gets unsupported.
	Events bool

	// Draws is the family of scenarios that reach the rule: the options
	// its generator is made with, from which the harness has the
	// generator for each engine (generators.Shape.For). It is nil only
	// when Uncheckable is set.
	Draws *generators.Shape

	// Classify labels what a case exercised, for coverage, from the
	// scenario and the reference engine's trace of it (what the rules say
	// happens), never from what the engine under test reports. Cover
	// gives the minimum share of judged cases each label needs; a run
	// below it is uncovered, not held.
	Classify func(s *model.Scenario, rules *model.Trace) []string
	Cover    map[string]float64

	// Differential reports whether Check compares the engine's
	// observations with the reference trace's, rather than judging them
	// on their own at the places the reference trace points to.
	Differential bool

	// Check judges one case. It returns nil if the rule holds, or an
	// error explaining the violation in the rules' terms, without the
	// rule number (the harness adds it). It must be pure.
	Check func(c *Case) error

	// Uncheckable, if set, says why the rule cannot be checked by
	// observing traces. Such properties are listed, never run.
	Uncheckable string

	// situations is Classify without ElseHappens, for a rule made with
	// changing.
	situations func(s *model.Scenario, rules *model.Trace) []string

	_ struct{} // require keyed literals
}

// Situations are p's labels for a case that name the rule's own
// situation: Classify's without ElseHappens, which says only that the
// rules change the game somewhere; none for a rule without labels. It
// skips the work of ElseHappens, which a harness asking of every held
// case which rules it reaches would do for nothing.
func (p *Property) Situations(s *model.Scenario, rules *model.Trace) []string {
	switch {
	case p.situations != nil:
		return p.situations(s, rules)
	case p.Classify == nil:
		return nil
	}
	return slices.DeleteFunc(p.Classify(s, rules), func(l string) bool { return l == ElseHappens })
}

// Title returns the rule's one-line summary from the rules index.
func (p *Property) Title() string { return rules.Summary(p.Rule) }

// A Case is one scenario played by one engine, as a Check sees it.
//
// Reference is always set: it is what the rules say happens, and it alone
// decides where a rule applies (which step merges, which permanent is
// melded or face down). A check then judges the engine's trace there, so
// an engine cannot pass a rule by not doing what the rule governs.
type Case struct {
	Scenario  *model.Scenario
	Trace     *model.Trace // from the engine under test
	Reference *model.Trace // from the reference engine
	Partial   bool         // the engine declared partial traces
	// Observers are the standard observers the engine reports; nil means
	// all of them.
	Observers []model.Observer
}

// Reports reports whether the engine reports observer o.
func (c *Case) Reports(o model.Observer) bool {
	return c.Observers == nil || slices.Contains(c.Observers, o)
}

// Validate reports every malformed property: an unindexed or duplicate
// rule, a missing summary, a missing Check or Draws on a checkable rule, or
// a Cover share outside (0, 1].
func Validate(props []*Property) error {
	var errs []error
	seen := map[model.RuleID]bool{}
	for i, p := range props {
		at := fmt.Sprintf("property %d (%s)", i, p.Rule)
		switch {
		case !rules.WellFormed(p.Rule):
			errs = append(errs, fmt.Errorf("%s: malformed rule number", at))
		case p.Title() == "":
			errs = append(errs, fmt.Errorf("%s: the rules index has no summary for it", at))
		}
		if seen[p.Rule] {
			errs = append(errs, fmt.Errorf("%s: rule listed twice", at))
		}
		seen[p.Rule] = true
		if p.Uncheckable != "" {
			if p.Check != nil || p.Draws != nil {
				errs = append(errs, fmt.Errorf("%s: an uncheckable property has no check or generator", at))
			}
			continue
		}
		if p.Check == nil || p.Draws == nil {
			errs = append(errs, fmt.Errorf("%s: a checkable property needs Check and Draws", at))
		}
		for label, share := range p.Cover {
			if share <= 0 || share > 1 {
				errs = append(errs, fmt.Errorf("%s: cover share for %q is %v, want (0, 1]", at, label, share))
			}
		}
		if len(p.Cover) > 0 && p.Classify == nil {
			errs = append(errs, fmt.Errorf("%s: Cover without Classify", at))
		}
		for _, f := range p.Needs {
			if _, unknown := model.ExpandFeatures([]model.Feature{f}); len(unknown) > 0 {
				errs = append(errs, fmt.Errorf("%s: unknown feature %q", at, f))
			}
		}
		for _, o := range p.Observes {
			if !slices.Contains(model.Observers, o) {
				errs = append(errs, fmt.Errorf("%s: unknown observer %q", at, o))
			}
		}
	}
	return errors.Join(errs...)
}

// Select returns the properties whose rule matches any of the globs, such
// as "730.2*", in the order of props. No globs selects everything. A glob
// that matches nothing is an error, so a typo never passes vacuously.
func Select(props []*Property, globs ...string) ([]*Property, error) {
	if len(globs) == 0 {
		return props, nil
	}
	var out []*Property
	for _, g := range globs {
		if _, err := path.Match(g, ""); err != nil {
			return nil, fmt.Errorf("bad rule pattern %q: %w", g, err)
		}
		hit := false
		for _, p := range props {
			if ok, _ := path.Match(g, string(p.Rule)); ok {
				hit = true
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
		if !hit {
			return nil, fmt.Errorf("rule pattern %q matches no property (mergecheck list shows them)", g)
		}
	}
	slices.SortStableFunc(out, func(a, b *Property) int {
		return slices.Index(props, a) - slices.Index(props, b)
	})
	return out, nil
}

// Find returns the property for rule id, or nil.
func Find(props []*Property, id model.RuleID) *Property {
	for _, p := range props {
		if p.Rule == id {
			return p
		}
	}
	return nil
}

// A Problem is a check's complaint about one case: its message, in the
// house grammar (lower case, what the engine did, then what the rule
// requires), and its class, a short key (see Key) that names the kind of
// violation whatever the objects and numbers in it. Shrinking keeps a
// counterexample in its class, so a failure never shrinks into another
// one.
type Problem struct {
	Class string
	Msg   string
	// Aspect is, for a departure from the rules' trace, the part of the
	// trace it is in, named without objects ("a permanent's status"), so
	// that departures alike can be told apart from others.
	Aspect string
	// Detail narrows a departure's aspect to the parts that differ (the
	// flags, the zone, extra or missing triggers), and Object names the
	// object it is about, if one; Where is the state or step it is in
	// ("after action 0 (move)").
	Detail string
	Object model.ObjectID
	// Role is the part Object plays in the rules' trace (a merged
	// permanent, a token component; see Bug), set by Departure.
	Role  string
	Where string
	// State is the state of the trace it is in: 0 the start, i+1 the
	// state after action i.
	State int
}

func (p *Problem) Error() string { return p.Msg }

// ClassOf returns the class of a check's error: a Problem's class, or the
// error's text for any other error.
func ClassOf(err error) string {
	var p *Problem
	if errors.As(err, &p) {
		return p.Class
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// problemOf formats a violation in the house grammar, of the class
// named by key (see Key).
func problemOf(class, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &Problem{Class: class, Msg: strings.TrimSuffix(msg, ".")}
}

// Key turns words into a class key: lower case, words joined by hyphens,
// nothing but letters, digits and hyphens ("a permanent's status" is
// "a-permanents-status"). A class is a key, so that reports and
// baselines can name it whatever the message says.
func Key(words string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(words) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		case r == '\'' || r == '’':
		default:
			dash = true
		}
	}
	return b.String()
}
