package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// explain prints a scenario's trace on the reference, step by step, with
// the rule behind each event; with --engine, the engine's trace beside it,
// each line the two differ on marked.
func explain(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("explain", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage of explain: mergecheck explain [--engine E] [--start-timeout D] FILE\n  prints FILE's trace on the reference engine, step by step, with the rule behind each event;\n  with --engine, the engine's trace beside it: '-' lines are the rules' alone, '+' lines the engine's alone")
		fl.PrintDefaults()
	}
	engineSpec := fl.String("engine", "", "an engine to explain beside the reference: mutant:NAME, lazy:NAME, or 'exec:COMMAND ARGS'")
	startTimeout := startTimeoutFlag(fl)
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	if err := positive("--start-timeout", *startTimeout); err != nil {
		fmt.Fprintln(stderr, "mergecheck explain:", err)
		return exitTrouble
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
	for _, d := range reference.DeclaredInert(s) {
		fmt.Fprintf(stdout, "  ability %s\n", d)
	}
	tr, runErr := reference.Run(s)
	if runErr == nil && *engineSpec != "" {
		return explainBeside(s, tr, *engineSpec, *startTimeout, stdout, stderr)
	}
	if tr != nil {
		fmt.Fprintln(stdout, "start:")
		printLines(stdout, battlefieldLines(tr.Start))
		for _, st := range tr.Steps {
			a := s.Actions[st.Action]
			fmt.Fprintf(stdout, "action %d: %s\n", st.Action, describeAction(a))
			printLines(stdout, eventLines(st.Events))
			printLines(stdout, battlefieldLines(st.State))
		}
	}
	if runErr != nil {
		fmt.Fprintln(stdout, "stopped:", runErr)
		return exitTrouble
	}
	return exitOK
}

// explainBeside prints the rules' trace of s and the engine's, step by
// step, marking what only one of them has, then what the engine's trace
// breaks, as replay judges it. It exits 1 when the engine departs.
func explainBeside(s *model.Scenario, rules *model.Trace, spec string, start time.Duration, stdout, stderr io.Writer) int {
	// Signals end it from here on, the adapter's handshake included.
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	e, err := openEngine(ctx, spec, start)
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck explain:", err)
		return exitTrouble
	}
	if c, ok := e.(io.Closer); ok {
		defer c.Close()
	}
	got, problems, err := judgeScenario(ctx, e, s)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "mergecheck explain: interrupted")
		return exitTrouble
	}
	if err != nil && got == nil {
		fmt.Fprintf(stderr, "mergecheck explain: engine %s: %v\n", e.Info().Name, err)
		return exitTrouble
	}
	fmt.Fprintf(stdout, "the rules (-) beside engine %s (+); unmarked lines are the same\n", e.Info().Name)
	same := printDiff(stdout, battlefieldLines(rules.Start), battlefieldLines(got.Start), "start:")
	for i, st := range rules.Steps {
		header := fmt.Sprintf("action %d: %s", i, describeAction(s.Actions[i]))
		want := append(eventLines(st.Events), battlefieldLines(st.State)...)
		if i >= len(got.Steps) {
			fmt.Fprintln(stdout, header)
			fmt.Fprintln(stdout, "+   the engine did not play it")
			same = false
			continue
		}
		g := got.Steps[i]
		same = printDiff(stdout, want, append(eventLines(g.Events), battlefieldLines(g.State)...), header) && same
	}
	if got != nil && err == nil {
		problems = append(problems, model.CheckExpectations(harness.Judgeable(s, e.Info()), got))
	}
	if err := errors.Join(append(problems, err)...); err != nil {
		fmt.Fprintf(stdout, "judged as replay judges it:\n  %s\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return exitFailed
	}
	if !same {
		return exitFailed
	}
	fmt.Fprintln(stdout, "the engine's trace is the rules'")
	return exitOK
}

// printDiff prints header, then the lines of want and got in one list:
// a line both have unmarked, one only want has after "-", one only got
// has after "+" (a longest common subsequence keeps the order). It
// reports whether the two are the same.
func printDiff(w io.Writer, want, got []string, header string) bool {
	fmt.Fprintln(w, header)
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if plainLine(want[i]) == plainLine(got[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	same := true
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && plainLine(want[i]) == plainLine(got[j]):
			fmt.Fprintf(w, "    %s\n", want[i])
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(w, "+   %s\n", got[j])
			j, same = j+1, false
		default:
			fmt.Fprintf(w, "-   %s\n", want[i])
			i, same = i+1, false
		}
	}
	return same
}

// plainLine is a line without its rule citation, which an engine need not
// give: lines that differ only there are the same.
func plainLine(line string) string {
	if k := strings.Index(line, "  [CR "); k >= 0 {
		return line[:k]
	}
	return line
}

// eventLines are events in words, one a line (words.Event).
func eventLines(events []model.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = words.Event(e)
	}
	return out
}

func printLines(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", l)
	}
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

func battlefieldLines(st model.State) []string {
	var out []string
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
		out = append(out, fmt.Sprintf("  %s %s%s [%s] %s, controller %s", p.ID, name, pt, strings.Join(comps, " "), words.Status(p.Status), p.Controller))
	}
	for _, pl := range st.Players {
		for _, z := range []model.Zone{model.Library, model.Hand, model.Graveyard, model.Exile, model.Command} {
			if ids, _ := pl.Zones.Get(z); len(ids) > 0 {
				out = append(out, fmt.Sprintf("  %s's %s: %v", pl.ID, z, ids))
			}
		}
	}
	return out
}
