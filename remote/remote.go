// Package remote runs an adapter process and speaks mergecheck's protocol
// to it (docs/PROTOCOL.md): the handshake, requests in flight up to what
// the adapter takes, answers matched to requests, and every way an
// adapter can fail (exit, hang, garbage, a wrong id, a flood) turned into
// an AdapterError while its process group is stopped and started again.
// The harness wraps a Client as an engine; the check loop and shrinking
// stay there.
package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
)

// Options tune an adapter process. The zero value means the defaults.
type Options struct {
	// Timeout bounds the handshake: starting the adapter and reading its
	// hello, at the start and at each restart after a fault. Each Run is
	// bounded by its context. Zero means DefaultHandshake.
	Timeout time.Duration
	// Harness names the harness in the hello message.
	Harness string
}

// DefaultHandshake is how long an adapter may take to start and say
// hello: an engine on a JVM, or any engine on a machine busy with other
// jobs, can take seconds, and a handshake cut short is reported as the
// adapter's fault.
const DefaultHandshake = 30 * time.Second

// An AdapterError is an adapter's failure on one scenario (or at start),
// with the last lines it wrote to standard error.
type AdapterError struct {
	// Kind names the kind of fault: "exit", "timeout", "garbage" (a line
	// that is not protocol), "id" (an answer to no waiting request),
	// "flood", "write", "invalid" or "internal" (the adapter's own error
	// answers), "start".
	Kind   string
	Err    error
	Stderr []string
	// Request is the id of the request it happened on, 0 if none: for
	// debugging an adapter, and kept out of Error so that results do not
	// depend on how requests were numbered.
	Request int64
}

func (e *AdapterError) Error() string {
	if len(e.Stderr) == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("%v (adapter stderr: %s)", e.Err, strings.Join(e.Stderr, " | "))
}

func (e *AdapterError) Unwrap() error { return e.Err }

// A Refusal is an adapter's well-formed answer that it did not play a
// scenario through: kind "unsupported" (it lacks something the scenario
// needs) or "diverged" (its game went another way at Action, with the
// trace of the steps before it).
type Refusal struct {
	Kind    string
	Message string
	Action  int
	Trace   *model.Trace
}

func (r *Refusal) Error() string { return r.Kind + ": " + r.Message }

// A Client is one adapter, started by a command: a fault stops the
// adapter's whole process group, and the next Run starts it again. Close
// stops it for good. It is safe for concurrent use.
type Client struct {
	argv   []string
	opts   Options
	hello  protocol.HelloReply
	sem    chan struct{}
	nextID atomic.Int64
	memo   *model.Memo // decodes the adapter's traces

	mu   sync.Mutex
	proc *adapterProc
}

// Start starts the adapter command (split into words like a shell would,
// with single and double quotes) and performs the handshake. The hello's
// features come back with their shorthands expanded
// (model.ExpandFeatures); a feature or observer mergecheck does not know
// is an error that names it.
func Start(command string, opts Options) (*Client, error) {
	return StartContext(context.Background(), command, opts)
}

// StartContext is Start, ended at once, the adapter's process group
// stopped, when ctx is (a signal during a slow handshake).
func StartContext(ctx context.Context, command string, opts Options) (*Client, error) {
	argv, err := splitWords(command)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New("exec: no command")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultHandshake
	}
	if opts.Harness == "" {
		opts.Harness = "mergecheck"
	}
	c := &Client{argv: argv, opts: opts, memo: model.NewMemo()}
	p, hello, err := c.start(ctx)
	if err != nil {
		return nil, err
	}
	c.hello = *hello
	c.sem = make(chan struct{}, max(1, hello.Capabilities.MaxInFlight))
	c.proc = p
	return c, nil
}

// Hello is what the adapter declared in its handshake.
func (c *Client) Hello() protocol.HelloReply { return c.hello }

// Clone starts another process of the same adapter.
func (c *Client) Clone() (*Client, error) {
	return c.CloneContext(context.Background())
}

// CloneContext is Clone, ended at once when ctx is.
func (c *Client) CloneContext(ctx context.Context) (*Client, error) {
	return StartContext(ctx, strings.Join(quoteAll(c.argv), " "), c.opts)
}

// Ready starts the adapter again if a fault stopped it, within the
// handshake's own time (Options.Timeout), and returns the error of a
// restart that failed; ctx ends the wait (a signal), not the restart's
// time. A caller that gives each scenario a time limit calls it first, so
// that a restart is never counted against the scenario after the fault.
func (c *Client) Ready(ctx context.Context) error {
	_, err := c.current(ctx)
	return err
}

func quoteAll(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}

// Run sends a scenario, encoded as protocol.EncodeScenario encodes it,
// and waits for the answer: a trace, a *Refusal, an *AdapterError, or the
// context's error while waiting for a free slot.
func (c *Client) Run(ctx context.Context, scenario []byte) (_ *model.Trace, err error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	p, err := c.current(ctx)
	if err != nil {
		return nil, err
	}
	id := c.nextID.Add(1)
	defer func() {
		if ae, ok := errors.AsType[*AdapterError](err); ok && ae.Request == 0 {
			ae.Request = id
		}
	}()
	ch := p.expect(id)
	line := make([]byte, 0, len(scenario)+48)
	line = append(line, `{"type":"run","id":`...)
	line = strconv.AppendInt(line, id, 10)
	line = append(line, `,"scenario":`...)
	line = append(line, scenario...)
	line = append(line, '}')
	if err := p.send(line); err != nil {
		// A write fails when the adapter has gone; the reader says how it
		// went (exit, garbage, ...) within a few seconds, which tells more
		// than the broken pipe.
		select {
		case <-p.dead:
			return nil, c.fault(p, "", p.err())
		case <-time.After(4 * time.Second):
		case <-ctx.Done():
		}
		return nil, c.fault(p, "write", fmt.Errorf("writing to the adapter: %w", err))
	}
	select {
	case r := <-ch:
		return c.answer(p, r)
	case <-p.dead:
		return nil, c.fault(p, "", p.err())
	case <-ctx.Done():
		return nil, c.fault(p, "timeout", fmt.Errorf("no answer to the request in time: %w", ctx.Err()))
	}
}

func (c *Client) answer(p *adapterProc, r protocol.Reply) (*model.Trace, error) {
	switch r.Type {
	case "trace":
		if r.Trace != nil {
			return r.Trace, nil
		}
		t, err := model.DecodeTrace(r.RawTrace)
		if err != nil {
			return nil, c.fault(p, "garbage", fmt.Errorf("the answer is not a valid trace: %w", err))
		}
		return t, nil
	case "error":
		if r.Error == nil {
			return nil, c.fault(p, "garbage", errors.New("the error answer has no error object"))
		}
		switch r.Error.Kind {
		case protocol.Unsupported:
			return nil, &Refusal{Kind: r.Error.Kind, Message: r.Error.Message}
		case protocol.Diverged:
			if r.Error.Action == nil {
				return nil, c.fault(p, "garbage", errors.New("the diverged answer names no action"))
			}
			t, err := model.DecodeTrace(r.Error.Trace)
			if err != nil {
				return nil, c.fault(p, "garbage", fmt.Errorf("the diverged answer has no valid trace of the steps played: %w", err))
			}
			return nil, &Refusal{Kind: r.Error.Kind, Message: r.Error.Message, Action: *r.Error.Action, Trace: t}
		case protocol.Invalid, protocol.Internal:
			return nil, &AdapterError{Kind: r.Error.Kind, Err: fmt.Errorf("the adapter answered an error of kind %s: %s", r.Error.Kind, r.Error.Message), Stderr: p.stderr.now()}
		}
		return nil, c.fault(p, "garbage", fmt.Errorf("the error answer has kind %q, want unsupported, diverged, invalid or internal", r.Error.Kind))
	}
	return nil, c.fault(p, "garbage", fmt.Errorf("the answer has type %q, want trace or error", r.Type))
}

// current returns the running adapter, starting it again after a fault.
func (c *Client) current(ctx context.Context) (*adapterProc, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc != nil {
		return c.proc, nil
	}
	p, hello, err := c.start(ctx)
	if err != nil {
		return nil, err
	}
	if hello.Engine != c.hello.Engine {
		p.kill()
		return nil, fmt.Errorf("exec: the adapter restarted as %s %s, not %s %s", hello.Engine.Name, hello.Engine.Version, c.hello.Engine.Name, c.hello.Engine.Version)
	}
	c.proc = p
	return p, nil
}

// fault stops the adapter's process group and wraps err with its stderr
// and its kind (the kind the adapter died of, when kind is empty).
func (c *Client) fault(p *adapterProc, kind string, err error) error {
	p.kill()
	c.mu.Lock()
	if c.proc == p {
		c.proc = nil
	}
	c.mu.Unlock()
	if kind == "" {
		kind = p.kind()
	}
	return &AdapterError{Kind: kind, Err: err, Stderr: p.stderr.lines()}
}

// Close ends the adapter: its standard input is closed, and a second later
// at most its process group is killed, the processes it started with it.
func (c *Client) Close() error {
	c.mu.Lock()
	p := c.proc
	c.proc = nil
	c.mu.Unlock()
	if p == nil {
		return nil
	}
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
	}
	// Whatever the adapter started goes with it: a `go run` or a shell
	// leaves children in its process group when it exits.
	p.kill()
	return nil
}

// start starts the adapter and reads its hello, within the handshake's
// time; when ctx ends first, the adapter's process group is stopped and
// the error says the handshake was interrupted.
func (c *Client) start(ctx context.Context) (*adapterProc, *protocol.HelloReply, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	// Our own pipes rather than cmd.StdoutPipe: Wait closes those as soon
	// as the process exits, racing the reader, which would then see "file
	// already closed" instead of the end of what the adapter wrote.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, nil, err
	}
	stderr, stderrW, err := os.Pipe()
	if err != nil {
		stdin.Close()
		stdout.Close()
		stdoutW.Close()
		return nil, nil, err
	}
	cmd.Stdout, cmd.Stderr = stdoutW, stderrW
	err = cmd.Start()
	stdoutW.Close() // the child holds its own copies
	stderrW.Close()
	if err != nil {
		stdin.Close()
		stdout.Close()
		stderr.Close()
		return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: starting %q: %w", strings.Join(c.argv, " "), err)}
	}
	p := &adapterProc{cmd: cmd, stdin: stdin, stderr: newTail(), pending: map[int64]chan protocol.Reply{}, memo: c.memo,
		dead: make(chan struct{}), exited: make(chan struct{})}
	go func() {
		defer stderr.Close()
		p.stderr.read(stderr)
	}()
	lines := make(chan []byte, 1)
	go func() {
		defer stdout.Close()
		p.read(bufio.NewReaderSize(stdout, 64<<10), lines)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
		p.die("exit", exited(p.waitErr))
		// A process the adapter started outside its group can hold our
		// pipes open after the adapter is gone; read what the adapter
		// itself wrote, then stop waiting for that process.
		grace := time.Now().Add(time.Second)
		_ = stdout.SetReadDeadline(grace)
		_ = stderr.SetReadDeadline(grace)
	}()
	greeting, _ := json.Marshal(protocol.Hello{Type: "hello", Protocol: protocol.Version, Harness: c.opts.Harness})
	if err := p.send(greeting); err != nil {
		// The adapter is likely gone already: how it ended says more than
		// the broken pipe.
		select {
		case <-p.exited:
			err = exited(p.waitErr)
		case <-time.After(time.Second):
		}
		p.kill()
		return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: sending hello: %w", err), Stderr: p.stderr.lines()}
	}
	var h protocol.HelloReply
	select {
	case line := <-lines:
		var err error
		if h, err = protocol.DecodeHello(line); err != nil {
			p.end(10 * time.Second)
			return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: the adapter's first line is not a hello message: %.200q: %v", line, err), Stderr: p.stderr.lines()}
		}
	case <-p.dead:
		return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: no hello from the adapter: %w", p.err()), Stderr: p.stderr.lines()}
	case <-time.After(c.opts.Timeout):
		p.kill()
		return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: no hello from the adapter within %v (--start-timeout)", c.opts.Timeout), Stderr: p.stderr.lines()}
	case <-ctx.Done():
		p.kill()
		return nil, nil, fmt.Errorf("exec: the handshake was stopped before the adapter said hello: %w", ctx.Err())
	}
	if h.Protocol != protocol.Version {
		p.kill()
		return nil, nil, fmt.Errorf("exec: the adapter speaks protocol %q; this mergecheck speaks %q", h.Protocol, protocol.Version)
	}
	if err := protocol.CheckCapabilities(&h.Capabilities); err != nil {
		p.kill()
		return nil, nil, fmt.Errorf("exec: %w", err)
	}
	if h.Engine.Name == "" {
		p.kill()
		return nil, nil, errors.New("exec: the adapter's hello names no engine")
	}
	return p, &h, nil
}
