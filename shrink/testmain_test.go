package shrink

import (
	"testing"

	"github.com/mergecheck/mergecheck/internal/testenv"
)

// TestMain runs the tests as package testenv sets them up.
func TestMain(m *testing.M) { testenv.Main(m) }
