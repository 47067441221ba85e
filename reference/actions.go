package reference

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

func (g *game) do(a *model.Action) error {
	var refusal error
	if g.watch != nil {
		// Looked for in the state before the action, but given only if
		// the action is allowed: an ability the reference does not model
		// can't change an action the rules forbid anyway.
		if refusal = g.refuseBefore(a); refusal != nil && !errors.Is(refusal, ErrUnsupported) {
			return refusal
		}
	}
	if err := g.act(a); err != nil {
		return err
	}
	if refusal != nil {
		return refusal
	}
	// CR 704.3: state-based actions are checked after every action.
	if err := g.stateBasedActions(a); err != nil {
		return err
	}
	if g.watch != nil {
		return g.refuseAfter(a)
	}
	return nil
}

// act performs one action, before state-based actions.
func (g *game) act(a *model.Action) error {
	switch a.Type {
	case model.Cast:
		return g.cast(a, false)
	case model.CastMutate:
		return g.cast(a, true)
	case model.Resolve:
		return g.resolve(a)
	case model.Merge:
		return g.bareMerge(a)
	case model.Meld:
		return g.meld(a)
	case model.TurnFaceDown:
		return g.turnFaceDown(a)
	case model.TurnFaceUp:
		return g.turnFaceUp(a)
	case model.Manifest:
		return g.manifest(a)
	case model.Transform, model.Convert:
		return g.transform(a)
	case model.Flip:
		return g.flip(a)
	case model.Tap, model.Untap:
		return g.tap(a)
	case model.PhaseOut, model.PhaseIn:
		return g.phase(a)
	case model.Move:
		return g.move(a)
	case model.Return:
		return g.returnFound(a)
	case model.ExileFound:
		return g.exileFound(a)
	case model.AddCounters:
		return g.addCounters(a)
	case model.Pump:
		return g.pump(a)
	case model.BecomeCopy:
		return g.becomeCopy(a)
	case model.TokenCopy:
		return g.tokenCopy(a)
	case model.NextTurn:
		return g.nextTurn()
	case model.CreateToken:
		return g.createToken(a)
	case model.EnterAsCopy:
		return g.enterAsCopy(a)
	case model.Attack:
		return g.attack(a)
	case model.DestroyAll:
		return g.destroyAll(a)
	}
	return invalid("unknown action type %q", a.Type)
}

func (g *game) noChoices(a *model.Action) error {
	if !a.Choices.IsZero() {
		b, _ := json.Marshal(a.Choices)
		return invalid("a %s action leaves no choice to a player, but the scenario scripts choices %s", a.Type, b)
	}
	return nil
}

func (g *game) nothingHappens(rule model.RuleID, id model.ObjectID) {
	g.emit(model.Event{Kind: model.NothingHappens, Rule: rule, Object: id})
}

func (g *game) statusChanged(rule model.RuleID, p *model.Permanent) {
	st := p.Status
	g.emit(model.Event{Kind: model.StatusChange, Rule: rule, Object: p.ID, Status: &st})
}

// cast puts a card from its owner's hand onto the stack. A mutating
// creature spell targets a non-Human creature with the same owner
// (CR 702.140a), whose ward may trigger (see ward).
func (g *game) cast(a *model.Action, mutate bool) error {
	choices := a.Choices
	if mutate {
		choices.May = nil // whether the caster pays for ward: see ward
	}
	if err := g.noChoices(&model.Action{Type: a.Type, Choices: choices}); err != nil {
		return err
	}
	o, err := g.cardInHand(a.Object)
	if err != nil {
		return err
	}
	d := g.def(a.Object)
	so := model.StackObject{Object: a.Object, Controller: o.Owner}
	countered := false
	if err := g.castable(a, d, mutate); err != nil {
		return err
	}
	if err := g.castForbidden(a, o.Owner, d); err != nil {
		return err
	}
	switch {
	case mutate:
		if err := g.mutateTargetLegal(a.Target, a.Object); err != nil {
			if errors.Is(err, ErrUnsupported) {
				return err
			}
			// CR 601.2c: a spell can't be cast without a legal target.
			rule := model.RuleID("702.140a")
			var bad *badTarget
			if errors.As(err, &bad) {
				rule = bad.rule
			}
			return illegal(rule, "%s can't target %s: %v", a.Object, a.Target, err)
		}
		so.Target = a.Target
		if countered, err = g.ward(a, o.Owner); err != nil {
			return err
		}
	case a.Method != "":
		so.FaceDownBy = a.Method
	}
	if err := g.takeFromZone(a.Object, model.Hand); err != nil {
		return err
	}
	g.st.Stack = append(g.st.Stack, so)
	g.emit(model.Event{Kind: model.ZoneChange, Object: a.Object, From: model.Hand, To: model.StackZone, Objects: 1, Cards: 1})
	if countered {
		return g.counter(a.Object, o.Owner)
	}
	return nil
}

// counter puts spell, a card its owner cast, from the stack into its
// owner's graveyard without resolving it (CR 701.6a), or where the one
// replacement effect that applies to a card going there sends it instead
// (614.1a, 616.1: Rest in Peace or Leyline of the Void to exile, Wheel of
// Sun and Moon to the bottom of its library, revealed). A card that goes
// to the graveyard is a card put there from anywhere: card_to_graveyard.
// Where several apply, their order is its controller's choice, which the
// cast can't script: refused by name.
func (g *game) counter(spell model.ObjectID, owner model.PlayerID) error {
	reps, err := g.replacements(owner)
	if err != nil {
		return err
	}
	to := model.Graveyard
	var by *replacement
	switch len(reps) {
	case 0:
	case 1:
		by = &reps[0]
		to = by.to
	default:
		var ids []model.ObjectID
		for _, r := range reps {
			ids = append(ids, r.source)
		}
		return unsupported("countered-spell-replacements", "replacement effects of %v apply to %s, countered, going to its owner's graveyard: its controller picks the one that applies (CR 616.1), which a cast can't script", ids, spell)
	}
	if g.is(bugCounteredSpellExiled) {
		to = model.Exile
	}
	g.st.Stack = g.st.Stack[:len(g.st.Stack)-1]
	if by != nil && by.reveal {
		g.emit(model.Event{Kind: model.Reveal, Object: spell, Player: owner, Revealed: []model.ObjectID{spell}, Source: by.source})
	}
	g.place(to, []model.ObjectID{spell})
	g.emit(model.Event{Kind: model.ZoneChange, Rule: "701.6a", Object: spell, From: model.StackZone, To: zoneName(to), Objects: 1, Cards: 1})
	if to == model.Graveyard && !g.is(bugCounteredSpellNoTrigger) {
		g.emit(model.Event{Kind: model.Trigger, Observer: model.CardToGraveyard, Object: spell})
	}
	return nil
}

// ward checks the payment a mutating spell's cast scripts for the ward
// {2} of its target (CR 702.21a): ward triggers when the permanent
// becomes the target of a spell an opponent of its controller controls,
// and counters the spell unless the caster pays, which choices.may says
// (true: pays). The format plays the trigger's resolution as part of the
// cast: a paid ward leaves the spell on the stack, an unpaid one counters
// it (see cast).
func (g *game) ward(a *model.Action, caster model.PlayerID) (countered bool, err error) {
	p := g.st.Permanent(a.Target)
	d, err := g.derive(p)
	if err != nil {
		return false, err
	}
	warded := false
	if p.Controller != caster || g.is(bugWardOnOwnSpells) {
		if warded, err = g.settledHas(p, d, model.Ward2); err != nil {
			return false, err
		}
	}
	if warded && g.probing() && a.Choices.May == nil {
		g.probe.May, a.Choices.May = true, model.Bool(true)
	}
	if warded && g.mutated() {
		// A mutant counters the spell unless it is paid for, the payment
		// scripted or not, as its bugs make it.
		paid := a.Choices.May != nil && *a.Choices.May
		if !paid && g.is(bugWardNeverCounters) {
			return false, nil
		}
		return !paid || g.is(bugWardIgnoresPayment), nil
	}
	switch {
	case !warded && a.Choices.May != nil:
		return false, invalid("choices.may says whether the caster pays for the target's ward, and no ward triggers: %s has no ward, or its controller casts the spell (CR 702.21a)", a.Target)
	case !warded:
		return false, nil
	case a.Choices.May == nil:
		return false, invalid("choices.may is required: %s has ward {2} and %s, an opponent of the caster, controls it, so ward triggers and counters the spell unless its caster pays {2} (CR 702.21a); true pays", a.Target, p.Controller)
	}
	return !*a.Choices.May, nil
}

// castable checks that card d can be cast as a asks, whatever the game:
// for mutate, a card with mutate, face up, at an object of the scenario;
// face down, one with the morph or disguise it is cast by; otherwise a
// permanent spell.
func (g *game) castable(a *model.Action, d *model.CardDef, mutate bool) error {
	switch {
	case mutate && !d.Front.HasAbility(model.Mutate):
		return invalid("%s (%s) has no mutate ability", a.Object, d.Name)
	case mutate && a.Method != "":
		return invalid("a mutating creature spell is not cast face down")
	case mutate:
		if g.st.Permanent(a.Target) == nil && g.objects[a.Target] == nil {
			if _, gone := g.gone[a.Target]; !gone {
				return invalid("target %s is no object of the scenario", a.Target)
			}
		}
	case a.Method == model.ByMorph || a.Method == model.ByDisguise:
		if !d.Front.HasAbility(model.AbilityID(a.Method)) {
			return invalid("%s (%s) has no %s ability (CR 702.37a, 702.168a)", a.Object, d.Name, a.Method)
		}
	case a.Method != "":
		return invalid("a card is cast face down only with morph or disguise, not %q", a.Method)
	case d.InstantOrSorcery():
		return unsupported("instant-and-sorcery-spells", "the model casts only permanent spells")
	}
	return nil
}

// castForbidden returns the not_allowed of a spell an effect forbids its
// caster to cast (CR 601.3): Brisela's, while an opponent of the caster
// controls it, forbids a spell of mana value 3 or less. The spell is
// judged as it would be cast: a face-down one has no mana cost, so mana
// value 0 (702.37c, 702.168b); a mutating one, its card's (the mutate
// cost is an alternative cost and leaves the mana cost alone). A
// restriction whose quality the caster's choices could change (601.3a)
// does not arise: the format's spells have no X and no modes.
func (g *game) castForbidden(a *model.Action, caster model.PlayerID, d *model.CardDef) error {
	mv := d.Front.ManaValue()
	if (a.Method == model.ByMorph || a.Method == model.ByDisguise) && !g.is(bugFaceDownSpellKeepsManaValue) {
		mv = 0
	}
	if g.is(bugCastRestrictionIgnored) || mv > 3 || g.is(bugCastRestrictionSparesThree) && mv == 3 {
		return nil
	}
	for i := range g.st.Battlefield {
		p := &g.st.Battlefield[i]
		if p.Status.PhasedOut || p.Controller == caster && !g.is(bugCastRestrictionBindsController) {
			continue // a phased-out one does not exist (702.26b)
		}
		dp, err := g.derive(p)
		if err != nil {
			return err
		}
		forbids, err := g.settledHas(p, dp, OpponentsCantCastLow)
		if err != nil {
			return err
		}
		if forbids {
			return illegal("601.3", "%s controls %s, whose effect forbids %s to cast %s, a spell of mana value %d", p.Controller, p.ID, caster, a.Object, mv)
		}
	}
	return nil
}

// cardInHand returns card id, which must be in its owner's hand: the
// cards a spell is cast from, or Clone enters from.
func (g *game) cardInHand(id model.ObjectID) (*model.Object, error) {
	o := g.objects[id]
	if o == nil || o.Token {
		return nil, invalid("%s is not a card", id)
	}
	if z, _ := g.zoneOf(id); z != model.Hand {
		return nil, invalid("%s is not in its owner's hand", id)
	}
	return o, nil
}

// mutateTargetLegal checks that permanent id is a legal target for
// spell, a mutating creature spell its owner controls: a non-Human
// creature with the same owner (CR 702.140a), phased in (702.26b),
// without shroud (702.18a), without hexproof if an opponent of the
// spell's controller (its owner) controls it (702.11b), and without
// protection from a colour the spell has (702.16b). What makes it
// illegal is a *badTarget naming the rule.
func (g *game) mutateTargetLegal(id, spell model.ObjectID) error {
	owner := g.obj(spell).Owner
	p := g.st.Permanent(id)
	if p == nil {
		return &badTarget{"702.140a", fmt.Sprintf("%s is not on the battlefield", id)}
	}
	if p.Status.PhasedOut && !g.is(bugMergeIntoPhasedOut) {
		return &badTarget{"702.26b", fmt.Sprintf("%s is phased out (CR 702.26b)", id)}
	}
	d, err := g.derive(p)
	if err != nil {
		return err
	}
	// Each ability is asked only where it could forbid the target, so that
	// one the rules leave open (unsettled-ability) is refused only there.
	shroud, err := g.settledHas(p, d, Shroud)
	if err != nil {
		return err
	}
	hexproof, protected := false, false
	if p.Controller != owner || g.is(bugHexproofAsShroud) {
		if hexproof, err = g.settledHas(p, d, Hexproof); err != nil {
			return err
		}
	}
	// The spell's colours are its card's front face's (CR 712.8a).
	if g.protectedFrom([]model.AbilityID{ProtectionFromRed}, g.def(spell).Front.Colors) {
		if protected, err = g.settledHas(p, d, ProtectionFromRed); err != nil {
			return err
		}
	}
	switch {
	case !slices.Contains(d.Characteristics.Types, "creature") && !g.is(bugMutateTargetsNoncreature):
		return &badTarget{"702.140a", fmt.Sprintf("%s is not a creature (CR 702.140a)", id)}
	case slices.Contains(d.Characteristics.Subtypes, "Human") && !g.is(bugMutateTargetsHuman):
		return &badTarget{"702.140a", fmt.Sprintf("%s is a Human (CR 702.140a)", id)}
	case g.ownerOf(p) != owner && !g.is(bugMutateTargetsOtherOwner):
		return &badTarget{"702.140a", fmt.Sprintf("%s is owned by %s, the spell by %s (CR 702.140a)", id, g.ownerOf(p), owner)}
	case shroud && !g.is(bugMutateTargetsShroud):
		return &badTarget{"702.18a", fmt.Sprintf("%s has shroud (CR 702.18a)", id)}
	case hexproof && (p.Controller != owner && !g.is(bugMutateTargetsHexproof) || g.is(bugHexproofAsShroud)):
		return &badTarget{"702.11b", fmt.Sprintf("%s has hexproof, and %s, an opponent of the spell's controller, controls it (CR 702.11b)", id, p.Controller)}
	case protected && !g.is(bugMutateTargetsProtection):
		return &badTarget{"702.16b", fmt.Sprintf("%s has protection from red, and %s is red (CR 702.16b)", id, spell)}
	}
	return nil
}

// A badTarget is why a permanent is not a legal target of a mutating
// creature spell, and the rule that says so.
type badTarget struct {
	rule model.RuleID
	why  string
}

func (e *badTarget) Error() string { return e.why }

// resolve resolves the top object of the stack (CR 608.3).
func (g *game) resolve(a *model.Action) error {
	if len(g.st.Stack) == 0 {
		return invalid("the stack is empty")
	}
	so := g.st.Stack[len(g.st.Stack)-1]
	if so.Target != "" {
		err := g.mutateTargetLegal(so.Target, so.Object)
		var bad *badTarget
		if err != nil && !errors.As(err, &bad) {
			return err
		}
		if err == nil {
			// CR 702.140c: a legal target; the spell merges with it.
			if (g.probing() || g.mutated()) && a.Choices.Position == "" {
				// A mutant plays on where its bug leaves a choice unscripted.
				if g.probing() {
					g.probe.Position = true
				}
				a.Choices.Position = model.Top
			}
			if a.Choices.Position == "" {
				return invalid("choices.position is required: %s merges with %s, and its controller puts it on top or underneath (CR 702.140c)", so.Object, so.Target)
			}
			if len(a.Choices.Order) > 0 || a.Choices.Replacement != "" || a.Choices.CommandZone != nil || a.Choices.May != nil {
				return invalid("resolving a mutating spell leaves only choices.position to choose")
			}
			g.st.Stack = g.st.Stack[:len(g.st.Stack)-1]
			return g.mergeInto(so.Object, so.Target, a.Choices.Position, model.StackZone, true)
		}
		// CR 702.140b: the target is illegal; it resolves as a creature spell.
		g.emit(model.Event{Kind: model.NothingHappens, Rule: "702.140b", Object: so.Object})
		if g.is(bugIllegalTargetFizzles) {
			g.st.Stack = g.st.Stack[:len(g.st.Stack)-1]
			g.place(model.Graveyard, []model.ObjectID{so.Object})
			return nil
		}
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	g.st.Stack = g.st.Stack[:len(g.st.Stack)-1]
	c := model.Component{Object: so.Object}
	if so.FaceDownBy != "" {
		c.FaceDown, c.FaceDownBy = true, so.FaceDownBy // CR 708.3, 702.37c
	}
	p := model.Permanent{ID: model.EnteredID(so.Object, g.action), Controller: so.Controller, Components: []model.Component{c}}
	return g.enter(p, model.StackZone) // CR 608.3a
}

// copyAndMerge says what the rules leave open when a card merges under a
// permanent a copy effect gives its characteristics. CR 613.2a and 730.2a
// order the copy and the merge by timestamp, and the mutate notes say a
// copy that mutates takes the merge after the copy, so a card merged on
// top gives its own. Underneath, neither says whether "the topmost
// component's characteristics" (730.2a) are its card's printed values or
// the values the copy effect gave the permanent.
const copyAndMerge = "a card merging under %s, whose characteristics a copy effect gives: CR 613.2a and 730.2a order the copy and the merge by timestamp, but leave open whether the topmost component's characteristics (730.2a) are its card's printed values or those the copy effect gave"

// copiedNow reports whether a copy effect gives p its characteristics: a
// copy effect newer than p's latest merge, or a topmost component that
// entered as a copy (CR 707.5, 613.2a).
func (g *game) copiedNow(p *model.Permanent) bool {
	at, merged := g.mergedAt[p.ID]
	for _, e := range p.Effects {
		if e.Kind == model.EffectCopy && (!merged || e.Timestamp > at) {
			return true
		}
	}
	return g.cloned[p.Components[0].Object]
}

// mergeInto merges card id, leaving zone from, with permanent target
// (CR 730.2).
func (g *game) mergeInto(id, target model.ObjectID, pos model.Position, from model.Zone, mutating bool) error {
	p := g.st.Permanent(target)
	if err := g.refuseMerge(p, id, target, pos, mutating); err != nil {
		return err
	}
	if g.mergedAt == nil {
		g.mergedAt, g.joinedAt = map[model.ObjectID]int{}, map[model.ObjectID]int{}
	}
	// Every effect on p so far is older than this merge (CR 613.7).
	g.mergedAt[target], g.joinedAt[id] = g.ts, g.ts
	wasFaceDown := p.Status.FaceDown
	g.addComponent(p, id, pos, mutating)
	// CR 730.2b: the object leaves its zone and becomes part of the
	// permanent, which does not enter the battlefield; CR 730.2c: it is
	// the same object, so control, effects and status carry on.
	g.emit(model.Event{Kind: model.ZoneChange, Rule: "730.2b", Object: id, From: from, To: model.Battlefield, Objects: 1, Cards: 1})
	rule := model.RuleID("730.2")
	if mutating {
		rule = "702.140c"
	}
	g.emit(model.Event{Kind: model.Merged, Rule: rule, Object: target, Source: id})
	// CR 730.2e: the topmost component sets the face-down status; becoming
	// face up this way is not turning face up.
	if p.Status.FaceDown = p.Components[0].FaceDown; p.Status.FaceDown != wasFaceDown {
		g.statusChanged("730.2e", p)
		if g.is(bugMergeTurnsFaceUp) {
			g.emit(model.Event{Kind: model.Trigger, Observer: model.TurnedFaceUp, Object: p.ID})
		}
	}
	if g.is(bugFaceDownIfAnyFaceDown) {
		p.Status.FaceDown = slices.ContainsFunc(p.Components, func(c model.Component) bool { return c.FaceDown })
	}
	if g.is(bugMergeTriggersEnters) {
		g.emit(model.Event{Kind: model.Trigger, Observer: model.CreatureEnters, Object: p.ID})
	}
	if g.is(bugMergeTriggersPermanentEnters) {
		g.emit(model.Event{Kind: model.Trigger, Observer: model.PermanentEnters, Object: p.ID})
	}
	if g.is(bugMergeEntersAsCard) {
		g.emit(model.Event{Kind: model.Trigger, Observer: model.CreatureEnters, Object: model.EnteredID(id, g.action)})
	}
	if g.is(bugMergeNewObject) {
		p.ID = model.EnteredID(id, g.action)
		return nil
	}
	if !mutating {
		return nil
	}
	return g.mutateTriggers(p)
}

// refuseMerge refuses merging card id with permanent p (target) where the
// rules leave the result open or the model can't represent it: a melded
// permanent, a card put under a permanent whose characteristics a copy
// effect gives, a bare merge with a mutated permanent, or several owners.
func (g *game) refuseMerge(p *model.Permanent, id, target model.ObjectID, pos model.Position, mutating bool) error {
	if g.melded(p) {
		return unsupported("merge-with-melded-permanent",
			"CR 730 does not say which face of a meld card a component shows, nor which card of the pair is topmost")
	}
	// On top, the merge is the later effect in layer 1a and gives the new
	// card's characteristics (CR 613.2a, 730.2a; mutate notes: a copy that
	// mutates takes the mutation after the copy). Underneath, the
	// topmost component is the copy, and which values it gives is open.
	if pos == model.Bottom && g.copiedNow(p) {
		return unsupported("copy-effect-on-merged-permanent", copyAndMerge, target)
	}
	if !mutating && p.Mutated {
		return unsupported("bare-merge-with-mutated-permanent",
			"CR 730.2a and 702.140e do not say whether a merge that is not a mutation keeps every component's abilities")
	}
	if g.obj(id).Owner != g.ownerOf(p) {
		return unsupported("merged-permanent-with-several-owners",
			"%s and %s have different owners; CR 730.3a assumes a merged permanent has one owner", id, target)
	}
	return nil
}

// addComponent puts card id into p's components on top or underneath, as
// pos says, and marks p mutated if it mutates, so that p is represented by
// one more card; the status of p is left to the caller.
func (g *game) addComponent(p *model.Permanent, id model.ObjectID, pos model.Position, mutating bool) {
	c := model.Component{Object: id}
	if g.is(bugMergeKeepsFaceDown) && p.Status.FaceDown && pos == model.Top {
		c.FaceDown, c.FaceDownBy = true, p.Components[0].FaceDownBy
	}
	if g.is(bugMutateAlwaysTop) && mutating {
		pos = model.Top
	}
	if pos == model.Top {
		p.Components = append([]model.Component{c}, p.Components...)
	} else {
		p.Components = append(p.Components, c)
	}
	if mutating {
		p.Mutated = true // CR 702.140c
		if g.is(bugMutateDropsTargetCard) {
			// The target's cards are lost to the game; its tokens stay.
			p.Components = slices.DeleteFunc(slices.Clone(p.Components), func(comp model.Component) bool { return comp != c && !g.obj(comp.Object).Token })
		}
	}
	switch {
	case g.is(bugMergeResetsObject):
		p.Counters, p.Effects, p.ControlledSinceTurnStart = nil, nil, false
	case g.is(bugMergeUntaps):
		p.Status.Tapped = false
	}
}

// mutateTriggers emits the mutate triggers of p, which has just mutated,
// one for each "whenever this creature mutates" ability of its face-up
// components, whichever has it (mutatesTrigger).
func (g *game) mutateTriggers(p *model.Permanent) error {
	// CR 702.140d: each "whenever this creature mutates" ability of the
	// merged permanent triggers, whichever component has it.
	d, err := g.derive(p)
	if err != nil {
		return err
	}
	if err := g.refuseUnsettledTrigger(p); err != nil {
		return err
	}
	if err := g.refuseOthersMutateTriggers(p); err != nil {
		return err
	}
	for _, c := range p.Components {
		if c.FaceDown {
			continue
		}
		f, _ := g.componentFace(p, c)
		for _, ab := range f.Abilities {
			if !g.mutatesTrigger(ab) || !slices.Contains(d.Characteristics.Abilities, ab) {
				continue
			}
			g.emit(model.Event{Kind: model.Trigger, Observer: model.Mutates, Object: p.ID, Source: c.Object})
			if g.is(bugMutateTriggerTopOnly) {
				return nil
			}
		}
	}
	return nil
}

// mutatesTrigger reports whether ability ab triggers when the permanent
// that has it mutates (CR 702.140d): on_mutate, "whenever this creature
// mutates", or an ability the scenario declares triggered on the mutates
// observer (model.AbilityKind), such as Essence Symbiote's "whenever a
// creature you control mutates", which triggers when its own permanent
// mutates too (official ruling, 2020-04-17).
func (g *game) mutatesTrigger(ab model.AbilityID) bool {
	if ab == model.OnMutate {
		return true
	}
	k, ok := g.declared[ab]
	return ok && k.Kind == model.KindTriggered && k.Observer == model.Mutates
}

// refuseOthersMutateTriggers refuses p's mutating when another permanent
// of its controller has an ability declared triggered on the mutates
// observer: the declaration does not say whether it speaks of its own
// permanent ("this creature") or of any creature its controller controls
// ("a creature you control", 702.140d), and the two trigger differently
// here.
func (g *game) refuseOthersMutateTriggers(p *model.Permanent) error {
	for i := range g.st.Battlefield {
		q := &g.st.Battlefield[i]
		if q.ID == p.ID || q.Controller != p.Controller || q.Status.PhasedOut {
			continue
		}
		d, err := g.derive(q)
		if err != nil {
			return err
		}
		for _, ab := range d.Characteristics.Abilities {
			if ab != model.OnMutate && g.mutatesTrigger(ab) {
				return unsupported("mutates-trigger-of-another-permanent",
					"%s mutates, and %s, another permanent of its controller, has %s, declared triggered on the mutates observer: whether it triggers depends on whether it speaks of its own permanent or of any creature its controller controls (CR 702.140d), which the declaration does not say", p.ID, q.ID, ab)
			}
		}
	}
	return nil
}

// bareMerge performs the CR 730.2 primitive with a card from a zone other
// than the battlefield.
func (g *game) bareMerge(a *model.Action) error {
	o := g.objects[a.Object]
	if o == nil || o.Token {
		return invalid("%s is not a card", a.Object)
	}
	z, _ := g.zoneOf(a.Object)
	if z == "" {
		return invalid("%s is not in a zone it can merge from", a.Object)
	}
	if g.def(a.Object).InstantOrSorcery() {
		return unsupported("merge-instant-or-sorcery", "an instant or sorcery card merged face up would be an instant on the battlefield; no rule covers it")
	}
	if _, err := g.permanent(a.Target); err != nil {
		return err
	}
	if g.probing() && a.Choices.Position == "" {
		g.probe.Position, a.Choices.Position = true, model.Top
	}
	if a.Choices.Position == "" {
		return invalid("choices.position is required: %s merges with %s on top or underneath (CR 730.2)", a.Object, a.Target)
	}
	if err := g.takeFromZone(a.Object, z); err != nil {
		return err
	}
	return g.mergeInto(a.Object, a.Target, a.Choices.Position, z, false)
}

// meld exiles two permanents and melds them if they are a meld pair
// (CR 701.42a-c, 712.4a).
func (g *game) meld(a *model.Action) error {
	if a.Object == a.With {
		return invalid("a permanent can't meld with itself")
	}
	if gone, err := g.meldPairGone(a); gone || err != nil {
		return err
	}
	p1, p2, err := g.meldPermanents(a)
	if err != nil {
		return err
	}
	controller := p1.Controller
	// Both are exiled first (CR 712.4a).
	c1, c2 := p1.Components[0].Object, p2.Components[0].Object
	cards, err := g.exileForMeld(a)
	if err != nil {
		return err
	}
	o1, o2 := g.obj(c1), g.obj(c2)
	pair := !o1.Token && !o2.Token && g.def(c1).MeldPartner == g.def(c2).Name && g.def(c2).MeldPartner == g.def(c1).Name
	if g.is(bugMeldAnyPair) && g.def(c1).MeldPartner == g.def(c2).Name {
		for _, c := range cards {
			if err := g.takeFromZone(c, model.Exile); err != nil {
				return err
			}
		}
		p := model.Permanent{ID: model.EnteredID(c1, g.action), Controller: controller,
			Components: []model.Component{{Object: c1, Face: model.Back}, {Object: c2, Face: model.Back}}}
		return g.enter(p, model.Exile)
	}
	if !pair {
		// CR 701.42b-c: they can't be melded and stay in exile; a token
		// there ceases to exist (CR 704.5d).
		g.nothingHappens("701.42c", a.Object)
		return g.orderExile(cards, a.Choices.Order)
	}
	if len(a.Choices.Order) > 0 {
		return invalid("choices.order does not fit: the two cards leave exile as one melded permanent")
	}
	for _, c := range cards {
		if err := g.takeFromZone(c, model.Exile); err != nil {
			return err
		}
	}
	// CR 712.14c: one permanent, both back faces up.
	p := model.Permanent{
		ID: model.EnteredID(c1, g.action), Controller: controller,
		Components: []model.Component{{Object: c1, Face: model.Back}, {Object: c2, Face: model.Back}},
	}
	if g.is(bugMeldFrontFaces) {
		p.Components[0].Face, p.Components[1].Face = "", ""
	}
	return g.enter(p, model.Exile)
}

// meldPairGone reports whether one of the two permanents a melds has left
// the battlefield during the scenario, and if so plays the meld out, since
// the ability then exiles and melds nothing.
func (g *game) meldPairGone(a *model.Action) (bool, error) {
	for _, id := range []model.ObjectID{a.Object, a.With} {
		if _, gone := g.gone[id]; gone && g.st.Permanent(id) == nil {
			// The pair is no longer there: the ability exiles and melds
			// nothing, and what is left stays where it is (CR 701.42c).
			if err := g.noChoices(a); err != nil {
				return true, err
			}
			g.nothingHappens("701.42c", a.Object)
			if g.is(bugMeldExilesTheOneLeft) {
				for _, left := range []model.ObjectID{a.Object, a.With} {
					if p := g.st.Permanent(left); p != nil {
						if _, err := g.leave(p, &model.Action{To: model.Exile}, nil, true); err != nil {
							return true, err
						}
					}
				}
			}
			return true, nil
		}
	}
	return false, nil
}

// meldPermanents returns the two permanents a melds, checking that each is
// one face-up card and that both are a meld pair by name that the
// ability's controller owns and controls, since otherwise its condition is
// not met.
func (g *game) meldPermanents(a *model.Action) (p1, p2 *model.Permanent, err error) {
	p1, err = g.permanent(a.Object)
	if err != nil {
		return nil, nil, err
	}
	p2, err = g.permanent(a.With)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range []*model.Permanent{p1, p2} {
		if len(p.Components) > 1 {
			return nil, nil, unsupported("meld-merged-permanent", "%s is represented by several components; CR 701.42 speaks of two cards", p.ID)
		}
		if p.Status.FaceDown {
			return nil, nil, invalid("%s is face down and has no name, so the meld ability's condition can't be met", p.ID)
		}
	}
	controller := p1.Controller
	for _, p := range []*model.Permanent{p1, p2} {
		if p.Controller != controller || g.ownerOf(p) != controller {
			return nil, nil, invalid("the meld ability needs its controller to own and control both %s and %s", a.Object, a.With)
		}
	}
	d1, _ := g.derive(p1)
	d2, _ := g.derive(p2)
	def1 := g.def(p1.Components[0].Object)
	if def1.Layout != model.LayoutMeld || d2.Characteristics.Name != def1.MeldPartner || d1.Characteristics.Name != def1.Name {
		return nil, nil, invalid("%s (%s) and %s (%s) are not named as a meld pair", a.Object, d1.Characteristics.Name, a.With, d2.Characteristics.Name)
	}
	return p1, p2, nil
}

// exileForMeld exiles the two permanents a melds, one after the other, and
// returns the cards they were, since a token among them ceases to exist
// and can't be melded.
func (g *game) exileForMeld(a *model.Action) ([]model.ObjectID, error) {
	var cards []model.ObjectID
	for _, id := range []model.ObjectID{a.Object, a.With} {
		p := g.st.Permanent(id)
		top := p.Components[0].Object
		if _, err := g.leave(p, &model.Action{To: model.Exile}, nil, true); err != nil {
			return nil, err
		}
		if !g.obj(top).Token {
			cards = append(cards, top)
		}
	}
	return cards, nil
}

// orderExile arranges cards that were just exiled together: the exiling
// player picks their relative timestamp order when there are several
// (CR 613.7m, 730.3b).
func (g *game) orderExile(cards []model.ObjectID, order []model.ObjectID) error {
	if len(cards) < 2 {
		if len(order) > 0 && !slices.Equal(order, cards) {
			return invalid("choices.order %v does not fit the cards exiled, %v", order, cards)
		}
		return nil
	}
	order, err := g.pickOrder(order, cards)
	if err != nil {
		return err
	}
	// They were appended in component order; put them in the chosen order.
	ref := g.player(g.obj(cards[0]).Owner).Zones.Ref(model.Exile)
	*ref = slices.DeleteFunc(*ref, func(id model.ObjectID) bool { return slices.Contains(cards, id) })
	*ref = append(*ref, order...)
	return nil
}

// pickOrder returns the scripted order of the cards in moving, checking
// that it arranges exactly them; while probing it records the need and
// takes them as they are.
func (g *game) pickOrder(order, moving []model.ObjectID) ([]model.ObjectID, error) {
	if g.probing() && len(order) == 0 {
		g.probe.Order = slices.Clone(moving)
		return moving, nil
	}
	err := samePermutation(order, moving)
	if err != nil && g.mutated() {
		// A mutant is a buggy engine, not a strict one: it plays on with
		// what it has rather than reject choices its bug made unfit.
		return moving, nil
	}
	return order, err
}

// samePermutation checks that order arranges exactly the cards in moving.
func samePermutation(order, moving []model.ObjectID) error {
	if len(order) == 0 {
		return invalid("choices.order is required: %d cards move together and a player orders them (%v)", len(moving), moving)
	}
	if slices.Equal(order, moving) {
		return nil // in the order they are in: no sorting, for a stack of any size
	}
	a, b := slices.Sorted(slices.Values(order)), slices.Sorted(slices.Values(moving))
	if !slices.Equal(a, b) {
		return invalid("choices.order %v does not fit the cards moving, %v", order, moving)
	}
	return nil
}

// turnFaceDown turns a permanent face down by an effect that lists no
// characteristics (CR 708.2a).
func (g *game) turnFaceDown(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	if p.Status.FaceDown {
		if g.is(bugRefacedown) {
			for i := range p.Components {
				p.Components[i].FaceDown, p.Components[i].FaceDownBy = true, model.ByEffect
			}
			return nil
		}
		g.nothingHappens("708.2b", p.ID) // already face down
		return nil
	}
	if g.merged(p) && !g.is(bugDfcMergedTurnsFaceDown) {
		for _, c := range p.Components {
			if g.def(c.Object).Layout.DoubleFaced() {
				g.nothingHappens("730.2j", p.ID) // a double-faced component
				g.markFailedFaceDown(p.ID)
				return nil
			}
		}
	} else if g.def(p.Components[0].Object).Layout.DoubleFaced() && !g.is(bugDfcTurnsFaceDown) {
		g.nothingHappens("712.16", p.ID) // melded or double-faced permanent
		g.markFailedFaceDown(p.ID)
		return nil
	}
	// CR 730.2f: each face-up component turns face down.
	for i := range p.Components {
		if i > 0 && g.is(bugTurnTopOnly) {
			break
		}
		if !p.Components[i].FaceDown {
			p.Components[i].Face = ""
			p.Components[i].FaceDown, p.Components[i].FaceDownBy = true, model.ByEffect
		}
	}
	p.Status.FaceDown = true
	p.Timestamp = g.nextTimestamp() // CR 613.7f
	g.statusChanged("730.2f", p)
	// One permanent turned face down, however many cards it has.
	g.emit(model.Event{Kind: model.Trigger, Observer: model.TurnedFaceDown, Object: p.ID})
	if g.is(bugFaceDownPerComponent) {
		for range len(p.Components) - 1 {
			g.emit(model.Event{Kind: model.Trigger, Observer: model.TurnedFaceDown, Object: p.ID})
		}
	}
	return nil
}

// markFailedFaceDown is a mutant's: the permanent that could not be turned
// face down takes the face-down characteristics anyway, though the rules
// say the effect changes none of them (CR 712.16, 730.2j).
func (g *game) markFailedFaceDown(id model.ObjectID) {
	if g.is(bugFailedFaceDownStill22) {
		if g.marked == nil {
			g.marked = map[model.ObjectID]bool{}
		}
		g.marked[id] = true
	}
}

// turnFaceUp turns a face-down permanent face up, by an effect or by a
// special action (CR 702.37e, 701.40b, 701.58b).
func (g *game) turnFaceUp(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	if !p.Status.FaceDown {
		return invalid("%s is not face down", p.ID)
	}
	merged := g.merged(p)
	if a.Method != "" && a.Method != model.ByEffect {
		if err := g.turnFaceUpBy(p, a.Method, merged); err != nil {
			return err
		}
	}
	if stays, err := g.instantStaysFaceDown(p, merged); stays || err != nil {
		return err
	}
	// CR 730.2f: each face-down component turns face up, a double-faced
	// one with its front face up (CR 712.15a).
	for i := range p.Components {
		if i > 0 && g.is(bugTurnTopOnly) {
			break
		}
		if p.Components[i].FaceDown {
			p.Components[i] = model.Component{Object: p.Components[i].Object}
		}
	}
	p.Status.FaceDown = false
	p.Timestamp = g.nextTimestamp() // CR 613.7f
	g.statusChanged("730.2f", p)
	// CR 708.8: it does not enter the battlefield again.
	g.emit(model.Event{Kind: model.Trigger, Observer: model.TurnedFaceUp, Object: p.ID})
	if g.is(bugFaceUpEnters) {
		g.emit(model.Event{Kind: model.Trigger, Observer: model.CreatureEnters, Object: p.ID})
	}
	return nil
}

// turnFaceUpBy checks that face-down permanent p can be turned face up by
// the special action method, since each action has its own condition: a
// morph or disguise cost p would have face up, or a manifested or cloaked
// creature card with a mana cost.
func (g *game) turnFaceUpBy(p *model.Permanent, method model.FaceDownKind, merged bool) error {
	top := p.Components[0]
	d := g.def(top.Object)
	switch method {
	case model.ByMorph, model.ByDisguise:
		// CR 702.37e, 702.168d: the cost is the one the permanent would
		// have face up. A merged permanent face up has its topmost
		// component's characteristics and, mutated, every component's
		// abilities (CR 730.2a, 702.140e).
		has, err := g.wouldHaveFaceUp(p, model.AbilityID(method))
		if err != nil {
			return err
		}
		if !has {
			rule := model.RuleID("702.37e")
			if method == model.ByDisguise {
				rule = "702.168d"
			}
			return illegal(rule, "%s would have no %s cost face up, so it can't be turned face up this way", p.ID, method)
		}
	case model.ByManifest, model.ByCloak:
		if merged {
			return unsupported("special-action-on-merged-permanent",
				"CR 701.40b and 701.58b speak of a permanent represented by a creature card and of its mana cost; a merged permanent is represented by several cards")
		}
		if top.FaceDownBy != method || !d.Front.Has("creature") || d.Front.ManaCost == "" {
			return invalid("%s is not a %sed permanent represented by a creature card with a mana cost (CR 701.40b, 701.58b)", p.ID, method)
		}
	default:
		return invalid("unknown method %q", method)
	}
	return nil
}

// instantStaysFaceDown reports whether face-down permanent p has an
// instant or sorcery card among its components and, if so, reveals its
// face-down cards and leaves it face down, since such a card can't be
// turned face up.
func (g *game) instantStaysFaceDown(p *model.Permanent, merged bool) (bool, error) {
	top := p.Components[0]
	var hidden []model.ObjectID
	for _, c := range p.Components {
		if c.FaceDown {
			hidden = append(hidden, c.Object)
		}
	}
	for _, c := range p.Components {
		if g.obj(c.Object).Token || !g.def(c.Object).InstantOrSorcery() || (merged && g.is(bugInstantTurnsFaceUp)) {
			continue
		}
		// An instant or sorcery card can't be turned face up: the
		// controller reveals it and it stays face down.
		rule := model.RuleID("730.2g")
		if !merged {
			switch top.FaceDownBy {
			case model.ByManifest:
				rule = "701.40g"
			case model.ByCloak:
				rule = "701.58g"
			default:
				return true, unsupported("face-down-instant-not-manifested",
					"no rule covers turning face up an instant or sorcery made face down by %s", top.FaceDownBy)
			}
		}
		g.emit(model.Event{Kind: model.Reveal, Rule: rule, Object: p.ID, Player: p.Controller, Revealed: hidden})
		g.nothingHappens(rule, p.ID)
		return true, nil
	}
	return false, nil
}

// wouldHaveFaceUp reports whether face-down permanent p would have
// ability ab if it were face up: with every component turned up, a double-
// faced one front face up (CR 712.15a).
func (g *game) wouldHaveFaceUp(p *model.Permanent, ab model.AbilityID) (bool, error) {
	q := p.Clone()
	for i := range q.Components {
		if q.Components[i].FaceDown {
			q.Components[i] = model.Component{Object: q.Components[i].Object}
		}
	}
	q.Status.FaceDown = false
	d, err := g.derive(&q)
	if err != nil {
		return false, err
	}
	return g.settledHas(&q, d, ab)
}

// manifest puts the top card of a library onto the battlefield face down
// (CR 701.40a, 701.58a).
func (g *game) manifest(a *model.Action) error {
	if err := g.noChoices(a); err != nil {
		return err
	}
	if a.Method != model.ByManifest && a.Method != model.ByCloak {
		return invalid("method must be manifest or cloak, not %q", a.Method)
	}
	lib := g.player(a.Player).Zones.Library
	if len(lib) == 0 || lib[0] != a.Object {
		return invalid("%s is not the top card of %s's library", a.Object, a.Player)
	}
	if err := g.takeFromZone(a.Object, model.Library); err != nil {
		return err
	}
	p := model.Permanent{
		ID: model.EnteredID(a.Object, g.action), Controller: a.Player,
		Components: []model.Component{{Object: a.Object, FaceDown: true, FaceDownBy: a.Method}},
	}
	return g.enter(p, model.Library) // CR 708.3: it enters already face down
}

// canTurnOver reports whether a component can transform or convert, and
// otherwise the rule that stops it.
func (g *game) canTurnOver(c model.Component) (bool, model.RuleID) {
	d := g.def(c.Object)
	switch {
	case d.Layout == model.LayoutMeld && g.is(bugMeldCardTransforms):
		return true, ""
	case d.Layout == model.LayoutMeld:
		return false, "712.4c"
	case d.Layout != model.LayoutTransform && d.Layout != model.LayoutModal:
		return false, "712.9"
	}
	other := d.Back
	if c.Face == model.Back {
		other = &d.Front
	}
	if other == nil {
		return true, ""
	}
	if other.Has("instant") || other.Has("sorcery") {
		return false, "712.10"
	}
	return true, ""
}

// transform turns a permanent to its other face (CR 701.27, 701.28).
func (g *game) transform(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	rule := model.RuleID("701.27a")
	if a.Type == model.Convert {
		rule = "701.28a"
	}
	if g.melded(p) && !g.is(bugMeldCardTransforms) {
		g.nothingHappens("712.4c", p.ID)
		return nil
	}
	if !g.merged(p) {
		c := &p.Components[0]
		if c.FaceDown && !g.is(bugFaceDownDfcTransforms) {
			g.nothingHappens("712.15a", p.ID)
			return nil
		}
		if ok, why := g.canTurnOver(*c); !ok {
			g.nothingHappens(why, p.ID)
			return nil
		}
		c.Face = other(c.Face)
		p.Timestamp = g.nextTimestamp() // CR 613.7g; effects stay (CR 712.18)
		if g.is(bugTransformDropsEffects) {
			p.Effects, p.Counters = nil, nil
		}
		g.emit(model.Event{Kind: model.StatusChange, Rule: rule, Object: p.ID})
		return nil
	}
	// CR 730.2i: the merged permanent is not double-faced; each component
	// that can transform turns over.
	for _, c := range p.Components {
		if c.FaceDown {
			return unsupported("transform-merged-with-face-down-component",
				"CR 730.2i and 712.15a do not say whether face-down component %s of %s turns over", c.Object, p.ID)
		}
	}
	turned := 0
	for i := range p.Components {
		if ok, _ := g.canTurnOver(p.Components[i]); ok && !(turned > 0 && g.is(bugTransformTopOnly)) {
			p.Components[i].Face = other(p.Components[i].Face)
			turned++
		}
	}
	if turned == 0 {
		g.nothingHappens("730.2i", p.ID)
		return nil
	}
	g.emit(model.Event{Kind: model.StatusChange, Rule: "730.2i", Object: p.ID})
	return nil
}

func other(f model.FaceSide) model.FaceSide {
	if f == model.Back {
		return model.Front
	}
	return model.Back
}

// flip flips a permanent (CR 710); flipping is one-way (CR 710.4).
func (g *game) flip(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	if p.Status.Flipped {
		if g.is(bugFlipToggles) {
			p.Status.Flipped = false
			g.statusChanged("110.5c", p)
			return nil
		}
		g.nothingHappens("710.4", p.ID)
		return nil
	}
	if p.Status.FaceDown {
		return unsupported("flip-face-down-permanent", "a face-down permanent has no ability that could flip it")
	}
	p.Status.Flipped = true
	g.statusChanged("110.5c", p)
	return nil
}

// tap taps or untaps a permanent (CR 701.26).
func (g *game) tap(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	want := a.Type == model.Tap
	if g.is(bugTapToggles) {
		want = !p.Status.Tapped
	}
	if p.Status.Tapped == want {
		rule := model.RuleID("701.26a")
		if !want {
			rule = "701.26b"
		}
		g.nothingHappens(rule, p.ID)
		return nil
	}
	p.Status.Tapped = want
	g.statusChanged("110.5c", p)
	return nil
}

// phase phases a permanent out or in (CR 702.26). No zone changes; Auras
// attached to it phase with it (CR 702.26d, 702.26g).
func (g *game) phase(a *model.Action) error {
	if err := g.noChoices(a); err != nil {
		return err
	}
	p := g.st.Permanent(a.Object)
	if p == nil {
		return invalid("%s is not on the battlefield", a.Object)
	}
	out := a.Type == model.PhaseOut
	if host := g.st.Permanent(p.AttachedTo); !out && host != nil && host.Status.PhasedOut && p.Status.PhasedOut {
		return unsupported("phase-in-indirectly-phased-out",
			"%s phased out with %s, to which it is attached, and won't phase in by itself (CR 702.26g); the rules do not say what an effect phasing it in alone does", p.ID, host.ID)
	}
	if out && p.AttachedTo != "" && !p.Status.PhasedOut {
		return unsupported("phase-out-attached-directly",
			"%s is attached to %s: phased out directly, it would phase in at its controller's untap step (CR 502.1) rather than with %s (702.26g), and the reference does not record how a permanent phased out", p.ID, p.AttachedTo, p.AttachedTo)
	}
	if p.Status.PhasedOut == out {
		if out {
			return invalid("%s is already phased out and is treated as though it does not exist (CR 702.26b)", p.ID)
		}
		return invalid("%s is not phased out", p.ID)
	}
	g.setPhased(p, out)
	if out && g.is(bugPhasingKillsTokens) && len(p.Components) > 1 {
		p.Components = slices.DeleteFunc(p.Components, func(c model.Component) bool { return g.obj(c.Object).Token })
		if len(p.Components) == 0 {
			g.removePermanent(p.ID)
		}
	}
	return nil
}

func (g *game) setPhased(p *model.Permanent, out bool) {
	if !out && g.is(bugPhaseInFails) {
		return
	}
	rule := model.RuleID("702.26b")
	if !out {
		rule = "702.26c"
	}
	p.Status.PhasedOut = out
	g.statusChanged(rule, p)
	for i := range g.st.Battlefield {
		if q := &g.st.Battlefield[i]; q.AttachedTo == p.ID && q.Status.PhasedOut != out && !g.is(bugAuraStaysPhasedIn) {
			q.Status.PhasedOut = out
			g.statusChanged("702.26g", q)
		}
	}
}

func (g *game) addCounters(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	if p.Counters == nil {
		p.Counters = map[string]int{}
	}
	p.Counters[a.Counter] += a.N
	return nil
}

// pump gives a permanent +N/+N until end of turn (a layer 7c effect).
func (g *game) pump(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	p.Effects = append(p.Effects, model.Effect{Kind: model.EffectPump, Timestamp: g.nextTimestamp(), Power: a.Power, Toughness: a.Toughness, UntilEndOfTurn: true})
	return nil
}

// becomeCopy exiles a creature card from a graveyard and makes a permanent
// a copy of it, except with the abilities in Gains (Dimir Doppelganger;
// CR 707.2, 707.9a). Status is kept (CR 110.5c).
func (g *game) becomeCopy(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	if g.melded(p) {
		return unsupported("copy-effect-on-merged-permanent",
			"%s is melded: CR 712.8g gives it the combined back face, and neither it nor 613.2a says how a copy effect combines with the meld", p.ID)
	}
	o := g.objects[a.Card]
	if o == nil || o.Token {
		return invalid("%s is not a card", a.Card)
	}
	if z, _ := g.zoneOf(a.Card); z != model.Graveyard {
		return invalid("%s is not in a graveyard", a.Card)
	}
	if !g.def(a.Card).Front.Has("creature") {
		return invalid("%s is not a creature card", a.Card)
	}
	if err := g.noCommanderMoved([]model.ObjectID{a.Card}); err != nil {
		return err
	}
	if err := g.takeFromZone(a.Card, model.Graveyard); err != nil {
		return err
	}
	ex := g.player(o.Owner).Zones.Ref(model.Exile)
	*ex = append(*ex, a.Card)
	g.emit(model.Event{Kind: model.ZoneChange, Object: a.Card, From: model.Graveyard, To: model.Exile, Objects: 1, Cards: 1})
	p.Effects = append(p.Effects, model.Effect{Kind: model.EffectCopy, Timestamp: g.nextTimestamp(), Of: g.def(a.Card).Name, Gains: a.Gains})
	return nil
}

// tokenCopy creates a token that is a copy of a permanent (CR 707.2, 707.8a;
// a merged creature's combined characteristics are copiable).
func (g *game) tokenCopy(a *model.Action) error {
	p, err := g.permanent(a.Object)
	if err != nil {
		return err
	}
	if err := g.noChoices(a); err != nil {
		return err
	}
	if g.objects[a.Token] != nil {
		return invalid("token id %s is already in use", a.Token)
	}
	if g.melded(p) {
		return unsupported("token-copy-of-melded-permanent",
			"CR 707.8a makes a copy of a double-faced permanent a double-faced token, but a melded permanent has no front face to give it")
	}
	tok := &model.Object{ID: a.Token, Owner: a.Player, Token: true} // CR 111.2
	top := p.Components[0]
	face := model.Component{Object: a.Token}
	hasCopy := slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy })
	// The mutant takes a merged permanent topped by a double-faced card
	// for that card, and makes its copy a double-faced token.
	dfcTop := g.is(bugCopyOfMergedDfcIsDfc) && g.merged(p) && !p.Status.FaceDown && !p.Status.Flipped && !hasCopy && g.def(top.Object).Layout.DoubleFaced()
	switch {
	case (p.Status.FaceDown || g.merged(p) || hasCopy) && !dfcTop:
		if g.merged(p) && p.Status.Flipped {
			return unsupported("token-copy-of-flipped-merged-permanent",
				"CR 707.3 and 730.2h do not say whether a copy of a flipped merged permanent takes the alternative characteristics")
		}
		// The copiable values are the layer-1 result (CR 613.2c, 707.2),
		// including face-down values (CR 707.2) and, for a mutated
		// permanent, every component's abilities.
		if tok.Copy, err = g.copyDef(p); err != nil {
			return err
		}
	default:
		// A lone card or token: the token copies its definition; a copy of
		// a double-faced permanent is a double-faced token with the same
		// face up (CR 707.8a). Status is not copied (CR 707.2).
		o := g.obj(top.Object)
		tok.Def, tok.Copy = o.Def, o.Copy
		face.Face = top.Face
		if g.def(top.Object).Layout.DoubleFaced() {
			if g.copies == nil {
				g.copies = map[model.ObjectID]bool{}
			}
			g.copies[a.Token] = true
		}
	}
	g.objects[a.Token] = tok
	np := model.Permanent{ID: model.EnteredID(a.Token, g.action), Controller: a.Player, Components: []model.Component{face}}
	if g.is(bugCopyCopiesStatus) {
		np.Status.Tapped, np.Status.Flipped = p.Status.Tapped, p.Status.Flipped
	}
	return g.enter(np, "")
}

// copiableFace returns p's copiable values as a face: layer 1 only
// (CR 707.2, 613.2), mana cost included. Counters, pumps, what an
// Equipment grants and what a linked ability changes are not copied.
func (g *game) copiableFace(p *model.Permanent) (model.Face, error) {
	q := *p
	q.Effects = slices.DeleteFunc(slices.Clone(p.Effects), func(e model.Effect) bool { return e.Kind != model.EffectCopy })
	f, _, err := g.copiable(&q)
	if err != nil {
		return model.Face{}, err
	}
	f.Abilities = slices.Compact(slices.Sorted(slices.Values(f.Abilities)))
	return f, nil
}

// nextTurn ends the turn and begins the other player's (CR 514.2, 502).
func (g *game) nextTurn() error {
	for i := range g.st.Battlefield {
		p := &g.st.Battlefield[i]
		p.Effects = slices.DeleteFunc(p.Effects, func(e model.Effect) bool { return e.UntilEndOfTurn })
		if len(p.Effects) == 0 {
			p.Effects = nil
		}
	}
	g.st.Active = g.opponent(g.st.Active)
	active := g.st.Active
	// CR 502.3: untap; CR 302.6: the active player's permanents have now
	// been controlled since the turn began. It comes after phasing, so
	// what phases in untaps too.
	untap := func() {
		for i := range g.st.Battlefield {
			p := &g.st.Battlefield[i]
			if p.Controller != active {
				if p.Status.Tapped && p.Status.PhasedOut && g.is(bugUntapPhasedOut) {
					p.Status.Tapped = false
					g.statusChanged("110.5c", p)
				}
				continue
			}
			p.ControlledSinceTurnStart = true
			// A phased-out permanent is treated as though it does not
			// exist (CR 702.26b): it stays tapped.
			if p.Status.Tapped && (!p.Status.PhasedOut || g.is(bugUntapPhasedOut)) {
				p.Status.Tapped = false
				g.statusChanged("110.5c", p)
			}
		}
	}
	if g.is(bugUntapBeforePhasing) {
		untap()
	}
	// CR 502.1: phasing, all at once.
	var out, in []model.ObjectID
	for _, p := range g.st.Battlefield {
		if host := g.st.Permanent(p.AttachedTo); host != nil && p.Status.PhasedOut && !host.Status.PhasedOut {
			return unsupported("phase-out-attached-directly",
				"%s is phased out and attached to %s, which is not: it phased out directly, and would phase in at its controller's untap step (CR 502.1, 702.26g), which the reference does not model", p.ID, host.ID)
		}
		if p.Controller != active || p.AttachedTo != "" {
			continue
		}
		d, err := g.derive(&p)
		if err != nil {
			return err
		}
		phasing, err := g.settledHas(&p, d, model.Phasing)
		if err != nil {
			return err
		}
		switch {
		case !p.Status.PhasedOut && phasing:
			out = append(out, p.ID)
		case p.Status.PhasedOut:
			in = append(in, p.ID)
		}
	}
	for _, id := range out {
		g.setPhased(g.st.Permanent(id), true)
	}
	for _, id := range in {
		g.setPhased(g.st.Permanent(id), false)
	}
	if g.is(bugUntapPhasingZoneChange) {
		for _, id := range append(out, in...) {
			g.emit(model.Event{Kind: model.ZoneChange, Object: id, From: model.Battlefield, To: model.Battlefield, Objects: 1})
		}
	}
	if !g.is(bugUntapBeforePhasing) {
		untap()
	}
	return nil
}
