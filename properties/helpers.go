package properties

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// derived returns a permanent's derived values, or a problem if the engine
// reported none.
func derived(p *model.Permanent) (*model.Derived, error) {
	if p.Derived == nil {
		return nil, problemOf("no-derived-values", "permanent %s reports no derived values (characteristics, token)", p.ID)
	}
	return p.Derived, nil
}

// isToken reports whether id is a token: one of the scenario's token
// objects, or one an action created.
func isToken(s *model.Scenario, id model.ObjectID) bool {
	if o := s.Object(id); o != nil {
		return o.Token
	}
	return slices.ContainsFunc(s.Actions, func(a model.Action) bool {
		return (a.Type == model.TokenCopy || a.Type == model.CreateToken) && a.Token == id
	})
}

// defOf returns the definition of a scenario object, or of a token an
// action created as a copy of a lone card or token whose definition it
// took (CR 707.2, 707.8a); nil when the definition is not the scenario's
// to tell (a copy of a merged, face-down or copying permanent).
func defOf(s *model.Scenario, id model.ObjectID) *model.CardDef {
	if slices.ContainsFunc(s.Actions, func(a model.Action) bool { return a.Type == model.EnterAsCopy && a.Object == id }) {
		return nil // a card that enters as a copy shows the copy's values there (CR 707.5)
	}
	if k := slices.IndexFunc(s.Actions, func(a model.Action) bool { return a.Type == model.CreateToken && a.Token == id }); k >= 0 {
		return s.Def(s.Actions[k].Def)
	}
	if o := s.Object(id); o != nil {
		if o.Copy != nil {
			return o.Copy
		}
		return s.Def(o.Def)
	}
	i := slices.IndexFunc(s.Actions, func(a model.Action) bool { return a.Type == model.TokenCopy && a.Token == id })
	if i < 0 {
		return nil
	}
	orig := s.Actions[i].Object
	if obj, at, entered := strings.Cut(string(orig), "@"); entered {
		// A permanent that entered during the run: a lone face-up card or
		// token, unless it entered face down (a copy of it is a plain
		// 2/2, CR 707.2) or something merged with it or changed it since.
		n, err := strconv.Atoi(at)
		if err != nil || n < 0 || n >= len(s.Actions) || enteredFaceDown(s, model.ObjectID(obj), n) || touched(s, orig, i) {
			return nil
		}
		return defOf(s, model.ObjectID(obj))
	}
	p := s.Start.Permanent(orig)
	if p == nil || len(p.Components) != 1 || p.Status.FaceDown || slices.ContainsFunc(p.Effects, func(e model.Effect) bool { return e.Kind == model.EffectCopy }) || touched(s, orig, i) {
		return nil
	}
	return defOf(s, p.Components[0].Object)
}

// enteredFaceDown reports whether object entered the battlefield face
// down at action n: manifested or cloaked, or a spell cast face down
// resolving. A meld, whose permanent is two cards, counts as not plain
// either.
func enteredFaceDown(s *model.Scenario, object model.ObjectID, n int) bool {
	switch a := s.Actions[n]; a.Type {
	case model.Manifest, model.Meld:
		return true
	case model.Resolve:
		return slices.ContainsFunc(s.Actions[:n], func(c model.Action) bool {
			return c.Type == model.Cast && c.Object == object && c.Method != ""
		})
	}
	return false
}

// touched reports whether an action before action i may have changed what
// permanent id is a copy of: merged with it, made it a copy, or turned it
// face down.
func touched(s *model.Scenario, id model.ObjectID, i int) bool {
	return slices.ContainsFunc(s.Actions[:i], func(a model.Action) bool {
		switch a.Type {
		case model.Merge, model.CastMutate:
			return a.Target == id
		case model.BecomeCopy, model.TurnFaceDown:
			return a.Object == id
		}
		return false
	})
}

// faceAbilities returns the abilities of the face a face-up component
// shows, with a flip card's alternative abilities when its permanent is
// flipped, and false if the component's definition is unknown.
func faceAbilities(s *model.Scenario, c model.Component, flipped bool) ([]model.AbilityID, bool) {
	d := defOf(s, c.Object)
	if d == nil {
		return nil, false
	}
	switch {
	case c.Face == model.Back && d.Back != nil:
		return d.Back.Abilities, true
	case c.Face == model.Back && d.Melded != nil:
		return d.Melded.Abilities, true
	case flipped && d.Flipped != nil:
		return d.Flipped.Abilities, true
	}
	return d.Front.Abilities, true
}

// events returns the events of a step of one kind.
func events(st model.Step, k model.EventKind) []model.Event {
	var out []model.Event
	for _, e := range st.Events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func ids(p *model.Permanent) []model.ObjectID {
	var out []model.ObjectID
	for _, c := range p.Components {
		out = append(out, c.Object)
	}
	return out
}

// cardCount counts the cards among a permanent's components.
func cardCount(s *model.Scenario, p *model.Permanent) int {
	n := 0
	for _, c := range p.Components {
		if !isToken(s, c.Object) {
			n++
		}
	}
	return n
}

// isCreature reports whether permanent p is a creature, by its derived
// characteristics; a permanent without them is not known to be one.
func isCreature(p *model.Permanent) bool {
	return p.Derived != nil && slices.Contains(p.Derived.Characteristics.Types, "creature")
}
