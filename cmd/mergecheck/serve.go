package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
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
	if err := fl.Parse(args); err != nil {
		return flagExit(err)
	}
	if err := positive("--max-in-flight", *inFlight); err != nil {
		fmt.Fprintln(stderr, "mergecheck serve:", err)
		return exitTrouble
	}
	if *mutant != "" && reference.FindMutant(*mutant) == nil {
		fmt.Fprintf(stderr, "mergecheck serve: unknown mutant %q\n", *mutant)
		return exitTrouble
	}
	name := reference.Name
	play := func(s *model.Scenario) (*model.Trace, error) { return reference.RunMutant(s, *mutant) }
	switch {
	case *mutant != "" && *lazyName != "":
		fmt.Fprintln(stderr, "mergecheck serve: --mutant and --lazy can't be served together")
		return exitTrouble
	case *mutant != "":
		name = "mutant:" + *mutant
	case *lazyName != "":
		l := reference.FindLazy(*lazyName)
		if l == nil {
			fmt.Fprintf(stderr, "mergecheck serve: unknown lazy engine %q; they are: %s\n", *lazyName, reference.LazyNames())
			return exitTrouble
		}
		name = "lazy:" + *lazyName
		flakes := reference.NewFlakes(uint64(time.Now().UnixNano()))
		play = func(s *model.Scenario) (*model.Trace, error) { return l.Run(s, flakes.For(s)) }
	}
	in := bufio.NewReaderSize(stdin, 1<<20)
	var wmu sync.Mutex
	write := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			fmt.Fprintln(stderr, "mergecheck serve:", err)
			return
		}
		wmu.Lock()
		defer wmu.Unlock()
		stdout.Write(append(b, '\n'))
	}
	first, err := in.ReadBytes('\n')
	if err != nil {
		fmt.Fprintln(stderr, "mergecheck serve: no hello:", err)
		return exitTrouble
	}
	var hello struct{ Type, Protocol string }
	if json.Unmarshal(first, &hello) != nil || hello.Type != "hello" {
		fmt.Fprintf(stderr, "mergecheck serve: the first line is not a hello: %.200q\n", first)
		return exitTrouble
	}
	if hello.Protocol != harness.Protocol {
		fmt.Fprintf(stderr, "mergecheck serve: the harness speaks %q, this adapter %q\n", hello.Protocol, harness.Protocol)
	}
	write(map[string]any{
		"type": "hello", "protocol": harness.Protocol,
		"engine": map[string]string{"name": name, "version": reference.Version},
		"capabilities": map[string]any{"features": model.Features, "observers": model.Observers,
			"partial_traces": false, "direct_setup": true, "max_in_flight": max(*inFlight, 1)},
	})
	sem := make(chan struct{}, max(*inFlight, 1))
	var wg sync.WaitGroup
	for {
		line, err := in.ReadBytes('\n')
		serveLine := func() {
			id, s, err := decodeRequest(line)
			if errors.Is(err, errNotARequest) {
				fmt.Fprintf(stderr, "mergecheck serve: ignoring a line that is not a run request: %.200q\n", line)
				return
			}
			write(answer(id, s, err, play, *mutant != "" || *lazyName != ""))
		}
		switch {
		case len(line) == 0:
		case *inFlight <= 1 || len(sem) == 0 && in.Buffered() == 0:
			// Nothing else in flight or waiting: answer here, sparing a
			// goroutine's start and the wake-ups between threads it
			// costs. Requests that come together are answered at once,
			// and may be answered out of order.
			serveLine()
		default:
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				serveLine()
			}()
		}
		if err != nil {
			break
		}
	}
	wg.Wait()
	return exitOK
}

var errNotARequest = errors.New("not a run request")

// memo remembers the card definitions of earlier requests: the harness
// sends the same few with every scenario.
var memo = model.NewMemo()

// decodeRequest reads a run request: its id and scenario, or the error
// that makes the scenario invalid, or errNotARequest. A well-formed
// request, the usual case, is decoded whole in one pass.
func decodeRequest(line []byte) (int64, *model.Scenario, error) {
	var whole struct {
		Type     string          `json:"type"`
		ID       int64           `json:"id"`
		Scenario *model.Scenario `json:"scenario"`
	}
	if memo.Unmarshal(line, &whole) == nil && whole.Type == "run" && whole.Scenario != nil {
		return whole.ID, whole.Scenario, nil
	}
	var req struct {
		Type     string          `json:"type"`
		ID       int64           `json:"id"`
		Scenario json.RawMessage `json:"scenario"`
	}
	if err := json.Unmarshal(line, &req); err != nil || req.Type != "run" {
		return 0, nil, errNotARequest
	}
	// The reference validates what it plays; validating here too would
	// do the work twice on every request.
	s, err := model.DecodeScenarioUnvalidated(req.Scenario)
	return req.ID, s, err
}

// answer plays s and returns the reply to request id: its trace, or the
// error of the kind the protocol names. A buggy engine (a mutant or a lazy
// one) that can't play an action as scripted answers that it diverged.
func answer(id int64, s *model.Scenario, decodeErr error, play func(*model.Scenario) (*model.Trace, error), buggy bool) any {
	fail := func(kind string, err error) any {
		return map[string]any{"type": "error", "id": id, "error": map[string]string{"kind": kind, "message": err.Error()}}
	}
	if decodeErr != nil {
		return fail("invalid", decodeErr)
	}
	t, err := play(s)
	if d := harness.DivergenceOf(t, err); d != nil && buggy {
		return map[string]any{"type": "error", "id": id, "error": map[string]any{"kind": "diverged", "action": d.Action, "message": d.Reason, "trace": d.Trace}}
	}
	switch {
	case errors.Is(err, reference.ErrUnsupported):
		return fail("unsupported", err)
	case errors.Is(err, reference.ErrInvalid):
		return fail("invalid", err)
	case err != nil:
		return fail("internal", err)
	}
	return map[string]any{"type": "trace", "id": id, "trace": t}
}
