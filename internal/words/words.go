// Package words says lists in words for messages, as a reader would
// write them ("a, b and c"), never as Go prints a slice ("[a b c]").
package words

import "strings"

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
