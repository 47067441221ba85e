package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/catalogue"
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// encode returns a scenario's compact JSON encoding with its lists
// present even when empty, as a run request carries it.
func encode(s *model.Scenario) []byte {
	b, err := json.Marshal(withLists(s))
	if err != nil {
		panic(err)
	}
	return b
}

// hash identifies a scenario by its encoding, for the cache of engine
// answers, run digests and corpus names.
func hash(s *model.Scenario) string { return hashOf(encode(s)) }

func hashOf(encoded []byte) string {
	sum := sha256.Sum256(encoded)
	return hex.EncodeToString(sum[:])
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

// minimize shrinks a failing case by the domain's own steps until none
// applies: drop an action, a permanent, a component or a card in a zone;
// make the choices, statuses and owners the plainest; replace a card by
// the plainest card of its layout that still fails; then renumber every
// label. Each step keeps the scenario valid and failing the same way (the
// same kind of failure, of the same class: never another problem, never a
// scenario the engine or the harness refuses), and each strictly
// simplifies it, so the result does not depend on where rapid's shrinking
// stopped: the same bug gives the same scenario, byte for byte, from any
// seed. Engine answers are cached by scenario hash.
func minimize(j *judge, f *failing) *model.Scenario {
	j.remember(f.out)
	j.shrinking = true
	defer func() { j.shrinking = false }()
	still := func(c *model.Scenario) bool {
		tidy(c)
		if c.Validate() != nil {
			return false
		}
		if _, err := reference.Run(c); err != nil {
			return false
		}
		return j.play(c).same(f.out)
	}
	// A slow or hanging engine makes each try cost a timeout; the pass
	// stops at the shrink time with the smallest scenario so far.
	deadline := time.Now().Add(j.o.ShrinkTime)
	cur := clone(f.s)
	cur.Expect, cur.Description, cur.Rules = nil, "", nil
	cur.Name = "counterexample-" + string(j.p.Rule)
	tidy(cur)
	if !still(clone(cur)) {
		// Tidied, the scenario no longer fails this way (a flaky engine,
		// or a name the engine reads): report it as it was drawn.
		return f.s
	}
	for {
		next := false
		for _, cand := range steps(cur) {
			if time.Now().After(deadline) || j.ctx.Err() != nil {
				return cur
			}
			if still(cand) {
				cur, next = cand, true
				break
			}
		}
		if next {
			continue
		}
		if r := renumber(cur); hash(r) != hash(cur) && still(r) {
			cur = r
			continue
		}
		return cur
	}
}

// steps lists the simplifications of s to try, in a fixed order.
func steps(s *model.Scenario) []*model.Scenario {
	var out []*model.Scenario
	try := func(f func(c *model.Scenario) bool) {
		c := clone(s)
		if f(c) {
			out = append(out, c)
		}
	}
	for i := len(s.Actions) - 1; i >= 0; i-- {
		try(func(c *model.Scenario) bool { c.Actions = slices.Delete(c.Actions, i, i+1); return true })
	}
	for i, p := range s.Start.Battlefield {
		try(func(c *model.Scenario) bool {
			for _, comp := range p.Components {
				forget(c, comp.Object)
			}
			c.Start.Battlefield = slices.Delete(c.Start.Battlefield, i, i+1)
			return true
		})
	}
	for i, p := range s.Start.Battlefield {
		for k := len(p.Components) - 1; k >= 0 && len(p.Components) > 1; k-- {
			try(func(c *model.Scenario) bool {
				q := &c.Start.Battlefield[i]
				forget(c, q.Components[k].Object)
				q.Components = slices.Delete(q.Components, k, k+1)
				q.Status.FaceDown = q.Components[0].FaceDown
				if len(q.Components) == 1 {
					q.Mutated = false
				}
				return true
			})
		}
	}
	for pi, pl := range s.Start.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			ids, _ := pl.Zones.Get(z)
			for k := range ids {
				try(func(c *model.Scenario) bool {
					forget(c, ids[k])
					ref := c.Start.Players[pi].Zones.Ref(z)
					*ref = slices.Delete(*ref, k, k+1)
					return true
				})
			}
		}
	}
	for i := range s.Actions {
		try(func(c *model.Scenario) bool { return plainChoices(&c.Actions[i].Choices) })
	}
	for i, a := range s.Actions {
		if a.Type != model.Move {
			continue
		}
		for _, z := range destinations[:max(slices.Index(destinations, a.To), 0)] {
			try(func(c *model.Scenario) bool {
				c.Actions[i].To = z
				if z != model.Exile {
					c.Actions[i].Source = ""
				}
				return true
			})
		}
	}
	for i := range s.Start.Battlefield {
		try(func(c *model.Scenario) bool { return plainPermanent(&c.Start.Battlefield[i]) })
	}
	try(func(c *model.Scenario) bool {
		changed := c.Start.Active != playerA
		c.Start.Active = playerA
		return changed
	})
	for i := range s.Start.Battlefield {
		try(func(c *model.Scenario) bool { return toPlayerA(c, i) })
	}
	for i, o := range s.Objects {
		for _, name := range plainer(s, o) {
			try(func(c *model.Scenario) bool { return replaceDef(c, i, name) })
		}
	}
	return out
}

// destinations ranks where a permanent can go, plainest first: exile is
// the one no replacement effect of the model changes.
var destinations = []model.Zone{model.Exile, model.Graveyard, model.Hand, model.LibraryTop, model.LibraryBottom}

// playerA is the player canonical counterexamples give everything to.
const playerA = model.PlayerID("A")

func plainChoices(ch *model.Choices) bool {
	changed := false
	if ch.Position == model.Bottom {
		ch.Position, changed = model.Top, true
	}
	if len(ch.Order) > 1 && !slices.IsSorted(ch.Order) {
		ch.Order, changed = slices.Sorted(slices.Values(ch.Order)), true
	}
	if ch.CommandZone != nil && *ch.CommandZone {
		ch.CommandZone, changed = model.Bool(false), true
	}
	if ch.May != nil && !*ch.May {
		ch.May, changed = model.Bool(true), true
	}
	return changed
}

func plainPermanent(p *model.Permanent) bool {
	q := *p
	q.Status.Tapped, q.Status.Flipped = false, false
	q.Counters, q.Effects = nil, nil
	q.ControlledSinceTurnStart = true
	changed := q.Status != p.Status || len(p.Counters) > 0 || len(p.Effects) > 0 || !p.ControlledSinceTurnStart
	*p = q
	return changed
}

// toPlayerA gives permanent i, and every object in it, to player A.
func toPlayerA(c *model.Scenario, i int) bool {
	p := &c.Start.Battlefield[i]
	changed := p.Controller != playerA
	p.Controller = playerA
	for _, comp := range p.Components {
		if o := c.Object(comp.Object); o != nil && o.Owner != playerA {
			o.Owner, changed = playerA, true
		}
	}
	return changed
}

// plainer lists, plainest first, the cards of o's layout that come before
// its own in canonical order.
func plainer(s *model.Scenario, o model.Object) []string {
	d := s.Def(o.Def)
	if d == nil {
		return nil
	}
	var pool []string
	switch {
	case o.Token:
		pool = []string{"Saproling Token", "Beast Token"}
	case d.InstantOrSorcery():
		pool = []string{"Divination", "Lightning Bolt", "Giant Growth"}
	case d.Layout == model.LayoutMeld:
		return nil
	default:
		plain, ok := generators.Plainest(string(d.Layout))
		if !ok {
			return nil
		}
		pool = []string{plain}
		if d.Layout == model.LayoutNormal {
			pool = append(pool, "Runeclaw Bear", "Gemrazer", "Vulpikeet", "Dreamtail Heron", "Grinning Demon")
		}
	}
	i := slices.Index(pool, o.Def)
	if i < 0 {
		return pool
	}
	return pool[:i]
}

func replaceDef(c *model.Scenario, i int, name string) bool {
	if c.Objects[i].Def == name {
		return false
	}
	if c.Def(name) == nil {
		d, err := catalogue.Get(name)
		if err != nil {
			return false
		}
		c.Catalogue = append(c.Catalogue, d)
	}
	c.Objects[i].Def = name
	return true
}

// tidy drops objects nothing refers to and unused catalogue entries, and
// sorts the catalogue.
func tidy(c *model.Scenario) {
	used := map[model.ObjectID]bool{}
	for _, p := range c.Start.Battlefield {
		for _, comp := range p.Components {
			used[comp.Object] = true
		}
	}
	for _, pl := range c.Start.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			ids, _ := pl.Zones.Get(z)
			for _, id := range ids {
				used[id] = true
			}
		}
	}
	for _, so := range c.Start.Stack {
		used[so.Object] = true
	}
	c.Objects = slices.DeleteFunc(c.Objects, func(o model.Object) bool { return !used[o.ID] })
	defs := map[string]bool{}
	for _, o := range c.Objects {
		defs[o.Def] = true
	}
	for _, p := range c.Start.Battlefield {
		for _, e := range p.Effects {
			defs[e.Of] = true
		}
	}
	c.Catalogue = slices.DeleteFunc(c.Catalogue, func(d model.CardDef) bool { return !defs[d.Name] })
	slices.SortFunc(c.Catalogue, func(a, b model.CardDef) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(c.Objects, func(a, b model.Object) int { return strings.Compare(string(a.ID), string(b.ID)) })
	var links []model.Link
	for _, l := range c.Start.Links {
		if c.Start.Permanent(l.Source) == nil {
			continue
		}
		l.Cards = slices.DeleteFunc(l.Cards, func(id model.ObjectID) bool { return !used[id] })
		if len(l.Cards) > 0 {
			links = append(links, l)
		}
	}
	c.Start.Links = links
}

// renumber renames every object, permanent and created token in order of
// first appearance: c1.. for cards, t1.. for tokens, p1.. for permanents.
func renumber(s *model.Scenario) *model.Scenario {
	c := clone(s)
	m := map[model.ObjectID]model.ObjectID{}
	n := map[string]int{}
	name := func(id model.ObjectID, prefix string) {
		if _, ok := m[id]; ok || id == "" {
			return
		}
		n[prefix]++
		m[id] = model.ObjectID(prefix + strconv.Itoa(n[prefix]))
	}
	isToken := map[model.ObjectID]bool{}
	for _, o := range c.Objects {
		isToken[o.ID] = o.Token
	}
	obj := func(id model.ObjectID) {
		if isToken[id] {
			name(id, "t")
		} else {
			name(id, "c")
		}
	}
	for _, p := range c.Start.Battlefield {
		name(p.ID, "p")
		for _, comp := range p.Components {
			obj(comp.Object)
		}
	}
	for _, pl := range c.Start.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			ids, _ := pl.Zones.Get(z)
			for _, id := range ids {
				obj(id)
			}
		}
	}
	for _, so := range c.Start.Stack {
		obj(so.Object)
	}
	for _, a := range c.Actions {
		if a.Token != "" {
			name(a.Token, "t")
		}
	}
	for _, o := range c.Objects {
		obj(o.ID)
	}
	re := func(id model.ObjectID) model.ObjectID {
		if id == "" {
			return id
		}
		base, at, ok := strings.Cut(string(id), "@")
		if r, found := m[model.ObjectID(base)]; found {
			if ok {
				return model.ObjectID(string(r) + "@" + at)
			}
			return r
		}
		return id
	}
	reAll := func(ids []model.ObjectID) {
		for i := range ids {
			ids[i] = re(ids[i])
		}
	}
	for i := range c.Objects {
		c.Objects[i].ID = re(c.Objects[i].ID)
	}
	for i := range c.Start.Battlefield {
		p := &c.Start.Battlefield[i]
		p.ID, p.AttachedTo = re(p.ID), re(p.AttachedTo)
		for k := range p.Components {
			p.Components[k].Object = re(p.Components[k].Object)
		}
	}
	for i := range c.Start.Players {
		z := &c.Start.Players[i].Zones
		for _, ids := range []([]model.ObjectID){z.Library, z.Hand, z.Graveyard, z.Exile, z.Command} {
			reAll(ids)
		}
		slices.Sort(z.Hand)
		slices.Sort(z.Command)
	}
	for i := range c.Start.Stack {
		so := &c.Start.Stack[i]
		so.Object, so.Target = re(so.Object), re(so.Target)
	}
	for i := range c.Start.Links {
		l := &c.Start.Links[i]
		l.Source = re(l.Source)
		reAll(l.Cards)
	}
	for i := range c.Actions {
		a := &c.Actions[i]
		a.Object, a.Target, a.With, a.Card, a.Token, a.Source = re(a.Object), re(a.Target), re(a.With), re(a.Card), re(a.Token), re(a.Source)
		reAll(a.Choices.Order)
		a.Choices.Replacement = re(a.Choices.Replacement)
	}
	slices.SortFunc(c.Objects, func(a, b model.Object) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return c
}

// forget removes a dropped object from the orders the actions script, so
// that dropping it leaves the choices fitting the cards that remain.
func forget(c *model.Scenario, id model.ObjectID) {
	for i := range c.Actions {
		ch := &c.Actions[i].Choices
		if len(ch.Order) > 0 {
			ch.Order = slices.DeleteFunc(slices.Clone(ch.Order), func(o model.ObjectID) bool { return o == id })
			if len(ch.Order) == 0 {
				ch.Order = nil
			}
		}
	}
}

// Simplifications lists the one-step simplifications of s the harness's
// domain pass tries, in its fixed order, each followed by the tidying that
// drops what nothing refers to any more. Some may not be valid scenarios;
// a shrinker keeps those the reference can play. It serves other
// property-testing libraries (package gopterscenario) as their shrinker.
func Simplifications(s *model.Scenario) []*model.Scenario {
	out := steps(s)
	for _, c := range out {
		tidy(c)
	}
	if r := renumber(s); hash(r) != hash(s) {
		out = append(out, r)
	}
	return out
}
