package reports

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// Brief shows a scenario in a few lines, for a terminal: each starting
// permanent with its components (top first) and status, each non-empty
// zone, and each action as its JSON. The scenario file and the JSON
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
		if st := statusWords(p.Status); st != "" {
			line += "; " + st
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
		b, _ := json.Marshal(a)
		out = append(out, fmt.Sprintf("action %d: %s", i, b))
	}
	return out
}

func statusWords(st model.Status) string {
	var out []string
	for _, f := range []struct {
		on   bool
		name string
	}{{st.Tapped, "tapped"}, {st.Flipped, "flipped"}, {st.FaceDown, "face down"}, {st.PhasedOut, "phased out"}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return strings.Join(out, ", ")
}
