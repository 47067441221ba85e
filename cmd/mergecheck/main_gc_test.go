package main

import (
	"testing"

	"github.com/mergecheck/mergecheck/internal/testgc"
)

// TestMain runs the tests with the garbage collector set for them (see
// package testgc).
func TestMain(m *testing.M) { testgc.Main(m) }
