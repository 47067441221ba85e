package reference_test

import (
	"errors"
	"fmt"
	"github.com/google/go-cmp/cmp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// Scenarios here decode and validate, but one of their actions can't be
// performed as written (ErrInvalid) or asks for something the rules leave
// undefined (ErrUnsupported). Run must stop at that action with an
// *ActionError carrying its index, and say what is wrong.

// decoded round-trips s through its file format, so every scenario here is
// one a user could write: it must decode and validate.
func decoded(t *testing.T, s *model.Scenario) *model.Scenario {
	t.Helper()
	data, err := model.Encode(s)
	require.NoError(t, err)
	out, err := model.DecodeScenario(data)
	require.NoError(t, err, "the scenario itself is well formed; only playing it fails")
	return out
}

// runFails plays s and checks that it stops at action index with an
// *ActionError of that action's type, returning the error.
func runFails(t *testing.T, s *model.Scenario, index int) error {
	t.Helper()
	s = decoded(t, s)
	tr, err := reference.Run(s)
	require.Error(t, err)
	require.NotErrorIs(t, err, reference.ErrInternal)
	var ae *reference.ActionError
	require.True(t, errors.As(err, &ae), "want an *ActionError, got %T: %v", err, err)
	assert.Equal(t, index, ae.Index, "the error names the action that failed: %v", err)
	if index >= 0 {
		assert.Equal(t, s.Actions[index].Type, ae.Type)
		require.NotNil(t, tr, "the trace holds the steps before the failing action")
		assert.Len(t, tr.Steps, index)
	}
	return err
}

// requireNotAllowed checks that the rules forbid action index of s: its
// step reports one not-allowed event citing rule and leaves the state as
// it was, and play goes on.
func requireNotAllowed(t *testing.T, s *model.Scenario, index int, rule model.RuleID) {
	t.Helper()
	s = decoded(t, s)
	tr, err := reference.Run(s)
	require.NoError(t, err, "an action the rules forbid is a step of the game, not an error of the scenario")
	require.Len(t, tr.Steps, len(s.Actions))
	step := tr.Steps[index]
	require.Len(t, step.Events, 1)
	assert.Equal(t, model.NotAllowed, step.Events[0].Kind)
	assert.Equal(t, rule, step.Events[0].Rule)
	before := tr.Start
	if index > 0 {
		before = tr.Steps[index-1].State
	}
	if diff := cmp.Diff(before, step.State); diff != "" {
		t.Errorf("an action that can't be taken changed the state (-before +after):\n%s", diff)
	}
}

// requireInvalid checks that s stops at action index with ErrInvalid and a
// message containing every string in want.
func requireInvalid(t *testing.T, s *model.Scenario, index int, want ...string) {
	t.Helper()
	err := runFails(t, s, index)
	assert.ErrorIs(t, err, reference.ErrInvalid)
	assert.NotErrorIs(t, err, reference.ErrUnsupported)
	for _, w := range want {
		assert.Contains(t, err.Error(), w)
	}
}

// requireUnsupported checks that s stops at action index with an
// *UnsupportedError naming feature.
func requireUnsupported(t *testing.T, s *model.Scenario, index int, feature string) {
	t.Helper()
	err := runFails(t, s, index)
	assert.ErrorIs(t, err, reference.ErrUnsupported)
	assert.NotErrorIs(t, err, reference.ErrInvalid)
	var ue *reference.UnsupportedError
	require.True(t, errors.As(err, &ue), "want an *UnsupportedError, got %v", err)
	assert.Equal(t, feature, ue.Feature)
	assert.NotEmpty(t, ue.Why, "an unsupported feature says why")
	assert.Contains(t, err.Error(), feature)
}

// bears is a scenario with Grizzly Bears c1 as permanent p1 under A.
func bears(name string) *build.Builder {
	bd := build.New(name, "An action that can't be performed as written.")
	bd.Card("c1", a, "Grizzly Bears")
	return bd.Perm("p1", a, up("c1"))
}

// mutated is a scenario with Gemrazer c1 on top of Grizzly Bears c2 as the
// mutated permanent p1 under A.
func mutated(name string) *build.Builder {
	bd := build.New(name, "An action on a merged permanent that can't be performed as written.")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", a, "Grizzly Bears")
	return bd.Perm("p1", a, up("c1"), up("c2"))
}

func TestAction_PermanentNotOnBattlefield(t *testing.T) {
	for _, typ := range []model.ActionType{model.Tap, model.Move, model.Transform, model.Pump} {
		t.Run(string(typ), func(t *testing.T) {
			s := bears("permanent-not-on-battlefield").
				Do(model.Action{Type: model.Untap, Object: "p1"}).
				Do(model.Action{Type: typ, Object: "p9", To: model.Graveyard}).Scenario()
			if typ != model.Move {
				s.Actions[1].To = ""
			}
			requireInvalid(t, s, 1, "p9 is not on the battlefield")
		})
	}
}

func TestAction_PermanentLeftEarlier(t *testing.T) {
	s := bears("permanent-left-earlier").
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard}).
		Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
	requireInvalid(t, s, 1, "p1 is not on the battlefield")
}

// Test702_26g_AnAttachmentPhasedOutDirectlyIsRefused: an Aura phased
// out on its own phases in at its controller's untap step, not with its
// host (CR 502.1, 702.26g); the reference does not record how a permanent
// phased out, so it refuses both the action and a start state showing it.
func Test702_26g_AnAttachmentPhasedOutDirectlyIsRefused(t *testing.T) {
	aura := func() *build.Builder {
		bd := bears("702.26g-phased-out-directly")
		bd.Card("c2", a, "False Demise")
		return bd.Perm("p2", a, up("c2")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
	}
	requireUnsupported(t, aura().Do(model.Action{Type: model.PhaseOut, Object: "p2"}).Scenario(), 0, "phase-out-attached-directly")
	requirePlayed(t, aura().Do(model.Action{Type: model.PhaseOut, Object: "p1"}).Do(model.Action{Type: model.NextTurn}).Scenario())
	s := aura().Mod("p2", func(p *model.Permanent) { p.Status.PhasedOut = true }).Do(model.Action{Type: model.NextTurn}).Scenario()
	requireUnsupported(t, s, 0, "phase-out-attached-directly")
}

func Test702_26b_PhasedOutCantBeAffected(t *testing.T) {
	for _, act := range []model.Action{
		{Type: model.Tap, Object: "p1"},
		{Type: model.Move, Object: "p1", To: model.Exile},
		{Type: model.AddCounters, Object: "p1", Counter: "+1/+1", N: 1},
		{Type: model.TurnFaceDown, Object: "p1"},
	} {
		t.Run(string(act.Type), func(t *testing.T) {
			s := bears("702.26b-phased-out-cant-be-affected").
				Mod("p1", func(p *model.Permanent) { p.Status.PhasedOut = true }).
				Do(act).Scenario()
			requireInvalid(t, s, 0, "p1 is phased out", "CR 702.26b")
		})
	}
}

func Test702_26b_PhasedOutCantBeMutatedOnto(t *testing.T) {
	bd := bears("702.26b-phased-out-cant-be-targeted").
		Mod("p1", func(p *model.Permanent) { p.Status.PhasedOut = true })
	bd.Card("c2", a, "Gemrazer")
	s := bd.Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	requireNotAllowed(t, s, 0, "702.26b")
}

func Test730_3a_OrderRequiredForTwoCards(t *testing.T) {
	for _, to := range []model.Zone{model.Graveyard, model.LibraryTop, model.LibraryBottom, model.Exile} {
		t.Run(string(to), func(t *testing.T) {
			s := mutated("730.3a-order-required").
				Do(model.Action{Type: model.Move, Object: "p1", To: to}).Scenario()
			requireInvalid(t, s, 0, "choices.order is required", "c1", "c2")
		})
	}
}

func Test730_3a_OrderMustListTheMovingCards(t *testing.T) {
	bd := mutated("730.3a-order-must-fit")
	bd.Card("c3", a, "Runeclaw Bear")
	bd.Put(a, model.Graveyard, "c3")
	for name, ord := range map[string][]model.ObjectID{
		"card_not_moving": {"c1", "c3"},
		"unknown_card":    {"c2", "c9"},
		"one_card_short":  {"c1"},
		"card_twice":      {"c1", "c1"},
		"permanent_id":    {"p1", "c2"},
	} {
		t.Run(name, func(t *testing.T) {
			s := *bd.Scenario()
			s.Actions = []model.Action{{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order(ord...)}}
			requireInvalid(t, &s, 0, "choices.order", string(ord[0]), "does not fit", "[c1 c2]")
		})
	}
}

func Test730_3a_NoOrderForOneCard(t *testing.T) {
	s := bears("730.3a-no-order-for-one-card").
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c1", "c9")}).Scenario()
	requireInvalid(t, s, 0, "choices.order", "does not fit")
}

func Test702_140c_PositionRequired(t *testing.T) {
	bd := bears("702.140c-position-required")
	bd.Card("c2", a, "Gemrazer")
	s := bd.Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).
		Do(model.Action{Type: model.Resolve}).Scenario()
	requireInvalid(t, s, 1, "choices.position is required", "CR 702.140c")
}

func Test730_2_MergePositionRequired(t *testing.T) {
	bd := bears("730.2-merge-position-required")
	bd.Card("c2", a, "Runeclaw Bear")
	s := bd.Put(a, model.Graveyard, "c2").
		Do(model.Action{Type: model.Merge, Object: "c2", Target: "p1"}).Scenario()
	requireInvalid(t, s, 0, "choices.position is required", "730.2")
}

func Test616_1_ReplacementMustApply(t *testing.T) {
	t.Run("its_effect_does_not_apply", func(t *testing.T) {
		// A's own Leyline of the Void exiles only A's opponents' cards.
		bd := mutated("616.1-replacement-must-apply")
		bd.Card("y1", a, "Leyline of the Void")
		s := bd.Perm("p2", a, up("y1")).
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Replacement: "p2", Order: []model.ObjectID{"c1", "c2"}}}).Scenario()
		requireInvalid(t, s, 0, "choices.replacement p2 does not fit")
	})
	t.Run("not_one_of_those_that_apply", func(t *testing.T) {
		// Two replacement effects apply (B's Leyline, B's Wheel on A); the
		// choice names a third permanent.
		bd := mutated("616.1-replacement-not-among-those-that-apply")
		bd.Card("y1", b, "Leyline of the Void")
		bd.Card("w1", b, "Wheel of Sun and Moon")
		bd.Card("g1", b, "Grizzly Bears")
		s := bd.Perm("p2", b, up("y1")).Perm("p3", b, up("w1")).Perm("p4", b, up("g1")).
			Mod("p3", func(p *model.Permanent) { p.EnchantedPlayer = a }).
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Replacement: "p4", Order: []model.ObjectID{"c1", "c2"}}}).Scenario()
		requireInvalid(t, s, 0, "choices.replacement p4 does not fit", "p2", "p3")
	})
	t.Run("required_when_several_apply", func(t *testing.T) {
		bd := mutated("616.1-replacement-required")
		bd.Card("y1", b, "Leyline of the Void")
		bd.Card("w1", b, "Wheel of Sun and Moon")
		s := bd.Perm("p2", b, up("y1")).Perm("p3", b, up("w1")).
			Mod("p3", func(p *model.Permanent) { p.EnchantedPlayer = a }).
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c1", "c2")}).Scenario()
		requireInvalid(t, s, 0, "choices.replacement is required", "p2", "p3", "CR 616.1")
	})
	t.Run("no_replacement_on_exile", func(t *testing.T) {
		// Replacement effects of "would go to a graveyard" don't apply to
		// an exile.
		bd := mutated("616.1-replacement-on-exile")
		bd.Card("y1", b, "Leyline of the Void")
		s := bd.Perm("p2", b, up("y1")).
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: model.Choices{Replacement: "p2", Order: []model.ObjectID{"c1", "c2"}}}).Scenario()
		requireInvalid(t, s, 0, "choices.replacement p2 does not fit")
	})
}

func Test702_140a_CantMutateOntoAHuman(t *testing.T) {
	bd := build.New("702.140a-cant-mutate-onto-a-human", "Gemrazer can't target Elite Vanguard, a Human.")
	bd.Card("c1", a, "Elite Vanguard")
	bd.Card("c2", a, "Gemrazer")
	s := bd.Perm("p1", a, up("c1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	requireNotAllowed(t, s, 0, "702.140a")
}

func Test702_140a_CantMutateOntoAnotherOwnersCreature(t *testing.T) {
	bd := bears("702.140a-same-owner")
	bd.Card("c2", b, "Gemrazer")
	s := bd.Put(b, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	requireNotAllowed(t, s, 0, "702.140a")
}

func Test702_140a_CantMutateOntoANoncreature(t *testing.T) {
	bd := build.New("702.140a-noncreature", "Gemrazer can't target Mimic Vat, an artifact.")
	bd.Card("v1", a, "Mimic Vat")
	bd.Card("c2", a, "Gemrazer")
	s := bd.Perm("p1", a, up("v1")).Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	requireNotAllowed(t, s, 0, "702.140a")
}

func Test702_140a_OnlyAMutateCardCastsForMutate(t *testing.T) {
	bd := bears("702.140a-no-mutate")
	bd.Card("c2", a, "Runeclaw Bear")
	s := bd.Put(a, model.Hand, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	requireInvalid(t, s, 0, "c2", "Runeclaw Bear", "no mutate ability")
}

func Test903_9_CommandZoneChoiceRequired(t *testing.T) {
	for _, to := range []model.Zone{model.Hand, model.LibraryTop, model.Graveyard, model.Exile} {
		t.Run(string(to), func(t *testing.T) {
			bd := build.New("903.9-command-zone-choice-required", "A merged permanent with a commander in it moves.")
			bd.Card("c1", a, "Gemrazer")
			bd.Commander("k1", a, "Nethroi, Apex of Death")
			act := model.Action{Type: model.Move, Object: "p1", To: to}
			if to != model.Hand {
				act.Choices = order("c1", "k1")
			}
			s := bd.Perm("p1", a, up("c1"), up("k1")).Do(act).Scenario()
			requireInvalid(t, s, 0, "choices.command_zone is required", "k1", "CR 903.9")
		})
	}
}

func Test903_9_CommandZoneChoiceOnlyForACommander(t *testing.T) {
	s := bears("903.9-no-commander").
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Hand, Choices: model.Choices{CommandZone: model.Bool(true)}}).Scenario()
	requireInvalid(t, s, 0, "choices.command_zone does not fit")
}

func TestAction_ChoicesScriptedWhereNoneIsLeft(t *testing.T) {
	s := bears("no-choice-left").
		Do(model.Action{Type: model.Tap, Object: "p1", Choices: model.Choices{Position: model.Top}}).Scenario()
	requireInvalid(t, s, 0, "the scenario scripts choices")
}

func TestAction_ResolveWithEmptyStack(t *testing.T) {
	s := bears("resolve-empty-stack").Do(model.Action{Type: model.Resolve}).Scenario()
	requireInvalid(t, s, 0, "the stack is empty")
}

func TestAction_CastFromOutsideTheHand(t *testing.T) {
	bd := bears("cast-from-graveyard")
	bd.Card("c2", a, "Gemrazer")
	s := bd.Put(a, model.Graveyard, "c2").
		Do(model.Action{Type: model.CastMutate, Object: "c2", Target: "p1"}).Scenario()
	requireInvalid(t, s, 0, "c2 is not in its owner's hand")
}

func TestAction_ReturnBeforeLeaving(t *testing.T) {
	s := bears("return-before-leaving").Do(model.Action{Type: model.Return, Object: "p1"}).Scenario()
	requireInvalid(t, s, 0, "p1 has not left the battlefield")
}

// Refusals: what the rules leave undefined is refused with the feature
// named, never guessed.

func TestUnsupported_MutateOntoMeldedChitteringHost(t *testing.T) {
	bd := chitteringHost(build.New("unsupported-merge-with-melded", "Gemrazer mutates onto Chittering Host."))
	bd.Card("c3", a, "Gemrazer")
	s := bd.Put(a, model.Hand, "c3").
		Do(model.Action{Type: model.CastMutate, Object: "c3", Target: "p1"}).
		Do(model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).Scenario()
	requireUnsupported(t, s, 1, "merge-with-melded-permanent")
}

// Test707_2_AMutatedCopyAnswersOnlyWhatIsSettled: a mutated permanent
// that becomes a copy has the copy's settled values and unsettled
// abilities (CR 613.2a, 707.2, 702.140e); a scenario claiming its
// abilities is refused, naming the expectation.
func Test707_2_AMutatedCopyAnswersOnlyWhatIsSettled(t *testing.T) {
	copied := func() *build.Builder {
		bd := mutated("copy-while-merged")
		bd.Card("c3", a, "Runeclaw Bear")
		return bd.Put(a, model.Graveyard, "c3").Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "c3"})
	}
	tr, err := reference.Run(decoded(t, copied().Scenario()))
	require.NoError(t, err)
	d := tr.Steps[0].State.Permanent("p1").Derived
	assert.Equal(t, "Runeclaw Bear", d.Characteristics.Name)
	assert.Equal(t, []string{model.UnsettledAbilities}, d.Unsettled)

	for _, claim := range []model.PermanentClaim{
		{Abilities: []model.AbilityID{"trample"}},
		{AbilitiesExactly: &[]model.AbilityID{}},
		{Lacks: []model.AbilityID{"trample"}},
	} {
		s := copied().Expect(model.Expectation{Permanents: map[model.ObjectID]model.PermanentClaim{"p1": claim}}).Scenario()
		requireUnsupported(t, s, 0, "copy-effect-on-merged-permanent")
		_, err := reference.Run(s)
		assert.ErrorContains(t, err, "expectation 0 claims the abilities of p1")
	}
}

func TestUnsupported_BecomeCopyWhileMelded(t *testing.T) {
	bd := chitteringHost(build.New("unsupported-copy-while-melded", "Chittering Host becomes a copy of a card."))
	bd.Card("c3", a, "Runeclaw Bear")
	s := bd.Put(a, model.Graveyard, "c3").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "c3"}).Scenario()
	requireUnsupported(t, s, 0, "copy-effect-on-merged-permanent")
}

func TestUnsupported_MergedPermanentWithSeveralOwners(t *testing.T) {
	bd := build.New("unsupported-several-owners", "A merged permanent whose cards have different owners.")
	bd.Card("c1", a, "Gemrazer")
	bd.Card("c2", b, "Grizzly Bears")
	s := bd.Perm("p1", a, up("c1"), up("c2")).
		Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
	requireUnsupported(t, s, -1, "merged-permanent-with-several-owners")
}

func TestUnsupported_BareMergeWithMutatedPermanent(t *testing.T) {
	bd := mutated("unsupported-bare-merge-with-mutated")
	bd.Card("c3", a, "Runeclaw Bear")
	s := bd.Put(a, model.Graveyard, "c3").
		Do(model.Action{Type: model.Merge, Object: "c3", Target: "p1", Choices: model.Choices{Position: model.Bottom}}).Scenario()
	requireUnsupported(t, s, 0, "bare-merge-with-mutated-permanent")
}

func TestUnsupported_TokenCopyOfMeldedPermanent(t *testing.T) {
	s := chitteringHost(build.New("unsupported-token-copy-of-melded", "A token copy of Chittering Host.")).
		Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a}).Scenario()
	requireUnsupported(t, s, 0, "token-copy-of-melded-permanent")
}

func TestUnsupported_MeldAMergedPermanent(t *testing.T) {
	bd := build.New("unsupported-meld-merged", "Graf Rats melds with a mutated Midnight Scavengers.")
	bd.Card("c1", a, "Midnight Scavengers")
	bd.Card("c2", a, "Gemrazer")
	bd.Card("c3", a, "Graf Rats")
	s := bd.Perm("p1", a, up("c1"), up("c2")).Perm("p2", a, up("c3")).
		Do(model.Action{Type: model.Meld, Object: "p2", With: "p1"}).Scenario()
	requireUnsupported(t, s, 0, "meld-merged-permanent")
}

func Test508_1a_OnlyAnUntappedCreatureOfTheActivePlayerAttacks(t *testing.T) {
	tests := []struct {
		name string
		mod  func(p *model.Permanent)
		rule model.RuleID
	}{
		{"tapped", func(p *model.Permanent) { p.Status.Tapped = true }, "508.1a"},
		{"another player's", func(p *model.Permanent) { p.Controller = b }, "508.1a"},
		{"there since this turn only", func(p *model.Permanent) { p.ControlledSinceTurnStart = false }, "302.6"},
		{"phased out", func(p *model.Permanent) { p.Status.PhasedOut = true }, "702.26b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := bears("508.1a-"+tc.name).Mod("p1", tc.mod).Do(model.Action{Type: model.Attack, Object: "p1"}).Scenario()
			requireNotAllowed(t, s, 0, tc.rule)
		})
	}
}

func Test702_10b_HasteLetsANewCreatureAttack(t *testing.T) {
	s := bears("702.10b-haste").Mod("p1", func(p *model.Permanent) {
		p.ControlledSinceTurnStart = false
		p.Counters = map[string]int{"haste": 1}
	}).Do(model.Action{Type: model.Attack, Object: "p1"}).Scenario()
	tr, err := reference.Run(decoded(t, s))
	require.NoError(t, err)
	require.Len(t, tr.Steps[0].Events, 2)
	assert.Equal(t, model.Attacks, tr.Steps[0].Events[0].Kind)
	assert.Equal(t, model.StatusChange, tr.Steps[0].Events[1].Kind, "CR 508.1f: the attacker becomes tapped")
}

func Test701_42c_MeldWithAnUnknownPermanentIsAnError(t *testing.T) {
	bd := build.New("701.42c-unknown", "A meld names a permanent that never was.")
	bd.Card("c1", a, "Midnight Scavengers")
	s := bd.Perm("p1", a, up("c1")).Do(model.Action{Type: model.Meld, Object: "p1", With: "p9"}).Scenario()
	requireInvalid(t, s, 0, "p9")
}

func TestUnsupported_CreatureWithToughnessZero(t *testing.T) {
	bd := build.New("704.5f-clone-as-itself", "Clone is cast and enters as itself, a 0/0.")
	bd.Card("k1", a, "Clone")
	s := bd.Put(a, model.Hand, "k1").Do(model.Action{Type: model.Cast, Object: "k1"}, model.Action{Type: model.Resolve}).Scenario()
	requireUnsupported(t, s, 1, "creature-with-toughness-0")
}

func TestUnsupported_DestroyAllWithSeveralPermanentsOfOneOwner(t *testing.T) {
	bd := bears("701.8a-two-of-one-owner")
	bd.Card("c2", a, "Runeclaw Bear")
	s := bd.Perm("p2", a, up("c2")).Do(model.Action{Type: model.DestroyAll}).Scenario()
	requireUnsupported(t, s, 0, "destroy-all-several-permanents-of-one-owner")
}

func TestUnsupported_CreateAnAuraToken(t *testing.T) {
	s := bears("111.2-aura-token").Do(model.Action{Type: model.CreateToken, Token: "t1", Def: "False Demise", Player: a})
	s.Def("False Demise")
	requireUnsupported(t, s.Scenario(), 0, "create-aura-token")
}

// mimicVatWithTwoExiled is Grizzly Bears p1 under A that has died, and A's
// Mimic Vat p2 with two of B's cards, g1 and g2, exiled with it before:
// a yes to its imprint returns both to B's graveyard at once.
func mimicVatWithTwoExiled(name string) *build.Builder {
	bd := bears(name)
	bd.Card("v1", a, "Mimic Vat")
	bd.Card("g1", b, "Grizzly Bears")
	bd.Card("g2", b, "Runeclaw Bear")
	return bd.Perm("p2", a, up("v1")).Put(b, model.Exile, "g1", "g2").Link("p2", "g1", "g2").
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard})
}

func Test404_3_MimicVatReturnsTwoCardsInAnOrderTheirOwnerScripts(t *testing.T) {
	t.Run("unscripted", func(t *testing.T) {
		s := mimicVatWithTwoExiled("404.3-mimic-vat-order-required").
			Do(model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true)}}).Scenario()
		requireInvalid(t, s, 1, "choices.order is required", "g1", "g2", "CR 404.3")
	})
	t.Run("not_the_returning_cards", func(t *testing.T) {
		s := mimicVatWithTwoExiled("404.3-mimic-vat-order-must-fit").
			Do(model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true), Order: []model.ObjectID{"c1"}}}).Scenario()
		requireInvalid(t, s, 1, "choices.order [c1] does not fit", "[g1 g2]")
	})
	t.Run("scripted", func(t *testing.T) {
		s := mimicVatWithTwoExiled("404.3-mimic-vat-order-scripted").
			Do(model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true), Order: []model.ObjectID{"g2", "g1"}}}).Scenario()
		tr, err := reference.Run(decoded(t, s))
		require.NoError(t, err)
		st := tr.Steps[1].State
		assert.Equal(t, []model.ObjectID{"g2", "g1"}, st.Player(b).Zones.Graveyard, "g2 on top, as scripted")
		assert.Equal(t, []model.ObjectID{"c1"}, st.Player(a).Zones.Exile)
	})
	t.Run("probed", func(t *testing.T) {
		s := decoded(t, mimicVatWithTwoExiled("404.3-mimic-vat-order-probed").Scenario())
		n, err := reference.Probe(s, model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true)}})
		require.NoError(t, err)
		assert.ElementsMatch(t, []model.ObjectID{"g1", "g2"}, n.Order, "a generator is told to script the order")
	})
}

func TestUnsupported_MimicVatOrdersTwoGroups(t *testing.T) {
	t.Run("cards_exiled_and_cards_returned", func(t *testing.T) {
		bd := mutated("unsupported-mimic-vat-two-groups")
		bd.Card("v1", a, "Mimic Vat")
		bd.Card("g1", b, "Grizzly Bears")
		bd.Card("g2", b, "Runeclaw Bear")
		s := bd.Perm("p2", a, up("v1")).Put(b, model.Exile, "g1", "g2").Link("p2", "g1", "g2").
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: order("c1", "c2")}).
			Do(model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true), Order: []model.ObjectID{"c1", "c2"}}}).Scenario()
		requireUnsupported(t, s, 1, "several-ordered-groups")
	})
	t.Run("two_owners_return_two_cards_each", func(t *testing.T) {
		bd := mimicVatWithTwoExiled("unsupported-mimic-vat-two-owners")
		bd.Card("h1", a, "Grizzly Bears")
		bd.Card("h2", a, "Runeclaw Bear")
		s := bd.Put(a, model.Exile, "h1", "h2").
			Do(model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true), Order: []model.ObjectID{"g1", "g2"}}}).Scenario()
		s.Start.Links[0].Cards = append(s.Start.Links[0].Cards, "h1", "h2")
		requireUnsupported(t, s, 1, "several-ordered-groups")
	})
}

// TestUnsupported_StateBasedActionOrder: Auras left attached to nothing
// go to their owners' graveyards at once (CR 704.3, 704.5m), and an owner
// with two or more cards among them arranges them (CR 404.3); no action
// scripts that choice, so it is refused. One Aura per owner plays.
func TestUnsupported_StateBasedActionOrder(t *testing.T) {
	aurasOn := func(name string, owners ...model.PlayerID) *build.Builder {
		bd := bears(name)
		for i, o := range owners {
			f := model.ObjectID(fmt.Sprintf("f%d", i+1))
			id := model.ObjectID(fmt.Sprintf("q%d", i+1))
			bd.Card(f, o, "False Demise")
			bd.Perm(id, o, up(f)).Mod(id, func(p *model.Permanent) { p.AttachedTo = "p1" })
		}
		return bd.Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile})
	}
	t.Run("two_auras_of_one_owner", func(t *testing.T) {
		requireUnsupported(t, aurasOn("704.3-two-auras-of-one-owner", b, b).Scenario(), 0, "state-based-action-order")
	})
	t.Run("a_merged_aura", func(t *testing.T) {
		bd := aurasOn("704.3-a-merged-aura", b)
		bd.Card("g1", b, "Grizzly Bears")
		s := bd.Mod("q1", func(p *model.Permanent) { p.Components = append(p.Components, up("g1")) }).Scenario()
		requireUnsupported(t, s, 0, "state-based-action-order")
	})
	t.Run("one_aura_per_owner", func(t *testing.T) {
		tr, err := reference.Run(decoded(t, aurasOn("704.3-one-aura-per-owner", a, b).Scenario()))
		require.NoError(t, err)
		st := tr.Steps[0].State
		assert.Equal(t, []model.ObjectID{"f1"}, st.Player(a).Zones.Graveyard)
		assert.Equal(t, []model.ObjectID{"f2"}, st.Player(b).Zones.Graveyard)
	})
}

// mimicVatWithOneExiled is Grizzly Bears p1 under A, and A's Mimic Vat p2
// with B's Grizzly Bears g1 exiled with it before.
func mimicVatWithOneExiled(name string) *build.Builder {
	bd := bears(name)
	bd.Card("v1", a, "Mimic Vat")
	bd.Card("g1", b, "Grizzly Bears")
	return bd.Perm("p2", a, up("v1")).Put(b, model.Exile, "g1").Link("p2", "g1")
}

func TestUnsupported_ReplacementOnMimicVatReturn(t *testing.T) {
	// A's Leyline of the Void would exile B's card instead of returning it
	// to B's graveyard; the model replaces only permanents leaving.
	bd := mimicVatWithOneExiled("unsupported-replacement-on-linked-return")
	bd.Card("y1", a, "Leyline of the Void")
	s := bd.Perm("p4", a, up("y1")).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard},
			model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true)}}).Scenario()
	requireUnsupported(t, s, 1, "replacement-on-linked-return")
}

// TestUnsupported_CommanderMovedByEffect: a commander card an action puts
// into exile or a graveyard from another zone may go to the command zone
// (CR 903.9a), a choice only a permanent's move scripts.
func TestUnsupported_CommanderMovedByEffect(t *testing.T) {
	commanderDied := func(name string) *build.Builder {
		bd := build.New(name, "A commander died and its owner kept it in the graveyard.")
		bd.Commander("k1", a, "Nethroi, Apex of Death")
		return bd.Perm("p1", a, up("k1")).
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{CommandZone: model.Bool(false)}})
	}
	t.Run("exiled_by_mimic_vat", func(t *testing.T) {
		bd := commanderDied("unsupported-commander-exiled-by-mimic-vat")
		bd.Card("v1", a, "Mimic Vat")
		s := bd.Perm("p2", a, up("v1")).
			Do(model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true)}}).Scenario()
		requireUnsupported(t, s, 1, "commander-moved-by-effect")
	})
	t.Run("exiled_by_dimir_doppelganger", func(t *testing.T) {
		bd := commanderDied("unsupported-commander-exiled-by-doppelganger")
		bd.Card("d1", a, "Dimir Doppelganger")
		s := bd.Perm("p2", a, up("d1")).
			Do(model.Action{Type: model.BecomeCopy, Object: "p2", Card: "k1"}).Scenario()
		requireUnsupported(t, s, 1, "commander-moved-by-effect")
	})
	t.Run("returned_by_mimic_vat", func(t *testing.T) {
		bd := mimicVatWithOneExiled("unsupported-commander-returned-by-mimic-vat")
		bd.Commander("k1", b, "Nethroi, Apex of Death")
		s := bd.Put(b, model.Exile, "k1").
			Do(model.Action{Type: model.Move, Object: "p1", To: model.Graveyard},
				model.Action{Type: model.ExileFound, Object: "p1", Source: "p2", Choices: model.Choices{May: model.Bool(true), Order: []model.ObjectID{"k1", "g1"}}}).Scenario()
		s.Start.Links[0].Cards = append(s.Start.Links[0].Cards, "k1")
		requireUnsupported(t, s, 1, "commander-moved-by-effect")
	})
}

// Test702_140d_AnotherPermanentsDeclaredMutateTriggerIsRefused: an
// ability declared triggered on the mutates observer, on a permanent
// other than the one that mutates, would trigger if it speaks of any
// creature its controller controls and not if it speaks of its own: the
// declaration does not say which, so the reference refuses by name.
func Test702_140d_AnotherPermanentsDeclaredMutateTriggerIsRefused(t *testing.T) {
	bd := bears("702.140d-essence-symbiote-beside-a-mutating-creature")
	bd.Card("c2", a, "Essence Symbiote")
	bd.Card("c3", a, "Gemrazer")
	s := bd.Perm("p2", a, up("c2")).Put(a, model.Hand, "c3").
		Do(model.Action{Type: model.CastMutate, Object: "c3", Target: "p1"}, model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Top}}).Scenario()
	requireUnsupported(t, s, 1, "mutates-trigger-of-another-permanent")
}
