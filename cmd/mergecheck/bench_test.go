package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/catalogue"
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// benchScenarios draws the same 200 scenarios every time.
func benchScenarios() []*model.Scenario {
	gen := generators.Scenario(generators.Options{MaxPermanents: 2, MaxComponents: 3, Status: true, Hand: true, Prefix: 3})
	var out []*model.Scenario
	for i := range 200 {
		out = append(out, gen.Example(i))
	}
	return out
}

// BenchmarkEnginePath plays the same scenarios on the reference engine in
// process, over the adapter protocol (mergecheck serve in a child
// process), and, for scale, only encoding each scenario and decoding its
// trace as the protocol does.
func BenchmarkEnginePath(b *testing.B) {
	scenarios := benchScenarios()
	ctx := context.Background()
	inProcess, _ := harness.Reference("")
	run := func(b *testing.B, e harness.Engine) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range scenarios {
				if _, err := e.Run(ctx, s); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(scenarios))/b.Elapsed().Seconds(), "scenarios/s")
	}
	b.Run("in-process", func(b *testing.B) { run(b, inProcess) })
	b.Run("protocol", func(b *testing.B) {
		served, err := harness.NewExec(binary(b)+" serve --max-in-flight 1", harness.ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer served.Close()
		run(b, served)
	})
	b.Run("json-only", func(b *testing.B) {
		traces := make([][]byte, len(scenarios))
		for i, s := range scenarios {
			t, _ := reference.Run(s)
			traces[i], _ = json.Marshal(t)
		}
		b.ReportAllocs()
		for b.Loop() {
			for i, s := range scenarios {
				if _, err := json.Marshal(s); err != nil {
					b.Fatal(err)
				}
				if _, err := model.DecodeScenario(mustJSON(s)); err != nil {
					b.Fatal(err)
				}
				if _, err := model.DecodeTrace(traces[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(scenarios))/b.Elapsed().Seconds(), "scenarios/s")
	})
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// BenchmarkRunPath is a whole default run (every rule, 100 cases each,
// one worker per core) in process and over the protocol: the ratio the
// target in docs/BENCHMARKS.md speaks of. Each iteration takes the next seed, the same
// on both paths.
func BenchmarkRunPath(b *testing.B) {
	// As the command runs (served adapters are the command too).
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	run := func(b *testing.B, e harness.Engine) {
		b.ReportAllocs()
		cases := 0
		for i := 0; b.Loop(); i++ {
			res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: uint64(i + 1)})
			if err != nil {
				b.Fatal(err)
			}
			if err := res.Err(); err != nil {
				b.Fatal(err)
			}
			for _, r := range res.Results {
				cases += r.Cases
			}
		}
		b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "cases/s")
	}
	inProcess, _ := harness.Reference("")
	b.Run("in-process", func(b *testing.B) { run(b, inProcess) })
	b.Run("protocol", func(b *testing.B) {
		served, err := harness.NewExec(binary(b)+" serve", harness.ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer served.Close()
		run(b, served)
	})
}

// stackActions are the actions BenchmarkReplayLargeStack plays on a large
// merged permanent, each with the choices it asks for: its cards' order
// where they go to an ordered zone together (CR 730.3a-b).
var stackActions = []struct {
	name string
	act  func(order []model.ObjectID) model.Action
}{
	{"tap", func([]model.ObjectID) model.Action { return model.Action{Type: model.Tap, Object: "p1"} }},
	{"dies", func(o []model.ObjectID) model.Action {
		return model.Action{Type: model.Move, Object: "p1", To: model.Graveyard, Choices: model.Choices{Order: o}}
	}},
	{"exile", func(o []model.ObjectID) model.Action {
		return model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: model.Choices{Order: o}}
	}},
	{"library", func(o []model.ObjectID) model.Action {
		return model.Action{Type: model.Move, Object: "p1", To: model.LibraryTop, Choices: model.Choices{Order: o}}
	}},
	{"hand", func([]model.ObjectID) model.Action {
		return model.Action{Type: model.Move, Object: "p1", To: model.Hand}
	}},
	{"copy", func([]model.ObjectID) model.Action {
		return model.Action{Type: model.TokenCopy, Object: "p1", Token: "t1", Player: "A"}
	}},
	{"transform", func([]model.ObjectID) model.Action { return model.Action{Type: model.Transform, Object: "p1"} }},
	{"face-down", func([]model.ObjectID) model.Action { return model.Action{Type: model.TurnFaceDown, Object: "p1"} }},
	{"phase-out", func([]model.ObjectID) model.Action { return model.Action{Type: model.PhaseOut, Object: "p1"} }},
}

// bigStack is a scenario whose one starting permanent is a merged stack of
// n components, a Village Ironsmith on top of Grizzly Bears, and whose one
// action is act.
func bigStack(n int, act func([]model.ObjectID) model.Action) []byte {
	var objs []model.Object
	var comps []model.Component
	var order []model.ObjectID
	for i := range n {
		id := model.ObjectID(fmt.Sprintf("c%d", i+1))
		def := "Grizzly Bears"
		if i == 0 {
			def = "Village Ironsmith"
		}
		objs = append(objs, model.Object{ID: id, Def: def, Owner: "A"})
		comps = append(comps, model.Component{Object: id})
		order = append(order, id)
	}
	s := model.Scenario{Format: model.ScenarioFormat, Name: fmt.Sprintf("stack-of-%d", n),
		Catalogue: []model.CardDef{catalogue.MustGet("Village Ironsmith"), catalogue.MustGet("Grizzly Bears")}, Objects: objs,
		Start: model.State{Active: "A", Players: []model.Player{{ID: "A"}, {ID: "B"}},
			Battlefield: []model.Permanent{{ID: "p1", Controller: "A", Components: comps, Timestamp: 1, ControlledSinceTurnStart: true}}},
		Actions: []model.Action{act(order)},
	}
	data, err := model.Encode(&s)
	if err != nil {
		panic(err)
	}
	return data
}

// BenchmarkReplayLargeStack replays, from its bytes, a scenario whose
// starting stack has 1,000 to 100,000 components and whose one action is
// each of stackActions in turn: decoding, validating, playing on the
// reference, and judging by every property. Its cost per component must
// stay flat (n log n at worst).
func BenchmarkReplayLargeStack(b *testing.B) {
	ref, _ := harness.Reference("")
	for _, a := range stackActions {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/%d", a.name, n), func(b *testing.B) {
				data := bigStack(n, a.act) // built only for the sizes -bench selects; b.Loop leaves it out of the time
				b.ReportAllocs()
				for b.Loop() {
					s, err := model.DecodeScenario(data)
					if err != nil {
						b.Fatal(err)
					}
					if _, problems, err := judgeScenario(context.Background(), ref, s); err != nil || len(problems) > 0 {
						b.Fatal(err, problems)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/component")
			})
		}
	}
}

// TestReplayLargeStack_ScenariosPlay keeps the benchmark's scenarios
// valid and judged without a problem, at a size a test can afford.
func TestReplayLargeStack_ScenariosPlay(t *testing.T) {
	ref, _ := harness.Reference("")
	for _, a := range stackActions {
		s, err := model.DecodeScenario(bigStack(50, a.act))
		require.NoError(t, err, a.name)
		_, problems, err := judgeScenario(context.Background(), ref, s)
		require.NoError(t, err, a.name)
		assert.Empty(t, problems, a.name)
	}
}
