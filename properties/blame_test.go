package properties_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// asMutant plays s on the reference and on one of its mutants, and
// returns the rules whose checks fail the mutant's trace (see failures).
func asMutant(t *testing.T, s *model.Scenario, mutant string) []string {
	t.Helper()
	rules, err := reference.Run(s)
	require.NoError(t, err)
	got, err := reference.RunMutant(s, mutant)
	require.NoError(t, err)
	return failures(&properties.Case{Scenario: s, Trace: got, Reference: rules})
}

// mergedDies is a merged creature of two cards (or a token on top of a
// card) put into its owner's graveyard.
func mergedDies(tokenOnTop bool) *model.Scenario {
	bd := build.New("merged-dies", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	top := bd.Card("c2", build.A, "Grizzly Bears")
	if tokenOnTop {
		top = bd.Token("t1", build.A, "Saproling Token")
	}
	bd.Perm("p1", build.A, build.Up(top), build.Up("c1"))
	order := []model.ObjectID{"c1"}
	if !tokenOnTop {
		order = []model.ObjectID{"c1", "c2"}
	}
	return bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Order: order}}).Scenario()
}

// Test730_2d_WhetherANontokenDiesTriggerNotHowOften: 730.2d's check asks
// whether a merged creature that dies is a nontoken creature dying, which
// its topmost component decides. An engine that triggers "whenever a
// nontoken creature dies" once per card of it breaks 730.3 (one creature
// died), not 730.2d; one that triggers it for a merged creature topped by
// a token breaks 730.2d.
func Test730_2d_WhetherANontokenDiesTriggerNotHowOften(t *testing.T) {
	perCard := asMutant(t, mergedDies(false), "dies-per-card-both")
	assert.Contains(t, perCard, "730.3")
	assert.NotContains(t, perCard, "730.2d")

	assert.Contains(t, asMutant(t, mergedDies(true), "nontoken-dies-if-any-card"), "730.2d")
}

// mergedReplaced is a merged permanent of a card on top of a token
// component, owned by A, put into A's graveyard while one replacement
// effect applies: Leyline of the Void's (controlled by B), which speaks
// only of cards, or Rest in Peace's, which speaks of tokens too.
func mergedReplaced(replacement string) *model.Scenario {
	bd := build.New("merged-replaced", "")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Token("t1", build.A, "Saproling Token")
	bd.Card("c9", build.B, replacement)
	bd.Perm("p1", build.A, build.Up("c1"), build.Up("t1"))
	bd.Perm("p9", build.B, build.Up("c9"))
	return bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}).Scenario()
}

// Test730_3e_ACardOnlyReplacementWithTokensIsNot730_3ds: where an effect
// on "a card" meets a merged permanent with token components, 730.3e says
// what moves; an engine that leaves the tokens behind breaks 730.3e, and
// 730.3d (one replacement applied to all) does not blame it twice. With
// an effect on cards and tokens alike, 730.3d is the rule: an engine that
// moves only the topmost component breaks it, and 730.3e has nothing to
// say.
func Test730_3e_ACardOnlyReplacementWithTokensIsNot730_3ds(t *testing.T) {
	skips := asMutant(t, mergedReplaced("Leyline of the Void"), "card-replacement-skips-tokens")
	assert.Contains(t, skips, "730.3e")
	assert.NotContains(t, skips, "730.3d")

	topOnly := asMutant(t, mergedReplaced("Rest in Peace"), "replacement-top-only")
	assert.Contains(t, topOnly, "730.3d")
	assert.NotContains(t, topOnly, "730.3e")
}

// mutateCast is Gemrazer, of A's, cast mutating at a permanent of
// owner's, a card named target.
func mutateCast(target string, owner model.PlayerID) *model.Scenario {
	bd := build.New("mutate-cast", "")
	bd.Card("c1", owner, target)
	bd.Card("c2", build.A, "Gemrazer")
	bd.Put(build.A, model.Hand, "c2")
	bd.Perm("p1", owner, build.Up("c1"))
	return bd.Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
}

// Test702_140a_AMutatingSpellTargetsANonHumanCreatureOfItsOwner: an
// engine that lets a mutating spell target a Human, another owner's
// creature or a noncreature without answering not_allowed fails 702.140a; one that
// answers not_allowed to a legal target fails it too; the reference holds.
func Test702_140a_AMutatingSpellTargetsANonHumanCreatureOfItsOwner(t *testing.T) {
	for _, tt := range []struct {
		s      *model.Scenario
		mutant string
	}{
		{mutateCast("Elite Vanguard", build.A), "mutate-targets-human"},
		{mutateCast("Grizzly Bears", build.B), "mutate-targets-other-owner"},
		{mutateCast("Chimeric Staff", build.A), "mutate-targets-noncreature"},
	} {
		assert.NotContains(t, asMutant(t, tt.s, ""), "702.140a", "the reference")
		assert.Contains(t, asMutant(t, tt.s, tt.mutant), "702.140a", tt.mutant)
	}
	legal := mutateCast("Grizzly Bears", build.A)
	rules, got := play(t, legal)
	got.Steps[0].Events = []model.Event{{Kind: model.NotAllowed, Rule: "702.140a", Object: "c2"}}
	got.Steps[0].State = rules.Start
	assert.Contains(t, failures(&properties.Case{Scenario: legal, Trace: got, Reference: rules}), "702.140a", "refusing a legal target")
}

// Test702_140a_EachReasonIsLabelledOnlyWhereItAloneForbidsTheCast: a
// cast at a Human, at another owner's creature or at a noncreature is
// labelled with that reason only where no other reason forbids it too,
// so that the explore's case of a label shows the engine that breaks
// that reason: an engine that accepts any noncreature target still
// refuses one of another owner.
func Test702_140a_EachReasonIsLabelledOnlyWhereItAloneForbidsTheCast(t *testing.T) {
	for _, tt := range []struct {
		target string
		owner  model.PlayerID
		label  string
		mutant string // the mutant its case shows, if one does
	}{
		{"Elite Vanguard", build.A, "human", "mutate-targets-human"},
		{"Grizzly Bears", build.B, "other-owner", "mutate-targets-other-owner"},
		{"Elite Vanguard", build.B, "human-of-other-owner", ""},
		{"Chimeric Staff", build.A, "noncreature", "mutate-targets-noncreature"},
		{"Chimeric Staff", build.B, "noncreature-of-other-owner", ""},
	} {
		s := mutateCast(tt.target, tt.owner)
		rules, _ := play(t, s)
		assert.Equal(t, []string{tt.label}, properties.P702_140a.Classify(s, rules), "%s of %s", tt.target, tt.owner)
		for _, m := range []string{"mutate-targets-human", "mutate-targets-other-owner", "mutate-targets-noncreature"} {
			if m == tt.mutant {
				assert.Contains(t, asMutant(t, s, m), "702.140a", "%s of %s under %s", tt.target, tt.owner, m)
			} else {
				assert.NotContains(t, asMutant(t, s, m), "702.140a", "%s of %s under %s", tt.target, tt.owner, m)
			}
		}
	}
}

// restrictedAttack is a creature of A's attacking: Wall of Omens alone
// (wall), Dreamtail Heron mutated over it (merged), or Grizzly Bears
// enchanted by Pacifism (pacified); tapped if asked.
func restrictedAttack(what string, tapped bool) *model.Scenario {
	bd := build.New("restricted-attack", "")
	switch what {
	case "wall":
		bd.Card("c1", build.A, "Wall of Omens")
		bd.Perm("p1", build.A, build.Up("c1"))
	case "merged":
		bd.Card("c1", build.A, "Dreamtail Heron")
		bd.Card("c2", build.A, "Wall of Omens")
		bd.Perm("p1", build.A, build.Up("c1"), build.Up("c2"))
	case "pacified":
		bd.Card("c1", build.A, "Grizzly Bears")
		bd.Card("f1", build.B, "Pacifism")
		bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.B, build.Up("f1")).
			Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
	}
	bd.Mod("p1", func(p *model.Permanent) { p.Status.Tapped = tapped })
	return bd.Do(model.Action{Type: model.Attack, Object: "p1"}).Scenario()
}

// Test702_3b_508_1c_ARestrictionJudgedWhereItAloneDecides: an engine that
// ignores defender (on the creature's own card, or on a lower component
// of a mutated creature) or an Aura's "can't attack" fails that rule and
// not 508.1a; where the attacker is tapped, 508.1a forbids the attack
// anyway, and the restriction's rule does not judge it.
func Test702_3b_508_1c_ARestrictionJudgedWhereItAloneDecides(t *testing.T) {
	for _, tt := range []struct {
		what, mutant string
		rule         string
	}{
		{"wall", "attack-ignores-defender", "702.3b"},
		{"merged", "attack-ignores-defender", "702.3b"},
		{"merged", "defender-top-only", "702.3b"},
		{"pacified", "attack-ignores-enchantment", "508.1c"},
	} {
		t.Run(tt.what+"/"+tt.mutant, func(t *testing.T) {
			s := restrictedAttack(tt.what, false)
			assert.Empty(t, asMutant(t, s, ""), "the reference")
			assert.Equal(t, []string{tt.rule}, rulesOnly(asMutant(t, s, tt.mutant)))

			// An engine that attacks with the tapped creature breaks
			// 508.1a, whatever it does with the restriction.
			tapped := restrictedAttack(tt.what, true)
			rules, got := play(t, tapped)
			got.Steps[0].Events = []model.Event{{Kind: model.Attacks, Rule: "508.1a", Object: "p1"}}
			assert.Equal(t, []string{"508.1a"}, rulesOnly(failures(&properties.Case{Scenario: tapped, Trace: got, Reference: rules})))
		})
	}
	t.Run("single_wall_defender_top_only_holds", func(t *testing.T) {
		// A lone Wall's defender is on its topmost component.
		assert.Empty(t, asMutant(t, restrictedAttack("wall", false), "defender-top-only"))
	})
}

// rulesOnly drops "departure" from a list of failures: the rules whose
// checks fail.
func rulesOnly(failed []string) []string {
	var out []string
	for _, f := range failed {
		if f != "departure" {
			out = append(out, f)
		}
	}
	return out
}

// Test710_1b_WhatAnEquipmentGrantsIsItsOwnFinding: Grizzly Bears merges
// under Lightning Greaves, which equips Nezumi Shortfang. An engine that
// gives the merged Greaves its bottom card's characteristics breaks 730.2a
// there; that Shortfang then lacks haste and shroud is what the Greaves
// does, not a finding of the rules that judge Shortfang's characteristics
// (710.1b for a flip card, 708.2a face down).
func Test710_1b_WhatAnEquipmentGrantsIsItsOwnFinding(t *testing.T) {
	for _, faceDown := range []bool{false, true} {
		bd := build.New("710.1b-granted", "")
		bd.Card("c1", build.A, "Nezumi Shortfang")
		bd.Card("c2", build.A, "Lightning Greaves")
		bd.Card("c3", build.A, "Grizzly Bears")
		host := build.Up("c1")
		if faceDown {
			host = build.Down("c1", model.ByMorph)
		}
		s := bd.Perm("p1", build.A, host).Perm("p2", build.A, build.Up("c2")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" }).
			Put(build.A, model.Graveyard, "c3").
			Do(model.Action{Type: model.Merge, Object: "c3", Target: "p2", Choices: model.Choices{Position: model.Bottom}}).Scenario()
		got := asMutant(t, s, "characteristics-from-bottom")
		assert.Contains(t, got, "730.2a", "face down: %t", faceDown)
		assert.NotContains(t, got, "710.1b", "face down: %t", faceDown)
		assert.NotContains(t, got, "708.2a", "face down: %t", faceDown)
	}
}
