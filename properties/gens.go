package properties

import (
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// Option sets the properties draw from. Each reaches its rules often; the
// properties' Cover says how often they must.
var (
	yes, no = true, false

	genMutate = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, Status: true, Hand: true, Prefix: 1,
		Kinds: []generators.Kind{generators.Card, generators.Token, generators.Flip, generators.FaceDown, generators.Transform},
		Focus: []model.ActionType{model.CastMutate, model.Merge},
	})
	// genMutateTargets casts mutating spells at targets legal and not:
	// a Human, a noncreature, a creature of the other owner (CR 702.140a).
	genMutateTargets = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 2, Hand: true, IllegalTargets: true, Prefix: 1,
		PrefixTypes: []model.ActionType{model.CastMutate},
		Kinds:       []generators.Kind{generators.Card, generators.Token, generators.FaceDown},
		Focus:       []model.ActionType{model.CastMutate},
	})
	genTokens = generators.NewShape(generators.Options{
		MaxPermanents: 2, MinComponents: 2, MaxComponents: 4, Prefix: 2, Hand: true,
		NeedKinds: []generators.Kind{generators.Token, generators.Card},
		// A merged creature dying shows whether it died as a token.
		Focus: []model.ActionType{model.Move}, MoveTo: []model.Zone{model.Graveyard},
	})
	genMutateOnto = generators.NewShape(generators.Options{
		MaxComponents: 2, FaceDownTop: &no, Hand: true,
		Kinds: []generators.Kind{generators.Card},
		Focus: []model.ActionType{model.CastMutate},
	})
	genStacks = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 4, Status: true, Hand: true, Prefix: 2,
	})
	genMergeFaceDown = generators.NewShape(generators.Options{
		MaxComponents: 3, FaceDownTop: &yes, Hand: true, Status: true,
		Kinds: []generators.Kind{generators.FaceDown, generators.Card, generators.Token},
		Focus: []model.ActionType{model.CastMutate},
	})
	genTurn = generators.NewShape(generators.Options{
		MinComponents: 2, MaxComponents: 4, Prefix: 1,
		Kinds: []generators.Kind{generators.Card, generators.Token, generators.FaceDown, generators.Flip},
		Focus: []model.ActionType{model.TurnFaceDown, model.TurnFaceUp},
	})
	genInstant = generators.NewShape(generators.Options{
		MinComponents: 2, MaxComponents: 4, FaceDownTop: &yes,
		NeedKinds: []generators.Kind{generators.FaceDownSpell, generators.FaceDown},
		Focus:     []model.ActionType{model.TurnFaceUp},
	})
	genFlip = generators.NewShape(generators.Options{
		MinComponents: 2, MaxComponents: 3, FaceDownTop: &no, Status: true,
		NeedKinds: []generators.Kind{generators.Flip, generators.Card},
		Kinds:     []generators.Kind{generators.Card, generators.Flip, generators.Token},
		Focus:     []model.ActionType{model.Flip},
	})
	genTransform = generators.NewShape(generators.Options{
		MinComponents: 2, MaxComponents: 4, FaceDownTop: &no,
		NeedKinds: []generators.Kind{generators.Transform, generators.Transform},
		Kinds:     []generators.Kind{generators.Card, generators.Token, generators.Transform, generators.Modal, generators.MeldHalf},
		Focus:     []model.ActionType{model.Transform, model.Convert},
		FocusThen: []model.ActionType{model.Transform, model.Tap},
	})
	genDFCFaceDown = generators.NewShape(generators.Options{
		Then:          1,
		MinComponents: 2, MaxComponents: 3, FaceDownTop: &no,
		NeedKinds: []generators.Kind{generators.Transform},
		Kinds:     []generators.Kind{generators.Card, generators.Token, generators.Modal, generators.MeldHalf, generators.Transform},
		Focus:     []model.ActionType{model.TurnFaceDown},
	})
	genLeave = generators.NewShape(generators.Options{
		NoSwarm:       true, // see docs/BENCHMARKS.md, "Swarm testing"
		MaxPermanents: 2, MinComponents: 2, MaxComponents: 4, Replacements: true, Commander: true,
		Focus: []model.ActionType{model.Move},
	})
	genReplace = generators.NewShape(generators.Options{
		NoSwarm:       true, // see docs/BENCHMARKS.md, "Swarm testing"
		MinComponents: 2, MaxComponents: 3, Replacements: true, MoveTo: []model.Zone{model.Graveyard},
		NeedKinds: []generators.Kind{generators.Token, generators.Card},
		Kinds:     []generators.Kind{generators.Card, generators.Token, generators.FaceDown},
		Focus:     []model.ActionType{model.Move},
	})
	genFind = generators.NewShape(generators.Options{
		MinComponents: 2, MaxComponents: 3, Linked: true,
		Kinds:     []generators.Kind{generators.Card, generators.Token, generators.Flip, generators.Transform},
		Focus:     []model.ActionType{model.Move},
		FocusThen: []model.ActionType{model.Return, model.ExileFound},
	})
	genMeld = generators.NewShape(generators.Options{
		MaxComponents: 2, MeldPair: true, Status: true, Focus: []model.ActionType{model.Meld},
	})
	genMelded = generators.NewShape(generators.Options{
		MaxComponents: 2, Melded: true, Replacements: true, Focus: []model.ActionType{model.Move},
	})
	genCopy = generators.NewShape(generators.Options{
		MaxComponents: 3, Status: true, Focus: []model.ActionType{model.TokenCopy},
	})
	// genEnters reaches permanents entering by every way the format has
	// that needs no particular layout: a token copy, a creature spell
	// cast, a mutating spell whose target became illegal, a manifested
	// card; an engine is given those of them it declares.
	// genCopyDFC ends with a token copy of a permanent, often one topped by
	// a double-faced card, alone or merged.
	genCopyDFC = generators.NewShape(generators.Options{
		MaxPermanents: 1, MaxComponents: 2, Status: true,
		Kinds:     []generators.Kind{generators.Card, generators.Token, generators.Transform, generators.Modal},
		NeedKinds: []generators.Kind{generators.Transform},
		Focus:     []model.ActionType{model.TokenCopy},
	})
	genEnters = generators.NewShape(generators.Options{
		MaxComponents: 3, Status: true, Hand: true,
		Focus: []model.ActionType{model.TokenCopy, model.Cast, model.CastMutate, model.Manifest},
	})
	// genStatus ends, after actions of any kind, with one of the actions
	// through which a permanent keeps its status: a merge (by a mutating
	// spell or not) or a copy effect.
	genStatus = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, Status: true, Hand: true, Prefix: 3,
		Focus: []model.ActionType{model.CastMutate, model.Merge, model.BecomeCopy},
	})
	genPhase = generators.NewShape(generators.Options{
		MinComponents: 2, MaxComponents: 3, Status: true,
		NeedKinds: []generators.Kind{generators.Card},
		Focus:     []model.ActionType{model.PhaseOut},
		FocusThen: []model.ActionType{model.PhaseIn, model.NextTurn},
		FocusLast: []model.ActionType{model.NextTurn},
	})
	genDFC = generators.NewShape(generators.Options{
		Then:          1,
		MaxComponents: 1, FaceDownTop: &no, Melded: true,
		Kinds: []generators.Kind{generators.Transform, generators.Modal, generators.MeldHalf},
		Focus: []model.ActionType{model.TurnFaceDown},
	})
	genFlipTwice = generators.NewShape(generators.Options{
		MaxComponents: 2, FaceDownTop: &no,
		NeedKinds: []generators.Kind{generators.Flip},
		Kinds:     []generators.Kind{generators.Flip, generators.Card},
		Focus:     []model.ActionType{model.Flip},
		FocusThen: []model.ActionType{model.Flip, model.Move},
		FocusLast: []model.ActionType{model.Return},
	})
	genTokenLeaves = generators.NewShape(generators.Options{
		MaxComponents: 3, Replacements: true,
		NeedKinds: []generators.Kind{generators.Token},
		Focus:     []model.ActionType{model.Move},
	})
)

// has reports whether the scenario has an action of one of the types.
func has(s *model.Scenario, types ...model.ActionType) bool {
	for _, a := range s.Actions {
		for _, t := range types {
			if a.Type == t {
				return true
			}
		}
	}
	return false
}

// label returns name if cond holds, for Classify functions.
func label(cond bool, name string) []string {
	if cond {
		return []string{name}
	}
	return nil
}

var (
	genMeldedLeave = generators.NewShape(generators.Options{
		MaxComponents: 2, Melded: true, Replacements: true, Status: true, Prefix: 1,
		PrefixTypes: []model.ActionType{model.Tap, model.AddCounters}, Focus: []model.ActionType{model.Move},
	})
	genMeldedExile = generators.NewShape(generators.Options{
		MaxComponents: 2, Melded: true, Focus: []model.ActionType{model.Move}, MoveTo: []model.Zone{model.Exile},
	})
	genMeldedOrdered = generators.NewShape(generators.Options{
		MaxComponents: 2, Melded: true, Replacements: true, Status: true,
		Focus: []model.ActionType{model.Move}, MoveTo: []model.Zone{model.Graveyard, model.LibraryTop, model.LibraryBottom},
	})
	genMeldedReplace = generators.NewShape(generators.Options{
		MaxComponents: 2, Melded: true, Replacements: true, Focus: []model.ActionType{model.Move}, MoveTo: []model.Zone{model.Graveyard},
	})
	genLeaveReplace = generators.NewShape(generators.Options{
		MaxPermanents: 2, MinComponents: 2, MaxComponents: 4, Replacements: true, Commander: true,
		Focus: []model.ActionType{model.Move}, MoveTo: []model.Zone{model.Graveyard},
	})
	genMeldedFind = generators.NewShape(generators.Options{
		MaxComponents: 2, Melded: true, Linked: true,
		Focus: []model.ActionType{model.Move}, FocusThen: []model.ActionType{model.Return, model.ExileFound},
	})
	genMeldTokens = generators.NewShape(generators.Options{
		MaxComponents: 1, MeldPair: true, MeldTokens: true, Focus: []model.ActionType{model.Meld},
	})
	genMeldTransform = generators.NewShape(generators.Options{
		Then:          1,
		MaxComponents: 1, Melded: true, FaceDownTop: &no,
		Kinds: []generators.Kind{generators.MeldHalf},
		Focus: []model.ActionType{model.Transform, model.Convert},
	})
	genFaceDownStatus = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, FaceDownTop: &yes, Status: true, Prefix: 1,
		Kinds: []generators.Kind{generators.FaceDown, generators.FaceDownSpell, generators.FaceDownDFC, generators.Card, generators.Token},
	})
	genFaceDownAgain = generators.NewShape(generators.Options{
		Then:          1,
		MaxComponents: 3, FaceDownTop: &yes,
		Kinds: []generators.Kind{generators.FaceDown, generators.FaceDownDFC, generators.Card},
		Focus: []model.ActionType{model.TurnFaceDown},
	})
	genFaceUp = generators.NewShape(generators.Options{
		MaxComponents: 3, FaceDownTop: &yes,
		Kinds: []generators.Kind{generators.FaceDown, generators.FaceDownDFC, generators.Card, generators.Token},
		Focus: []model.ActionType{model.TurnFaceUp},
	})
	genFaceDownLeaves = generators.NewShape(generators.Options{
		MaxComponents: 3, Replacements: true,
		NeedKinds: []generators.Kind{generators.FaceDown},
		Kinds:     []generators.Kind{generators.FaceDown, generators.FaceDownSpell, generators.Card, generators.Token},
		Focus:     []model.ActionType{model.Move},
	})
	genFaceDownDFC = generators.NewShape(generators.Options{
		MaxComponents: 1, FaceDownTop: &yes,
		Kinds:     []generators.Kind{generators.FaceDownDFC},
		Focus:     []model.ActionType{model.Transform, model.Convert, model.TurnFaceUp},
		FocusThen: []model.ActionType{model.Transform, model.TurnFaceUp},
	})
	genFlipChars = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 2, FaceDownTop: &no, Status: true, Prefix: 1,
		NeedKinds: []generators.Kind{generators.Flip},
		Kinds:     []generators.Kind{generators.Flip, generators.Card},
	})
	genDFCChars = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 1, FaceDownTop: &no, Status: true, Prefix: 2,
		Kinds:       []generators.Kind{generators.Transform, generators.Modal},
		PrefixTypes: []model.ActionType{model.Transform, model.Convert, model.Pump, model.AddCounters},
	})
	genTransformEffects = generators.NewShape(generators.Options{
		MaxComponents: 1, FaceDownTop: &no, Status: true, Prefix: 1,
		Kinds:       []generators.Kind{generators.Transform, generators.Modal},
		PrefixTypes: []model.ActionType{model.Pump, model.AddCounters},
		Focus:       []model.ActionType{model.Transform, model.Convert},
	})
	genIllegal = generators.NewShape(generators.Options{
		MaxComponents: 2, FaceDownTop: &no, Hand: true, Illegal: true,
		Kinds: []generators.Kind{generators.Card, generators.Token},
		Focus: []model.ActionType{model.CastMutate},
	})
	// genPhasedOut draws 702.26b's two paths, each alone: a permanent
	// phased out, then every creature destroyed (CR 701.8a), which must
	// spare it; or a mutating spell whose target is made illegal, often by
	// phasing it out (genIllegal). Drawn together, the mutating spell's
	// creature would die beside the phased-out one, and an engine that
	// destroys both would put two permanents' cards into one graveyard at
	// once, an order the rules leave to their owner (CR 404.3) and no
	// action scripts: the case is refused, and the bug hidden. Shrinking
	// goes toward the first path.
	genPhasedOut = generators.Either(
		generators.NewShape(generators.Options{
			MaxPermanents: 2, MaxComponents: 2, FaceDownTop: &no,
			Kinds:     []generators.Kind{generators.Card, generators.Token},
			Focus:     []model.ActionType{model.PhaseOut},
			FocusThen: []model.ActionType{model.DestroyAll},
		}),
		genIllegal,
	)
	// genAttack ends with a declaration of attackers, after casting
	// creatures, tapping, untapping or passing the turn (CR 302.6, 508.1).
	genAttack = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, Hand: true, Prefix: 2,
		PrefixTypes: []model.ActionType{model.Cast, model.CastMutate, model.Tap, model.NextTurn},
		Focus:       []model.ActionType{model.Attack},
	})
	// genAttackRestricted is genAttack with what forbids an attack: Wall
	// of Omens among the stacks' cards and Pacifism on a stack (CR 508.1c,
	// 702.3b).
	genAttackRestricted = generators.NewShape(generators.Options{
		MaxPermanents: 1, MaxComponents: 3, Hand: true, CantAttack: true, Prefix: 1,
		PrefixTypes: []model.ActionType{model.CastMutate},
		Focus:       []model.ActionType{model.Attack},
	})
	// genAttackNew casts a creature spell and declares an attacker, often
	// the creature just cast (CR 302.6).
	genAttackNew = generators.NewShape(generators.Options{
		MaxPermanents: 1, MaxComponents: 2, Status: true, Hand: true,
		Focus: []model.ActionType{model.Cast}, FocusThen: []model.ActionType{model.Attack},
	})
	// genAttackVigilance is genAttack with vigilance counters on some
	// stacks (CR 122.1b, 702.20b).
	genAttackVigilance = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, Vigilance: true, Hand: true, Prefix: 1,
		PrefixTypes: []model.ActionType{model.CastMutate, model.NextTurn},
		Focus:       []model.ActionType{model.Attack},
	})
	// genCreate creates a token, which a mutating spell may then merge
	// with and which may then leave (CR 111.1, 730.2d).
	genCreate = generators.NewShape(generators.Options{
		MaxPermanents: 1, MaxComponents: 2, Hand: true, Create: true,
		Focus: []model.ActionType{model.CreateToken}, FocusThen: []model.ActionType{model.CastMutate, model.Move},
		FocusLast: []model.ActionType{model.Move},
	})
	// genClone has a Clone enter as a copy of a permanent, alone, merged
	// or face down (CR 707.5, 707.2).
	genClone = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, Status: true, Clones: true,
		Focus: []model.ActionType{model.EnterAsCopy}, Then: 1,
	})
	// genMeldGone melds a pair one of whose halves may have left the
	// battlefield, or be a token (CR 701.42c).
	genMeldGone = generators.NewShape(generators.Options{
		MaxComponents: 1, MeldPair: true, MeldTokens: true, MeldGone: true, Prefix: 1,
		PrefixTypes: []model.ActionType{model.Move}, MoveTo: []model.Zone{model.Graveyard, model.Exile},
		Focus: []model.ActionType{model.Meld},
	})
)

var (
	genTrace = generators.NewShape(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, Status: true, Hand: true, Prefix: 3, Replacements: true,
	})
	genReturn = generators.NewShape(generators.Options{
		MaxComponents: 3, Status: true, FaceDownTop: &no,
		Kinds: []generators.Kind{generators.Card, generators.Flip, generators.Token, generators.Transform},
		Focus: []model.ActionType{model.Move}, FocusThen: []model.ActionType{model.Return},
	})
	genPhaseAttached = generators.NewShape(generators.Options{
		NoSwarm:       true, // see docs/BENCHMARKS.md, "Swarm testing"
		MaxPermanents: 2, MaxComponents: 2, Status: true, Attach: true, Prefix: 1,
		Focus: []model.ActionType{model.PhaseOut}, FocusThen: []model.ActionType{model.PhaseIn, model.NextTurn},
	})
)
