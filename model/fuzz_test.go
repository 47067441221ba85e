package model_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
)

// FuzzDecodeScenario checks that DecodeScenario never panics, whatever it
// is given, and that a scenario it accepts survives Encode: the encoding
// decodes again to an equal scenario, and encodes to the same bytes.
//
// An empty list or map and an absent one are the same in the format (the
// fields are omitempty), so they compare equal.
func FuzzDecodeScenario(f *testing.F) {
	files, err := filepath.Glob("../reference/testdata/examples/*.scenario.json")
	require.NoError(f, err)
	require.NotEmpty(f, files, "the worked examples seed the corpus")
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(data)
		f.Add(data[:len(data)/2]) // truncated
	}
	for _, s := range []string{
		"", " ", "null", "[]", "{}", "{", "}", `"scenario"`, "0", "{} {}",
		validScenario,
		validScenario + "x",
		`{"format": "mergecheck/scenario/v1", "name": "x",}`,
		`{"format": "mergecheck/scenario/v1", "name": 7}`,
		`{"format": "mergecheck/scenario/v1", "name": "x", "bogus": true}`,
		`{"format": "mergecheck/scenario/v2", "name": "x"}`,
		`{"FORMAT": "mergecheck/scenario/v1", "Name": "x"}`,
		"{\"name\": \"\xff\xfe\"}",
		`{"catalogue": [{"name": "X", "layout": "normal", "front": {"name": "X", "mana_cost": "{"}}]}`,
		`{"objects": [{"id": "c1", "def": "X", "owner": "A", "copy": {"name": "X", "layout": "meld", "front": {"name": "X"}}}]}`,
	} {
		f.Add([]byte(s))
	}
	opts := cmpopts.EquateEmpty()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := model.DecodeScenario(data)
		if err != nil {
			if s != nil {
				t.Fatalf("DecodeScenario returned a scenario with its error %v", err)
			}
			if err.Error() == "" {
				t.Fatal("DecodeScenario returned an empty error message")
			}
			return
		}
		enc, err := model.Encode(s)
		if err != nil {
			t.Fatalf("Encode of a decoded scenario: %v", err)
		}
		again, err := model.DecodeScenario(enc)
		if err != nil {
			t.Fatalf("the encoding of a valid scenario does not decode: %v\n%s", err, enc)
		}
		if diff := cmp.Diff(s, again, opts); diff != "" {
			t.Fatalf("scenario changed through Encode and DecodeScenario (-decoded +re-decoded):\n%s", diff)
		}
		enc2, err := model.Encode(again)
		if err != nil {
			t.Fatalf("Encode of a re-decoded scenario: %v", err)
		}
		if string(enc) != string(enc2) {
			t.Fatalf("Encode is not stable:\n%s\n---\n%s", enc, enc2)
		}
	})
}
