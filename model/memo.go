package model

import (
	"reflect"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// A Memo decodes as [Unmarshal] does, remembering the card definitions and
// permanents it has decoded by their exact bytes. The protocol sends the
// same definitions with every scenario and the same permanents in step
// after step of a trace; taking them from the memo skips most of the
// decoding. What it hands out is a copy, never shared, made as the types'
// Clone methods make one: an empty list or map of a definition or a
// permanent comes back nil, which encodes the same. A Memo is safe for
// concurrent use; it holds at most a few thousand values of each kind.
type Memo struct {
	mu    sync.Mutex
	defs  map[string]CardDef
	perms map[string]Permanent
	opts  jsonv2.Options
}

// memoSize bounds each of a memo's maps; a full map starts again empty.
const memoSize = 1 << 12

// NewMemo returns an empty memo.
func NewMemo() *Memo {
	m := &Memo{defs: map[string]CardDef{}, perms: map[string]Permanent{}}
	m.opts = jsonv2.JoinOptions(strict, jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
		jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, d *CardDef) error {
			return memoized(m, dec, m.defs, d, CardDef.Clone)
		}),
		jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, p *Permanent) error {
			return memoized(m, dec, m.perms, p, Permanent.Clone)
		}),
	)))
	return m
}

// UnmarshalStrict decodes data into v in one pass, as the memo's fast
// path does and no more: keys exactly as the format spells them, none
// unknown, none twice, and nothing after the value. Where [Unmarshal]
// would read on with the format's own rules (a duplicate key, last
// wins), it fails: for a protocol line that must be exactly what the
// schema says.
func (m *Memo) UnmarshalStrict(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, m.opts)
}

// Unmarshal decodes data into v as [Unmarshal] does.
func (m *Memo) Unmarshal(data []byte, v any) error {
	if jsonv2.Unmarshal(data, v, m.opts) == nil {
		return nil
	}
	reflect.ValueOf(v).Elem().SetZero()
	return slowDecode(data, v)
}

// memoized decodes the next value into v from the memo, or decodes it
// strictly and remembers it.
func memoized[T any](m *Memo, dec *jsontext.Decoder, seen map[string]T, v *T, clone func(T) T) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	m.mu.Lock()
	known, ok := seen[string(raw)]
	m.mu.Unlock()
	if ok {
		*v = clone(known)
		return nil
	}
	var fresh T
	if err := jsonv2.Unmarshal(raw, &fresh, strict); err != nil {
		return err
	}
	m.mu.Lock()
	if len(seen) >= memoSize {
		clear(seen)
	}
	seen[string(raw)] = clone(fresh)
	m.mu.Unlock()
	*v = clone(fresh) // as a later hit will be
	return nil
}
