package model

import (
	"slices"
	"strings"
)

// A Feature is a part of the rules an engine may or may not implement.
// Engines declare the features they support; a property that needs a
// feature an engine lacks is reported as unsupported, never as passed.
type Feature string

// The features mergecheck knows. Each is a part of the rules engines
// implement separately: an engine that can turn a permanent face down but
// not face up is judged on the cases that only turn it face down.
const (
	FeatureMutate      Feature = "mutate"         // mutating creature spells (CR 702.140)
	FeatureMeld        Feature = "meld"           // meld pairs and melded permanents (CR 701.42, 712.4)
	FeatureFlip        Feature = "flip"           // flip cards and the flipped status (CR 710)
	FeatureCopy        Feature = "copy"           // copy effects and token copies (CR 707)
	FeatureReplacement Feature = "replacement"    // replacement effects on leaving the battlefield (CR 616, 730.3d-e)
	FeatureCommander   Feature = "commander"      // commanders' command-zone choice (CR 903.9)
	FeatureLinked      Feature = "linked"         // effects that find what a permanent became (CR 400.7, 607)
	FeatureCombat      Feature = "combat"         // declaring attackers, and the restrictions on it (CR 302.6, 508.1a, 508.1c, 702.3b)
	FeatureCreateToken Feature = "create_token"   // creating a token that copies nothing (CR 111.1, 111.2)
	FeatureDestroy     Feature = "destroy"        // destroying every creature (CR 701.8)
	FeatureStatics     Feature = "static_effects" // static abilities with a declared effect, applied by layers (CR 613.1f, 613.4c)

	// What forbids a spell or an attack, and what a spell's target may
	// do about it (since 0.2.0): an engine that lacks one is never given
	// a scenario in which it decides anything.
	FeatureIllegalTargets     Feature = "illegal_targets"     // mutating spells cast at targets the rules forbid: a Human, a noncreature, another owner's creature (CR 702.140a)
	FeatureHexproof           Feature = "hexproof"            // hexproof, from a counter, keeping a permanent from an opponent's spells (CR 702.11b, 122.1b)
	FeatureShroud             Feature = "shroud"              // shroud keeping a permanent from every spell (CR 702.18a)
	FeatureProtection         Feature = "protection"          // protection from a colour keeping a permanent from spells of it (CR 702.16b)
	FeatureWard               Feature = "ward"                // ward {2} of a face-down permanent, triggered by an opponent's mutating spell, paid or not as choices.may says, countering it (CR 702.21a, 701.6a)
	FeatureAttackRestrictions Feature = "attack_restrictions" // defender and Auras that forbid an attack (CR 702.3b, 508.1c)
	FeatureCastRestrictions   Feature = "cast_restrictions"   // effects that forbid a player to cast a spell: Brisela's (CR 601.3)

	// Merged permanents (CR 730), part by part: an engine whose only way
	// to merge is a mutating spell holds merged permanents without the
	// bare merge.
	FeatureMergedStacks Feature = "merged_stacks" // merged permanents in the starting state (CR 730.2)
	FeatureMergeAction  Feature = "merge_action"  // the bare merge action: a card merging with a permanent other than by a mutating spell (CR 730.2)

	// Face-down permanents (CR 708), part by part.
	FeatureCastFaceDown      Feature = "cast_face_down"       // casting a morph or disguise card face down (CR 702.37, 702.168)
	FeatureTurnFaceDown      Feature = "turn_face_down"       // turning a permanent face down by an effect (CR 708.2a)
	FeatureTurnFaceUpEffect  Feature = "turn_face_up_effect"  // turning a permanent face up by an effect (CR 708.8)
	FeatureTurnFaceUpSpecial Feature = "turn_face_up_special" // the special action of morph, disguise, manifest, cloak (CR 702.37e, 701.40b)
	FeatureManifest          Feature = "manifest"             // manifesting (CR 701.40)
	FeatureCloak             Feature = "cloak"                // cloaking (CR 701.58)

	// Double-faced cards (CR 712), part by part.
	FeatureTransform Feature = "transform" // nonmodal double-faced cards and transforming them (CR 701.27, 712.2)
	FeatureConvert   Feature = "convert"   // converting (CR 701.28)
	FeatureModal     Feature = "modal"     // modal double-faced cards (CR 712.3)

	// Phasing (CR 702.26), part by part.
	FeaturePhaseAction   Feature = "phase_action"   // phasing out and in by an effect (CR 702.26)
	FeaturePhaseUntap    Feature = "phase_untap"    // phasing at the untap step (CR 502.1, 702.26a)
	FeaturePhaseAttached Feature = "phase_attached" // what is attached phasing with its host (CR 702.26g)
)

// The features as first named, now shorthands for all their parts.
const (
	FeatureMerge       Feature = "merge"
	FeatureFaceDown    Feature = "face_down"
	FeatureDoubleFaced Feature = "double_faced"
	FeaturePhasing     Feature = "phasing"
	// FeatureTargeting is the features about what a spell may target.
	FeatureTargeting Feature = "targeting"
)

// Shorthands maps each shorthand to its parts: in capabilities and
// anywhere else a feature is declared, an engine declaring "face_down"
// declares every face-down part.
var Shorthands = map[Feature][]Feature{
	FeatureMerge:       {FeatureMergedStacks, FeatureMergeAction},
	FeatureFaceDown:    {FeatureCastFaceDown, FeatureTurnFaceDown, FeatureTurnFaceUpEffect, FeatureTurnFaceUpSpecial, FeatureManifest, FeatureCloak},
	FeatureDoubleFaced: {FeatureTransform, FeatureConvert, FeatureModal},
	FeaturePhasing:     {FeaturePhaseAction, FeaturePhaseUntap, FeaturePhaseAttached},
	FeatureTargeting:   {FeatureIllegalTargets, FeatureHexproof, FeatureShroud, FeatureProtection, FeatureWard},
}

// ShorthandList returns the shorthands' names, sorted and joined by
// commas, for a message that lists what may be declared.
func ShorthandList() string {
	names := make([]string, 0, len(Shorthands))
	for f := range Shorthands {
		names = append(names, string(f))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// Features lists every feature, in a fixed order; shorthands are not
// among them.
var Features = []Feature{
	FeatureMutate, FeatureMergedStacks, FeatureMergeAction, FeatureMeld,
	FeatureCastFaceDown, FeatureTurnFaceDown, FeatureTurnFaceUpEffect, FeatureTurnFaceUpSpecial, FeatureManifest, FeatureCloak,
	FeatureFlip, FeatureTransform, FeatureConvert, FeatureModal,
	FeaturePhaseAction, FeaturePhaseUntap, FeaturePhaseAttached,
	FeatureCopy, FeatureReplacement, FeatureCommander, FeatureLinked, FeatureCombat,
	FeatureCreateToken, FeatureDestroy, FeatureStatics,
	FeatureIllegalTargets, FeatureHexproof, FeatureShroud, FeatureProtection, FeatureWard,
	FeatureAttackRestrictions, FeatureCastRestrictions,
}

// A Vocabulary is the features a release of mergecheck knows. An adapter
// written for a release declares features of its vocabulary only, and a
// later release gives it only scenarios that use them: what a release
// adds reaches an engine only when its adapter declares it.
type Vocabulary struct {
	Release  string    // the release that first knew these features, "0.1.0"
	Features []Feature // every feature it knew, in the order of Features
}

// Vocabularies lists the vocabulary of every release, oldest first; the
// last is Features.
var Vocabularies = []Vocabulary{
	{Release: "0.1.0", Features: []Feature{
		FeatureMutate, FeatureMergedStacks, FeatureMergeAction, FeatureMeld,
		FeatureCastFaceDown, FeatureTurnFaceDown, FeatureTurnFaceUpEffect, FeatureTurnFaceUpSpecial, FeatureManifest, FeatureCloak,
		FeatureFlip, FeatureTransform, FeatureConvert, FeatureModal,
		FeaturePhaseAction, FeaturePhaseUntap, FeaturePhaseAttached,
		FeatureCopy, FeatureReplacement, FeatureCommander, FeatureLinked, FeatureCombat,
		FeatureCreateToken, FeatureDestroy,
	}},
	{Release: "0.2.0", Features: Features},
}

// Since returns the release that first knew feature f (a shorthand: the
// first that knew all its parts), or "" for a name no release knows.
func Since(f Feature) string {
	parts, short := Shorthands[f]
	if !short {
		parts = []Feature{f}
	}
	for _, v := range Vocabularies {
		if !slices.ContainsFunc(parts, func(p Feature) bool { return !slices.Contains(v.Features, p) }) {
			return v.Release
		}
	}
	return ""
}

// ExpandFeatures returns fs with every shorthand replaced by its parts,
// without duplicates, in the order of [Features]. It reports the names
// that are neither a feature nor a shorthand.
func ExpandFeatures(fs []Feature) (features []Feature, unknown []Feature) {
	has := map[Feature]bool{}
	for _, f := range fs {
		switch parts, short := Shorthands[f]; {
		case short:
			for _, p := range parts {
				has[p] = true
			}
		case slices.Contains(Features, f):
			has[f] = true
		default:
			unknown = append(unknown, f)
		}
	}
	features = []Feature{}
	for _, f := range Features {
		if has[f] {
			features = append(features, f)
		}
	}
	return features, unknown
}

// Provides reports whether declared (expanded) meets need: a feature
// must be declared itself; a shorthand needs any one of its parts, as a
// property that needs "face_down" is judged on whichever face-down parts
// the engine has.
func Provides(declared []Feature, need Feature) bool {
	if parts, short := Shorthands[need]; short {
		return slices.ContainsFunc(parts, func(p Feature) bool { return slices.Contains(declared, p) })
	}
	return slices.Contains(declared, need)
}

// Uses returns the features a scenario exercises, judged from what it
// makes an engine do, in the order of [Features]. A card's layout, its
// abilities and its being a commander count only when the card is in
// play: a component of a permanent at the start, or named by an action
// (cast, merged, melded, copied, returned, ...). A flip card lying
// unnamed in a library asks nothing of an engine.
func (s *Scenario) Uses() []Feature {
	used := map[Feature]bool{}
	phaser := false    // an object with phasing, which phases at its controller's untap step
	restricts := false // an object with defender or that forbids an attack
	inPlay := func(id ObjectID) {
		if id == "" {
			return
		}
		o := s.Object(id)
		if o == nil {
			return
		}
		if o.Commander {
			used[FeatureCommander] = true
		}
		d := s.Def(o.Def)
		if o.Copy != nil {
			d = o.Copy
		}
		if d == nil {
			return
		}
		if f := LayoutFeature(d.Layout); f != "" {
			used[f] = true
		}
		for _, ab := range d.Front.Abilities {
			if d.Front.AbilityKinds[ab].Effect != nil {
				used[FeatureStatics] = true
			}
			switch ab {
			case LeylineOfTheVoid, WheelOfSunAndMoon, RestInPeace:
				used[FeatureReplacement] = true
			case DuplicantImprint:
				used[FeatureLinked] = true
			case Phasing:
				phaser = true
			case ProtectionFromRed:
				used[FeatureProtection] = true
			case Hexproof:
				used[FeatureHexproof] = true
			case MeldGisela, OpponentsCantCastLow:
				used[FeatureCastRestrictions] = true
			case Defender, EnchantedCantAttackOrBlock:
				restricts = true
			}
		}
		if d.Melded != nil && d.Melded.HasAbility(OpponentsCantCastLow) {
			used[FeatureCastRestrictions] = true
		}
	}
	attached := false
	for _, p := range s.Start.Battlefield {
		if len(p.Components) > 1 && !s.melded(p) {
			used[FeatureMergedStacks] = true
		}
		if p.Mutated {
			used[FeatureMutate] = true
		}
		for _, c := range p.Components {
			inPlay(c.Object)
			if c.FaceDown {
				used[FaceDownFeature(c.FaceDownBy)] = true
			}
		}
		if p.AttachedTo != "" {
			attached = true
		}
		if p.Counters["hexproof"] > 0 {
			used[FeatureHexproof] = true
		}
		if p.Status.Flipped {
			used[FeatureFlip] = true
		}
		if p.Status.PhasedOut {
			used[FeaturePhaseAction] = true
			phaser = true
		}
		for _, e := range p.Effects {
			if e.Kind == EffectCopy {
				used[FeatureCopy] = true
			}
		}
	}
	for _, o := range s.Start.Stack {
		inPlay(o.Object)
		if o.Target != "" {
			used[FeatureMutate] = true
		}
		if o.FaceDownBy != "" {
			used[FeatureCastFaceDown] = true
		}
	}
	if len(s.Start.Links) > 0 {
		used[FeatureLinked] = true
	}
	castsMutate, attacks := false, false
	for _, a := range s.Actions {
		for _, id := range []ObjectID{a.Object, a.Target, a.With, a.Card} {
			inPlay(id)
		}
		if a.Type == CreateToken {
			if d := s.Def(a.Def); d != nil {
				if f := LayoutFeature(d.Layout); f != "" {
					used[f] = true
				}
			}
		}
		if f := actionFeature(a, phaser); f != "" {
			used[f] = true
		}
		switch a.Type {
		case PhaseOut, PhaseIn:
			phaser = true
		case Move:
			if a.Source != "" {
				used[FeatureLinked] = true
			}
		}
		if a.Choices.Replacement != "" {
			used[FeatureReplacement] = true
		}
		if a.Choices.CommandZone != nil {
			used[FeatureCommander] = true
		}
		if a.Type == CastMutate {
			castsMutate = true
			if a.Choices.May != nil {
				used[FeatureWard] = true // whether the caster pays for ward
			}
			for _, f := range s.targetUses(a) {
				used[f] = true
			}
		}
		if a.Type == Attack {
			attacks = true
		}
	}
	if restricts && attacks {
		used[FeatureAttackRestrictions] = true
	}
	if castsMutate && s.wardedByOpponent() {
		used[FeatureWard] = true
	}
	if attached && (used[FeaturePhaseAction] || used[FeaturePhaseUntap]) {
		used[FeaturePhaseAttached] = true
	}
	var out []Feature
	for _, f := range Features {
		if used[f] {
			out = append(out, f)
		}
	}
	return out
}

// targetUses returns what a mutating spell's target in the starting
// state asks of an engine as the spell is cast at it: a target the rules
// forbid for being a Human, no creature or another owner's (CR 702.140a),
// or one with shroud from an Equipment (702.18a). A target that comes
// into being later is left to the rules' trace (Trace.Uses).
func (s *Scenario) targetUses(a Action) []Feature {
	var p *Permanent
	for i := range s.Start.Battlefield {
		if s.Start.Battlefield[i].ID == a.Target {
			p = &s.Start.Battlefield[i]
		}
	}
	card := s.Object(a.Object)
	if p == nil || len(p.Components) == 0 || card == nil {
		return nil
	}
	var out []Feature
	if top := s.Object(p.Components[0].Object); top != nil {
		d := s.Def(top.Def)
		switch {
		case top.Owner != card.Owner:
			out = append(out, FeatureIllegalTargets)
		case p.Components[0].FaceDown || d == nil:
			// A face-down permanent is a nameless 2/2 creature (CR 708.2a).
		case !slices.Contains(d.Front.Types, "creature") || slices.Contains(d.Front.Subtypes, "Human"):
			out = append(out, FeatureIllegalTargets)
		}
	}
	for _, q := range s.Start.Battlefield {
		if q.AttachedTo != p.ID || len(q.Components) == 0 {
			continue
		}
		if o := s.Object(q.Components[0].Object); o != nil {
			if d := s.Def(o.Def); d != nil && d.Front.HasAbility(EquippedHasteShroud) {
				out = append(out, FeatureShroud)
			}
		}
	}
	return out
}

// wardedByOpponent reports whether a permanent of the starting state
// has ward as a face-down permanent cloaked or disguised (CR 701.58a,
// 702.168a) and is controlled by a player who does not own it: its
// owner's mutating spell at it would trigger ward (702.21a).
func (s *Scenario) wardedByOpponent() bool {
	for _, p := range s.Start.Battlefield {
		if len(p.Components) == 0 || !p.Components[0].FaceDown {
			continue
		}
		by := p.Components[0].FaceDownBy
		o := s.Object(p.Components[0].Object)
		if (by == ByCloak || by == ByDisguise) && o != nil && o.Owner != p.Controller {
			return true
		}
	}
	return false
}

// melded reports whether p is a melded permanent (CR 712.4): the two back
// faces of a meld pair, which ask for meld, not for merged stacks.
func (s *Scenario) melded(p Permanent) bool {
	if len(p.Components) != 2 {
		return false
	}
	for _, c := range p.Components {
		o := s.Object(c.Object)
		if o == nil || c.Face != Back {
			return false
		}
		if d := s.Def(o.Def); d == nil || d.Layout != LayoutMeld {
			return false
		}
	}
	return true
}

// Uses returns the features the rules' trace t shows its scenario asks
// of an engine beyond what [Scenario.Uses] sees in the scenario itself:
// a cast or an attack the rules forbid, by the rule that forbids it
// (CR 702.140a, 702.11b, 702.16b, 702.18a, 601.3, 702.3b, 508.1c), and
// a ward that triggers or counters a spell (702.21a, 701.6a). The
// features a scenario uses are those of both.
func (t *Trace) Uses() []Feature {
	used := map[Feature]bool{}
	note := func(e Event) {
		switch {
		case e.Rule == "702.21a" || e.Rule == "701.6a":
			used[FeatureWard] = true
		case e.Kind != NotAllowed:
		case e.Rule == "702.140a":
			used[FeatureIllegalTargets] = true
		case e.Rule == "702.11b":
			used[FeatureHexproof] = true
		case e.Rule == "702.16b":
			used[FeatureProtection] = true
		case e.Rule == "702.18a":
			used[FeatureShroud] = true
		case e.Rule == "601.3":
			used[FeatureCastRestrictions] = true
		case e.Rule == "702.3b" || e.Rule == "508.1c":
			used[FeatureAttackRestrictions] = true
		}
	}
	for _, st := range t.Steps {
		for _, e := range st.Events {
			note(e)
		}
	}
	var out []Feature
	for _, f := range Features {
		if used[f] {
			out = append(out, f)
		}
	}
	return out
}

// LayoutFeature is the part of the rules a card of layout l asks of an
// engine once it is in play, if any.
func LayoutFeature(l Layout) Feature {
	switch l {
	case LayoutFlip:
		return FeatureFlip
	case LayoutTransform:
		return FeatureTransform
	case LayoutModal:
		return FeatureModal
	case LayoutMeld:
		return FeatureMeld
	}
	return ""
}

// actionFeature is the part of the rules action a asks of an engine by
// its type, if any; phaser says whether something with phasing is about,
// which makes a new turn phase it.
func actionFeature(a Action, phaser bool) Feature {
	switch a.Type {
	case CastMutate:
		return FeatureMutate
	case Merge:
		return FeatureMergeAction
	case Meld:
		return FeatureMeld
	case TurnFaceDown:
		return FeatureTurnFaceDown
	case TurnFaceUp:
		if a.Method == "" || a.Method == ByEffect {
			return FeatureTurnFaceUpEffect
		}
		return FeatureTurnFaceUpSpecial
	case Manifest:
		return FaceDownFeature(a.Method)
	case Cast:
		if a.Method != "" {
			return FeatureCastFaceDown
		}
	case Transform:
		return FeatureTransform
	case Convert:
		return FeatureConvert
	case Flip:
		return FeatureFlip
	case PhaseOut, PhaseIn:
		return FeaturePhaseAction
	case NextTurn:
		if phaser {
			return FeaturePhaseUntap
		}
	case BecomeCopy, TokenCopy, EnterAsCopy:
		return FeatureCopy
	case Attack:
		return FeatureCombat
	case CreateToken:
		return FeatureCreateToken
	case DestroyAll:
		return FeatureDestroy
	case Return, ExileFound:
		return FeatureLinked
	}
	return ""
}

// FaceDownFeature is the part of the face-down rules that makes a card
// face down the way k says.
func FaceDownFeature(k FaceDownKind) Feature {
	switch k {
	case ByMorph, ByDisguise:
		return FeatureCastFaceDown
	case ByManifest:
		return FeatureManifest
	case ByCloak:
		return FeatureCloak
	}
	return FeatureTurnFaceDown
}
