package model

import "slices"

// A Feature is a part of the rules an engine may or may not implement.
// Engines declare the features they support; a property that needs a
// feature an engine lacks is reported as unsupported, never as passed.
type Feature string

// The features mergecheck knows.
const (
	FeatureMutate      Feature = "mutate"       // mutating creature spells (CR 702.140)
	FeatureMerge       Feature = "merge"        // merged stacks and the bare merge primitive (CR 730)
	FeatureMeld        Feature = "meld"         // meld pairs and melded permanents (CR 701.42, 712.4)
	FeatureFaceDown    Feature = "face_down"    // morph, manifest, cloak, turning face down and up (CR 708)
	FeatureFlip        Feature = "flip"         // flip cards and the flipped status (CR 710)
	FeatureDoubleFaced Feature = "double_faced" // transforming and modal double-faced cards (CR 712)
	FeaturePhasing     Feature = "phasing"      // phasing out and in (CR 702.26)
	FeatureCopy        Feature = "copy"         // copy effects and token copies (CR 707)
	FeatureReplacement Feature = "replacement"  // replacement effects on leaving the battlefield (CR 616, 730.3d-e)
	FeatureCommander   Feature = "commander"    // commanders' command-zone choice (CR 903.9)
	FeatureLinked      Feature = "linked"       // effects that find what a permanent became (CR 400.7, 607)
	FeatureCombat      Feature = "combat"       // declaring attackers (CR 302.6, 508.1a)
)

// Features lists every feature, in a fixed order.
var Features = []Feature{
	FeatureMutate, FeatureMerge, FeatureMeld, FeatureFaceDown, FeatureFlip, FeatureDoubleFaced,
	FeaturePhasing, FeatureCopy, FeatureReplacement, FeatureCommander, FeatureLinked, FeatureCombat,
}

// Uses returns the features a scenario exercises, judged from its starting
// state and actions, in the order of [Features].
func (s *Scenario) Uses() []Feature {
	used := map[Feature]bool{}
	for _, o := range s.Objects {
		if o.Commander {
			used[FeatureCommander] = true
		}
		d := s.Def(o.Def)
		if o.Copy != nil {
			d = o.Copy
		}
		if d == nil {
			continue
		}
		switch d.Layout {
		case LayoutFlip:
			used[FeatureFlip] = true
		case LayoutTransform, LayoutModal:
			used[FeatureDoubleFaced] = true
		case LayoutMeld:
			used[FeatureMeld] = true
		}
		for _, ab := range d.Front.Abilities {
			switch ab {
			case LeylineOfTheVoid, WheelOfSunAndMoon, RestInPeace:
				used[FeatureReplacement] = true
			case DuplicantImprint:
				used[FeatureLinked] = true
			}
		}
	}
	for _, p := range s.Start.Battlefield {
		if len(p.Components) > 1 {
			used[FeatureMerge] = true
		}
		if p.Mutated {
			used[FeatureMutate] = true
		}
		if p.Status.FaceDown || slices.ContainsFunc(p.Components, func(c Component) bool { return c.FaceDown }) {
			used[FeatureFaceDown] = true
		}
		if p.Status.Flipped {
			used[FeatureFlip] = true
		}
		if p.Status.PhasedOut {
			used[FeaturePhasing] = true
		}
		for _, e := range p.Effects {
			if e.Kind == EffectCopy {
				used[FeatureCopy] = true
			}
		}
	}
	if len(s.Start.Links) > 0 {
		used[FeatureLinked] = true
	}
	for _, a := range s.Actions {
		switch a.Type {
		case CastMutate:
			used[FeatureMutate] = true
		case Merge:
			used[FeatureMerge] = true
		case Meld:
			used[FeatureMeld] = true
		case TurnFaceDown, TurnFaceUp, Manifest:
			used[FeatureFaceDown] = true
		case Cast:
			if a.Method != "" {
				used[FeatureFaceDown] = true
			}
		case Transform, Convert:
			used[FeatureDoubleFaced] = true
		case Flip:
			used[FeatureFlip] = true
		case PhaseOut, PhaseIn:
			used[FeaturePhasing] = true
		case BecomeCopy, TokenCopy, EnterAsCopy:
			used[FeatureCopy] = true
		case Attack:
			used[FeatureCombat] = true
		case Return, ExileFound:
			used[FeatureLinked] = true
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
	}
	var out []Feature
	for _, f := range Features {
		if used[f] {
			out = append(out, f)
		}
	}
	return out
}
