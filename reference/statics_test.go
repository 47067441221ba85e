package reference_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
)

// subdued is Grizzly Bears c1, permanent p1 under A, enchanted by
// Mystic Subdual (p2, B's).
func subdued(name string) *build.Builder {
	bd := bears(name)
	bd.Card("s1", b, "Mystic Subdual")
	return bd.Perm("p2", b, up("s1")).Mod("p2", func(p *model.Permanent) { p.AttachedTo = "p1" })
}

// Test613_7c_KeywordCounterUnderAbilityLossIsRefused: whether a keyword
// counter's keyword survives "loses all abilities" depends on the
// counter's timestamp (CR 613.7c), which the model does not keep: the
// reference refuses by name rather than guess.
func Test613_7c_KeywordCounterUnderAbilityLossIsRefused(t *testing.T) {
	s := subdued("613.7c-flying-counter-under-mystic-subdual").Mod("p1", func(p *model.Permanent) { p.Counters = map[string]int{"flying": 1} }).
		Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
	requireUnsupported(t, s, -1, "keyword-counter-under-ability-loss")

	// A +1/+1 counter gives no ability: played, and counted in layer 7c.
	s = subdued("613.4c-counter-under-mystic-subdual").Mod("p1", func(p *model.Permanent) { p.Counters = map[string]int{"+1/+1": 1} }).
		Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
	tr := requirePlayed(t, s)
	ch := tr.Steps[0].State.Permanent("p1").Derived.Characteristics
	assert.Equal(t, []int{1, 3}, []int{*ch.Power, *ch.Toughness}, "2/2, -2/-0 and +1/+1")
	assert.Empty(t, ch.Abilities)
}

// Test613_6_StaticSourceThatLosesItsAbilitiesIsRefused: a creature whose
// own static ability pumps its controller's creatures, and that loses
// all abilities itself: which effects still apply is a matter of 613.6
// and dependency (613.8), which the reference does not model, so it
// refuses by name.
func Test613_6_StaticSourceThatLosesItsAbilitiesIsRefused(t *testing.T) {
	bd := subdued("613.6-anthem-creature-under-mystic-subdual")
	d := bd.DefOf("c1")
	d.Front.Abilities = []model.AbilityID{"creatures_you_control_plus_1_1"}
	d.Front.AbilityKinds = map[model.AbilityID]model.AbilityKind{"creatures_you_control_plus_1_1": {Kind: model.KindStatic,
		Effect: &model.StaticEffect{Affects: model.AffectsYourCreatures, Power: 1, Toughness: 1}}}
	requireUnsupported(t, bd.Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario(), -1, "static-source-loses-its-abilities")
}

// Test613_4c_AnthemAppliesToItsControllersCreaturesOnly: "creatures you
// control get +1/+1" applies to each creature its controller controls,
// once, and not to an opponent's, nor to a noncreature, nor while its
// source is phased out (CR 702.26b).
func Test613_4c_AnthemAppliesToItsControllersCreaturesOnly(t *testing.T) {
	bd := bears("613.4c-anthem")
	bd.Card("c2", b, "Grizzly Bears")
	bd.Card("n1", a, "Glorious Anthem")
	bd.Perm("p2", b, up("c2")).Perm("p3", a, up("n1"))
	s := bd.Do(model.Action{Type: model.PhaseOut, Object: "p3"}).Scenario()
	tr := requirePlayed(t, s)
	pt := func(st *model.State, id model.ObjectID) []int {
		ch := st.Permanent(id).Derived.Characteristics
		return []int{*ch.Power, *ch.Toughness}
	}
	assert.Equal(t, []int{3, 3}, pt(&tr.Start, "p1"), "A's creature")
	assert.Equal(t, []int{2, 2}, pt(&tr.Start, "p2"), "B's creature")
	assert.Nil(t, tr.Start.Permanent("p3").Derived.Characteristics.Power, "the Anthem is no creature")
	require.True(t, tr.Steps[0].State.Permanent("p3").Status.PhasedOut)
	assert.Equal(t, []int{2, 2}, pt(&tr.Steps[0].State, "p1"), "a phased-out Anthem does not exist (702.26b)")
}
