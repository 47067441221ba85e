// Package jsonpos finds where a value sits in a JSON document, so that an
// error about a decoded value can say the line and column a user must fix.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// At returns "line L, column C" for the value at path in data, where each
// step of path is an object key (string) or an array index (int); "" when
// data has no such value.
func At(data []byte, path ...any) string {
	off, ok := offset(data, path)
	if !ok {
		return ""
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// offset walks data's tokens down path and returns where the value found
// begins.
func offset(data []byte, path []any) (int, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	start := func() int {
		// The value begins after any space, colon or comma past the last
		// token read.
		off := int(dec.InputOffset())
		for off < len(data) && bytes.IndexByte([]byte(" \t\r\n:,"), data[off]) >= 0 {
			off++
		}
		return off
	}
	for _, step := range path {
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		switch step := step.(type) {
		case string:
			if tok != json.Delim('{') {
				return 0, false
			}
			for {
				key, err := dec.Token()
				if err != nil || key == json.Delim('}') {
					return 0, false
				}
				if key == step {
					break
				}
				if skip(dec) != nil {
					return 0, false
				}
			}
		case int:
			if tok != json.Delim('[') {
				return 0, false
			}
			for range step {
				if !dec.More() || skip(dec) != nil {
					return 0, false
				}
			}
			if !dec.More() {
				return 0, false
			}
		default:
			return 0, false
		}
	}
	return start(), true
}

// skip reads one whole value.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
