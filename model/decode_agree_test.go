package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
)

// FuzzFastAndSlowDecodeAgree holds the one-pass decoder to the format's
// definition: whatever fastDecode accepts, slowDecode accepts too, with
// the same value (nil and empty lists differ here: no cmp options). A
// Memo accepts exactly what slowDecode does, with the same values but for
// empty lists, the first time and when it remembers.
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
			fresh := func() any {
				if kind == "scenario" {
					return new(Scenario)
				}
				return new(Trace)
			}
			slow := fresh()
			slowErr := slowDecode(data, slow)
			if fast := fresh(); fastDecode(data, fast) == nil {
				if slowErr != nil {
					t.Fatalf("%s: the fast decoder accepted what the format refuses: %v\ninput: %s", kind, slowErr, shorten(data))
				}
				if d := cmp.Diff(slow, fast); d != "" {
					t.Fatalf("%s: the decoders disagree (-slow +fast):\n%s\ninput: %s", kind, d, shorten(data))
				}
			}
			// A memo accepts what the format does, with the same value but
			// for empty lists and maps of definitions and permanents, the
			// first time and from memory.
			memo := NewMemo()
			for _, when := range []string{"first", "remembered"} {
				got := fresh()
				err := memo.Unmarshal(data, got)
				if (err == nil) != (slowErr == nil) {
					t.Fatalf("%s, %s: the memo says %v where the format says %v\ninput: %s", kind, when, err, slowErr, shorten(data))
				}
				if err != nil {
					continue
				}
				if d := cmp.Diff(slow, got, cmpopts.EquateEmpty()); d != "" {
					t.Fatalf("%s, %s: the memo disagrees (-slow +memo):\n%s\ninput: %s", kind, when, d, shorten(data))
				}
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
