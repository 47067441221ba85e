package remote

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
)

// maxLine is the longest line an adapter may write; a longer one is a
// fault, which also stops an adapter that floods its output.
const maxLine = 64 << 20

// adapterProc is one running adapter process.
type adapterProc struct {
	memo   *model.Memo
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tail
	wmu    sync.Mutex

	mu      sync.Mutex
	pending map[int64]chan protocol.Reply
	dead    chan struct{} // closed when the adapter faulted or exited
	deadErr error
	deadAs  string // the kind of fault it died of
	exited  chan struct{}
	waitErr error // how the process ended; set before exited is closed
	once    sync.Once
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
		rep, err := protocol.DecodeReply(p.memo, line)
		if err != nil {
			p.die("garbage", fmt.Errorf("the adapter wrote a line that is not a protocol message%s: %v: %.200q", aboutType(line), err, line))
			return
		}
		p.mu.Lock()
		ch, ok := p.pending[rep.ID]
		delete(p.pending, rep.ID)
		waiting := slices.Sorted(maps.Keys(p.pending))
		p.mu.Unlock()
		if !ok && rep.Type != "trace" && rep.Type != "error" {
			// Not an answer at all (a log line, say): no wrong id.
			p.die("garbage", fmt.Errorf("the adapter wrote a message of type %q, where an answer is of type trace or error (logs go to standard error)", rep.Type))
			return
		}
		if !ok {
			p.die("id", fmt.Errorf("the adapter answered an id no request is waiting for: %s", wrongID(rep.ID, waiting)))
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

func (p *adapterProc) expect(id int64) chan protocol.Reply {
	ch := make(chan protocol.Reply, 1)
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
// end closes the adapter's input, which a well-behaved adapter takes as
// the end of its work, and kills it if it has not exited within grace:
// what it wrote on standard error before it went is then all there, for
// the fault that ended it.
func (p *adapterProc) end(grace time.Duration) {
	_ = p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(grace):
	}
	p.kill()
}

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

// exited describes how an adapter process ended, from cmd.Wait's error.
func exited(err error) error {
	if err == nil {
		return errors.New("the adapter exited with status 0, before mergecheck had its answers")
	}
	return fmt.Errorf("the adapter exited: %w", err)
}

// aboutType names a type no answer has, on a line that is not protocol,
// read leniently (its first value) for the message's sake: "" when the
// line has none.
func aboutType(line []byte) string {
	var probe struct {
		Type *string `json:"type"`
	}
	if json.NewDecoder(bytes.NewReader(line)).Decode(&probe) != nil || probe.Type == nil || *probe.Type == "trace" || *probe.Type == "error" {
		return ""
	}
	return fmt.Sprintf(" (of type %q, where an answer is of type trace or error)", *probe.Type)
}

// wrongID says which id came, by how far it is from the first request
// waiting: request ids are the harness's numbering, which a report must
// not depend on (a run gives the same report at any parallelism), but
// "the request's id plus 1000" is the adapter's own mistake.
func wrongID(got int64, waiting []int64) string {
	switch {
	case len(waiting) == 0:
		return "it answered while no request was waiting"
	case got == 0:
		return "its answer has no id (or id 0, which no request has)"
	}
	d, sign := got-waiting[0], "plus"
	if d < 0 {
		d, sign = -d, "minus"
	}
	out := fmt.Sprintf("it answered the id of the request it was given %s %d", sign, d)
	if len(waiting) > 1 {
		out += fmt.Sprintf(" (the first of %d waiting)", len(waiting))
	}
	return out
}
