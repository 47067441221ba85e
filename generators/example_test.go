package generators_test

import (
	"fmt"
	"strings"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
)

// ExampleScenario shows what one option set draws: the stacks (topmost
// component first, face-down ones in brackets) and the actions. It doubles
// as a golden test of generator drift.
func ExampleScenario() {
	gen := generators.Scenario(generators.Options{
		MaxPermanents: 2, MaxComponents: 3, Hand: true, Replacements: true,
		Focus: []model.ActionType{model.CastMutate, model.Move},
	})
	for i := range 4 {
		s := gen.Example(i)
		var stacks []string
		for _, p := range s.Start.Battlefield {
			var comps []string
			for _, c := range p.Components {
				name := s.Object(c.Object).Def
				if c.FaceDown {
					name = "[" + name + "]"
				}
				comps = append(comps, name)
			}
			stacks = append(stacks, strings.Join(comps, " / "))
		}
		var acts []string
		for _, a := range s.Actions {
			acts = append(acts, string(a.Type))
		}
		fmt.Printf("%d: %s | %s\n", i, strings.Join(stacks, " ; "), strings.Join(acts, ", "))
	}
	// Output:
	// 0: [Kazandu Mammoth] / Graf Rats / Dreamtail Heron ; Wheel of Sun and Moon | cast_mutate, resolve
	// 1: Kazandu Mammoth ; [Saproling Token] / Beast Token / Vulpikeet ; Leyline of the Void ; Rest in Peace | move
	// 2: Wandering Ones / [Runeclaw Bear] / Runeclaw Bear ; Leyline of the Void ; Wheel of Sun and Moon | move
	// 3: [Ludevic's Test Subject] ; [Runeclaw Bear] / Dirge Bat / Delver of Secrets ; Leyline of the Void ; Wheel of Sun and Moon | move
}
