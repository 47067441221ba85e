package words

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestList(t *testing.T) {
	assert.Equal(t, "nothing", List([]string(nil)))
	assert.Equal(t, "a", List([]string{"a"}))
	assert.Equal(t, "a and b", List([]string{"a", "b"}))
	assert.Equal(t, "a, b and c", List([]string{"a", "b", "c"}))
}
