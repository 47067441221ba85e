// Package adapter turns a Go engine into a mergecheck adapter: the vendor
// writes one function from scenario to trace and declares what the engine
// does; Serve speaks the protocol (docs/PROTOCOL.md): the handshake, the
// request loop, up to MaxInFlight requests at once, error answers, and a
// panic in the engine turned into an "internal" answer with its stack on
// standard error.
//
//	func main() {
//		adapter.Main(adapter.Engine{
//			Name: "my-engine", Version: "1.2",
//			Capabilities: protocol.Capabilities{Features: []model.Feature{model.FeatureMutate, model.FeatureMerge}},
//			Play: play,
//		})
//	}
//
// Play answers with a trace, or with Unsupported (the engine lacks what
// the scenario needs; the case is not counted), with Diverge (its game
// went another way and an action can't be played; a finding), or with any
// other error (the engine failed: an engine fault).
package adapter

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
)

// Engine is what Serve needs: who the engine is, what it declares, and the
// function that plays a scenario. Play may be called concurrently, up to
// Capabilities.MaxInFlight at once.
type Engine struct {
	Name, Version string
	Capabilities  protocol.Capabilities
	// NoDirectSetup says the engine can't start from merged stacks in a
	// scenario's starting state: the harness then builds them by casting
	// mutating spells (Serve declares direct_setup false for it, which
	// Capabilities.DirectSetup, nil meaning true, says too).
	NoDirectSetup bool
	Play          func(ctx context.Context, s *model.Scenario) (*model.Trace, error)
}

// Info is what the engine declares, as the harness reads its hello: the
// same Engine value is an engine.Engine, so the engine an adapter serves
// is checked in process by enginetest.Run, without a wrapper.
func (e Engine) Info() engine.Info {
	caps := e.Capabilities
	return engine.Info{Name: e.Name, Version: e.Version, Features: slices.Clone(caps.Features), Observers: slices.Clone(caps.Observers),
		PartialTraces: caps.PartialTraces, NoDirectSetup: e.NoDirectSetup || caps.DirectSetup != nil && !*caps.DirectSetup}
}

// Run plays s with Play, and gives its answers the meaning they have over
// the protocol: Unsupported wraps engine.ErrUnsupported, Diverge is an
// *engine.Divergence, and Invalid, any other error or a panic is the
// engine failing (a fault).
func (e Engine) Run(ctx context.Context, s *model.Scenario) (t *model.Trace, err error) {
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("the engine panicked: %v\n%s", p, debug.Stack())
		}
	}()
	t, err = e.Play(ctx, s)
	var ae *Error
	switch {
	case errors.As(err, &ae) && ae.Kind == protocol.Unsupported:
		return nil, fmt.Errorf("%w: %s", engine.ErrUnsupported, ae.Reason)
	case errors.As(err, &ae) && ae.Kind == protocol.Diverged:
		return nil, &engine.Divergence{Action: ae.Action, Reason: ae.Reason, Trace: ae.Steps}
	case errors.As(err, &ae):
		return nil, fmt.Errorf("the engine answered an error of kind %s: %s", ae.Kind, ae.Reason)
	case err != nil:
		return nil, err
	case t == nil:
		return nil, errors.New("the engine returned no trace and no error")
	}
	return t, nil
}

// An Error is a refusal Play returns: Unsupported, Invalid or Diverge
// make one.
type Error struct {
	Kind   string // protocol.Unsupported, protocol.Invalid or protocol.Diverged
	Reason string
	Action int          // for a divergence: the action that can't be played
	Steps  *model.Trace // for a divergence: the steps before it
}

func (e *Error) Error() string { return e.Kind + ": " + e.Reason }

// Unsupported says the engine lacks something the scenario needs; name it.
func Unsupported(format string, args ...any) error {
	return &Error{Kind: protocol.Unsupported, Reason: fmt.Sprintf(format, args...)}
}

// Invalid says the scenario is malformed, as the engine reads it.
func Invalid(format string, args ...any) error {
	return &Error{Kind: protocol.Invalid, Reason: fmt.Sprintf(format, args...)}
}

// Diverge says the engine's game went another way than the scenario
// scripts, so action can't be played (the permanent it names is gone);
// steps is the trace of the actions before it.
func Diverge(action int, steps *model.Trace, format string, args ...any) error {
	return &Error{Kind: protocol.Diverged, Reason: fmt.Sprintf(format, args...), Action: action, Steps: steps}
}

// Main serves e on standard input and output until the harness closes
// the input, and returns, so that the deferred calls of the caller's main
// run as it ends. After an error of the protocol it exits with status 1
// (call Serve to clean up on that path too).
func Main(e Engine) {
	if err := Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr, e); err != nil {
		fmt.Fprintln(os.Stderr, "adapter:", err)
		os.Exit(1)
	}
}

// Serve answers the harness's hello on in with e's, then each run request
// with e.Play's answer, until in ends. Log lines (a panic's stack, lines
// that are not requests) go to log.
func Serve(ctx context.Context, in io.Reader, out io.Writer, log io.Writer, e Engine) error {
	r := bufio.NewReaderSize(in, 1<<20)
	first, err := r.ReadBytes('\n')
	if err != nil && len(first) == 0 {
		return fmt.Errorf("no hello from the harness: %w", err)
	}
	var hello protocol.Hello
	if err := model.Unmarshal(first, &hello); err != nil || hello.Type != "hello" {
		return fmt.Errorf("the harness's first line is not a hello: %.200q", first)
	}
	if hello.Protocol != protocol.Version {
		fmt.Fprintf(log, "adapter: the harness speaks %q, this adapter %q\n", hello.Protocol, protocol.Version)
	}
	caps := e.Capabilities
	caps.MaxInFlight = max(caps.MaxInFlight, 1)
	if e.NoDirectSetup {
		direct := false
		caps.DirectSetup = &direct
	}
	if caps.Features == nil {
		caps.Features = []model.Feature{}
	}
	w := &writer{out: out}
	if err := w.write(protocol.HelloReply{Type: "hello", Protocol: protocol.Version, Engine: protocol.EngineID{Name: e.Name, Version: e.Version}, Capabilities: caps}); err != nil {
		return err
	}
	memo := model.NewMemo()
	sem := make(chan struct{}, caps.MaxInFlight)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			id, s, derr := protocol.DecodeRequest(memo, line)
			reply := func() {
				if werr := w.write(answer(ctx, e, id, s, derr, log)); werr != nil {
					fmt.Fprintln(log, "adapter:", werr)
				}
			}
			switch {
			case errors.Is(derr, protocol.ErrNotARequest):
				fmt.Fprintf(log, "adapter: ignoring a line that is not a run request: %.200q\n", line)
			case caps.MaxInFlight == 1 || len(sem) == 0 && r.Buffered() == 0:
				// Nothing else in flight or waiting: answer here, sparing
				// a goroutine and the wake-ups between threads it costs.
				reply()
			default:
				sem <- struct{}{}
				wg.Add(1)
				go func() {
					defer func() { <-sem; wg.Done() }()
					reply()
				}()
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// answer plays one request and returns the message that answers it.
func answer(ctx context.Context, e Engine, id int64, s *model.Scenario, decodeErr error, log io.Writer) (reply any) {
	fail := func(kind, msg string) any {
		return protocol.ErrorReply{Type: "error", ID: id, Error: protocol.ErrorBody{Kind: kind, Message: msg}}
	}
	if decodeErr != nil {
		return fail(protocol.Invalid, decodeErr.Error())
	}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(log, "adapter: the engine panicked on %s: %v\n%s", s.Name, p, debug.Stack())
			reply = fail(protocol.Internal, fmt.Sprintf("the engine panicked: %v", p))
		}
	}()
	t, err := e.Play(ctx, s)
	var ae *Error
	switch {
	case errors.As(err, &ae) && ae.Kind == protocol.Diverged:
		action := ae.Action
		return protocol.ErrorReply{Type: "error", ID: id, Error: protocol.ErrorBody{Kind: protocol.Diverged, Message: ae.Reason, Action: &action, Trace: ae.Steps}}
	case errors.As(err, &ae):
		return fail(ae.Kind, ae.Reason)
	case err != nil:
		return fail(protocol.Internal, err.Error())
	case t == nil:
		return fail(protocol.Internal, "the engine returned no trace and no error")
	}
	return protocol.TraceReply{Type: "trace", ID: id, Trace: t}
}

// writer writes whole lines, one message at a time.
type writer struct {
	mu  sync.Mutex
	out io.Writer
}

func (w *writer) write(v any) error {
	line, err := protocol.Encode(v)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.out.Write(line)
	return err
}
