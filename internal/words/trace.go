package words

import (
	"fmt"
	"strings"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

// Status is a permanent's status (CR 110.5) in words: the statuses that
// hold, "tapped and face down", or "untapped, face up, phased in" when
// none does. Rules' messages, explain, the reports and a scenario's
// brief all say a status so.
func Status(st model.Status) string {
	var on []string
	for _, s := range []struct {
		on   bool
		name string
	}{{st.Tapped, "tapped"}, {st.Flipped, "flipped"}, {st.FaceDown, "face down"}, {st.PhasedOut, "phased out"}} {
		if s.on {
			on = append(on, s.name)
		}
	}
	if len(on) == 0 {
		return "untapped, face up, phased in"
	}
	return List(on)
}

// objectSentences say the events of one object each: "nothing happens
// to p1".
var objectSentences = map[model.EventKind]string{
	model.NothingHappens: "nothing happens to %s",
	model.CeaseToExist:   "token %s ceases to exist",
	model.NotAllowed:     "not allowed for %s",
	model.Attacks:        "%s attacks",
}

// Event is one event of a trace in words, on one line, with the rule
// behind it last: "p1 moves battlefield -> graveyard (1 object, 2
// cards); c1 to graveyard; c2 to graveyard  [CR 712.21: ...]". A field
// its kind's sentence does not say follows it in parentheses, so that two
// events that differ never read the same.
func Event(e model.Event) string {
	rest := e // what the sentence has not said
	rest.Kind, rest.Rule = "", ""
	var b strings.Builder
	switch e.Kind {
	case model.ZoneChange:
		fmt.Fprintf(&b, "%s moves %s -> %s", e.Object, orDash(e.From), orDash(e.To))
		if e.Objects != 0 || e.Cards != 0 {
			fmt.Fprintf(&b, " (%s, %s)", Count(e.Objects, "object"), Count(e.Cards, "card"))
		}
		for _, m := range e.Moves {
			b.WriteString("; " + placement(m))
		}
		rest.Object, rest.From, rest.To, rest.Objects, rest.Cards, rest.Moves = "", "", "", 0, 0, nil
	case model.Trigger:
		fmt.Fprintf(&b, "trigger %s for %s", e.Observer, e.Object)
		if e.Source != "" {
			fmt.Fprintf(&b, " (ability of %s)", e.Source)
		}
		rest.Observer, rest.Object, rest.Source = "", "", ""
	case model.Reveal:
		fmt.Fprintf(&b, "%s reveals %s", e.Player, List(e.Revealed))
		rest.Player, rest.Revealed = "", nil
	case model.Merged:
		fmt.Fprintf(&b, "%s merges with %s", e.Source, e.Object)
		rest.Source, rest.Object = "", ""
	case model.StatusChange:
		fmt.Fprintf(&b, "%s changes", e.Object)
		if e.Status != nil {
			b.WriteString(" to " + Status(*e.Status))
		}
		rest.Object, rest.Status = "", nil
	default:
		if f, ok := objectSentences[e.Kind]; ok {
			fmt.Fprintf(&b, f, e.Object)
			rest.Object = ""
		} else {
			b.WriteString(strings.ReplaceAll(string(e.Kind), "_", " "))
		}
	}
	if more := eventFields(rest); more != "" {
		b.WriteString(" (" + more + ")")
	}
	if e.Rule != "" {
		b.WriteString("  [CR " + string(e.Rule))
		if s := rules.Summary(e.Rule); s != "" {
			b.WriteString(": " + s)
		}
		b.WriteString("]")
	}
	return b.String()
}

// eventFields names each field of e that is set: "object p1, source c2".
func eventFields(e model.Event) string {
	var out []string
	add := func(name, v string) {
		if v != "" && v != "0" {
			out = append(out, name+" "+v)
		}
	}
	add("object", string(e.Object))
	add("from", string(e.From))
	add("to", string(e.To))
	add("objects", fmt.Sprint(e.Objects))
	add("cards", fmt.Sprint(e.Cards))
	for _, m := range e.Moves {
		add("move", placement(m))
	}
	add("observer", string(e.Observer))
	add("source", string(e.Source))
	add("player", string(e.Player))
	if len(e.Revealed) > 0 {
		add("revealing", List(e.Revealed))
	}
	if e.Status != nil {
		add("status", Status(*e.Status))
	}
	return strings.Join(out, ", ")
}

// placement is where one component went: "c1 to graveyard of A by p2".
func placement(m model.Placement) string {
	s := fmt.Sprintf("%s to %s", m.Object, m.To)
	if m.Owner != "" {
		s += " of " + string(m.Owner)
	}
	if m.By != "" {
		s += " by " + string(m.By)
	}
	return s
}

func orDash(z model.Zone) string {
	if z == "" {
		return "-"
	}
	return string(z)
}
