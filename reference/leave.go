package reference

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// A replacement is a replacement effect that could apply to a permanent
// leaving the battlefield for a graveyard.
type replacement struct {
	source   model.ObjectID
	to       model.Zone // where it sends what it applies to
	cardOnly bool       // it speaks of "a card", not tokens (CR 730.3e)
	reveal   bool       // the card is revealed as it moves (Wheel of Sun and Moon)
}

// replacements lists the replacement effects that would apply to cards
// owned by owner going to a graveyard. Phased-out sources don't exist
// (CR 702.26b).
func (g *game) replacements(owner model.PlayerID) ([]replacement, error) {
	var out []replacement
	for i := range g.st.Battlefield {
		q := &g.st.Battlefield[i]
		if q.Status.PhasedOut {
			continue
		}
		d, err := g.derive(q)
		if err != nil {
			return nil, err
		}
		for _, ab := range d.Characteristics.Abilities {
			switch {
			case ab == model.LeylineOfTheVoid && owner != q.Controller:
				out = append(out, replacement{source: q.ID, to: model.Exile, cardOnly: true})
			case ab == model.WheelOfSunAndMoon && q.EnchantedPlayer == owner:
				out = append(out, replacement{source: q.ID, to: model.LibraryBottom, cardOnly: true, reveal: true})
			case ab == model.RestInPeace:
				out = append(out, replacement{source: q.ID, to: model.Exile})
			}
		}
	}
	return out, nil
}

// move puts a permanent into another zone (CR 730.3, 712.21).
func (g *game) move(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if a.Choices.Position != "" || a.Choices.May != nil {
		return invalid("moving a permanent leaves no position or may-choice to make")
	}
	if a.Source != "" && a.To != model.Exile {
		return invalid("source is set only when a linked ability exiles the permanent")
	}
	if a.Source != "" && g.st.Permanent(a.Source) == nil {
		return invalid("source %s is not on the battlefield", a.Source)
	}
	moves, err := g.leave(p, a, &a.Choices, false)
	if err != nil {
		return err
	}
	if a.Source != "" {
		var cards []model.ObjectID
		for _, m := range moves {
			if m.To == model.Exile && !g.obj(m.Object).Token {
				cards = append(cards, m.Object)
			}
		}
		// Exile order is timestamp order, so the link lists the cards the
		// way the exiling player ordered them (CR 730.3b, 712.21b, 607).
		ex := g.player(g.obj(moves[0].Object).Owner).Zones.Exile
		slices.SortStableFunc(cards, func(x, y model.ObjectID) int { return slices.Index(ex, x) - slices.Index(ex, y) })
		g.link(a.Source, cards...)
	}
	return nil
}

func (g *game) link(source model.ObjectID, cards ...model.ObjectID) {
	for i := range g.st.Links {
		if g.st.Links[i].Source == source {
			g.st.Links[i].Cards = append(g.st.Links[i].Cards, cards...)
			return
		}
	}
	if len(cards) > 0 {
		g.st.Links = append(g.st.Links, model.Link{Source: source, Cards: cards})
	}
}

// leave takes p off the battlefield to a.To: one permanent leaves, and
// each component goes to the appropriate zone (CR 730.3, 712.21). ch holds
// the scripted choices; noChoice marks a move made by a rule or as part of
// another action, where no choice can be scripted.
func (g *game) leave(live *model.Permanent, a *model.Action, ch *model.Choices, noChoice bool) ([]model.Placement, error) {
	// Work on a copy: live points into the battlefield, which shrinks below.
	perm := *live
	p := &perm
	if ch == nil {
		ch = &model.Choices{}
	}
	lki, err := g.derive(p) // last known information (CR 603.10a)
	if err != nil {
		return nil, err
	}
	owner := g.ownerOf(p)
	dest := make([]model.Zone, len(p.Components))
	by := make([]model.ObjectID, len(p.Components))
	for i := range dest {
		dest[i] = a.To
	}
	chosen, err := g.chooseReplacement(p, a.To, owner, ch)
	if err != nil {
		return nil, err
	}
	var revealed []model.ObjectID // by the replacement effect
	if chosen != nil {
		revealed = g.applyReplacement(p, lki, chosen, dest, by)
	}
	objs := make([]*model.Object, len(p.Components)) // each component's object, looked up once
	for i, c := range p.Components {
		objs[i] = g.obj(c.Object)
	}
	commanderIdx, sba903, err := g.commanderDestination(p, ch, noChoice, objs, dest, by)
	if err != nil {
		return nil, err
	}

	// The permanent goes where its topmost component goes (CR 730.3e).
	permTo := zoneName(dest[0])
	moves, cards, shown := placements(p, objs, dest, by)
	groups, keys, err := g.orderedGroups(p, ch, objs, dest, moves, cards)
	if err != nil {
		return nil, err
	}

	if lib := dest[0]; g.is(bugLibraryTopCardOnly) && chosen == nil && (lib == model.LibraryTop || lib == model.LibraryBottom) && len(groups[lib]) > 0 {
		keys = libraryTopCardOnly(p, lib, groups, keys, moves)
	}
	g.revealLeaving(p.ID, owner, shown, revealed, chosen)
	rule := model.RuleID("")
	switch {
	case g.melded(p):
		rule = "712.21"
	case g.merged(p):
		rule = "730.3"
	}
	g.removePermanent(p.ID)
	if cards > 1 && g.is(bugCountOneCard) {
		cards = 1
	}
	g.emit(model.Event{Kind: model.ZoneChange, Rule: rule, Object: p.ID, From: model.Battlefield, To: permTo, Objects: 1, Cards: cards, Moves: moves})
	for _, z := range keys {
		g.place(z, groups[z])
	}
	g.leaveTriggers(p.ID, lki, permTo, cards, objs, moves)
	g.tokensCease(objs, moves)
	g.gone[p.ID] = departure{moves: moves, wasCreature: slices.Contains(lki.Characteristics.Types, "creature"), wasToken: lki.Token, status: p.Status}
	if sba903 {
		if err := g.commanderToCommandZone(p.Components[commanderIdx].Object, zoneName(dest[commanderIdx])); err != nil {
			return nil, err
		}
	}
	return moves, nil
}

// chooseReplacement returns the replacement effect that applies to p
// going to zone to, or nil, taking the scripted choice in ch when several
// apply, since the player picks one and it applies to the whole permanent.
func (g *game) chooseReplacement(p *model.Permanent, to model.Zone, owner model.PlayerID, ch *model.Choices) (*replacement, error) {
	// Replacement effects on going to a graveyard. If several apply, the
	// player picks one, and applying it to the permanent applies it to
	// every component (CR 616.1, 730.3d, 712.21d).
	var chosen *replacement
	if to == model.Graveyard {
		reps, err := g.replacements(owner)
		if err != nil {
			return nil, err
		}
		switch {
		case len(reps) == 1 && (ch.Replacement == "" || ch.Replacement == reps[0].source):
			chosen = &reps[0]
		case len(reps) > 1:
			if g.probing() && ch.Replacement == "" {
				for _, r := range reps {
					g.probe.Replacements = append(g.probe.Replacements, r.source)
				}
				ch.Replacement = reps[0].source
			}
			for i := range reps {
				if reps[i].source == ch.Replacement {
					chosen = &reps[i]
				}
			}
			if chosen == nil {
				var ids []model.ObjectID
				for _, r := range reps {
					ids = append(ids, r.source)
				}
				if ch.Replacement == "" {
					return nil, invalid("choices.replacement is required: replacement effects of %v apply and the player picks one (CR 616.1, 730.3d)", ids)
				}
				return nil, invalid("choices.replacement %s does not fit: the replacement effects that apply come from %v", ch.Replacement, ids)
			}
		}
	}
	if chosen == nil && ch.Replacement != "" {
		return nil, invalid("choices.replacement %s does not fit: no replacement effect of %s applies to %s going to its owner's %s (Leyline of the Void applies only to an opponent's cards, Wheel of Sun and Moon only to the enchanted player's)", ch.Replacement, ch.Replacement, p.ID, to)
	}
	return chosen, nil
}

// applyReplacement redirects, in dest and by, each component of p the
// chosen replacement effect applies to, since applying it to the permanent
// applies it to its components, and returns the cards it reveals.
func (g *game) applyReplacement(p *model.Permanent, lki model.Derived, chosen *replacement, dest []model.Zone, by []model.ObjectID) (revealed []model.ObjectID) {
	for i, c := range p.Components {
		token := g.obj(c.Object).Token
		// CR 730.3e: an effect on "a card" moves every component of a
		// nontoken merged permanent, tokens too; of a token merged
		// permanent it moves only the cards.
		if chosen.cardOnly && lki.Token && token {
			continue
		}
		if chosen.cardOnly && token && g.is(bugCardReplacementSkipsTokens) {
			continue
		}
		if i > 0 && g.is(bugReplacementTopOnly) {
			continue
		}
		if chosen.cardOnly && len(p.Components) == 1 && token {
			continue
		}
		dest[i], by[i] = chosen.to, chosen.source
		if chosen.reveal && !token {
			revealed = append(revealed, c.Object)
		}
	}
	return revealed
}

// commanderDestination applies the owner's scripted command-zone choice
// for a commander component of p, since its owner may move it there: it
// redirects the card in dest and by, or reports in sba903 that it moves
// after the permanent leaves, and returns the commander's index or -1.
func (g *game) commanderDestination(p *model.Permanent, ch *model.Choices, noChoice bool, objs []*model.Object, dest []model.Zone, by []model.ObjectID) (commanderIdx int, sba903 bool, err error) {
	// CR 903.9b-c: a commander card bound for a hand or library may go to
	// the command zone instead, without the other components.
	commanderIdx = -1
	for i, o := range objs {
		if o.Commander {
			commanderIdx = i
		}
	}
	if commanderIdx >= 0 && noChoice {
		return 0, false, unsupported("commander-moved-by-rule",
			"commander %s moves as part of a meld or a state-based action, where the scenario has no action to script its owner's command-zone choice", p.Components[commanderIdx].Object)
	}
	needCommander := commanderIdx >= 0
	if needCommander && g.probing() && ch.CommandZone == nil {
		g.probe.CommandZone, ch.CommandZone = true, model.Bool(false)
	}
	if needCommander && ch.CommandZone == nil {
		return 0, false, invalid("choices.command_zone is required: %s is a commander and its owner may put it into the command zone (CR 903.9)", p.Components[commanderIdx].Object)
	}
	if !needCommander && ch.CommandZone != nil {
		return 0, false, invalid("choices.command_zone does not fit: no commander is moving")
	}
	if needCommander && (*ch.CommandZone || g.is(bugCommanderAlwaysCommandZone)) {
		switch dest[commanderIdx] {
		case model.Hand, model.LibraryTop, model.LibraryBottom:
			dest[commanderIdx], by[commanderIdx] = model.Command, "commander" // CR 903.9b-c
		default:
			sba903 = true // CR 903.9a, after the move
		}
	}
	return commanderIdx, sba903, nil
}

// placements lists where each component of p goes, in component order, so
// that moves[i] is component i's; it counts the cards among them and
// returns the face-down ones, which are revealed as they leave.
func placements(p *model.Permanent, objs []*model.Object, dest []model.Zone, by []model.ObjectID) (moves []model.Placement, cards int, shown []model.ObjectID) {
	moves = make([]model.Placement, 0, len(p.Components))
	for i, c := range p.Components {
		o := objs[i]
		moves = append(moves, model.Placement{Object: c.Object, To: zoneName(dest[i]), Owner: o.Owner, By: by[i]})
		if !o.Token {
			cards++
		}
		if c.FaceDown {
			shown = append(shown, c.Object) // CR 708.9
		}
	}
	return moves, cards, shown
}

// orderedGroups groups the cards of p by destination, in the order the
// destinations first come, and puts any group of two or more bound for an
// ordered zone in the player's scripted order, refusing an order that fits
// no group.
func (g *game) orderedGroups(p *model.Permanent, ch *model.Choices, objs []*model.Object, dest []model.Zone, moves []model.Placement, cards int) (map[model.Zone][]model.ObjectID, []model.Zone, error) {
	// Group the cards by destination and let the player order any group of
	// two or more in an ordered zone (CR 730.3a-b, 712.21a-b).
	groups := map[model.Zone][]model.ObjectID{}
	var keys []model.Zone
	for i, c := range p.Components {
		if objs[i].Token {
			continue
		}
		if _, ok := groups[dest[i]]; !ok {
			keys = append(keys, dest[i])
		}
		groups[dest[i]] = append(groups[dest[i]], c.Object)
	}
	ordered := false
	for _, z := range keys {
		cs := groups[z]
		if z == model.Hand || z == model.Command {
			continue
		}
		if len(cs) > 1 {
			if ordered {
				return nil, nil, unsupported("several-ordered-groups", "cards of %s go to two ordered zones at once", p.ID)
			}
			ordered = true
			o, err := g.pickOrder(ch.Order, cs)
			if err != nil {
				return nil, nil, err
			}
			groups[z] = o
			if (z != model.Exile && g.is(bugIgnoreOrder)) || (z == model.Exile && g.is(bugExileInComponentOrder)) {
				groups[z] = cs
			}
		}
	}
	if !ordered && len(ch.Order) > 0 && !g.mutated() {
		if len(ch.Order) != 1 || cards != 1 || ch.Order[0] != moves[slices.IndexFunc(moves, func(m model.Placement) bool { return !g.obj(m.Object).Token })].Object {
			return nil, nil, invalid("choices.order %v does not fit: no two cards of %s go into one ordered zone together (its cards go %v)", ch.Order, p.ID, moves)
		}
	}
	return groups, keys, nil
}

// libraryTopCardOnly is a mutant's: it sends only the topmost card of p
// to library lib and its other cards to the graveyard, changing groups and
// moves to match, and returns keys with the graveyard added if need be.
func libraryTopCardOnly(p *model.Permanent, lib model.Zone, groups map[model.Zone][]model.ObjectID, keys []model.Zone, moves []model.Placement) []model.Zone {
	// The mutant puts only the topmost card into the library; the
	// other cards go to the graveyard.
	top := p.Components[0].Object
	var rest []model.ObjectID
	for _, id := range groups[lib] {
		if id != top {
			rest = append(rest, id)
		}
	}
	if len(rest) > 0 {
		groups[lib] = slices.DeleteFunc(slices.Clone(groups[lib]), func(id model.ObjectID) bool { return id != top })
		groups[model.Graveyard] = append(groups[model.Graveyard], rest...)
		if !slices.Contains(keys, model.Graveyard) {
			keys = append(keys, model.Graveyard)
		}
		for i := range moves {
			if slices.Contains(rest, moves[i].Object) {
				moves[i].To = model.Graveyard
			}
		}
	}
	return keys
}

// revealLeaving emits the reveals of permanent id's cards as it leaves,
// so that every player sees what left: its face-down cards (CR 708.9) and
// those the chosen replacement effect reveals as it moves them.
func (g *game) revealLeaving(id model.ObjectID, owner model.PlayerID, shown, revealed []model.ObjectID, chosen *replacement) {
	if len(shown) > 0 && !g.is(bugNoReveal) {
		g.emit(model.Event{Kind: model.Reveal, Rule: "708.9", Object: id, Player: owner, Revealed: shown})
	}
	if len(revealed) > 0 {
		g.emit(model.Event{Kind: model.Reveal, Object: id, Player: owner, Revealed: revealed, Source: chosen.source})
	}
}

// leaveTriggers emits the triggers of permanent id leaving for zone permTo
// with its cards moving as moves say, judged by its last known information
// lki, since leaves-the-battlefield abilities look back in time.
func (g *game) leaveTriggers(id model.ObjectID, lki model.Derived, permTo model.Zone, cards int, objs []*model.Object, moves []model.Placement) {
	// Triggers, looking back in time (CR 603.10a).
	if permTo == model.Graveyard && slices.Contains(lki.Characteristics.Types, "creature") {
		g.emit(model.Event{Kind: model.Trigger, Observer: model.CreatureDies, Object: id})
		// A token only if its topmost component is one (CR 730.2d).
		if !lki.Token || g.is(bugNontokenDiesIfAnyCard) && cards > 0 {
			g.emit(model.Event{Kind: model.Trigger, Observer: model.NontokenCreatureDies, Object: id})
		}
		for range cards - 1 {
			if g.is(bugDiesPerCard) || g.is(bugDiesPerCardBoth) {
				g.emit(model.Event{Kind: model.Trigger, Observer: model.CreatureDies, Object: id})
			}
			if g.is(bugDiesPerCardBoth) && !lki.Token {
				g.emit(model.Event{Kind: model.Trigger, Observer: model.NontokenCreatureDies, Object: id})
			}
		}
	}
	once := false
	g.events = slices.Grow(g.events, len(moves)) // a trigger a card, at most
	// moves[i] is component i's.
	for i, m := range moves {
		if m.To == model.Graveyard && !objs[i].Token && !(once && g.is(bugGraveyardTriggerOnce)) {
			g.emit(model.Event{Kind: model.Trigger, Observer: model.CardToGraveyard, Object: m.Object})
			once = true
		}
	}
}

// tokensCease ends the tokens among the components that just left the
// battlefield, since a token can't exist anywhere else.
func (g *game) tokensCease(objs []*model.Object, moves []model.Placement) {
	// CR 704.5d, 111.7: tokens outside the battlefield cease to exist.
	for i, m := range moves {
		if objs[i].Token {
			if g.is(bugTokensLinger) && m.To != model.Command {
				to := m.To
				if to == model.Library {
					to = model.LibraryTop
				}
				g.place(to, []model.ObjectID{m.Object})
				continue
			}
			g.emit(model.Event{Kind: model.CeaseToExist, Rule: "704.5d", Object: m.Object})
		}
	}
}

// commanderToCommandZone moves commander card c from zone from, where it
// just went, to the command zone, as its owner chose when it left the
// battlefield (CR 903.9a).
func (g *game) commanderToCommandZone(c model.ObjectID, from model.Zone) error {
	if err := g.takeFromZone(c, from); err != nil {
		return err
	}
	g.place(model.Command, []model.ObjectID{c})
	g.emit(model.Event{Kind: model.ZoneChange, Rule: "903.9a", Object: c, From: from, To: model.Command, Objects: 1, Cards: 1})
	return nil
}

// zoneName maps a destination to the zone it is in.
func zoneName(z model.Zone) model.Zone {
	if z == model.LibraryTop || z == model.LibraryBottom {
		return model.Library
	}
	return z
}

// place puts cards, already ordered, into their owners' zone z: on top of a
// graveyard or library, at the bottom for LibraryBottom, latest in exile.
func (g *game) place(z model.Zone, cards []model.ObjectID) {
	// Each owner's cards go together, in the order given (topmost first
	// for a graveyard or the top of a library): one copy of a zone per
	// owner, not one per card, so a big stack costs linear time.
	var owners []model.PlayerID
	byOwner := map[model.PlayerID][]model.ObjectID{}
	for _, c := range cards {
		o := g.obj(c).Owner
		if _, ok := byOwner[o]; !ok {
			owners = append(owners, o)
		}
		byOwner[o] = append(byOwner[o], c)
	}
	for _, o := range owners {
		zs := &g.player(o).Zones
		mine := byOwner[o]
		switch z {
		case model.Graveyard:
			zs.Graveyard = append(mine, zs.Graveyard...)
		case model.LibraryTop:
			zs.Library = append(mine, zs.Library...)
		case model.LibraryBottom:
			zs.Library = append(zs.Library, mine...)
		case model.Exile:
			zs.Exile = append(zs.Exile, mine...)
		case model.Hand:
			zs.Hand = append(zs.Hand, mine...)
		case model.Command:
			zs.Command = append(zs.Command, mine...)
		}
	}
}

// stateBasedActions puts Auras attached to nothing into their owners'
// graveyards (CR 704.5m), and unattaches Equipment attached to nothing or
// to a permanent that is not a creature, and any other permanent attached
// to nothing, which stay on the battlefield (CR 704.5n, 704.5p). Each
// check's Auras go at once (CR 704.3).
func (g *game) stateBasedActions(a *model.Action) error {
	for {
		var orphans []model.ObjectID
		for i := range g.st.Battlefield {
			q := &g.st.Battlefield[i]
			if q.AttachedTo == "" || q.Status.PhasedOut {
				continue
			}
			host := g.st.Permanent(q.AttachedTo)
			if err := g.refuseProtectedHost(q, host); err != nil {
				return err
			}
			if !g.isAura(q) || g.isCreature(q) {
				// CR 704.5n: an Equipment attached to nothing or to what is
				// not a creature; CR 704.5p: a creature, or what is neither
				// Aura nor Equipment, attached to anything. It stays,
				// unattached.
				if host == nil || !g.isEquipment(q) || g.isCreature(q) || !g.isCreature(host) {
					q.AttachedTo = ""
				}
				continue
			}
			if host == nil {
				orphans = append(orphans, q.ID)
			}
		}
		if len(orphans) == 0 {
			return nil
		}
		if err := g.unorderedByRule(orphans); err != nil {
			return err
		}
		for _, id := range orphans {
			orphan := g.st.Permanent(id)
			reps, err := g.replacements(g.ownerOf(orphan))
			if err != nil {
				return err
			}
			if len(reps) > 1 {
				return unsupported("several-replacements-on-state-based-action",
					"Aura %s goes to a graveyard with several replacement effects applying; scenarios script one choice per action", orphan.ID)
			}
			if _, err := g.leave(orphan, &model.Action{To: model.Graveyard}, nil, true); err != nil {
				return err
			}
			g.events[len(g.events)-1].Rule = "704.5m"
		}
		_ = a
	}
}

// refuseProtectedHost refuses a red permanent attached to one with
// protection from red (CR 702.16c-d): the reference does not put such an
// Aura into its owner's graveyard nor unattach such an Equipment.
func (g *game) refuseProtectedHost(q, host *model.Permanent) error {
	if host == nil || host.Status.PhasedOut {
		return nil
	}
	qd, err := g.derive(q)
	if err != nil || !slices.Contains(qd.Characteristics.Colors, model.Red) {
		return err
	}
	hd, err := g.derive(host)
	if err != nil {
		return err
	}
	if protected, err := g.settledHas(host, hd, ProtectionFromRed); err != nil || !protected {
		return err
	}
	return unsupported("protection-from-an-attachment",
		"%s, red, is attached to %s, which has protection from red; the reference does not model what protection does to Auras and Equipment (CR 702.16c-d)", q.ID, host.ID)
}

// unorderedByRule refuses permanents a state-based action moves at once
// (CR 704.3) among which one owner has two or more cards: they go to one
// zone together, where the owner arranges them (CR 404.3, 730.3a-b), and
// no action scripts that choice. A mutant plays on, taking them as they
// come.
func (g *game) unorderedByRule(ids []model.ObjectID) error {
	if g.mutated() {
		return nil
	}
	cards := map[model.PlayerID][]model.ObjectID{}
	for _, id := range ids {
		for _, c := range g.st.Permanent(id).Components {
			if o := g.obj(c.Object); !o.Token {
				cards[o.Owner] = append(cards[o.Owner], c.Object)
			}
		}
	}
	for _, owner := range slices.Sorted(maps.Keys(cards)) {
		if cs := cards[owner]; len(cs) > 1 {
			return unsupported("state-based-action-order",
				"cards %v of %v, all %s's, leave the battlefield at once by a state-based action (CR 704.3, 704.5m) for one zone, where their owner arranges them (CR 404.3, 730.3a-b); no action scripts that choice", cs, ids, owner)
		}
	}
	return nil
}

// isAura, isEquipment and isCreature read a permanent's subtypes and
// types from its characteristics.
func (g *game) isAura(p *model.Permanent) bool      { return g.hasType(p, "Aura", true) }
func (g *game) isEquipment(p *model.Permanent) bool { return g.hasType(p, "Equipment", true) }
func (g *game) isCreature(p *model.Permanent) bool  { return g.hasType(p, "creature", false) }

func (g *game) hasType(p *model.Permanent, name string, sub bool) bool {
	d, err := g.derive(p)
	if err != nil {
		return false
	}
	if sub {
		return slices.Contains(d.Characteristics.Subtypes, name)
	}
	return slices.Contains(d.Characteristics.Types, name)
}

// found returns the cards that departed permanent id became that are still
// in the zone they went to (CR 400.7, 730.3c, 712.21c). Tokens are never
// found: they ceased to exist (CR 111.8).
func (g *game) found(id model.ObjectID) ([]model.Placement, error) {
	dep, ok := g.gone[id]
	if !ok {
		return nil, invalid("%s has not left the battlefield during this scenario", id)
	}
	var out []model.Placement
	for _, m := range dep.moves {
		if g.obj(m.Object).Token {
			continue
		}
		if m.To != model.Graveyard && m.To != model.Exile {
			return nil, unsupported("find-in-hidden-zone", "%s went to a %s, where an effect can't find it", m.Object, m.To)
		}
		if z, _ := g.zoneOf(m.Object); z == m.To {
			out = append(out, m)
		}
	}
	return out, nil
}

// returnFound returns each card a departed permanent became to the
// battlefield as its own permanent (CR 730.3c, 712.21c).
func (g *game) returnFound(a *model.Action) error {
	if a.Choices.Position != "" || a.Choices.Replacement != "" || a.Choices.CommandZone != nil || a.Choices.May != nil {
		return invalid("returning cards leaves only their timestamp order to choose")
	}
	// CR 613.7m: permanents entering at once are timestamped in the order
	// their controller chooses.
	order, err := g.foundInOrder(a, false)
	if err != nil {
		return err
	}
	for _, c := range order {
		if g.def(c).InstantOrSorcery() {
			// CR 400.4a: an instant or sorcery card stays where it is,
			// though it was a face-down permanent once.
			g.nothingHappens("400.4a", c)
			continue
		}
		from, _ := g.zoneOf(c)
		if err := g.takeFromZone(c, from); err != nil {
			return err
		}
		controller := a.Player
		if controller == "" {
			controller = g.obj(c).Owner
		}
		p := model.Permanent{ID: model.EnteredID(c, g.action), Controller: controller, Components: []model.Component{{Object: c}}}
		if g.is(bugStatusSurvivesZoneChange) {
			was := g.gone[a.Object].status
			p.Status.Tapped, p.Status.Flipped = was.Tapped, was.Flipped
		}
		for k, n := range a.Counters {
			if p.Counters == nil {
				p.Counters = map[string]int{}
			}
			p.Counters[k] = n
		}
		if err := g.enter(p, from); err != nil {
			return err
		}
	}
	if len(order) == 0 {
		g.nothingHappens("400.7", a.Object)
	}

	return nil
}

// exileFound is Mimic Vat's imprint: one choice for every card the dead
// creature became (CR 712.21c); if it exiles any, the cards exiled with
// the source before go to their owners' graveyards, all at once.
func (g *game) exileFound(a *model.Action) error {
	if err := g.exileFoundFits(a); err != nil {
		return err
	}
	if !*a.Choices.May {
		if _, err := g.found(a.Object); err != nil {
			return err
		}
		if len(a.Choices.Order) > 0 {
			return invalid("choices.order does not fit: nothing is exiled")
		}
		return nil
	}
	found, err := g.found(a.Object)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		// The card is a new object the ability can't find (CR 400.7):
		// nothing is exiled, so nothing exiled before returns.
		if len(a.Choices.Order) > 0 {
			return invalid("choices.order does not fit: nothing is exiled")
		}
		g.nothingHappens("400.7", a.Object)
		return nil
	}
	before, back, ordered, err := g.linkedReturn(a)
	if err != nil {
		return err
	}
	order, err := g.foundInOrder(a, ordered)
	if err != nil {
		return err
	}
	if err := g.noCommanderMoved(append(slices.Clone(order), back...)); err != nil {
		return err
	}
	if err := g.noReplacementOnReturn(back); err != nil {
		return err
	}
	return g.exileAndReturn(a.Source, order, back, before)
}

// exileFoundFits checks the scripted choices of Mimic Vat's imprint and
// that the ability triggered at all, before anything moves: a.Object died
// as a nontoken creature and the source is still on the battlefield.
func (g *game) exileFoundFits(a *model.Action) error {
	if g.probing() && a.Choices.May == nil {
		g.probe.May, a.Choices.May = true, model.Bool(true)
	}
	if a.Choices.May == nil {
		return invalid("choices.may is required: the ability says \"you may\"")
	}
	if a.Choices.Position != "" || a.Choices.Replacement != "" || a.Choices.CommandZone != nil {
		return invalid("this action leaves only choices.may and choices.order to choose")
	}
	dep, ok := g.gone[a.Object]
	if !ok {
		return invalid("%s has not left the battlefield during this scenario", a.Object)
	}
	if !dep.wasCreature || dep.wasToken || dep.moves[0].To != model.Graveyard {
		return invalid("%s did not die as a nontoken creature, so the ability did not trigger", a.Object)
	}
	if g.st.Permanent(a.Source) == nil {
		return invalid("source %s is not on the battlefield", a.Source)
	}
	return nil
}

// exileAndReturn exiles the cards of order from their graveyards and links
// them to source, then puts the cards of back into their owners'
// graveyards and unlinks the cards of before, so that source's link names
// the new cards only.
func (g *game) exileAndReturn(source model.ObjectID, order, back, before []model.ObjectID) error {
	for _, c := range order {
		if err := g.takeFromZone(c, model.Graveyard); err != nil {
			return err
		}
		g.place(model.Exile, []model.ObjectID{c})
		g.emit(model.Event{Kind: model.ZoneChange, Object: c, From: model.Graveyard, To: model.Exile, Objects: 1, Cards: 1})
	}
	g.link(source, order...)
	// Each card goes on top of its owner's graveyard in turn, so the last
	// placed, the first of the scripted order, ends on top.
	for _, c := range slices.Backward(back) {
		if err := g.takeFromZone(c, model.Exile); err != nil {
			return err
		}
		g.place(model.Graveyard, []model.ObjectID{c})
		g.emit(model.Event{Kind: model.ZoneChange, Object: c, From: model.Exile, To: model.Graveyard, Objects: 1, Cards: 1})
		g.emit(model.Event{Kind: model.Trigger, Observer: model.CardToGraveyard, Object: c})
	}
	for i := range g.st.Links {
		if g.st.Links[i].Source == source {
			g.st.Links[i].Cards = slices.DeleteFunc(g.st.Links[i].Cards, func(c model.ObjectID) bool { return slices.Contains(before, c) })
		}
	}
	return nil
}

// linkedReturn returns the cards exiled with a.Source before (all of
// them, to unlink) and those of them still in exile, which Mimic Vat puts
// into their owners' graveyards at once, topmost first: an owner arranges
// two or more of theirs (CR 404.3), by a.Choices.Order, and ordered says
// so. One action orders one group of cards, so the cards a.Object became
// must then be one at most.
func (g *game) linkedReturn(a *model.Action) (before, back []model.ObjectID, ordered bool, err error) {
	for _, l := range g.st.Links {
		if l.Source == a.Source {
			before = slices.Clone(l.Cards)
		}
	}
	byOwner := map[model.PlayerID][]model.ObjectID{}
	for _, c := range before {
		if z, _ := g.zoneOf(c); z == model.Exile {
			back = append(back, c)
			byOwner[g.obj(c).Owner] = append(byOwner[g.obj(c).Owner], c)
		}
	}
	var group []model.ObjectID
	for _, cs := range byOwner {
		if len(cs) < 2 {
			continue
		}
		if group != nil {
			return nil, nil, false, unsupported("several-ordered-groups", "the cards exiled with %s before go to two graveyards at once, each in an order its owner picks", a.Source)
		}
		group = cs
	}
	if group == nil {
		return before, back, false, nil
	}
	found, err := g.found(a.Object)
	if err != nil {
		return nil, nil, false, err
	}
	if len(found) > 1 {
		return nil, nil, false, unsupported("several-ordered-groups", "the cards %s became are exiled in an order and the cards exiled with %s before go to a graveyard in another, at once", a.Object, a.Source)
	}
	order, err := g.pickOrder(a.Choices.Order, group)
	if err != nil {
		return nil, nil, false, fmt.Errorf("%w; they were exiled with %s and go to %s's graveyard at once, where their owner arranges them (CR 404.3)", err, a.Source, g.obj(group[0]).Owner)
	}
	// The other owner's card, if any, is alone in its graveyard: where it
	// comes in the list makes no difference.
	back = slices.DeleteFunc(back, func(c model.ObjectID) bool { return slices.Contains(group, c) })
	return before, append(back, order...), true, nil
}

// noCommanderMoved refuses an action that puts commander cards into
// exile or a graveyard from another zone: their owner may then put them
// into the command zone (CR 903.9a), a choice only the move of a
// permanent scripts. A mutant plays on, keeping them where they go.
func (g *game) noCommanderMoved(cards []model.ObjectID) error {
	if g.mutated() {
		return nil
	}
	for _, c := range cards {
		if g.obj(c).Commander {
			return unsupported("commander-moved-by-effect",
				"commander %s goes to a graveyard or exile from another zone, and its owner may put it into the command zone (CR 903.9a); only the move of a permanent scripts that choice (choices.command_zone)", c)
		}
	}
	return nil
}

// noReplacementOnReturn refuses Mimic Vat's return of cards to graveyards
// where a replacement effect would send them elsewhere: the model applies
// replacement effects to permanents leaving the battlefield only. A
// mutant plays on, ignoring them.
func (g *game) noReplacementOnReturn(cards []model.ObjectID) error {
	if g.mutated() {
		return nil
	}
	for _, c := range cards {
		reps, err := g.replacements(g.obj(c).Owner)
		if err != nil {
			return err
		}
		if len(reps) > 0 {
			return unsupported("replacement-on-linked-return",
				"%s returns from exile to its owner's graveyard, where the replacement effect of %s applies; the model applies replacement effects only to permanents leaving the battlefield", c, reps[0].source)
		}
	}
	return nil
}

// foundInOrder returns the cards the departed permanent a.Object became
// that an effect can still find, in the order a player scripted for them
// when there are several. orderedElsewhere says a.Choices.Order orders
// other cards of the action, so it is not read here.
func (g *game) foundInOrder(a *model.Action, orderedElsewhere bool) ([]model.ObjectID, error) {
	found, err := g.found(a.Object)
	if err != nil {
		return nil, err
	}
	var cards []model.ObjectID
	for _, m := range found {
		cards = append(cards, m.Object)
	}
	order := cards
	switch {
	case orderedElsewhere:
	case len(cards) > 1:
		if order, err = g.pickOrder(a.Choices.Order, cards); err != nil {
			return nil, err
		}
	case len(a.Choices.Order) > 0 && !slices.Equal(a.Choices.Order, cards):
		return nil, invalid("choices.order %v does not fit the cards found, %v", a.Choices.Order, cards)
	}
	if len(order) > 1 && g.is(bugFindFirstCardOnly) {
		order = order[:1]
	}
	return order, nil
}
