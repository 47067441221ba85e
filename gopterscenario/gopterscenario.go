// Package gopterscenario makes mergecheck's scenario generators usable from
// github.com/leanovate/gopter, for teams whose property suites already use
// it. The harness itself runs on pgregory.net/rapid: docs/BENCHMARKS.md compares
// the two on these generators.
package gopterscenario

import (
	"pgregory.net/rapid"

	"github.com/leanovate/gopter"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/shrink"
)

// Gen returns a gopter generator of the scenarios g draws, such as a
// property's Draws.Gen(). Each draw takes a seed from gopter's random source and
// draws g with it, so a gopter run is reproducible from its seed. The
// values are *model.Scenario; the shrinker is package shrink's domain
// steps, the harness's own, keeping only scenarios the reference engine
// can play.
func Gen(g *rapid.Generator[*model.Scenario]) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		seed := int(p.NextUint64() >> 1)
		s := g.Example(seed)
		r := gopter.NewGenResult(s, Shrinker)
		return r
	}
}

// Shrinker offers the one-step simplifications of a scenario that remain
// playable, plainest first.
func Shrinker(v any) gopter.Shrink {
	s, ok := v.(*model.Scenario)
	if !ok {
		return gopter.NoShrink
	}
	cands := shrink.Steps(s)
	i := 0
	return func() (any, bool) {
		for i < len(cands) {
			c := cands[i]
			i++
			if shrink.Playable(c) {
				return c, true
			}
		}
		return nil, false
	}
}
