package harness

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// reachSample is how many draws, at fixed seeds whatever the run's seed,
// tell what an engine that lacks features can be asked of a rule: which
// of its coverage labels its generator reaches with the features the
// engine declares. Fixed seeds make the answer the same every night. A
// label that one draw in fifty reaches is found in two hundred draws but
// one time in fifty-five; one in a hundred, seven times in eight.
const reachSample = 200

// A sample is what reachSample draws of a rule's generator reached: for
// each label, the features used by every draw that reached it (nil for a
// label no draw reached), and whether any draw reached the rule at all.
type sample struct {
	uses    map[string][]model.Feature
	reached bool
}

// full caches, by property and by whether stacks are built by casting,
// the sample drawn with every feature, from which a label set aside is
// explained. It is computed once per process; nothing else is kept.
var full sync.Map // fullKey -> *sample

type fullKey struct {
	p         *properties.Property
	byActions bool
}

// reach returns, for an engine that lacks features, the coverage labels
// of p that none of the sample's draws reaches with the features the
// engine declares, each with why, and, when no draw reaches p at all,
// why p can't be judged. An engine that lacks nothing is asked everything.
func reach(p *properties.Property, info EngineInfo) (aside map[string]string, unreached string) {
	e := drawsFor(info)
	if len(e.Lacks) == 0 || p.Classify == nil {
		return nil, ""
	}
	mine := drawSample(p, info, p.Draws.For(e))
	key := fullKey{p, e.ByActions}
	all, ok := full.Load(key)
	if !ok {
		all, _ = full.LoadOrStore(key, drawSample(p, info, p.Draws.For(generators.Engine{ByActions: e.ByActions})))
	}
	every := all.(*sample)
	needs := func(labels ...string) string {
		var lacks []model.Feature
		for _, l := range labels {
			for _, f := range every.uses[l] {
				if slices.Contains(e.Lacks, f) && !slices.Contains(lacks, f) {
					lacks = append(lacks, f)
				}
			}
		}
		if len(lacks) == 0 {
			// The draws that reach it with every feature need nothing
			// the engine lacks: it is rare, not out of reach.
			return "what the engine declares, but is rare among its draws"
		}
		return fmt.Sprint(lacks)
	}
	if !mine.reached {
		var labels []string
		for l := range every.uses {
			labels = append(labels, l)
		}
		return nil, fmt.Sprintf("with the features the engine declares no scenario reaches this rule (none of %d drawn); it needs %s, which the engine does not declare", reachSample, needs(labels...))
	}
	for l := range p.Cover {
		if l == properties.ElseHappens || mine.uses[l] != nil {
			continue
		}
		if aside == nil {
			aside = map[string]string{}
		}
		aside[l] = fmt.Sprintf("no scenario with the features the engine declares reaches it (none of %d drawn): it needs %s", reachSample, needs(l))
	}
	return aside, ""
}

// drawSample draws reachSample scenarios of g at fixed seeds, plays each
// on the reference as info's engine would be given it, and notes what
// each label's draws used.
func drawSample(p *properties.Property, info EngineInfo, g *rapid.Generator[*model.Scenario]) *sample {
	out := &sample{uses: map[string][]model.Feature{}}
	for i := range reachSample {
		s := example(g, i)
		if s == nil {
			continue
		}
		played, err := AsPlayed(info, s)
		if err != nil {
			continue
		}
		want, err := reference.Run(played)
		if err != nil {
			continue
		}
		labels := situations(p, played, want)
		if len(labels) == 0 {
			continue
		}
		out.reached = true
		used := played.Uses()
		for _, l := range labels {
			common := append([]model.Feature{}, used...)
			if have, ok := out.uses[l]; ok {
				common = slices.DeleteFunc(slices.Clone(have), func(f model.Feature) bool { return !slices.Contains(used, f) })
			}
			out.uses[l] = common
		}
	}
	return out
}

// example is g's i-th fixed draw, or nil when it can't draw one.
func example(g *rapid.Generator[*model.Scenario], i int) (s *model.Scenario) {
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	return g.Example(1_000_003 + i)
}

// setAsideText lists the labels set aside, for a why.
func setAsideText(aside map[string]string) string {
	labels := make([]string, 0, len(aside))
	for l := range aside {
		labels = append(labels, fmt.Sprintf("%q", l))
	}
	slices.Sort(labels)
	return strings.Join(labels, ", ")
}
