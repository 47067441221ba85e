package reference

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// An AbilityClass says what the reference does with an ability.
type AbilityClass string

// The classes of ability.
const (
	// Interpreted: the reference acts on it, by the rules its
	// classification names.
	Interpreted AbilityClass = "interpreted"
	// Inert: no action of the scenario format can have another outcome
	// because of it, for the reason its classification gives.
	Inert AbilityClass = "inert"
	// Unmodelled: it could change the outcome of the actions its
	// classification names, and the reference does not model it, so it
	// refuses those actions while it counts (see [Whose]).
	Unmodelled AbilityClass = "unmodelled"
)

// Whose says, for an unmodelled ability, which permanent must have it for
// an action to be refused: the ability changes what is done to that
// permanent, or what that permanent allows.
type Whose string

// Whose an unmodelled ability counts. The first five are looked at before
// the action; the last three after it, in the state it leaves.
const (
	// WhoseSubject: the permanent the action acts on (object), or the one
	// it targets or merges with (cast_mutate, merge, the resolving spell's
	// target).
	WhoseSubject Whose = "the permanent the action acts on or targets"
	// WhoseAttached: a permanent attached to the subject, such as an Aura.
	WhoseAttached Whose = "a permanent attached to the one the action acts on or targets"
	// WhoseActive: any permanent the active player controls.
	WhoseActive Whose = "any permanent the active player controls"
	// WhoseOpponents: any permanent an opponent of the player taking the
	// action (a spell's caster, the active player) controls.
	WhoseOpponents Whose = "any permanent an opponent of the player taking the action controls"
	// WhoseAny: any permanent on the battlefield.
	WhoseAny Whose = "any permanent on the battlefield"
	// WhoseEntering: a permanent the action put onto the battlefield.
	WhoseEntering Whose = "a permanent the action puts onto the battlefield"
	// WhoseEnchantingNoncreature: an Aura attached to a permanent that
	// is not a creature once the action is done.
	WhoseEnchantingNoncreature Whose = "an Aura attached to a permanent the action leaves a noncreature"
	// WhoseInPlay: any permanent on the battlefield, in every state: the
	// ability changes what the state shows, from the start on.
	WhoseInPlay Whose = "any permanent on the battlefield, in every state"
)

// after reports whether the ability is looked for in the state the
// action leaves rather than before it.
func (w Whose) after() bool {
	return w == WhoseEntering || w == WhoseEnchantingNoncreature || w == WhoseInPlay
}

// A Classification says what the reference does with one ability.
type Classification struct {
	Class AbilityClass
	// Rules are, for an interpreted ability, the rules the reference
	// implements for it; for an unmodelled one, the rules that would say
	// what it does, where known.
	Rules []model.RuleID
	// Why is, for an inert ability, why no action's outcome can differ;
	// for an unmodelled one, what it could change.
	Why string
	// Actions are the action types an unmodelled ability could change.
	Actions []model.ActionType
	// Whose says on which permanent an unmodelled ability counts.
	Whose Whose
	// Held says, for an unmodelled ability, that the texts of the rules
	// named are among those the model holds; a refusal says when not.
	Held bool
	// RefusedAs names the refusal by which the reference already refuses
	// what the ability could change, under a name of its own; the
	// unmodelled-ability refusal then leaves it to that one.
	RefusedAs string
}

// Reasons shared by many inert abilities.
const (
	triggered = "a triggered ability: the format records only the standard observers' trigger conditions, and no action resolves a card's triggered ability"
	activated = "an activated ability: no action of the format activates one"
	combat    = "it acts on blocking or combat damage, and the format has no declare-blockers or combat-damage step (no action follows an attack)"
	spellOnly = "an instant's or sorcery's effect: the format casts only permanent spells, and a face-down instant or sorcery has no abilities"
	noDamage  = "it changes damage, and no action of the format deals damage"
)

func interpreted(rules ...model.RuleID) Classification {
	return Classification{Class: Interpreted, Rules: rules}
}

func inert(why string) Classification { return Classification{Class: Inert, Why: why} }

// inertAs is inert for a triggered or activated ability whose instruction
// is an action of the format.
func inertAs(why string, action model.ActionType) Classification {
	return inert(why + "; the " + string(action) + " action stands for what it does, as the scenario scripts it")
}

func unmodelled(why string, whose Whose, actions ...model.ActionType) Classification {
	return Classification{Class: Unmodelled, Why: why, Whose: whose, Actions: actions}
}

// cites names the rules that say what an unmodelled ability does.
func (c Classification) cites(rules ...model.RuleID) Classification {
	c.Rules = rules
	return c
}

// held says that the rules c cites are among the rule texts the model
// holds; by default they are not, and a refusal says so.
func (c Classification) held() Classification {
	c.Held = true
	return c
}

func (c Classification) refusedAs(feature string) Classification {
	c.RefusedAs = feature
	return c
}

// Shroud is the ability Lightning Greaves gives the equipped creature
// along with haste. The reference grants it but does not model it.
const Shroud = model.Shroud

// Hexproof keeps a permanent from being the target of its controller's
// opponents' spells (CR 702.11b); the reference reads it from hexproof
// counters (122.1b).
const Hexproof = model.Hexproof

// ProtectionFromRed keeps a permanent from being the target of red
// spells (CR 702.16b). Red Auras and Equipment attached to it (702.16c-d)
// are refused by name (protection-from-an-attachment).
const ProtectionFromRed = model.ProtectionFromRed

// protectedFrom reports whether a permanent with abilities can't be the
// target of a spell of colours (CR 702.16b).
func (g *game) protectedFrom(abilities []model.AbilityID, colours []model.Color) bool {
	return slices.Contains(abilities, ProtectionFromRed) && (slices.Contains(colours, model.Red) || g.is(bugProtectionFromEverySpell))
}

// OpponentsCantCastLow is Brisela's restriction: its controller's
// opponents can't cast spells of mana value 3 or less (CR 601.3).
const OpponentsCantCastLow = model.OpponentsCantCastLow

// equipmentGrants are the abilities equipped_haste_shroud gives the
// equipped creature (CR 301.5, layer 6).
var equipmentGrants = []model.AbilityID{model.Haste, Shroud}

// Granted lists the abilities the reference itself gives permanents, on
// top of those their cards and counters give: what Lightning Greaves
// grants, and the ward {2} of a cloaked or disguised face-down permanent
// (CR 701.58a, 702.168a).
func Granted() []model.AbilityID {
	return append(slices.Clone(equipmentGrants), model.Ward2)
}

// entering lists the actions that put a permanent onto the battlefield.
var entering = []model.ActionType{model.Resolve, model.Return, model.CreateToken, model.TokenCopy, model.EnterAsCopy, model.Meld}

// targeting lists the actions at which a mutating spell's target must be
// legal: as it is cast and as it resolves (CR 702.140a-b).
var targeting = []model.ActionType{model.CastMutate, model.Resolve}

// classifications holds the classification of every ability the reference
// knows: those of the catalogue's cards, the keyword counters' and the
// ones it grants. A scenario may define cards with other abilities; the
// reference refuses them once they are in play (unclassified-ability).
var classifications = map[model.AbilityID]Classification{
	// Interpreted: the reference reads these.
	model.Mutate:   interpreted("702.140a", "702.140c"),
	model.OnMutate: interpreted("702.140d"),
	// Essence Symbiote's "whenever a creature you control mutates",
	// declared triggered on the mutates observer (mutatesTrigger).
	"creature_you_control_mutates_pump_gain_life": interpreted("702.140d"),
	model.Morph:                      interpreted("702.37a", "702.37c", "702.37e"),
	model.Disguise:                   interpreted("702.168a", "702.168d"),
	model.Phasing:                    interpreted("702.26a", "502.1"),
	model.EquippedHasteShroud:        interpreted("301.5", "613.1f"),
	model.LeylineOfTheVoid:           interpreted("616.1", "730.3d", "712.21d"),
	model.WheelOfSunAndMoon:          interpreted("616.1", "730.3d", "712.21d"),
	model.RestInPeace:                interpreted("616.1", "730.3d", "712.21d"),
	model.DuplicantImprint:           interpreted("607", "712.21b", "613.1d"),
	model.CopyExceptThis:             interpreted("707.2", "707.9a"),
	model.AsCopy:                     interpreted("707.5", "707.2"),
	model.Haste:                      interpreted("702.10b", "302.6"),
	"vigilance":                      interpreted("508.1f", "702.20b"),
	model.Defender:                   interpreted("702.3b", "508.1c"),
	model.EnchantedCantAttackOrBlock: interpreted("508.1c"),
	Shroud:                           interpreted("702.18a", "601.2c", "702.140b"),
	OpponentsCantCastLow:             interpreted("601.3"),
	Hexproof:                         interpreted("702.11b", "601.2c", "702.140b"),
	ProtectionFromRed:                interpreted("702.16b", "601.2c", "702.140b"),
	model.Ward2:                      interpreted("702.21a", "701.6a"),

	// Keyword counters' keywords (CR 122.1b) whose effects no action can
	// show.
	"flying":        inert("evasion: " + combat),
	"first_strike":  inert(combat),
	"double_strike": inert(combat),
	"deathtouch":    inert(combat),
	"lifelink":      inert(combat),
	"menace":        inert("evasion: " + combat),
	"reach":         inert(combat),
	"shadow":        inert("evasion: " + combat),
	"trample":       inert(combat),
	"decayed":       inert("it forbids blocking and sacrifices the creature at end of combat, which the format never reaches (no action follows an attack)"),
	"exalted":       inert(triggered),

	// Triggered abilities.
	"attack_create_attacking_eldrazi_horrors":    inert(triggered),
	"attack_create_attacking_humans":             inert(triggered),
	"cast_return_angel_or_human":                 inert(triggered),
	"combat_damage_draw":                         inert(triggered),
	"combat_damage_may_draw":                     inert(triggered),
	"etb_draw":                                   inert(triggered),
	"etb_exile_all_graveyards":                   inert(triggered),
	"etb_or_transform_wolf_and_gain_2":           inert(triggered),
	"etb_other_creatures_plus_1_0_and_menace":    inert(triggered),
	"etb_return_creature_card":                   inert(triggered),
	"landfall_plus_2_2":                          inert(triggered),
	"opponent_upkeep_lose_life_per_missing_card": inert(triggered),
	"transform_damage_opponent_and_creature":     inert(triggered),
	"transform_destroy_artifact":                 inert(triggered),
	"turned_face_up_change_target":               inert(triggered),
	"unstable_shapeshifter_copy":                 inert(triggered),
	"upkeep_lose_2_life":                         inert(triggered),
	"false_demise_return":                        inertAs(triggered, model.Return),
	"flip_akki_lavarunner":                       inertAs(triggered, model.Flip),
	"imprint_exile_nontoken_creature":            inertAs(triggered, model.Move),
	model.MeldGisela:                             inertAs(triggered, model.Meld),
	"meld_graf_rats":                             inertAs(triggered, model.Meld),
	"mimic_vat_imprint":                          inertAs(triggered, model.ExileFound),
	"transform_no_spells_last_turn":              inertAs(triggered, model.Transform),
	"transform_two_spells_last_turn":             inertAs(triggered, model.Transform),
	"upkeep_reveal_transform":                    inertAs(triggered, model.Transform),

	// Activated abilities, mana abilities among them.
	"create_saproling":            inert(activated),
	"equip_0":                     inert(activated),
	"equip_1":                     inert(activated),
	"grant_haste":                 inert(activated),
	"mimic_vat_token":             inert(activated),
	"phase_out_self":              inertAs(activated, model.PhaseOut),
	"tap_add_b":                   inert(activated),
	"tap_add_c":                   inert(activated),
	"tap_add_chosen_color":        inert(activated),
	"tap_add_g":                   inert(activated),
	"tap_add_r":                   inert(activated),
	"target_player_draws_x":       inert(activated),
	"x_becomes_x_x_construct":     inert(activated),
	"flip_jushi_apprentice":       inertAs(activated, model.Flip),
	"flip_nezumi_shortfang":       inertAs(activated, model.Flip),
	"hatchling_counter_transform": inertAs(activated, model.Transform),
	"incubator_transform":         inertAs(activated, model.Transform),
	"meld_hanweir_battlements":    inertAs(activated, model.Meld),

	// Instants' and sorceries' effects.
	"agadeems_awakening_effect":               inert(spellOnly),
	"counter_target_spell":                    inert(spellOnly),
	"cytoshape_effect":                        inert(spellOnly),
	"deal_3_damage_any_target":                inert(spellOnly),
	"draw_two":                                inert(spellOnly),
	"otherworldly_journey_effect":             inert(spellOnly),
	"prevent_combat_damage_by_non_werewolves": inert(spellOnly),
	"target_creature_plus_3_3":                inert(spellOnly),
	"transform_all_humans":                    inert(spellOnly),
	"valakut_awakening_effect":                inert(spellOnly),

	// Others no action can show.
	"cant_be_blocked_by_walls":           inert("evasion: " + combat),
	"red_source_damage_to_player_plus_1": inert(noDamage),
	"flash":                              inert("spell timing: the format does not judge when a spell is cast"),
	"cast_from_graveyard":                inert("a permission to cast the card from a graveyard, and the format casts only from hand"),
	"leyline_opening_hand":               inert("it acts on the opening hand, before any state a scenario starts from"),
	"etb_choose_color":                   inert("a choice read only by the card's mana ability, which no action activates"),
	"etb_choose_creature_type":           inert("a choice read only by lord_chosen_type, classified on its own"),
	"enchant_player":                     inert("what an Aura can enchant: no action attaches an Aura or changes what it enchants, and no player leaves the game"),

	// Unmodelled: refused where they could change an action.
	"attacks_each_combat": unmodelled("it could require the creature to attack, so that a declaration without it is illegal",
		WhoseActive, model.Attack).cites("508.1d").held(),
	"attackers_plus_1_0": unmodelled("it could give the attacking creature +1/+0",
		WhoseActive, model.Attack).cites("613.4c").held(),
	"attackers_plus_3_0": unmodelled("it could give the attacking creature +3/+0",
		WhoseActive, model.Attack).cites("613.4c").held(),
	"indestructible": unmodelled("it could keep the creature from being destroyed",
		WhoseAny, model.DestroyAll).cites("702.12b").refusedAs("destroy-indestructible"),
	"enchant_creature": unmodelled("an Aura attached to a noncreature is put into its owner's graveyard, and the reference does so only with an Aura attached to nothing",
		WhoseEnchantingNoncreature, model.Merge, model.Transform, model.Convert, model.Flip, model.TurnFaceUp).cites("303.4c", "704.5m").held(),
	"enters_tapped": unmodelled("it could make the permanent enter tapped",
		WhoseEntering, entering...).cites("614.1d"),
	"pay_3_life_or_enters_tapped": unmodelled("its controller could choose to have it enter tapped rather than pay 3 life, a choice no action scripts",
		WhoseEntering, entering...).cites("614.1c"),
	"vesuvan_doppelganger": unmodelled("its controller may have it enter as a copy of a creature, a choice no action scripts",
		WhoseEntering, entering...).cites("707.5").held(),
	"lord_chosen_type": unmodelled("its controller's other creatures of the type chosen as it entered, a choice no scenario scripts, could get +1/+1 in every state",
		WhoseInPlay, model.ActionTypes...).cites("613.4c").held(),
	"werewolves_you_control_have_menace": unmodelled("the Werewolves its controller controls could have menace in every state, which the abilities the reference derives leave out",
		WhoseInPlay, model.ActionTypes...).cites("613.1f").held(),
}

// Classify returns the classification of ability id, and false if the
// reference does not know it.
func Classify(id model.AbilityID) (Classification, bool) {
	c, ok := classifications[id]
	if ok {
		c.Rules, c.Actions = slices.Clone(c.Rules), slices.Clone(c.Actions)
	}
	return c, ok
}

// Classified lists every ability the reference classifies, sorted.
func Classified() []model.AbilityID {
	return slices.Sorted(maps.Keys(classifications))
}

// DeclaredInert says, for each ability of s's card definitions that the
// reference does not know but s declares a kind for (model.AbilityKinds),
// that the reference treats it as inert by that declaration, and why: so
// that an ability declared with the wrong kind is seen, not passed over.
// A static ability declared so is not inert (the reference refuses it
// once in play) and is not listed.
func DeclaredInert(s *model.Scenario) []string {
	kinds, err := s.DeclaredKinds()
	if err != nil {
		return nil
	}
	var out []string
	for _, ab := range slices.Sorted(maps.Keys(kinds)) {
		k := kinds[ab]
		if _, known := classifications[ab]; known || !declaredInert(k) {
			continue
		}
		line := string(ab) + ": declared " + string(k.Kind)
		switch k.Kind {
		case model.KindMana:
			line += " (CR 605), inert: no action of the format activates an ability"
		case model.KindActivated:
			line += " (CR 602), inert: no action of the format activates an ability"
		case model.KindTriggered:
			line += " (CR 603), inert: no action resolves a card's triggered ability"
			switch k.Observer {
			case "":
			case model.Mutates:
				line += "; it triggers when the permanent that has it mutates, reported as a mutates trigger of that permanent (CR 702.140d); another of its controller's creatures mutating while it is on the battlefield is refused (mutates-trigger-of-another-permanent)"
			default:
				line += "; it triggers as the " + string(k.Observer) + " observer does, which the traces report"
			}
		case model.KindStatic:
			line += " (CR 604) about " + k.About + " only, inert: " + map[string]string{model.AboutActivation: "no action of the format activates an ability", model.AboutBlocking: "no action of the format declares blockers"}[k.About]
		}
		out = append(out, line)
	}
	return out
}

// keywordKinds are the kinds the rules give the keyword abilities the
// reference classifies (each keyword's rule says "is a static ability" or
// "is a triggered ability").
var keywordKinds = map[model.AbilityID]model.AbilityKindName{
	"flying": model.KindStatic, "first_strike": model.KindStatic, "double_strike": model.KindStatic,
	"deathtouch": model.KindStatic, "lifelink": model.KindStatic, "menace": model.KindStatic,
	"reach": model.KindStatic, "shadow": model.KindStatic, "trample": model.KindStatic,
	"decayed": model.KindStatic, "exalted": model.KindTriggered, "haste": model.KindStatic,
	"vigilance": model.KindStatic, "flash": model.KindStatic, "defender": model.KindStatic,
	"hexproof": model.KindStatic, "shroud": model.KindStatic, "indestructible": model.KindStatic,
	ProtectionFromRed: model.KindStatic, model.Ward2: model.KindTriggered,
	model.Mutate: model.KindStatic, model.Morph: model.KindStatic, model.Disguise: model.KindStatic,
	model.Phasing: model.KindStatic,
}

// An AbilityInfo is one ability the reference knows, for a listing
// (mergecheck list --abilities): its kind where the rules or its
// classification say it, what the reference does with it, and why.
type AbilityInfo struct {
	ID    model.AbilityID       `json:"id"`
	Kind  model.AbilityKindName `json:"kind,omitempty"`
	Class AbilityClass          `json:"class"`
	How   string                `json:"how"`
	Rules []model.RuleID        `json:"rules,omitempty"`
}

// Abilities lists every ability the reference knows, sorted by id.
func Abilities() []AbilityInfo {
	var out []AbilityInfo
	for _, id := range Classified() {
		c := classifications[id]
		info := AbilityInfo{ID: id, Kind: keywordKinds[id], Class: c.Class, Rules: slices.Clone(c.Rules)}
		switch {
		case strings.HasPrefix(c.Why, triggered):
			info.Kind = model.KindTriggered
		case strings.HasPrefix(c.Why, activated):
			info.Kind = model.KindActivated
		}
		switch c.Class {
		case Interpreted:
			info.How = "the reference plays it by the rules cited"
		case Inert:
			info.How = c.Why
		case Unmodelled:
			var acts []string
			for _, a := range c.Actions {
				acts = append(acts, string(a))
			}
			if len(c.Actions) == len(model.ActionTypes) {
				acts = []string{"every action"}
			}
			info.How = fmt.Sprintf("refused at %s while on %s: %s", strings.Join(acts, ", "), c.Whose, c.Why)
			if c.RefusedAs != "" {
				info.How += " (refused as " + c.RefusedAs + ")"
			}
		}
		out = append(out, info)
	}
	return out
}
