package reports

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
)

// Brief shows a scenario in a few lines, for a terminal: each starting
// permanent with its components (top first) and status, each non-empty
// zone, and each action in words (ActionWords). The scenario file and the JSON
// report hold it whole.
func Brief(s *model.Scenario) []string {
	name := func(id model.ObjectID) string {
		o := s.Object(id)
		if o == nil {
			return string(id)
		}
		out := fmt.Sprintf("%s %q", id, o.Def)
		if o.Token {
			out += " token"
		}
		if o.Commander {
			out += " commander"
		}
		return out
	}
	var out []string
	for _, p := range s.Start.Battlefield {
		var comps []string
		for _, c := range p.Components {
			comp := name(c.Object)
			if c.Face != "" && c.Face != model.Front {
				comp += " " + string(c.Face) + " face up"
			}
			if c.FaceDown {
				comp += " face down"
			}
			comps = append(comps, comp)
		}
		line := fmt.Sprintf("%s (%s): %s", p.ID, p.Controller, strings.Join(comps, ", "))
		if p.Status != (model.Status{}) {
			line += "; " + words.Status(p.Status)
		}
		if p.AttachedTo != "" {
			line += "; attached to " + string(p.AttachedTo)
		}
		out = append(out, line)
	}
	for _, pl := range s.Start.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			ids, _ := pl.Zones.Get(z)
			if len(ids) == 0 {
				continue
			}
			var names []string
			for _, id := range ids {
				names = append(names, name(id))
			}
			out = append(out, fmt.Sprintf("%s's %s: %s", pl.ID, z, strings.Join(names, ", ")))
		}
	}
	for i, a := range s.Actions {
		out = append(out, fmt.Sprintf("action %d: %s", i, ActionWords(a)))
	}
	return out
}

// ActionWords is an action in words, with every field it sets and the
// choices it scripts: "move p1 to graveyard, ordering c1, c2".
func ActionWords(a model.Action) string {
	w := strings.ReplaceAll(string(a.Type), "_", " ")
	add := func(label, v string) {
		if v != "" {
			if label != "" {
				w += " " + label
			}
			w += " " + v
		}
	}
	add("", string(a.Object))
	add("targeting", string(a.Target))
	add("with", string(a.With))
	add("card", string(a.Card))
	add("as token", string(a.Token))
	add("of", a.Def)
	add("from", string(a.Source))
	add("for player", string(a.Player))
	add("to", string(a.To))
	add("by", string(a.Method))
	if a.N != 0 || a.Counter != "" {
		add("", fmt.Sprintf("%d %s counters", a.N, a.Counter))
	}
	if a.Power != 0 || a.Toughness != 0 {
		add("", fmt.Sprintf("%+d/%+d", a.Power, a.Toughness))
	}
	for _, k := range slices.Sorted(maps.Keys(a.Counters)) {
		add("", fmt.Sprintf("%d %s counters", a.Counters[k], k))
	}
	if len(a.Gains) > 0 {
		var gains []string
		for _, g := range a.Gains {
			gains = append(gains, string(g))
		}
		add("gaining", strings.Join(gains, ", "))
	}
	c := a.Choices
	var chose []string
	if c.Position != "" {
		chose = append(chose, "on the "+string(c.Position))
	}
	if len(c.Order) > 0 {
		var ids []string
		for _, id := range c.Order {
			ids = append(ids, string(id))
		}
		chose = append(chose, "ordering "+strings.Join(ids, ", "))
	}
	if c.Replacement != "" {
		chose = append(chose, "applying "+string(c.Replacement)+"'s replacement")
	}
	if c.CommandZone != nil {
		chose = append(chose, map[bool]string{true: "to the command zone", false: "not to the command zone"}[*c.CommandZone])
	}
	if c.May != nil {
		chose = append(chose, map[bool]string{true: "choosing yes", false: "choosing no"}[*c.May])
	}
	if len(chose) > 0 {
		w += "; " + strings.Join(chose, "; ")
	}
	return w
}
