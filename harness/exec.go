package harness

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/remote"
)

// ExecOptions tune an adapter process (see remote.Options).
type ExecOptions = remote.Options

// An AdapterError is an adapter's failure on one scenario (or at start),
// with the last lines it wrote to standard error (see remote.AdapterError).
type AdapterError = remote.AdapterError

// Exec is an Engine that runs an adapter process speaking the protocol,
// through package remote: a fault (exit, timeout, a line that is not
// protocol, a wrong id, a flood) is an AdapterError, and the next Run
// starts the adapter again. Close stops it for good.
type Exec struct {
	c      *remote.Client
	info   EngineInfo
	direct bool
}

// NewExec starts the adapter command (split into words like a shell
// would, with single and double quotes) and performs the handshake.
func NewExec(command string, opts ExecOptions) (*Exec, error) {
	return NewExecContext(context.Background(), command, opts)
}

// NewExecContext is NewExec, ended at once, the adapter's process group
// stopped, when ctx is (a signal during a slow handshake).
func NewExecContext(ctx context.Context, command string, opts ExecOptions) (*Exec, error) {
	c, err := remote.StartContext(ctx, command, opts)
	if err != nil {
		return nil, err
	}
	return wrap(c), nil
}

func wrap(c *remote.Client) *Exec {
	h := c.Hello()
	caps := h.Capabilities
	direct := caps.DirectSetup == nil || *caps.DirectSetup
	return &Exec{c: c, direct: direct, info: EngineInfo{Name: h.Engine.Name, Version: h.Engine.Version, Features: caps.Features,
		PartialTraces: caps.PartialTraces, Observers: slices.Clone(caps.Observers), NoDirectSetup: !direct}}
}

// Clone starts another process of the same adapter, for a parallel worker.
func (e *Exec) Clone() (Engine, error) { return e.CloneContext(context.Background()) }

// CloneContext is Clone, ended at once when ctx is (see ContextCloner).
func (e *Exec) CloneContext(ctx context.Context) (Engine, error) {
	c, err := e.c.CloneContext(ctx)
	if err != nil {
		return nil, err
	}
	return wrap(c), nil
}

// Ready starts the adapter again after a fault, within the handshake's
// time, so that a scenario's time limit starts after it (see Readier).
func (e *Exec) Ready(ctx context.Context) error { return e.c.Ready(ctx) }

// Info reports what the adapter declared in its handshake.
func (e *Exec) Info() EngineInfo { return e.info }

// Run sends s to the adapter and waits for its trace.
func (e *Exec) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	return e.RunEncoded(ctx, s, nil)
}

// RunEncoded is Run with s's encoding, when the caller has it (nil when
// not): see [EncodedRunner].
func (e *Exec) RunEncoded(ctx context.Context, s *model.Scenario, enc []byte) (*model.Trace, error) {
	if !e.direct && slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return len(p.Components) > 1 }) {
		return nil, fmt.Errorf("%w: the adapter can't set up merged stacks directly, and this scenario starts with one", ErrUnsupported)
	}
	if err := undeclared(e.info, s); err != nil {
		return nil, err // not worth a round trip
	}
	if enc == nil {
		enc = encode(s)
	}
	t, err := e.c.Run(ctx, enc)
	if r, ok := errors.AsType[*remote.Refusal](err); ok {
		if r.Kind == protocol.Diverged {
			return nil, &Divergence{Action: r.Action, Reason: r.Message, Trace: r.Trace}
		}
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, r.Message)
	}
	return t, err
}

// Close ends the adapter and the processes it started with it.
func (e *Exec) Close() error { return e.c.Close() }
