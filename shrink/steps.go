package shrink

import (
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/catalogue"
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// steps yields the simplifications of s to try, in a fixed order: the
// smallest first (fewer actions, permanents, components and cards), then
// plainer actions, permanents, owners and cards. Each is made from its
// own clone of s when the caller comes to it, so a caller that stops at
// the first it keeps clones no more.
func steps(s *model.Scenario) iter.Seq[*model.Scenario] {
	return func(yield func(*model.Scenario) bool) {
		stopped := false
		try := func(f func(c *model.Scenario) bool) {
			if stopped {
				return
			}
			if c := clone(s); f(c) && !yield(c) {
				stopped = true
			}
		}
		for _, kind := range []func(*model.Scenario, tryer){drops, plainerActions, plainerPermanents, plainerOwners, plainerCards} {
			kind(s, try)
		}
	}
}

// A tryer offers one simplification of a clone of the scenario: the
// function changes the clone, and reports whether it changed anything.
type tryer func(func(c *model.Scenario) bool)

// drops offers s without one action, permanent, component or card.
func drops(s *model.Scenario, try tryer) {
	for i := len(s.Actions) - 1; i >= 0; i-- {
		try(func(c *model.Scenario) bool {
			c.Actions = slices.Delete(c.Actions, i, i+1)
			shiftEntered(c, i)
			return true
		})
	}
	for i, p := range s.Start.Battlefield {
		try(func(c *model.Scenario) bool {
			for _, comp := range p.Components {
				forget(c, comp.Object)
			}
			forget(c, p.ID)
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
}

// plainerActions offers s with an action folded into the starting state,
// or made the plainest of its kind: a tap, a bare merge, scripted choices
// the plainest, a destination nearer exile.
func plainerActions(s *model.Scenario, try tryer) {
	for i := range s.Actions {
		try(func(c *model.Scenario) bool { return foldIntoStart(c, i) })
	}
	for i, a := range s.Actions {
		if on := tapTarget(a); on != "" && a.Type != model.Tap {
			// The plainest action: tapping what the action was about.
			try(func(c *model.Scenario) bool { c.Actions[i] = model.Action{Type: model.Tap, Object: on}; return true })
		}
	}
	for i := range s.Actions {
		try(func(c *model.Scenario) bool { return foldMutation(c, i) })
		try(func(c *model.Scenario) bool { return mutateAsMerge(c, i) })
		try(func(c *model.Scenario) bool { return castAlone(c, i) })
	}
	for i, a := range s.Actions {
		if a.Type == model.Move && a.Source != "" {
			// Exiled by no one's linked ability: plainer than by one's.
			try(func(c *model.Scenario) bool { c.Actions[i].Source = ""; return true })
		}
	}
	for i := range s.Actions {
		try(func(c *model.Scenario) bool { return plainChoices(&c.Actions[i].Choices) })
	}
	for i, o := range s.Objects {
		if o.Commander {
			try(func(c *model.Scenario) bool { return notCommander(c, i) })
		}
	}
	for i, a := range s.Actions {
		if a.Type != model.Move {
			continue
		}
		for _, z := range destinations[:max(slices.Index(destinations, a.To), 0)] {
			// With the choices scripted, if they still fit; else with the
			// plainest that do.
			for _, refill := range []bool{false, true} {
				try(func(c *model.Scenario) bool {
					c.Actions[i].To = z
					if z != model.Exile {
						c.Actions[i].Source = ""
					}
					if !refill {
						return true
					}
					c.Actions[i].Choices = model.Choices{}
					return fillChoices(c)
				})
			}
		}
	}
}

// plainerPermanents offers s with a permanent's status, counters,
// components' order or face-down kind the plainest.
func plainerPermanents(s *model.Scenario, try tryer) {
	for i := range s.Start.Battlefield {
		try(func(c *model.Scenario) bool { return plainPermanent(&c.Start.Battlefield[i]) })
		for _, plain := range plainParts {
			try(func(c *model.Scenario) bool { return plain(&c.Start.Battlefield[i]) })
		}
		try(func(c *model.Scenario) bool { return countersForPump(&c.Start.Battlefield[i]) })
		for k := 0; k+1 < len(s.Start.Battlefield[i].Components); k++ {
			try(func(c *model.Scenario) bool { return plainerOnTop(c, &c.Start.Battlefield[i], k) })
		}
		for k, comp := range s.Start.Battlefield[i].Components {
			try(func(c *model.Scenario) bool { return faceUp(&c.Start.Battlefield[i], k) })
			for _, how := range faceDownRank[:max(slices.Index(faceDownRank, comp.FaceDownBy), 0)] {
				try(func(c *model.Scenario) bool { c.Start.Battlefield[i].Components[k].FaceDownBy = how; return true })
			}
		}
	}
}

// plainerOwners offers s with a card in a plainer zone, or player A
// active, owning or controlling what another player did.
func plainerOwners(s *model.Scenario, try tryer) {
	for pi, pl := range s.Start.Players {
		for _, z := range zoneRank {
			ids, _ := pl.Zones.Get(z)
			for k := range ids {
				for _, to := range zoneRank[:slices.Index(zoneRank, z)] {
					try(func(c *model.Scenario) bool { return moveCard(c, pi, z, k, to) })
				}
			}
		}
	}
	try(func(c *model.Scenario) bool {
		changed := c.Start.Active != playerA
		c.Start.Active = playerA
		return changed
	})
	try(allToA)
	for i := range s.Start.Battlefield {
		try(func(c *model.Scenario) bool { return toPlayerA(c, i) })
	}
	try(swapToA)
	for pi := range s.Start.Players {
		try(func(c *model.Scenario) bool { return graveyardInUseOrder(c, pi) })
	}
}

// graveyardInUseOrder puts player pi's graveyard in the order the actions
// first name its cards, those never named last: of two counterexamples
// that differ only in which of two like cards an action takes, the
// canonical one takes them in order.
func graveyardInUseOrder(c *model.Scenario, pi int) bool {
	first := func(id model.ObjectID) int {
		for i, a := range c.Actions {
			if a.Object == id || a.Card == id || a.Target == id || a.With == id || a.Source == id {
				return i
			}
		}
		return len(c.Actions)
	}
	g := c.Start.Players[pi].Zones.Graveyard
	before := slices.Clone(g)
	slices.SortStableFunc(g, func(x, y model.ObjectID) int { return first(x) - first(y) })
	return !slices.Equal(before, g)
}

// swapToA swaps players A and B throughout a scenario of two players
// whose first action another player's card takes, so that player A acts:
// the plainer of two scenarios that need two players (a spell that targets
// another owner's creature, say) is the one in which A acts.
func swapToA(c *model.Scenario) bool {
	if len(c.Start.Players) != 2 || len(c.Actions) == 0 {
		return false
	}
	a, b := c.Start.Players[0].ID, c.Start.Players[1].ID
	if a != playerA {
		a, b = b, a
	}
	if a != playerA || ownerOfObject(c, c.Actions[0].Object) != b {
		return false
	}
	swap := func(p *model.PlayerID) {
		switch *p {
		case a:
			*p = b
		case b:
			*p = a
		}
	}
	for i := range c.Objects {
		swap(&c.Objects[i].Owner)
	}
	for i := range c.Start.Battlefield {
		p := &c.Start.Battlefield[i]
		swap(&p.Controller)
		if p.EnchantedPlayer != "" {
			swap(&p.EnchantedPlayer)
		}
	}
	for i := range c.Start.Stack {
		swap(&c.Start.Stack[i].Controller)
	}
	for i := range c.Start.Players {
		swap(&c.Start.Players[i].ID)
	}
	slices.SortFunc(c.Start.Players, func(x, y model.Player) int { return strings.Compare(string(x.ID), string(y.ID)) })
	swap(&c.Start.Active)
	for i := range c.Actions {
		if c.Actions[i].Player != "" {
			swap(&c.Actions[i].Player)
		}
	}
	return true
}

// ownerOfObject is the owner of the card id names, or of the topmost
// component of the permanent it names; "" for neither.
func ownerOfObject(c *model.Scenario, id model.ObjectID) model.PlayerID {
	if p := c.Start.Permanent(id); p != nil && len(p.Components) > 0 {
		id = p.Components[0].Object
	}
	if o := c.Object(id); o != nil {
		return o.Owner
	}
	return ""
}

// plainerCards offers s with a card replaced by a plainer one of its
// layout, a token by a card, a melded permanent by a merged one, or a
// first action's manifest or cloak by the face-down permanent it makes.
func plainerCards(s *model.Scenario, try tryer) {
	for i, o := range s.Objects {
		for _, name := range plainer(s, o) {
			try(func(c *model.Scenario) bool { return replaceDef(c, i, name) })
		}
		if o.Token && o.Copy == nil {
			for _, name := range plainCards() {
				try(func(c *model.Scenario) bool { return tokenToCard(c, i, name) })
			}
		}
	}
	for i := range s.Start.Battlefield {
		try(func(c *model.Scenario) bool { return unmeld(c, i) })
	}
	for i := range s.Actions {
		try(func(c *model.Scenario) bool { return foldManifest(c, i) })
	}
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

// toPlayerA gives permanent i, and every object in it, to player A, and
// every other card of those owners to A too, in the same zones, so that
// the scenario stays valid (a card is only in its owner's zones).
func toPlayerA(c *model.Scenario, i int) bool {
	p := &c.Start.Battlefield[i]
	changed := p.Controller != playerA
	p.Controller = playerA
	for _, comp := range p.Components {
		if o := c.Object(comp.Object); o != nil && o.Owner != playerA {
			o.Owner, changed = playerA, true
		}
	}
	if !changed {
		return false
	}
	toA(c, func(id model.ObjectID) bool { o := c.Object(id); return o != nil && o.Owner == playerA })
	return true
}

// toA moves the cards take picks from the other players' zones into the
// same zones of player A, and reports whether it moved any.
func toA(c *model.Scenario, take func(id model.ObjectID) bool) bool {
	a := c.Start.Player(playerA)
	if a == nil {
		return false
	}
	moved := false
	for pi := range c.Start.Players {
		pl := &c.Start.Players[pi]
		if pl.ID == playerA {
			continue
		}
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			from := pl.Zones.Ref(z)
			var keep []model.ObjectID
			for _, id := range *from {
				if take(id) {
					to := a.Zones.Ref(z)
					*to, moved = append(*to, id), true
				} else {
					keep = append(keep, id)
				}
			}
			*from = keep
		}
	}
	slices.Sort(a.Zones.Hand)
	slices.Sort(a.Zones.Command)
	return moved
}

// plainParts clear one of a permanent's status, counters, effects and
// recent control each, for when clearing them all at once no longer fails
// the same way: what the failure does not need goes.
var plainParts = []func(p *model.Permanent) bool{
	func(p *model.Permanent) bool { c := p.Status.Flipped; p.Status.Flipped = false; return c },
	func(p *model.Permanent) bool { c := p.Status.Tapped; p.Status.Tapped = false; return c },
	func(p *model.Permanent) bool { c := len(p.Counters) > 0; p.Counters = nil; return c },
	fewerCounters,
	func(p *model.Permanent) bool { c := len(p.Effects) > 0; p.Effects = nil; return c },
	func(p *model.Permanent) bool {
		c := !p.ControlledSinceTurnStart
		p.ControlledSinceTurnStart = true
		return c
	},
	func(p *model.Permanent) bool { c := p.Mutated; p.Mutated = false; return c },
}

// fewerCounters takes one counter off a permanent that has more than one
// of a kind: when the failure needs counters, the fewest that keep it.
func fewerCounters(p *model.Permanent) bool {
	for _, k := range slices.Sorted(maps.Keys(p.Counters)) {
		if p.Counters[k] > 1 {
			p.Counters = maps.Clone(p.Counters)
			p.Counters[k]--
			return true
		}
	}
	return false
}

// countersForPump replaces a "+N/+N until end of turn" effect by N +1/+1
// counters: counters are plainer than effects.
func countersForPump(p *model.Permanent) bool {
	i := slices.IndexFunc(p.Effects, func(e model.Effect) bool {
		return e.Kind == model.EffectPump && e.Power == e.Toughness && e.Power > 0
	})
	if i < 0 {
		return false
	}
	if p.Counters == nil {
		p.Counters = map[string]int{}
	}
	p.Counters["+1/+1"] += p.Effects[i].Power
	p.Effects = slices.Delete(slices.Clone(p.Effects), i, i+1)
	if len(p.Effects) == 0 {
		p.Effects = nil
	}
	return true
}

// plainerOnTop swaps components k and k+1 of p when the lower one's card
// is plainer (see cardRank): between two stacks that fail alike, the one
// with the plainer cards higher is canonical.
func plainerOnTop(c *model.Scenario, p *model.Permanent, k int) bool {
	a, b := c.Object(p.Components[k].Object), c.Object(p.Components[k+1].Object)
	if a == nil || b == nil || cardRank(b.Def) >= cardRank(a.Def) {
		return false
	}
	p.Components[k], p.Components[k+1] = p.Components[k+1], p.Components[k]
	p.Status.FaceDown = p.Components[0].FaceDown
	return true
}

// plainCards lists the cards a card may be replaced by when shrinking,
// plainest first: the plainest card of each layout in layout order, then
// plain creatures with more and more abilities.
func plainCards() []string {
	var order []string
	for _, layout := range layoutRank {
		if plain, ok := generators.Plainest(layout); ok {
			order = append(order, plain)
		}
	}
	return append(order, "Runeclaw Bear", "Gemrazer", "Vulpikeet", "Dreamtail Heron", "Grinning Demon")
}

// cardRank orders card names, plainest first: those of plainCards, then
// every other name, alphabetically by its first letter.
func cardRank(name string) int {
	order := plainCards()
	if i := slices.Index(order, name); i >= 0 {
		return i
	}
	return len(order) + int(name[0])
}

// fillChoices scripts, for every action of c that lacks a choice it needs,
// the first option the reference offers (the plainest: components in
// order, the top, the first replacement, no command zone, "yes"). It
// reports false when an action can't be played.
func fillChoices(c *model.Scenario) bool {
	for i := range c.Actions {
		prefix := *c
		prefix.Actions = c.Actions[:i]
		for range 8 {
			n, err := reference.Probe(&prefix, c.Actions[i])
			if err != nil {
				return false
			}
			if n.IsZero() {
				break
			}
			ch := &c.Actions[i].Choices
			switch {
			case len(n.Replacements) > 0:
				ch.Replacement = n.Replacements[0]
			case n.CommandZone:
				ch.CommandZone = model.Bool(false)
			case n.May:
				ch.May = model.Bool(true)
			case n.Position:
				ch.Position = model.Top
			case len(n.Order) > 0:
				ch.Order = slices.Clone(n.Order)
			}
		}
	}
	return true
}

// tokenToCard makes token object i the card name: cards are plainer than
// tokens. Tried with each of plainCards in turn, the plainest card that
// keeps the failure replaces the token.
func tokenToCard(c *model.Scenario, i int, name string) bool {
	c.Objects[i].Token = false
	if !replaceDef(c, i, name) && c.Objects[i].Def != name {
		return false
	}
	for k := range c.Actions {
		c.Actions[k].Choices = model.Choices{}
	}
	return fillChoices(c)
}

// unmeld replaces melded permanent i by a merged permanent of two of the
// plainest cards, front faces up: merged is plainer than melded.
func unmeld(c *model.Scenario, i int) bool {
	p := &c.Start.Battlefield[i]
	if len(p.Components) != 2 {
		return false
	}
	for k := range p.Components {
		o := c.Object(p.Components[k].Object)
		d := c.Def(o.Def)
		if d == nil || d.Layout != model.LayoutMeld || p.Components[k].Face != model.Back {
			return false
		}
		p.Components[k].Face = ""
		if !replaceDef(c, slices.IndexFunc(c.Objects, func(x model.Object) bool { return x.ID == o.ID }), plainCards()[0]) {
			return false
		}
	}
	for k := range c.Actions {
		c.Actions[k].Choices = model.Choices{}
	}
	return fillChoices(c)
}

// foldManifest replaces a manifest or cloak that is the scenario's first
// action by the face-down permanent it makes, in the starting state:
// one action fewer.
func foldManifest(c *model.Scenario, i int) bool {
	a := c.Actions[i]
	if i != 0 || a.Type != model.Manifest {
		return false
	}
	pl := c.Start.Player(a.Player)
	if pl == nil || len(pl.Zones.Library) == 0 || pl.Zones.Library[0] != a.Object {
		return false
	}
	pl.Zones.Library = slices.Clone(pl.Zones.Library[1:])
	id := model.ObjectID("p" + strconv.Itoa(len(c.Start.Battlefield)+1))
	for c.Start.Permanent(id) != nil {
		id += "x"
	}
	ts := 1
	for _, p := range c.Start.Battlefield {
		ts = max(ts, p.Timestamp+1)
	}
	c.Start.Battlefield = append(c.Start.Battlefield, model.Permanent{
		ID: id, Controller: a.Player, Timestamp: ts, ControlledSinceTurnStart: true,
		Components: []model.Component{{Object: a.Object, FaceDown: true, FaceDownBy: a.Method}},
		Status:     model.Status{FaceDown: true},
	})
	old := model.EnteredID(a.Object, 0)
	c.Actions = slices.Delete(c.Actions, 0, 1)
	for k := range c.Actions {
		b := &c.Actions[k]
		for _, ref := range []*model.ObjectID{&b.Object, &b.Target, &b.With, &b.Card, &b.Source, &b.Choices.Replacement} {
			if *ref == old {
				*ref = id
			}
		}
	}
	shiftEntered(c, 0)
	return true
}

// faceUp turns component k of p face up, front face up: a face-up
// permanent is plainer than a face-down one.
func faceUp(p *model.Permanent, k int) bool {
	comp := &p.Components[k]
	if !comp.FaceDown {
		return false
	}
	*comp = model.Component{Object: comp.Object}
	p.Status.FaceDown = p.Components[0].FaceDown
	return true
}

// faceDownRank orders the ways a component can be face down, plainest
// first.
var faceDownRank = []model.FaceDownKind{model.ByEffect, model.ByManifest, model.ByCloak, model.ByMorph, model.ByDisguise}

// allToA gives every object, permanent and card to player A, who is also
// the active player, each card in the zone it was in: one player, when
// the failure does not need two.
func allToA(c *model.Scenario) bool {
	a := c.Start.Player(playerA)
	if a == nil {
		return false
	}
	changed := c.Start.Active != playerA
	c.Start.Active = playerA
	for i := range c.Objects {
		if c.Objects[i].Owner != playerA {
			c.Objects[i].Owner, changed = playerA, true
		}
	}
	for i := range c.Start.Battlefield {
		p := &c.Start.Battlefield[i]
		if p.Controller != playerA || p.EnchantedPlayer != "" && p.EnchantedPlayer != playerA {
			changed = true
		}
		p.Controller = playerA
		if p.EnchantedPlayer != "" {
			p.EnchantedPlayer = playerA
		}
	}
	if toA(c, func(model.ObjectID) bool { return true }) {
		changed = true
	}
	for i := range c.Actions {
		if p := c.Actions[i].Player; p != "" && p != playerA {
			c.Actions[i].Player, changed = playerA, true
		}
	}
	return changed
}

// zoneRank orders the zones a card can start in, plainest first.
var zoneRank = []model.Zone{model.Graveyard, model.Hand, model.Exile, model.Library, model.Command}

// moveCard moves card k of player pi's zone from into zone to.
func moveCard(c *model.Scenario, pi int, from model.Zone, k int, to model.Zone) bool {
	zs := &c.Start.Players[pi].Zones
	src := zs.Ref(from)
	id := (*src)[k]
	*src = slices.Delete(slices.Clone(*src), k, k+1)
	dst := zs.Ref(to)
	*dst = append(*dst, id)
	if to == model.Hand || to == model.Command {
		slices.Sort(*dst)
	}
	return true
}

// tapTarget returns the permanent an action is about, which a tap of it
// can replace when shrinking, or "".
func tapTarget(a model.Action) model.ObjectID {
	switch a.Type {
	case model.Merge, model.CastMutate:
		return a.Target
	case model.Cast, model.Resolve, model.Manifest, model.NextTurn, model.Return, model.ExileFound:
		return ""
	}
	return a.Object
}

// foldIntoStart replaces a tap, flip, add_counters or pump of a permanent
// of the starting state, as its first action on it, by the state it
// leaves: one action fewer.
func foldIntoStart(c *model.Scenario, i int) bool {
	a := c.Actions[i]
	on := a.Object
	if a.Type == model.Merge {
		on = a.Target
	}
	p := c.Start.Permanent(on)
	if p == nil || !a.Choices.IsZero() && a.Type != model.Merge || slices.ContainsFunc(c.Actions[:i], func(b model.Action) bool {
		return b.Object == on || b.Target == on || b.With == on
	}) {
		return false
	}
	switch a.Type {
	case model.Tap:
		if p.Status.Tapped {
			return false
		}
		p.Status.Tapped = true
	case model.Flip:
		if p.Status.Flipped {
			return false
		}
		p.Status.Flipped = true
	case model.AddCounters:
		if p.Counters == nil {
			p.Counters = map[string]int{}
		}
		p.Counters[a.Counter] += a.N
	case model.Transform:
		d := c.Def(c.Object(p.Components[0].Object).Def)
		if len(p.Components) != 1 || p.Status.FaceDown || d == nil || d.Layout != model.LayoutTransform {
			return false
		}
		comp := &p.Components[0]
		if comp.Face == model.Back {
			comp.Face = ""
		} else {
			comp.Face = model.Back
		}
	case model.Merge:
		// The card merges before the game starts: the stack it makes.
		owner := c.Object(a.Object)
		pl := c.Start.Player(owner.Owner)
		if pl == nil {
			return false
		}
		found := false
		for _, z := range []model.Zone{model.Hand, model.Graveyard, model.Exile, model.Library} {
			ref := pl.Zones.Ref(z)
			if k := slices.Index(*ref, a.Object); k >= 0 {
				*ref, found = slices.Delete(slices.Clone(*ref), k, k+1), true
			}
		}
		if !found || p.Status.FaceDown {
			return false
		}
		comp := model.Component{Object: a.Object}
		if a.Choices.Position == model.Bottom {
			p.Components = append(p.Components, comp)
		} else {
			p.Components = append([]model.Component{comp}, p.Components...)
		}
		c.Actions = slices.Delete(c.Actions, i, i+1)
		shiftEntered(c, i)
		return true
	case model.Pump:
		ts := p.Timestamp + 1
		for _, e := range p.Effects {
			ts = max(ts, e.Timestamp+1)
		}
		p.Effects = append(p.Effects, model.Effect{Kind: model.EffectPump, Timestamp: ts, Power: a.Power, Toughness: a.Toughness, UntilEndOfTurn: true})
	default:
		return false
	}
	c.Actions = slices.Delete(c.Actions, i, i+1)
	shiftEntered(c, i)
	return true
}

// mutateAsMerge replaces a mutating spell cast from hand and its
// resolution by the bare merge of that card from hand at the position
// chosen: one action fewer, when the failure is the merge's.
func mutateAsMerge(c *model.Scenario, i int) bool {
	if i+1 >= len(c.Actions) || c.Actions[i].Type != model.CastMutate || c.Actions[i+1].Type != model.Resolve {
		return false
	}
	cast, res := c.Actions[i], c.Actions[i+1]
	c.Actions[i] = model.Action{Type: model.Merge, Object: cast.Object, Target: cast.Target, Choices: model.Choices{Position: res.Choices.Position}}
	c.Actions = slices.Delete(c.Actions, i+1, i+2)
	shiftEntered(c, i+1)
	return true
}

// foldMutation replaces a mutating spell cast from hand onto a permanent
// of the starting state and its resolution, as the first actions about
// that permanent, by the mutated stack they make: two actions fewer.
func foldMutation(c *model.Scenario, i int) bool {
	if i+1 >= len(c.Actions) || c.Actions[i].Type != model.CastMutate || c.Actions[i+1].Type != model.Resolve {
		return false
	}
	cast, res := c.Actions[i], c.Actions[i+1]
	p := c.Start.Permanent(cast.Target)
	if p == nil || p.Status.FaceDown || slices.ContainsFunc(c.Actions[:i], func(b model.Action) bool {
		return b.Object == cast.Target || b.Target == cast.Target || b.With == cast.Target
	}) {
		return false
	}
	o := c.Object(cast.Object)
	pl := c.Start.Player(o.Owner)
	if pl == nil {
		return false
	}
	k := slices.Index(pl.Zones.Hand, cast.Object)
	if k < 0 {
		return false
	}
	pl.Zones.Hand = slices.Delete(slices.Clone(pl.Zones.Hand), k, k+1)
	comp := model.Component{Object: cast.Object}
	if res.Choices.Position == model.Bottom {
		p.Components = append(p.Components, comp)
	} else {
		p.Components = append([]model.Component{comp}, p.Components...)
	}
	p.Mutated = true
	c.Actions = slices.Delete(c.Actions, i, i+2)
	shiftEntered(c, i+1)
	shiftEntered(c, i)
	return true
}

// castAlone casts mutating spell i as the creature spell it also is,
// with no target (CR 702.140a): a plain cast is plainer than a mutating
// one. The resolution that follows it loses its mutating choice.
func castAlone(c *model.Scenario, i int) bool {
	a := &c.Actions[i]
	if a.Type != model.CastMutate {
		return false
	}
	a.Type, a.Target = model.Cast, ""
	for k := i + 1; k < len(c.Actions); k++ {
		if c.Actions[k].Type == model.Resolve {
			c.Actions[k].Choices.Position = ""
			break
		}
	}
	return true
}

// shiftEntered renumbers, after an action was removed at index i, the
// references of later actions to permanents that entered: OBJECT@N for N
// past i is OBJECT@N-1. A reference to one that entered at i goes stale,
// and the reference engine then refuses the candidate.
func shiftEntered(c *model.Scenario, i int) {
	shift := func(id model.ObjectID) model.ObjectID {
		obj, at, ok := strings.Cut(string(id), "@")
		n, err := strconv.Atoi(at)
		if !ok || err != nil || n <= i {
			return id
		}
		return model.EnteredID(model.ObjectID(obj), n-1)
	}
	for k := range c.Actions {
		a := &c.Actions[k]
		a.Object, a.Target, a.With, a.Card, a.Source = shift(a.Object), shift(a.Target), shift(a.With), shift(a.Card), shift(a.Source)
		a.Choices.Replacement = shift(a.Choices.Replacement)
	}
}

// notCommander makes object i an ordinary card, with no commander's
// choice left to script.
func notCommander(c *model.Scenario, i int) bool {
	c.Objects[i].Commander = false
	for k := range c.Actions {
		c.Actions[k].Choices.CommandZone = nil
	}
	return true
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
	case slices.Contains(replacementCards, o.Def):
		pool = replacementCards
	default:
		pool = plainCards()
	}
	i := slices.Index(pool, o.Def)
	if i < 0 {
		return pool
	}
	return pool[:i]
}

// replacementCards are the cards with replacement effects on leaving the
// battlefield, plainest first.
var replacementCards = []string{"Leyline of the Void", "Rest in Peace", "Wheel of Sun and Moon"}

// layoutRank orders the layouts, plainest first: a card is replaced by a
// plainer layout's plainest card when the failure does not need its own.
var layoutRank = []string{"normal", "flip", "transform", "modal_dfc"}

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
