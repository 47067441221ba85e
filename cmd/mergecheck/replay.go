package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/rules"
)

// load reads a scenario or trace file with decode, refusing one larger
// than a scenario may be before reading it; an error names the file.
func load[T any](path string, decode func([]byte) (T, error)) (T, error) {
	var zero T
	if info, err := os.Stat(path); err == nil && info.Size() > model.MaxScenarioBytes {
		return zero, fmt.Errorf("%s: %d bytes, more than one scenario, or a trace of one, takes (at most %d)", path, info.Size(), model.MaxScenarioBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return zero, err
	}
	v, err := decode(data)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

func loadScenario(path string) (*model.Scenario, error) { return load(path, model.DecodeScenario) }

func replay(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("replay", flag.ContinueOnError)
	fl.SetOutput(stderr)
	verbose := fl.Bool("v", false, "print every expectation checked")
	engine := fl.String("engine", "reference", "engine to play the scenarios: reference, mutant:NAME, or 'exec:COMMAND ARGS'")
	traceDir := fl.String("trace", "", "write each scenario's trace as NAME.trace.json into `DIR`")
	startTimeout := startTimeoutFlag(fl)
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	if err := positive("--start-timeout", *startTimeout); err != nil {
		fmt.Fprintln(stderr, "mergecheck replay:", err)
		return exitTrouble
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(stderr, "mergecheck replay: name at least one scenario file or directory")
		return exitTrouble
	}
	files, skipped, err := harness.ScenarioFiles(fl.Args())
	for _, s := range skipped {
		fmt.Fprintln(stderr, "SKIPPED", s)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck replay:", err)
		return exitTrouble
	}
	// Signals end the replay from here on, the adapter's handshake
	// included: its process group is stopped.
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	e, err := openEngine(ctx, *engine, *startTimeout)
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck replay:", err)
		return exitTrouble
	}
	if c, ok := e.(io.Closer); ok {
		defer c.Close()
	}
	var held, partial, failed, unsupported, trouble int
	for k, path := range files {
		if ctx.Err() != nil {
			fmt.Fprintf(stdout, "INTERRUPTED a signal stopped the replay after %d of %d scenarios\n", k, len(files))
			return exitTrouble
		}
		s, err := loadScenario(path)
		if err != nil {
			fmt.Fprintf(stderr, "ERROR %v\n", err)
			trouble++
			continue
		}
		// What the reference can play decides what is judged, whatever
		// the engine: a scenario it can't play judges no engine.
		s, left, err := playable(s)
		if err != nil {
			fmt.Fprintf(stderr, "ERROR %s: the reference engine can't play it, so it can't judge an engine: %v\n", path, err)
			trouble++
			continue
		}
		if lacks := e.Info().Lacks(reference.Uses(s)); len(lacks) > 0 {
			fmt.Fprintf(stdout, "UNSUPPORTED %s: it uses %v, which engine %s does not declare\n", path, lacks, e.Info().Name)
			unsupported++
			continue
		}
		var built string
		if played, err := harness.AsPlayed(e.Info(), s); err == nil && played != s {
			built = fmt.Sprintf(", its merged stacks built by %s before its own", words.Count(len(played.Actions)-len(s.Actions), "action"))
			s = played
		}
		tr, problems, err := judgeScenario(ctx, e, s)
		if ctx.Err() != nil {
			fmt.Fprintf(stdout, "INTERRUPTED a signal stopped the replay at %s, after %d of %d scenarios\n", path, k, len(files))
			return exitTrouble
		}
		if errors.Is(err, harness.ErrUnsupported) {
			fmt.Fprintf(stdout, "UNSUPPORTED %s: %v\n", path, err)
			unsupported++
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "ERROR %s: %v\n", path, err)
			trouble++
			continue
		}
		if *traceDir != "" {
			if err := writeAtomic(filepath.Join(*traceDir, s.Name+".trace.json"), tr); err != nil {
				fmt.Fprintln(stderr, "mergecheck replay:", err)
				return exitTrouble
			}
		}
		if err := errors.Join(append(problems, model.CheckExpectations(harness.Judgeable(s, e.Info()), tr))...); err != nil {
			fmt.Fprintf(stdout, "FAIL  %s (%s)\n\t%s\n", s.Name, path, strings.ReplaceAll(err.Error(), "\n", "\n\t"))
			failed++
			continue
		}
		if len(left) > 0 {
			partial++
			fmt.Fprintf(stdout, "PART  %s (%s): %s and %s hold; the reference could not play the rest:\n\t%s\n",
				s.Name, path, words.Count(len(s.Actions), "action"), words.Count(len(s.Expect), "expectation"), strings.Join(left, "\n\t"))
			continue
		}
		held++
		fmt.Fprintf(stdout, "ok    %s (%s, %s, every property%s)\n", s.Name, words.Count(len(s.Actions), "action"), words.Count(len(s.Expect), "expectation"), built)
		if *verbose {
			for _, e := range s.Expect {
				fmt.Fprintf(stdout, "\tafter action %d: %s\n", e.After, e.Why)
			}
			for _, r := range s.Rules {
				fmt.Fprintf(stdout, "\tCR %s: %s\n", r, rules.Summary(r))
			}
			for _, d := range reference.DeclaredInert(s) {
				fmt.Fprintf(stdout, "\tability %s\n", d)
			}
		}
	}
	fmt.Fprintf(stdout, "%s: %d held, %d held in part, %d failed, %d unsupported by the engine, %d could not be played\n", words.Count(len(files), "scenario"), held, partial, failed, unsupported, trouble)
	return exitFor(trouble, failed)
}

// exitFor is the exit status of a command that judged files one by one:
// trouble (a file that could not be read or played) before failures.
func exitFor(trouble, failed int) int {
	switch {
	case trouble > 0:
		return exitTrouble
	case failed > 0:
		return exitFailed
	}
	return exitOK
}

// writeAtomic writes v's stable encoding to path, whole or not at all.
func writeAtomic(path string, v any) error {
	data, err := model.Encode(v)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data)
}

// playable returns what the reference plays of s: s itself, or the part
// partOf leaves (with notes on what it left out), or the reference's error
// when it plays no part of s.
func playable(s *model.Scenario) (*model.Scenario, []string, error) {
	var left []string
	for range len(s.Start.Battlefield) + 2 {
		_, err := reference.Run(s)
		if err == nil {
			return s, left, nil
		}
		part, note := partOf(s, err)
		if part == nil {
			return nil, nil, err
		}
		s, left = part, append(left, note)
	}
	return nil, nil, errors.New("the reference refused every part of it")
}

// partOf returns the part of s still worth playing when the reference
// refuses s as unsupported, and a note on what it leaves out: the actions
// before the one refused, with the expectations about them; or, when the
// start state is refused for one permanent that nothing else names, s
// without that permanent. It returns nil when err is no such refusal.
func partOf(s *model.Scenario, err error) (*model.Scenario, string) {
	var ae *reference.ActionError
	if !errors.Is(err, reference.ErrUnsupported) || !errors.As(err, &ae) {
		return nil, ""
	}
	switch {
	case ae.Index > 0:
		return s.Prefix(ae.Index), fmt.Sprintf("action %d and after: %v", ae.Index, ae.Err)
	case ae.Index < 0 && ae.Permanent != "":
		rest, werr := s.Without(ae.Permanent)
		if werr != nil {
			return nil, ""
		}
		return rest, fmt.Sprintf("starting permanent %s and the claims about it: %v", ae.Permanent, ae.Err)
	}
	return nil, ""
}
