package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/rules"
)

// explain prints a scenario's trace on the reference, step by step, with
// the rule behind each event.
func explain(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("explain", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage of explain: mergecheck explain FILE\n  prints FILE's trace on the reference engine, step by step, with the rule behind each event")
	}
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	args = fl.Args()
	if len(args) != 1 {
		fmt.Fprintln(stderr, "mergecheck explain: name exactly one scenario file")
		return exitTrouble
	}
	s, err := loadScenario(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck explain:", err)
		return exitTrouble
	}
	fmt.Fprintf(stdout, "scenario %s\n", s.Name)
	if s.Description != "" {
		fmt.Fprintf(stdout, "  %s\n", s.Description)
	}
	tr, runErr := reference.Run(s)
	if tr != nil {
		fmt.Fprintln(stdout, "start:")
		printBattlefield(stdout, tr.Start)
		for _, st := range tr.Steps {
			a := s.Actions[st.Action]
			fmt.Fprintf(stdout, "action %d: %s\n", st.Action, describeAction(a))
			for _, e := range st.Events {
				fmt.Fprintf(stdout, "  %s\n", describeEvent(e))
			}
			printBattlefield(stdout, st.State)
		}
	}
	if runErr != nil {
		fmt.Fprintln(stdout, "stopped:", runErr)
		return exitTrouble
	}
	return exitOK
}

func describeAction(a model.Action) string {
	parts := []string{string(a.Type)}
	for _, kv := range [][2]string{{"object", string(a.Object)}, {"target", string(a.Target)}, {"with", string(a.With)},
		{"card", string(a.Card)}, {"token", string(a.Token)}, {"source", string(a.Source)}, {"player", string(a.Player)},
		{"to", string(a.To)}, {"method", string(a.Method)}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	if !a.Choices.IsZero() {
		parts = append(parts, fmt.Sprintf("choices=%+v", describeChoices(a.Choices)))
	}
	return strings.Join(parts, " ")
}

func describeChoices(c model.Choices) string {
	var parts []string
	if c.Position != "" {
		parts = append(parts, "position="+string(c.Position))
	}
	if len(c.Order) > 0 {
		parts = append(parts, fmt.Sprintf("order=%v", c.Order))
	}
	if c.Replacement != "" {
		parts = append(parts, "replacement="+string(c.Replacement))
	}
	if c.CommandZone != nil {
		parts = append(parts, fmt.Sprintf("command_zone=%t", *c.CommandZone))
	}
	if c.May != nil {
		parts = append(parts, fmt.Sprintf("may=%t", *c.May))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func describeEvent(e model.Event) string {
	var b strings.Builder
	switch e.Kind {
	case model.ZoneChange:
		fmt.Fprintf(&b, "%s moves %s -> %s (%d object, %d cards)", e.Object, orDash(e.From), e.To, e.Objects, e.Cards)
		for _, m := range e.Moves {
			fmt.Fprintf(&b, "; %s to %s", m.Object, m.To)
			if m.By != "" {
				fmt.Fprintf(&b, " by %s", m.By)
			}
		}
	case model.Trigger:
		fmt.Fprintf(&b, "trigger %s for %s", e.Observer, e.Object)
		if e.Source != "" {
			fmt.Fprintf(&b, " (ability of %s)", e.Source)
		}
	case model.Reveal:
		fmt.Fprintf(&b, "%s reveals %v", e.Player, e.Revealed)
	case model.NothingHappens:
		fmt.Fprintf(&b, "nothing happens to %s", e.Object)
	case model.CeaseToExist:
		fmt.Fprintf(&b, "token %s ceases to exist", e.Object)
	case model.Merged:
		fmt.Fprintf(&b, "%s merges with %s", e.Source, e.Object)
	case model.StatusChange:
		fmt.Fprintf(&b, "%s changes", e.Object)
		if e.Status != nil {
			fmt.Fprintf(&b, " to %s", statusString(*e.Status))
		}
	default:
		fmt.Fprintf(&b, "%s %s", e.Kind, e.Object)
	}
	if e.Rule != "" {
		fmt.Fprintf(&b, "  [CR %s: %s]", e.Rule, rules.Summary(e.Rule))
	}
	return b.String()
}

func orDash(z model.Zone) string {
	if z == "" {
		return "-"
	}
	return string(z)
}

func statusString(s model.Status) string {
	var parts []string
	for _, f := range []struct {
		on         bool
		yes, other string
	}{{s.Tapped, "tapped", "untapped"}, {s.Flipped, "flipped", "unflipped"}, {s.FaceDown, "face down", "face up"}, {s.PhasedOut, "phased out", "phased in"}} {
		if f.on {
			parts = append(parts, f.yes)
		} else {
			parts = append(parts, f.other)
		}
	}
	return strings.Join(parts, ", ")
}

func printBattlefield(w io.Writer, st model.State) {
	for _, p := range st.Battlefield {
		var comps []string
		for _, c := range p.Components {
			s := string(c.Object)
			if c.Face == model.Back {
				s += "(back)"
			}
			if c.FaceDown {
				s += "(face down)"
			}
			comps = append(comps, s)
		}
		name := "?"
		pt := ""
		if d := p.Derived; d != nil {
			name = fmt.Sprintf("%q", d.Characteristics.Name)
			if d.Characteristics.Power != nil {
				pt = fmt.Sprintf(" %d/%d", *d.Characteristics.Power, *d.Characteristics.Toughness)
			}
			if d.Token {
				pt += " token"
			}
		}
		fmt.Fprintf(w, "    %s %s%s [%s] %s, controller %s\n", p.ID, name, pt, strings.Join(comps, " "), statusString(p.Status), p.Controller)
	}
	for _, pl := range st.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			if ids, _ := pl.Zones.Get(z); len(ids) > 0 {
				fmt.Fprintf(w, "    %s's %s: %v\n", pl.ID, z, ids)
			}
		}
	}
}
