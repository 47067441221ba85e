package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/internal/declared"
	"github.com/mergecheck/mergecheck/internal/failure"
	"github.com/mergecheck/mergecheck/properties"
)

// TestAnyDeclaration_RunExitsZero: the reference behind any declaration
// holds or is unsupported on every rule, and mergecheck run exits 0 for
// it (a quarter of the suite's random declarations; see harness's
// TestAnyDeclaration_HeldOrUnsupported). The first five are served over
// the protocol at their first seed (mergecheck serve with the
// declaration's flags); the rest, and the other seeds, are judged in
// process, the same engine without the process.
func TestAnyDeclaration_RunExitsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("fifty declarations at three seeds, each a whole run")
	}
	bin := binary(t)
	for k, i := range declared.Share(3, 4) {
		d := declared.Nth(i)
		for n, seed := range declared.Seeds(i) {
			t.Run(fmt.Sprintf("%d/seed=%d", i, seed), func(t *testing.T) {
				if k < 5 && n == 0 {
					engine := "exec:" + bin + " serve " + strings.Join(quoted(d.Args()), " ")
					code, out, errOut := mc(t, "run", "--engine", engine, "--seed", strconv.FormatUint(seed, 10), "--corpus", "", "--progress", "off", "--timeout", "1m")
					assert.Equal(t, exitOK, code, "%s\n%s\n%s", d, out, errOut)
					return
				}
				wrong, res, err := declared.Check(d, seed)
				require.NoError(t, err, d.String())
				assert.Empty(t, wrong, "the reference served with %s, seed %d", d, seed)
				var b bytes.Buffer
				printResults(&b, res, false, "exec:mergecheck serve", 100)
				assert.Equal(t, exitOK, exitCode(res, nil), "%s\n%s", d, b.String())
			})
		}
	}
}

// quoted quotes each flag value for the shell that --engine's command
// line is split by.
func quoted(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = failure.ShellQuote(a)
	}
	return out
}

// TestPartialEngine_DeclarationsVendorsHave: two declarations real
// engines made, each a correct engine served over the protocol: a Go
// engine written from the docs (mutate, meld, transform, face down with
// manifest and cloak but without modal double-faced cards, flip and
// phasing) and one with only mutate, merge and the face-down features.
// Whole runs at seeds 1 to 5 exit 0.
func TestPartialEngine_DeclarationsVendorsHave(t *testing.T) {
	if testing.Short() {
		t.Skip("ten whole runs over the protocol")
	}
	bin := binary(t)
	for _, features := range []string{"mutate,merge,meld,transform,face_down,flip,phasing", "mutate,merge,face_down"} {
		for seed := 1; seed <= 5; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", features, seed), func(t *testing.T) {
				code, out, errOut := mc(t, "run", "--engine", "exec:"+bin+" serve --features "+features, "--seed", strconv.Itoa(seed), "--corpus", "", "--progress", "off", "--timeout", "1m")
				assert.Equal(t, exitOK, code, "%s\n%s", out, errOut)
				assert.Contains(t, out, fmt.Sprintf("%d rules: ", len(properties.All)), "every rule counted")
			})
		}
	}
}
