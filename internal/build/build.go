// Package build assembles scenarios in Go from the card catalogue, for the
// worked examples, tests and generators. It panics on a card the catalogue
// lacks; it is not for input from users.
package build

import (
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/catalogue"
	"github.com/mergecheck/mergecheck/model"
)

// Players A and B; A is active unless changed.
const (
	A model.PlayerID = "A"
	B model.PlayerID = "B"
)

// A Builder accumulates one scenario.
type Builder struct {
	s model.Scenario
}

// New starts a scenario named name with two players, A active.
func New(name, description string, rules ...model.RuleID) *Builder {
	return &Builder{s: model.Scenario{
		Format: model.ScenarioFormat, Name: name, Description: description, Rules: rules,
		Start: model.State{Active: A, Players: []model.Player{{ID: A}, {ID: B}}},
	}}
}

func (b *Builder) addDef(name string) {
	if b.s.Def(name) == nil {
		b.s.Catalogue = append(b.s.Catalogue, catalogue.MustGet(name))
	}
}

// Def adds the catalogue entry name to the scenario's catalogue, for an
// action that names it (create_token).
func (b *Builder) Def(name string) *Builder {
	b.addDef(name)
	return b
}

// Card adds a card that owner owns, defined by the catalogue card def.
func (b *Builder) Card(id model.ObjectID, owner model.PlayerID, def string) model.ObjectID {
	b.addDef(def)
	b.s.Objects = append(b.s.Objects, model.Object{ID: id, Def: def, Owner: owner})
	return id
}

// Commander adds a card that is its owner's commander (CR 903.3).
func (b *Builder) Commander(id model.ObjectID, owner model.PlayerID, def string) model.ObjectID {
	b.Card(id, owner, def)
	b.s.Objects[len(b.s.Objects)-1].Commander = true
	return id
}

// Token adds a token that owner owns, defined by the catalogue entry def.
func (b *Builder) Token(id model.ObjectID, owner model.PlayerID, def string) model.ObjectID {
	b.Card(id, owner, def)
	b.s.Objects[len(b.s.Objects)-1].Token = true
	return id
}

// Put puts cards into one of player's zones, in the order given.
func (b *Builder) Put(player model.PlayerID, z model.Zone, ids ...model.ObjectID) *Builder {
	p := b.s.Start.Player(player)
	ref := p.Zones.Ref(z)
	*ref = append(*ref, ids...)
	return b
}

// Up is a face-up component showing its front face.
func Up(id model.ObjectID) model.Component { return model.Component{Object: id} }

// BackUp is a face-up component showing its back face.
func BackUp(id model.ObjectID) model.Component {
	return model.Component{Object: id, Face: model.Back}
}

// Down is a component made face down by kind.
func Down(id model.ObjectID, kind model.FaceDownKind) model.Component {
	return model.Component{Object: id, FaceDown: true, FaceDownBy: kind}
}

// Perm puts a permanent on the battlefield under controller, with its
// components topmost first, controlled since the turn began; its
// face-down status follows its topmost component (CR 730.2e). A permanent
// with several components that are not a meld pair is mutated; use
// Mod to change that.
func (b *Builder) Perm(id model.ObjectID, controller model.PlayerID, comps ...model.Component) *Builder {
	p := model.Permanent{
		ID: id, Controller: controller, Components: comps,
		Status:                   model.Status{FaceDown: comps[0].FaceDown},
		Timestamp:                len(b.s.Start.Battlefield) + 1,
		ControlledSinceTurnStart: true,
	}
	p.Mutated = len(comps) > 1 && !(len(comps) == 2 && comps[0].Face == model.Back && comps[1].Face == model.Back)
	b.s.Start.Battlefield = append(b.s.Start.Battlefield, p)
	return b
}

// Mod changes the permanent id in place.
func (b *Builder) Mod(id model.ObjectID, f func(p *model.Permanent)) *Builder {
	f(b.s.Start.Permanent(id))
	return b
}

// Do appends actions.
func (b *Builder) Do(actions ...model.Action) *Builder {
	b.s.Actions = append(b.s.Actions, actions...)
	return b
}

// Expect appends an expectation about the step after the last action.
func (b *Builder) Expect(e model.Expectation) *Builder {
	e.After = len(b.s.Actions) - 1
	b.s.Expect = append(b.s.Expect, e)
	return b
}

// Scenario returns the scenario with its catalogue sorted by name.
func (b *Builder) Scenario() *model.Scenario {
	s := b.s
	slices.SortFunc(s.Catalogue, func(x, y model.CardDef) int { return strings.Compare(x.Name, y.Name) })
	return &s
}

// Link records cards as exiled with source's linked ability (CR 607).
func (b *Builder) Link(source model.ObjectID, cards ...model.ObjectID) *Builder {
	b.s.Start.Links = append(b.s.Start.Links, model.Link{Source: source, Cards: cards})
	return b
}

// DefOf returns the definition of object id as built so far, or nil.
func (b *Builder) DefOf(id model.ObjectID) *model.CardDef {
	o := b.s.Object(id)
	if o == nil {
		return nil
	}
	return b.s.Def(o.Def)
}
