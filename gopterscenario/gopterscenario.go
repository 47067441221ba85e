// Package gopterscenario makes mergecheck's scenario generators usable from
// github.com/leanovate/gopter, for teams whose property suites already use
// it. The harness itself runs on pgregory.net/rapid: docs/BENCHMARKS.md compares
// the two on these generators.
package gopterscenario

import (
	"pgregory.net/rapid"

	"github.com/leanovate/gopter"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// Gen returns a gopter generator of the scenarios g draws, such as a
// property's Draws.Gen(). Each draw takes a seed from gopter's random source and
// draws g with it, so a gopter run is reproducible from its seed. The
// values are *model.Scenario; the shrinker is the harness's domain pass
// (harness.Simplifications), keeping only scenarios the reference engine
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
	cands := harness.Simplifications(s)
	i := 0
	return func() (any, bool) {
		for i < len(cands) {
			c := cands[i]
			i++
			if c.Validate() != nil {
				continue
			}
			if _, err := reference.Run(c); err != nil {
				continue
			}
			return c, true
		}
		return nil, false
	}
}
