package jsonpos

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAtFindsKeysAndIndexes(t *testing.T) {
	doc := []byte("{\n  \"a\": 1,\n  \"results\": [\n    {\"rule\": \"730.2\", \"verdict\": \"held\"},\n    {\"rule\": \"730.3\",\n     \"verdict\": \"banana\"}\n  ]\n}\n")
	tests := []struct {
		path []any
		want string
	}{
		{[]any{"a"}, "line 2, column 8"},
		{[]any{"results"}, "line 3, column 14"},
		{[]any{"results", 0}, "line 4, column 5"},
		{[]any{"results", 1, "verdict"}, "line 6, column 17"},
		{[]any{"results", 2}, ""},
		{[]any{"nope"}, ""},
		{[]any{"a", "b"}, ""},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, At(doc, tc.path...), "%v", tc.path)
	}
}
