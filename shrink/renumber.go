package shrink

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// Tidy drops objects nothing refers to and unused catalogue entries, and
// sorts the catalogue.
func Tidy(c *model.Scenario) {
	if len(c.Actions) == 0 {
		c.Actions = nil // no actions, encoded one way
	}
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
	for _, a := range c.Actions {
		defs[a.Def] = true // a token an action creates
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

// Renumber renames every object, permanent and created token in order of
// first appearance (c1.. for cards, t1.. for tokens, p1.. for
// permanents), and numbers timestamps 1, 2, 3, ... in their order.
func Renumber(s *model.Scenario) *model.Scenario {
	c := clone(s)
	re := renaming(c)
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
		slices.SortFunc(z.Hand, naturally)
		slices.SortFunc(z.Command, naturally)
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
	slices.SortFunc(c.Objects, func(a, b model.Object) int { return naturally(a.ID, b.ID) })
	restamp(c)
	return c
}

// renaming gives every id of c its new name in order of first
// appearance; an id with a face after "@" keeps it, and an id c does not
// name is left as it is.
func renaming(c *model.Scenario) func(model.ObjectID) model.ObjectID {
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
	return func(id model.ObjectID) model.ObjectID {
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
}

// restamp numbers c's timestamps 1, 2, 3, ...: only their order matters.
func restamp(c *model.Scenario) {
	var stamps []int
	for _, p := range c.Start.Battlefield {
		stamps = append(stamps, p.Timestamp)
		for _, e := range p.Effects {
			stamps = append(stamps, e.Timestamp)
		}
	}
	slices.Sort(stamps)
	stamps = slices.Compact(stamps)
	rank := func(ts int) int { i, _ := slices.BinarySearch(stamps, ts); return i + 1 }
	for i := range c.Start.Battlefield {
		p := &c.Start.Battlefield[i]
		p.Timestamp = rank(p.Timestamp)
		for k := range p.Effects {
			p.Effects[k].Timestamp = rank(p.Effects[k].Timestamp)
		}
	}
}

// naturally orders renumbered ids by prefix, then by number, so that c9
// comes before c10 and renumbering a renumbered scenario changes nothing.
func naturally(a, b model.ObjectID) int {
	split := func(id model.ObjectID) (string, int, string) {
		s := string(id)
		i := strings.IndexAny(s, "0123456789")
		if i < 0 {
			return s, 0, ""
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(s[i:j])
		return s[:i], n, s[j:]
	}
	pa, na, ra := split(a)
	pb, nb, rb := split(b)
	if c := strings.Compare(pa, pb); c != 0 {
		return c
	}
	if c := na - nb; c != 0 {
		return c
	}
	if c := strings.Compare(ra, rb); c != 0 {
		return c
	}
	return strings.Compare(string(a), string(b))
}

// forget removes a dropped object from the orders the actions script, and
// a dropped permanent from the replacement choices, so that dropping it
// leaves the choices fitting what remains.
func forget(c *model.Scenario, id model.ObjectID) {
	for i := range c.Actions {
		ch := &c.Actions[i].Choices
		if ch.Replacement == id {
			ch.Replacement = ""
		}
		if len(ch.Order) > 0 {
			ch.Order = slices.DeleteFunc(slices.Clone(ch.Order), func(o model.ObjectID) bool { return o == id })
			if len(ch.Order) == 0 {
				ch.Order = nil
			}
		}
	}
}
