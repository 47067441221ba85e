package properties

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// Departure returns where the engine's trace of a case first departs from
// the rules' trace, or nil when it follows it. It compares everything the
// trace format defines as the engine's to observe: the active player,
// every permanent (its components, their faces and how they are face
// down, controller, status, counters, effects, attachment,
// characteristics and derived flags), every zone, the stack and links,
// and each step's events: the triggers of the observers the
// engine reports and, unless its traces are partial, zone changes,
// reveals and tokens ceasing to exist. It leaves out what is mergecheck's
// own knowledge rather than the engine's: rule citations, replacement
// attributions ("by"), timestamps, the order of events within a step, the
// order of set-valued characteristics and of a melded permanent's two
// cards, and controlled_since_turn_start.
//
// The harness uses it so that no case counts as held for a rule while the
// engine went another way: a departure that another rule's check names
// is that rule's finding; one that no check names fails the case.
func Departure(c *Case) error {
	for k := 0; k <= len(c.Reference.Steps); k++ {
		if k > 0 {
			g, w := &c.Trace.Steps[k-1], &c.Reference.Steps[k-1]
			if sameStep(g, w) {
				continue // the same, down to what need not be (the common case)
			}
			if err := sameEvents(c, k-1); err != nil {
				return inState(c, err, k)
			}
		} else if sameStateExactly(&c.Trace.Start, &c.Reference.Start) {
			continue
		}
		if err := sameState(at(c, k), stateAt(c.Trace, k), stateAt(c.Reference, k), c.Scenario); err != nil {
			return inState(c, err, k)
		}
	}
	return nil
}

// inState notes on a departure of c the state it is in, and the role its
// object plays there.
func inState(c *Case, err error, k int) error {
	if p, ok := err.(*Problem); ok {
		p.State = k
		p.Role = roleOf(c, k, p.Object)
	}
	return err
}

// departs is the problem of a departure in one aspect of the trace,
// named without objects (aspect, such as "a permanent's status" or "a
// player's graveyard"), and shown with them (what), got and want in
// words. object is the object it is about, if one, and detail narrows the
// aspect to the parts that differ (the flags, the zone, whether triggers
// are extra or missing): with the object's role, they say which bug it is
// (Signature). Every departure is of one class, whatever its aspect: a
// counterexample of one shrinks to the plainest departure, which may be
// in another aspect.
func departs(where, what, aspect string, object model.ObjectID, detail, got, want string) error {
	return &Problem{Class: "departure", Aspect: aspect, Detail: detail, Object: object, Where: where,
		Msg: fmt.Sprintf("%s, %s: the engine's trace has %s, the rules' %s", where, what, got, want)}
}

// AspectOf returns the aspect of the trace a departure is in (see
// Departure), or "" for an error that is not a departure.
func AspectOf(err error) string {
	var p *Problem
	if errors.As(err, &p) {
		return p.Aspect
	}
	return ""
}

func sameState(where string, g, w *model.State, s *model.Scenario) error {
	if g.Active != w.Active {
		return departs(where, "the active player", "the active player", "", "", string(g.Active), string(w.Active))
	}
	if a, b := permIDs(g), permIDs(w); !slices.Equal(a, b) {
		id, detail := firstApart(a, b)
		return departs(where, "the battlefield", "the battlefield", id, detail, listWords(a), listWords(b))
	}
	for i := range w.Battlefield {
		wp := &w.Battlefield[i]
		gp := g.Permanent(wp.ID)
		for _, v := range permanentViews {
			if a, b := v.view(s, gp), v.view(s, wp); a != b {
				gf, wf := v.fields(s, gp), v.fields(s, wp)
				names := differing(gf, wf)
				a, b := fieldsWords(gf, names), fieldsWords(wf, names)
				if len(names) == 1 && names[0] == v.what {
					a, b = strings.TrimPrefix(a, v.what+" "), strings.TrimPrefix(b, v.what+" ")
				}
				return departs(where, string(wp.ID)+"'s "+v.what, "a permanent's "+v.what, wp.ID, strings.Join(names, ", "), a, b)
			}
		}
	}
	for _, wpl := range w.Players {
		gpl := g.Player(wpl.ID)
		if gpl == nil {
			return departs(where, "player "+string(wpl.ID), "the players", "", "missing", "no player "+string(wpl.ID), "player "+string(wpl.ID))
		}
		if z, a, b := firstZoneDiff(gpl, &wpl); z != "" {
			id, detail := firstApart(a, b)
			return departs(where, fmt.Sprintf("%s's %s", wpl.ID, z), "a player's "+string(z), id, detail, listWords(a), listWords(b))
		}
	}
	if a, b := stackView(g), stackView(w); a != b {
		return departs(where, "the stack", "the stack", "", "", stackWords(g), stackWords(w))
	}
	if a, b := linksView(g), linksView(w); a != b {
		return departs(where, "what linked abilities exiled", "what linked abilities exiled", "", "", linksWords(g), linksWords(w))
	}
	return nil
}

// firstApart returns the first object in which the lists got and want
// differ, and "extra" when got has it and want does not, "missing" the
// other way round, "order" when both have it elsewhere.
func firstApart[T ~string](got, want []T) (model.ObjectID, string) {
	for i := 0; i < len(got) || i < len(want); i++ {
		switch {
		case i >= len(want):
			return model.ObjectID(got[i]), "extra"
		case i >= len(got):
			return model.ObjectID(want[i]), "missing"
		case got[i] != want[i]:
			if !slices.Contains(want, got[i]) {
				return model.ObjectID(got[i]), "extra"
			}
			if !slices.Contains(got, want[i]) {
				return model.ObjectID(want[i]), "missing"
			}
			return model.ObjectID(want[i]), "order"
		}
	}
	return "", ""
}

func permIDs(st *model.State) []model.ObjectID {
	out := make([]model.ObjectID, len(st.Battlefield))
	for i, p := range st.Battlefield {
		out[i] = p.ID
	}
	slices.Sort(out)
	return out
}

// permanentViews are the aspects of a permanent the comparison looks at,
// each shown as text.
// Each view is compared as text (view, built cheaply: it is built for
// every permanent of every step that differs), and told in words by its
// named parts (fields) only where two differ.
var permanentViews = []struct {
	what   string
	view   func(s *model.Scenario, p *model.Permanent) string
	fields func(s *model.Scenario, p *model.Permanent) []field
}{
	{"components", pieces, func(s *model.Scenario, p *model.Permanent) []field {
		return []field{{"components", componentsWords(s, p)}}
	}},
	{"controller", func(_ *model.Scenario, p *model.Permanent) string { return string(p.Controller) },
		func(_ *model.Scenario, p *model.Permanent) []field {
			return []field{{"controller", string(p.Controller)}}
		}},
	{"status", func(_ *model.Scenario, p *model.Permanent) string { return fmt.Sprintf("%+v", p.Status) },
		func(_ *model.Scenario, p *model.Permanent) []field { return statusFields(p.Status) }},
	{"counters", func(_ *model.Scenario, p *model.Permanent) string { return countersView(p.Counters) },
		func(_ *model.Scenario, p *model.Permanent) []field {
			return []field{{"counters", countersWords(p.Counters)}}
		}},
	{"effects", func(_ *model.Scenario, p *model.Permanent) string { return effectsView(p) },
		func(_ *model.Scenario, p *model.Permanent) []field { return []field{{"effects", effectsWords(p)}} }},
	{"attachment", func(_ *model.Scenario, p *model.Permanent) string {
		return fmt.Sprintf("attached_to=%q enchanted_player=%q", p.AttachedTo, p.EnchantedPlayer)
	}, func(_ *model.Scenario, p *model.Permanent) []field { return attachmentFields(p) }},
	{"characteristics", func(_ *model.Scenario, p *model.Permanent) string {
		if p.Derived == nil {
			return "none"
		}
		return charsView(p.Derived.Characteristics)
	}, func(_ *model.Scenario, p *model.Permanent) []field {
		if p.Derived == nil {
			return []field{{"characteristics", "none"}}
		}
		return characteristicFields(p.Derived.Characteristics)
	}},
	{"derived flags", func(_ *model.Scenario, p *model.Permanent) string {
		if p.Derived == nil {
			return "none"
		}
		d := p.Derived
		return fmt.Sprintf("token=%t merged=%t melded=%t double_faced=%t transformed=%t commander=%t mutated=%t",
			d.Token, d.Merged, d.Melded, d.DoubleFaced, d.Transformed, d.Commander, p.Mutated)
	}, func(_ *model.Scenario, p *model.Permanent) []field {
		if p.Derived == nil {
			return []field{{"derived flags", "none"}}
		}
		return flagFields(p)
	}},
}

// countersView shows counters, leaving out kinds with none.
func countersView(cs map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(cs)) {
		if cs[k] != 0 {
			out = append(out, fmt.Sprintf("%s:%d", k, cs[k]))
		}
	}
	return "[" + strings.Join(out, " ") + "]"
}

// effectsView shows the effects on a permanent without their timestamps,
// which only need to be in order.
func effectsView(p *model.Permanent) string {
	var out []string
	for _, e := range p.Effects {
		gains := sorted(nil)
		for _, a := range e.Gains {
			gains = append(gains, model.ObjectID(a))
		}
		slices.Sort(gains)
		out = append(out, fmt.Sprintf("%s(%+d/%+d eot=%t of=%q gains=%v)", e.Kind, e.Power, e.Toughness, e.UntilEndOfTurn, e.Of, gains))
	}
	return "[" + strings.Join(out, " ") + "]"
}

// charsView shows characteristics with the set-valued ones as sets. It
// is built without fmt: the checks compare a view for every permanent of
// every step.
func charsView(ch model.Characteristics) string {
	var b strings.Builder
	b.Grow(128)
	b.WriteString(strconv.Quote(ch.Name))
	b.WriteString(" mv=")
	b.WriteString(strconv.Itoa(ch.ManaValue))
	writeSet(&b, " colors=", ch.Colors)
	writeSet(&b, " types=", ch.Types)
	writeSet(&b, " subtypes=", ch.Subtypes)
	writeSet(&b, " supertypes=", ch.Supertypes)
	b.WriteString(" p/t=")
	b.WriteString(fmtInt(ch.Power))
	b.WriteByte('/')
	b.WriteString(fmtInt(ch.Toughness))
	writeSet(&b, " abilities=", ch.Abilities)
	return b.String()
}

// writeSet writes label and xs as a set: sorted, each once, the way fmt
// shows a slice of strings ("[a b]").
func writeSet[S ~[]E, E ~string](b *strings.Builder, label string, xs S) {
	set := slices.Clone(xs)
	slices.Sort(set)
	set = slices.Compact(set)
	b.WriteString(label)
	b.WriteByte('[')
	for i, x := range set {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(x))
	}
	b.WriteByte(']')
}

func stackView(st *model.State) string {
	var out []string
	for _, so := range st.Stack {
		out = append(out, fmt.Sprintf("%s(by %s target=%q face_down_by=%q)", so.Object, so.Controller, so.Target, so.FaceDownBy))
	}
	return "[" + strings.Join(out, " ") + "]"
}

func linksView(st *model.State) string {
	var out []string
	for _, l := range st.Links {
		out = append(out, fmt.Sprintf("%s%v", l.Source, l.Cards))
	}
	slices.Sort(out)
	return "[" + strings.Join(out, " ") + "]"
}

// sameEvents compares step i's events with the rules', each kind as a
// sorted list: the order of events within a step is not the engine's to
// match.
func sameEvents(c *Case, i int) error {
	g, w := c.Trace.Steps[i], c.Reference.Steps[i]
	for _, o := range model.Observers {
		if !c.Reports(o) {
			continue
		}
		if a, b := triggered(g, o, ""), triggered(w, o, ""); !slices.Equal(a, b) {
			id, detail := triggersApart(a, b)
			return departs(after(c, i), fmt.Sprintf("the %q triggers", o), fmt.Sprintf("the %q triggers", o), id, detail, triggersText(a), triggersText(b))
		}
	}
	// Whether the action could be taken at all, and who attacked, every
	// engine reports: they are what the action did.
	for _, k := range []model.EventKind{model.NotAllowed, model.Attacks} {
		if a, b := eventsView(g, k, objectView), eventsView(w, k, objectView); !slices.Equal(a, b) {
			id, detail := firstApart(a, b)
			return departs(after(c, i), fmt.Sprintf("the %s events", k), fmt.Sprintf("the %s events", k), id, detail, listWords(a), listWords(b))
		}
	}
	if c.Partial {
		return nil
	}
	for _, v := range eventViews {
		if a, b := eventsView(g, v.kind, v.view), eventsView(w, v.kind, v.view); !slices.Equal(a, b) {
			var id model.ObjectID
			detail := "extra"
			if len(a) < len(b) {
				detail = "missing"
			} else if len(a) == len(b) {
				detail = "otherwise"
			}
			for _, e := range w.Events {
				if e.Kind == v.kind && e.Object != "" {
					id = e.Object
					break
				}
			}
			return departs(after(c, i), "the "+v.what, "the "+v.what, id, detail, eventsWords(a), eventsWords(b))
		}
	}
	return nil
}

// triggersApart returns the first object whose triggers (listed as
// "object/source", sorted) differ, and whether the engine's trace has
// extra triggers for it, fewer, or others.
func triggersApart(got, want []string) (model.ObjectID, string) {
	count := func(list []string, obj string) int {
		n := 0
		for _, t := range list {
			if o, _, _ := strings.Cut(t, "/"); o == obj {
				n++
			}
		}
		return n
	}
	for _, t := range slices.Concat(want, got) {
		obj, _, _ := strings.Cut(t, "/")
		g, w := count(got, obj), count(want, obj)
		switch {
		case g > w:
			return model.ObjectID(obj), "extra"
		case g < w:
			return model.ObjectID(obj), "missing"
		}
	}
	if len(want) > 0 {
		obj, _, _ := strings.Cut(want[0], "/")
		return model.ObjectID(obj), "otherwise"
	}
	return "", "otherwise"
}

// eventsWords lists events as their views show them, or "none".
func eventsWords(views []string) string {
	if len(views) == 0 {
		return "none"
	}
	return strings.Join(views, "; ")
}

var eventViews = []struct {
	kind model.EventKind
	what string
	view func(e model.Event) string
}{
	{model.ZoneChange, "zone changes", func(e model.Event) string {
		var ms []string
		for _, m := range e.Moves {
			ms = append(ms, fmt.Sprintf("%s to %s", m.Object, m.To))
		}
		slices.Sort(ms)
		from := string(e.From)
		if from == "" {
			from = "nowhere"
		}
		return fmt.Sprintf("%s from %s to %s (%s, %s; moves %s)", e.Object, from, e.To, countWords(e.Objects, "object"), countWords(e.Cards, "card"), listWords(ms))
	}},
	{model.Reveal, "reveals", nil},
	{model.CeaseToExist, "tokens ceasing to exist", objectView},
}

func eventsView(st model.Step, k model.EventKind, view func(model.Event) string) []string {
	if k == model.Reveal {
		// What was revealed, by whom: one event or several alike.
		seen := map[string]bool{}
		for _, e := range st.Events {
			if e.Kind == k {
				for _, id := range e.Revealed {
					seen[fmt.Sprintf("%s reveals %s", e.Player, id)] = true
				}
			}
		}
		return slices.Sorted(maps.Keys(seen))
	}
	var out []string
	for _, e := range st.Events {
		if e.Kind == k {
			out = append(out, view(e))
		}
	}
	slices.Sort(out)
	return out
}

// objectView shows an event by the object it is about.
func objectView(e model.Event) string { return string(e.Object) }
