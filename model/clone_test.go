package model_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/catalogue"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// TestStateClone_IsTheJSONRoundTrip: over the states of scenarios drawn
// for every rule, Clone gives exactly what a JSON round trip gives (no
// cmp options: nil and empty differ), and shares no memory with the state
// it copied.
func TestStateClone_IsTheJSONRoundTrip(t *testing.T) {
	var checkable []*properties.Property
	for _, p := range properties.All {
		if p.Draws != nil {
			checkable = append(checkable, p)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.SampledFrom(checkable).Draw(t, "rule")
		s := p.Draws.Gen().Draw(t, "scenario")
		tr, err := reference.Run(s)
		require.NoError(t, err)
		states := []model.State{s.Start, tr.Start}
		for _, st := range tr.Steps {
			states = append(states, st.State)
		}
		for _, st := range states {
			if problem := cloneProblem(st, st.Clone(), "state"); problem != "" {
				t.Fatal(problem)
			}
		}
	})
}

// TestStateClone_SharesNothing: a change to every list, map and pointer of
// a clone leaves the original as it was.
func TestStateClone_SharesNothing(t *testing.T) {
	power := 2
	st := model.State{
		Active:  "A",
		Players: []model.Player{{ID: "A", Zones: model.Zones{Library: []model.ObjectID{"c1"}, Hand: []model.ObjectID{"c2"}, Graveyard: []model.ObjectID{"c3"}, Exile: []model.ObjectID{"c4"}, Command: []model.ObjectID{"c5"}}}},
		Battlefield: []model.Permanent{{ID: "p1", Components: []model.Component{{Object: "c6"}}, Counters: map[string]int{"+1/+1": 1},
			Effects: []model.Effect{{Kind: model.EffectPump, Gains: []model.AbilityID{"flying"}}},
			Derived: &model.Derived{Characteristics: model.Characteristics{Name: "Bear", Colors: []model.Color{"G"}, Types: []string{"creature"},
				Subtypes: []string{"Bear"}, Supertypes: []string{"legendary"}, Power: &power, Toughness: &power, Abilities: []model.AbilityID{"trample"}}}}},
		Stack: []model.StackObject{{Object: "c7"}},
		Links: []model.Link{{Source: "p1", Cards: []model.ObjectID{"c8"}}},
	}
	if path := shared(reflect.ValueOf(st), reflect.ValueOf(st.Clone()), "state"); path != "" {
		t.Fatalf("the clone shares %s with the original", path)
	}
	// and the check can fail: a copy by value shares every list.
	require.Equal(t, "state.Players", shared(reflect.ValueOf(st), reflect.ValueOf(st), "state"))
}

// cloneProblem says how clone differs from what a JSON round trip of orig
// gives, or what memory it shares with orig; "" when neither.
func cloneProblem[T any](orig, clone T, name string) string {
	b, err := json.Marshal(orig)
	if err != nil {
		return err.Error()
	}
	var want T
	if err := json.Unmarshal(b, &want); err != nil {
		return err.Error()
	}
	if d := cmp.Diff(want, clone); d != "" {
		return fmt.Sprintf("%s: Clone differs from the JSON round trip (-json +clone):\n%s", name, d)
	}
	if path := shared(reflect.ValueOf(orig), reflect.ValueOf(clone), name); path != "" {
		return fmt.Sprintf("the clone shares %s with the original", path)
	}
	return ""
}

// shared returns the path of the first list, map or pointer that a and b
// both point into, or "" when they share no memory.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() == 0 || b.Len() == 0 {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		for i := range min(a.Len(), b.Len()) {
			if p := shared(a.Index(i), b.Index(i), path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	}
	return ""
}

// TestCardDefClone_IsTheJSONRoundTrip: the same, for every card of the
// catalogue (normal, flip, double-faced, meld and spell layouts).
func TestCardDefClone_IsTheJSONRoundTrip(t *testing.T) {
	for _, name := range catalogue.Names() {
		d := catalogue.MustGet(name)
		if problem := cloneProblem(d, d.Clone(), name); problem != "" {
			t.Error(problem)
		}
	}
}

// TestCardDefClone_SharesNothing: a clone of a card definition with every
// pointer and list set, a planeswalker's loyalty among them, shares none of
// them with the original.
func TestCardDefClone_SharesNothing(t *testing.T) {
	three := 3
	d := model.CardDef{Name: "Teferi, Master of Time", Layout: model.LayoutNormal, Front: model.Face{Name: "Teferi, Master of Time", ManaCost: "{2}{U}{U}",
		Colors: []model.Color{"U"}, Types: []string{"planeswalker"}, Subtypes: []string{"Teferi"}, Supertypes: []string{"legendary"}, Loyalty: &three,
		Abilities:    []model.AbilityID{"teferi_loot"},
		AbilityKinds: map[model.AbilityID]model.AbilityKind{"teferi_loot": {Kind: model.KindActivated}}}}
	if path := shared(reflect.ValueOf(d), reflect.ValueOf(d.Clone()), "def"); path != "" {
		t.Fatalf("the clone shares %s with the original", path)
	}
	assert.Empty(t, cloneProblem(d, d.Clone(), d.Name))
}

// TestMemo_SharesNothing: two decodings of the same trace by one memo, the
// second from what it remembers, share no memory with each other.
func TestMemo_SharesNothing(t *testing.T) {
	files, err := filepath.Glob("../reference/testdata/examples/*.trace.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	memo := model.NewMemo()
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		var first, again model.Trace
		require.NoError(t, memo.Unmarshal(data, &first))
		require.NoError(t, memo.Unmarshal(data, &again))
		if path := shared(reflect.ValueOf(first), reflect.ValueOf(again), "trace"); path != "" {
			t.Errorf("%s: two decodings share %s", filepath.Base(name), path)
		}
	}
}
