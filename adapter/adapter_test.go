package adapter_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/adapter"
	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/reference"
)

func request(id int, name string) string {
	return `{"type":"run","id":` + string(rune('0'+id)) + `,"scenario":{"format":"mergecheck/scenario/v1","name":"` + name +
		`","catalogue":[],"objects":[],"start":{"active":"A","players":[{"id":"A","zones":{}},{"id":"B","zones":{}}]},"actions":[]}}` + "\n"
}

// serve runs Serve over the given input lines and returns every answer
// but the hello, decoded, by id, and what it logged.
func serve(t *testing.T, e adapter.Engine, lines ...string) (map[int64]map[string]any, string) {
	t.Helper()
	in := `{"type":"hello","protocol":"mergecheck/1"}` + "\n" + strings.Join(lines, "")
	var out, log bytes.Buffer
	require.NoError(t, adapter.Serve(context.Background(), strings.NewReader(in), &out, &log, e))
	sc := bufio.NewScanner(&out)
	require.True(t, sc.Scan())
	var hello protocol.HelloReply
	require.NoError(t, model.Unmarshal(sc.Bytes(), &hello))
	assert.Equal(t, protocol.Version, hello.Protocol)
	assert.Equal(t, e.Name, hello.Engine.Name)
	answers := map[int64]map[string]any{}
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "every answer is one line of JSON: %s", sc.Text())
		answers[int64(m["id"].(float64))] = m
	}
	return answers, log.String()
}

// TestServeAnswersEachKind: a trace, each kind of refusal, a panic as an
// internal error with its stack logged, and a malformed scenario as
// invalid, each under its request's id.
func TestServeAnswersEachKind(t *testing.T) {
	e := adapter.Engine{Name: "test", Version: "1", Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) {
		switch s.Name {
		case "trace":
			return reference.Run(s)
		case "unsupported":
			return nil, adapter.Unsupported("no %s", "mutate")
		case "diverge":
			return nil, adapter.Diverge(0, &model.Trace{Format: model.TraceFormat, Scenario: s.Name}, "p1 is gone")
		case "fail":
			return nil, errors.New("out of memory")
		}
		panic("boom")
	}}
	answers, log := serve(t, e, request(1, "trace"), request(2, "unsupported"), request(3, "diverge"), request(4, "fail"), request(5, "panic"),
		`{"type":"run","id":6,"scenario":{"format":3}}`+"\n", "not a request\n")
	require.Len(t, answers, 6)
	assert.Equal(t, "trace", answers[1]["type"])
	kind := func(id int64) string { return answers[id]["error"].(map[string]any)["kind"].(string) }
	assert.Equal(t, "unsupported", kind(2))
	assert.Equal(t, "diverged", kind(3))
	assert.Equal(t, float64(0), answers[3]["error"].(map[string]any)["action"])
	assert.Equal(t, "internal", kind(4))
	assert.Equal(t, "internal", kind(5))
	assert.Equal(t, "invalid", kind(6))
	assert.Contains(t, log, "the engine panicked on panic: boom")
	assert.Contains(t, log, "adapter_test.go", "the stack goes to the log")
	assert.Contains(t, log, "not a run request")
}

// TestServeRunsUpToMaxInFlight: with MaxInFlight 2, two requests are
// played at once and no more.
func TestServeRunsUpToMaxInFlight(t *testing.T) {
	var mu sync.Mutex
	running, most := 0, 0
	// The first two plays wait for each other (or a minute, should the
	// adapter never run two), so that they overlap however busy the
	// machine is; then each holds its slot a while for a third to try.
	two := make(chan struct{})
	release := sync.OnceFunc(func() { close(two) })
	e := adapter.Engine{Name: "slow", Version: "1", Capabilities: protocol.Capabilities{MaxInFlight: 2},
		Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) {
			mu.Lock()
			running++
			most = max(most, running)
			if running == 2 {
				release()
			}
			mu.Unlock()
			select {
			case <-two:
			case <-time.After(time.Minute):
			}
			time.Sleep(50 * time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
			return reference.Run(s)
		}}
	answers, _ := serve(t, e, request(1, "a"), request(2, "b"), request(3, "c"), request(4, "d"))
	assert.Len(t, answers, 4)
	assert.Equal(t, 2, most)
}

// TestServeOverPipes: a client on the other end of a pipe gets the hello,
// then for a run request the trace the engine played, whole.
func TestServeOverPipes(t *testing.T) {
	hin, aout := io.Pipe()
	ain, hout := io.Pipe()
	e := adapter.Engine{Name: "ref", Version: "1", Capabilities: protocol.Capabilities{Features: model.Features, Observers: model.Observers},
		Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) { return reference.Run(s) }}
	go func() {
		_ = adapter.Serve(context.Background(), ain, aout, io.Discard, e)
		aout.Close()
	}()
	enc := json.NewEncoder(hout)
	require.NoError(t, enc.Encode(protocol.Hello{Type: "hello", Protocol: protocol.Version}))
	sc := bufio.NewScanner(hin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	require.True(t, sc.Scan())
	s := scenarioFromExample(t)
	require.NoError(t, enc.Encode(protocol.RunRequest{Type: "run", ID: 1, Scenario: s}))
	require.True(t, sc.Scan())
	var reply protocol.TraceReply
	require.NoError(t, model.Unmarshal(sc.Bytes(), &reply))
	want, err := reference.Run(s)
	require.NoError(t, err)
	assert.Equal(t, want, reply.Trace)
	hout.Close()
}

func scenarioFromExample(t *testing.T) *model.Scenario {
	t.Helper()
	data := `{"format":"mergecheck/scenario/v1","name":"tap","catalogue":[{"name":"Grizzly Bears","layout":"normal","front":{"name":"Grizzly Bears","mana_cost":"{1}{G}","colors":["G"],"types":["creature"],"subtypes":["Bear"],"power":2,"toughness":2}}],` +
		`"objects":[{"id":"c1","def":"Grizzly Bears","owner":"A"}],"start":{"active":"A","players":[{"id":"A","zones":{}},{"id":"B","zones":{}}],"battlefield":[{"id":"p1","controller":"A","components":[{"object":"c1"}],"status":{},"timestamp":1}]},"actions":[{"type":"tap","object":"p1"}]}`
	s, err := model.DecodeScenario([]byte(data))
	require.NoError(t, err)
	return s
}

// TestServeDeclaresNoDirectSetup: an engine that says it can't start from
// merged stacks, in a plain field, is declared so in its hello; one that
// says nothing can.
func TestServeDeclaresNoDirectSetup(t *testing.T) {
	hello := func(e adapter.Engine) protocol.HelloReply {
		var out bytes.Buffer
		require.NoError(t, adapter.Serve(context.Background(), strings.NewReader(`{"type":"hello","protocol":"mergecheck/1"}`+"\n"), &out, io.Discard, e))
		var h protocol.HelloReply
		require.NoError(t, model.Unmarshal(bytes.TrimSpace(out.Bytes()), &h))
		return h
	}
	h := hello(adapter.Engine{Name: "cast-only", Version: "1", NoDirectSetup: true})
	require.NotNil(t, h.Capabilities.DirectSetup)
	assert.False(t, *h.Capabilities.DirectSetup)
	assert.Nil(t, hello(adapter.Engine{Name: "direct", Version: "1"}).Capabilities.DirectSetup)
}

// TestMain_ReturnsSoDeferredCleanupRuns: when the harness closes its
// input, Main returns rather than exit, so the deferred calls of the
// adapter's main run (before, Main called os.Exit(0) and they never did).
// The test runs itself as the adapter, in a child process.
func TestMain_ReturnsSoDeferredCleanupRuns(t *testing.T) {
	if marker := os.Getenv("ADAPTER_TEST_MARKER"); marker != "" {
		func() {
			defer os.WriteFile(marker, []byte("cleaned up"), 0o644)
			adapter.Main(adapter.Engine{Name: "child", Version: "1"})
		}()
		return
	}
	marker := filepath.Join(t.TempDir(), "marker")
	cmd := exec.Command(os.Args[0], "-test.run=^TestMain_ReturnsSoDeferredCleanupRuns$")
	cmd.Env = append(os.Environ(), "ADAPTER_TEST_MARKER="+marker)
	cmd.Stdin = strings.NewReader(`{"type":"hello","protocol":"mergecheck/1"}` + "\n")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	data, err := os.ReadFile(marker)
	require.NoError(t, err, "the adapter's deferred cleanup did not run:\n%s", out)
	assert.Equal(t, "cleaned up", string(data))
}

// TestEngine_IsAnEngineOfItsOwn: the Engine an adapter serves is an
// engine.Engine, declaring what its hello declares, and its answers mean
// what they mean over the protocol: Unsupported a refusal, Diverge a
// divergence with the steps played, Invalid, another error or a panic a
// fault.
func TestEngine_IsAnEngineOfItsOwn(t *testing.T) {
	steps := &model.Trace{Format: model.TraceFormat, Scenario: "diverge"}
	e := adapter.Engine{Name: "kit", Version: "2", NoDirectSetup: true,
		Capabilities: protocol.Capabilities{Features: []model.Feature{model.FeatureMutate}, PartialTraces: true},
		Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) {
			switch s.Name {
			case "unsupported":
				return nil, adapter.Unsupported("no %s", "meld")
			case "diverge":
				return nil, adapter.Diverge(1, steps, "p1 is gone")
			case "invalid":
				return nil, adapter.Invalid("no such card")
			case "panic":
				panic("boom")
			}
			return reference.Run(s)
		}}
	var _ engine.Engine = e
	info := e.Info()
	assert.Equal(t, engine.Info{Name: "kit", Version: "2", Features: []model.Feature{model.FeatureMutate}, PartialTraces: true, NoDirectSetup: true}, info)

	play := func(name string) (*model.Trace, error) {
		s := &model.Scenario{Format: model.ScenarioFormat, Name: name, Start: model.State{Active: "A", Players: []model.Player{{ID: "A"}, {ID: "B"}}}}
		return e.Run(context.Background(), s)
	}
	tr, err := play("trace")
	require.NoError(t, err)
	assert.Equal(t, "trace", tr.Scenario)
	_, err = play("unsupported")
	assert.ErrorIs(t, err, engine.ErrUnsupported)
	assert.ErrorContains(t, err, "no meld")
	_, err = play("diverge")
	var div *engine.Divergence
	require.ErrorAs(t, err, &div)
	assert.Equal(t, 1, div.Action)
	assert.Same(t, steps, div.Trace)
	for _, name := range []string{"invalid", "panic"} {
		_, err = play(name)
		require.Error(t, err, name)
		assert.NotErrorIs(t, err, engine.ErrUnsupported, name)
	}
}
