package declared

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// Declarations is how many random declarations the suite checks itself
// on, spread over the test packages (Share): whatever an engine declares,
// the reference behind it must hold or be unsupported on every rule.
const Declarations = 200

// Nth is the i-th of the suite's declarations: the first four the
// extremes (each package's share has one; the fourth, declaring nothing
// at all, is served over the protocol by cmd/mergecheck's), the rest
// drawn at seed i.
func Nth(i int) Declaration {
	switch i {
	case 0:
		return Declaration{PartialTraces: true, NoDirectSetup: true}
	case 1:
		return Declaration{Features: []model.Feature{}}
	case 2:
		return Declaration{Observers: []model.Observer{}}
	case 3:
		return Declaration{Features: []model.Feature{}, Observers: []model.Observer{}, PartialTraces: true, NoDirectSetup: true}
	}
	return Random(rand.New(rand.NewPCG(uint64(i), 0x6d657267)))
}

// Share returns the indices of the random declarations package k of n
// test packages checks: each i below Declarations that is k modulo n.
func Share(k, n int) []int {
	var out []int
	for i := k; i < Declarations; i += n {
		out = append(out, i)
	}
	return out
}

// Seeds are the three seeds the i-th declaration is checked at.
func Seeds(i int) []uint64 { return []uint64{uint64(1 + i), uint64(1001 + i), uint64(2001 + i)} }

// Wrong says what is wrong with results of the reference behind a
// declaration, or "" when nothing is: every rule of props reported once,
// in order, each held, unsupported or unchecked, and those two with
// their reason; no unexplained departure.
func Wrong(props []*properties.Property, res *harness.Results) string {
	var wrong []string
	if len(res.Results) != len(props) {
		wrong = append(wrong, fmt.Sprintf("%d results for %d rules", len(res.Results), len(props)))
	}
	for i, r := range res.Results {
		if i < len(props) && r.Rule != props[i].Rule {
			wrong = append(wrong, fmt.Sprintf("result %d is %s, want %s", i, r.Rule, props[i].Rule))
		}
		switch r.Verdict {
		case harness.Held:
		case harness.Unsupported, harness.Unchecked:
			if r.Why == "" {
				wrong = append(wrong, fmt.Sprintf("%s: %s without a reason", r.Rule, r.Verdict))
			}
		default:
			why := r.Why
			if r.Counterexample != nil {
				why = r.Counterexample.Error()
			}
			wrong = append(wrong, fmt.Sprintf("%s: %s: %s", r.Rule, r.Verdict, why))
		}
	}
	for _, u := range res.Unexplained {
		wrong = append(wrong, "an unexplained departure: "+u.Error())
	}
	return strings.Join(wrong, "\n")
}

// Check runs every property against the reference behind d at seed, in
// process, at the default checks, and says what is wrong (Wrong).
func Check(d Declaration, seed uint64) (string, *harness.Results, error) {
	res, err := harness.Check(context.Background(), Engine(d), properties.All, &harness.Options{Checks: 100, Seed: seed})
	if err != nil {
		return "", res, err
	}
	return Wrong(properties.All, res), res, nil
}
