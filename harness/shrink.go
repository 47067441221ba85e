package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime/debug"
	"time"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/shrink"
)

// encode returns a scenario's compact JSON encoding with its lists
// present even when empty, as a run request carries it.
func encode(s *model.Scenario) []byte {
	b, err := protocol.EncodeScenario(s)
	if err != nil {
		panic(err)
	}
	return b
}

// hash identifies a scenario by its encoding, for the cache of engine
// answers, run digests and corpus names.
func hash(s *model.Scenario) string { return hashOf(encode(s)) }

func hashOf(encoded []byte) string {
	sum := sha256.Sum256(encoded)
	return hex.EncodeToString(sum[:])
}

// minimize shrinks a failing case with package shrink's domain steps,
// keeping each step only while it fails the same way (the same kind of
// failure, of the same class: never another problem, never a scenario the
// engine or the harness refuses). Engine answers are cached by scenario
// hash, and the pass stops at the shrink time with the smallest scenario
// so far, as a slow or hanging engine makes each try cost a timeout.
func minimize(j *judge, f *failing) (min *model.Scenario) {
	defer func() {
		if v := recover(); v != nil {
			// Shrinking broke (mergecheck's bug): the rule's internal
			// error, keeping the case the engine failed, unshrunk, so
			// that nothing is lost.
			j.internals.add(internalFrom(j.p.Rule, v, debug.Stack()))
			j.internals.keep(j.p.Rule, f.played())
			min = f.s
		}
	}()
	j.remember(f.out)
	j.shrinking = true
	defer func() { j.shrinking = false }()
	// A shallow copy is enough: Minimize never changes what it is given.
	cur := *f.s
	cur.Expect, cur.Description, cur.Rules = nil, "", nil
	cur.Name = "counterexample-" + string(j.p.Rule)
	still := func(c *model.Scenario) bool { return j.ctx.Err() == nil && j.play(c).same(f.out) }
	if m := shrink.Minimize(&cur, still, time.Now().Add(j.o.ShrinkTime)); m != nil {
		return m
	}
	// Tidied, the scenario no longer fails this way (a flaky engine, or a
	// name the engine reads): report it as it was drawn.
	return f.s
}
