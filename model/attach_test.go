package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
)

// Test303_4d_AttachmentsThatCantBeAreRefused: a starting state whose
// attachments the rules would have undone before it could be (an Aura on
// itself, two Auras on each other, an Aura that enchants creatures on an
// Aura, an Equipment on a noncreature, a creature attached to anything)
// is invalid, saying which and why; an Aura on a creature, face up or
// face down, is valid.
func Test303_4d_AttachmentsThatCantBeAreRefused(t *testing.T) {
	scenario := func(mod func(bd *build.Builder)) *model.Scenario {
		bd := build.New("attachments", "")
		bd.Perm("p1", build.A, build.Up(bd.Card("c1", build.A, "Grizzly Bears")))
		bd.Perm("p2", build.A, build.Up(bd.Card("a1", build.A, "False Demise")))
		bd.Perm("p3", build.B, build.Up(bd.Card("a2", build.B, "Pacifism")))
		bd.Perm("p4", build.B, build.Up(bd.Card("g1", build.B, "Lightning Greaves")))
		mod(bd)
		return bd.Scenario()
	}
	attach := func(bd *build.Builder, id, to model.ObjectID) {
		bd.Mod(id, func(p *model.Permanent) { p.AttachedTo = to })
	}
	for name, tt := range map[string]struct {
		mod  func(bd *build.Builder)
		want string
	}{
		"an aura on a creature": {func(bd *build.Builder) { attach(bd, "p2", "p1"); attach(bd, "p4", "p1") }, ""},
		"an aura on a face-down creature": {func(bd *build.Builder) {
			bd.Mod("p1", func(p *model.Permanent) {
				p.Components[0], p.Status.FaceDown = build.Down("c1", model.ByManifest), true
			})
			attach(bd, "p2", "p1")
		}, ""},
		"itself":                  {func(bd *build.Builder) { attach(bd, "p2", "p2") }, "p2): attached to itself"},
		"two auras on each other": {func(bd *build.Builder) { attach(bd, "p2", "p3"); attach(bd, "p3", "p2") }, "a cycle, p2 -> p3 -> p2"},
		"an aura on an aura":      {func(bd *build.Builder) { attach(bd, "p2", "p3") }, "p2): attached to p3, which is no creature: its enchant ability"},
		"equipment on an aura":    {func(bd *build.Builder) { attach(bd, "p4", "p3") }, "p4): attached to p3, which is no creature: an Equipment"},
		"a creature attached":     {func(bd *build.Builder) { attach(bd, "p1", "p4") }, "p1): attached to p4, but it is neither an Aura nor an Equipment"},
	} {
		err := scenario(tt.mod).Validate()
		if tt.want == "" {
			assert.NoError(t, err, name)
			continue
		}
		assert.ErrorContains(t, err, tt.want, name)
	}
}
