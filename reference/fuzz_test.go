package reference_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// exampleFiles returns the contents of every worked example's scenario file.
func exampleFiles(f *testing.F) [][]byte {
	f.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.scenario.json"))
	require.NoError(f, err)
	require.NotEmpty(f, files, "the worked examples seed the corpus")
	var out [][]byte
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		out = append(out, data)
	}
	return out
}

// checkRun plays a valid scenario and checks what Run promises: it never
// fails inside (ErrInternal is a recovered panic), any error refuses the
// scenario as invalid or unsupported at an action it names, and a trace
// has one step per action and encodes.
func checkRun(t *testing.T, s *model.Scenario) {
	tr, err := reference.Run(s)
	if errors.Is(err, reference.ErrInternal) {
		t.Fatalf("the reference engine failed inside:\n%v", err)
	}
	if err != nil {
		if !errors.Is(err, reference.ErrInvalid) && !errors.Is(err, reference.ErrUnsupported) {
			t.Fatalf("error wraps neither ErrInvalid nor ErrUnsupported: %v", err)
		}
		var ae *reference.ActionError
		if !errors.As(err, &ae) {
			t.Fatalf("error is not an *ActionError: %v", err)
		}
		if ae.Index < -1 || ae.Index >= len(s.Actions) {
			t.Fatalf("ActionError.Index %d is not an action of the scenario (%d actions): %v", ae.Index, len(s.Actions), err)
		}
		return
	}
	if len(tr.Steps) != len(s.Actions) {
		t.Fatalf("trace has %d steps for %d actions", len(tr.Steps), len(s.Actions))
	}
	if _, err := model.Encode(tr); err != nil {
		t.Fatalf("Encode of the trace: %v", err)
	}
	_ = model.CheckExpectations(s, tr) // may fail; must not panic
}

// FuzzRun plays every input that decodes as a valid scenario; see
// checkRun for the properties.
func FuzzRun(f *testing.F) {
	for _, data := range exampleFiles(f) {
		f.Add(data)
		// The same scenario without indentation: shorter, so mutations
		// more often hit a value than whitespace.
		var buf bytes.Buffer
		require.NoError(f, json.Compact(&buf, data))
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := model.DecodeScenario(data)
		if err != nil {
			return
		}
		checkRun(t, s)
	})
}

// FuzzRunActions reaches deeper into the engine than FuzzRun, whose byte
// mutations mostly break the JSON: it takes a worked example's starting
// state and plays a list of actions decoded from the fuzzer's bytes, with
// objects, zones and choices drawn from the ids the scenario uses, so most
// inputs are valid scenarios. See checkRun for the properties.
func FuzzRunActions(f *testing.F) {
	files := exampleFiles(f)
	for i := range files {
		f.Add(uint8(i), []byte{1})                      // the example's own actions
		f.Add(uint8(i), []byte{1, 15, 0, 0, 0, 0, 0})   // then move
		f.Add(uint8(i), []byte{0, 1, 1, 2, 0, 1, 3, 0}) // cast_mutate, then resolve
	}
	f.Fuzz(func(t *testing.T, example uint8, script []byte) {
		s, err := model.DecodeScenario(files[int(example)%len(files)])
		if err != nil {
			t.Fatalf("worked example does not decode: %v", err)
		}
		actionsFromScript(s, script)
		if s.Validate() != nil {
			return
		}
		checkRun(t, s)
	})
}

// script hands out the fuzzer's bytes one at a time, then zeros.
type script []byte

func (sc *script) next() int {
	if len(*sc) == 0 {
		return 0
	}
	v := int((*sc)[0])
	*sc = (*sc)[1:]
	return v
}

func pick[T any](sc *script, xs []T) T { return xs[sc.next()%len(xs)] }

// actionsFromScript replaces s's actions (or, if the first byte is odd,
// appends to them) with actions decoded from data, and drops its
// expectations. Each action takes a type byte, a byte per id it names, and
// a byte of flags choosing optional fields and choices.
func actionsFromScript(s *model.Scenario, data []byte) {
	sc := script(data)
	if sc.next()%2 == 0 {
		s.Actions = nil
	}
	s.Expect = nil
	const maxActions = 12
	var ids []model.ObjectID // objects, permanents and the ids they may enter as
	for _, o := range s.Objects {
		ids = append(ids, o.ID)
	}
	for _, p := range s.Start.Battlefield {
		ids = append(ids, p.ID)
	}
	base := len(ids)
	for i := range maxActions + len(s.Actions) {
		for _, id := range ids[:base] {
			ids = append(ids, model.EnteredID(id, i))
		}
	}
	ids = append(ids, "t9", "zz")
	players := []model.PlayerID{}
	for _, p := range s.Start.Players {
		players = append(players, p.ID)
	}
	id := func() model.ObjectID {
		// Favour the first ids: the scenario's own objects and permanents.
		if v := sc.next(); v < 192 {
			return ids[v%base]
		}
		return ids[sc.next()%len(ids)]
	}
	limit := len(s.Actions) + maxActions
	for len(sc) > 0 && len(s.Actions) < limit {
		a := model.Action{Type: pick(&sc, model.ActionTypes)}
		switch a.Type {
		case model.Resolve, model.NextTurn:
		default:
			a.Object = id()
		}
		switch a.Type {
		case model.CastMutate, model.Merge:
			a.Target = id()
		case model.Meld:
			a.With = id()
		case model.BecomeCopy:
			a.Card = id()
		case model.TokenCopy:
			a.Token = model.ObjectID(fmt.Sprintf("t%d", len(s.Actions)+100))
			a.Player = pick(&sc, players)
		case model.Manifest:
			a.Player = pick(&sc, players)
			a.Method = pick(&sc, []model.FaceDownKind{model.ByManifest, model.ByCloak})
		case model.Move:
			a.To = pick(&sc, []model.Zone{model.Graveyard, model.Hand, model.LibraryTop, model.LibraryBottom, model.Exile})
		case model.ExileFound:
			a.Source = id()
		case model.AddCounters:
			a.Counter = pick(&sc, []string{"+1/+1", "-1/-1", "charge"})
			a.N = 1 + sc.next()%3
		case model.Pump:
			a.Power, a.Toughness = sc.next()%5-2, sc.next()%5-2
		}
		flags := sc.next()
		if flags&1 != 0 {
			a.Choices.Position = pick(&sc, []model.Position{model.Top, model.Bottom})
		}
		if flags&2 != 0 {
			for range 1 + sc.next()%3 {
				a.Choices.Order = append(a.Choices.Order, id())
			}
		}
		if flags&4 != 0 {
			a.Choices.Replacement = id()
		}
		if flags&8 != 0 {
			a.Choices.CommandZone = model.Bool(flags&16 != 0)
		}
		if flags&32 != 0 {
			a.Choices.May = model.Bool(flags&16 != 0)
		}
		if flags&64 != 0 {
			switch a.Type {
			case model.Cast, model.TurnFaceUp:
				a.Method = pick(&sc, []model.FaceDownKind{model.ByMorph, model.ByDisguise, model.ByManifest, model.ByCloak, model.ByEffect})
			case model.Move:
				a.Source = id()
			case model.Return:
				a.Player = pick(&sc, players)
				a.Counters = map[string]int{"+1/+1": 1}
			case model.BecomeCopy:
				a.Gains = []model.AbilityID{model.CopyExceptThis}
			}
		}
		s.Actions = append(s.Actions, a)
	}
}
