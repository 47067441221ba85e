package reference

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/mergecheck/mergecheck/model"
)

// A Lazy is an engine that is wrong the way real engines are, rather
// than by one rules bug: it skips what it does not implement, loses a
// card, reports flags it did not compute, or answers differently when
// asked again. Each is the reference's own play with its trace edited, so
// that it is lazy in exactly one documented way. The suite must never say
// "held" for a rule whose mechanic a lazy engine skips.
type Lazy struct {
	Name string
	// Bug says how the engine is lazy.
	Bug string
	// Fails lists rules the suite must fail it on (a rule whose cases a
	// finding took is blocked by it, neither held nor failed, and is not
	// listed).
	Fails []model.RuleID
	// SkipsActions is set for an engine that does not play the actions:
	// no rule whose cases have actions may hold for it.
	SkipsActions bool
	edit         func(s *model.Scenario, t *model.Trace, draw func(n int) int) (*model.Trace, error)
}

// Lazies lists every lazy engine.
var Lazies = []Lazy{
	{Name: "no-steps", Bug: "returns the start state and no steps at all", SkipsActions: true,
		Fails: []model.RuleID{"400.1"},
		edit: func(s *model.Scenario, t *model.Trace, _ func(int) int) (*model.Trace, error) {
			t.Steps = nil
			return t, nil
		}},
	{Name: "frozen", Bug: "one step per action, but every state is the start state and there are no events", SkipsActions: true,
		Fails: []model.RuleID{"730.2", "730.3", "708.8", "712.21", "730.2f"},
		edit: func(s *model.Scenario, t *model.Trace, _ func(int) int) (*model.Trace, error) {
			for i := range t.Steps {
				t.Steps[i].Events, t.Steps[i].State = nil, t.Start.Clone()
			}
			return t, nil
		}},
	{Name: "no-events", Bug: "the right states, but no events of any kind",
		Fails: []model.RuleID{"708.8", "730.2g", "730.3", "708.9", "702.140d"},
		edit: func(s *model.Scenario, t *model.Trace, _ func(int) int) (*model.Trace, error) {
			for i := range t.Steps {
				t.Steps[i].Events = nil
			}
			return t, nil
		}},
	{Name: "flaky", Bug: "a third of its traces, drawn at random, lose their last steps",
		edit: func(s *model.Scenario, t *model.Trace, draw func(int) int) (*model.Trace, error) {
			if len(t.Steps) > 0 && draw(3) == 0 {
				t.Steps = t.Steps[:draw(len(t.Steps))]
			}
			return t, nil
		}},
	{Name: "drop-lower", Bug: "a merged permanent keeps only its topmost component: the others vanish from the game",
		Fails: []model.RuleID{"400.1", "730.2"},
		edit: func(s *model.Scenario, t *model.Trace, _ func(int) int) (*model.Trace, error) {
			eachPermanent(t, func(p *model.Permanent) {
				if p.Mutated {
					p.Components = p.Components[:1]
				}
			})
			return t, nil
		}},
	{Name: "flags-lie", Bug: "reports every merged permanent as melded, and none as mutated",
		Fails: []model.RuleID{"730.2", "702.140c"},
		edit: func(s *model.Scenario, t *model.Trace, _ func(int) int) (*model.Trace, error) {
			eachPermanent(t, func(p *model.Permanent) {
				p.Mutated = false
				if p.Derived != nil && p.Derived.Merged {
					p.Derived.Merged, p.Derived.Melded = false, true
				}
			})
			return t, nil
		}},
	{Name: "new-id", Bug: "a merged permanent becomes a new permanent, named for the card that merged; a later action naming the old one can't be played",
		Fails: []model.RuleID{"730.2", "730.2c"},
		edit:  newID},
}

// eachPermanent calls f for every permanent of every state of t.
func eachPermanent(t *model.Trace, f func(p *model.Permanent)) {
	for k := range len(t.Steps) + 1 {
		st := &t.Start
		if k > 0 {
			st = &t.Steps[k-1].State
		}
		for i := range st.Battlefield {
			f(&st.Battlefield[i])
		}
	}
}

// FindLazy returns the lazy engine named name, or nil.
func FindLazy(name string) *Lazy {
	for i := range Lazies {
		if Lazies[i].Name == name {
			return &Lazies[i]
		}
	}
	return nil
}

// Run plays s as the lazy engine. draw(n) must return a number in [0, n),
// at random for a flaky engine. An action the engine could not play is an
// *ActionError wrapping ErrInvalid, with the steps before it.
func (l *Lazy) Run(s *model.Scenario, draw func(n int) int) (*model.Trace, error) {
	t, err := Run(s)
	if err != nil {
		return t, err
	}
	return l.edit(s, t, draw)
}

// Edit is Run's answer from t, the rules' trace of s, which it changes:
// for a caller that has the rules' trace already (a copy of its own).
func (l *Lazy) Edit(s *model.Scenario, t *model.Trace, draw func(n int) int) (*model.Trace, error) {
	return l.edit(s, t, draw)
}

// newID renames each permanent something merges with to OBJECT@STEP for
// the merging card, from that step on; an action that names the old id
// later is refused, as an engine that lost track of it would.
func newID(s *model.Scenario, t *model.Trace, _ func(int) int) (*model.Trace, error) {
	renamed := map[model.ObjectID]model.ObjectID{}
	for i := range t.Steps {
		a := s.Actions[i]
		for _, id := range []model.ObjectID{a.Object, a.Target, a.With, a.Source} {
			if to, ok := renamed[id]; ok {
				t.Steps = t.Steps[:i]
				return t, &ActionError{Index: i, Type: a.Type, Err: fmt.Errorf("%w: %s is not on the battlefield (it is %s now)", ErrInvalid, id, to)}
			}
		}
		prev := &t.Start
		if i > 0 {
			prev = &t.Steps[i-1].State
		}
		for _, q := range t.Steps[i].State.Battlefield {
			p := prev.Permanent(originalID(q.ID, renamed))
			if p == nil || len(q.Components) <= len(p.Components) {
				continue
			}
			for _, c := range q.Components {
				if !slices.ContainsFunc(p.Components, func(pc model.Component) bool { return pc.Object == c.Object }) {
					renamed[q.ID] = model.EnteredID(c.Object, i)
				}
			}
		}
		rename(&t.Steps[i], renamed)
	}
	return t, nil
}

func originalID(id model.ObjectID, renamed map[model.ObjectID]model.ObjectID) model.ObjectID {
	for from, to := range renamed {
		if to == id {
			return from
		}
	}
	return id
}

func rename(st *model.Step, renamed map[model.ObjectID]model.ObjectID) {
	for i := range st.State.Battlefield {
		p := &st.State.Battlefield[i]
		if to, ok := renamed[p.ID]; ok {
			p.ID = to
		}
		if to, ok := renamed[p.AttachedTo]; ok {
			p.AttachedTo = to
		}
	}
	for i := range st.Events {
		if to, ok := renamed[st.Events[i].Object]; ok {
			st.Events[i].Object = to
		}
	}
}

// LazyNames lists the lazy engines' names, for messages.
func LazyNames() string {
	var out []string
	for _, l := range Lazies {
		out = append(out, l.Name)
	}
	return strings.Join(out, ", ")
}

// Flakes hands a flaky engine its random draws. Each play of a scenario
// draws from a source seeded by the seed, the scenario and how many times
// that scenario was played before, so that a run with a given seed flakes
// the same way however parallel workers interleave, and a scenario played
// again may still answer otherwise.
type Flakes struct {
	seed  uint64
	mu    sync.Mutex
	plays map[[sha256.Size]byte]uint64
}

// NewFlakes returns the draws of a flaky engine seeded with seed.
func NewFlakes(seed uint64) *Flakes {
	return &Flakes{seed: seed, plays: map[[sha256.Size]byte]uint64{}}
}

// For returns the draws for one play of s: draw(n) is in [0, n).
func (f *Flakes) For(s *model.Scenario) func(n int) int {
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	f.mu.Lock()
	n := f.plays[sum]
	f.plays[sum] = n + 1
	f.mu.Unlock()
	rng := rand.New(rand.NewPCG(f.seed^binary.LittleEndian.Uint64(sum[:8]), n))
	return func(n int) int { return rng.IntN(n) }
}
