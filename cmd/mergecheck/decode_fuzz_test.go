package main

import "testing"

// FuzzDecodeRequest: no line sent to `mergecheck serve` makes its request
// decoding panic; a request it accepts has a scenario or says why not.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"type":"run","id":1,"scenario":{"format":"mergecheck/scenario/v1","name":"s","catalogue":[],"objects":[],"start":{"active":"A","players":[{"id":"A","zones":{}},{"id":"B","zones":{}}]},"actions":[]}}`,
		`{"type":"run","id":2,"scenario":{"format":3}}`,
		`{"type":"run","id":3}`, `{"type":"hello"}`, `{`, ``, `null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		_, s, err := decodeRequest(line)
		if err == nil && s == nil {
			t.Fatal("a request decoded without error has no scenario")
		}
	})
}
