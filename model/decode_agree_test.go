package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// FuzzFastAndSlowDecodeAgree holds the one-pass decoder to the format's
// definition: whatever fastDecode accepts, slowDecode accepts too, with
// the same value (nil and empty lists differ here: no cmp options).
func FuzzFastAndSlowDecodeAgree(f *testing.F) {
	files, err := filepath.Glob("../reference/testdata/examples/*.json")
	require.NoError(f, err)
	require.NotEmpty(f, files)
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(data)
	}
	for _, s := range []string{
		`{"format": "mergecheck/scenario/v1", "name": "x", "name": "y"}`,
		`{"format": "mergecheck/scenario/v1", "Name": "x"}`,
		"{\"name\": \"\xff\"}",
		`{"name": "\ud800"}`,
		`{"objects": [{"id": "c1", "owner": "A", "token": true}], "actions": []}`,
		`{"start": {"battlefield": [{"id": "p1", "counters": {"+1/+1": 1e0}}]}}`,
		`{"start": {"battlefield": [{"id": "p1", "timestamp": -0}]}}`,
		`{"steps": [{"action": 0, "events": null, "state": {"players": []}}]}`,
		`{"expect": [{"after": 1, "triggers": {"creature_dies": 1}}]}`,
		`null`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range []string{"scenario", "trace"} {
			var fast, slow any
			if kind == "scenario" {
				fast, slow = new(Scenario), new(Scenario)
			} else {
				fast, slow = new(Trace), new(Trace)
			}
			if fastDecode(data, fast) != nil {
				continue
			}
			if err := slowDecode(data, slow); err != nil {
				t.Fatalf("%s: the fast decoder accepted what the format refuses: %v\ninput: %s", kind, err, shorten(data))
			}
			if d := cmp.Diff(slow, fast); d != "" {
				t.Fatalf("%s: the decoders disagree (-slow +fast):\n%s\ninput: %s", kind, d, shorten(data))
			}
		}
	})
}

func shorten(b []byte) string {
	s := string(b)
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return strings.TrimSpace(s)
}
