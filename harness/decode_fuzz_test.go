package harness

import (
	"testing"

	"github.com/mergecheck/mergecheck/model"
)

// FuzzDecodeReply: no line an adapter writes makes the protocol's answer
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
		rep, err := decodeReply(memo, line)
		if err != nil {
			return
		}
		if rep.trace != nil && rep.trace.Format != model.TraceFormat {
			t.Fatalf("a trace answer decoded in one pass has format %q", rep.trace.Format)
		}
	})
}
