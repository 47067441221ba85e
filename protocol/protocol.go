// Package protocol holds the messages of mergecheck's adapter protocol
// (docs/PROTOCOL.md) and their encoding: one JSON object per line, in
// each direction. The harness's client, `mergecheck serve` and package
// adapter all speak it through these types.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/mergecheck/mergecheck/model"
)

// Version is the protocol's name and version, sent in both hellos.
const Version = "mergecheck/1"

// Hello is the harness's first message.
type Hello struct {
	Type     string `json:"type"` // "hello"
	Protocol string `json:"protocol"`
	Harness  string `json:"harness,omitempty"`
}

// HelloReply is the adapter's answer to Hello: who it is and what it does.
type HelloReply struct {
	Type         string       `json:"type"` // "hello"
	Protocol     string       `json:"protocol"`
	Engine       EngineID     `json:"engine"`
	Capabilities Capabilities `json:"capabilities"`
}

// EngineID names an engine and its version.
type EngineID struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Capabilities are what an adapter declares it implements. A rule that
// needs a feature or observer not listed is reported unsupported.
type Capabilities struct {
	Features []model.Feature `json:"features"`
	// Observers are the standard observers the traces report: absent
	// (or null) means every one, an empty list none.
	Observers []model.Observer `json:"observers"`
	// PartialTraces says the traces may leave out events other than the
	// observers' triggers.
	PartialTraces bool `json:"partial_traces,omitempty"`
	// DirectSetup is false for an engine that can't start from merged
	// stacks; nil means true.
	DirectSetup *bool `json:"direct_setup,omitempty"`
	// MaxInFlight is how many requests the adapter takes at once (1 when
	// 0).
	MaxInFlight int `json:"max_in_flight,omitempty"`
}

// RunRequest asks the adapter to play a scenario.
type RunRequest struct {
	Type     string          `json:"type"` // "run"
	ID       int64           `json:"id"`
	Scenario *model.Scenario `json:"scenario"`
}

// TraceReply answers a RunRequest with the trace of the scenario.
type TraceReply struct {
	Type  string       `json:"type"` // "trace"
	ID    int64        `json:"id"`
	Trace *model.Trace `json:"trace"`
}

// ErrorReply answers a RunRequest the adapter did not play through.
type ErrorReply struct {
	Type  string    `json:"type"` // "error"
	ID    int64     `json:"id"`
	Error ErrorBody `json:"error"`
}

// The kinds of ErrorBody.
const (
	Unsupported = "unsupported" // the engine lacks something the scenario needs
	Diverged    = "diverged"    // the engine's game went another way: Action can't be played
	Invalid     = "invalid"     // the scenario is malformed, as the engine sees it
	Internal    = "internal"    // the engine failed
)

// ErrorBody says why a scenario was not played through.
type ErrorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Action and Trace come with kind "diverged": the action the engine
	// could not play, and the trace of the steps before it.
	Action *int         `json:"action,omitempty"`
	Trace  *model.Trace `json:"trace,omitempty"`
}

// Encode writes one message as a line: compact JSON, no HTML escaping,
// ending in a newline. (model.Encode indents, which a line protocol can't
// carry.)
func Encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ErrNotARequest is returned by DecodeRequest for a line that is not a
// run request at all.
var ErrNotARequest = errors.New("not a run request")

// DecodeRequest reads a run request: its id and scenario. A line that is
// not a run request gives ErrNotARequest; a request whose scenario does
// not decode gives its id and the error, so that the answer can say
// "invalid". The scenario is not validated: the engine that plays it
// does that.
func DecodeRequest(memo *model.Memo, line []byte) (int64, *model.Scenario, error) {
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
		return 0, nil, ErrNotARequest
	}
	s, err := model.DecodeScenarioUnvalidated(req.Scenario)
	if err != nil {
		return req.ID, nil, err
	}
	return req.ID, s, nil
}

// A Reply is an adapter's answer to a run request, as the harness reads
// it: a trace, or an error. Trace is set when the answer decoded whole in
// one pass (the usual case); otherwise RawTrace keeps the trace's bytes
// so that the reader can say what is wrong with them.
type Reply struct {
	Type     string          `json:"type"`
	ID       int64           `json:"id"`
	RawTrace json.RawMessage `json:"trace"`
	Error    *RawError       `json:"error"`
	Trace    *model.Trace    `json:"-"`
}

// RawError is an ErrorBody whose trace is left undecoded.
type RawError struct {
	Kind    string          `json:"kind"`
	Message string          `json:"message"`
	Action  *int            `json:"action,omitempty"`
	Trace   json.RawMessage `json:"trace,omitempty"`
}

// DecodeReply reads one answer line, strictly, as the schema has it:
// exactly one JSON value on the line, keys exactly as the protocol spells
// them, none unknown and none given twice, anywhere in the line. A
// well-formed trace answer is decoded whole in one pass, with memo;
// anything else is read as an envelope, with the trace left raw so that
// the reader can say what is wrong with it. The two passes accept the
// same lines (FuzzDecodeReply).
func DecodeReply(memo *model.Memo, line []byte) (Reply, error) {
	var whole struct {
		Type  string       `json:"type"`
		ID    int64        `json:"id"`
		Trace *model.Trace `json:"trace"`
		Error *RawError    `json:"error"`
	}
	if memo.UnmarshalStrict(line, &whole) == nil &&
		(whole.Type == "trace" && whole.Trace != nil && whole.Trace.Format == model.TraceFormat && whole.Error == nil ||
			whole.Type == "error" && whole.Trace == nil) {
		return Reply{Type: whole.Type, ID: whole.ID, Error: whole.Error, Trace: whole.Trace}, nil
	}
	return decodeEnvelope(line)
}

// decodeEnvelope reads an answer line strictly with its trace left raw:
// DecodeReply's second pass, and what its first must agree with.
func decodeEnvelope(line []byte) (Reply, error) {
	var rep Reply
	if err := jsonv2.Unmarshal(line, &rep, strict); err != nil {
		return Reply{}, Strictly(err)
	}
	return rep, nil
}

// strict is how the harness reads what an adapter writes: encoding/json/v2's
// defaults (one value a line, exact keys, no key twice, valid UTF-8) with
// unknown keys refused.
var strict = jsonv2.RejectUnknownMembers(true)

// Strictly says in the protocol's words why a line was refused by the
// strict decoding: the key unknown or given twice, or what follows the
// value.
func Strictly(err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "jsontext: ")
	msg = strings.TrimPrefix(msg, "json: ")
	if _, after, ok := strings.Cut(msg, "unknown object member name "); ok {
		msg = "unknown key " + after
	}
	msg = strings.Replace(msg, "duplicate object member name", "a key given twice:", 1)
	msg = strings.Replace(msg, "after top-level value", "after the JSON value (a line holds one message)", 1)
	return errors.New(msg)
}

// DecodeHello reads an adapter's hello strictly (see DecodeReply) and
// checks its values as the schema does: its type, the keys it requires
// (engine's name and version, capabilities' features), and max_in_flight
// 1 or more (absent means 1). What the names declared mean is
// CheckCapabilities' to say.
func DecodeHello(line []byte) (HelloReply, error) {
	var h HelloReply
	if err := jsonv2.Unmarshal(line, &h, strict); err != nil {
		return HelloReply{}, Strictly(err)
	}
	// The same line again, for which keys are there at all: the strict
	// pass has refused anything else.
	var present struct {
		Protocol *string `json:"protocol"`
		Engine   *struct {
			Name    *string `json:"name"`
			Version *string `json:"version"`
		} `json:"engine"`
		Capabilities *struct {
			Features    *[]model.Feature `json:"features"`
			MaxInFlight *int             `json:"max_in_flight"`
		} `json:"capabilities"`
	}
	if err := jsonv2.Unmarshal(line, &present); err != nil {
		return HelloReply{}, Strictly(err)
	}
	var missing string
	switch {
	case present.Protocol == nil:
		missing = "protocol"
	case present.Engine == nil:
		missing = "engine"
	case present.Engine.Name == nil:
		missing = "engine.name"
	case present.Engine.Version == nil:
		missing = "engine.version"
	case present.Capabilities == nil:
		missing = "capabilities"
	case present.Capabilities.Features == nil:
		missing = "capabilities.features"
	}
	switch {
	case h.Type != "hello":
		return HelloReply{}, fmt.Errorf("its type is %q, want \"hello\"", h.Type)
	case missing != "":
		return HelloReply{}, fmt.Errorf("it has no %s (absent or null), which a hello must have", missing)
	case present.Capabilities.MaxInFlight != nil && h.Capabilities.MaxInFlight < 1:
		return HelloReply{}, fmt.Errorf("capabilities.max_in_flight is %d; want 1 or more (absent means 1)", h.Capabilities.MaxInFlight)
	}
	return h, nil
}

// CheckCapabilities expands c's feature shorthands (model.ExpandFeatures)
// and returns an error naming every feature and observer mergecheck does
// not know.
func CheckCapabilities(c *Capabilities) error {
	var unknown []string
	features, unknownF := model.ExpandFeatures(c.Features)
	for _, f := range unknownF {
		unknown = append(unknown, string(f))
	}
	c.Features = features
	for _, o := range c.Observers {
		if !slices.Contains(model.Observers, o) {
			unknown = append(unknown, "observer "+string(o))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("the adapter declares capabilities mergecheck doesn't know: %s (known features: %v, and the shorthands %s)", strings.Join(unknown, ", "), model.Features, model.ShorthandList())
	}
	return nil
}

// EncodeScenario is a scenario as a run request carries it: compact JSON
// whose lists (catalogue, objects, actions) are empty rather than null,
// as adapters in other languages expect.
func EncodeScenario(s *model.Scenario) ([]byte, error) {
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
	return json.Marshal(&c)
}
