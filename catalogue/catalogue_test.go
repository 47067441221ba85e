package catalogue

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// TestCatalogueLoads checks that cards.json decodes, that no name is defined
// twice, and that every entry passes model.CardDef.Validate.
func TestCatalogueLoads(t *testing.T) {
	require.NoError(t, Check())
	names := Names()
	require.NotEmpty(t, names)
	for _, n := range names {
		d, err := Get(n)
		require.NoError(t, err, n)
		assert.NoError(t, d.Validate(), n)
		assert.Equal(t, n, d.Name)
		assert.Equal(t, n, d.Front.Name, "a definition is named after its front face")
	}
}

// TestCardsJSONIsCanonical checks that cards.json is sorted by name and
// formatted exactly as encoding/json writes it with a two-space indent, so
// that edits produce small, reviewable diffs.
func TestCardsJSONIsCanonical(t *testing.T) {
	var defs []model.CardDef
	require.NoError(t, json.Unmarshal(cardsJSON, &defs))
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	assert.True(t, slices.IsSorted(names), "cards.json entries must be sorted by name")

	want, err := json.MarshalIndent(defs, "", "  ")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(bytes.TrimRight(cardsJSON, "\n")),
		"cards.json is not in canonical form (2-space indent, fields in struct order, empty fields omitted)")
}

// TestNamesSorted checks that Names lists every entry once, in sorted order.
func TestNamesSorted(t *testing.T) {
	var raw []json.RawMessage
	require.NoError(t, json.Unmarshal(cardsJSON, &raw))
	names := Names()
	assert.True(t, slices.IsSorted(names))
	assert.Len(t, names, len(raw))
	assert.Len(t, slices.Compact(slices.Clone(names)), len(names), "names are unique")
}

func TestGetUnknownCardNamesIt(t *testing.T) {
	_, err := Get("No Such Card")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "No Such Card")
	assert.Panics(t, func() { MustGet("No Such Card") })
}

func TestGetReturnsIndependentCopy(t *testing.T) {
	d := MustGet("Midnight Scavengers")
	d.Front.Subtypes[0] = "Changed"
	d.Melded.Name = "Changed"
	*d.Front.Power = 99
	again := MustGet("Midnight Scavengers")
	assert.Equal(t, []string{"Human", "Rogue"}, again.Front.Subtypes)
	assert.Equal(t, "Chittering Host", again.Melded.Name)
	assert.Equal(t, 3, *again.Front.Power)
}

// pt asserts a face's power and toughness.
func pt(t *testing.T, f *model.Face, p, tough int) {
	t.Helper()
	require.NotNil(t, f)
	if assert.NotNil(t, f.Power, "%s has no power", f.Name) && assert.NotNil(t, f.Toughness) {
		assert.Equal(t, p, *f.Power, "%s power", f.Name)
		assert.Equal(t, tough, *f.Toughness, "%s toughness", f.Name)
	}
}

// TestCardFacts checks printed facts that the rules' examples, and so the
// scenarios built on them, depend on.
func TestCardFacts(t *testing.T) {
	tests := []struct {
		name   string // card looked up in the catalogue
		reason string // the rule or example relying on the fact
		check  func(t *testing.T, d model.CardDef)
	}{
		{
			name:   "Soltari Priest",
			reason: "702.16b: a white {W}{W} 2/1 Soltari Cleric, not a Human, with protection from red",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, "{W}{W}", d.Front.ManaCost)
				assert.Equal(t, []model.Color{model.White}, d.Front.Colors)
				assert.Equal(t, []string{"Soltari", "Cleric"}, d.Front.Subtypes)
				assert.True(t, d.Front.HasAbility("protection_from_red"))
				pt(t, &d.Front, 2, 1)
			},
		},
		{
			name:   "Midnight Scavengers",
			reason: "712.5a: a {4}{B} 3/3 Human Rogue that melds with Graf Rats into Chittering Host, a colourless 5/6 Eldrazi Horror with haste and menace",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutMeld, d.Layout)
				assert.Equal(t, "Graf Rats", d.MeldPartner)
				assert.Equal(t, "{4}{B}", d.Front.ManaCost)
				assert.Equal(t, []string{"Human", "Rogue"}, d.Front.Subtypes)
				pt(t, &d.Front, 3, 3)
				require.NotNil(t, d.Melded)
				assert.Equal(t, "Chittering Host", d.Melded.Name)
				assert.Empty(t, d.Melded.Colors)
				assert.Equal(t, []string{"Eldrazi", "Horror"}, d.Melded.Subtypes)
				assert.True(t, d.Melded.HasAbility("haste"))
				assert.True(t, d.Melded.HasAbility("menace"))
				pt(t, d.Melded, 5, 6)
			},
		},
		{
			name:   "Graf Rats",
			reason: "712.5a: the other half of the Chittering Host pair, a {1}{B} 2/1 Rat",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, "Midnight Scavengers", d.MeldPartner)
				assert.Equal(t, "{1}{B}", d.Front.ManaCost)
				assert.Equal(t, []string{"Rat"}, d.Front.Subtypes)
				pt(t, &d.Front, 2, 1)
				assert.Equal(t, MustGet("Midnight Scavengers").Melded, d.Melded)
			},
		},
		{
			name:   "Jushi Apprentice",
			reason: "110.5c example, 710: flips to Tomoya the Revealer, which is legendary while the upright half is not",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutFlip, d.Layout)
				require.NotNil(t, d.Flipped)
				assert.Equal(t, "Tomoya the Revealer", d.Flipped.Name)
				assert.Contains(t, d.Flipped.Supertypes, "Legendary")
				assert.NotContains(t, d.Front.Supertypes, "Legendary")
				assert.Equal(t, []model.Color{model.Blue}, d.Front.Colors)
			},
		},
		{
			name:   "Nezumi Shortfang",
			reason: "110.5c and 707.3 examples: the flipped version of Nezumi Shortfang is Stabwhisker the Odious",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutFlip, d.Layout)
				require.NotNil(t, d.Flipped)
				assert.Equal(t, "Stabwhisker the Odious", d.Flipped.Name)
				assert.Contains(t, d.Flipped.Supertypes, "Legendary")
			},
		},
		{
			name:   "Akki Lavarunner",
			reason: "710.2 example: a nonlegendary creature that flips into legendary Tok-Tok, Volcano Born",
			check: func(t *testing.T, d model.CardDef) {
				assert.Empty(t, d.Front.Supertypes)
				require.NotNil(t, d.Flipped)
				assert.Equal(t, "Tok-Tok, Volcano Born", d.Flipped.Name)
				assert.Equal(t, []string{"Legendary"}, d.Flipped.Supertypes)
			},
		},
		{
			name:   "Huntmaster of the Fells",
			reason: "202.3b example: mana cost {2}{R}{G}, mana value 4; its back face Ravager of the Fells has no mana cost",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutTransform, d.Layout)
				assert.Equal(t, "{2}{R}{G}", d.Front.ManaCost)
				assert.Equal(t, 4, d.Front.ManaValue())
				require.NotNil(t, d.Back)
				assert.Equal(t, "Ravager of the Fells", d.Back.Name)
				assert.Empty(t, d.Back.ManaCost)
				assert.Equal(t, 0, d.Back.ManaValue())
			},
		},
		{
			name:   "Delver of Secrets",
			reason: "202.3b example: Insectile Aberration is the back face of a card whose front face costs {U}",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, "{U}", d.Front.ManaCost)
				require.NotNil(t, d.Back)
				assert.Equal(t, "Insectile Aberration", d.Back.Name)
				assert.Equal(t, []model.Color{model.Blue}, d.Back.Colors)
			},
		},
		{
			name:   "Village Ironsmith",
			reason: "712.18 example (effects continue after transforming): Village Ironsmith transforms into Ironfang",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutTransform, d.Layout)
				require.NotNil(t, d.Back)
				assert.Equal(t, "Ironfang", d.Back.Name)
			},
		},
		{
			name:   "Afflicted Deserter",
			reason: "707.8a example: the back face of Afflicted Deserter is Werewolf Ransacker",
			check: func(t *testing.T, d model.CardDef) {
				assert.True(t, d.Layout.DoubleFaced())
				require.NotNil(t, d.Back)
				assert.Equal(t, "Werewolf Ransacker", d.Back.Name)
			},
		},
		{
			name:   "Kruin Outlaw",
			reason: "712.9 example: Kruin Outlaw is the front face of a double-faced card",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutTransform, d.Layout)
				require.NotNil(t, d.Back)
				assert.Equal(t, "Terror of Kruin Pass", d.Back.Name)
			},
		},
		{
			name:   "Duplicant",
			reason: "712.21b example: Duplicant is a 2/4 Shapeshifter whose imprint ability copies power, toughness and creature types",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, []string{"artifact", "creature"}, d.Front.Types)
				assert.Equal(t, []string{"Shapeshifter"}, d.Front.Subtypes)
				pt(t, &d.Front, 2, 4)
				assert.True(t, d.Front.HasAbility(model.DuplicantImprint))
				assert.Empty(t, d.Front.Colors)
			},
		},
		{
			name:   "Grizzly Bears",
			reason: "a plain 2/2 green Bear",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, []model.Color{model.Green}, d.Front.Colors)
				assert.Equal(t, []string{"Bear"}, d.Front.Subtypes)
				pt(t, &d.Front, 2, 2)
				assert.Empty(t, d.Front.Abilities)
			},
		},
		{
			name:   "Runeclaw Bear",
			reason: "707.3 and 110.5c examples: a 2/2 green Bear creature with no abilities",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, []model.Color{model.Green}, d.Front.Colors)
				assert.Equal(t, []string{"Bear"}, d.Front.Subtypes)
				pt(t, &d.Front, 2, 2)
				assert.Empty(t, d.Front.Abilities)
			},
		},
		{
			name:   "Elite Vanguard",
			reason: "712.9 example: a 2/1 Human Soldier creature (an illegal target for mutate, 702.140a)",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, []string{"Human", "Soldier"}, d.Front.Subtypes)
				pt(t, &d.Front, 2, 1)
			},
		},
		{
			name:   "Grinning Demon",
			reason: "707.2 and 707.3 examples: a creature with morph {2}{B}{B}",
			check: func(t *testing.T, d model.CardDef) {
				assert.True(t, d.Front.HasAbility(model.Morph))
				assert.Equal(t, "{2}{B}{B}", d.Front.ManaCost)
			},
		},
		{
			name:   "Branchsnap Lorian",
			reason: "707.3 example: a 4/1 green creature with trample and morph",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, []model.Color{model.Green}, d.Front.Colors)
				pt(t, &d.Front, 4, 1)
				assert.True(t, d.Front.HasAbility("trample"))
				assert.True(t, d.Front.HasAbility(model.Morph))
			},
		},
		{
			name:   "Wandering Ones",
			reason: "707.3 example: a 1/1 blue Spirit creature that doesn't have morph",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, []model.Color{model.Blue}, d.Front.Colors)
				assert.Equal(t, []string{"Spirit"}, d.Front.Subtypes)
				pt(t, &d.Front, 1, 1)
				assert.False(t, d.Front.HasAbility(model.Morph))
			},
		},
		{
			name:   "Valakut Awakening",
			reason: "712.8a: a modal double-faced card with an instant front face is an instant card outside the battlefield",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutModal, d.Layout)
				assert.True(t, d.InstantOrSorcery())
				require.NotNil(t, d.Back)
				assert.Equal(t, "Valakut Stoneforge", d.Back.Name)
				assert.True(t, d.Back.Has("land"))
			},
		},
		{
			name:   "Agadeem's Awakening",
			reason: "712.8a: a modal double-faced card with a sorcery front face",
			check: func(t *testing.T, d model.CardDef) {
				assert.True(t, d.Front.Has("sorcery"))
				assert.Equal(t, 3, d.Front.ManaValue(), "X counts zero")
				require.NotNil(t, d.Back)
				assert.Equal(t, "Agadeem, the Undercrypt", d.Back.Name)
			},
		},
		{
			name:   "Kazandu Mammoth",
			reason: "712.8a: a modal double-faced creature card with a land back face is not an instant or sorcery card",
			check: func(t *testing.T, d model.CardDef) {
				assert.False(t, d.InstantOrSorcery())
				require.NotNil(t, d.Back)
				assert.Equal(t, "Kazandu Valley", d.Back.Name)
			},
		},
		{
			name:   "Dimir Doppelganger",
			reason: "110.5c example: its copy effect keeps this ability",
			check: func(t *testing.T, d model.CardDef) {
				assert.True(t, d.Front.HasAbility(model.CopyExceptThis))
			},
		},
		{
			name:   "Wheel of Sun and Moon",
			reason: "712.21d example: an Aura with enchant player and a graveyard replacement effect",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, []string{"Aura"}, d.Front.Subtypes)
				assert.True(t, d.Front.HasAbility(model.WheelOfSunAndMoon))
				assert.Equal(t, 2, d.Front.ManaValue())
			},
		},
		{
			name:   "Leyline of the Void",
			reason: "712.21d example: an enchantment exiling cards that would go to an opponent's graveyard",
			check: func(t *testing.T, d model.CardDef) {
				assert.True(t, d.Front.Has("enchantment"))
				assert.True(t, d.Front.HasAbility(model.LeylineOfTheVoid))
			},
		},
		{
			name:   "Rest in Peace",
			reason: "graveyard replacement effect for cards and tokens",
			check: func(t *testing.T, d model.CardDef) {
				assert.True(t, d.Front.HasAbility(model.RestInPeace))
			},
		},
		{
			name:   "Breezekeeper",
			reason: "702.26a: a creature with phasing",
			check: func(t *testing.T, d model.CardDef) {
				assert.True(t, d.Front.Has("creature"))
				assert.True(t, d.Front.HasAbility(model.Phasing))
			},
		},
		{
			name:   "Pacifism",
			reason: "508.1c: a {1}{W} white Aura with enchant creature whose ability keeps the enchanted creature from attacking",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, "{1}{W}", d.Front.ManaCost)
				assert.Equal(t, []model.Color{model.White}, d.Front.Colors)
				assert.Equal(t, []string{"enchantment"}, d.Front.Types)
				assert.Equal(t, []string{"Aura"}, d.Front.Subtypes)
				assert.Equal(t, []model.AbilityID{"enchant_creature", "enchanted_cant_attack_or_block"}, d.Front.Abilities)
			},
		},
		{
			name:   "Clone",
			reason: "707.2 and 707.8a examples: Clone is a 0/0 Shapeshifter and not a double-faced card",
			check: func(t *testing.T, d model.CardDef) {
				assert.Equal(t, model.LayoutNormal, d.Layout)
				pt(t, &d.Front, 0, 0)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Get(tc.name)
			require.NoError(t, err, tc.reason)
			tc.check(t, d)
			if t.Failed() {
				t.Logf("fact relied on: %s", tc.reason)
			}
		})
	}
}

// Test202_2_ColoursComeFromManaCostAndColourIndicator: every face of
// every card is exactly the colours of its mana cost and its colour
// indicator (tokens: the colours their effect gives); every back face of
// a transforming card that has a colour shows it by an indicator.
func Test202_2_ColoursComeFromManaCostAndColourIndicator(t *testing.T) {
	tokens := []string{"Beast Token", "Saproling Token", "Incubator Token"}
	for _, name := range Names() {
		d := MustGet(name)
		for _, f := range []*model.Face{&d.Front, d.Back, d.Melded} {
			// (A flip card's other half has its card's colours, CR 710.1c;
			// a token's, those the effect that made it gives, CR 111.3.)
			if f == nil || f == &d.Front && slices.Contains(tokens, name) {
				continue
			}
			want := model.ColorsOf(f.ManaCost)
			for _, c := range f.ColorIndicator {
				if !slices.Contains(want, c) {
					want = append(want, c)
				}
			}
			have := slices.Clone(f.Colors)
			slices.Sort(have)
			slices.Sort(want)
			assert.Equal(t, want, have, "%s: face %s", name, f.Name)
		}
		if d.Layout == model.LayoutTransform && len(d.Back.Colors) > 0 {
			assert.NotEmpty(t, d.Back.ColorIndicator, "%s: back face %s has colours but no mana cost, so an indicator", name, d.Back.Name)
		}
	}
}

// meldPair checks that a and b are a meld pair melding into melded with the
// given power and toughness, and that both carry the identical melded face.
func meldPair(t *testing.T, a, b, melded string, p, tough int) {
	t.Helper()
	da, db := MustGet(a), MustGet(b)
	for _, d := range []model.CardDef{da, db} {
		assert.Equal(t, model.LayoutMeld, d.Layout, d.Name)
		require.NotNil(t, d.Melded, d.Name)
		assert.Equal(t, melded, d.Melded.Name)
		assert.Empty(t, d.Melded.ManaCost, "a melded face has no mana cost")
		assert.Empty(t, d.Melded.ColorIndicator, "a melded face has no colour indicator")
		assert.Empty(t, d.Melded.Colors, "with no mana cost and no colour indicator, a melded face is colourless (CR 202.2b, 204)")
		pt(t, d.Melded, p, tough)
	}
	assert.Equal(t, b, da.MeldPartner)
	assert.Equal(t, a, db.MeldPartner)
	assert.Equal(t, da.Melded, db.Melded, "both halves carry the same melded face")
}

func Test712_5a_MeldPairChitteringHost(t *testing.T) {
	meldPair(t, "Midnight Scavengers", "Graf Rats", "Chittering Host", 5, 6)
	host := MustGet("Midnight Scavengers").Melded
	assert.Equal(t, []string{"creature"}, host.Types)
	assert.Equal(t, []string{"Eldrazi", "Horror"}, host.Subtypes)
	assert.Empty(t, host.Supertypes)
	assert.True(t, host.HasAbility("menace"))
}

// Test712_8g_MeldedManaValueIsSumOfFronts checks the mana values 202.3c
// adds up for each melded permanent: Chittering Host 5 + 2, Hanweir 3 + 0,
// Brisela 7 + 4.
func Test712_8g_MeldedManaValueIsSumOfFronts(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"Midnight Scavengers", "Graf Rats", 7},
		{"Hanweir Garrison", "Hanweir Battlements", 3},
		{"Bruna, the Fading Light", "Gisela, the Broken Blade", 11},
	} {
		da, db := MustGet(tc.a), MustGet(tc.b)
		assert.Equal(t, tc.want, da.Front.ManaValue()+db.Front.ManaValue(), "%s + %s", tc.a, tc.b)
		assert.Empty(t, da.Melded.ManaCost)
	}
}

func Test712_5b_MeldPairHanweirTheWrithingTownship(t *testing.T) {
	meldPair(t, "Hanweir Garrison", "Hanweir Battlements", "Hanweir, the Writhing Township", 7, 4)
	battlements := MustGet("Hanweir Battlements")
	assert.True(t, battlements.Front.Has("land"))
	assert.Empty(t, battlements.Front.ManaCost)
}

func Test712_5c_MeldPairBriselaVoiceOfNightmares(t *testing.T) {
	meldPair(t, "Bruna, the Fading Light", "Gisela, the Broken Blade", "Brisela, Voice of Nightmares", 9, 10)
	assert.Contains(t, MustGet("Gisela, the Broken Blade").Melded.Supertypes, "Legendary")
}

// Test712_5_MeldPartnersPointAtEachOther checks every meld card in the
// catalogue: its partner exists, is a different meld card, names it back, and
// carries the same melded face.
func Test712_5_MeldPartnersPointAtEachOther(t *testing.T) {
	n := 0
	for _, name := range Names() {
		d := MustGet(name)
		if d.Layout != model.LayoutMeld {
			continue
		}
		n++
		assert.NotEqual(t, name, d.MeldPartner)
		p, err := Get(d.MeldPartner)
		if !assert.NoError(t, err, "partner of %s", name) {
			continue
		}
		assert.Equal(t, model.LayoutMeld, p.Layout, "partner of %s", name)
		assert.Equal(t, name, p.MeldPartner, "partner of %s", name)
		assert.Equal(t, d.Melded, p.Melded, "%s and %s carry different melded faces", name, p.Name)
	}
	assert.GreaterOrEqual(t, n, 6, "the three meld pairs of 712.5a-c")
	assert.Zero(t, n%2, "meld cards come in pairs")
}

// Test702_140a_MutateCardsAreNonHumanCreatures checks every mutate card: a
// mutating creature spell needs a non-Human target, and the catalogue's
// mutate cards are creatures that are not Humans themselves. A card lists
// "on_mutate" at most once.
func Test702_140a_MutateCardsAreNonHumanCreatures(t *testing.T) {
	mutate, onMutate := 0, 0
	for _, name := range Names() {
		d := MustGet(name)
		if d.Front.HasAbility(model.OnMutate) {
			onMutate++
			n := 0
			for _, a := range d.Front.Abilities {
				if a == model.OnMutate {
					n++
				}
			}
			assert.Equal(t, 1, n, "%s lists on_mutate more than once", name)
		}
		if !d.Front.HasAbility(model.Mutate) {
			continue
		}
		mutate++
		assert.True(t, d.Front.Has("creature"), "%s has mutate but is not a creature", name)
		assert.NotContains(t, d.Front.Subtypes, "Human", name)
		assert.NotNil(t, d.Front.Power, name)
	}
	assert.GreaterOrEqual(t, mutate, 6)
	assert.Positive(t, onMutate)
	assert.Less(t, onMutate, mutate, "some mutate cards have no mutate trigger")
}

// Test710_1_FlipCardsHaveTwoNamedHalves checks each flip card's alternative
// half: it has its own name and type line, and takes its mana cost and color
// from the upright half (710.1c).
func Test710_1_FlipCardsHaveTwoNamedHalves(t *testing.T) {
	n := 0
	for _, name := range Names() {
		d := MustGet(name)
		if d.Layout != model.LayoutFlip {
			continue
		}
		n++
		require.NotNil(t, d.Flipped, name)
		assert.NotEqual(t, d.Front.Name, d.Flipped.Name)
		assert.NotEmpty(t, d.Flipped.Types, name)
		assert.Empty(t, d.Flipped.ManaCost, name)
		assert.Empty(t, d.Flipped.Colors, name)
		assert.NotEmpty(t, d.Front.ManaCost, name)
	}
	assert.GreaterOrEqual(t, n, 3)
}

// Test712_8e_TransformBackFacesHaveNoManaCost checks every nonmodal
// double-faced definition: the back face has no mana cost of its own.
func Test712_8e_TransformBackFacesHaveNoManaCost(t *testing.T) {
	for _, name := range Names() {
		d := MustGet(name)
		if d.Layout != model.LayoutTransform {
			continue
		}
		require.NotNil(t, d.Back, name)
		assert.Empty(t, d.Back.ManaCost, name)
		assert.NotEqual(t, d.Front.Name, d.Back.Name, name)
	}
}

// Test111_10i_IncubatorToken checks the Incubator token definition: a
// colorless Incubator artifact whose back face is a 0/0 colorless Phyrexian
// artifact creature named Phyrexian Token.
func Test111_10i_IncubatorToken(t *testing.T) {
	d := MustGet("Incubator Token")
	assert.Equal(t, model.LayoutTransform, d.Layout)
	assert.Equal(t, []string{"artifact"}, d.Front.Types)
	assert.Equal(t, []string{"Incubator"}, d.Front.Subtypes)
	assert.Empty(t, d.Front.Colors)
	assert.Empty(t, d.Front.ManaCost)
	require.NotNil(t, d.Back)
	assert.Equal(t, "Phyrexian Token", d.Back.Name)
	assert.Equal(t, []string{"artifact", "creature"}, d.Back.Types)
	assert.Equal(t, []string{"Phyrexian"}, d.Back.Subtypes)
	assert.Empty(t, d.Back.Colors)
	pt(t, d.Back, 0, 0)
}

// Test111_TokenDefinitions checks the plain token definitions scenarios use.
func Test111_TokenDefinitions(t *testing.T) {
	for _, tc := range []struct {
		name, subtype string
		p, tough      int
	}{
		{"Beast Token", "Beast", 3, 3},
		{"Saproling Token", "Saproling", 1, 1},
	} {
		d := MustGet(tc.name)
		assert.Equal(t, model.LayoutNormal, d.Layout)
		assert.Empty(t, d.Front.ManaCost, "tokens have no mana cost")
		assert.Equal(t, []model.Color{model.Green}, d.Front.Colors)
		assert.Equal(t, []string{"creature"}, d.Front.Types)
		assert.Equal(t, []string{tc.subtype}, d.Front.Subtypes)
		pt(t, &d.Front, tc.p, tc.tough)
	}
}

// TestColorsMatchManaCost checks that every face with a mana cost lists
// exactly the colors of its colored mana symbols (202.2), in WUBRG order.
func TestColorsMatchManaCost(t *testing.T) {
	order := []model.Color{model.White, model.Blue, model.Black, model.Red, model.Green}
	for _, name := range Names() {
		d := MustGet(name)
		for _, f := range []*model.Face{&d.Front, d.Back} {
			if f == nil || f.ManaCost == "" {
				continue
			}
			var want []model.Color
			for _, c := range order {
				if strings.Contains(f.ManaCost, string(c)) {
					want = append(want, c)
				}
			}
			assert.Equal(t, want, f.Colors, "%s: colors of %s", name, f.ManaCost)
		}
	}
}
