package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// DecodeScenario parses a scenario file and validates it. Unknown fields,
// trailing data and an unknown format version are errors; every error says
// where in the input it was found.
func DecodeScenario(data []byte) (*Scenario, error) {
	var s Scenario
	if err := decodeStrict(data, &s); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
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

func decodeStrict(data []byte, v any) error {
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
		off = typ.Offset
		if typ.Field != "" {
			err = fmt.Errorf("field %s: cannot use JSON %s as %s", typ.Field, typ.Value, typ.Type)
		}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json gives no offset for an unknown field; point at the
		// first place the key appears.
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if loc := regexp.MustCompile(regexp.QuoteMeta(name) + `\s*:`).FindIndex(data); loc != nil {
			off = int64(loc[0])
		}
		err = fmt.Errorf("unknown field %s", name)
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
