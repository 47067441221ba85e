package properties

import (
	"maps"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// The functions here report whether two parts of a trace are the same in
// every field, a nil list or map counting as an empty one: Departure's
// fast path for the steps where the engine did what the rules did, the
// common case, which reflect.DeepEqual made dear. Types whose fields are
// all comparable are compared with ==, so a field added to them is
// compared too; TestEqual_EveryFieldCounts changes each field of a step
// in turn and requires each change to be seen.

func sameStep(a, b *model.Step) bool {
	return a.Action == b.Action && slices.EqualFunc(a.Events, b.Events, sameEvent) && sameStateExactly(&a.State, &b.State)
}

func sameEvent(a, b model.Event) bool {
	return a.Kind == b.Kind && a.Rule == b.Rule && a.Object == b.Object && a.From == b.From && a.To == b.To &&
		a.Objects == b.Objects && a.Cards == b.Cards && slices.Equal(a.Moves, b.Moves) && a.Observer == b.Observer &&
		a.Source == b.Source && a.Player == b.Player && slices.Equal(a.Revealed, b.Revealed) && samePointee(a.Status, b.Status)
}

func sameStateExactly(a, b *model.State) bool {
	return a.Active == b.Active && slices.EqualFunc(a.Players, b.Players, samePlayer) &&
		slices.EqualFunc(a.Battlefield, b.Battlefield, samePermanent) && slices.Equal(a.Stack, b.Stack) &&
		slices.EqualFunc(a.Links, b.Links, func(x, y model.Link) bool { return x.Source == y.Source && slices.Equal(x.Cards, y.Cards) })
}

func samePlayer(a, b model.Player) bool {
	z, w := &a.Zones, &b.Zones
	return a.ID == b.ID && slices.Equal(z.Library, w.Library) && slices.Equal(z.Hand, w.Hand) &&
		slices.Equal(z.Graveyard, w.Graveyard) && slices.Equal(z.Exile, w.Exile) && slices.Equal(z.Command, w.Command)
}

func samePermanent(a, b model.Permanent) bool {
	return a.ID == b.ID && a.Controller == b.Controller && slices.Equal(a.Components, b.Components) &&
		a.Status == b.Status && a.Mutated == b.Mutated && maps.Equal(a.Counters, b.Counters) &&
		slices.EqualFunc(a.Effects, b.Effects, sameEffect) && a.Timestamp == b.Timestamp &&
		a.ControlledSinceTurnStart == b.ControlledSinceTurnStart && a.AttachedTo == b.AttachedTo &&
		a.EnchantedPlayer == b.EnchantedPlayer && sameDerived(a.Derived, b.Derived)
}

func sameEffect(a, b model.Effect) bool {
	return a.Kind == b.Kind && a.Timestamp == b.Timestamp && a.Power == b.Power && a.Toughness == b.Toughness &&
		a.UntilEndOfTurn == b.UntilEndOfTurn && a.Of == b.Of && slices.Equal(a.Gains, b.Gains)
}

func sameDerived(a, b *model.Derived) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := &a.Characteristics, &b.Characteristics
	return x.Name == y.Name && x.ManaValue == y.ManaValue && slices.Equal(x.Colors, y.Colors) &&
		slices.Equal(x.Types, y.Types) && slices.Equal(x.Subtypes, y.Subtypes) && slices.Equal(x.Supertypes, y.Supertypes) &&
		samePointee(x.Power, y.Power) && samePointee(x.Toughness, y.Toughness) && slices.Equal(x.Abilities, y.Abilities) &&
		a.Token == b.Token && a.Merged == b.Merged && a.Melded == b.Melded && a.DoubleFaced == b.DoubleFaced &&
		a.Transformed == b.Transformed && a.Commander == b.Commander && slices.Equal(a.Unsettled, b.Unsettled)
}

// samePointee reports whether a and b are both nil or point to equal values.
func samePointee[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// SameTrace reports whether a and b are the same trace in every field, a
// nil list or map counting as an empty one (as they do for a trace read
// from JSON, where an engine may leave out or send either). The harness
// reuses what it judged of one trace for another the same.
func SameTrace(a, b *model.Trace) bool {
	if a == b || a == nil || b == nil {
		return a == b
	}
	return a.Format == b.Format && a.Scenario == b.Scenario && a.Engine == b.Engine &&
		sameStateExactly(&a.Start, &b.Start) &&
		slices.EqualFunc(a.Steps, b.Steps, func(x, y model.Step) bool { return sameStep(&x, &y) }) &&
		slices.EqualFunc(a.NewObjects, b.NewObjects, func(x, y model.NewObject) bool {
			return x.ID == y.ID && x.Kind == y.Kind && slices.Equal(x.StandsFor, y.StandsFor)
		})
}
