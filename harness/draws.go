package harness

import (
	"fmt"
	"sync"
	"time"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Draws keeps what runs at one seed have in common when their engines
// draw alike, for a caller that checks several engines in turn
// (selftest, a kill matrix): each rule's first draws, with their hashes,
// the rules' traces of them and what those traces decide (the rules a
// draw reaches, its rule's labels, and which judgings of the trace held,
// for an engine whose trace is the same). Engines that declare the same
// features and setup draw the same scenarios, so with a Draws shared
// through Options, the runs after the first take those draws rather than
// draw them and play them on the reference again; their results are the
// same as without it. It holds about a megabyte a rule, seed and kind of
// engine, until it is dropped. A Draws is safe for concurrent
// use. The engines must not change the scenarios they are given.
type Draws struct {
	mu   sync.Mutex
	sets map[drawsKey]*drawSet
	made int // draws made, for tests
}

// NewDraws returns an empty Draws.
func NewDraws() *Draws { return &Draws{sets: map[drawsKey]*drawSet{}} }

// drawsKey names a property's draws at a seed for a kind of engine: the
// generator's options (drawsFor) and whether its stacks are built by
// casting (AsPlayed).
type drawsKey struct {
	p     *properties.Property
	seed  uint64
	shape string
}

// A drawSet is one rule's draws, by index, as far as they were made.
type drawSet struct {
	mu      sync.Mutex
	entries []*drawn
}

// drawn is a rule's i-th draw at a seed, which rapid's search draws as
// its i-th case, and what the run needs of it before any engine plays it.
type drawn struct {
	s   *model.Scenario // as drawn; nil when the generator can't draw it
	key string          // the hash of its encoding
	// played is s as the engine is given it (AsPlayed), or nil with
	// refused set; want is the rules' trace of played, or nil with
	// wantErr set.
	played  *model.Scenario
	refused error
	want    *model.Trace
	wantErr error
	// reached is what the rules' play of played came to of the
	// mutants' code: a mutant it does not name plays played as the
	// rules do (see judge.playWith).
	reached *reference.Reached
	// shed is set while want is let go, to be played again when the
	// draw is taken (judge.draft).
	shed bool

	// What the rules' trace alone decides of the draw, kept once worked
	// out for the runs that share it: which properties' situations it
	// reaches, by their index in properties.All, and its own rule's
	// labels.
	mu       sync.Mutex
	reaching []uint64 // two bits a property: worked out, reached
	cover    []string // its rule's coverage labels (labelsOf), once worked out
	covered  bool
	own      []string // its rule's situations, once worked out
	owned    bool
	// held are the judgings that held of the rules' own trace, as an
	// engine that answers with it is judged (see heldBefore).
	held map[heldKey]bool
}

// A heldKey names a judging of a draw: by its own rule's judge
// (judgeTraces) or by another rule's check (judgeOthers), the property,
// and how the judge judges (judge.judging).
type heldKey struct {
	others  bool
	p       *properties.Property
	judging string
}

// heldBefore reports whether a judge like j found the rules' own trace of
// the draw to hold p, judging its own rule (others unset) or another's:
// an engine's trace the same as the rules' (properties.SameTrace) then
// holds too, since the checks read nothing else, and selftest's mutants
// answer most draws with the rules' own trace.
func (d *drawn) heldBefore(j *judge, others bool, p *properties.Property) bool {
	k := heldKey{others, p, j.judging()}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.held[k]
}

// noteHeld records that a judge like j found the rules' own trace of the
// draw to hold p (see heldBefore).
func (d *drawn) noteHeld(j *judge, others bool, p *properties.Property) {
	k := heldKey{others, p, j.judging()}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.held == nil {
		d.held = map[heldKey]bool{}
	}
	d.held[k] = true
}

// situationsFor returns p's situations for the draw (situations), working
// them out once: p is the rule the draw was drawn for.
func (d *drawn) situationsFor(p *properties.Property) []string {
	return d.once(&d.own, &d.owned, func() []string { return situations(p, d.played, d.want) })
}

// labelsFor returns p's labels for the draw (labelsOf), working them out
// once: p is the rule the draw was drawn for.
func (d *drawn) labelsFor(p *properties.Property) []string {
	return d.once(&d.cover, &d.covered, func() []string { return labelsOf(p, d.played, d.want) })
}

// allIndex is the place of each property in properties.All.
var allIndex = sync.OnceValue(func() map[*properties.Property]int {
	at := make(map[*properties.Property]int, len(properties.All))
	for i, p := range properties.All {
		at[p] = i
	}
	return at
})

// once returns *v, set by f the first time, when done is unset.
func (d *drawn) once(v *[]string, done *bool, f func() []string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !*done {
		*v, *done = f(), true
	}
	return *v
}

// reaches reports whether the draw reaches q's situation (situations),
// working it out once for a property of properties.All.
func (d *drawn) reaches(q *properties.Property) bool {
	i, ok := allIndex()[q]
	if !ok {
		return len(situations(q, d.played, d.want)) > 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.reaching == nil {
		d.reaching = make([]uint64, (2*len(properties.All)+63)/64)
	}
	known, reached := 2*i, 2*i+1
	if d.reaching[known/64]&(1<<(known%64)) == 0 {
		d.reaching[known/64] |= 1 << (known % 64)
		if len(situations(q, d.played, d.want)) > 0 {
			d.reaching[reached/64] |= 1 << (reached % 64)
		}
	}
	return d.reaching[reached/64]&(1<<(reached%64)) != 0
}

// draft returns the rule's i-th draw at the run's seed: from the run's
// Draws, made there if it is not yet, or made afresh without one.
func (j *judge) draft(i int) *drawn {
	seed := j.o.Seed + uint64(i)*uint64(i+1)/2 // rapid's seed for its i-th case
	if j.o.Draws == nil {
		if i < len(j.ahead) {
			d := j.ahead[i]
			if d.shed {
				// The rules' trace was let go while every rule's draws
				// were held (see shed): play it again, once. That second
				// play is not one of the run's parts (Timing) but what
				// holding less costs.
				d.want, d.reached, d.wantErr = reference.RunValidReached(d.played)
				d.shed = false
			}
			return d
		}
		return j.makeDrawn(seed)
	}
	if j.shared == nil {
		j.shared = j.o.Draws.set(drawsKey{p: j.p, seed: j.o.Seed, shape: fmt.Sprintf("%+v %t", drawsFor(j.info), j.info.NoDirectSetup)})
	}
	set := j.shared
	set.mu.Lock()
	defer set.mu.Unlock()
	for len(set.entries) <= i {
		k := len(set.entries)
		set.entries = append(set.entries, j.makeDrawn(j.o.Seed+uint64(k)*uint64(k+1)/2))
		j.o.Draws.mu.Lock()
		j.o.Draws.made++
		j.o.Draws.mu.Unlock()
	}
	return set.entries[i]
}

func (d *Draws) set(k drawsKey) *drawSet {
	d.mu.Lock()
	defer d.mu.Unlock()
	set := d.sets[k]
	if set == nil {
		set = &drawSet{}
		d.sets[k] = set
	}
	return set
}

// shedTraces lets go of the rules' traces of the draws ahead that explore
// will not play, keeping their scenarios and what their traces decided of
// their own rule: the drafts of every rule are held at once while the
// rules explore, and the traces are most of their size. The search plays
// a shed draw on the reference again when it takes it.
func (j *judge) shedTraces() {
	keep := map[*drawn]bool{}
	for _, d := range j.drafts {
		keep[d.drawn] = true
	}
	for _, d := range j.ahead {
		if d.s != nil && d.refused == nil && !keep[d] {
			d.want, d.reached, d.wantErr, d.shed = nil, nil, nil, true
		}
	}
}

// makeDrawn draws the rule's scenario with a rapid seed, and plays it on
// the reference as the engine is to be given it.
func (j *judge) makeDrawn(seed uint64) *drawn {
	j.made++
	t0 := time.Now()
	d := &drawn{s: j.draw(seed)}
	if d.s != nil {
		d.key = hash(d.s)
	}
	t1 := time.Now()
	j.time.Generate += t1.Sub(t0)
	if d.s == nil {
		return d
	}
	if d.played, d.refused = AsPlayed(j.info, d.s); d.refused == nil {
		// A draw is valid by construction (the properties' tests check
		// every generator's): it is not validated again here.
		d.want, d.reached, d.wantErr = reference.RunValidReached(d.played)
	}
	j.time.Reference += time.Since(t1)
	return d
}
