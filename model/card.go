package model

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A Layout says how a card's faces are laid out. The rules treat each
// layout differently (CR 710 flip cards, CR 712 double-faced cards).
type Layout string

// The layouts a [CardDef] may have.
const (
	LayoutNormal    Layout = "normal"
	LayoutFlip      Layout = "flip"      // CR 710: alternative characteristics printed upside down
	LayoutTransform Layout = "transform" // CR 712.2: nonmodal double-faced card
	LayoutModal     Layout = "modal_dfc" // CR 712.3: modal double-faced card
	LayoutMeld      Layout = "meld"      // CR 712.4: one half of a meld pair
)

// Layouts lists every layout, in a fixed order.
var Layouts = []Layout{LayoutNormal, LayoutFlip, LayoutTransform, LayoutModal, LayoutMeld}

// DoubleFaced reports whether cards of this layout are double-faced cards
// (CR 712.1: nonmodal, modal and meld cards).
func (l Layout) DoubleFaced() bool {
	return l == LayoutTransform || l == LayoutModal || l == LayoutMeld
}

// A Color is one of the five colors of Magic.
type Color string

// The five colors.
const (
	White Color = "W"
	Blue  Color = "U"
	Black Color = "B"
	Red   Color = "R"
	Green Color = "G"
)

// KeywordCounters lists the keyword counters (CR 122.1b), each named as
// the ability it gives: a permanent with a "flying" counter has flying.
var KeywordCounters = []AbilityID{
	"flying", "first_strike", "double_strike", "deathtouch", "decayed", "exalted", "haste",
	"hexproof", "indestructible", "lifelink", "menace", "reach", "shadow", "trample", "vigilance",
}

// CounterKinds lists the counters a scenario may put on a permanent:
// +1/+1 and -1/-1 (CR 122.1a), loyalty (a planeswalker's, 306.5b: no
// action of the format reads it, as none activates a loyalty ability) and
// the keyword counters. Others are refused rather than silently ignored.
var CounterKinds = append([]string{"+1/+1", "-1/-1", "loyalty"}, func() []string {
	var out []string
	for _, k := range KeywordCounters {
		out = append(out, string(k))
	}
	return out
}()...)

// Colors lists the five colors in their traditional order (CR 105.1).
var Colors = []Color{White, Blue, Black, Red, Green}

// An AbilityID names an ability by a stable identifier, such as "flying",
// "mutate" or "on_mutate". Most are opaque to mergecheck; the ones the
// reference engine gives meaning to are the Ability constants. The
// reference classifies every other one it knows as inert or unmodelled,
// and refuses an action an unmodelled or unknown one could change.
type AbilityID string

// Abilities the reference engine acts on. Any other AbilityID is carried
// through characteristics unchanged.
const (
	// Mutate lets the card be cast as a mutating creature spell (CR 702.140a).
	Mutate AbilityID = "mutate"
	// OnMutate is a "whenever this creature mutates" triggered ability (CR 702.140d).
	OnMutate AbilityID = "on_mutate"
	// Morph lets the card be cast face down and turned face up for its morph cost (CR 702.37).
	Morph AbilityID = "morph"
	// Disguise is morph with ward {2} while face down (CR 702.168).
	Disguise AbilityID = "disguise"
	// Ward2 is ward {2}, listed by cloak and disguise for face-down permanents.
	Ward2 AbilityID = "ward_2"
	// Phasing phases the permanent out and in during its controller's untap step (CR 702.26a).
	Phasing AbilityID = "phasing"
	// EquippedHasteShroud is Lightning Greaves' static ability: the
	// equipped creature has haste and shroud (CR 301.5, layer 6).
	EquippedHasteShroud AbilityID = "equipped_haste_shroud"
	// LeylineOfTheVoid: a card that would go to an opponent's graveyard from anywhere is exiled instead.
	LeylineOfTheVoid AbilityID = "leyline_of_the_void"
	// WheelOfSunAndMoon: a card that would go to the enchanted player's graveyard is revealed
	// and put on the bottom of its owner's library instead.
	WheelOfSunAndMoon AbilityID = "wheel_of_sun_and_moon"
	// RestInPeace: a card or token that would go to a graveyard from anywhere is exiled instead.
	RestInPeace AbilityID = "rest_in_peace"
	// DuplicantImprint: Duplicant has the power, toughness and creature types of the last
	// creature card exiled with it, and is still a Shapeshifter.
	DuplicantImprint AbilityID = "duplicant_imprint"
	// CopyExceptThis is Dimir Doppelganger's ability; a copy it makes keeps it.
	CopyExceptThis AbilityID = "dimir_doppelganger"
	// AsCopy is Clone's: it may enter as a copy of a creature (CR 707.5).
	AsCopy AbilityID = "enter_as_copy"
	// Haste lets a creature attack the turn it comes under its controller's
	// control (CR 702.10b).
	Haste AbilityID = "haste"
	// Vigilance keeps a creature untapped when it attacks (CR 702.20b).
	Vigilance AbilityID = "vigilance"
	// Defender: the creature can't attack (CR 702.3b).
	Defender AbilityID = "defender"
	// EnchantedCantAttackOrBlock is Pacifism's: the creature the Aura
	// enchants can't attack or block, a restriction on attacking (CR
	// 508.1c).
	EnchantedCantAttackOrBlock AbilityID = "enchanted_cant_attack_or_block"
	// Shroud keeps a permanent from being any spell's target (CR
	// 702.18a); Lightning Greaves grants it.
	Shroud AbilityID = "shroud"
	// Hexproof keeps a permanent from being the target of its
	// controller's opponents' spells (CR 702.11b); a hexproof counter
	// gives it (122.1b).
	Hexproof AbilityID = "hexproof"
	// ProtectionFromRed keeps a permanent from being the target of red
	// spells (CR 702.16b).
	ProtectionFromRed AbilityID = "protection_from_red"
	// OpponentsCantCastLow is Brisela's: her controller's opponents can't
	// cast spells of mana value 3 or less (CR 601.3).
	OpponentsCantCastLow AbilityID = "opponents_cant_cast_mv_3_or_less"
	// MeldGisela is Gisela, the Broken Blade's meld ability, which melds
	// her with Bruna into Brisela (CR 701.42a).
	MeldGisela AbilityID = "meld_gisela_the_broken_blade"
)

// CardOnlyReplacement reports whether a is a replacement effect that
// speaks only of "a card" going to a zone, not of tokens (CR 730.3e):
// Leyline of the Void and Wheel of Sun and Moon, not Rest in Peace.
func CardOnlyReplacement(a AbilityID) bool {
	return a == LeylineOfTheVoid || a == WheelOfSunAndMoon
}

// A Face is one set of printed characteristics: a card's only face, one face
// of a double-faced card, the upright or upside-down half of a flip card, or
// the combined back face of a meld pair.
type Face struct {
	Name     string  `json:"name,omitempty"`
	ManaCost string  `json:"mana_cost,omitempty"` // "{2}{B}{B}"; empty for no mana cost
	Colors   []Color `json:"colors,omitempty"`    // from mana cost or color indicator; a token's also from its effect
	// ColorIndicator is the colour indicator printed by the type line
	// (CR 204): the colours of a face without a mana cost, such as a
	// transforming card's back face or a melded face that has one (the
	// catalogue's Eldrazi have none).
	ColorIndicator []Color  `json:"color_indicator,omitempty"`
	Types          []string `json:"types,omitempty"`    // card types: "creature", "instant", ...
	Subtypes       []string `json:"subtypes,omitempty"` // "Rat", "Aura", ...
	Supertypes     []string `json:"supertypes,omitempty"`
	Power          *int     `json:"power,omitempty"`
	Toughness      *int     `json:"toughness,omitempty"`
	// Loyalty is a planeswalker's printed loyalty (CR 209.1): what it
	// enters with as loyalty counters (306.5b). No action of the format
	// reads it; it is kept so that a card is written as it is.
	Loyalty   *int        `json:"loyalty,omitempty"`
	Abilities []AbilityID `json:"abilities,omitempty"`
	// AbilityKinds declares the kind of abilities of the face that the
	// reference does not know (reference.Classify), so that a card can be
	// written as it really is: what kind of ability each is (CR 113.3,
	// 605) decides whether any action of the format can meet it.
	AbilityKinds map[AbilityID]AbilityKind `json:"ability_kinds,omitempty"`
}

// An AbilityKind declares what kind of ability one of a card's own
// abilities is (CR 113.3).
type AbilityKind struct {
	Kind AbilityKindName `json:"kind"`
	// Observer, for a triggered ability, is the standard observer whose
	// trigger event it has ("when this is turned face up":
	// turned_face_up), if one: the traces report it as that observer's
	// trigger.
	Observer Observer `json:"observer,omitempty"`
	// About, for a static ability, says what alone it changes, when that
	// is something no action of the format does: "activation" for an
	// ability that only changes when or how abilities may be activated
	// (CR 602), as no action activates one; "blocking" for one that only
	// changes how a creature blocks or is blocked (509), as no action
	// declares blockers.
	About string `json:"about,omitempty"`
	// Effect, for a static ability, says what it does in terms the
	// reference interprets by the layer rules (CR 613): a static ability
	// with an effect is played, not refused.
	Effect *StaticEffect `json:"effect,omitempty"`
}

// Equal reports whether k and o declare the same ability.
func (k AbilityKind) Equal(o AbilityKind) bool {
	if k.Kind != o.Kind || k.Observer != o.Observer || k.About != o.About || (k.Effect == nil) != (o.Effect == nil) {
		return false
	}
	return k.Effect == nil || k.Effect.Affects == o.Effect.Affects && k.Effect.Power == o.Effect.Power &&
		k.Effect.Toughness == o.Effect.Toughness && k.Effect.LosesAllAbilities == o.Effect.LosesAllAbilities &&
		slices.Equal(k.Effect.Grants, o.Effect.Grants)
}

// A StaticEffect is the continuous effect of one of the commonest static
// abilities (CR 604.2, 611.3): which permanents it applies to, and what it
// does to each of them in layers 6 and 7c (CR 613.1f, 613.4c). It applies
// to a merged permanent as a whole, once (CR 730.2), and has the
// timestamp of the permanent whose ability it is (CR 613.7a, 613.7e).
type StaticEffect struct {
	Affects Affected `json:"affects"`
	// Power and Toughness are added to each affected creature's
	// (layer 7c): "gets +1/+1" is 1 and 1, "gets -2/-0" is -2 and 0.
	Power     int `json:"power,omitempty"`
	Toughness int `json:"toughness,omitempty"`
	// Grants are abilities each affected permanent has (layer 6): "has
	// flying". A granted ability can't itself have an effect.
	Grants []AbilityID `json:"grants,omitempty"`
	// LosesAllAbilities removes every ability the affected permanent has
	// from effects with an earlier timestamp (layer 6).
	LosesAllAbilities bool `json:"loses_all_abilities,omitempty"`
}

// Affected names the permanents a static effect applies to.
type Affected string

// What a static effect may apply to.
const (
	// AffectsEquipped: the permanent its source is attached to, "equipped
	// creature" (CR 301.5a, 301.5f).
	AffectsEquipped Affected = "equipped_creature"
	// AffectsEnchanted: the permanent its source is attached to,
	// "enchanted creature" (CR 303.4b, 303.4m).
	AffectsEnchanted Affected = "enchanted_creature"
	// AffectsYourCreatures: every creature its source's controller
	// controls, the source among them if it is one: "creatures you
	// control".
	AffectsYourCreatures Affected = "creatures_you_control"
)

// AffectedNames lists what a static effect may apply to.
var AffectedNames = []Affected{AffectsEquipped, AffectsEnchanted, AffectsYourCreatures}

// Attached reports whether the effect applies to what its source is
// attached to.
func (a Affected) Attached() bool { return a == AffectsEquipped || a == AffectsEnchanted }

// An AbilityKindName is a kind of ability.
type AbilityKindName string

// The kinds of ability a card definition may declare.
const (
	KindMana      AbilityKindName = "mana"      // CR 605: activated or triggered, it makes mana
	KindActivated AbilityKindName = "activated" // CR 113.3b, 602
	KindTriggered AbilityKindName = "triggered" // CR 113.3c, 603
	KindStatic    AbilityKindName = "static"    // CR 113.3d, 604
)

// AbilityKindNames lists the kinds a definition may declare.
var AbilityKindNames = []AbilityKindName{KindMana, KindActivated, KindTriggered, KindStatic}

// What a static ability may be declared to be about (AbilityKind.About),
// each something no action of the format does: activating an ability
// (CR 602), and blocking (509), as no action declares blockers.
const (
	AboutActivation = "activation"
	AboutBlocking   = "blocking"
)

// Abouts lists what a static ability may be declared to be about.
var Abouts = []string{AboutActivation, AboutBlocking}

// Has reports whether the face lists card type t.
func (f *Face) Has(t string) bool { return slices.Contains(f.Types, t) }

// HasAbility reports whether the face lists ability a.
func (f *Face) HasAbility(a AbilityID) bool { return slices.Contains(f.Abilities, a) }

// ManaValue returns the mana value of the face's own mana cost (CR 202.3).
// It panics on a malformed cost; [CardDef.Validate] rejects those first.
func (f *Face) ManaValue() int {
	n, err := ManaValueOf(f.ManaCost)
	if err != nil {
		panic(err)
	}
	return n
}

// ManaValueOf returns the mana value of a mana cost written in braces, such
// as "{2}{U/B}{G}". Numbers count their value, X counts zero, hybrid symbols
// count their largest part, every other symbol counts one.
func ManaValueOf(cost string) (int, error) {
	total := 0
	rest := cost
	for rest != "" {
		if rest[0] != '{' {
			return 0, fmt.Errorf("mana cost %q: expected '{' at %q", cost, rest)
		}
		end := strings.IndexByte(rest, '}')
		if end < 2 {
			return 0, fmt.Errorf("mana cost %q: unterminated or empty symbol at %q", cost, rest)
		}
		sym := rest[1:end]
		rest = rest[end+1:]
		best := 0
		for part := range strings.SplitSeq(sym, "/") {
			v := 1
			switch {
			case part == "X" || part == "Y" || part == "Z":
				v = 0
			case part == "":
				return 0, fmt.Errorf("mana cost %q: empty part in {%s}", cost, sym)
			case part[0] >= '0' && part[0] <= '9':
				n, err := strconv.Atoi(part)
				if err != nil {
					return 0, fmt.Errorf("mana cost %q: bad number in {%s}", cost, sym)
				}
				v = n
			case strings.Trim(part, "WUBRGCPS") != "":
				return 0, fmt.Errorf("mana cost %q: unknown symbol {%s}", cost, sym)
			}
			best = max(best, v)
		}
		total += best
	}
	return total, nil
}

// costHas reports whether colour c is among ColorsOf(cost), without
// making the list.
func costHas(cost string, c Color) bool {
	return slices.Contains(Colors, c) && strings.Contains(cost, string(c))
}

// layoutFaces says which faces beside the front a layout has (flipped,
// back, melded), and whether the layout is known.
func layoutFaces(l Layout) (faces [3]bool, ok bool) {
	switch l {
	case LayoutNormal:
		return [3]bool{}, true
	case LayoutFlip:
		return [3]bool{true, false, false}, true
	case LayoutTransform, LayoutModal:
		return [3]bool{false, true, false}, true
	case LayoutMeld:
		return [3]bool{false, false, true}, true
	}
	return [3]bool{}, false
}

// ColorsOf returns the colours of the coloured mana symbols of a mana
// cost, hybrid and Phyrexian symbols included (CR 202.2b-d), in WUBRG
// order.
func ColorsOf(cost string) []Color {
	var out []Color
	for _, c := range Colors {
		if strings.Contains(cost, string(c)) {
			out = append(out, c)
		}
	}
	return out
}

// A CardDef is a card's printed definition, or the definition a token was
// created with. Scenarios carry the definitions they use in their catalogue.
type CardDef struct {
	// Name identifies the definition in a catalogue. It is the name of the
	// front face (for a token definition, any unique name such as
	// "Beast Token").
	Name   string `json:"name"`
	Layout Layout `json:"layout"`
	// Front is the only face of a normal card, the upright half of a flip
	// card, or the front face of a double-faced card.
	Front Face `json:"front"`
	// Flipped holds a flip card's alternative characteristics: name, text,
	// type line, power and toughness (CR 710.1b). Color and mana cost are
	// always the front's (CR 710.1c), so they are left empty here.
	Flipped *Face `json:"flipped,omitempty"`
	// Back is the back face of a transforming or modal double-faced card.
	Back *Face `json:"back,omitempty"`
	// MeldPartner names the other card of a meld pair, and Melded holds the
	// combined back face both halves share (CR 712.4, 712.8g). Both halves
	// carry the same Melded face.
	MeldPartner string `json:"meld_partner,omitempty"`
	Melded      *Face  `json:"melded,omitempty"`
}

// Validate reports the first inconsistency in d, such as an unknown layout,
// a missing face for its layout, or a malformed mana cost.
func (d *CardDef) Validate() error {
	if d.Name == "" {
		return fmt.Errorf("card definition has no name")
	}
	if d.Front.Name != d.Name {
		return fmt.Errorf("card %q: front face is named %q; a definition is named after its front face", d.Name, d.Front.Name)
	}
	w, ok := layoutFaces(d.Layout)
	if !ok {
		return fmt.Errorf("card %q: unknown layout %q (want one of %v)", d.Name, d.Layout, Layouts)
	}
	have := [3]bool{d.Flipped != nil, d.Back != nil, d.Melded != nil}
	for i, what := range []string{"flipped", "back", "melded"} {
		if w[i] && !have[i] {
			return fmt.Errorf("card %q: layout %s needs a %s face", d.Name, d.Layout, what)
		}
		if !w[i] && have[i] {
			return fmt.Errorf("card %q: layout %s has no %s face", d.Name, d.Layout, what)
		}
	}
	if (d.Layout == LayoutMeld) != (d.MeldPartner != "") {
		return fmt.Errorf("card %q: meld_partner is set exactly when the layout is meld", d.Name)
	}
	if d.Flipped != nil && (d.Flipped.ManaCost != "" || len(d.Flipped.Colors) > 0) {
		return fmt.Errorf("card %q: a flip card's alternative half has no mana cost or colors of its own (CR 710.1c)", d.Name)
	}
	for _, f := range []*Face{&d.Front, d.Flipped, d.Back, d.Melded} {
		if f == nil {
			continue
		}
		if f.Name == "" {
			return fmt.Errorf("card %q: a face has no name", d.Name)
		}
		if _, err := ManaValueOf(f.ManaCost); err != nil {
			return fmt.Errorf("card %q: %w", d.Name, err)
		}
		if (f.Power == nil) != (f.Toughness == nil) {
			return fmt.Errorf("card %q: face %q has power or toughness but not both", d.Name, f.Name)
		}
		if f.Loyalty != nil && *f.Loyalty < 0 {
			return fmt.Errorf("card %q: face %q has loyalty %d: printed loyalty is not negative (CR 209.1)", d.Name, f.Name, *f.Loyalty)
		}
		for _, list := range [2][]Color{f.Colors, f.ColorIndicator} {
			for _, c := range list {
				if !slices.Contains(Colors, c) {
					return fmt.Errorf("card %q: face %q: unknown colour %q (want W, U, B, R or G)", d.Name, f.Name, c)
				}
			}
		}
		// CR 202.2, 204.2: a face is the colours of its mana cost and of
		// its colour indicator.
		for _, c := range Colors {
			if (costHas(f.ManaCost, c) || slices.Contains(f.ColorIndicator, c)) && !slices.Contains(f.Colors, c) {
				return fmt.Errorf("card %q: face %q has mana cost %q and colour indicator %v but colours %v: it is each colour of both (CR 202.2, 204.2)", d.Name, f.Name, f.ManaCost, f.ColorIndicator, f.Colors)
			}
		}
		if c := f.AddedColors(); len(c) > 0 && (f != &d.Front || !d.MayBeTokens()) {
			return fmt.Errorf("card %q: face %q is colour %s, which neither its mana cost %q nor its colour indicator %v gives (CR 202.2, 204.2)", d.Name, f.Name, c[0], f.ManaCost, f.ColorIndicator)
		}
		if err := f.validateKinds(); err != nil {
			return fmt.Errorf("card %q: face %q: %w", d.Name, f.Name, err)
		}
	}
	return nil
}

// validateKinds checks a face's declared ability kinds: each of an
// ability the face has, of a known kind, an observer only for a triggered
// ability and a known one, and "about" only for a static ability.
func (f *Face) validateKinds() error {
	for _, ab := range slices.Sorted(maps.Keys(f.AbilityKinds)) {
		k := f.AbilityKinds[ab]
		switch {
		case !f.HasAbility(ab):
			return fmt.Errorf("ability_kinds declares %s, which is not among its abilities", ab)
		case !slices.Contains(AbilityKindNames, k.Kind):
			return fmt.Errorf("ability_kinds: %s has kind %q (want mana, activated, triggered or static)", ab, k.Kind)
		case k.Observer != "" && k.Kind != KindTriggered:
			return fmt.Errorf("ability_kinds: %s names observer %s, but only a triggered ability stands for one", ab, k.Observer)
		case k.Observer != "" && !slices.Contains(Observers, k.Observer):
			return fmt.Errorf("ability_kinds: %s names observer %q, which is no standard observer (want one of %v)", ab, k.Observer, Observers)
		case k.About != "" && k.Kind != KindStatic:
			return fmt.Errorf("ability_kinds: %s says what it is about, but only a static ability does", ab)
		case k.About != "" && !slices.Contains(Abouts, k.About):
			return fmt.Errorf("ability_kinds: %s is about %q (want one of %v)", ab, k.About, Abouts)
		case k.Effect != nil && k.Kind != KindStatic:
			return fmt.Errorf("ability_kinds: %s has an effect, but only a static ability is given one", ab)
		case k.Effect != nil && k.About != "":
			return fmt.Errorf("ability_kinds: %s has both an effect and what it is about; give one", ab)
		case k.Effect != nil:
			if err := k.Effect.validate(); err != nil {
				return fmt.Errorf("ability_kinds: %s: effect: %w", ab, err)
			}
		}
	}
	return nil
}

func (e *StaticEffect) validate() error {
	switch {
	case !slices.Contains(AffectedNames, e.Affects):
		return fmt.Errorf("affects %q (want one of %v)", e.Affects, AffectedNames)
	case e.Power == 0 && e.Toughness == 0 && len(e.Grants) == 0 && !e.LosesAllAbilities:
		return fmt.Errorf("does nothing: give power, toughness, grants or loses_all_abilities")
	}
	for i, g := range e.Grants {
		if g == "" {
			return fmt.Errorf("grants[%d] is empty", i)
		}
		if slices.Contains(e.Grants[:i], g) {
			return fmt.Errorf("grants %s twice", g)
		}
	}
	return nil
}

// AddedColors returns the colours the face lists that neither its mana
// cost (CR 202.2) nor its colour indicator (CR 204.2) gives: only the
// effect that creates a token can give those (CR 111.3).
func (f *Face) AddedColors() []Color {
	var out []Color
	for _, c := range f.Colors {
		if !costHas(f.ManaCost, c) && !slices.Contains(f.ColorIndicator, c) {
			out = append(out, c)
		}
	}
	return out
}

// MayBeTokens reports whether d could be the definition of a token an
// effect creates: single-faced and without a mana cost (CR 111.3), so its
// front may carry the colours the effect gives. A definition can't tell
// whether tokens or cards use it; [Scenario.Validate] checks that no card
// uses one that adds colours.
func (d *CardDef) MayBeTokens() bool {
	return d.Layout == LayoutNormal && d.Front.ManaCost == ""
}

// InstantOrSorcery reports whether the card is an instant or sorcery card
// as it is outside the battlefield, that is by its front face (CR 712.8a).
func (d *CardDef) InstantOrSorcery() bool {
	return d.Front.Has("instant") || d.Front.Has("sorcery")
}

// Int returns a pointer to n, for power and toughness literals.
func Int(n int) *int { return &n }

// DeclaredKinds gathers the ability kinds the scenario's card definitions
// declare (Face.AbilityKinds), and returns an error naming an ability
// declared two ways: an ability id means one ability throughout.
func (s *Scenario) DeclaredKinds() (map[AbilityID]AbilityKind, error) {
	var out map[AbilityID]AbilityKind
	add := func(d *CardDef) error {
		for _, f := range []*Face{&d.Front, d.Flipped, d.Back, d.Melded} {
			if f == nil {
				continue
			}
			for ab, k := range f.AbilityKinds {
				if was, ok := out[ab]; ok && !was.Equal(k) {
					if was.Kind == k.Kind {
						return fmt.Errorf("ability %s is declared %s in two places, differently (an ability id means one ability)", ab, k.Kind)
					}
					return fmt.Errorf("ability %s is declared %s in one place and %s in another (an ability id means one ability)", ab, was.Kind, k.Kind)
				}
				if out == nil {
					out = map[AbilityID]AbilityKind{}
				}
				out[ab] = k
			}
		}
		return nil
	}
	for i := range s.Catalogue {
		if err := add(&s.Catalogue[i]); err != nil {
			return nil, err
		}
	}
	for i := range s.Objects {
		if c := s.Objects[i].Copy; c != nil {
			if err := add(c); err != nil {
				return nil, err
			}
		}
	}
	for _, ab := range slices.Sorted(maps.Keys(out)) {
		if e := out[ab].Effect; e != nil {
			for _, g := range e.Grants {
				if out[g].Effect != nil {
					return nil, fmt.Errorf("ability %s grants %s, which has an effect of its own: a granted ability can't be one the reference interprets by layers", ab, g)
				}
			}
		}
	}
	return out, nil
}
