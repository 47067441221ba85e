package reference_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/catalogue"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/rules"
)

// TestAbilitiesAreClassified checks that the reference classifies every
// ability a catalogue card, a keyword counter (CR 122.1b) or the reference
// itself can give a permanent, or that the card declares it static with an
// effect the reference interprets, and that each classification says what its
// class needs: the rules an interpreted ability follows, why an inert one
// can't change an action, and which actions an unmodelled one could
// change, on whose permanent.
func TestAbilitiesAreClassified(t *testing.T) {
	var all []model.AbilityID
	for _, name := range catalogue.Names() {
		d := catalogue.MustGet(name)
		for _, f := range []*model.Face{&d.Front, d.Flipped, d.Back, d.Melded} {
			if f == nil {
				continue
			}
			for _, ab := range f.Abilities {
				if f.AbilityKinds[ab].Effect == nil {
					all = append(all, ab)
				}
			}
		}
	}
	all = append(append(all, model.KeywordCounters...), reference.Granted()...)
	for _, ab := range all {
		_, ok := reference.Classify(ab)
		assert.True(t, ok, "ability %s is not classified", ab)
	}

	whose := []reference.Whose{reference.WhoseSubject, reference.WhoseAttached, reference.WhoseActive, reference.WhoseOpponents,
		reference.WhoseAny, reference.WhoseEntering, reference.WhoseEnchantingNoncreature, reference.WhoseInPlay}
	for _, ab := range reference.Classified() {
		c, _ := reference.Classify(ab)
		for _, r := range c.Rules {
			assert.True(t, rules.WellFormed(r), "%s cites %q", ab, r)
		}
		switch c.Class {
		case reference.Interpreted:
			assert.NotEmpty(t, c.Rules, "interpreted %s names the rules it follows", ab)
			assert.Empty(t, c.Actions, ab)
		case reference.Inert:
			assert.NotEmpty(t, c.Why, "inert %s says why", ab)
			assert.Empty(t, c.Actions, ab)
		case reference.Unmodelled:
			assert.NotEmpty(t, c.Why, "unmodelled %s says what it could change", ab)
			assert.NotEmpty(t, c.Actions, "unmodelled %s names an action it could change", ab)
			for _, a := range c.Actions {
				assert.Contains(t, model.ActionTypes, a, ab)
			}
			assert.Contains(t, whose, c.Whose, "unmodelled %s says whose ability counts", ab)
		default:
			t.Errorf("%s has class %q", ab, c.Class)
		}
	}
}

// TestNoExampleUsesAnUnclassifiedAbility checks that every worked example
// plays with abilities the reference classifies or interprets by their
// declared effect, so none is refused as unclassified.
func TestNoExampleUsesAnUnclassifiedAbility(t *testing.T) {
	for _, s := range examples() {
		for _, d := range s.Catalogue {
			for _, f := range []*model.Face{&d.Front, d.Flipped, d.Back, d.Melded} {
				if f == nil {
					continue
				}
				for _, ab := range f.Abilities {
					_, ok := reference.Classify(ab)
					ok = ok || f.AbilityKinds[ab].Effect != nil
					assert.True(t, ok, "%s: %s has unclassified ability %s", s.Name, d.Name, ab)
				}
			}
		}
	}
}
