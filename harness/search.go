package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	stdhash "hash"
	"slices"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// A searcher runs rapid over a rule's generator and counts what its cases
// did into the rule's Result: cases held, refused, lost to findings, and
// the coverage labels of those held.
type searcher struct {
	ctx context.Context
	j   *judge
	p   *properties.Property
	r   *Result
	gen *rapid.Generator[*model.Scenario]
	// stopped is set once a case found the run stopped, out of time or
	// of engine calls.
	stopped  bool
	refusals map[string]int
	// refusedAs is, by coverage label, the first reason the engine gave
	// for refusing a scenario with it.
	refusedAs map[string]string
	digest    stdhash.Hash
	// played are the cases a search played that failed nothing new, by
	// hash: a later search need not play them again.
	played map[string]bool
	// first is set while gen is the rule's own generator, whose i-th
	// case is the rule's i-th draw (judge.draft), not another round's.
	first bool
}

func newSearcher(ctx context.Context, j *judge, r *Result) *searcher {
	r.Coverage = map[string]int{}
	return &searcher{ctx: ctx, j: j, p: j.p, r: r, gen: j.gen(), refusals: map[string]int{}, refusedAs: map[string]string{}, digest: sha256.New(), played: map[string]bool{}, first: true}
}

// A hunt is one search's state: the failure classes it is not looking
// for, whether it counts its cases, and what it found.
type hunt struct {
	known    map[string]bool
	counting bool
	found    *failing // the failure being shrunk, in its smallest form so far
	fault    *failing // the first fault, reported if no case breaks the rule
	faults   int      // cases in a row the engine faulted on
	foundAt  int      // the engine call that found the failure
	cases    int      // the cases drawn before any failed
	tries    int      // the cases rapid's shrinking of found drew
}

// search runs rapid over the property's generator until a case fails in
// a class not in known, and shrinks it with rapid, keeping it in its
// class. A counting search counts cases, coverage and refusals; a later
// one looks only for failures of other classes, skipping the cases an
// earlier one played.
func (s *searcher) search(known map[string]bool, counting bool) (found, fault *failing, err error) {
	s.j.cache = nil // outcomes are kept only while one failure shrinks
	tb := &recorder{name: string(s.p.Rule)}
	h := &hunt{known: known, counting: counting}
	rapid.Check(tb, func(t *rapid.T) { s.try(t, h) })
	s.j.shrinking = false
	if s.j.internals.of(s.p.Rule) != nil {
		if f := h.found; f != nil {
			s.j.internals.keep(s.p.Rule, f.played())
		}
		return nil, nil, s.j.internals.of(s.p.Rule)
	}
	if tb.failed && h.found == nil && !s.stopped && h.faults < faultsInARow {
		// rapid failed without any case going wrong: a generator or the
		// harness itself broke. That is mergecheck's bug, not a verdict:
		// the rule's internal error.
		return nil, nil, internalFromLogs(s.p.Rule, tb.logs)
	}
	return h.found, h.fault, nil
}

// try draws one case and plays it, for rapid: it fails rapid's test when
// the case fails in a class the hunt looks for.
func (s *searcher) try(t *rapid.T, h *hunt) {
	if s.j.broken() {
		// The rule's own check broke: no case of it can be judged, and
		// rapid need not shrink the case that showed it.
		return
	}
	if h.faults >= faultsInARow && h.found == nil {
		// The engine faults on everything: looking on for a violation
		// would cost a timeout a case for nothing.
		t.Fatalf("gave up")
	}
	if s.ctx.Err() != nil {
		s.stopped = true
		if h.found == nil {
			// Nothing to shrink: end rapid's loop now rather than skip
			// through every remaining case. (While a failure shrinks, a
			// skip leaves its counterexample alone.)
			t.Fatalf("stopped")
		}
		t.SkipNow()
	}
	if h.found != nil && (s.j.calls-h.foundAt >= rapidShrinkCalls || h.tries >= rapidShrinkDraws) {
		// rapid's share of the shrinking is spent: every try passes
		// unplayed from here, which ends its passes, and the domain steps
		// take the smallest case it found. Nor is its case drawn: rapid
		// rejects a passing try whatever it drew, and drawing was most of
		// the cost of the passes left.
		return
	}
	sc, d := s.draw(t, h)
	if h.found != nil {
		h.tries++
	}
	if !h.counting && h.found == nil && s.played[keyOf(sc, d)] {
		return
	}
	out := s.j.playDrawn(sc, d)
	if h.found == nil && !out.stopped && (out.problem == nil || h.known[out.sig()]) {
		s.played[out.key] = true
	}
	if out.fault != nil && out.problem == nil {
		h.faults++
	} else if !out.stopped {
		h.faults = 0
	}
	switch {
	case out.stopped:
		s.stopped = true
		t.SkipNow()
	case out.broken:
		t.Fatalf("the rule's check broke")
	case out.problem != nil:
		s.failed(t, h, sc, out)
	case out.fault != nil:
		// A fault is reported only if no case breaks the rule: a
		// violation says more than a crash.
		if h.fault == nil && !h.known[out.sig()] {
			h.fault = &failing{sc, out}
		}
	case h.counting && h.found == nil:
		s.count(sc, d, out)
	case out.excluded != "" && h.found == nil:
		s.j.lead(out.excluded, sc, out)
	}
}

// draw draws a case for rapid. Before any case failed, a search with the
// rule's own generator and the run's Draws takes its i-th case from
// there: rapid's i-th case draws the same scenario, and a passing case
// need not have been drawn through rapid, since rapid keeps nothing of
// it. A failing one rapid draws again, from its seed, to shrink it.
func (s *searcher) draw(t *rapid.T, h *hunt) (*model.Scenario, *drawn) {
	if h.found == nil && s.first && (s.j.o.Draws != nil || h.cases < len(s.j.ahead)) {
		d := s.j.draft(h.cases)
		h.cases++
		if d.s != nil {
			return d.s, d
		}
	}
	// A draft's draw and play were timed as it was made (makeDrawn).
	t0 := time.Now()
	defer func() { s.r.Time.Generate += time.Since(t0) }()
	return s.gen.Draw(t, "scenario"), nil
}

// failed takes a case whose check failed: the first of a class the hunt
// looks for is the failure to shrink, and rapid's shrinking keeps cases
// that fail the same way.
func (s *searcher) failed(t *rapid.T, h *hunt, sc *model.Scenario, out outcome) {
	if h.known[out.sig()] {
		return
	}
	if h.found == nil {
		h.found, h.foundAt = &failing{sc, out}, s.j.calls
		s.j.remember(out)
		s.j.shrinking, s.j.shrinkErrors = true, nil
		if s.r.FailedAtCall == 0 {
			s.r.FailedAtCall = out.call
		}
	}
	if out.same(h.found.out) {
		h.found = &failing{sc, out}
		t.Fatalf("%v", out.problem)
	}
	// Another failure than the one being shrunk: not this one's to keep.
}

// count counts a case of the rule's own search that did not fail it: a
// refusal, a case another rule's finding took or an unexplained departure
// took, or a case held, with its coverage labels.
func (s *searcher) count(sc *model.Scenario, d *drawn, out outcome) {
	r := s.r
	switch {
	case out.refused != nil:
		r.Refused++
		s.refusals[out.refused.Error()]++
		for _, l := range out.refusedLabels {
			if r.RefusedLabels == nil {
				r.RefusedLabels = map[string]int{}
			}
			r.RefusedLabels[l]++
			if s.refusedAs[l] == "" {
				s.refusedAs[l] = out.refused.Error()
			}
		}
	case out.excluded != "":
		s.j.lead(out.excluded, sc, out)
		r.Excluded++
		if r.ExcludedBy == nil {
			r.ExcludedBy = map[model.RuleID]int{}
		}
		r.ExcludedBy[out.excluded]++
		countLost(s.p, r, sc, out)
	case out.departed != nil:
		r.Departed++
		s.j.depart(sc, out)
		countLost(s.p, r, sc, out)
	default:
		r.Cases++
		s.digest.Write([]byte(out.key))
		var labels []string
		if d != nil {
			labels = d.labelsFor(s.p)
		} else if out.played != nil {
			labels = labelsOf(s.p, out.played, out.want)
		} else {
			labels = labelsOf(s.p, sc, out.want)
		}
		for _, l := range labels {
			r.Coverage[l]++ // once a case, however often it shows
		}
		s.j.judgeOthers(sc, d, out)
	}
}

// keyOf is the hash of s, which d, if not nil, is s as drawn.
func keyOf(s *model.Scenario, d *drawn) string {
	if d != nil {
		return d.key
	}
	return hash(s)
}

// labelsOf are the coverage labels of a case, each once, sorted.
func labelsOf(p *properties.Property, s *model.Scenario, want *model.Trace) []string {
	if p.Classify == nil {
		return nil
	}
	labels := p.Classify(s, want)
	slices.Sort(labels)
	return slices.Compact(labels)
}

// cover runs the rule's counting search, then, while no case failed and a
// coverage label is short of its share only by the seed's luck, up to
// coverRounds more rounds of cases.
func (s *searcher) cover(checks int) (found, fault *failing, err error) {
	found, fault, err = s.search(nil, true)
	for round := 1; err == nil && round <= coverRounds && found == nil && fault == nil && !s.stopped && inDoubt(s.p, *s.r, checks); round++ {
		s.gen, s.first = afterDraws(s.j.gen(), round), false
		found, fault, err = s.search(nil, true)
	}
	s.r.Digest = hex.EncodeToString(s.digest.Sum(nil))[:16]
	s.r.Refusals = topRefusals(s.refusals)
	return found, fault, err
}

// others looks on, after the rule's first failure, for failures of other
// classes, up to two more, so that a second bug under the same rule is
// not hidden behind the first; then it puts the smallest first, whichever
// the seed found first, so that one engine with several bugs gives the
// same first counterexample.
func (s *searcher) others(first *failing) {
	r := s.r
	known := map[string]bool{first.out.sig(): true}
	for len(r.Others) < 2 && s.ctx.Err() == nil {
		more, _, err := s.search(known, false)
		if err != nil || more == nil {
			break
		}
		known[more.out.sig()] = true
		r.Others = append(r.Others, *s.j.counterexample(more))
	}
	all := append([]Counterexample{*r.Counterexample}, r.Others...)
	slices.SortStableFunc(all, func(a, b Counterexample) int {
		if sa, sb := a.size(), b.size(); sa != sb {
			return sa - sb
		}
		return strings.Compare(string(encode(a.Scenario)), string(encode(b.Scenario)))
	})
	r.Counterexample, r.Others = &all[0], all[1:]
	if len(r.Others) == 0 {
		r.Others = nil
	}
}
