package reference_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// A copy effect and a merge on one permanent: layer 1a applies them in
// timestamp order (CR 613.2a), and the mutate notes say a copy that
// mutates takes the mutation after the copy. What a component's card
// gives under a copy effect the texts leave open: a card merged
// underneath is refused, and a mutated permanent's abilities are
// unsettled.

// copiedBears is Grizzly Bears p1 under A that becomes a copy of Runeclaw
// Bear c3, with Gemrazer c2 in A's hand.
func copiedBears(name string) *build.Builder {
	bd := bears(name)
	bd.Card("c2", a, "Gemrazer")
	bd.Card("c3", a, "Runeclaw Bear")
	return bd.Put(a, model.Hand, "c2").Put(a, model.Graveyard, "c3").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "c3", Gains: []model.AbilityID{model.CopyExceptThis}})
}

// cloneOf is the card named original as permanent p1 under A, and Clone
// k1 entered as a copy of it (permanent k1@0), with the mutating card
// named mutator as c2 in A's hand.
func cloneOf(name, original, mutator string) *build.Builder {
	bd := build.New(name, "Clone enters as a copy of "+original+", and "+mutator+" is in hand.")
	bd.Card("o1", a, original)
	bd.Card("k1", a, "Clone")
	bd.Card("c2", a, mutator)
	return bd.Perm("p1", a, up("o1")).Put(a, model.Hand, "k1", "c2").
		Do(model.Action{Type: model.EnterAsCopy, Object: "k1", Target: "p1"})
}

// castOnto casts the mutating card c2 at target and resolves it at pos.
func castOnto(bd *build.Builder, target model.ObjectID, pos model.Position) *build.Builder {
	return bd.Do(model.Action{Type: model.CastMutate, Object: "c2", Target: target},
		model.Action{Type: model.Resolve, Choices: model.Choices{Position: pos}})
}

func Test613_2a_ACopyThatMutatesOnTopTakesTheMutatingCardsValues(t *testing.T) {
	tr, err := reference.Run(decoded(t, castOnto(copiedBears("613.2a-copy-then-mutate"), "p1", model.Top).Scenario()))
	require.NoError(t, err)
	before := tr.Steps[0].State.Permanent("p1").Derived
	assert.Equal(t, "Runeclaw Bear", before.Characteristics.Name, "the copy effect applies to the lone permanent")
	assert.Empty(t, before.Unsettled)

	d := tr.Steps[2].State.Permanent("p1").Derived
	ch := d.Characteristics
	assert.Equal(t, "Gemrazer", ch.Name, "the merge is later than the copy, so the topmost card's name")
	assert.Equal(t, 4, ch.ManaValue)
	assert.Equal(t, []model.Color{model.Green}, ch.Colors)
	assert.Equal(t, []string{"Beast"}, ch.Subtypes)
	assert.Equal(t, model.Int(4), ch.Power)
	assert.Equal(t, model.Int(4), ch.Toughness)
	assert.Equal(t, []string{model.UnsettledAbilities}, d.Unsettled,
		"whether the copied card's component gives its printed abilities or the copy's is open")
}

func Test613_2a_ACopyThatMutatesAndBecomesACopyAgainTakesTheLaterCopy(t *testing.T) {
	bd := castOnto(copiedBears("613.2a-copy-mutate-copy"), "p1", model.Top)
	bd.Card("c4", a, "Grizzly Bears")
	s := bd.Put(a, model.Graveyard, "c4").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "c4"}).Scenario()
	tr, err := reference.Run(decoded(t, s))
	require.NoError(t, err)
	d := tr.Steps[3].State.Permanent("p1").Derived
	assert.Equal(t, "Grizzly Bears", d.Characteristics.Name, "the second copy effect is later than the merge")
	assert.Equal(t, []string{model.UnsettledAbilities}, d.Unsettled)
}

func Test613_2a_AMutatingCardOnTopOfAClone(t *testing.T) {
	bd := cloneOf("613.2a-mutate-onto-clone", "Grizzly Bears", "Gemrazer")
	tr, err := reference.Run(decoded(t, castOnto(bd, "k1@0", model.Top).Scenario()))
	require.NoError(t, err)
	d := tr.Steps[2].State.Permanent("k1@0").Derived
	assert.Equal(t, "Gemrazer", d.Characteristics.Name)
	assert.Equal(t, []string{model.UnsettledAbilities}, d.Unsettled)
}

func TestUnsupported_MergeUnderAPermanentACopyEffectGivesItsValues(t *testing.T) {
	t.Run("become_copy", func(t *testing.T) {
		requireUnsupported(t, castOnto(copiedBears("613.2a-under-a-copy"), "p1", model.Bottom).Scenario(), 2, "copy-effect-on-merged-permanent")
	})
	t.Run("enter_as_copy", func(t *testing.T) {
		bd := cloneOf("613.2a-under-a-clone", "Grizzly Bears", "Gemrazer")
		requireUnsupported(t, castOnto(bd, "k1@0", model.Bottom).Scenario(), 2, "copy-effect-on-merged-permanent")
	})
	t.Run("a copy effect later than the merge", func(t *testing.T) {
		bd := mutated("613.2a-under-a-later-copy")
		bd.Card("c3", a, "Runeclaw Bear")
		bd.Card("c4", a, "Vulpikeet")
		s := bd.Put(a, model.Graveyard, "c3").Put(a, model.Hand, "c4").
			Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "c3"},
				model.Action{Type: model.CastMutate, Object: "c4", Target: "p1"},
				model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}}).Scenario()
		requireUnsupported(t, s, 2, "copy-effect-on-merged-permanent")
	})
}

func TestUnsupported_ACopyOfAPermanentWhoseAbilitiesAreUnsettled(t *testing.T) {
	s := castOnto(copiedBears("707.2-copy-of-unsettled"), "p1", model.Top).
		Do(model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: a}).Scenario()
	requireUnsupported(t, s, 3, "copy-of-unsettled-abilities")
}

func Test730_2a_AMergeUnderTheMutatedTopOfAnOlderCopyIsAnswered(t *testing.T) {
	// Once a card has mutated onto the copy, the topmost component is that
	// card, and another may go underneath it.
	bd := castOnto(copiedBears("730.2a-under-the-new-top"), "p1", model.Top)
	bd.Card("c4", a, "Vulpikeet")
	s := bd.Put(a, model.Hand, "c4").
		Do(model.Action{Type: model.CastMutate, Object: "c4", Target: "p1"},
			model.Action{Type: model.Resolve, Choices: model.Choices{Position: model.Bottom}}).Scenario()
	tr, err := reference.Run(decoded(t, s))
	require.NoError(t, err)
	d := tr.Steps[4].State.Permanent("p1").Derived
	assert.Equal(t, "Gemrazer", d.Characteristics.Name)
	assert.Len(t, tr.Steps[4].State.Permanent("p1").Components, 3)
}

func Test702_140d_AMutatingCardOnTopOfACopyTriggersItsOwnAbility(t *testing.T) {
	tr, err := reference.Run(decoded(t, castOnto(copiedBears("702.140d-gemrazer-onto-a-copy"), "p1", model.Top).Scenario()))
	require.NoError(t, err)
	var from []model.ObjectID
	for _, e := range tr.Steps[2].Events {
		if e.Kind == model.Trigger && e.Observer == model.Mutates {
			from = append(from, e.Source)
		}
	}
	assert.Equal(t, []model.ObjectID{"c2"}, from, "Gemrazer merged after the copy effect: its own ability is settled")
}

func TestUnsupported_AMutateTriggerACopyEffectLeavesOpen(t *testing.T) {
	// Clone enters as a copy of Gemrazer, which has a "whenever this
	// creature mutates" ability; Vulpikeet then mutates onto the Clone.
	s := castOnto(cloneOf("702.140d-mutate-onto-a-clone-of-gemrazer", "Gemrazer", "Vulpikeet"), "k1@0", model.Top).Scenario()
	requireUnsupported(t, s, 2, "mutate-trigger-of-unsettled-ability")
}

func TestUnsupported_AnAttackOnAnAbilityACopyLeavesOpen(t *testing.T) {
	// Clone enters as a copy of Wall of Omens, which has defender, and
	// Gemrazer mutates onto it: whether the Clone card gives the Wall's
	// defender or its own printed abilities is open, and so is the attack.
	s := castOnto(cloneOf("702.3b-mutated-clone-of-a-wall", "Wall of Omens", "Gemrazer"), "k1@0", model.Top).
		Do(model.Action{Type: model.NextTurn}, model.Action{Type: model.NextTurn}, model.Action{Type: model.Attack, Object: "k1@0"}).Scenario()
	requireRefused(t, s, 5, "unsettled-ability", "k1@0", "defender")
}

func Test702_3b_DefenderEveryReadingGivesIsAnswered(t *testing.T) {
	// A mutated permanent becomes a copy of Wall of Omens: the copy effect,
	// the later, gives defender whatever the components give.
	bd := mutated("702.3b-mutated-copy-of-a-wall")
	bd.Card("w1", a, "Wall of Omens")
	s := bd.Put(a, model.Graveyard, "w1").
		Do(model.Action{Type: model.BecomeCopy, Object: "p1", Card: "w1"}, model.Action{Type: model.Attack, Object: "p1"}).Scenario()
	tr := requirePlayed(t, s)
	require.NotEmpty(t, tr.Steps[1].Events)
	assert.Equal(t, model.NotAllowed, tr.Steps[1].Events[0].Kind)
	assert.Equal(t, model.RuleID("702.3b"), tr.Steps[1].Events[0].Rule)
}
