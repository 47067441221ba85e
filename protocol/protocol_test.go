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
