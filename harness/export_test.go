package harness

import "github.com/mergecheck/mergecheck/model"

// OnShrunk has f told of each rule whose first counterexample has just
// been shrunk, for the slow-engine benchmark to count the engine calls
// until then; nil stops it. Not safe while a check runs.
func OnShrunk(f func(rule model.RuleID)) { shrunk = f }
