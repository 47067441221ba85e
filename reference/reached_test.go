package reference_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// TestReached_AMutantItDoesNotNamePlaysAsTheRules: every mutant that a
// play of the rules did not come to (Reached.Changes) plays the scenario
// exactly as the rules do, the same trace and the same error, on the
// draws of every property's generators; and the test reaches mutants too,
// so that it shows both sides.
func TestReached_AMutantItDoesNotNamePlaysAsTheRules(t *testing.T) {
	draws := 6
	if testing.Short() {
		draws = 2
	}
	var same, changed int
	for _, p := range properties.All {
		if p.Draws == nil {
			continue // an uncheckable rule draws nothing
		}
		gen := p.Draws.For(generators.Engine{})
		for i := range draws {
			s := gen.Example(i)
			want, reached, wantErr := reference.RunValidReached(s)
			rules, rulesErr := reference.RunValid(s)
			require.Empty(t, cmp.Diff(rules, want), "%s draw %d: noting what the play reached changed it", p.Rule, i)
			require.Equal(t, rulesErr == nil, wantErr == nil, "%s draw %d", p.Rule, i)
			for _, m := range reference.Mutants {
				if reached.Changes(m.Name) {
					changed++
					continue
				}
				same++
				got, err := reference.RunMutant(s, m.Name)
				if !assert.Empty(t, cmp.Diff(want, got), "%s draw %d: mutant %s played otherwise than the rules, which never came to its bug", p.Rule, i, m.Name) {
					continue
				}
				if wantErr == nil {
					assert.NoError(t, err, "%s draw %d: mutant %s", p.Rule, i, m.Name)
				} else if assert.Error(t, err, "%s draw %d: mutant %s", p.Rule, i, m.Name) {
					assert.Equal(t, wantErr.Error(), err.Error(), "%s draw %d: mutant %s", p.Rule, i, m.Name)
					assert.Equal(t, errors.Is(wantErr, reference.ErrUnsupported), errors.Is(err, reference.ErrUnsupported))
				}
			}
		}
	}
	assert.Positive(t, same, "no mutant was left unreached")
	assert.Positive(t, changed, "no mutant was reached")
	t.Logf("%d plays of a mutant the rules did not reach, %d reached", same, changed)
}

// TestReached_ChangesNamesEachOfSeveral: a combined mutant is reached
// when any of its parts is, and the reference itself never is.
func TestReached_ChangesNamesEachOfSeveral(t *testing.T) {
	bd := build.New("702.3b-wall-attacks", "Wall of Omens attacks.", "702.3b")
	bd.Card("c1", build.A, "Wall of Omens")
	s := bd.Perm("p1", build.A, build.Up("c1")).Do(model.Action{Type: model.Attack, Object: "p1"}).Scenario()
	_, reached, err := reference.RunValidReached(s)
	require.NoError(t, err)
	assert.False(t, reached.Changes(""))
	var hit, missed string
	for _, m := range reference.Mutants {
		if reached.Changes(m.Name) {
			hit = m.Name
		} else {
			missed = m.Name
		}
	}
	require.NotEmpty(t, hit)
	require.NotEmpty(t, missed)
	assert.True(t, reached.Changes(missed+"+"+hit))
	assert.False(t, reached.Changes(missed+"+"+missed))
}

// TestReached_EveryMutantIsAskedForThroughIsOrMutated: Reached is sound
// only if a mutant's play leaves the rules' path nowhere but where the
// game asks about it (game.is) or about mutants at all (game.mutated).
// No other code of the package may read which mutant the game runs as.
func TestReached_EveryMutantIsAskedForThroughIsOrMutated(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	read := regexp.MustCompile(`\.(mutant|several)\b`)
	allowed := map[string]bool{
		"engine.go:g.mutant, g.several = mutant, strings.Contains(mutant, \"+\")":                                      true,
		"mutants.go:return g.mutant == m.Name || g.several && slices.Contains(strings.Split(g.mutant, \"+\"), m.Name)": true,
		"mutants.go:return g.mutant != \"\"":                                                                           true,
	}
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for n, line := range strings.Split(string(data), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if !read.MatchString(code) {
				continue
			}
			seen++
			assert.True(t, allowed[f+":"+strings.TrimSpace(code)], "%s:%d reads the game's mutant other than through game.is or game.mutated: %s", f, n+1, strings.TrimSpace(code))
		}
	}
	assert.Equal(t, len(allowed), seen, "the reads allowed are not all where they were")
}
