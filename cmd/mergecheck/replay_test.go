package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/internal/words"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
)

// partialDecl is an engine that declares what it is told to, whatever it is.
type partialDecl struct {
	harness.Engine
	partial bool
}

func (d partialDecl) Info() harness.EngineInfo {
	i := d.Engine.Info()
	i.PartialTraces = d.partial
	return i
}

// TestReplayJudgesPartialTracesAsRunDoes: replay, like run, leaves out
// the rules judged on zone changes and reveals for an engine whose traces
// are partial, and the expectations about events too; with whole traces
// the same bug is found.
func TestReplayJudgesPartialTracesAsRunDoes(t *testing.T) {
	files, _, err := harness.ScenarioFiles([]string{"../../reference/testdata/examples"})
	require.NoError(t, err)
	mutant, err := harness.Reference("ignore-order")
	require.NoError(t, err)
	events := map[string]bool{}
	for _, p := range properties.All {
		events[string(p.Rule)] = p.Events
	}
	found := 0
	for _, f := range files {
		s, err := loadScenario(f)
		require.NoError(t, err)
		for _, partial := range []bool{true, false} {
			e := partialDecl{mutant, partial}
			_, problems, err := judgeScenario(context.Background(), e, s)
			require.NoError(t, err, f)
			if !partial {
				found += len(problems)
				continue
			}
			for _, p := range problems {
				rule, _, _ := strings.Cut(p.Error(), ":")
				assert.False(t, events[rule], "%s: a rule judged on events judged partial traces: %v", f, p)
			}
			for _, x := range harness.Judgeable(s, e.Info()).Expect {
				assert.Empty(t, x.Triggers, f)
				assert.Nil(t, x.LeftBattlefield, f)
			}
		}
	}
	assert.Positive(t, found, "with whole traces the mutant is caught")
}

// writeScenario writes s into dir as NAME.scenario.json and returns the path.
func writeScenario(t *testing.T, dir string, s *model.Scenario) string {
	t.Helper()
	data, err := model.Encode(s)
	require.NoError(t, err)
	path := filepath.Join(dir, s.Name+".scenario.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// TestReplayChecksWhatTheReferenceCanPlay: when the reference refuses a
// later action, the expectations about the steps before it are still
// checked, and can fail; when it refuses one starting permanent that
// nothing else names, the rest of the file is played and checked.
func TestReplayChecksWhatTheReferenceCanPlay(t *testing.T) {
	dir := t.TempDir()
	later := func(tapped bool) *model.Scenario {
		bd := build.New(fmt.Sprintf("later-refused-%t", tapped), "Bears taps; then a face-down flip card is told to flip, which the reference refuses.")
		bd.Card("c1", build.A, "Grizzly Bears")
		bd.Card("c2", build.A, "Jushi Apprentice")
		return bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.A, build.Down("c2", model.ByManifest)).
			Do(model.Action{Type: model.Tap, Object: "p1"}).
			Expect(model.Expectation{Permanents: map[model.ObjectID]model.PermanentClaim{"p1": {Status: &model.Status{Tapped: tapped}}}}).
			Do(model.Action{Type: model.Flip, Object: "p2"}).
			Expect(model.Expectation{Battlefield: ptrTo(2)}).Scenario()
	}
	code, out, _ := mc(t, "replay", writeScenario(t, dir, later(true)))
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "PART  later-refused-true")
	assert.Contains(t, out, "1 action and 1 expectation hold")
	assert.Contains(t, out, "action 1 and after: ")
	assert.Contains(t, out, "flip-face-down-permanent")
	assert.Contains(t, out, "1 scenario: 0 held, 1 held in part, 0 failed")

	code, out, _ = mc(t, "replay", writeScenario(t, dir, later(false)))
	assert.Equal(t, exitFailed, code, out)
	assert.Contains(t, out, "FAIL  later-refused-false")

	bd := build.New("start-refused", "Two independent permanents; one has components of two owners, which the reference refuses.")
	bd.Card("c1", build.A, "Grizzly Bears")
	bd.Card("c2", build.A, "Gemrazer")
	bd.Card("c3", build.B, "Runeclaw Bear")
	start := bd.Perm("p1", build.A, build.Up("c1")).Perm("p2", build.A, build.Up("c2"), build.Up("c3")).
		Do(model.Action{Type: model.Tap, Object: "p1"}).
		Expect(model.Expectation{Battlefield: ptrTo(2), Permanents: map[model.ObjectID]model.PermanentClaim{
			"p1": {Status: &model.Status{Tapped: true}}, "p2": {Components: []model.ObjectID{"c2", "c3"}}}}).Scenario()
	code, out, _ = mc(t, "replay", writeScenario(t, dir, start))
	assert.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "PART  start-refused")
	assert.Contains(t, out, "starting permanent p2 and the claims about it")
	assert.Contains(t, out, "merged-permanent-with-several-owners")

	// A refused permanent that an action names is not independent: the
	// file is refused whole, as before.
	start.Actions = append(start.Actions, model.Action{Type: model.Tap, Object: "p2"})
	start.Name = "start-refused-named"
	code, _, errOut := mc(t, "replay", writeScenario(t, dir, start))
	assert.Equal(t, exitTrouble, code, errOut)
	assert.Contains(t, errOut, "merged-permanent-with-several-owners")
}

func ptrTo[T any](v T) *T { return &v }

// TestNotAllowedAndAttacksAreJudgedForEveryEngine: whether an action could
// be taken, and who attacked, is compared with the rules' for any engine,
// partial traces too: the reference agrees with itself, and an engine that
// lets a new creature attack, or reports no events at all, fails.
func TestNotAllowedAndAttacksAreJudgedForEveryEngine(t *testing.T) {
	for _, name := range []string{"302.6-creature-cast-this-turn-cannot-attack", "302.6-mutated-creature-can-attack", "702.140a-mutate-cannot-target-a-human"} {
		s, err := loadScenario("../../reference/testdata/examples/" + name + ".scenario.json")
		require.NoError(t, err)
		ref, err := harness.Reference("")
		require.NoError(t, err)
		_, problems, err := judgeScenario(context.Background(), ref, s)
		require.NoError(t, err)
		assert.Empty(t, problems, name)

		silent, err := harness.Lazy("no-events", 1)
		require.NoError(t, err)
		for _, e := range []harness.Engine{silent, partialDecl{silent, true}} {
			_, problems, err = judgeScenario(context.Background(), e, s)
			require.NoError(t, err)
			assert.NotEmpty(t, problems, "%s: an engine reporting no events holds it", name)
		}
	}
	// The forbidden cast has no other event: 702.140a's check sees an
	// engine that says nothing.
	s, err := loadScenario("../../reference/testdata/examples/702.140a-mutate-cannot-target-a-human.scenario.json")
	require.NoError(t, err)
	silent, err := harness.Lazy("no-events", 1)
	require.NoError(t, err)
	_, problems, err := judgeScenario(context.Background(), partialDecl{silent, true}, s)
	require.NoError(t, err)
	assert.Contains(t, errors.Join(problems...).Error(), "702.140a: after action 0 (cast_mutate), the engine does not answer that c2 can't be cast at p1 (no not_allowed)")

	s, err = loadScenario("../../reference/testdata/examples/302.6-creature-cast-this-turn-cannot-attack.scenario.json")
	require.NoError(t, err)
	m, err := harness.Reference("attack-ignores-summoning-sickness")
	require.NoError(t, err)
	_, problems, err = judgeScenario(context.Background(), m, s)
	require.NoError(t, err)
	require.NotEmpty(t, problems)
	// The rules whose check sees the declaration name it (CR 302.6, 508.1a).
	assert.Contains(t, errors.Join(problems...).Error(), "302.6: after action 2 (attack), c1@1 attacks, but the rules forbid the declaration")
}

// TestReplayCorpusDirectoryOverTheProtocol: the files run saves into its
// corpus are replayed as a directory, over the protocol: they hold on the
// reference and fail on the mutant that made them.
func TestReplayCorpusDirectoryOverTheProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	dir := t.TempDir()
	code, out, _ := mc(t, "run", "--engine", "mutant:ignore-order", "--rules", "730.3a,730.2d", "--seed", "1", "--corpus", dir)
	require.Equal(t, exitFailed, code, out)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.json"), []byte("{}"), 0o644)) // neither kind of file: left alone

	code, out, errOut := mc(t, "replay", "--engine", "exec:"+binary(t)+" serve", dir)
	assert.Equal(t, exitOK, code, out+errOut)
	assert.Contains(t, out, fmt.Sprintf("%s: %d held, ", words.Count(len(files), "scenario"), len(files)))

	code, out, errOut = mc(t, "replay", "--engine", "exec:"+binary(t)+" serve --mutant ignore-order", dir)
	assert.Equal(t, exitFailed, code, out+errOut)
	assert.Contains(t, out, "FAIL  ")
	assert.Contains(t, out, "730.3a")
}

// TestReplayBuildsMergedStacksForEnginesWithoutDirectSetup: a worked
// example that starts from a merged stack is played by an engine that
// can't set one up, its stack built by casting as run builds it, and its
// expectations are still checked: they hold on the reference and fail on
// a mutant.
func TestReplayBuildsMergedStacksForEnginesWithoutDirectSetup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	example := "../../reference/testdata/examples/730.3-three-card-mutated-creature-dies.scenario.json"
	s, err := loadScenario(example)
	require.NoError(t, err)
	require.Greater(t, len(s.Start.Battlefield[0].Components), 1, "the example starts merged")

	code, out, errOut := mc(t, "replay", "--engine", "exec:"+binary(t)+" serve --no-direct-setup", example)
	assert.Equal(t, exitOK, code, out+errOut)
	assert.Contains(t, out, "ok    730.3-three-card-mutated-creature-dies")
	assert.Contains(t, out, "its merged stacks built by 4 actions before its own")

	code, out, errOut = mc(t, "replay", "--engine", "exec:"+binary(t)+" serve --no-direct-setup --mutant dies-per-card", example)
	assert.Equal(t, exitFailed, code, out+errOut)
	assert.Contains(t, out, "observer creature_dies triggered 3 times, want 1")
}

// TestReplayExitsTroubleWhenTheReferenceCannotPlay: a scenario the
// reference can't play judges no engine, so replay says so and exits 2,
// whatever the engine and whatever it declares.
func TestReplayExitsTroubleWhenTheReferenceCannotPlay(t *testing.T) {
	bd := build.New("reference-refuses", "A merged permanent whose components have two owners, which the reference refuses, is tapped.")
	bd.Card("c1", build.A, "Gemrazer")
	bd.Card("c2", build.B, "Runeclaw Bear")
	s := bd.Perm("p1", build.A, build.Up("c1"), build.Up("c2")).Do(model.Action{Type: model.Tap, Object: "p1"}).Scenario()
	path := writeScenario(t, t.TempDir(), s)
	engines := []string{"reference", "mutant:ignore-order"}
	if !testing.Short() {
		engines = append(engines, "exec:"+binary(t)+" serve", "exec:"+binary(t)+" serve --no-direct-setup")
	}
	for _, engine := range engines {
		code, out, errOut := mc(t, "replay", "--engine", engine, path)
		assert.Equal(t, exitTrouble, code, "%s: %s", engine, out)
		assert.Contains(t, errOut, "the reference engine can't play it", engine)
		assert.NotContains(t, out, "ok    ", engine)
	}
}
