package reference

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// A Mutant is the reference engine with one deliberate, realistic rules
// bug. Mutants prove that properties can fail: every property must kill at
// least one.
type Mutant struct {
	Name string
	// Bug says what the mutant gets wrong.
	Bug string
	// Breaks lists the rules whose properties must kill it, the rule its
	// bug is about first.
	Breaks []model.RuleID
	// Also lists rules its bug breaks as a consequence, which the suite
	// may kill it on too, and Why says how. A mutant failing any rule
	// outside Breaks and Also is a property blaming the wrong rule.
	Also []model.RuleID
	Why  string
	// Minimum describes the smallest counterexample, for the kill test;
	// Sizes gives it for a rule of Breaks whose minimum is another.
	Components, Actions int
	Sizes               map[model.RuleID][2]int
	// Example names a worked example whose expectations kill the mutant
	// too, for mutants of actions the worked examples show best.
	Example string
}

// FindMutant returns the mutant named name, or nil.
func FindMutant(name string) *Mutant {
	for i := range Mutants {
		if Mutants[i].Name == name {
			return &Mutants[i]
		}
	}
	return nil
}

// CheckMutant returns an error unless name is a mutant, or several joined
// by "+" ("dies-per-card+turn-top-only"): an engine with each of their
// bugs at once, as a real engine has several.
func CheckMutant(name string) error {
	for _, m := range strings.Split(name, "+") {
		if FindMutant(m) == nil {
			return fmt.Errorf("unknown mutant %q", m)
		}
	}
	return nil
}

// RunMutant plays s like [Run], with the bug of the named mutant (or of
// each of several joined by "+", see CheckMutant); an empty name is the
// reference itself.
func RunMutant(s *model.Scenario, mutant string) (*model.Trace, error) {
	if mutant != "" {
		if err := CheckMutant(mutant); err != nil {
			return nil, err
		}
	}
	return run(s, mutant, newGame)
}

// RunValidMutant plays s as RunMutant does, without validating it first:
// for a scenario known to be valid (see RunValid).
func RunValidMutant(s *model.Scenario, mutant string) (*model.Trace, error) {
	if mutant != "" {
		if err := CheckMutant(mutant); err != nil {
			return nil, err
		}
	}
	return run(s, mutant, startGame)
}

// is reports whether the game runs as the named mutant, alone or among
// others.
func (g *game) is(m Mutant) bool {
	if g.reached != nil {
		g.reached.note(m.Name)
	}
	return g.mutant == m.Name || g.several && slices.Contains(strings.Split(g.mutant, "+"), m.Name)
}

// mutated reports whether the game runs as any mutant: where every
// mutant plays on past what the rules refuse or leave unscripted.
func (g *game) mutated() bool {
	if g.reached != nil {
		g.reached.all = true
	}
	return g.mutant != ""
}

// Reached is what a play of the rules came to of the mutants' code: the
// mutants whose bug it asked about, or code every mutant changes. A
// mutant's play of the same scenario takes the rules' path up to the
// first place its bug is asked about, so a mutant Reached does not name
// plays it exactly as the rules do: the same trace, or the same error.
type Reached struct {
	all  bool
	bits [(maxMutants + 63) / 64]uint64 // the mutants asked about, by their place in Mutants
}

// maxMutants bounds the number of mutants a Reached can name.
const maxMutants = 192

// mutantAt is the place of each mutant in Mutants.
var mutantAt = func() map[string]int {
	at := make(map[string]int, len(Mutants))
	for i, m := range Mutants {
		at[m.Name] = i
	}
	return at
}()

// note records that the play asked about the named mutant; one Reached
// cannot place it stands for code every mutant changes.
func (r *Reached) note(name string) {
	i, ok := mutantAt[name]
	if !ok || i >= maxMutants {
		r.all = true
		return
	}
	r.bits[i/64] |= 1 << (i % 64)
}

// Changes reports whether the named mutant, or any of several joined by
// "+", may play the scenario otherwise than the rules did.
func (r *Reached) Changes(mutant string) bool {
	if mutant == "" {
		return false
	}
	if r.all {
		return true
	}
	for m := range strings.SplitSeq(mutant, "+") {
		i, ok := mutantAt[m]
		if !ok || i >= maxMutants || r.bits[i/64]&(1<<(i%64)) != 0 {
			return true
		}
	}
	return false
}

// RunValidReached plays s as RunValid does, and says what the play came
// to of the mutants' code.
func RunValidReached(s *model.Scenario) (*model.Trace, *Reached, error) {
	r := &Reached{}
	t, err := run(s, "", func(s *model.Scenario) (*game, error) {
		g, err := startGame(s)
		if g != nil {
			g.reached = r
		}
		return g, err
	})
	return t, r, err
}
