package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mergecheck/mergecheck/model"
)

// Protocol is the adapter protocol version this harness speaks
// (docs/PROTOCOL.md).
const Protocol = "mergecheck/1"

// maxLine is the longest line an adapter may write; a longer one is a
// fault, which also stops an adapter that floods its output.
const maxLine = 64 << 20

// ExecOptions tune an adapter process. The zero value means the defaults.
type ExecOptions struct {
	// Timeout bounds the handshake; each Run is bounded by its context.
	// Zero means 5s.
	Timeout time.Duration
	// Harness names the harness in the hello message.
	Harness string
}

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

// Exec is an Engine that runs an adapter process speaking the protocol.
// A fault (exit, timeout, a line that is not protocol, a wrong id, a
// flood) stops the adapter's whole process group; the next Run starts it
// again. Close stops it for good.
type Exec struct {
	argv   []string
	opts   ExecOptions
	info   EngineInfo
	direct bool
	sem    chan struct{}
	nextID atomic.Int64
	memo   *model.Memo // decodes the adapter's traces

	mu   sync.Mutex
	proc *adapterProc
}

// NewExec starts the adapter command (split into words like a shell
// would, with single and double quotes) and performs the handshake.
func NewExec(command string, opts ExecOptions) (*Exec, error) {
	argv, err := splitWords(command)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New("exec: no command")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	if opts.Harness == "" {
		opts.Harness = "mergecheck"
	}
	e := &Exec{argv: argv, opts: opts, memo: model.NewMemo()}
	p, hello, err := e.start()
	if err != nil {
		return nil, err
	}
	caps := hello.Capabilities
	info := EngineInfo{Name: hello.Engine.Name, Version: hello.Engine.Version, Features: caps.Features, PartialTraces: caps.PartialTraces,
		Observers: append([]model.Observer{}, caps.Observers...), NoDirectSetup: caps.DirectSetup != nil && !*caps.DirectSetup}
	e.info, e.direct = info, caps.DirectSetup == nil || *caps.DirectSetup
	inFlight := 1
	if caps.MaxInFlight > 1 {
		inFlight = caps.MaxInFlight
	}
	e.sem = make(chan struct{}, inFlight)
	e.proc = p
	return e, nil
}

// Clone starts another process of the same adapter, for a parallel worker.
func (e *Exec) Clone() (Engine, error) {
	return NewExec(strings.Join(quoteAll(e.argv), " "), e.opts)
}

func quoteAll(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}

// Info reports what the adapter declared in its handshake.
func (e *Exec) Info() EngineInfo { return e.info }

// Run sends s to the adapter and waits for its trace.
func (e *Exec) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	return e.run(ctx, s, nil)
}

// run is Run with s's encoding (see encode) when the caller has it.
func (e *Exec) run(ctx context.Context, s *model.Scenario, enc []byte) (_ *model.Trace, err error) {
	if !e.direct && slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return len(p.Components) > 1 }) {
		return nil, fmt.Errorf("%w: the adapter can't set up merged stacks directly, and this scenario starts with one", ErrUnsupported)
	}
	if err := undeclared(e.info, s); err != nil {
		return nil, err // not worth a round trip
	}
	select {
	case e.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-e.sem }()
	p, err := e.current()
	if err != nil {
		return nil, err
	}
	id := e.nextID.Add(1)
	defer func() {
		if ae, ok := errors.AsType[*AdapterError](err); ok && ae.Request == 0 {
			ae.Request = id
		}
	}()
	ch := p.expect(id)
	if enc == nil {
		enc = encode(s)
	}
	line := make([]byte, 0, len(enc)+48)
	line = append(line, `{"type":"run","id":`...)
	line = strconv.AppendInt(line, id, 10)
	line = append(line, `,"scenario":`...)
	line = append(line, enc...)
	line = append(line, '}')
	if err := p.send(line); err != nil {
		// A write fails when the adapter has gone; the reader says how it
		// went (exit, garbage, ...) within a few seconds, which tells more
		// than the broken pipe.
		select {
		case <-p.dead:
			return nil, e.fault(p, "", p.err())
		case <-time.After(4 * time.Second):
		case <-ctx.Done():
		}
		return nil, e.fault(p, "write", fmt.Errorf("writing to the adapter: %w", err))
	}
	select {
	case r := <-ch:
		return e.answer(p, id, r)
	case <-p.dead:
		return nil, e.fault(p, "", p.err())
	case <-ctx.Done():
		return nil, e.fault(p, "timeout", fmt.Errorf("no answer to the request in time: %w", ctx.Err()))
	}
}

func (e *Exec) answer(p *adapterProc, id int64, r reply) (*model.Trace, error) {
	switch r.Type {
	case "trace":
		if r.trace != nil {
			return r.trace, nil
		}
		t, err := model.DecodeTrace(r.Trace)
		if err != nil {
			return nil, e.fault(p, "garbage", fmt.Errorf("the answer is not a valid trace: %w", err))
		}
		return t, nil
	case "error":
		if r.Error == nil {
			return nil, e.fault(p, "garbage", errors.New("the error answer has no error object"))
		}
		switch r.Error.Kind {
		case "unsupported":
			return nil, fmt.Errorf("%w: %s", ErrUnsupported, r.Error.Message)
		case "diverged":
			if r.Error.Action == nil {
				return nil, e.fault(p, "garbage", errors.New("the diverged answer names no action"))
			}
			t, err := model.DecodeTrace(r.Error.Trace)
			if err != nil {
				return nil, e.fault(p, "garbage", fmt.Errorf("the diverged answer has no valid trace of the steps played: %w", err))
			}
			return nil, &Divergence{Action: *r.Error.Action, Reason: r.Error.Message, Trace: t}
		case "invalid", "internal":
			return nil, &AdapterError{Kind: r.Error.Kind, Err: fmt.Errorf("the adapter answered an error of kind %s: %s", r.Error.Kind, r.Error.Message), Stderr: p.stderr.now()}
		}
		return nil, e.fault(p, "garbage", fmt.Errorf("the error answer has kind %q, want unsupported, diverged, invalid or internal", r.Error.Kind))
	}
	return nil, e.fault(p, "garbage", fmt.Errorf("the answer has type %q, want trace or error", r.Type))
}

// current returns the running adapter, starting it again after a fault.
func (e *Exec) current() (*adapterProc, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.proc != nil {
		return e.proc, nil
	}
	p, hello, err := e.start()
	if err != nil {
		return nil, err
	}
	if hello.Engine.Name != e.info.Name || hello.Engine.Version != e.info.Version {
		p.kill()
		return nil, fmt.Errorf("exec: the adapter restarted as %s %s, not %s %s", hello.Engine.Name, hello.Engine.Version, e.info.Name, e.info.Version)
	}
	e.proc = p
	return p, nil
}

// fault stops the adapter's process group and wraps err with its stderr
// and its kind (the kind the adapter died of, when kind is empty).
func (e *Exec) fault(p *adapterProc, kind string, err error) error {
	p.kill()
	e.mu.Lock()
	if e.proc == p {
		e.proc = nil
	}
	e.mu.Unlock()
	if kind == "" {
		kind = p.kind()
	}
	return &AdapterError{Kind: kind, Err: err, Stderr: p.stderr.lines()}
}

// Close ends the adapter: its standard input is closed, and a second later
// at most its process group is killed, the processes it started with it.
func (e *Exec) Close() error {
	e.mu.Lock()
	p := e.proc
	e.proc = nil
	e.mu.Unlock()
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

type hello struct {
	Type     string `json:"type"`
	Protocol string `json:"protocol"`
	Engine   struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"engine"`
	Capabilities struct {
		Features      []model.Feature  `json:"features"`
		Observers     []model.Observer `json:"observers"`
		PartialTraces bool             `json:"partial_traces"`
		DirectSetup   *bool            `json:"direct_setup"`
		MaxInFlight   int              `json:"max_in_flight"`
	} `json:"capabilities"`
}

type reply struct {
	Type  string          `json:"type"`
	ID    int64           `json:"id"`
	Trace json.RawMessage `json:"trace"`
	Error *replyError     `json:"error"`
	trace *model.Trace    // decoded with the reply, when it is well-formed
}

type replyError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Action and Trace come with kind "diverged": the action the engine
	// could not play, and the trace of the steps before it.
	Action *int            `json:"action,omitempty"`
	Trace  json.RawMessage `json:"trace,omitempty"`
}

// decodeReply reads one answer. A well-formed trace answer, the usual
// case, is decoded whole in one pass; anything else is read as an
// envelope with the trace left raw, so that answer can say what is wrong
// with it.
func decodeReply(memo *model.Memo, line []byte) (reply, error) {
	var whole struct {
		Type  string       `json:"type"`
		ID    int64        `json:"id"`
		Trace *model.Trace `json:"trace"`
		Error *replyError  `json:"error"`
	}
	if memo.Unmarshal(line, &whole) == nil &&
		(whole.Type == "trace" && whole.Trace != nil && whole.Trace.Format == model.TraceFormat && whole.Error == nil ||
			whole.Type == "error" && whole.Trace == nil) {
		return reply{Type: whole.Type, ID: whole.ID, Error: whole.Error, trace: whole.Trace}, nil
	}
	var rep reply
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	err := dec.Decode(&rep)
	return rep, err
}

// adapterProc is one running adapter process.
type adapterProc struct {
	memo   *model.Memo
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tail
	wmu    sync.Mutex

	mu      sync.Mutex
	pending map[int64]chan reply
	dead    chan struct{} // closed when the adapter faulted or exited
	deadErr error
	deadAs  string // the kind of fault it died of
	exited  chan struct{}
	waitErr error // how the process ended; set before exited is closed
	once    sync.Once
}

func (e *Exec) start() (*adapterProc, *hello, error) {
	cmd := exec.Command(e.argv[0], e.argv[1:]...)
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
		return nil, nil, fmt.Errorf("exec: starting %q: %w", strings.Join(e.argv, " "), err)
	}
	p := &adapterProc{cmd: cmd, stdin: stdin, stderr: newTail(), pending: map[int64]chan reply{}, memo: e.memo,
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
	greeting, _ := json.Marshal(map[string]string{"type": "hello", "protocol": Protocol, "harness": e.opts.Harness})
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
	var h hello
	select {
	case line := <-lines:
		if err := json.Unmarshal(line, &h); err != nil || h.Type != "hello" {
			p.kill()
			return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: the adapter's first line is not a hello message: %.200q", line), Stderr: p.stderr.lines()}
		}
	case <-p.dead:
		return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: no hello from the adapter: %w", p.err()), Stderr: p.stderr.lines()}
	case <-time.After(e.opts.Timeout):
		p.kill()
		return nil, nil, &AdapterError{Kind: "start", Err: fmt.Errorf("exec: no hello from the adapter within %v", e.opts.Timeout), Stderr: p.stderr.lines()}
	}
	if h.Protocol != Protocol {
		p.kill()
		return nil, nil, fmt.Errorf("exec: the adapter speaks protocol %q; this mergecheck speaks %q", h.Protocol, Protocol)
	}
	var unknown []string
	features, unknownF := model.ExpandFeatures(h.Capabilities.Features)
	for _, f := range unknownF {
		unknown = append(unknown, string(f))
	}
	h.Capabilities.Features = features
	for _, o := range h.Capabilities.Observers {
		if !slices.Contains(model.Observers, o) {
			unknown = append(unknown, "observer "+string(o))
		}
	}
	if len(unknown) > 0 {
		p.kill()
		return nil, nil, fmt.Errorf("exec: the adapter declares capabilities mergecheck doesn't know: %s (known features: %v, and the shorthands face_down, double_faced, phasing)", strings.Join(unknown, ", "), model.Features)
	}
	if h.Engine.Name == "" {
		p.kill()
		return nil, nil, errors.New("exec: the adapter's hello names no engine")
	}
	return p, &h, nil
}

// read dispatches the adapter's lines: the first to the handshake, the
// rest to the requests waiting for them. Anything else is a fault.
func (p *adapterProc) read(r *bufio.Reader, first chan<- []byte) {
	for n := 0; ; n++ {
		line, err := readLine(r)
		if errors.Is(err, io.EOF) {
			// Report how it ended, if it ends soon: that says more than
			// the closed pipe.
			select {
			case <-p.exited:
				p.die("exit", exited(p.waitErr))
			case <-time.After(3 * time.Second):
				p.die("exit", errors.New("the adapter closed its standard output"))
			}
			return
		}
		if err != nil {
			p.die("flood", err)
			return
		}
		if n == 0 {
			first <- line
			continue
		}
		rep, err := decodeReply(p.memo, line)
		if err != nil {
			p.die("garbage", fmt.Errorf("the adapter wrote a line that is not a protocol message: %.200q", line))
			return
		}
		p.mu.Lock()
		ch, ok := p.pending[rep.ID]
		delete(p.pending, rep.ID)
		p.mu.Unlock()
		if !ok {
			p.die("id", errors.New("the adapter answered with an id no request is waiting for"))
			return
		}
		ch <- rep
	}
}

func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("the adapter wrote a line longer than %d MiB", maxLine>>20)
		}
		switch {
		case err == nil:
			return bytes.TrimRight(buf, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

func (p *adapterProc) expect(id int64) chan reply {
	ch := make(chan reply, 1)
	p.mu.Lock()
	p.pending[id] = ch
	p.mu.Unlock()
	return ch
}

func (p *adapterProc) send(line []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := p.stdin.Write(append(line, '\n'))
	return err
}

func (p *adapterProc) die(kind string, err error) {
	p.once.Do(func() {
		p.mu.Lock()
		p.deadErr, p.deadAs = err, kind
		p.mu.Unlock()
		close(p.dead)
		p.kill()
	})
}

func (p *adapterProc) kind() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.deadAs
}

func (p *adapterProc) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.deadErr
}

// kill stops the adapter's whole process group.
func (p *adapterProc) kill() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// tail keeps the last lines an adapter wrote to standard error.
type tail struct {
	mu   sync.Mutex
	buf  []string
	done chan struct{} // closed when standard error is at its end
}

func newTail() *tail { return &tail{done: make(chan struct{})} }

func (t *tail) read(r io.Reader) {
	defer close(t.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if len(line) > 300 {
			line = line[:300] + "..."
		}
		t.mu.Lock()
		t.buf = append(t.buf, line)
		if len(t.buf) > 20 {
			t.buf = t.buf[len(t.buf)-20:]
		}
		t.mu.Unlock()
	}
	_, _ = io.Copy(io.Discard, r)
}

// lines returns the last lines; for an adapter that has been stopped it
// first waits (briefly) for the rest of what it wrote to arrive.
func (t *tail) lines() []string {
	select {
	case <-t.done:
	case <-time.After(time.Second):
	}
	return t.now()
}

// now returns the last lines so far, for an adapter still running.
func (t *tail) now() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.buf)
}

// splitWords splits a command line into words, honouring single and
// double quotes and backslash escapes outside single quotes.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	esc := false
	for _, r := range s {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case r == '\\' && quote != '\'':
			esc, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || esc {
		return nil, fmt.Errorf("exec: unterminated quote or escape in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// withLists returns s with its required lists empty rather than null, as
// adapters in other languages expect.
func withLists(s *model.Scenario) *model.Scenario {
	c := *s
	if c.Catalogue == nil {
		c.Catalogue = []model.CardDef{}
	}
	if c.Objects == nil {
		c.Objects = []model.Object{}
	}
	if c.Actions == nil {
		c.Actions = []model.Action{}
	}
	return &c
}

// exited describes how an adapter process ended, from cmd.Wait's error.
func exited(err error) error {
	if err == nil {
		return errors.New("the adapter exited with status 0, before mergecheck had its answers")
	}
	return fmt.Errorf("the adapter exited: %w", err)
}
