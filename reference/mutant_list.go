package reference

import "github.com/mergecheck/mergecheck/model"

// Mutants lists every mutant, each named for its bug. Components and
// Actions give the size of the canonical counterexample the suite shrinks
// it to: components on the battlefield at the start (replacement-effect
// permanents included), and actions: the smallest that shows the bug.
var Mutants = []Mutant{
	{Name: "merge-new-object", Bug: "a merged permanent becomes a new object", Breaks: []model.RuleID{"730.2"}, Components: 1, Actions: 1},
	{Name: "characteristics-from-bottom", Bug: "a merged permanent takes the bottom component's characteristics", Breaks: []model.RuleID{"730.2a"}, Components: 2, Actions: 0},
	{Name: "merge-triggers-enters", Bug: "merging triggers \"whenever a creature enters\"", Breaks: []model.RuleID{"730.2b"}, Components: 1, Actions: 1},
	{Name: "merge-resets-object", Bug: "merging drops counters and effects and restarts summoning sickness", Breaks: []model.RuleID{"730.2c"}, Components: 1, Actions: 1},
	{Name: "token-if-any-token", Bug: "a merged permanent with any token component is a token", Breaks: []model.RuleID{"730.2d"}, Components: 2, Actions: 0},
	{Name: "face-down-if-any-face-down", Bug: "a merged permanent with any face-down component is face down", Breaks: []model.RuleID{"730.2e"}, Components: 1, Actions: 2},
	{Name: "merge-turns-face-up", Bug: "merging face up onto a face-down permanent counts as turning it face up", Breaks: []model.RuleID{"730.2e"}, Components: 1, Actions: 2},
	{Name: "turn-top-only", Bug: "turning a merged permanent face down or up turns only its topmost component", Breaks: []model.RuleID{"730.2f"}, Components: 2, Actions: 1},
	{Name: "instant-turns-face-up", Bug: "a face-down merged permanent with an instant in it turns face up", Breaks: []model.RuleID{"730.2g"}, Components: 2, Actions: 1},
	{Name: "flip-top-only", Bug: "a flipped merged permanent uses the alternative abilities only of its topmost flip card", Breaks: []model.RuleID{"730.2h"}, Components: 2, Actions: 0},
	{Name: "merged-double-faced", Bug: "a merged permanent with a double-faced component reports itself double-faced", Breaks: []model.RuleID{"730.2i"}, Components: 2, Actions: 0},
	{Name: "transform-top-only", Bug: "transforming a merged permanent turns only its first double-faced component", Breaks: []model.RuleID{"730.2i"}, Components: 2, Actions: 1},
	{Name: "dfc-merged-turns-face-down", Bug: "a face-up merged permanent with a double-faced component turns face down", Breaks: []model.RuleID{"730.2j"}, Components: 2, Actions: 1},
	{Name: "dies-per-card", Bug: "\"whenever a creature dies\" triggers once per card of a merged permanent", Breaks: []model.RuleID{"730.3", "712.21"}, Components: 2, Actions: 1},
	{Name: "count-one-card", Bug: "a merged or melded permanent leaving counts as one card", Breaks: []model.RuleID{"712.21e"}, Components: 2, Actions: 1},
	{Name: "ignore-order", Bug: "a merged permanent's cards go into a graveyard or library in component order, not the owner's", Breaks: []model.RuleID{"730.3a"}, Components: 2, Actions: 1},
	{Name: "exile-in-component-order", Bug: "exiled cards get timestamps in component order, not the exiling player's", Breaks: []model.RuleID{"730.3b"}, Components: 2, Actions: 1},
	{Name: "find-first-card-only", Bug: "an effect finds only the first card a merged permanent became", Breaks: []model.RuleID{"730.3c"}, Components: 2, Actions: 2},
	{Name: "replacement-top-only", Bug: "a replacement effect moves only the topmost component", Breaks: []model.RuleID{"730.3d"}, Components: 3, Actions: 1},
	{Name: "card-replacement-skips-tokens", Bug: "a card-only replacement effect never moves token components", Breaks: []model.RuleID{"730.3e"}, Components: 3, Actions: 1},
	{Name: "illegal-target-fizzles", Bug: "a mutating spell whose target is illegal goes to the graveyard", Breaks: []model.RuleID{"702.140b"}, Components: 1, Actions: 3},
	{Name: "mutate-always-top", Bug: "a mutating spell always goes on top", Breaks: []model.RuleID{"702.140c"}, Components: 1, Actions: 2},
	{Name: "mutate-trigger-top-only", Bug: "only one \"whenever this creature mutates\" ability triggers", Breaks: []model.RuleID{"702.140d"}, Components: 1, Actions: 2},
	{Name: "abilities-top-only", Bug: "a mutated permanent has only its topmost component's abilities", Breaks: []model.RuleID{"702.140e"}, Components: 2, Actions: 0},
	{Name: "meld-front-faces", Bug: "a melded permanent enters with its front faces up", Breaks: []model.RuleID{"701.42a"}, Components: 2, Actions: 1},
	{Name: "copy-copies-status", Bug: "a token copy enters with the original's tapped and flipped status", Breaks: []model.RuleID{"110.5a", "110.5b"}, Components: 1, Actions: 1},
	{Name: "merge-untaps", Bug: "a merged permanent loses its tapped status", Breaks: []model.RuleID{"110.5c", "110.5"}, Components: 1, Actions: 1},
	{Name: "phasing-kills-tokens", Bug: "phasing out a merged permanent removes its token components", Breaks: []model.RuleID{"702.26d"}, Components: 2, Actions: 1},
	{Name: "dfc-turns-face-down", Bug: "a double-faced permanent can be turned face down", Breaks: []model.RuleID{"712.16"}, Components: 1, Actions: 1},
	{Name: "flip-toggles", Bug: "flipping a flipped permanent unflips it", Breaks: []model.RuleID{"710.4"}, Components: 1, Actions: 2},
	{Name: "tokens-linger", Bug: "token components stay in the zone they moved to", Breaks: []model.RuleID{"704.5d"}, Components: 1, Actions: 1},
}
