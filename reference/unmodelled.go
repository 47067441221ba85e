package reference

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// A watch lists what one scenario can bring into play that the reference
// must look out for: the unmodelled abilities its card definitions,
// counters and copy effects can give a permanent (refused where they could
// change an action), and the abilities it does not know (refused once in
// play). A scenario that can produce none has a nil watch, and playing it
// costs nothing more.
type watch struct {
	abilities []model.AbilityID // sorted; each unmodelled or unknown
	before    uint32            // action types an ability is looked for before, by bit
	after     uint32            // action types one is looked for after, by bit
	every     bool              // one is looked for in every state (WhoseInPlay, unknown)
}

// actionBits numbers the action types for a watch's sets.
var actionBits = func() map[model.ActionType]uint32 {
	out := map[model.ActionType]uint32{}
	for i, t := range model.ActionTypes {
		out[t] = 1 << i
	}
	return out
}()

// classOf returns the classification of ab, or nil if it is unknown.
func classOf(ab model.AbilityID) *Classification {
	if c, ok := classifications[ab]; ok {
		return &c
	}
	return nil
}

// watched reports whether ab must be looked out for: it is unknown, or
// unmodelled and refused by no refusal of its own.
func watched(ab model.AbilityID) bool {
	c, ok := classifications[ab]
	return !ok || c.Class == Unmodelled && c.RefusedAs == ""
}

// with returns w with the watched abilities among abs added; w itself is
// never changed, and returned as it is when nothing is added.
func (w *watch) with(abs ...model.AbilityID) *watch {
	for _, ab := range abs {
		if !watched(ab) || w != nil && slices.Contains(w.abilities, ab) {
			continue
		}
		n := &watch{}
		if w != nil {
			*n = *w
		}
		n.abilities = append(slices.Clip(n.abilities), ab)
		slices.Sort(n.abilities)
		c := classOf(ab)
		switch {
		case c == nil:
			n.every = true
		default:
			for _, t := range c.Actions {
				if c.Whose.after() {
					n.after |= actionBits[t]
				} else {
					n.before |= actionBits[t]
				}
			}
			n.every = n.every || c.Whose == WhoseInPlay
		}
		w = n
	}
	return w
}

// watchStart returns the watch for what s's definitions and starting
// state can give a permanent, before its actions add theirs. It looks at
// each ability once and allocates only for what it must watch.
func watchStart(s *model.Scenario) *watch {
	var w *watch
	greaves, ward := false, false
	face := func(f *model.Face) {
		if f == nil {
			return
		}
		w = w.with(f.Abilities...)
		greaves = greaves || f.HasAbility(model.EquippedHasteShroud)
		ward = ward || f.HasAbility(model.Disguise)
	}
	def := func(d *model.CardDef) {
		face(&d.Front)
		face(d.Flipped)
		face(d.Back)
		face(d.Melded)
	}
	for i := range s.Catalogue {
		def(&s.Catalogue[i])
	}
	if kinds, err := s.DeclaredKinds(); err == nil {
		for _, ab := range slices.Sorted(maps.Keys(kinds)) {
			if e := kinds[ab].Effect; e != nil {
				w = w.with(e.Grants...)
			}
		}
	}
	for i := range s.Objects {
		if s.Objects[i].Copy != nil {
			def(s.Objects[i].Copy)
		}
	}
	for _, p := range s.Start.Battlefield {
		w = w.withCounters(p.Counters)
		for _, e := range p.Effects {
			w = w.with(e.Gains...)
		}
		for _, c := range p.Components {
			ward = ward || c.FaceDownBy == model.ByCloak || c.FaceDownBy == model.ByDisguise
		}
	}
	for _, so := range s.Start.Stack {
		ward = ward || so.FaceDownBy == model.ByCloak || so.FaceDownBy == model.ByDisguise
	}
	if greaves {
		w = w.with(equipmentGrants...)
	}
	if ward {
		w = w.with(model.Ward2) // CR 701.58a, 702.168a
	}
	return w
}

// withActions returns w with what actions can give a permanent: keyword
// counters, the abilities a copy gains, and a cloaked or disguised card's
// ward.
func (w *watch) withActions(actions []model.Action) *watch {
	for _, a := range actions {
		w = w.withCounters(a.Counters)
		if a.Type == model.AddCounters && slices.Contains(model.KeywordCounters, model.AbilityID(a.Counter)) {
			w = w.with(model.AbilityID(a.Counter))
		}
		w = w.with(a.Gains...)
		if a.Method == model.ByCloak || a.Method == model.ByDisguise {
			w = w.with(model.Ward2)
		}
	}
	return w
}

// withCounters returns w with the keywords that keyword counters among
// counters give (CR 122.1b).
func (w *watch) withCounters(counters map[string]int) *watch {
	for k := range counters {
		if slices.Contains(model.KeywordCounters, model.AbilityID(k)) {
			w = w.with(model.AbilityID(k))
		}
	}
	return w
}

// abilitiesOf returns the abilities p has now, derived (counters and
// effects included), or that it may have where the rules leave them open,
// remembering them in seen for one check.
func (g *game) abilitiesOf(p *model.Permanent, seen map[model.ObjectID][]model.AbilityID) ([]model.AbilityID, error) {
	if abs, ok := seen[p.ID]; ok {
		return abs, nil
	}
	d, err := g.derive(p)
	if err != nil {
		return nil, err
	}
	abs := d.Characteristics.Abilities
	if g.copiedAndMutated(p) {
		// Unsettled: every ability some reading gives counts.
		abs = g.possibleAbilities(p, abs)
	}
	seen[p.ID] = abs
	return abs, nil
}

// subject returns the permanent action a acts on or targets, if it is on
// the battlefield and phased in (CR 702.26b). A resolving spell's target
// counts only while the rules the reference models find it legal: if not,
// the spell enters as a creature whatever else the target has
// (CR 702.140b).
func (g *game) subject(a *model.Action) *model.Permanent {
	id := a.Object
	switch a.Type {
	case model.CastMutate, model.Merge:
		id = a.Target
	case model.Resolve:
		if len(g.st.Stack) == 0 {
			return nil
		}
		so := g.st.Stack[len(g.st.Stack)-1]
		if so.Target == "" || g.mutateTargetLegal(so.Target, so.Object) != nil {
			return nil
		}
		id = so.Target
	}
	if p := g.st.Permanent(id); id != "" && p != nil && !p.Status.PhasedOut {
		return p
	}
	return nil
}

// actor returns the player taking action a: a spell's caster or
// controller, otherwise the active player.
func (g *game) actor(a *model.Action) model.PlayerID {
	switch a.Type {
	case model.Cast, model.CastMutate:
		if o := g.objects[a.Object]; o != nil {
			return o.Owner
		}
	case model.Resolve:
		if n := len(g.st.Stack); n > 0 {
			return g.st.Stack[n-1].Controller
		}
	}
	return g.st.Active
}

// candidates returns the phased-in permanents on which an ability counts
// for action a (before it), by whose.
func (g *game) candidates(whose Whose, a *model.Action) []*model.Permanent {
	var out []*model.Permanent
	subject := g.subject(a)
	if whose == WhoseSubject {
		if subject != nil {
			out = append(out, subject)
		}
		return out
	}
	actor := g.actor(a)
	for i := range g.st.Battlefield {
		q := &g.st.Battlefield[i]
		if q.Status.PhasedOut {
			continue
		}
		switch {
		case whose == WhoseAttached && (subject == nil || q.AttachedTo != subject.ID):
		case whose == WhoseActive && q.Controller != g.st.Active:
		case whose == WhoseOpponents && q.Controller == actor:
		default:
			out = append(out, q)
		}
	}
	return out
}

// refuseBefore refuses action a, before it is done, if an unmodelled
// ability could change it: one that could forbid it, or change what it
// does to the permanent with the ability.
func (g *game) refuseBefore(a *model.Action) error {
	if g.watch.before&actionBits[a.Type] == 0 {
		return nil
	}
	seen := map[model.ObjectID][]model.AbilityID{}
	for _, ab := range g.watch.abilities {
		c := classOf(ab)
		if c == nil || c.Whose.after() || !slices.Contains(c.Actions, a.Type) {
			continue
		}
		for _, p := range g.candidates(c.Whose, a) {
			abs, err := g.abilitiesOf(p, seen)
			if err != nil {
				return err
			}
			if slices.Contains(abs, ab) {
				return g.refuseUnmodelled(ab, c, p, a)
			}
		}
	}
	return nil
}

// refuseAfter refuses action a, once done, if the state it leaves shows
// an unmodelled ability that changes what it did (a permanent entering
// tapped, an Aura left on a noncreature), an unmodelled ability that
// changes every state, or an ability the reference does not know.
func (g *game) refuseAfter(a *model.Action) error {
	if g.watch.after&actionBits[a.Type] == 0 && !g.watch.every {
		return nil
	}
	return g.refuseInPlay(a)
}

// refuseInPlay looks at every phased-in permanent for the watched
// abilities that count in the state the game is in: after action a, or
// the start state if a is nil.
func (g *game) refuseInPlay(a *model.Action) error {
	var unknown, static []string // "ability of permanent", every one in play
	for i := range g.st.Battlefield {
		p := &g.st.Battlefield[i]
		if p.Status.PhasedOut {
			continue
		}
		d, err := g.derive(p)
		if err != nil {
			return err
		}
		for _, ab := range d.Characteristics.Abilities {
			if !slices.Contains(g.watch.abilities, ab) {
				continue
			}
			c := classOf(ab)
			if c == nil {
				switch k, ok := g.declared[ab]; {
				case ok && k.Effect != nil:
					// interpreted by layers (statics.go)
				case !ok:
					unknown = append(unknown, string(ab)+" of "+g.describe(p))
				case !declaredInert(k):
					static = append(static, string(ab)+" of "+g.describe(p))
				}
				continue
			}
			if a != nil && !slices.Contains(c.Actions, a.Type) {
				continue
			}
			switch c.Whose {
			case WhoseInPlay:
			case WhoseEntering:
				if a == nil || p.ID != model.EnteredID(p.Components[0].Object, g.action) {
					continue
				}
			case WhoseEnchantingNoncreature:
				host := g.st.Permanent(p.AttachedTo)
				if a == nil || host == nil || host.Status.PhasedOut {
					continue
				}
				habs, err := g.derive(host)
				if err != nil {
					return err
				}
				if slices.Contains(habs.Characteristics.Types, "creature") {
					continue
				}
			default:
				continue
			}
			return g.refuseUnmodelled(ab, c, p, a)
		}
	}
	place := "after " + g.when(a)
	if a == nil {
		place = "in the start state"
	}
	switch {
	case len(unknown) > 0:
		return unsupported("unclassified-ability",
			"%s %s %s in play %s, and the reference does not know %s: it can't tell whether %s what an action does (a card's own ability may declare its kind in ability_kinds)",
			plural(len(unknown), "ability", "abilities"), strings.Join(unknown, ", "), plural(len(unknown), "is", "are"), place, plural(len(unknown), "it", "them"), plural(len(unknown), "it changes", "they change"))
	case len(static) > 0:
		return unsupported("uninterpreted-static-ability",
			"static %s %s %s in play %s, and the reference does not interpret %s: %s what an action does or what a state shows (CR 604)",
			plural(len(static), "ability", "abilities"), strings.Join(static, ", "), plural(len(static), "is", "are"), place, plural(len(static), "it", "them"), plural(len(static), "it could change", "they could change"))
	}
	return nil
}

// declaredInert reports whether an ability the reference does not know
// is inert by its declared kind: a mana, activated or triggered ability
// (no action activates one or resolves one; the standard observers report
// triggers), or a static one that only changes activation or blocking.
func declaredInert(k model.AbilityKind) bool {
	return k.Kind != model.KindStatic || slices.Contains(model.Abouts, k.About)
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// describe names permanent p for a message: its id and name, or that it
// is face down.
func (g *game) describe(p *model.Permanent) string {
	d, err := g.derive(p)
	if err != nil || d.Characteristics.Name == "" {
		return fmt.Sprintf("%s (face down)", p.ID)
	}
	return fmt.Sprintf("%s (%s)", p.ID, d.Characteristics.Name)
}

// when names the action a check is about, or the start state.
func (g *game) when(a *model.Action) string {
	if a == nil {
		return "the start state"
	}
	return fmt.Sprintf("action %d (%s)", g.action, a.Type)
}

func (g *game) refuseUnmodelled(ab model.AbilityID, c *Classification, p *model.Permanent, a *model.Action) error {
	cites := ""
	if len(c.Rules) > 0 {
		var rs []string
		for _, r := range c.Rules {
			rs = append(rs, string(r))
		}
		cites = " (CR " + strings.Join(rs, ", ")
		if !c.Held {
			cites += ", not among the rule texts the model holds"
		}
		cites += ")"
	}
	return unsupported("unmodelled-ability",
		"ability %s of %s could change %s, and the reference does not model it: %s%s",
		ab, g.describe(p), g.when(a), c.Why, cites)
}
