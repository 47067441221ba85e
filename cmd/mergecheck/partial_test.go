package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/testenv"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// partialRun runs the whole suite at the default checks against the
// reference served over the protocol with serve's flags, and returns each
// rule's verdict and why.
func partialRun(t *testing.T, serveArgs string, seed int) map[model.RuleID][2]string {
	t.Helper()
	bin := binary(t)
	path := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(bin, "run", "--engine", "exec:"+bin+" serve "+serveArgs, "--seed", strconv.Itoa(seed),
		"--corpus", "", "--json", path, "--progress", "off",
		"--timeout", "1m") // far past a case's milliseconds, however busy the machine
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	require.True(t, err == nil || errors.As(err, &ee), "%v\n%s", err, out)
	data, err := os.ReadFile(path)
	require.NoError(t, err, string(out))
	var doc struct {
		Results []struct {
			Rule    model.RuleID `json:"rule"`
			Verdict string       `json:"verdict"`
			Why     string       `json:"why"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	got := map[model.RuleID][2]string{}
	for _, r := range doc.Results {
		got[r.Rule] = [2]string{r.Verdict, r.Why}
	}
	return got
}

// partialCheck checks, in process and at the default checks, the engine
// serve would serve for c, and returns what partialRun does. Runs that
// share d at a seed take their draws from it. The tests put one seed over
// the protocol (partialRun) and the rest in process, which judges the
// same engine without a process and its encoding.
func partialCheck(t *testing.T, c serving, seed int, d *harness.Draws) map[model.RuleID][2]string {
	t.Helper()
	e, err := served(c)
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 100, Seed: uint64(seed), Draws: d})
	require.NoError(t, err)
	got := map[model.RuleID][2]string{}
	for _, r := range res.Results {
		got[r.Rule] = [2]string{string(r.Verdict), r.Why}
	}
	return got
}

// judgePartial is the verdicts of the engine serve serves with the
// serveArgs over the protocol at seed 1 (partialRun), and of the same
// engine, c, in process at the other seeds (partialCheck), those runs
// sharing draws a seed with the runs given the same d.
func judgePartial(t *testing.T, serveArgs string, c serving, seed int, d *harness.Draws) map[model.RuleID][2]string {
	t.Helper()
	if seed == 1 {
		return partialRun(t, serveArgs, seed)
	}
	return partialCheck(t, c, seed, d)
}

// declares reports whether an engine declaring features meets every need
// of p (its observers are all reported: the reference reports them).
func declares(features []model.Feature, p *properties.Property) bool {
	expanded, _ := model.ExpandFeatures(features)
	return !slices.ContainsFunc(p.Needs, func(f model.Feature) bool { return !model.Provides(expanded, f) })
}

// TestPartialEngine_MutateAndMerge: an engine declaring only mutate and
// merge is given only scenarios it declares, so every rule whose needs
// those meet is held at every seed (none uncovered, none unsupported for
// draws it was refused), the rest are unsupported naming what they need,
// the same rules at every seed; and the same engine with "dies" firing
// once per card fails 730.3 at every seed. Seed 1 is played over the
// protocol, the others in process (judgePartial).
func TestPartialEngine_MutateAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite twenty-five times")
	}
	features := []model.Feature{model.FeatureMutate, model.FeatureMerge}
	expanded, _ := model.ExpandFeatures(features)
	row := regexp.MustCompile("\\| `mutate,merge` \\| ([0-9]+) \\(([^)]*)\\)").FindStringSubmatch(readREADME(t))
	require.NotNil(t, row, "the README's row for mutate,merge")
	documented, err := testenv.RuleList(row[2])
	require.NoError(t, err)
	require.Equal(t, row[1], strconv.Itoa(len(documented)), "the README's count of the rules it lists for mutate,merge")
	var first []model.RuleID
	for seed := 1; seed <= 10; seed++ {
		draws := harness.NewDraws() // the engine and its bug draw alike
		got := judgePartial(t, "--features mutate,merge", serving{features: expanded}, seed, draws)
		var unsupported, held []model.RuleID
		for _, p := range properties.All {
			v := got[p.Rule]
			switch {
			case p.Uncheckable != "":
				assert.Equal(t, "unchecked", v[0], p.Rule)
			case declares(features, p) && strings.Contains(v[1], "no scenario reaches this rule"):
				// Its needs are met, but only a feature the engine lacks
				// reaches its situation (712.8d: a double-faced card).
				unsupported = append(unsupported, p.Rule)
				assert.Equal(t, "unsupported", v[0], "seed %d, %s: %s", seed, p.Rule, v[1])
			case declares(features, p):
				held = append(held, p.Rule)
				assert.Equal(t, "held", v[0], "seed %d, %s: %s", seed, p.Rule, v[1])
			default:
				unsupported = append(unsupported, p.Rule)
				assert.Equal(t, "unsupported", v[0], "seed %d, %s: %s", seed, p.Rule, v[1])
				assert.Contains(t, v[1], "does not declare the feature", "seed %d, %s", seed, p.Rule)
			}
		}
		assert.Equal(t, documented, held, "seed %d: the rules mutate and merge reach (want: the README's list)", seed)
		if first == nil {
			first = unsupported
		}
		assert.Equal(t, first, unsupported, "seed %d: the same rules unsupported at every seed", seed)

		bug := judgePartial(t, "--features mutate,merge --mutant dies-per-card", serving{features: expanded, mutant: "dies-per-card"}, seed, draws)
		assert.Equal(t, "failed", bug["730.3"][0], "seed %d: %s", seed, bug["730.3"][1])
	}
	// Held means held for a partial engine too: one that skips what the
	// rules do holds nothing. (serve over the protocol is checked with
	// these features above, and with these lazy engines by
	// TestServedLazyEnginesHoldNothingTheySkip.)
	// The one exception: no-events gives the rules' states, and 502.3
	// speaks only of states (status_change events are optional), so it
	// obeys 502.3 and must hold it.
	draws := harness.NewDraws()
	for _, lazy := range []string{"no-steps", "frozen", "no-events", "drop-lower", "flags-lie"} {
		for rule, v := range partialCheck(t, serving{features: expanded, lazy: lazy}, 1, draws) {
			if lazy == "no-events" && rule == "502.3" {
				assert.Equal(t, "held", v[0], "lazy no-events, right on every state, on 502.3: %s", v[1])
				continue
			}
			assert.NotEqual(t, "held", v[0], "lazy %s holds %s", lazy, rule)
		}
	}
}

// TestPartialEngine_AllButFlipMeldCommander: an engine declaring every
// feature but flip, meld and commander has the same rules unsupported at
// every seed, each naming flip, meld or commander, and none for draws it
// was refused. Seed 1 is played over the protocol, the others in process.
func TestPartialEngine_AllButFlipMeldCommander(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite ten times")
	}
	features := slices.DeleteFunc(slices.Clone(model.Features), func(f model.Feature) bool {
		return f == model.FeatureFlip || f == model.FeatureMeld || f == model.FeatureCommander
	})
	declared, _ := model.ExpandFeatures(features)
	var first []model.RuleID
	for seed := 1; seed <= 10; seed++ {
		got := judgePartial(t, "--features "+strings.Join(featureNames(features), ","), serving{features: declared}, seed, nil)
		var unsupported []model.RuleID
		for _, p := range properties.All {
			v := got[p.Rule]
			if v[0] == "unsupported" {
				unsupported = append(unsupported, p.Rule)
				assert.Regexp(t, `does not declare the feature .*(flip|meld|commander)`, v[1], "seed %d, %s", seed, p.Rule)
				continue
			}
			assert.Contains(t, []string{"held", "unchecked"}, v[0], "seed %d, %s: %s", seed, p.Rule, v[1])
		}
		assert.NotEmpty(t, unsupported)
		if first == nil {
			first = unsupported
		}
		assert.Equal(t, first, unsupported, "seed %d: the same rules unsupported at every seed", seed)
	}
}

// featureNames are the names of features.
func featureNames(features []model.Feature) []string {
	var names []string
	for _, f := range features {
		names = append(names, string(f))
	}
	return names
}

// TestServeFeatures_UnknownNameIsAnError: serve --features names a
// feature it does not know, and exits 2.
func TestServeFeatures_UnknownNameIsAnError(t *testing.T) {
	code, _, errOut := mc(t, "serve", "--features", "mutate,teleport")
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, `unknown feature "teleport"`)
}
