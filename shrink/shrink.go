// Package shrink simplifies a failing scenario to its minimum by the
// domain's own steps: drop an action, a permanent, a component or a card;
// make choices, statuses, owners and cards the plainest; then renumber
// every label. It knows nothing of engines or rules: what "still fails"
// means is a plain predicate its caller gives, so the harness, other
// property-testing libraries (package gopterscenario) and tests use the
// same steps.
package shrink

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/reference"
)

// Minimize shrinks s, which stillFails accepts, one step at a time until
// no step gives a scenario that stillFails still accepts, and returns the
// result. A candidate is put to stillFails only when it is valid and the
// reference engine plays it (Playable), so stillFails sees only real
// scenarios. Each step strictly simplifies, so the result does not depend
// on the order failures were found in: the same predicate gives the same
// scenario, byte for byte, from any failing start of the same family.
// At deadline Minimize stops with the smallest scenario so far. It
// returns nil when s, tidied (Tidy), is no longer accepted; s itself is
// never changed.
func Minimize(s *model.Scenario, stillFails func(*model.Scenario) bool, deadline time.Time) *model.Scenario {
	keep := func(c *model.Scenario) bool {
		Tidy(c)
		return Playable(c) && stillFails(c)
	}
	cur := clone(s)
	Tidy(cur)
	if !keep(clone(cur)) {
		return nil
	}
	// The set of scenarios seen stops a pair of steps that undo each
	// other.
	seen := map[string]bool{key(cur): true}
	for {
		next := false
		for cand := range steps(cur) {
			if time.Now().After(deadline) {
				return cur
			}
			Tidy(cand)
			if h := key(cand); !seen[h] && keep(cand) {
				seen[h] = true
				cur, next = cand, true
				break
			}
		}
		if next {
			continue
		}
		if r := Renumber(cur); !seen[key(r)] && keep(r) {
			seen[key(r)] = true
			cur = r
			continue
		}
		return cur
	}
}

// Steps lists the one-step simplifications of s that Minimize tries, in
// its fixed order, each tidied, and last s renumbered if that changes it.
// Some may not be valid scenarios: a shrinker keeps the Playable ones.
func Steps(s *model.Scenario) []*model.Scenario {
	out := slices.Collect(steps(s))
	for _, c := range out {
		Tidy(c)
	}
	if r := Renumber(s); key(r) != key(s) {
		out = append(out, r)
	}
	return out
}

// Playable reports whether s is a valid scenario the reference engine
// plays to the end.
func Playable(s *model.Scenario) bool {
	if s.Validate() != nil {
		return false
	}
	_, err := reference.Run(s)
	return err == nil
}

// key identifies a scenario by its encoding as a run request carries it.
func key(s *model.Scenario) string {
	b, err := protocol.EncodeScenario(s)
	if err != nil {
		panic(err) // a model.Scenario always encodes
	}
	return string(b)
}

func clone(s *model.Scenario) *model.Scenario {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	var c model.Scenario
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	return &c
}
