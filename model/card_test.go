package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// Test202_2_AFacesColoursComeFromItsManaCostAndColourIndicator: a face is
// each colour of its mana cost (CR 202.2) and of its colour indicator
// (CR 204.2), and no other: a colour with neither source is rejected,
// naming the card, the face and the colour. Only the front of a
// single-faced definition without a mana cost may add colours, as a
// token's does (CR 111.3); Scenario.Validate keeps cards from using it.
func Test202_2_AFacesColoursComeFromItsManaCostAndColourIndicator(t *testing.T) {
	creature := func(name, cost string, colors, indicator []model.Color) model.Face {
		return model.Face{Name: name, ManaCost: cost, Colors: colors, ColorIndicator: indicator,
			Types: []string{"creature"}, Power: model.Int(2), Toughness: model.Int(2)}
	}
	meld := func(melded model.Face) model.CardDef {
		return model.CardDef{Name: "Graf Rats", Layout: model.LayoutMeld, MeldPartner: "Midnight Scavengers",
			Front: creature("Graf Rats", "{1}{B}", []model.Color{model.Black}, nil), Melded: &melded}
	}
	transform := func(back model.Face) model.CardDef {
		return model.CardDef{Name: "Village Ironsmith", Layout: model.LayoutTransform,
			Front: creature("Village Ironsmith", "{1}{R}", []model.Color{model.Red}, nil), Back: &back}
	}
	rejected := []struct {
		name string
		def  model.CardDef
		want []string
	}{
		{"a melded face given colours", meld(creature("Chittering Host", "", []model.Color{model.Black}, nil)),
			[]string{`card "Graf Rats"`, `face "Chittering Host"`, "colour B", "CR 202.2, 204.2"}},
		{"a colour beyond the mana cost", model.CardDef{Name: "Grizzly Bears", Layout: model.LayoutNormal,
			Front: creature("Grizzly Bears", "{1}{G}", []model.Color{model.Green, model.White}, nil)},
			[]string{`card "Grizzly Bears"`, `face "Grizzly Bears"`, "colour W", `mana cost "{1}{G}"`}},
		{"an unknown colour", model.CardDef{Name: "Saproling Token", Layout: model.LayoutNormal,
			Front: creature("Saproling Token", "", []model.Color{"P"}, nil)},
			[]string{`card "Saproling Token"`, `face "Saproling Token"`, `unknown colour "P"`}},
		{"a back face's colour beyond its indicator", transform(creature("Ironfist Crusher", "", []model.Color{model.Red, model.Blue}, []model.Color{model.Red})),
			[]string{`card "Village Ironsmith"`, `face "Ironfist Crusher"`, "colour U", "colour indicator [R]"}},
		{"a colour of the mana cost left out", model.CardDef{Name: "Grizzly Bears", Layout: model.LayoutNormal,
			Front: creature("Grizzly Bears", "{1}{G}", nil, nil)},
			[]string{`card "Grizzly Bears"`, `mana cost "{1}{G}"`, "it is each colour of both"}},
		{"a colour of the indicator left out", transform(creature("Ironfist Crusher", "", nil, []model.Color{model.Red})),
			[]string{`card "Village Ironsmith"`, `face "Ironfist Crusher"`, "colour indicator [R]", "it is each colour of both"}},
	}
	for _, tc := range rejected {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.def.Validate()
			require.Error(t, err)
			for _, w := range tc.want {
				assert.ErrorContains(t, err, w)
			}
		})
	}
	accepted := []struct {
		name string
		def  model.CardDef
	}{
		{"a melded face with a colour indicator", meld(creature("Chittering Host", "", []model.Color{model.Black}, []model.Color{model.Black}))},
		{"a colourless melded face", meld(creature("Chittering Host", "", nil, nil))},
		{"a back face coloured by its indicator", transform(creature("Ironfist Crusher", "", []model.Color{model.Red}, []model.Color{model.Red}))},
		{"a token's colours its effect gives", model.CardDef{Name: "Saproling Token", Layout: model.LayoutNormal,
			Front: creature("Saproling Token", "", []model.Color{model.Green}, nil)}},
	}
	for _, tc := range accepted {
		t.Run(tc.name, func(t *testing.T) {
			assert.NoError(t, tc.def.Validate())
		})
	}
}

// Test710_712_ALayoutHasItsFacesAndNoOthers: a flip card has a flipped
// half (CR 710.1), a double-faced card a back face (CR 712.1), a meld
// card a melded face (CR 712.4), and a normal card none of those; a
// definition missing its layout's face, or with another's, is rejected,
// naming the card, the layout and the face.
func Test710_712_ALayoutHasItsFacesAndNoOthers(t *testing.T) {
	face := &model.Face{Name: "Other Side"}
	for _, tc := range []struct {
		layout model.Layout
		needs  string
		set    func(d *model.CardDef)
	}{
		{model.LayoutFlip, "flipped", func(d *model.CardDef) { d.Flipped = face }},
		{model.LayoutTransform, "back", func(d *model.CardDef) { d.Back = face }},
		{model.LayoutModal, "back", func(d *model.CardDef) { d.Back = face }},
		{model.LayoutMeld, "melded", func(d *model.CardDef) { d.Melded, d.MeldPartner = face, "Partner" }},
	} {
		t.Run(string(tc.layout), func(t *testing.T) {
			d := model.CardDef{Name: "Card", Layout: tc.layout, Front: model.Face{Name: "Card"}}
			if tc.layout == model.LayoutMeld {
				d.MeldPartner = "Partner"
			}
			assert.ErrorContains(t, d.Validate(), "layout "+string(tc.layout)+" needs a "+tc.needs+" face")
			tc.set(&d)
			assert.NoError(t, d.Validate())

			normal := model.CardDef{Name: "Card", Layout: model.LayoutNormal, Front: model.Face{Name: "Card"}}
			tc.set(&normal)
			normal.MeldPartner = ""
			assert.ErrorContains(t, normal.Validate(), "layout normal has no "+tc.needs+" face")
		})
	}
}

// Test113_3_AbilityKindsDeclaredAsTheyCanBe: a face may declare the kind
// of its own abilities (CR 113.3, 605): each one it has, of a known kind,
// an observer only for a triggered ability, "activation" only for a
// static one; and one ability id is declared one way throughout a
// scenario.
func Test113_3_AbilityKindsDeclaredAsTheyCanBe(t *testing.T) {
	face := func(kinds map[model.AbilityID]model.AbilityKind) model.CardDef {
		return model.CardDef{Name: "X", Layout: model.LayoutNormal, Front: model.Face{Name: "X", Types: []string{"creature"},
			Abilities: []model.AbilityID{"x_trigger", "x_static"}, AbilityKinds: kinds}}
	}
	good := face(map[model.AbilityID]model.AbilityKind{
		"x_trigger": {Kind: model.KindTriggered, Observer: model.CreatureEnters},
		"x_static":  {Kind: model.KindStatic, About: model.AboutActivation},
	})
	require.NoError(t, good.Validate())
	for want, kinds := range map[string]map[model.AbilityID]model.AbilityKind{
		"not among its abilities":  {"y": {Kind: model.KindMana}},
		"want mana, activated":     {"x_trigger": {Kind: "keyword"}},
		"only a triggered ability": {"x_static": {Kind: model.KindStatic, Observer: model.CreatureEnters}},
		"no standard observer":     {"x_trigger": {Kind: model.KindTriggered, Observer: "creature_attacks"}},
		"only a static ability":    {"x_trigger": {Kind: model.KindTriggered, About: model.AboutActivation}},
		`is about "timing"`:        {"x_static": {Kind: model.KindStatic, About: "timing"}},
	} {
		d := face(kinds)
		err := d.Validate()
		if assert.Error(t, err, want) {
			assert.Contains(t, err.Error(), want)
		}
	}
	other := face(map[model.AbilityID]model.AbilityKind{"x_trigger": {Kind: model.KindActivated}})
	other.Name, other.Front.Name = "Y", "Y"
	s := &model.Scenario{Catalogue: []model.CardDef{good, other}}
	_, err := s.DeclaredKinds()
	assert.ErrorContains(t, err, "x_trigger is declared triggered in one place and activated in another")
}

// Test613_1_StaticEffectsDeclaredAsTheyCanBe: a static ability's effect
// (interpreted by layers, CR 613.1f, 613.4c) names what it affects and
// does something; it is declared on a static ability only, without
// "about"; what it grants has no effect of its own; and one ability with
// two different effects is one ability declared two ways.
func Test613_1_StaticEffectsDeclaredAsTheyCanBe(t *testing.T) {
	face := func(kinds map[model.AbilityID]model.AbilityKind) model.CardDef {
		return model.CardDef{Name: "X", Layout: model.LayoutNormal, Front: model.Face{Name: "X", Types: []string{"artifact"},
			Abilities: []model.AbilityID{"x_pump", "x_grant"}, AbilityKinds: kinds}}
	}
	pump := &model.StaticEffect{Affects: model.AffectsEquipped, Power: 1, Toughness: 1}
	good := face(map[model.AbilityID]model.AbilityKind{
		"x_pump":  {Kind: model.KindStatic, Effect: pump},
		"x_grant": {Kind: model.KindStatic, Effect: &model.StaticEffect{Affects: model.AffectsYourCreatures, Grants: []model.AbilityID{"flying"}}},
	})
	require.NoError(t, good.Validate())
	for want, kinds := range map[string]map[model.AbilityID]model.AbilityKind{
		`affects "attacking_creatures"`:  {"x_pump": {Kind: model.KindStatic, Effect: &model.StaticEffect{Affects: "attacking_creatures", Power: 1}}},
		"does nothing":                   {"x_pump": {Kind: model.KindStatic, Effect: &model.StaticEffect{Affects: model.AffectsEnchanted}}},
		"only a static ability is given": {"x_pump": {Kind: model.KindTriggered, Effect: pump}},
		"both an effect and what it is":  {"x_pump": {Kind: model.KindStatic, About: model.AboutActivation, Effect: pump}},
		"grants flying twice":            {"x_pump": {Kind: model.KindStatic, Effect: &model.StaticEffect{Affects: model.AffectsEquipped, Grants: []model.AbilityID{"flying", "flying"}}}},
		"grants[0] is empty":             {"x_pump": {Kind: model.KindStatic, Effect: &model.StaticEffect{Affects: model.AffectsEquipped, Grants: []model.AbilityID{""}}}},
	} {
		d := face(kinds)
		err := d.Validate()
		if assert.Error(t, err, want) {
			assert.Contains(t, err.Error(), want)
		}
	}
	granting := face(map[model.AbilityID]model.AbilityKind{
		"x_pump":  {Kind: model.KindStatic, Effect: pump},
		"x_grant": {Kind: model.KindStatic, Effect: &model.StaticEffect{Affects: model.AffectsEquipped, Grants: []model.AbilityID{"x_pump"}}},
	})
	require.NoError(t, granting.Validate())
	_, err := (&model.Scenario{Catalogue: []model.CardDef{granting}}).DeclaredKinds()
	assert.ErrorContains(t, err, "x_grant grants x_pump, which has an effect of its own")

	other := face(map[model.AbilityID]model.AbilityKind{"x_pump": {Kind: model.KindStatic, Effect: &model.StaticEffect{Affects: model.AffectsEquipped, Power: 2, Toughness: 2}}})
	other.Name, other.Front.Name = "Y", "Y"
	_, err = (&model.Scenario{Catalogue: []model.CardDef{good, other}}).DeclaredKinds()
	assert.ErrorContains(t, err, "x_pump is declared static in two places, differently")
	same := good.Clone()
	same.Name, same.Front.Name = "Z", "Z"
	_, err = (&model.Scenario{Catalogue: []model.CardDef{good, same}}).DeclaredKinds()
	assert.NoError(t, err, "the same effect declared twice is one declaration")
	same.Front.AbilityKinds["x_grant"].Effect.Grants[0] = "reach"
	assert.Equal(t, model.AbilityID("flying"), good.Front.AbilityKinds["x_grant"].Effect.Grants[0], "a clone shares no effect with its original")
}
