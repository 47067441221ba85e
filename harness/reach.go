package harness

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/internal/words"
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
// label no draw reached), and whether any draw reached the rule at all;
// and how many draws the reference played, and how many of them had each
// coverage label, from which a label's rate among the engine's draws is
// measured.
type sample struct {
	// uses are, by label, the features every draw that reaches it uses;
	// any, the features some draw that reaches it uses.
	uses, any map[string][]model.Feature
	reached   bool
	played    int
	counts    map[string]int
}

// full caches, by property and by whether stacks are built by casting,
// the sample drawn with every feature, from which a label set aside is
// explained. It is computed once per process.
var full sync.Map // fullKey -> *sample

type fullKey struct {
	p         *properties.Property
	byActions bool
}

// samples caches, by property and by what the engine lacks, the sample
// drawn for an engine that lacks features: the same at every seed, so
// runs of one engine at several seeds draw it once.
var samples sync.Map // sampleKey -> *sample

type sampleKey struct {
	p         *properties.Property
	lacks     string
	byActions bool
}

// reach returns, for an engine that lacks features or is given stacks
// built by casting, what is asked of it for p: the coverage labels of p
// that none of the sample's draws reaches with the features the engine
// declares (or that its draws reach too rarely to ask a share of), each
// with why; the shares asked of the labels its draws reach less often
// than the property asks (see declaredShare), for a run of checks cases a
// round; and, when no draw reaches p at all, why p can't be judged. An
// engine that lacks nothing is asked everything, at the property's
// shares.
func reach(p *properties.Property, info EngineInfo, checks int) (aside map[string]string, shares map[string]float64, unreached string) {
	e := drawsFor(info)
	if len(e.Lacks) == 0 && !e.ByActions || p.Classify == nil {
		return nil, nil, ""
	}
	mineKey := sampleKey{p, fmt.Sprint(e.Lacks), e.ByActions}
	cached, ok := samples.Load(mineKey)
	if !ok {
		cached, _ = samples.LoadOrStore(mineKey, drawSample(p, info, p.Draws.For(e)))
	}
	mine := cached.(*sample)
	key := fullKey{p, e.ByActions}
	all, ok := full.Load(key)
	if !ok {
		all, _ = full.LoadOrStore(key, drawSample(p, info, p.Draws.For(generators.Engine{ByActions: e.ByActions})))
	}
	every := all.(*sample)
	// needs says what reaching labels takes that the engine lacks, in
	// words: the features the draws that reach them with every feature
	// use, or, where they use nothing it lacks, that they are rare.
	needs := func(labels ...string) string {
		lacking := func(by map[string][]model.Feature) []string {
			var lacks []string
			for _, l := range labels {
				for _, f := range by[l] {
					if slices.Contains(e.Lacks, f) && !slices.Contains(lacks, string(f)) {
						lacks = append(lacks, string(f))
					}
				}
			}
			slices.Sort(lacks)
			return lacks
		}
		if lacks := lacking(every.uses); len(lacks) > 0 {
			return "it needs " + words.List(lacks) + ", which the engine does not declare"
		}
		if lacks := lacking(every.any); len(lacks) > 0 {
			// No one feature is common to the draws that reach it.
			return "each draw that reaches it uses one or more of " + words.List(lacks) + ", which the engine does not declare"
		}
		return "the draws that reach it use nothing the engine lacks, but they are rare"
	}
	if !mine.reached {
		var labels []string
		for l := range every.uses {
			labels = append(labels, l)
		}
		return nil, nil, fmt.Sprintf("with the features the engine declares no scenario reaches this rule (none of %d drawn): %s", reachSample, needs(labels...))
	}
	setAside := func(l, why string) {
		if aside == nil {
			aside = map[string]string{}
		}
		aside[l] = why
	}
	for l, want := range p.Cover {
		if l != properties.ElseHappens && mine.uses[l] == nil {
			setAside(l, fmt.Sprintf("no scenario with the features the engine declares reaches it (none of %d drawn): %s", reachSample, needs(l)))
			continue
		}
		share := declaredShare(mine.counts[l], mine.played, (coverRounds+1)*checks)
		switch {
		case share >= want:
		case share == 0:
			setAside(l, fmt.Sprintf("the scenarios the engine's features allow reach it too rarely to ask a share of (%d of %d drawn)", mine.counts[l], mine.played))
		default:
			if shares == nil {
				shares = map[string]float64{}
			}
			shares[l] = share
		}
	}
	return aside, shares, ""
}

// declaredShare is the share of cases a label can be asked of an engine
// whose draws had it in seen of n sample draws, for a rule that draws up
// to cases cases while short of it: the largest share that a correct
// engine misses with a chance below one in a million, the label's rate
// taken two standard errors below its estimate. It is the margin
// properties' TestCover_EveryShareHoldsAtAnySeed holds every property's
// own shares to, measured for what the engine declares rather than for
// every feature; 0 when no share is safe to ask.
func declaredShare(seen, n, cases int) float64 {
	if n == 0 || cases == 0 {
		return 0
	}
	rate := float64(seen) / float64(n)
	low := max(0, rate-2*math.Sqrt(rate*(1-rate)/float64(n)))
	if low <= 0 {
		return 0
	}
	if low >= 1 {
		return 1
	}
	// The largest k with P(X < k) <= 1e-6 for X ~ Binomial(cases, low),
	// summing the probabilities of 0, 1, ... successes in turn.
	lgN, _ := math.Lgamma(float64(cases + 1))
	k, below := 0, 0.0
	for i := 0; i < cases; i++ {
		li, _ := math.Lgamma(float64(i + 1))
		lr, _ := math.Lgamma(float64(cases - i + 1))
		below += math.Exp(lgN - li - lr + float64(i)*math.Log(low) + float64(cases-i)*math.Log1p(-low))
		if below > 1e-6 {
			break
		}
		k = i + 1
	}
	return float64(k) / float64(cases)
}

// drawSample draws reachSample scenarios of g at fixed seeds, plays each
// on the reference as info's engine would be given it, and notes what
// each label's draws used.
func drawSample(p *properties.Property, info EngineInfo, g *rapid.Generator[*model.Scenario]) *sample {
	out := &sample{uses: map[string][]model.Feature{}, any: map[string][]model.Feature{}, counts: map[string]int{}}
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
		out.played++
		for _, l := range labelsOf(p, played, want) {
			out.counts[l]++
		}
		labels := situations(p, played, want)
		if len(labels) == 0 {
			continue
		}
		out.reached = true
		used := reference.UsesWith(played, want)
		for _, l := range labels {
			common := append([]model.Feature{}, used...)
			if have, ok := out.uses[l]; ok {
				common = slices.DeleteFunc(slices.Clone(have), func(f model.Feature) bool { return !slices.Contains(used, f) })
			}
			out.uses[l] = common
			for _, f := range used {
				if !slices.Contains(out.any[l], f) {
					out.any[l] = append(out.any[l], f)
				}
			}
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

// refusedText lists the labels set aside for the engine's refusals,
// each with how many scenarios it refused, for a why.
func refusedText(aside map[string]string, counts map[string]int) string {
	labels := make([]string, 0, len(aside))
	for l := range aside {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	for i, l := range labels {
		labels[i] = fmt.Sprintf("%q (%d refused)", l, counts[l])
	}
	return strings.Join(labels, ", ")
}

// sharesText lists the shares measured for an engine's features, for a
// why.
func sharesText(shares map[string]float64) string {
	labels := make([]string, 0, len(shares))
	for l, v := range shares {
		labels = append(labels, fmt.Sprintf("%q %.1f%%", l, 100*v))
	}
	slices.Sort(labels)
	return strings.Join(labels, ", ")
}
