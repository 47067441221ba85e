package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
)

// judgeCmd judges traces an engine wrote elsewhere (its own test suite,
// game logs in the trace format) against the scenario they play, as
// replay judges an engine it drives: every property, the trace's own
// accounting, and the scenario's expectations.
func judgeCmd(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("judge", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage of judge: mergecheck judge [flags] SCENARIO TRACE...\n  judges each TRACE, written by an engine for SCENARIO in the trace format (docs/SCENARIO.md), as replay judges an engine it plays")
		fl.PrintDefaults()
	}
	partialTraces := fl.Bool("partial-traces", false, "the traces may leave out events other than observers' triggers, as an adapter declaring partial_traces")
	observerList := fl.String("observers", "", "comma-separated standard observers whose triggers the traces report (empty: all of them)")
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	if fl.NArg() < 2 {
		fmt.Fprintln(stderr, "mergecheck judge: name a scenario file and at least one trace file")
		return exitTrouble
	}
	info := harness.EngineInfo{Name: "recorded", Features: model.Features, PartialTraces: *partialTraces}
	if *observerList != "" {
		for _, o := range strings.Split(*observerList, ",") {
			o := model.Observer(strings.TrimSpace(o))
			if !slices.Contains(model.Observers, o) {
				fmt.Fprintf(stderr, "mergecheck judge: --observers: unknown observer %q (known: %v)\n", o, model.Observers)
				return exitTrouble
			}
			info.Observers = append(info.Observers, o)
		}
	}
	path := fl.Arg(0)
	s, err := loadScenario(path)
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck judge:", err)
		return exitTrouble
	}
	if _, left, err := playable(s); err != nil || len(left) > 0 {
		if err == nil {
			err = errors.New(strings.Join(left, "; "))
		}
		fmt.Fprintf(stderr, "mergecheck judge: %s: the reference engine can't play all of it, so it can't judge a trace of it: %v\n", path, err)
		return exitTrouble
	}
	var held, failed, trouble int
	for _, tracePath := range fl.Args()[1:] {
		tr, err := loadTrace(tracePath)
		if err == nil && tr.Scenario != s.Name {
			err = fmt.Errorf("%s: the trace is of scenario %q, not %q", tracePath, tr.Scenario, s.Name)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ERROR %v\n", err)
			trouble++
			continue
		}
		e := recorded{info: info, trace: tr}
		if tr.Engine != "" {
			e.info.Name = tr.Engine
		}
		got, problems, err := judgeScenario(context.Background(), e, s)
		if err != nil {
			fmt.Fprintf(stderr, "ERROR %s: %v\n", tracePath, err)
			trouble++
			continue
		}
		if err := errors.Join(append(problems, model.CheckExpectations(harness.Judgeable(s, info), got))...); err != nil {
			fmt.Fprintf(stdout, "FAIL  %s (%s)\n\t%s\n", s.Name, tracePath, strings.ReplaceAll(err.Error(), "\n", "\n\t"))
			failed++
			continue
		}
		held++
		fmt.Fprintf(stdout, "ok    %s (%s, %s, every property)\n", s.Name, tracePath, words.Count(len(s.Expect), "expectation"))
	}
	fmt.Fprintf(stdout, "%s: %d held, %d failed, %d could not be read\n", words.Count(fl.NArg()-1, "trace"), held, failed, trouble)
	return exitFor(trouble, failed)
}

func loadTrace(path string) (*model.Trace, error) { return load(path, model.DecodeTrace) }

// recorded is an engine that answers with a trace it was given: one an
// engine wrote elsewhere. A trace of fewer steps than the scenario has
// actions is the engine's divergence at the first action it lacks, as an
// adapter answers one.
type recorded struct {
	info  harness.EngineInfo
	trace *model.Trace
}

func (r recorded) Info() harness.EngineInfo { return r.info }

func (r recorded) Run(_ context.Context, s *model.Scenario) (*model.Trace, error) {
	if n := len(r.trace.Steps); n < len(s.Actions) {
		return nil, &harness.Divergence{Action: n, Reason: fmt.Sprintf("the trace ends after %s", words.Count(n, "action")), Trace: r.trace}
	}
	return r.trace, nil
}
