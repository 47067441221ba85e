package remote_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/testenv"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/remote"
)

// adapter returns the command of a purpose-built bad adapter.
func adapter(t *testing.T, name string) string {
	t.Helper()
	python := testenv.Python3(t)
	path, err := filepath.Abs(filepath.Join("testdata", "adapters", name))
	require.NoError(t, err)
	return python + " " + path
}

func TestStart_VersionMismatchIsRefusedByName(t *testing.T) {
	_, err := remote.Start(adapter(t, "old_protocol.py"), remote.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"mergecheck/0"`)
	assert.Contains(t, err.Error(), `"mergecheck/1"`)
}

func TestStart_UnknownCapabilityIsNamed(t *testing.T) {
	_, err := remote.Start(adapter(t, "unknown_feature.py"), remote.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "teleport")
}

func TestStart_MissingCommandSaysWhich(t *testing.T) {
	_, err := remote.Start("/no/such/adapter --flag", remote.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/no/such/adapter")
	_, err = remote.Start(`python3 "unterminated`, remote.Options{})
	assert.ErrorContains(t, err, "unterminated")
}

// TestStart_ShorthandsAreExpanded: an adapter declaring the first,
// coarse feature names comes back declaring all their parts.
func TestStart_ShorthandsAreExpanded(t *testing.T) {
	c, err := remote.Start(adapter(t, "every_other.py"), remote.Options{})
	require.NoError(t, err)
	defer c.Close()
	features := c.Hello().Capabilities.Features
	assert.Contains(t, features, model.FeatureTurnFaceUpEffect)
	assert.Contains(t, features, model.FeaturePhaseUntap)
	assert.Contains(t, features, model.FeatureModal)
	assert.NotContains(t, features, model.FeatureFaceDown)
}

// TestRun_RefusalIsNoFault: an adapter's "unsupported" answer comes back
// as a Refusal, not an AdapterError, and the adapter keeps running.
func TestRun_RefusalIsNoFault(t *testing.T) {
	c, err := remote.Start(testenv.Python3(t)+" -c 'import sys; sys.path.insert(0, \""+filepath.Join("testdata", "adapters")+"\"); from badadapter import refuse, serve; serve(refuse)'", remote.Options{})
	require.NoError(t, err)
	defer c.Close()
	enc, err := protocol.EncodeScenario(&model.Scenario{Format: model.ScenarioFormat, Name: "s"})
	require.NoError(t, err)
	for range 2 {
		_, err = c.Run(context.Background(), enc)
		var r *remote.Refusal
		require.True(t, errors.As(err, &r), "%v", err)
		assert.Equal(t, protocol.Unsupported, r.Kind)
		assert.Contains(t, r.Message, "refuses everything")
	}
}

// TestStart_AHelloNotExactlyProtocolIsRefused: a misspelt key in the
// hello, or a max_in_flight below one, is a start fault that names it:
// an engine that declared nothing by a typo is never judged on nothing.
func TestStart_AHelloNotExactlyProtocolIsRefused(t *testing.T) {
	for mode, want := range map[string]string{
		"hello-typo":     `unknown key "capabilites"`,
		"hello-feature":  `unknown key "feature"`,
		"hello-negative": "max_in_flight is -7",
	} {
		t.Run(mode, func(t *testing.T) {
			_, err := remote.Start(adapter(t, "strict.py")+" "+mode, remote.Options{})
			require.Error(t, err)
			var ae *remote.AdapterError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, "start", ae.Kind)
			assert.Contains(t, err.Error(), want)
		})
	}
}

// TestRun_AnAnswerNotExactlyProtocolIsAFault: an answer line with data
// after it, a NUL byte, a second answer, a key given twice (which would
// turn an engine's crash into a refusal, last key winning), or a message
// of a type the protocol has no answer of, is a garbage fault naming what
// is wrong and quoting the line; an answer to no waiting request says
// which id came, by how far it is from the request's (the harness's
// numbering stays out of reports).
func TestRun_AnAnswerNotExactlyProtocolIsAFault(t *testing.T) {
	for mode, want := range map[string][]string{
		"trailing":    {"after the JSON value"},
		"nul":         {`'\x00' after the JSON value`},
		"two-answers": {"'{' after the JSON value"},
		"dup-type":    {`a key given twice: "type"`},
		"log-line":    {`type "log"`, "trace or error"},
		"wrong-id":    {"the id of the request it was given plus 1000"},
	} {
		t.Run(mode, func(t *testing.T) {
			c, err := remote.Start(adapter(t, "strict.py")+" "+mode, remote.Options{})
			require.NoError(t, err)
			defer c.Close()
			_, err = c.Run(context.Background(), []byte(`{}`))
			var ae *remote.AdapterError
			require.ErrorAs(t, err, &ae)
			kind := "garbage"
			if mode == "wrong-id" {
				kind = "id"
			}
			assert.Equal(t, kind, ae.Kind, err.Error())
			for _, w := range want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}
