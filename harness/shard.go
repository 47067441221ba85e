package harness

import (
	"fmt"
	"strconv"
	"strings"
)

// A Shard selects a deterministic part of a run's properties, so that N
// machines split one run with no overlap: shard Index of Count, counted
// from 1. The zero Shard selects everything.
type Shard struct{ Index, Count int }

// ParseShard parses "I/N", 1 <= I <= N.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("bad shard %q: want I/N with 1 <= I <= N, such as 2/4", s)
	}
	return Shard{Index: i, Count: n}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Selects reports whether the property at position i of the full list
// belongs to this shard: properties are dealt round-robin.
func (s Shard) Selects(i int) bool {
	return s.Count <= 1 || i%s.Count == s.Index-1
}
