package reports

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Printable returns s with what a terminal or a Markdown viewer would
// act on rather than show escaped: control characters other than line
// breaks and tabs (an adapter's ESC sequences, a NUL byte), and bytes that
// are not UTF-8, each written as \xNN or \u00NN. The text and Markdown
// reports pass an engine's words through it; the JSON report keeps them
// whole.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unprintable(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unprintable(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unprintable reports whether r is a control character other than a line
// break or a tab.
func unprintable(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0
}
