package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/adapter"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/declared"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/reference"
)

// serve is the reference engine (or one of its mutants) as an adapter: it
// speaks the protocol on standard input and output (docs/PROTOCOL.md), so
// the protocol path can be checked against known answers and vendors have
// a working peer to compare with.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	mutant := fl.String("mutant", "", "serve this mutant of the reference engine instead")
	lazyName := fl.String("lazy", "", "serve this lazy engine instead (reference.Lazies: "+reference.LazyNames()+")")
	inFlight := fl.Int("max-in-flight", 4, "requests answered at once (answers may come out of order)")
	plain := fl.Bool("plain", false, "write traces as an engine that knows nothing of the rules' numbers: no rule on events, no \"by\" on moves, timestamps and set-valued characteristics in its own order")
	noSetup := fl.Bool("no-direct-setup", false, "declare that the engine can't start from merged stacks, and refuse scenarios that do")
	featureList := fl.String("features", "", "declare only these features (comma-separated, shorthands allowed, e.g. 'mutate,merge'), and refuse scenarios that use others, as a partial engine would (default: every feature; '\"\"' for none)")
	observerList := fl.String("observers", "", "declare only these observers (comma-separated), and leave the others' triggers out of the traces (default: every observer; '\"\"' for none)")
	partial := fl.Bool("partial-traces", false, "declare partial traces, and leave zone changes, reveals and tokens ceasing to exist out of them")
	if err := parseFlags(fl, args); err != nil {
		return flagExit(err)
	}
	if err := positive("--max-in-flight", *inFlight); err != nil {
		fmt.Fprintln(stderr, "mergecheck serve:", err)
		return exitTrouble
	}
	var features []model.Feature
	if *featureList != "" && *featureList != `""` {
		var unknown []model.Feature
		features, unknown = model.ExpandFeatures(splitFeatures(*featureList))
		if len(unknown) > 0 {
			fmt.Fprintf(stderr, "mergecheck serve: --features: unknown feature %q (known: %v, and the shorthands %s)\n", unknown[0], model.Features, model.ShorthandList())
			return exitTrouble
		}
		if features == nil {
			features = []model.Feature{} // declares none
		}
	}
	var observers []model.Observer
	if *observerList != "" {
		observers = []model.Observer{}
		for _, o := range splitFeatures(*observerList) {
			if o == `""` {
				continue
			}
			if !slices.Contains(model.Observers, model.Observer(o)) {
				fmt.Fprintf(stderr, "mergecheck serve: --observers: unknown observer %q (known: %v)\n", o, model.Observers)
				return exitTrouble
			}
			observers = append(observers, model.Observer(o))
		}
	}
	if *featureList == `""` {
		features = []model.Feature{}
	}
	e, err := served(serving{mutant: *mutant, lazy: *lazyName, features: features, observers: observers, partial: *partial, noSetup: *noSetup, plain: *plain, inFlight: *inFlight})
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck serve:", err)
		return exitTrouble
	}
	if err := adapter.Serve(context.Background(), stdin, stdout, stderr, e); err != nil {
		fmt.Fprintln(stderr, "mergecheck serve:", err)
		return exitTrouble
	}
	return exitOK
}

// serving is what serve's flags ask it to serve.
type serving struct {
	mutant, lazy string
	features     []model.Feature  // nil for every feature
	observers    []model.Observer // nil for every observer
	partial      bool
	noSetup      bool
	plain        bool
	inFlight     int
}

// declaration is what the served engine declares.
func (c serving) declaration() declared.Declaration {
	return declared.Declaration{Features: c.features, Observers: c.observers, PartialTraces: c.partial, NoDirectSetup: c.noSetup}
}

// served is the engine serve speaks for: the reference, one of its
// mutants or one of its lazy engines, declaring and playing only what c
// asks. Tests check the same engine in-process, without the protocol.
func served(c serving) (adapter.Engine, error) {
	if c.mutant != "" {
		if err := reference.CheckMutant(c.mutant); err != nil {
			return adapter.Engine{}, err
		}
	}
	name := reference.Name
	play := func(s *model.Scenario) (*model.Trace, error) { return reference.RunMutant(s, c.mutant) }
	switch {
	case c.mutant != "" && c.lazy != "":
		return adapter.Engine{}, errors.New("--mutant and --lazy can't be served together")
	case c.mutant != "":
		name = "mutant:" + c.mutant
	case c.lazy != "":
		l := reference.FindLazy(c.lazy)
		if l == nil {
			return adapter.Engine{}, fmt.Errorf("unknown lazy engine %q; they are: %s", c.lazy, reference.LazyNames())
		}
		name = "lazy:" + c.lazy
		flakes := reference.NewFlakes(uint64(time.Now().UnixNano()))
		play = func(s *model.Scenario) (*model.Trace, error) { return l.Run(s, flakes.For(s)) }
	}
	buggy := c.mutant != "" || c.lazy != ""
	d := c.declaration()
	info := d.Info(name, reference.Version)
	observers := info.Observers
	if observers == nil {
		observers = model.Observers
	}
	caps := protocol.Capabilities{Features: info.Features, Observers: observers, PartialTraces: d.PartialTraces, MaxInFlight: c.inFlight}
	return adapter.Engine{
		Name: name, Version: reference.Version, Capabilities: caps, NoDirectSetup: c.noSetup,
		Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) {
			if why := d.Refusal(s); why != "" {
				return nil, adapter.Unsupported("%s", why)
			}
			t, err := answer(s, play, buggy)
			t = d.Trim(t)
			if c.plain {
				t = reference.Plain(t)
			}
			return t, err
		},
	}, nil
}

// splitFeatures splits a comma-separated list of feature names.
func splitFeatures(list string) []model.Feature {
	var out []model.Feature
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, model.Feature(f))
		}
	}
	return out
}

// answer plays s and says how, in the terms of package adapter: the
// trace, or the refusal of the kind the protocol names. A buggy engine (a
// mutant or a lazy one) that can't play an action as scripted diverged.
func answer(s *model.Scenario, play func(*model.Scenario) (*model.Trace, error), buggy bool) (*model.Trace, error) {
	t, err := play(s)
	if d := harness.DivergenceOf(t, err); d != nil && buggy {
		return nil, adapter.Diverge(d.Action, d.Trace, "%s", d.Reason)
	}
	switch {
	case errors.Is(err, reference.ErrUnsupported):
		return nil, adapter.Unsupported("%v", err)
	case errors.Is(err, reference.ErrInvalid):
		return nil, adapter.Invalid("%v", err)
	}
	return t, err
}
