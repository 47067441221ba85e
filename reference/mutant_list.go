package reference

// Mutants lists every mutant, each named for its bug.
var Mutants = []Mutant{}
