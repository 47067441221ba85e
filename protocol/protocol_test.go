package protocol_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
)

const runLine = `{"type":"run","id":7,"scenario":{"format":"mergecheck/scenario/v1","name":"s","catalogue":[],"objects":[],"start":{"active":"A","players":[{"id":"A","zones":{}},{"id":"B","zones":{}}]},"actions":[]}}`

func TestDecodeRequest(t *testing.T) {
	memo := model.NewMemo()
	id, s, err := protocol.DecodeRequest(memo, []byte(runLine))
	require.NoError(t, err)
	assert.Equal(t, int64(7), id)
	assert.Equal(t, "s", s.Name)

	id, s, err = protocol.DecodeRequest(memo, []byte(`{"type":"run","id":8,"scenario":{"format":3}}`))
	assert.Equal(t, int64(8), id, "a bad scenario keeps its id, for the invalid answer")
	assert.Nil(t, s)
	assert.ErrorContains(t, err, "line 1")
	assert.NotContains(t, err.Error(), "8", "no request id in the message")

	_, _, err = protocol.DecodeRequest(memo, []byte(`{"type":"hello"}`))
	assert.True(t, errors.Is(err, protocol.ErrNotARequest))
}

func TestEncodeIsOneLine(t *testing.T) {
	line, err := protocol.Encode(protocol.ErrorReply{Type: "error", ID: 3, Error: protocol.ErrorBody{Kind: protocol.Unsupported, Message: "a\nb <c>"}})
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(line), "\n"))
	assert.True(t, strings.HasSuffix(string(line), "}\n"))
}

// FuzzDecodeRequest: no line sent to an adapter makes its request decoding
// panic; a request decoded without error has a scenario.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{runLine, `{"type":"run","id":2,"scenario":{"format":3}}`, `{"type":"run","id":3}`, `{"type":"hello"}`, `{`, ``, `null`} {
		f.Add([]byte(seed))
	}
	memo := model.NewMemo()
	f.Fuzz(func(t *testing.T, line []byte) {
		_, s, err := protocol.DecodeRequest(memo, line)
		if err == nil && s == nil {
			t.Fatal("a request decoded without error has no scenario")
		}
	})
}

// TestHelloSchemaListsEveryCapability: the published schema of the hello
// answer accepts exactly the features (with their shorthands) and the
// observers mergecheck knows.
func TestHelloSchemaListsEveryCapability(t *testing.T) {
	data, err := os.ReadFile("../docs/protocol/hello.response.schema.json")
	require.NoError(t, err)
	var schema struct {
		Properties struct {
			Capabilities struct {
				Properties struct {
					Features  struct{ Items struct{ Enum []string } }
					Observers struct{ Items struct{ Enum []string } }
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(data, &schema))
	caps := schema.Properties.Capabilities.Properties
	var features []string
	for _, f := range model.Features {
		features = append(features, string(f))
	}
	for short := range model.Shorthands {
		features = append(features, string(short))
	}
	assert.ElementsMatch(t, features, caps.Features.Items.Enum)
	var observers []string
	for _, o := range model.Observers {
		observers = append(observers, string(o))
	}
	assert.ElementsMatch(t, observers, caps.Observers.Items.Enum)
}

// FuzzDecodeReply: no line an adapter writes makes the harness's answer
// decoding panic, and a line read as a trace answer in one pass holds a
// trace of the format, as the slow path would have it.
func FuzzDecodeReply(f *testing.F) {
	for _, seed := range []string{
		`{"type":"trace","id":1,"trace":{"format":"mergecheck/trace/v1","scenario":"s","engine":"e","start":{"active":"A","players":[{"id":"A","zones":{}},{"id":"B","zones":{}}]},"steps":[]}}`,
		`{"type":"error","id":2,"error":{"kind":"unsupported","message":"no"}}`,
		`{"type":"error","id":3,"error":{"kind":"diverged","action":0,"message":"gone","trace":{"format":"mergecheck/trace/v1"}}}`,
		`{"type":"trace","id":4,"trace":null}`,
		`{"type":"hello"}`, `[]`, `{`, ``, `{"id":1e400}`,
	} {
		f.Add([]byte(seed))
	}
	memo := model.NewMemo()
	f.Fuzz(func(t *testing.T, line []byte) {
		rep, err := protocol.DecodeReply(memo, line)
		if err != nil {
			return
		}
		if rep.Trace != nil && rep.Trace.Format != model.TraceFormat {
			t.Fatalf("a trace answer decoded in one pass has format %q", rep.Trace.Format)
		}
	})
}

// TestDecodeReply: a trace answer comes back decoded; an error answer with
// its trace raw; a line with a key the protocol doesn't have is refused.
func TestDecodeReply(t *testing.T) {
	memo := model.NewMemo()
	rep, err := protocol.DecodeReply(memo, []byte(`{"type":"trace","id":1,"trace":{"format":"mergecheck/trace/v1","scenario":"s","start":{"active":"A","players":[]},"steps":[]}}`))
	require.NoError(t, err)
	require.NotNil(t, rep.Trace)
	assert.Equal(t, int64(1), rep.ID)
	rep, err = protocol.DecodeReply(memo, []byte(`{"type":"error","id":3,"error":{"kind":"diverged","action":0,"message":"gone","trace":{"format":"old"}}}`))
	require.NoError(t, err)
	assert.Nil(t, rep.Trace)
	assert.Equal(t, "diverged", rep.Error.Kind)
	assert.JSONEq(t, `{"format":"old"}`, string(rep.Error.Trace))
	_, err = protocol.DecodeReply(memo, []byte(`{"type":"trace","id":1,"trace":{},"extra":1}`))
	assert.ErrorContains(t, err, "extra")
}

// TestHelloObservers_NoneIsNotEvery: an adapter that reports no observer
// says so with an empty list, which survives encoding; one that leaves
// them out (nil) reports every one, as the docs say.
func TestHelloObservers_NoneIsNotEvery(t *testing.T) {
	for _, tt := range []struct {
		obs  []model.Observer
		want string
	}{
		{nil, `"observers":null`},
		{[]model.Observer{}, `"observers":[]`},
		{[]model.Observer{model.Mutates}, `"observers":["mutates"]`},
	} {
		b, err := json.Marshal(protocol.Capabilities{Features: model.Features, Observers: tt.obs})
		require.NoError(t, err)
		assert.Contains(t, string(b), tt.want)
		var back protocol.Capabilities
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, tt.obs == nil, back.Observers == nil, "nil (every observer) and empty (none) stay apart: %s", b)
		assert.Len(t, back.Observers, len(tt.obs))
	}
}
