package main

import (
	"testing"

	"github.com/mergecheck/mergecheck/enginetest"
	"github.com/mergecheck/mergecheck/properties"
)

func TestEngine(t *testing.T) {
	enginetest.Run(t, Engine(""), properties.P730_2d, properties.P730_3)
}
