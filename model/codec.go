package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
)

// DecodeScenario parses a scenario file and validates it. Unknown fields,
// trailing data and an unknown format version are errors; every error says
// where in the input it was found.
func DecodeScenario(data []byte) (*Scenario, error) {
	if len(data) > MaxScenarioBytes {
		return nil, fmt.Errorf("scenario: %d bytes, more than one case takes (at most %d)", len(data), MaxScenarioBytes)
	}
	var s Scenario
	if err := decodeStrict(data, &s); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// MaxScenarioBytes bounds a scenario file: one of MaxObjects objects in
// one stack takes about 7 MB.
const MaxScenarioBytes = 32 << 20

// DecodeScenarioUnvalidated parses a scenario file as strictly as
// DecodeScenario but does not validate it, for a caller that validates it
// next anyway (an engine that plays it, such as the reference engine).
func DecodeScenarioUnvalidated(data []byte) (*Scenario, error) {
	if len(data) > MaxScenarioBytes {
		return nil, fmt.Errorf("scenario: %d bytes, more than one case takes (at most %d)", len(data), MaxScenarioBytes)
	}
	var s Scenario
	if err := decodeStrict(data, &s); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return &s, nil
}

// DecodeTrace parses a trace file. Unknown fields are errors.
func DecodeTrace(data []byte) (*Trace, error) {
	var t Trace
	if err := decodeStrict(data, &t); err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if t.Format != TraceFormat {
		return nil, fmt.Errorf("trace: format is %q, want %q", t.Format, TraceFormat)
	}
	return &t, nil
}

// Encode returns the stable JSON encoding of v (a Scenario or a Trace):
// two-space indentation, keys in declaration order, a final newline.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unmarshal decodes a message that is, or carries, a scenario or a trace
// (such as a protocol message) as strictly as [DecodeScenario] and
// [DecodeTrace] read one: every key must name a field, spelled exactly,
// and an error says where it is. It does not validate what it decodes.
func Unmarshal(data []byte, v any) error { return decodeStrict(data, v) }

func decodeStrict(data []byte, v any) error {
	if fastDecode(data, v) == nil {
		return nil
	}
	reflect.ValueOf(v).Elem().SetZero()
	return slowDecode(data, v)
}

// fastDecode decodes in one pass with the encoding/json/v2 prototype,
// which matches keys exactly and rejects unknown ones itself. It is
// stricter than the format (it refuses duplicate keys and invalid UTF-8)
// and its errors say less, so any error is left to slowDecode, which
// defines the format; a test holds the two to the same values.
func fastDecode(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, strict)
}

// strict is how fastDecode decodes: keys exact (v2's default), unknown
// ones refused.
var strict = jsonv2.RejectUnknownMembers(true)

// slowDecode decodes with encoding/json, which matches keys without regard
// to case and does not say where an unknown key is; checkKeys walks the
// keys for that, once the input is known to be valid JSON, and reports a
// bad key before any later error since it comes first.
func slowDecode(data []byte, v any) error {
	decodeErr := json.Unmarshal(data, v)
	var syn *json.SyntaxError
	if !errors.As(decodeErr, &syn) {
		if err := checkKeys(data, reflect.TypeOf(v)); err != nil {
			return err
		}
		if decodeErr == nil {
			return nil
		}
	}
	reflect.ValueOf(v).Elem().SetZero()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return locate(data, dec, err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		rest := bytes.TrimLeft(data[end:], " \t\r\n")
		line, col := position(data, int64(len(data)-len(rest)))
		return fmt.Errorf("line %d, column %d: unexpected data after the JSON value", line, col)
	}
	return nil
}

// locate adds a line and column to a JSON decoding error.
func locate(data []byte, dec *json.Decoder, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := dec.InputOffset()
	switch {
	case errors.As(err, &syn):
		off = syn.Offset - 1 // the offset counts the offending byte
	case errors.As(err, &typ):
		off = valueStart(data, typ.Offset, typ.Value)
		if typ.Field != "" {
			err = fmt.Errorf("field %s: a JSON %s can't be a %s", typ.Field, typ.Value, kindName(typ.Type))
		} else {
			err = fmt.Errorf("the file must hold a JSON object, not a JSON %s", typ.Value)
		}
	case errors.Is(err, io.EOF):
		return errors.New("empty input")
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(data, int64(len(data)))
		return fmt.Errorf("line %d, column %d: input ends in the middle of a JSON value", line, col)
	}
	line, col := position(data, off)
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// valueStart finds where a JSON value that ends at end begins, for error
// positions: encoding/json reports the offset after the value.
func valueStart(data []byte, end int64, kind string) int64 {
	end = min(max(end, 0), int64(len(data)))
	switch kind {
	case "array", "object":
		return max(end-1, 0)
	case "string":
		for i := end - 2; i >= 0; i-- {
			if data[i] == '"' && (i == 0 || data[i-1] != '\\') {
				return i
			}
		}
		return end
	}
	i := end
	for i > 0 && !strings.ContainsRune(",:[{ \t\r\n", rune(data[i-1])) {
		i--
	}
	return i
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		return "list"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return t.String()
}

// checkKeys walks the objects in data, which must be valid JSON, against
// the Go type t and reports the first key that names no field, exactly,
// with its path and position.
func checkKeys(data []byte, t reflect.Type) error {
	w := keyWalker{data: data}
	return w.value(t, nil)
}

// keyWalker reads valid JSON byte by byte; encoding/json's Token is many
// times slower, and this walk is on the path of every protocol message.
type keyWalker struct {
	data []byte
	i    int
}

// A pathStep is one step from the root to a value, kept as a chain so
// that a path is spelled out only for an error.
type pathStep struct {
	up      *pathStep
	raw     []byte // the key as written, quotes included
	escaped bool
	index   int
	element bool // the step is to element index of a list, not to a key
}

func (p *pathStep) String() string {
	if p == nil {
		return ""
	}
	up := p.up.String()
	if p.element {
		return up + "[" + strconv.Itoa(p.index) + "]"
	}
	key := unquote(p.raw, p.escaped)
	if up == "" {
		return key
	}
	return up + "." + key
}

func (w *keyWalker) space() {
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case ' ', '\t', '\r', '\n':
			w.i++
		default:
			return
		}
	}
}

// str reads the string that starts at w.i and returns it as written,
// quotes included, and whether it has escapes.
func (w *keyWalker) str() (raw []byte, escaped bool) {
	start := w.i
	w.i++ // the opening quote
	for w.data[w.i] != '"' {
		if w.data[w.i] == '\\' {
			escaped = true
			w.i++
		}
		w.i++
	}
	w.i++
	return w.data[start:w.i], escaped
}

// unquote returns the value of a JSON string as str read it.
func unquote(raw []byte, escaped bool) string {
	if !escaped {
		return string(raw[1 : len(raw)-1])
	}
	var v string
	_ = json.Unmarshal(raw, &v) // valid JSON: cannot fail
	return v
}

// field returns the field of struct type t that a key names (raw and
// escaped as str returned them), or an error that says where the key is
// and, when it differs from a field's name only in case, which was meant.
func (w *keyWalker) field(t reflect.Type, raw []byte, escaped bool, at int, path *pathStep) (*reflect.StructField, error) {
	if !escaped {
		if f := fieldsOf(t).byName[string(raw[1:len(raw)-1])]; f != nil { // no allocation
			return f, nil
		}
	}
	key := unquote(raw, escaped)
	f, near := field(t, key)
	if f != nil {
		return f, nil
	}
	line, col := position(w.data, int64(at))
	msg := fmt.Sprintf("line %d, column %d: unknown field %q", line, col, key)
	if path != nil {
		msg += " in " + path.String()
	}
	if near != "" {
		msg += fmt.Sprintf(" (keys are case-sensitive: did you mean %q?)", near)
	}
	return nil, errors.New(msg)
}

func (w *keyWalker) value(t reflect.Type, path *pathStep) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	w.space()
	switch w.data[w.i] {
	case '{':
		w.i++
		w.space()
		if w.data[w.i] == '}' {
			w.i++
			return nil
		}
		for {
			w.space()
			at := w.i
			raw, escaped := w.str()
			var ft reflect.Type
			switch {
			case t != nil && t.Kind() == reflect.Struct:
				f, err := w.field(t, raw, escaped, at, path)
				if err != nil {
					return err
				}
				ft = f.Type
			case t != nil && t.Kind() == reflect.Map:
				ft = t.Elem()
			}
			w.space()
			w.i++ // the colon
			if err := w.value(ft, &pathStep{up: path, raw: raw, escaped: escaped}); err != nil {
				return err
			}
			w.space()
			if w.data[w.i] == '}' {
				w.i++
				return nil
			}
			w.i++ // the comma
		}
	case '[':
		w.i++
		w.space()
		if w.data[w.i] == ']' {
			w.i++
			return nil
		}
		var et reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			et = t.Elem()
		}
		for n := 0; ; n++ {
			if err := w.value(et, &pathStep{up: path, index: n, element: true}); err != nil {
				return err
			}
			w.space()
			if w.data[w.i] == ']' {
				w.i++
				return nil
			}
			w.i++ // the comma
		}
	case '"':
		_, _ = w.str()
	default: // a number, true, false or null
		for w.i < len(w.data) && !strings.ContainsRune(",]} \t\r\n", rune(w.data[w.i])) {
			w.i++
		}
	}
	return nil
}

// jsonFields maps a struct type's JSON names to its fields, and each name
// folded to lower case to the right spelling; computed once per type.
type jsonFields struct {
	byName map[string]*reflect.StructField
	folded map[string]string
}

var fieldCache sync.Map // reflect.Type -> *jsonFields

func fieldsOf(t reflect.Type) *jsonFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*jsonFields)
	}
	jf := &jsonFields{byName: map[string]*reflect.StructField{}, folded: map[string]string{}}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		jf.byName[name] = &f
		jf.folded[strings.ToLower(name)] = name
	}
	fieldCache.Store(t, jf)
	return jf
}

// field returns the struct field whose JSON name is key, or, if none is,
// the JSON name that matches key but for case.
func field(t reflect.Type, key string) (*reflect.StructField, string) {
	jf := fieldsOf(t)
	if f, ok := jf.byName[key]; ok {
		return f, ""
	}
	return nil, jf.folded[strings.ToLower(key)]
}
