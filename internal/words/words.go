// Package words says in words, for messages and reports, what more than
// one of them shows: lists as a reader would write them ("a, b and c"),
// never as Go prints a slice ("[a b c]"), counts, a permanent's status
// and a trace's events, so that every output says each the same way.
package words

import (
	"strconv"
	"strings"
)

// List joins xs: "a", "a and b", "a, b and c"; "nothing" for none.
func List[T ~string](xs []T) string {
	switch len(xs) {
	case 0:
		return "nothing"
	case 1:
		return string(xs[0])
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = string(x)
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Count is n and a noun, plural unless n is 1: "1 card", "2 cards", "0
// cards".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
