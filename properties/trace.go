package properties

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// P400_1 judges the trace itself before any rule of merging or status is
// judged on it: one step per action, in order, from the scenario's own
// start; every card of the scenario in exactly one place in every state (a
// zone, the stack, or one component of one permanent); a token in at most
// one, gone for good once gone; every object and new permanent named as
// the trace format says. A trace that breaks this can't be judged on any
// rule, so every rule's case fails on it (CR 400.1: an object is always
// somewhere, in one zone).
var P400_1 = &Property{
	Rule:  "400.1",
	Draws: genTrace,
	Classify: byStep(func(c *Case, i int) []string {
		out := label(len(enters(c.Reference, i)) > 0, "a permanent enters")
		return append(out, label(len(leaves(c.Reference, i)) > 0, "a permanent leaves")...)
	}),
	Cover: map[string]float64{"a permanent enters": 0.05, "a permanent leaves": 0.02},
	Check: ValidTrace,
}

// ValidTrace reports the first way the engine's trace of a case breaks
// the trace format's accounting of objects (see P400_1), naming the step
// and the object at fault. The harness calls it on every case before the
// case's own rule is judged.
func ValidTrace(c *Case) error {
	s, t := c.Scenario, c.Trace
	if err := stepsInOrder(s, t); err != nil {
		return err
	}
	if err := sameStart(s, &t.Start); err != nil {
		return err
	}
	created := createdTokens(s, t)
	// An object listed but in no zone at the start takes no part in the
	// game (SCENARIO.md): it must stay out of it.
	inGame := placed(&s.Start)
	gone := map[model.ObjectID]bool{}    // tokens that ceased to exist
	present := map[model.ObjectID]bool{} // created tokens that have been somewhere
	var prev map[model.ObjectID]bool     // permanent ids of the state before
	for k := 0; k <= len(t.Steps); k++ {
		st := stateAt(t, k)
		where := at(c, k)
		place := make(map[model.ObjectID]string, len(s.Objects))
		put := func(id model.ObjectID, in string) error {
			if o := s.Object(id); o != nil && !inGame[id] {
				return problemOf("object-not-in-game", "%s, %s holds %s, which takes no part in the game: the scenario lists it in no zone", where, in, id)
			} else if o == nil {
				step, ok := created[id]
				if !ok {
					return problemOf("unknown-object", "%s, %s holds %s, which is no object of the scenario, no token an action created and no new object the trace names", where, in, id)
				}
				if k <= step {
					return problemOf("token-before-created", "%s, %s holds token %s, which action %d creates later", where, in, id, step)
				}
			}
			if gone[id] {
				return problemOf("token-back-after-ceasing", "%s, %s holds token %s, which had ceased to exist: a token that has left the battlefield never comes back (CR 111.8)", where, in, id)
			}
			if was, ok := place[id]; ok {
				return problemOf("object-in-two-places", "%s, %s is both in %s and in %s: an object is in one place at a time", where, id, was, in)
			}
			place[id] = in
			return nil
		}
		if err := putZones(st, put); err != nil {
			return err
		}
		perms, err := putPermanents(st, k, where, prev, put)
		if err != nil {
			return err
		}
		if err := cardsSomewhere(s, where, place, inGame, gone); err != nil {
			return err
		}
		for id, step := range created {
			if _, ok := place[id]; ok {
				present[id] = true
			} else if k > step && (step >= 0 || present[id]) {
				gone[id] = true
			}
		}
		prev = perms
	}
	return nil
}

// stepsInOrder fails unless the trace has one step for each action of s,
// in order, since every other check reads step k as action k's.
func stepsInOrder(s *model.Scenario, t *model.Trace) error {
	if t == nil {
		return problemOf("no-trace", "the engine returned no trace")
	}
	if len(t.Steps) != len(s.Actions) {
		return problemOf("step-count", "the trace has %d steps for %d actions: every action has one step, in order", len(t.Steps), len(s.Actions))
	}
	for i, st := range t.Steps {
		if st.Action != i {
			return problemOf("steps-out-of-order", "step %d of the trace is for action %d: every action has one step, in order", i, st.Action)
		}
	}
	return nil
}

// createdTokens returns the tokens the actions of s create, each with the
// first action that creates it, and the new tokens the trace names with
// -1, since a token may be somewhere only once it exists.
func createdTokens(s *model.Scenario, t *model.Trace) map[model.ObjectID]int {
	created := map[model.ObjectID]int{} // token -> the step that creates it
	for i, a := range s.Actions {
		if (a.Type == model.TokenCopy || a.Type == model.CreateToken) && a.Token != "" {
			if _, ok := created[a.Token]; !ok {
				created[a.Token] = i
			}
		}
	}
	for _, n := range t.NewObjects {
		if n.Kind == model.NewToken {
			if _, ok := created[n.ID]; !ok {
				created[n.ID] = -1 // a token of the engine's own, made when it says
			}
		}
	}
	return created
}

// putZones puts, with put, every object state st has in a player's zone
// or on the stack, stopping at the first that can't be there.
func putZones(st *model.State, put func(model.ObjectID, string) error) error {
	for _, pl := range st.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			list, _ := pl.Zones.Get(z)
			for _, id := range list {
				if err := put(id, fmt.Sprintf("%s's %s", pl.ID, z)); err != nil {
					return err
				}
			}
		}
	}
	for _, so := range st.Stack {
		if err := put(so.Object, "the stack"); err != nil {
			return err
		}
	}
	return nil
}

// putPermanents checks the permanents of state st, state k (named where),
// puts their components with put and returns their ids, since one not
// among prev, those of the state before, entered during action k-1 and
// must be named so.
func putPermanents(st *model.State, k int, where string, prev map[model.ObjectID]bool, put func(model.ObjectID, string) error) (map[model.ObjectID]bool, error) {
	perms := map[model.ObjectID]bool{}
	for _, p := range st.Battlefield {
		if perms[p.ID] {
			return nil, problemOf("duplicate-permanent", "%s, two permanents are named %s", where, p.ID)
		}
		perms[p.ID] = true
		if len(p.Components) == 0 {
			return nil, problemOf("permanent-without-components", "%s, permanent %s has no components: a permanent is represented by at least one card or token", where, p.ID)
		}
		if p.Derived == nil {
			return nil, problemOf("permanent-without-derived", "%s, permanent %s has no derived values: every permanent of a trace has them", where, p.ID)
		}
		for _, comp := range p.Components {
			if err := put(comp.Object, "permanent "+string(p.ID)); err != nil {
				return nil, err
			}
		}
		if k > 0 && !prev[p.ID] && !enteredName(p, k-1) {
			return nil, problemOf("new-permanent-misnamed", "%s, new permanent %s is not named OBJECT@%d after one of its components %s: a permanent that enters during action %d is named so", where, p.ID, k-1, listWords(ids(&p)), k-1)
		}
	}
	return perms, nil
}

// cardsSomewhere fails if a card of s in the game is in no place of the
// state (named where), and marks gone each token of s that is in none,
// since a token that leaves the game has ceased to exist.
func cardsSomewhere(s *model.Scenario, where string, place map[model.ObjectID]string, inGame, gone map[model.ObjectID]bool) error {
	for _, o := range s.Objects {
		if _, ok := place[o.ID]; ok || !inGame[o.ID] {
			continue
		}
		if !o.Token {
			return problemOf("card-nowhere", "%s, card %s is nowhere: every card is in exactly one zone (CR 400.1)", where, o.ID)
		}
		gone[o.ID] = true
	}
	return nil
}

// placed returns the objects a state puts somewhere.
func placed(st *model.State) map[model.ObjectID]bool {
	out := map[model.ObjectID]bool{}
	for _, pl := range st.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			list, _ := pl.Zones.Get(z)
			for _, id := range list {
				out[id] = true
			}
		}
	}
	for _, so := range st.Stack {
		out[so.Object] = true
	}
	for _, p := range st.Battlefield {
		for _, comp := range p.Components {
			out[comp.Object] = true
		}
	}
	return out
}

// enteredName reports whether p is named for entering during step i.
func enteredName(p model.Permanent, i int) bool {
	obj, n, ok := strings.Cut(string(p.ID), "@")
	if !ok || n != strconv.Itoa(i) {
		return false
	}
	return slices.ContainsFunc(p.Components, func(c model.Component) bool { return string(c.Object) == obj })
}

// sameStart fails unless the trace starts where the scenario does: the
// same permanents, made of the same components the same way up, with the
// same status and controller, and the same cards in each zone.
func sameStart(s *model.Scenario, st *model.State) error {
	want := &s.Start
	if len(st.Battlefield) != len(want.Battlefield) {
		return problemOf("start-permanent-count", "the trace starts with %d permanents, the scenario with %d: a trace starts from the scenario's state", len(st.Battlefield), len(want.Battlefield))
	}
	for _, w := range want.Battlefield {
		g := st.Permanent(w.ID)
		switch {
		case g == nil:
			return problemOf("start-without-permanent", "the trace starts without permanent %s: a trace starts from the scenario's state", w.ID)
		case pieces(s, g) != pieces(s, &w):
			return problemOf("start-made-otherwise", "the trace starts with %s made of %s, the scenario with %s: a trace starts from the scenario's state", w.ID, componentsWords(s, g), componentsWords(s, &w))
		case g.Status != w.Status || g.Controller != w.Controller:
			return problemOf("start-status-or-controller", "the trace starts with %s %s under %s, the scenario with it %s under %s: a trace starts from the scenario's state", w.ID, statusWords(g.Status), g.Controller, statusWords(w.Status), w.Controller)
		}
	}
	for _, w := range want.Players {
		g := st.Player(w.ID)
		if g == nil {
			return problemOf("start-without-player", "the trace starts without player %s: a trace starts from the scenario's state", w.ID)
		}
		if z, a, b := firstZoneDiff(g, &w); z != "" {
			return problemOf("start-zone-otherwise", "the trace starts with %s's %s holding %s, the scenario with %s: a trace starts from the scenario's state", w.ID, z, listWords(a), listWords(b))
		}
	}
	return nil
}

// firstZoneDiff returns the first zone whose contents differ between two
// views of one player, with both contents; hand and command zone are
// sets, the others ordered. It returns "" when none differs.
func firstZoneDiff(g, w *model.Player) (model.Zone, []model.ObjectID, []model.ObjectID) {
	for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
		a, _ := g.Zones.Get(z)
		b, _ := w.Zones.Get(z)
		if z == model.Hand || z == model.Command {
			a, b = sorted(a), sorted(b)
		}
		if !slices.Equal(a, b) {
			return z, a, b
		}
	}
	return "", nil, nil
}

func sorted(ids []model.ObjectID) []model.ObjectID {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// pieces shows all of how a permanent is made, for comparing: each
// component with its face, whether it is face down and by what. A melded
// permanent's two cards come in no order (CR 712.4a combines them and
// makes neither topmost), so they are shown sorted.
func pieces(s *model.Scenario, p *model.Permanent) string {
	piece := func(b *strings.Builder, comp model.Component) {
		b.WriteString(string(comp.Object))
		b.WriteString(":")
		b.WriteString(string(orFront(comp.Face)))
		if comp.FaceDown {
			b.WriteString(":down:")
			b.WriteString(string(comp.FaceDownBy))
		}
	}
	if isMelded(s, p) {
		out := make([]string, 0, len(p.Components))
		for _, comp := range p.Components {
			var b strings.Builder
			piece(&b, comp)
			out = append(out, b.String())
		}
		slices.Sort(out)
		return "[" + strings.Join(out, " ") + "]"
	}
	var b strings.Builder // written once, not a string a component: the views are built for every permanent of every step
	b.Grow(2 + 16*len(p.Components))
	b.WriteString("[")
	for i, comp := range p.Components {
		if i > 0 {
			b.WriteString(" ")
		}
		piece(&b, comp)
	}
	b.WriteString("]")
	return b.String()
}

// componentsView shows a permanent's components in order, each with the
// face it shows and whether it is face down.
func componentsView(p *model.Permanent) string {
	var out []string
	for _, comp := range p.Components {
		s := fmt.Sprintf("%s:%s", comp.Object, orFront(comp.Face))
		if comp.FaceDown {
			s = fmt.Sprintf("%s:down", comp.Object)
		}
		out = append(out, s)
	}
	return "[" + strings.Join(out, " ") + "]"
}
