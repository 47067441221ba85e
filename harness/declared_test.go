package harness_test

import (
	"fmt"
	"testing"

	"github.com/mergecheck/mergecheck/internal/declared"
)

// TestAnyDeclaration_HeldOrUnsupported: whatever an engine declares of
// features, observers, partial traces and direct setup, the reference
// behind that declaration holds every rule or is unsupported on it with
// the reason, at any seed: the generators draw only what it declares,
// and coverage asks only what its draws reach. This package checks a
// quarter of the suite's random declarations (declared.Share); enginetest,
// reports and cmd/mergecheck check the others.
func TestAnyDeclaration_HeldOrUnsupported(t *testing.T) {
	if testing.Short() {
		t.Skip("fifty declarations at three seeds, each a whole run")
	}
	for _, i := range declared.Share(0, 4) {
		d := declared.Nth(i)
		for _, seed := range declared.Seeds(i) {
			t.Run(fmt.Sprintf("%d/seed=%d", i, seed), func(t *testing.T) {
				wrong, _, err := declared.Check(d, seed)
				if err != nil {
					t.Fatalf("%s: %v", d, err)
				}
				if wrong != "" {
					t.Errorf("the reference served with %s, seed %d:\n%s", d, seed, wrong)
				}
			})
		}
	}
}
