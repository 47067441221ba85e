package protocol_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/jsonschema"
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

// replySeeds are answer lines, good and bad, for the fuzz tests and the
// table of strict refusals.
var replySeeds = []string{
	`{"type":"trace","id":1,"trace":{"format":"mergecheck/trace/v1","scenario":"s","engine":"e","start":{"active":"A","players":[{"id":"A","zones":{}},{"id":"B","zones":{}}]},"steps":[]}}`,
	`{"type":"error","id":2,"error":{"kind":"unsupported","message":"no"}}`,
	`{"type":"error","id":3,"error":{"kind":"diverged","action":0,"message":"gone","trace":{"format":"mergecheck/trace/v1"}}}`,
	`{"type":"trace","id":4,"trace":null}`,
	`{"type":"hello"}`, `[]`, `{`, ``, `{"id":1e400}`,
	`{"type":"internal","id":5,"type":"unsupported"}`,
	`{"type":"error","id":6,"error":{"kind":"internal","message":"x","kind":"unsupported"}}`,
	`{"type":"error","id":7,"error":{"kind":"unsupported","message":"no"}} garbage`,
	"{\"type\":\"error\",\"id\":8,\"error\":{\"kind\":\"unsupported\",\"message\":\"no\"}}\x00",
	`{"type":"error","id":9,"error":{"kind":"unsupported","message":"no"}}{"type":"error","id":9,"error":{"kind":"unsupported","message":"no"}}`,
	`{"Type":"error","id":10,"error":{"kind":"unsupported","message":"no"}}`,
	`{"type":"error","id":11,"eror":{"kind":"unsupported","message":"no"}}`,
	`{"type":"trace","id":12,"trace":{"format":"mergecheck/trace/v1","format":"mergecheck/trace/v1","scenario":"s","engine":"e","start":{"active":"A","players":[]},"steps":[]}}`,
}

// FuzzDecodeReply: no line an adapter writes makes the harness's answer
// decoding panic; a line read as a trace answer in one pass holds a trace
// of the format; and the one-pass decoding accepts and refuses exactly the
// lines the strict envelope decoding does (unknown and duplicate keys,
// data after the value), with the same type and id.
func FuzzDecodeReply(f *testing.F) {
	for _, seed := range replySeeds {
		f.Add([]byte(seed))
	}
	memo := model.NewMemo()
	f.Fuzz(func(t *testing.T, line []byte) {
		rep, err := protocol.DecodeReply(memo, line)
		env, envErr := protocol.DecodeEnvelope(line)
		if (err == nil) != (envErr == nil) {
			t.Fatalf("%q: the one-pass decoding says %v, the strict envelope %v", line, err, envErr)
		}
		if err != nil {
			return
		}
		if rep.Type != env.Type || rep.ID != env.ID {
			t.Fatalf("%q: the passes read type %q id %d and type %q id %d", line, rep.Type, rep.ID, env.Type, env.ID)
		}
		if rep.Trace != nil && rep.Trace.Format != model.TraceFormat {
			t.Fatalf("a trace answer decoded in one pass has format %q", rep.Trace.Format)
		}
	})
}

// TestDecodeReply_Strict: an answer line is exactly one protocol message:
// a key given twice (anywhere), a key unknown or spelt in another case,
// or anything after the value is refused, naming it.
func TestDecodeReply_Strict(t *testing.T) {
	for _, tt := range []struct {
		line, want string
	}{
		{replySeeds[9], `a key given twice: "type"`},
		{replySeeds[10], `a key given twice: "kind" within "/error"`},
		{replySeeds[11], "invalid character 'g' after the JSON value"},
		{replySeeds[12], `invalid character '\x00' after the JSON value`},
		{replySeeds[13], "invalid character '{' after the JSON value"},
		{replySeeds[14], `unknown key "Type"`},
		{replySeeds[15], `unknown key "eror"`},
		{replySeeds[16], `a key given twice: "format" within "/trace"`},
	} {
		_, err := protocol.DecodeReply(model.NewMemo(), []byte(tt.line))
		if assert.Error(t, err, tt.line) {
			assert.Contains(t, err.Error(), tt.want, tt.line)
		}
	}
	rep, err := protocol.DecodeReply(model.NewMemo(), []byte(replySeeds[1]))
	require.NoError(t, err)
	assert.Equal(t, "unsupported", rep.Error.Kind)
}

// TestDecodeHello_Strict: the hello is read as strictly as an answer, and
// its values checked: a misspelt key, a key the schema requires left out,
// or a max_in_flight below 1 is an error that names it, so that an engine that declared nothing by a typo
// is never judged on nothing.
func TestDecodeHello_Strict(t *testing.T) {
	good := `{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"features":["mutate"]}}`
	h, err := protocol.DecodeHello([]byte(good))
	require.NoError(t, err)
	assert.Equal(t, []model.Feature{model.FeatureMutate}, h.Capabilities.Features)
	for _, tt := range []struct{ line, want string }{
		{`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilites":{"features":["mutate"]}}`, `unknown key "capabilites"`},
		{`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"feature":["mutate"]}}`, `unknown key "feature"`},
		{`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"features":[],"max_in_flight":-7}}`, "max_in_flight is -7"},
		{`{"type":"hullo","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"features":[]}}`, `type is "hullo"`},
		{`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"features":[],"max_in_flight":0}}`, "max_in_flight is 0"},
		{`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{}}`, "no capabilities.features"},
		{`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e"},"capabilities":{"features":[]}}`, "no engine.version"},
		{`{"type":"hello","protocol":"mergecheck/1","capabilities":{"features":[]}}`, "no engine"},
		{`{"type":"hello","engine":{"name":"e","version":"1"},"capabilities":{"features":[]}}`, "no protocol"},
		{good + ` {}`, "after the JSON value"},
	} {
		_, err := protocol.DecodeHello([]byte(tt.line))
		if assert.Error(t, err, tt.line) {
			assert.Contains(t, err.Error(), tt.want, tt.line)
		}
	}
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

// FuzzDecodeHello_NeverTakesWhatTheSchemaRefuses: a hello that
// DecodeHello and CheckCapabilities take conforms to the published schema
// (docs/protocol/hello.response.schema.json), and no line makes them
// panic. The schema can't see a key given twice, which the decoder
// refuses on its own (TestDecodeHello_Strict).
func FuzzDecodeHello_NeverTakesWhatTheSchemaRefuses(f *testing.F) {
	data, err := os.ReadFile("../docs/protocol/hello.response.schema.json")
	require.NoError(f, err)
	schema, err := jsonschema.Parse(data)
	require.NoError(f, err)
	for _, seed := range []string{
		`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"features":["mutate","face_down"],"observers":null,"partial_traces":true,"direct_setup":false,"max_in_flight":4}}`,
		`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"features":[],"observers":["mutates"]}}`,
		`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilities":{"features":["mutat"],"max_in_flight":0}}`,
		`{"type":"hello","protocol":"mergecheck/1","engine":{"name":"e","version":"1"},"capabilites":{"features":[]}}`,
		`{"type":"hello","protocol":2,"engine":{"name":"e","version":"1"},"capabilities":{"features":[],"observers":[null]}}`,
		`{"type":"hello"}`, `{`, ``, `null`, `[]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		h, err := protocol.DecodeHello(line)
		if err != nil || protocol.CheckCapabilities(&h.Capabilities) != nil {
			return
		}
		doc, err := jsonschema.Parse(line)
		if err != nil {
			t.Fatalf("%q: taken as a hello, yet not JSON: %v", line, err)
		}
		if errs := jsonschema.Validate(schema, doc); len(errs) > 0 {
			t.Fatalf("%q: taken as a hello, yet the schema refuses it: %v", line, errs)
		}
	})
}
