package reference

import "github.com/mergecheck/mergecheck/model"

// Mutants lists every mutant, each named for its bug. Components and
// Actions give the size of the canonical counterexample the suite shrinks
// it to: components on the battlefield at the start (replacement-effect
// permanents included), and actions: the smallest that shows the bug.
var Mutants = []Mutant{
	bugTapToggles,
	bugMergeNewObject,
	bugCharacteristicsFromBottom,
	bugMergeTriggersEnters,
	bugMergeResetsObject,
	bugTokenIfAnyToken,
	bugFaceDownIfAnyFaceDown,
	bugMergeKeepsFaceDown,
	bugMergeTriggersPermanentEnters,
	bugFaceDownPerComponent,
	bugNontokenDiesIfAnyCard,
	bugMergeTurnsFaceUp,
	bugTurnTopOnly,
	bugInstantTurnsFaceUp,
	bugFlipTopOnly,
	bugMergedDoubleFaced,
	bugTransformTopOnly,
	bugDfcMergedTurnsFaceDown,
	bugMutateTargetsHuman,
	bugMutateTargetsOtherOwner,
	bugMutateTargetsNoncreature,
	bugMutateTargetsProtection,
	bugProtectionFromEverySpell,
	bugUntapBeforePhasing,
	bugUntapPhasedOut,
	bugWardOnOwnSpells,
	bugWardIgnoresPayment,
	bugWardNeverCounters,
	bugCounteredSpellExiled,
	bugCounteredSpellNoTrigger,
	bugMutateTargetsShroud,
	bugMutateTargetsHexproof,
	bugHexproofAsShroud,
	bugCastRestrictionIgnored,
	bugStaticBonusPerComponent,
	bugAttachedBonusSkipsMerged,
	bugLosesAllTopOnly,
	bugLosesAllIgnoresTimestamps,
	bugCastRestrictionBindsController,
	bugCastRestrictionSparesThree,
	bugFaceDownSpellKeepsManaValue,
	bugDiesPerCard,
	bugDiesPerCardBoth,
	bugCountOneCard,
	bugIgnoreOrder,
	bugExileInComponentOrder,
	bugFindFirstCardOnly,
	bugReplacementTopOnly,
	bugCardReplacementSkipsTokens,
	bugIllegalTargetFizzles,
	bugMutateAlwaysTop,
	bugMutateTriggerTopOnly,
	bugAbilitiesTopOnly,
	bugMeldFrontFaces,
	bugMeldAnyPair,
	bugMeldCardTransforms,
	bugMeldedManaValueZero,
	bugFaceDownKeepsName,
	bugRefacedown,
	bugFaceUpEnters,
	bugNoReveal,
	bugFaceDownDfcTransforms,
	bugFlipAlways,
	bugFrontFaceHasBothAbilities,
	bugBackFaceManaValueZero,
	bugTransformDropsEffects,
	bugMergeIntoPhasedOut,
	bugPhaseInFails,
	bugCopyCopiesStatus,
	bugCopyAfterMerge,
	bugMergeAfterCopy,
	bugMergeUntaps,
	bugPhasingKillsTokens,
	bugDfcTurnsFaceDown,
	bugFlipToggles,
	bugMutateDropsTargetCard,
	bugStatusSurvivesZoneChange,
	bugCopyOfMergedDfcIsDfc,
	bugLibraryTopCardOnly,
	bugCommanderAlwaysCommandZone,
	bugAuraStaysPhasedIn,
	bugFailedFaceDownStill22,
	bugFaceDownToughnessFromCard,
	bugUnflippedTakesFlipPower,
	bugBackFaceFrontPower,
	bugMergeEntersAsCard,
	bugGraveyardTriggerOnce,
	bugMeldedNoAbilities,
	bugUntapPhasingZoneChange,
	bugTokensLinger,
	// Mutants of the newer actions, each also killed by its worked
	// example's expectations (Example).
	bugCreatedTokenIsACard,
	bugCloneCopiesTopCard,
	bugAttackIgnoresSummoningSickness,
	bugAttackerStaysUntapped,
	bugVigilanceAttackerTaps,
	bugAttackIgnoresDefender,
	bugDefenderTopOnly,
	bugAttackIgnoresEnchantment,
	bugDestroyAllHitsPhasedOut,
	bugMeldExilesTheOneLeft,
}

// Each mutant is declared once, here, with the rules it breaks; the
// reference engine names it by its variable (game.is).

// bugTapToggles: tapping or untapping turns a permanent to the other
// position, whichever it was in.
var bugTapToggles = Mutant{Name: "tap-toggles", Bug: "tapping or untapping turns a permanent to the other position, whichever it was in", Breaks: []model.RuleID{"701.26a", "701.26b"}, Components: 1, Actions: 1}

// bugMergeNewObject: a merged permanent becomes a new object.
var bugMergeNewObject = Mutant{Name: "merge-new-object", Bug: "a merged permanent becomes a new object", Breaks: []model.RuleID{"730.2c", "730.2"}, Components: 1, Actions: 1}

// bugCharacteristicsFromBottom: a merged permanent takes the bottom component's characteristics.
var bugCharacteristicsFromBottom = Mutant{Name: "characteristics-from-bottom", Bug: "a merged permanent takes the bottom component's characteristics", Breaks: []model.RuleID{"730.2a"},
	Also: []model.RuleID{"730.2h", "702.140e", "708.2a", "712.8d", "613.2a"}, Why: "a flipped merged permanent topped by a flip card then lacks that card's alternative characteristics, a mutated one has its bottom card's abilities rather than every component's, a face-down one over a face-up card has that card's characteristics, one topped by a double-faced card front face up has another card's, and a copy a card merged onto the top of has the bottom card's, not the one layer 1a gives last",
	Components: 2, Actions: 0}

// bugMergeTriggersEnters: merging triggers "whenever a creature enters".
var bugMergeTriggersEnters = Mutant{Name: "merge-triggers-enters", Bug: "merging triggers \"whenever a creature enters\"", Breaks: []model.RuleID{"730.2b"}, Components: 1, Actions: 1}

// bugMergeResetsObject: merging drops counters and effects and restarts summoning sickness.
var bugMergeResetsObject = Mutant{Name: "merge-resets-object", Bug: "merging drops counters and effects and restarts summoning sickness", Breaks: []model.RuleID{"730.2c"}, Components: 1, Actions: 1}

// bugTokenIfAnyToken: a merged permanent with any token component is a token.
var bugTokenIfAnyToken = Mutant{Name: "token-if-any-token", Bug: "a merged permanent with any token component is a token", Breaks: []model.RuleID{"730.2d"},
	Also: []model.RuleID{"730.3d", "730.3e"}, Why: "a replacement effect on cards then passes over the token components of a merged permanent topped by a card",
	Components: 2, Actions: 0}

// bugFaceDownIfAnyFaceDown: a merged permanent with any face-down component is face down.
var bugFaceDownIfAnyFaceDown = Mutant{Name: "face-down-if-any-face-down", Bug: "a merged permanent with any face-down component is face down", Breaks: []model.RuleID{"730.2e"}, Components: 1, Actions: 1}

// bugMergeKeepsFaceDown: a face-up card merging on top of a face-down permanent goes face down with it.
var bugMergeKeepsFaceDown = Mutant{Name: "merge-keeps-face-down", Bug: "a face-up card merging on top of a face-down permanent goes face down with it", Breaks: []model.RuleID{"730.2e"}, Components: 1, Actions: 1}

// bugMergeTriggersPermanentEnters: merging triggers "whenever a permanent enters".
var bugMergeTriggersPermanentEnters = Mutant{Name: "merge-triggers-permanent-enters", Bug: "merging triggers \"whenever a permanent enters\"", Breaks: []model.RuleID{"730.2b"}, Components: 1, Actions: 1}

// bugFaceDownPerComponent: turning a merged permanent face down triggers "whenever a permanent is turned face down" once per component.
var bugFaceDownPerComponent = Mutant{Name: "face-down-per-component", Bug: "turning a merged permanent face down triggers \"whenever a permanent is turned face down\" once per component", Breaks: []model.RuleID{"730.2f"}, Components: 2, Actions: 1}

// bugNontokenDiesIfAnyCard: a merged permanent topped by a token that dies triggers "whenever a nontoken creature dies" when it has a card.
var bugNontokenDiesIfAnyCard = Mutant{Name: "nontoken-dies-if-any-card", Bug: "a merged permanent topped by a token that dies triggers \"whenever a nontoken creature dies\" when it has a card", Breaks: []model.RuleID{"730.2d"}, Components: 2, Actions: 1}

// bugMergeTurnsFaceUp: merging face up onto a face-down permanent counts as turning it face up.
var bugMergeTurnsFaceUp = Mutant{Name: "merge-turns-face-up", Bug: "merging face up onto a face-down permanent counts as turning it face up", Breaks: []model.RuleID{"730.2e"}, Components: 1, Actions: 1}

// bugTurnTopOnly: turning a merged permanent face down or up turns only its topmost component.
var bugTurnTopOnly = Mutant{Name: "turn-top-only", Bug: "turning a merged permanent face down or up turns only its topmost component", Breaks: []model.RuleID{"730.2f"}, Components: 2, Actions: 1}

// bugInstantTurnsFaceUp: a face-down merged permanent with an instant in it turns face up.
var bugInstantTurnsFaceUp = Mutant{Name: "instant-turns-face-up", Bug: "a face-down merged permanent with an instant in it turns face up", Breaks: []model.RuleID{"730.2g"}, Components: 2, Actions: 1}

// bugFlipTopOnly: a flipped merged permanent uses the alternative abilities only of its topmost flip card.
var bugFlipTopOnly = Mutant{Name: "flip-top-only", Bug: "a flipped merged permanent uses the alternative abilities only of its topmost flip card", Breaks: []model.RuleID{"730.2h"}, Components: 2, Actions: 0}

// bugMergedDoubleFaced: a merged permanent with a double-faced component reports itself double-faced.
var bugMergedDoubleFaced = Mutant{Name: "merged-double-faced", Bug: "a merged permanent with a double-faced component reports itself double-faced", Breaks: []model.RuleID{"730.2i"}, Components: 2, Actions: 0}

// bugTransformTopOnly: transforming a merged permanent turns only its first double-faced component.
var bugTransformTopOnly = Mutant{Name: "transform-top-only", Bug: "transforming a merged permanent turns only its first double-faced component", Breaks: []model.RuleID{"730.2i"}, Components: 2, Actions: 1}

// bugDfcMergedTurnsFaceDown: a face-up merged permanent with a double-faced component turns face down.
var bugDfcMergedTurnsFaceDown = Mutant{Name: "dfc-merged-turns-face-down", Bug: "a face-up merged permanent with a double-faced component turns face down", Breaks: []model.RuleID{"730.2j"}, Components: 2, Actions: 1}

// bugMutateTargetsHuman: a mutating creature spell may target a Human.
var bugMutateTargetsHuman = Mutant{Name: "mutate-targets-human", Bug: "a mutating creature spell may target a Human", Breaks: []model.RuleID{"702.140a"}, Components: 1, Actions: 1}

// bugMutateTargetsOtherOwner: a mutating creature spell may target a creature another player owns.
var bugMutateTargetsOtherOwner = Mutant{Name: "mutate-targets-other-owner", Bug: "a mutating creature spell may target a creature another player owns", Breaks: []model.RuleID{"702.140a"}, Components: 1, Actions: 1}

// bugMutateTargetsNoncreature: a mutating creature spell may target a noncreature permanent.
var bugMutateTargetsNoncreature = Mutant{Name: "mutate-targets-noncreature", Bug: "a mutating creature spell may target a noncreature permanent", Breaks: []model.RuleID{"702.140a"}, Components: 1, Actions: 1}

// bugMutateTargetsProtection: a red mutating creature spell may target a permanent with protection from red.
var bugMutateTargetsProtection = Mutant{Name: "mutate-targets-protection", Bug: "a red mutating creature spell may target a permanent with protection from red", Breaks: []model.RuleID{"702.16b"}, Components: 1, Actions: 1}

// bugProtectionFromEverySpell: protection from red keeps spells of every colour from targeting the permanent.
var bugProtectionFromEverySpell = Mutant{Name: "protection-from-every-spell", Bug: "protection from red keeps spells of every colour from targeting the permanent", Breaks: []model.RuleID{"702.16b"}, Components: 1, Actions: 1}

// bugUntapBeforePhasing: the untap step untaps before phasing, so what phases in stays tapped.
var bugUntapBeforePhasing = Mutant{Name: "untap-before-phasing", Bug: "the untap step untaps before phasing, so what phases in stays tapped", Breaks: []model.RuleID{"502.3"}, Components: 1, Actions: 3}

// bugUntapPhasedOut: the untap step untaps phased-out permanents too, whoever controls them.
var bugUntapPhasedOut = Mutant{Name: "untap-phased-out", Bug: "the untap step untaps phased-out permanents too, whoever controls them", Breaks: []model.RuleID{"502.3"}, Components: 1, Actions: 2}

// bugWardOnOwnSpells: ward counters a spell its permanent's own controller casts at it.
var bugWardOnOwnSpells = Mutant{Name: "ward-on-own-spells", Bug: "ward counters a spell its permanent's own controller casts at it", Breaks: []model.RuleID{"702.21a"}, Components: 1, Actions: 1}

// bugWardIgnoresPayment: ward counters the spell even when its caster pays.
var bugWardIgnoresPayment = Mutant{Name: "ward-ignores-payment", Bug: "ward counters the spell even when its caster pays", Breaks: []model.RuleID{"702.21a"}, Components: 1, Actions: 1}

// bugWardNeverCounters: ward never counters the spell, even when its caster does not pay.
var bugWardNeverCounters = Mutant{Name: "ward-never-counters", Bug: "ward never counters the spell, even when its caster does not pay", Breaks: []model.RuleID{"702.21a"}, Components: 1, Actions: 1}

// bugCounteredSpellExiled: a countered spell is exiled instead of going to its owner's graveyard.
var bugCounteredSpellExiled = Mutant{Name: "countered-spell-exiled", Bug: "a countered spell is exiled instead of going to its owner's graveyard", Breaks: []model.RuleID{"701.6a"}, Components: 1, Actions: 1}

// bugCounteredSpellNoTrigger: a countered spell put into its owner's
// graveyard triggers no "whenever a card is put into a graveyard from
// anywhere".
var bugCounteredSpellNoTrigger = Mutant{Name: "countered-spell-no-trigger", Bug: "a countered spell put into its owner's graveyard does not trigger card_to_graveyard", Breaks: []model.RuleID{"701.6a"}, Components: 1, Actions: 1,
	Example: "701.6a-an-unpaid-ward-counters-the-spell"}

// bugMutateTargetsShroud: a mutating creature spell may target a permanent with shroud.
var bugMutateTargetsShroud = Mutant{Name: "mutate-targets-shroud", Bug: "a mutating creature spell may target a permanent with shroud", Breaks: []model.RuleID{"702.18a"}, Components: 2, Actions: 1}

// bugDiesPerCard: "whenever a creature dies" triggers once per card of a merged permanent.
var bugDiesPerCard = Mutant{Name: "dies-per-card", Bug: "\"whenever a creature dies\" triggers once per card of a merged permanent", Breaks: []model.RuleID{"730.3", "712.21"}, Components: 2, Actions: 1}

// bugDiesPerCardBoth: "whenever a creature dies" and "whenever a nontoken creature dies" trigger once per card of a merged permanent.
var bugDiesPerCardBoth = Mutant{Name: "dies-per-card-both", Bug: "\"whenever a creature dies\" and \"whenever a nontoken creature dies\" trigger once per card of a merged permanent", Breaks: []model.RuleID{"730.3", "712.21"}, Components: 2, Actions: 1}

// bugCountOneCard: a merged or melded permanent leaving counts as one card.
var bugCountOneCard = Mutant{Name: "count-one-card", Bug: "a merged or melded permanent leaving counts as one card", Breaks: []model.RuleID{"712.21e", "730.3"}, Components: 2, Actions: 1}

// bugIgnoreOrder: a merged permanent's cards go into a graveyard or library in component order, not the owner's.
var bugIgnoreOrder = Mutant{Name: "ignore-order", Bug: "a merged permanent's cards go into a graveyard or library in component order, not the owner's", Breaks: []model.RuleID{"730.3a", "712.21a"}, Components: 2, Actions: 1}

// bugExileInComponentOrder: exiled cards get timestamps in component order, not the exiling player's.
var bugExileInComponentOrder = Mutant{Name: "exile-in-component-order", Bug: "exiled cards get timestamps in component order, not the exiling player's", Breaks: []model.RuleID{"730.3b", "712.21b"}, Components: 2, Actions: 1}

// bugFindFirstCardOnly: an effect finds only the first card a merged permanent became.
var bugFindFirstCardOnly = Mutant{Name: "find-first-card-only", Bug: "an effect finds only the first card a merged permanent became", Breaks: []model.RuleID{"730.3c", "712.21c"}, Components: 2, Actions: 2}

// bugReplacementTopOnly: a replacement effect moves only the topmost component.
var bugReplacementTopOnly = Mutant{Name: "replacement-top-only", Bug: "a replacement effect moves only the topmost component", Breaks: []model.RuleID{"730.3d", "712.21d"},
	Also: []model.RuleID{"730.3e"}, Why: "with token components under a card, the card-only replacement effect then misses the tokens", Components: 3, Actions: 1}

// bugCardReplacementSkipsTokens: a card-only replacement effect never moves token components.
var bugCardReplacementSkipsTokens = Mutant{Name: "card-replacement-skips-tokens", Bug: "a card-only replacement effect never moves token components", Breaks: []model.RuleID{"730.3e"}, Components: 3, Actions: 1}

// bugIllegalTargetFizzles: a mutating spell whose target is illegal goes to the graveyard.
var bugIllegalTargetFizzles = Mutant{Name: "illegal-target-fizzles", Bug: "a mutating spell whose target is illegal goes to the graveyard", Breaks: []model.RuleID{"702.140b"},
	Also: []model.RuleID{"702.26b"}, Why: "a target that phased out is illegal too, and the spell then goes to the graveyard instead of entering",
	Components: 1, Actions: 3}

// bugMutateAlwaysTop: a mutating spell always goes on top.
var bugMutateAlwaysTop = Mutant{Name: "mutate-always-top", Bug: "a mutating spell always goes on top", Breaks: []model.RuleID{"702.140c"}, Components: 1, Actions: 2}

// bugMutateTriggerTopOnly: only one "whenever this creature mutates" ability triggers.
var bugMutateTriggerTopOnly = Mutant{Name: "mutate-trigger-top-only", Bug: "only one \"whenever this creature mutates\" ability triggers", Breaks: []model.RuleID{"702.140d"}, Components: 1, Actions: 2}

// bugAbilitiesTopOnly: a mutated permanent has only its topmost component's abilities.
var bugAbilitiesTopOnly = Mutant{Name: "abilities-top-only", Bug: "a mutated permanent has only its topmost component's abilities", Breaks: []model.RuleID{"702.140e"},
	Also: []model.RuleID{"702.140d", "730.2h", "730.2g", "708.8", "730.2f"}, Why: "a lower component's \"whenever this creature mutates\" ability and a flipped flip card's alternative abilities are then lost, and a face-down merged permanent whose morph comes from a lower component can't be turned face up for it (so neither stays face down as 730.2g says nor turns face up as 708.8 and 730.2f say)",
	Components: 2, Actions: 0}

// bugMeldFrontFaces: a melded permanent enters with its front faces up.
var bugMeldFrontFaces = Mutant{Name: "meld-front-faces", Bug: "a melded permanent enters with its front faces up", Breaks: []model.RuleID{"701.42a", "712.4a"}, Components: 2, Actions: 1}

// bugMeldAnyPair: a token copy of a meld card melds with its counterpart.
var bugMeldAnyPair = Mutant{Name: "meld-any-pair", Bug: "a token copy of a meld card melds with its counterpart", Breaks: []model.RuleID{"701.42b", "701.42c"}, Components: 2, Actions: 1}

// bugMeldCardTransforms: meld cards transform like other double-faced cards.
var bugMeldCardTransforms = Mutant{Name: "meld-card-transforms", Bug: "meld cards transform like other double-faced cards", Breaks: []model.RuleID{"712.4b", "712.4c"},
	Also: []model.RuleID{"730.2i"}, Why: "transforming a merged permanent then turns a meld card component, which can't transform",
	Components: 1, Actions: 1}

// bugMeldedManaValueZero: a melded permanent has mana value 0, as though it had no mana cost.
var bugMeldedManaValueZero = Mutant{Name: "melded-mana-value-zero", Bug: "a melded permanent has mana value 0, as though it had no mana cost", Breaks: []model.RuleID{"712.8g"}, Components: 2, Actions: 0}

// bugFaceDownKeepsName: a face-down permanent keeps its name.
var bugFaceDownKeepsName = Mutant{Name: "face-down-keeps-name", Bug: "a face-down permanent keeps its name", Breaks: []model.RuleID{"708.2a"},
	Also: []model.RuleID{"730.2a"}, Why: "a token copy of a face-down permanent then keeps the name, and a merged permanent it tops shows it", Components: 1, Actions: 0}

// bugRefacedown: turning a face-down permanent face down again redoes it as an effect's face-down permanent.
var bugRefacedown = Mutant{Name: "refacedown", Bug: "turning a face-down permanent face down again redoes it as an effect's face-down permanent", Breaks: []model.RuleID{"708.2b"}, Components: 1, Actions: 1}

// bugFaceUpEnters: a permanent turned face up triggers "whenever a creature enters".
var bugFaceUpEnters = Mutant{Name: "face-up-enters", Bug: "a permanent turned face up triggers \"whenever a creature enters\"", Breaks: []model.RuleID{"708.8"}, Components: 1, Actions: 1}

// bugNoReveal: face-down components leaving the battlefield are not revealed.
var bugNoReveal = Mutant{Name: "no-reveal", Bug: "face-down components leaving the battlefield are not revealed", Breaks: []model.RuleID{"708.9"}, Components: 1, Actions: 1}

// bugFaceDownDfcTransforms: a face-down double-faced permanent transforms.
var bugFaceDownDfcTransforms = Mutant{Name: "face-down-dfc-transforms", Bug: "a face-down double-faced permanent transforms", Breaks: []model.RuleID{"712.15a"}, Components: 1, Actions: 1}

// bugFlipAlways: a flip card uses its alternative characteristics even unflipped.
var bugFlipAlways = Mutant{Name: "flip-always", Bug: "a flip card uses its alternative characteristics even unflipped", Breaks: []model.RuleID{"710.1b", "710.2"},
	Also: []model.RuleID{"730.2a", "702.140e", "707.5", "613.2a"}, Why: "an unflipped flip card in a merged permanent then gives it its alternative characteristics, or its alternative abilities when mutated, also when it merged onto the top of a copy, and a copy of a flipped flip card, which enters unflipped, takes them too", Components: 1, Actions: 0}

// bugFrontFaceHasBothAbilities: a double-faced permanent with its front face up also has its back face's abilities.
var bugFrontFaceHasBothAbilities = Mutant{Name: "front-face-has-both-abilities", Bug: "a double-faced permanent with its front face up also has its back face's abilities", Breaks: []model.RuleID{"712.8d"}, Components: 1, Actions: 0}

// bugBackFaceManaValueZero: a transformed permanent's mana value is its back face's, 0.
var bugBackFaceManaValueZero = Mutant{Name: "back-face-mana-value-zero", Bug: "a transformed permanent's mana value is its back face's, 0", Breaks: []model.RuleID{"712.8e"},
	Also: []model.RuleID{"730.2a", "730.2h"}, Why: "a merged permanent topped by such a component, flipped or not, takes its wrong mana value",
	Components: 1, Actions: 0}

// bugTransformDropsEffects: transforming a permanent ends the effects and counters on it.
var bugTransformDropsEffects = Mutant{Name: "transform-drops-effects", Bug: "transforming a permanent ends the effects and counters on it", Breaks: []model.RuleID{"712.18"}, Components: 1, Actions: 1}

// bugMergeIntoPhasedOut: a mutating spell merges with a target that phased out.
var bugMergeIntoPhasedOut = Mutant{Name: "merge-into-phased-out", Bug: "a mutating spell merges with a target that phased out", Breaks: []model.RuleID{"702.26b"},
	Also: []model.RuleID{"702.140b"}, Why: "a phased-out target is an illegal target, so the spell should have entered on its own",
	Components: 1, Actions: 3}

// bugPhaseInFails: a phased-out permanent told to phase in stays phased out.
var bugPhaseInFails = Mutant{Name: "phase-in-fails", Bug: "a phased-out permanent told to phase in stays phased out", Breaks: []model.RuleID{"702.26c"},
	Also: []model.RuleID{"702.26g"}, Why: "an Aura that phased out with its host then stays phased out too",
	Components: 1, Actions: 2}

// bugCopyCopiesStatus: a token copy enters with the original's tapped and flipped status.
var bugCopyCopiesStatus = Mutant{Name: "copy-copies-status", Bug: "a token copy enters with the original's tapped and flipped status", Breaks: []model.RuleID{"110.5a", "110.5b"}, Components: 1, Actions: 1}

// bugCopyAfterMerge: a copy effect applies after a later merge.
var bugCopyAfterMerge = Mutant{Name: "copy-after-merge", Bug: "a copy effect applies after a merge that came later, so a copy a card merges onto the top of keeps the copied values", Breaks: []model.RuleID{"613.2a"},
	Also: []model.RuleID{"730.2a", "730.2h"}, Why: "the merged permanent then lacks its topmost component's characteristics, flipped or not",
	Components: 1, Actions: 2}

// bugMergeAfterCopy: a merge applies after a later copy effect.
var bugMergeAfterCopy = Mutant{Name: "merge-after-copy", Bug: "a merge applies after a copy effect that came later, so a merged permanent that becomes a copy keeps its topmost card's values", Breaks: []model.RuleID{"613.2a"},
	Also: []model.RuleID{"730.2a", "730.2h"}, Why: "the merged permanent then has its topmost component's characteristics where the copy's apply, flipped or not",
	Components: 2, Actions: 1}

// bugMergeUntaps: a merged permanent loses its tapped status.
var bugMergeUntaps = Mutant{Name: "merge-untaps", Bug: "a merged permanent loses its tapped status", Breaks: []model.RuleID{"110.5c"}, Components: 1, Actions: 1}

// bugPhasingKillsTokens: phasing out a merged permanent removes its token components.
var bugPhasingKillsTokens = Mutant{Name: "phasing-kills-tokens", Bug: "phasing out a merged permanent removes its token components", Breaks: []model.RuleID{"702.26d"}, Components: 2, Actions: 1}

// bugDfcTurnsFaceDown: a double-faced permanent can be turned face down.
var bugDfcTurnsFaceDown = Mutant{Name: "dfc-turns-face-down", Bug: "a double-faced permanent can be turned face down", Breaks: []model.RuleID{"712.16"}, Components: 1, Actions: 1}

// bugFlipToggles: flipping a flipped permanent unflips it.
var bugFlipToggles = Mutant{Name: "flip-toggles", Bug: "flipping a flipped permanent unflips it", Breaks: []model.RuleID{"710.4"}, Components: 1, Actions: 1}

// bugMutateDropsTargetCard: a mutating spell's target loses its cards (its tokens stay): they are in no zone and no permanent.
var bugMutateDropsTargetCard = Mutant{Name: "mutate-drops-target-card", Bug: "a mutating spell's target loses its cards (its tokens stay): they are in no zone and no permanent", Breaks: []model.RuleID{"400.1"},
	Components: 1, Actions: 2}

// bugStatusSurvivesZoneChange: a card that left the battlefield tapped or flipped returns tapped or flipped.
var bugStatusSurvivesZoneChange = Mutant{Name: "status-survives-zone-change", Bug: "a card that left the battlefield tapped or flipped returns tapped or flipped", Breaks: []model.RuleID{"110.5d"},
	Also: []model.RuleID{"710.4", "110.5b"}, Why: "a flipped permanent that returns then remembers it was flipped, and does not enter untapped and unflipped", Components: 1, Actions: 2}

// bugCopyOfMergedDfcIsDfc: a token copy of a merged permanent topped by a double-faced card is a double-faced token copying that card.
var bugCopyOfMergedDfcIsDfc = Mutant{Name: "copy-of-merged-dfc-is-dfc", Bug: "a token copy of a merged permanent topped by a double-faced card is a double-faced token copying that card", Breaks: []model.RuleID{"707.8a"},
	Also: []model.RuleID{"702.140e"}, Why: "the token then has that card's abilities only, not every component's, and so does a permanent a mutating spell later merges with it", Components: 2, Actions: 1}

// bugLibraryTopCardOnly: a merged or melded permanent put into a library puts only its topmost card there, and its other cards into the graveyard.
var bugLibraryTopCardOnly = Mutant{Name: "library-top-card-only", Bug: "a merged or melded permanent put into a library puts only its topmost card there, and its other cards into the graveyard", Breaks: []model.RuleID{"730.3", "712.21"}, Components: 2, Actions: 1}

// bugCommanderAlwaysCommandZone: a commander always goes to the command zone, whatever its owner chooses.
var bugCommanderAlwaysCommandZone = Mutant{Name: "commander-always-command-zone", Bug: "a commander always goes to the command zone, whatever its owner chooses", Breaks: []model.RuleID{"903.9c"}, Components: 2, Actions: 1}

// bugAuraStaysPhasedIn: an Aura attached to a permanent that phases out stays phased in.
var bugAuraStaysPhasedIn = Mutant{Name: "aura-stays-phased-in", Bug: "an Aura attached to a permanent that phases out stays phased in", Breaks: []model.RuleID{"702.26g"}, Components: 2, Actions: 1}

// bugFailedFaceDownStill22: a double-faced permanent that can't be turned face down stays face up but takes a face-down permanent's characteristics.
var bugFailedFaceDownStill22 = Mutant{Name: "failed-face-down-still-2-2", Bug: "a double-faced permanent that can't be turned face down stays face up but takes a face-down permanent's characteristics", Breaks: []model.RuleID{"712.16", "730.2j"},
	Also: []model.RuleID{"730.2a", "702.140e", "730.2h", "712.8d", "712.8e", "712.8g", "613.2a"}, Why: "a merged permanent it happens to then has a face-down permanent's characteristics, not its topmost component's (flipped or not) nor every component's abilities, nor a copy's it is under; a double-faced or melded permanent then has neither the characteristics of the face that is up nor the mana value the rules give it", Components: 1, Actions: 1,
	Sizes: map[model.RuleID][2]int{"730.2j": {2, 1}}}

// bugFaceDownToughnessFromCard: a face-down permanent has its card's toughness.
var bugFaceDownToughnessFromCard = Mutant{Name: "face-down-toughness-from-card", Bug: "a face-down permanent has its card's toughness", Breaks: []model.RuleID{"708.2a"},
	Also: []model.RuleID{"730.2a"}, Why: "a token copy of a face-down permanent then has the wrong toughness, and a merged permanent it tops shows it", Components: 1, Actions: 0}

// bugUnflippedTakesFlipPower: an unflipped flip card has its flipped half's power and toughness.
var bugUnflippedTakesFlipPower = Mutant{Name: "unflipped-takes-flip-power", Bug: "an unflipped flip card has its flipped half's power and toughness", Breaks: []model.RuleID{"710.2", "710.1b"},
	Also: []model.RuleID{"730.2a", "707.5", "613.2a"}, Why: "a merged permanent topped by an unflipped flip card (a copy's or not), and a copy of a flipped flip card, which enters unflipped, then have the flipped half's power and toughness", Components: 1, Actions: 0}

// bugBackFaceFrontPower: a double-faced permanent back face up has its front face's power and toughness.
var bugBackFaceFrontPower = Mutant{Name: "back-face-front-power", Bug: "a double-faced permanent back face up has its front face's power and toughness", Breaks: []model.RuleID{"712.8e"},
	Also: []model.RuleID{"730.2a", "730.2h"}, Why: "a merged permanent topped by such a component, flipped or not, then has its front face's power and toughness", Components: 1, Actions: 0}

// bugMergeEntersAsCard: merging triggers "whenever a creature enters" for the card that merges, under the id it would have entered with.
var bugMergeEntersAsCard = Mutant{Name: "merge-enters-as-card", Bug: "merging triggers \"whenever a creature enters\" for the card that merges, under the id it would have entered with", Breaks: []model.RuleID{"730.2b"}, Components: 1, Actions: 1}

// bugGraveyardTriggerOnce: a merged or melded permanent put into a graveyard triggers "whenever a card is put into a graveyard" once, not once per card.
var bugGraveyardTriggerOnce = Mutant{Name: "graveyard-trigger-once", Bug: "a merged or melded permanent put into a graveyard triggers \"whenever a card is put into a graveyard\" once, not once per card", Breaks: []model.RuleID{"730.3", "712.21"}, Components: 2, Actions: 1}

// bugMeldedNoAbilities: a melded permanent has no abilities.
var bugMeldedNoAbilities = Mutant{Name: "melded-no-abilities", Bug: "a melded permanent has no abilities", Breaks: []model.RuleID{"712.8g"}, Components: 2, Actions: 0}

// bugUntapPhasingZoneChange: phasing at the untap step is reported as a zone change.
var bugUntapPhasingZoneChange = Mutant{Name: "untap-phasing-zone-change", Bug: "phasing at the untap step is reported as a zone change", Breaks: []model.RuleID{"702.26d"}, Components: 1, Actions: 3}

// bugTokensLinger: token components stay in the zone they moved to.
var bugTokensLinger = Mutant{Name: "tokens-linger", Bug: "token components stay in the zone they moved to", Breaks: []model.RuleID{"704.5d"}, Components: 1, Actions: 1}

// bugCreatedTokenIsACard: a created token is treated as a card.
var bugCreatedTokenIsACard = Mutant{Name: "created-token-is-a-card", Bug: "a created token is treated as a card", Breaks: []model.RuleID{"111.1"},
	Example: "111.2-created-token-under-a-mutating-card", Components: 0, Actions: 1}

// bugCloneCopiesTopCard: a creature entering as a copy copies the printed card of the original's topmost component, not its copiable values.
var bugCloneCopiesTopCard = Mutant{Name: "clone-copies-top-card", Bug: "a creature entering as a copy copies the printed card of the original's topmost component, not its copiable values",
	Breaks: []model.RuleID{"707.5", "707.8"}, Example: "707.5-clone-copies-a-mutated-creature", Components: 1, Actions: 1,
	Also: []model.RuleID{"702.140d"}, Why: "a Clone of a face-down mutating card then has that card's \"whenever this creature mutates\" ability, which triggers when a card mutates onto the Clone"}

// bugAttackIgnoresSummoningSickness: a creature attacks the turn it came under its controller's control.
var bugAttackIgnoresSummoningSickness = Mutant{Name: "attack-ignores-summoning-sickness", Bug: "a creature attacks the turn it came under its controller's control", Breaks: []model.RuleID{"302.6", "508.1a"},
	Example: "302.6-creature-cast-this-turn-cannot-attack", Components: 1, Actions: 1, Sizes: map[model.RuleID][2]int{"508.1a": {0, 3}}}

// bugAttackerStaysUntapped: a creature declared an attacker stays untapped.
var bugAttackerStaysUntapped = Mutant{Name: "attacker-stays-untapped", Bug: "a creature declared an attacker stays untapped", Breaks: []model.RuleID{"508.1f"},
	Example: "508.1f-an-attacker-becomes-tapped", Components: 1, Actions: 1}

// bugVigilanceAttackerTaps: a creature with vigilance becomes tapped when it attacks.
var bugVigilanceAttackerTaps = Mutant{Name: "vigilance-attacker-taps", Bug: "a creature with vigilance becomes tapped when it attacks", Breaks: []model.RuleID{"702.20b"},
	Example: "702.20b-a-mutated-attacker-with-vigilance-stays-untapped", Components: 1, Actions: 1}

// bugAttackIgnoresDefender: a creature with defender attacks.
var bugAttackIgnoresDefender = Mutant{Name: "attack-ignores-defender", Bug: "a creature with defender attacks", Breaks: []model.RuleID{"702.3b"},
	Example: "702.3b-wall-of-omens-cannot-attack", Components: 1, Actions: 1}

// bugDefenderTopOnly: a mutated creature can't attack only if its topmost component has defender.
var bugDefenderTopOnly = Mutant{Name: "defender-top-only", Bug: "a mutated creature can't attack only if its topmost component has defender", Breaks: []model.RuleID{"702.3b"},
	Example: "702.3b-a-mutated-wall-cannot-attack", Components: 2, Actions: 1}

// bugAttackIgnoresEnchantment: a creature enchanted by an Aura that says it can't attack attacks.
var bugAttackIgnoresEnchantment = Mutant{Name: "attack-ignores-enchantment", Bug: "a creature enchanted by an Aura that says it can't attack attacks", Breaks: []model.RuleID{"508.1c"},
	Example: "508.1c-pacifism-on-a-mutated-creature", Components: 2, Actions: 1}

// bugDestroyAllHitsPhasedOut: destroying every creature destroys phased-out ones too.
var bugDestroyAllHitsPhasedOut = Mutant{Name: "destroy-all-hits-phased-out", Bug: "destroying every creature destroys phased-out ones too", Breaks: []model.RuleID{"702.26b"},
	Example: "702.26b-destroy-all-spares-a-phased-out-creature", Components: 1, Actions: 2}

// bugMeldExilesTheOneLeft: a meld whose pair is gone exiles the permanent that is left.
var bugMeldExilesTheOneLeft = Mutant{Name: "meld-exiles-the-one-left", Bug: "a meld whose pair is gone exiles the permanent that is left", Breaks: []model.RuleID{"701.42c"},
	Also: []model.RuleID{"704.5d"}, Why: "a token half it exiles then ceases to exist, which the rules never make it do",
	Example: "701.42c-meld-after-its-pair-died", Components: 2, Actions: 2}

// bugCastRestrictionIgnored: Brisela's restriction forbids no spell.
var bugCastRestrictionIgnored = Mutant{Name: "cast-restriction-ignored", Bug: "an opponent of Brisela's controller may cast a spell of mana value 3 or less", Breaks: []model.RuleID{"601.3"}, Components: 2, Actions: 1}

// bugCastRestrictionBindsController: Brisela's restriction binds its
// controller as well as their opponents.
var bugCastRestrictionBindsController = Mutant{Name: "cast-restriction-binds-its-controller", Bug: "Brisela's controller may not cast a spell of mana value 3 or less", Breaks: []model.RuleID{"601.3"}, Components: 2, Actions: 1}

// bugCastRestrictionSparesThree: Brisela's restriction forbids only mana
// value 2 or less.
var bugCastRestrictionSparesThree = Mutant{Name: "cast-restriction-spares-mana-value-3", Bug: "an opponent of Brisela's controller may cast a spell of mana value exactly 3", Breaks: []model.RuleID{"601.3"}, Components: 2, Actions: 1}

// bugFaceDownSpellKeepsManaValue: a spell cast face down has its card's
// mana value, not 0.
var bugFaceDownSpellKeepsManaValue = Mutant{Name: "face-down-spell-keeps-mana-value", Bug: "a spell cast face down has its card's mana value where a restriction reads it, not 0", Breaks: []model.RuleID{"601.3"}, Components: 2, Actions: 1}

// bugMutateTargetsHexproof: a mutating creature spell may target a
// permanent with hexproof that an opponent controls.
var bugMutateTargetsHexproof = Mutant{Name: "mutate-targets-hexproof", Bug: "a mutating creature spell may target a permanent with hexproof that an opponent of its caster controls", Breaks: []model.RuleID{"702.11b"}, Components: 1, Actions: 1}

// bugHexproofAsShroud: hexproof keeps even its controller's spells from
// targeting the permanent, as shroud would.
var bugHexproofAsShroud = Mutant{Name: "hexproof-as-shroud", Bug: "hexproof keeps the permanent's own controller's mutating spells from targeting it", Breaks: []model.RuleID{"702.11b"}, Components: 1, Actions: 1}

// bugStaticBonusPerComponent: a static "gets +N/+M" counts once for each
// card or token of a merged permanent.
var bugStaticBonusPerComponent = Mutant{Name: "static-bonus-per-component", Bug: "a static ability's +N/+M applies to a merged permanent once per component", Breaks: []model.RuleID{"613.4c"}, Components: 3, Actions: 0}

// bugAttachedBonusSkipsMerged: what an Aura or Equipment gives a
// creature's power and toughness is lost once the creature is merged, as
// in an engine that keeps the bonus on the card it was first attached to.
var bugAttachedBonusSkipsMerged = Mutant{Name: "attached-bonus-skips-merged", Bug: "an Aura's or Equipment's +N/+M does not apply to the merged permanent it is attached to", Breaks: []model.RuleID{"613.4c"}, Components: 3, Actions: 0}

// bugLosesAllTopOnly: "loses all abilities" leaves the abilities of a
// mutated permanent's lower components.
var bugLosesAllTopOnly = Mutant{Name: "loses-all-abilities-top-only", Bug: "a mutated permanent that loses all abilities keeps those of its lower components", Breaks: []model.RuleID{"613.1f"}, Components: 3, Actions: 0}

// bugLosesAllIgnoresTimestamps: "loses all abilities" removes abilities
// granted by effects with later timestamps too.
var bugLosesAllIgnoresTimestamps = Mutant{Name: "loses-all-abilities-ignores-timestamps", Bug: "a permanent that loses all abilities loses those a later effect grants it too", Breaks: []model.RuleID{"613.1f"}, Components: 3, Actions: 0}
