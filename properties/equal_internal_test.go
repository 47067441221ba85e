package properties

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// fill sets every field reachable from v to a value that is not its zero
// value: each string to "x", each number to 1, each bool to true, each
// list to one element and each map to one entry, each filled.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(k, e)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	default:
		panic(fmt.Sprintf("fill: a field of kind %s", v.Kind()))
	}
}

// eachField calls change on every leaf field reachable from v, by its path,
// with a function that changes it and one that puts it back; a map entry
// is changed as a whole, by its value.
func eachField(path string, v reflect.Value, change func(path string, set, undo func())) {
	switch v.Kind() {
	case reflect.String:
		old := v.String()
		change(path, func() { v.SetString(old + "y") }, func() { v.SetString(old) })
	case reflect.Int, reflect.Int64:
		old := v.Int()
		change(path, func() { v.SetInt(old + 1) }, func() { v.SetInt(old) })
	case reflect.Bool:
		old := v.Bool()
		change(path, func() { v.SetBool(!old) }, func() { v.SetBool(old) })
	case reflect.Pointer:
		old := v.Elem()
		change(path+"(nil)", func() { v.Set(reflect.Zero(v.Type())) }, func() { v.Set(old.Addr()) })
		eachField(path, v.Elem(), change)
	case reflect.Slice:
		old := v.Interface()
		change(path+"(empty)", func() { v.Set(reflect.Zero(v.Type())) }, func() { v.Set(reflect.ValueOf(old)) })
		for i := range v.Len() {
			eachField(fmt.Sprintf("%s[%d]", path, i), v.Index(i), change)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			old := v.MapIndex(k)
			e := reflect.New(old.Type()).Elem()
			e.Set(old)
			eachField(fmt.Sprintf("%s[%v]", path, k), e, func(p string, set, undo func()) {
				change(p, func() { set(); v.SetMapIndex(k, e) }, func() { undo(); v.SetMapIndex(k, old) })
			})
		}
	case reflect.Struct:
		for i := range v.NumField() {
			eachField(path+"."+v.Type().Field(i).Name, v.Field(i), change)
		}
	}
}

// everyFieldCounts fills *a and *b alike and requires same to find them
// the same, then changes each field of *b in turn (at least atLeast of them)
// and requires same to see the change, and to find them the same again
// once it is put back.
func everyFieldCounts[T any](t *testing.T, what string, a, b *T, same func() bool, atLeast int) {
	t.Helper()
	fill(reflect.ValueOf(a).Elem())
	fill(reflect.ValueOf(b).Elem())
	if !same() {
		t.Fatalf("two %ss filled alike differ", what)
	}
	n := 0
	eachField(what, reflect.ValueOf(b).Elem(), func(path string, set, undo func()) {
		n++
		set()
		if same() {
			t.Errorf("a change of %s is not seen", path)
		}
		undo()
		if !same() {
			t.Fatalf("%s put back, the %ss still differ", path, what)
		}
	})
	if n < atLeast {
		t.Errorf("only %d fields changed; the walk missed some", n)
	}
}

// TestEqual_EveryFieldCounts: of two steps filled alike, sameStep says
// they differ when any one field of one of them is changed, and that
// they are the same again once it is put back; a nil list or map is the
// same as an empty one, as the trace format reads them.
func TestEqual_EveryFieldCounts(t *testing.T) {
	var a, b model.Step
	everyFieldCounts(t, "step", &a, &b, func() bool { return sameStep(&a, &b) }, 60)
	a.Events[0].Moves, b.Events[0].Moves = nil, []model.Placement{}
	if !sameStep(&a, &b) {
		t.Error("a nil list differs from an empty one")
	}
}

// TestEqual_EveryFieldOfATraceCounts: SameTrace sees a change of any one
// field of a trace (its steps, its start, its new objects, its names),
// and two traces filled alike are the same.
func TestEqual_EveryFieldOfATraceCounts(t *testing.T) {
	var a, b model.Trace
	everyFieldCounts(t, "trace", &a, &b, func() bool { return SameTrace(&a, &b) }, 80)
	if SameTrace(&a, nil) || !SameTrace(nil, nil) {
		t.Error("a trace is the same as none")
	}
}

// TestEqual_AgreesWithDeepEqual: on the rules' traces of every property's
// draws, sameStep says two steps are the same exactly when
// reflect.DeepEqual does, for each step with itself copied and with the
// step after it.
func TestEqual_AgreesWithDeepEqual(t *testing.T) {
	same, differ := 0, 0
	for _, p := range All {
		if p.Draws == nil {
			continue
		}
		for i := range 10 {
			tr, err := reference.Run(p.Draws.Gen().Example(i))
			if err != nil {
				continue
			}
			again, err := reference.Run(p.Draws.Gen().Example(i))
			if err != nil {
				t.Fatal(err)
			}
			for k := range tr.Steps {
				pairs := [][2]*model.Step{{&tr.Steps[k], &again.Steps[k]}}
				if k+1 < len(tr.Steps) {
					pairs = append(pairs, [2]*model.Step{&tr.Steps[k], &tr.Steps[k+1]})
				}
				for _, pr := range pairs {
					deep := reflect.DeepEqual(pr[0], pr[1])
					if got := sameStep(pr[0], pr[1]); got != deep {
						t.Fatalf("%s, draw %d, step %d: sameStep %t, reflect.DeepEqual %t", p.Rule, i, k, got, deep)
					}
					if deep {
						same++
					} else {
						differ++
					}
				}
			}
		}
	}
	if same == 0 || differ == 0 {
		t.Errorf("compared %d steps the same and %d different: both kinds needed", same, differ)
	}
}
