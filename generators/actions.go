package generators

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// drawable lists the action types a scenario draws from when no types are
// given: every type but those that need options of their own or end a
// scenario (create_token, enter_as_copy, attack, destroy_all), which the
// properties about them draw by name, in the order of model.ActionTypes.
var drawable = slices.DeleteFunc(slices.Clone(model.ActionTypes), func(t model.ActionType) bool {
	switch t {
	case model.CreateToken, model.EnterAsCopy, model.Attack, model.DestroyAll:
		return true
	}
	return false
})

// action appends to s one action of the given types (any type if empty)
// that the reference can perform now, with the choices it needs drawn. It
// reports false when no such action exists.
func (d *drawer) action(s *model.Scenario, types []model.ActionType) bool {
	t := d.t
	if len(types) == 0 {
		types = drawable
	}
	st, gone, err := d.play.State()
	if err != nil {
		panic(fmt.Sprintf("generators: built an unplayable scenario: %v", err))
	}
	// Draw a type, then try the types after it in turn until one has a
	// candidate the reference accepts; within a type, draw a candidate and
	// try the ones after it in turn likewise. Probing only until one is
	// accepted keeps a draw cheap, and shrinks toward the first candidate.
	first := rapid.IntRange(0, len(types)-1).Draw(t, "action type")
	for k := range types {
		typ := types[(first+k)%len(types)]
		cands := d.candidates(s, gone, st, typ)
		if len(cands) == 0 {
			continue
		}
		from := rapid.IntRange(0, len(cands)-1).Draw(t, string(typ))
		for c := range cands {
			a := cands[(from+c)%len(cands)]
			if !d.allows(s, a...) {
				continue
			}
			n, ok := d.playable(t, a)
			if !ok {
				continue
			}
			d.add(s, choose(t, d.play, a[0], n))
			if (typ == model.Cast || typ == model.CastMutate) && !d.play.Declined() && !d.play.Countered() {
				d.resolve(s)
			}
			return true
		}
	}
	return false
}

// playable probes a candidate: its first action now and, for a spell
// cast, the resolution that follows.
func (d *drawer) playable(t *rapid.T, a []model.Action) (reference.Needs, bool) {
	n, err := d.play.Probe(a[0])
	if err != nil {
		return n, false
	}
	if len(a) > 1 || d.restricted() {
		after, err := d.play.Then(withChoices(t, a[0], n, true))
		switch {
		case err != nil && len(a) == 1:
			// Its choices need more than their first options: nothing
			// the rules forbid or counter, which need none.
			return n, true
		case err != nil:
			return n, false
		}
		// What the rules do may ask more of the engine than the action
		// itself: a cast they forbid for a reason it does not declare.
		if slices.ContainsFunc(after.Uses(), func(f model.Feature) bool { return !d.can(f) }) {
			return n, false
		}
		if len(a) == 1 {
			return n, true
		}
		if after.Declined() {
			return n, true // a cast the rules forbid: nothing to resolve
		}
		if _, err := after.Probe(a[1]); err != nil {
			return n, false
		}
	}
	return n, true
}

// resolve appends the resolution of the spell just cast, sometimes after
// making a mutating spell's target illegal (CR 702.140b).
func (d *drawer) resolve(s *model.Scenario) {
	t := d.t
	cast := s.Actions[len(s.Actions)-1]
	if cast.Type == model.CastMutate && (d.o.Illegal || rapid.IntRange(0, 4).Draw(t, "target becomes illegal") == 0) {
		interlude := model.Action{Type: model.PhaseOut, Object: cast.Target}
		if rapid.Bool().Draw(t, "target leaves") || !d.allows(s, interlude) {
			// Leaving is a way every engine has; phasing out only one
			// that declares phasing.
			interlude = model.Action{Type: model.Move, Object: cast.Target, To: model.Exile}
		}
		if n, err := d.play.Probe(interlude); err == nil {
			d.add(s, choose(t, d.play, interlude, n))
		}
	}
	res := model.Action{Type: model.Resolve}
	n, err := d.play.Probe(res)
	if err != nil {
		panic(fmt.Sprintf("generators: can't resolve what was cast: %v", err))
	}
	d.add(s, choose(t, d.play, res, n))
}

// add appends a, with every choice it needs scripted, to s and plays it.
func (d *drawer) add(s *model.Scenario, a model.Action) {
	if err := d.play.Do(a); err != nil {
		panic(fmt.Sprintf("generators: an action the reference accepted when probed was refused: %v", err))
	}
	s.Actions = append(s.Actions, a)
}

// choose scripts every choice a needs in the game p, one kind at a time and
// probing again after each, since one choice can change what the next is
// about: the replacement effect and the commander's choice decide which
// cards go together, and so what there is to order.
func choose(t *rapid.T, p *reference.Play, a model.Action, n reference.Needs) model.Action {
	for range 8 {
		if n.IsZero() {
			return a
		}
		a = withChoices(t, a, first(n), false)
		var err error
		n, err = p.Probe(a)
		if err != nil && a.Choices.Position == model.Bottom {
			// The reference refuses a card merged under a permanent a
			// copy effect gives its values (copy-effect-on-merged-permanent):
			// the caster puts it on top, which the probe played.
			a.Choices.Position = model.Top
			n, err = p.Probe(a)
		}
		if err != nil {
			panic(fmt.Sprintf("generators: scripted choices were refused: %v", err))
		}
	}
	panic("generators: choices did not settle")
}

// withChoices scripts the choices n says a needs. fixed takes the first
// option of each, for probing.
func withChoices(t *rapid.T, a model.Action, n reference.Needs, fixed bool) model.Action {
	if n.Position {
		a.Choices.Position = model.Top
		if !fixed && rapid.Bool().Draw(t, "underneath") {
			a.Choices.Position = model.Bottom
		}
	}
	if len(n.Order) > 0 {
		a.Choices.Order = n.Order
		if !fixed {
			a.Choices.Order = rapid.Permutation(n.Order).Draw(t, "order")
		}
	}
	if len(n.Replacements) > 0 {
		a.Choices.Replacement = n.Replacements[0]
		if !fixed {
			a.Choices.Replacement = rapid.SampledFrom(n.Replacements).Draw(t, "replacement")
		}
	}
	if n.CommandZone {
		a.Choices.CommandZone = model.Bool(!fixed && rapid.Bool().Draw(t, "command zone"))
	}
	switch {
	case n.May && a.Type == model.CastMutate:
		// Whether the caster pays for its target's ward; shrinks to
		// paying, the spell then staying to resolve.
		a.Choices.May = model.Bool(fixed || !rapid.Bool().Draw(t, "ward unpaid"))
	case n.May:
		a.Choices.May = model.Bool(fixed || rapid.Bool().Draw(t, "may"))
	}
	return a
}

// candidates lists the actions of one type worth trying in state st. A
// cast comes with the resolve that follows it.
func (d *drawer) candidates(s *model.Scenario, gone []model.ObjectID, st model.State, typ model.ActionType) [][]model.Action {
	var out [][]model.Action
	one := func(a model.Action) { out = append(out, []model.Action{a}) }
	var in, phased []model.ObjectID
	for _, p := range st.Battlefield {
		if p.Status.PhasedOut {
			phased = append(phased, p.ID)
		} else {
			in = append(in, p.ID)
		}
	}
	switch typ {
	case model.Tap, model.Untap, model.PhaseOut, model.Flip, model.TurnFaceDown, model.TurnFaceUp, model.Transform, model.Convert:
		for _, id := range in {
			one(model.Action{Type: typ, Object: id})
			if typ == model.TurnFaceUp {
				// Or by the special action its way of being face down
				// allows, where the reference accepts one (CR 702.37e,
				// 701.40b, 701.58b).
				for _, m := range []model.FaceDownKind{model.ByMorph, model.ByDisguise, model.ByManifest, model.ByCloak} {
					one(model.Action{Type: typ, Object: id, Method: m})
				}
			}
		}
	case model.PhaseIn:
		for _, id := range phased {
			one(model.Action{Type: typ, Object: id})
		}
	case model.AddCounters:
		for _, id := range in {
			one(model.Action{Type: typ, Object: id, Counter: "+1/+1", N: 1})
		}
	case model.Pump:
		for _, id := range in {
			one(model.Action{Type: typ, Object: id, Power: 2, Toughness: 2})
		}
	case model.Move:
		for _, id := range in {
			for _, z := range []model.Zone{model.Graveyard, model.Exile, model.Hand, model.LibraryTop, model.LibraryBottom} {
				if len(d.o.MoveTo) == 0 || slices.Contains(d.o.MoveTo, z) {
					one(model.Action{Type: typ, Object: id, To: z})
				}
			}
			for _, src := range in {
				if src != id && has(st, src, model.DuplicantImprint) {
					one(model.Action{Type: typ, Object: id, To: model.Exile, Source: src})
				}
			}
		}
	case model.CastMutate, model.Cast:
		for _, pl := range st.Players {
			for _, c := range pl.Zones.Hand {
				if isClone(s, c) {
					continue // it enters as a copy (enter_as_copy), not as a spell
				}
				if typ == model.Cast {
					out = append(out, []model.Action{{Type: typ, Object: c}, {Type: model.Resolve}})
					if o := s.Object(c); d.brisela() && o != nil && s.Def(o.Def) != nil && s.Def(o.Def).Front.HasAbility(model.Morph) {
						// Cast face down, the spell has mana value 0
						// (CR 702.37c).
						out = append(out, []model.Action{{Type: typ, Object: c, Method: model.ByMorph}, {Type: model.Resolve}})
					}
					continue
				}
				for _, id := range in {
					out = append(out, []model.Action{{Type: typ, Object: c, Target: id}, {Type: model.Resolve}})
				}
			}
		}
	case model.Merge:
		for _, pl := range st.Players {
			for _, c := range append(slices.Clone(pl.Zones.Graveyard), pl.Zones.Hand...) {
				if t := d.def(c).Front.Toughness; t != nil && *t <= 0 {
					// Clone, 0/0 on top: the state-based action that would
					// then put it into the graveyard (CR 704.5f) the
					// reference refuses, and a probe does not see it.
					continue
				}
				for _, id := range in {
					one(model.Action{Type: typ, Object: c, Target: id})
				}
			}
		}
	case model.Meld:
		for _, x := range in {
			for _, y := range in {
				if x != y && (has(st, x, "meld_graf_rats") || has(st, x, "meld_gisela_the_broken_blade")) {
					one(model.Action{Type: typ, Object: x, With: y})
				}
			}
			if d.o.MeldGone && has(st, x, "meld_graf_rats") {
				// Its partner has left: the meld finds nothing (CR 701.42c).
				for _, y := range gone {
					if meldHalfAtStart(s, y) {
						one(model.Action{Type: typ, Object: x, With: y})
					}
				}
			}
		}
	case model.Manifest:
		for _, pl := range st.Players {
			if len(pl.Zones.Library) > 0 {
				for _, m := range []model.FaceDownKind{model.ByManifest, model.ByCloak} {
					one(model.Action{Type: typ, Player: pl.ID, Object: pl.Zones.Library[0], Method: m})
				}
			}
		}
	case model.Return:
		for _, id := range gone {
			one(model.Action{Type: typ, Object: id})
		}
	case model.ExileFound:
		for _, id := range gone {
			for _, src := range in {
				if has(st, src, "mimic_vat_imprint") {
					one(model.Action{Type: typ, Object: id, Source: src})
				}
			}
		}
	case model.BecomeCopy:
		for _, pl := range st.Players {
			for _, c := range pl.Zones.Graveyard {
				for _, id := range in {
					one(model.Action{Type: typ, Object: id, Card: c, Gains: []model.AbilityID{model.CopyExceptThis}})
				}
			}
		}
	case model.TokenCopy:
		tok := model.ObjectID(fmt.Sprintf("n%d", len(s.Actions)))
		for _, id := range in {
			one(model.Action{Type: typ, Object: id, Token: tok, Player: st.Active})
		}
	case model.NextTurn, model.DestroyAll:
		one(model.Action{Type: typ})
	case model.Attack:
		for _, id := range in {
			one(model.Action{Type: typ, Object: id})
		}
	case model.CreateToken:
		if d.o.Create {
			tok := model.ObjectID(fmt.Sprintf("n%d", len(s.Actions)))
			for _, def := range tokens {
				one(model.Action{Type: typ, Token: tok, Def: def, Player: st.Active})
			}
		}
	case model.EnterAsCopy:
		for _, pl := range st.Players {
			for _, c := range pl.Zones.Hand {
				if isClone(s, c) {
					for _, id := range in {
						one(model.Action{Type: typ, Object: c, Target: id})
					}
				}
			}
		}
	}
	return out
}

// meldHalfAtStart reports whether permanent id of the starting state is a
// lone meld card.
func meldHalfAtStart(s *model.Scenario, id model.ObjectID) bool {
	p := s.Start.Permanent(id)
	if p == nil || len(p.Components) != 1 {
		return false
	}
	o := s.Object(p.Components[0].Object)
	return o != nil && s.Def(o.Def).Layout == model.LayoutMeld
}

// isClone reports whether card id may enter as a copy (Clone).
func isClone(s *model.Scenario, id model.ObjectID) bool {
	o := s.Object(id)
	return o != nil && s.Def(o.Def).Front.HasAbility(model.AsCopy)
}

func has(st model.State, id model.ObjectID, ab model.AbilityID) bool {
	p := st.Permanent(id)
	return p != nil && p.Derived != nil && slices.Contains(p.Derived.Characteristics.Abilities, ab)
}

// first keeps only the first lacking choice, in the order in which they
// depend on each other.
func first(n reference.Needs) reference.Needs {
	switch {
	case len(n.Replacements) > 0:
		return reference.Needs{Replacements: n.Replacements}
	case n.CommandZone:
		return reference.Needs{CommandZone: true}
	case n.May:
		return reference.Needs{May: true}
	case n.Position:
		return reference.Needs{Position: true}
	}
	return reference.Needs{Order: n.Order}
}
