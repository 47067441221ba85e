package harness_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// newObjectEngine plays like the reference (or a mutant) and writes its
// traces as an engine that makes objects of its own would, naming them in
// new_objects: a melded permanent is one token standing for its two cards
// (its permanent id the token's), and a manifested or cloaked card is a
// stand-in of another name; optionally, a merged permanent takes an id
// of the engine's own.
type newObjectEngine struct {
	harness.Engine
	extraToken bool      // also put a token of its own on the battlefield, which the rules do not
	newMerged  bool      // give each merged permanent an id of its own
	made       *sync.Map // kind -> *atomic.Int64: the traces naming a new object of each kind
}

func (e newObjectEngine) count(t *model.Trace) {
	if e.made == nil {
		return
	}
	for _, n := range t.NewObjects {
		c, _ := e.made.LoadOrStore(n.Kind, &atomic.Int64{})
		c.(*atomic.Int64).Add(1)
	}
}

func (e newObjectEngine) madeOf(kind model.NewObjectKind) int64 {
	c, ok := e.made.Load(kind)
	if !ok {
		return 0
	}
	return c.(*atomic.Int64).Load()
}

func (e newObjectEngine) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := e.Engine.Run(ctx, s)
	if err != nil {
		return t, err
	}
	t = cloneTrace(t)
	standIns := map[model.ObjectID]model.ObjectID{}
	melded := map[model.ObjectID]model.ObjectID{} // permanent id -> token id
	merged := map[model.ObjectID]model.ObjectID{} // permanent id -> the engine's own
	for k := range t.Steps {
		st := &t.Steps[k].State
		for i := range st.Battlefield {
			p := &st.Battlefield[i]
			for _, c := range p.Components {
				if c.FaceDownBy == model.ByManifest || c.FaceDownBy == model.ByCloak {
					if _, ok := standIns[c.Object]; !ok {
						standIns[c.Object] = model.ObjectID(fmt.Sprintf("standin%d", len(standIns)+1))
						t.NewObjects = append(t.NewObjects, model.NewObject{ID: standIns[c.Object], Kind: model.NewStandIn, StandsFor: []model.ObjectID{c.Object}})
					}
				}
			}
			if p.Derived != nil && p.Derived.Merged && e.newMerged {
				if _, ok := merged[p.ID]; !ok {
					merged[p.ID] = model.ObjectID(fmt.Sprintf("mine%d", len(merged)+1))
					t.NewObjects = append(t.NewObjects, model.NewObject{ID: merged[p.ID], Kind: model.NewPermanent})
				}
			}
			if p.Derived != nil && p.Derived.Melded {
				tok, ok := melded[p.ID]
				if !ok {
					tok = model.ObjectID(fmt.Sprintf("meldtoken%d", len(melded)+1))
					melded[p.ID] = tok
					var cards []model.ObjectID
					for _, c := range p.Components {
						cards = append(cards, c.Object)
					}
					t.NewObjects = append(t.NewObjects, model.NewObject{ID: tok, Kind: model.NewToken, StandsFor: cards})
				}
				p.Components = []model.Component{{Object: tok, Face: p.Components[0].Face}}
			}
		}
	}
	rename := func(id model.ObjectID) model.ObjectID {
		if n, ok := standIns[id]; ok {
			return n
		}
		if n, ok := melded[id]; ok {
			return n
		}
		if n, ok := merged[id]; ok {
			return n
		}
		obj, at, ok := strings.Cut(string(id), "@")
		if n, isStandIn := standIns[model.ObjectID(obj)]; ok && isStandIn {
			return n + "@" + model.ObjectID(at)
		}
		return id
	}
	for k := range t.Steps {
		st := &t.Steps[k]
		for i := range st.State.Battlefield {
			p := &st.State.Battlefield[i]
			p.ID = rename(p.ID)
			for j := range p.Components {
				p.Components[j].Object = rename(p.Components[j].Object)
			}
		}
		for i := range st.State.Players {
			z := &st.State.Players[i].Zones
			for _, list := range []*[]model.ObjectID{&z.Library, &z.Hand, &z.Graveyard, &z.Exile, &z.Command} {
				for j := range *list {
					(*list)[j] = rename((*list)[j])
				}
			}
		}
		for i := range st.Events {
			ev := &st.Events[i]
			ev.Object = rename(ev.Object)
			for j := range ev.Moves {
				ev.Moves[j].Object = rename(ev.Moves[j].Object)
			}
			for j := range ev.Revealed {
				ev.Revealed[j] = rename(ev.Revealed[j])
			}
		}
	}
	if e.extraToken && len(t.Steps) > 0 {
		st := &t.Steps[len(t.Steps)-1].State
		extra := st.Battlefield[0].Clone()
		extra.ID, extra.Components = "enginetoken", []model.Component{{Object: "enginetoken"}}
		st.Battlefield = append(st.Battlefield, extra)
		t.NewObjects = append(t.NewObjects, model.NewObject{ID: "enginetoken", Kind: model.NewToken})
	}
	e.count(t)
	return t, nil
}

func cloneTrace(t *model.Trace) *model.Trace {
	c := *t
	c.Start = t.Start.Clone()
	c.Steps = slices.Clone(t.Steps)
	for i := range c.Steps {
		c.Steps[i].State = t.Steps[i].State.Clone()
		c.Steps[i].Events = slices.Clone(t.Steps[i].Events)
		for j := range c.Steps[i].Events {
			ev := &c.Steps[i].Events[j]
			ev.Moves, ev.Revealed = slices.Clone(ev.Moves), slices.Clone(ev.Revealed)
		}
	}
	return &c
}

// meldAndManifestRules are the rules whose cases meld, leave melded, or
// manifest and cloak.
func meldAndManifestRules() []*properties.Property {
	var out []*properties.Property
	for _, p := range properties.All {
		if p.Uncheckable == "" && (slices.Contains(p.Needs, model.FeatureMeld) || p.Rule == "708.2a" || p.Rule == "708.9" || p.Rule == "708.8") {
			out = append(out, p)
		}
	}
	return out
}

// Test400_1_NewObjectsAreReadInTheScenariosTerms: an engine whose meld
// makes one token for the two cards, and whose manifest and cloak make
// stand-ins of their own names, holds every rule the reference holds once
// its trace names those objects; the same engine with a rules bug fails
// the rule it breaks, and one that makes a token the rules do not is
// judged on it, not turned away as a malformed trace.
func Test400_1_NewObjectsAreReadInTheScenariosTerms(t *testing.T) {
	rules := meldAndManifestRules()
	require.NotEmpty(t, rules)
	ref, err := harness.Reference("")
	require.NoError(t, err)
	e := newObjectEngine{Engine: ref, made: &sync.Map{}}
	res, err := harness.Check(context.Background(), e, rules, &harness.Options{Checks: 100, Seed: 11})
	require.NoError(t, err)
	assert.Positive(t, e.madeOf(model.NewToken), "traces with a meld token")
	assert.Positive(t, e.madeOf(model.NewStandIn), "traces with a stand-in")
	for _, r := range res.Results {
		msg := r.Why
		if r.Counterexample != nil {
			msg = r.Counterexample.Problem
		}
		assert.Equal(t, harness.Held, r.Verdict, "%s: %s", r.Rule, msg)
	}

	// An engine whose merge makes a permanent of its own id, carrying
	// over all the rules say stays, keeps the merge rules.
	merges := []*properties.Property{properties.P730_2c, properties.P730_2, properties.P702_140c, properties.P730_3}
	e = newObjectEngine{Engine: ref, newMerged: true, made: &sync.Map{}}
	res, err = harness.Check(context.Background(), e, merges, &harness.Options{Checks: 100, Seed: 11})
	require.NoError(t, err)
	assert.Positive(t, e.madeOf(model.NewPermanent))
	for _, r := range res.Results {
		assert.Equal(t, harness.Held, r.Verdict, "%s: %s", r.Rule, r.Why)
	}

	mutant, err := harness.Reference("meld-front-faces")
	require.NoError(t, err)
	res, err = harness.Check(context.Background(), newObjectEngine{Engine: mutant}, []*properties.Property{properties.P701_42a}, &harness.Options{Checks: 100, Seed: 11})
	require.NoError(t, err)
	require.Equal(t, harness.Failed, res.Results[0].Verdict)
	assert.Empty(t, res.Results[0].Counterexample.Found, res.Results[0].Counterexample.Problem)
}

// Test400_1_AnUnforeseenTokenIsJudged: a token the engine names as its
// own is an object of the game, so a trace with one is judged, and
// departs from the rules where they make none; an undeclared one breaks
// the trace's accounting; a stand-in for no card of the scenario is
// refused by name.
func Test400_1_AnUnforeseenTokenIsJudged(t *testing.T) {
	bd := build.New("tap", "Bears taps.")
	bd.Card("c1", build.A, "Grizzly Bears")
	s := bd.Perm("p1", build.A, build.Up("c1")).Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
	ref, err := harness.Reference("")
	require.NoError(t, err)

	_, problems, err := harness.PlayAndJudge(context.Background(), newObjectEngine{Engine: ref, extraToken: true}, s, properties.All)
	require.NoError(t, err)
	require.NotEmpty(t, problems)
	msg := problems[0].Error()
	assert.Contains(t, msg, "unexplained departure (the battlefield)")
	assert.Contains(t, msg, "enginetoken")
	assert.NotContains(t, msg, "400.1")

	bad := badNewObjects{ref, model.NewObject{ID: "enginetoken", Kind: model.NewToken}, false}
	_, problems, err = harness.PlayAndJudge(context.Background(), bad, s, properties.All)
	require.NoError(t, err)
	require.NotEmpty(t, problems)
	assert.Contains(t, problems[0].Error(), "400.1")
	assert.Contains(t, problems[0].Error(), "no new object the trace names")

	for _, tc := range []struct {
		n    model.NewObject
		want string
	}{
		{model.NewObject{ID: "x1", Kind: model.NewStandIn, StandsFor: []model.ObjectID{"c7"}}, "stands for c7, which is no object of the scenario"},
		{model.NewObject{ID: "c1", Kind: model.NewToken}, "the scenario already names c1"},
		{model.NewObject{ID: "x1", Kind: "ghost"}, `kind "ghost"`},
		{model.NewObject{ID: "x1", Kind: model.NewStandIn}, "exactly one card"},
	} {
		_, problems, err = harness.PlayAndJudge(context.Background(), badNewObjects{ref, tc.n, true}, s, properties.All)
		require.NoError(t, err)
		require.NotEmpty(t, problems, tc.want)
		assert.Contains(t, problems[0].Error(), "400.1: the trace's new objects")
		assert.Contains(t, problems[0].Error(), tc.want)
	}
}

// badNewObjects is the reference adding a token of its own to its last
// state without (declared false) or with naming it, or naming a new
// object wrongly.
type badNewObjects struct {
	harness.Engine
	n        model.NewObject
	declared bool
}

func (e badNewObjects) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := e.Engine.Run(ctx, s)
	if err != nil {
		return t, err
	}
	t = cloneTrace(t)
	if e.declared {
		t.NewObjects = append(t.NewObjects, e.n)
		return t, nil
	}
	st := &t.Steps[len(t.Steps)-1].State
	extra := st.Battlefield[0].Clone()
	extra.ID, extra.Components = e.n.ID, []model.Component{{Object: e.n.ID}}
	st.Battlefield = append(st.Battlefield, extra)
	return t, nil
}
