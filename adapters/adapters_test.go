package adapters_test

import (
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/mergecheck/mergecheck/reference"
)

// toyFeatures are the features adapters/python/toy_engine.py declares.
var toyFeatures = []model.Feature{model.FeatureMergedStacks, model.FeatureMutate, model.FeatureIllegalTargets, model.FeatureProtection}

// toyObservers are the observers it reports.
var toyObservers = []model.Observer{model.CreatureDies, model.CardToGraveyard, model.TurnedFaceUp, model.CreatureEnters, model.Mutates}

// toyCommand returns the command that starts the toy adapter, skipping
// the test where python3 is missing.
func toyCommand(t *testing.T) string {
	t.Helper()
	python := testenv.Python3(t)
	path, err := filepath.Abs(filepath.Join("python", "toy_engine.py"))
	require.NoError(t, err)
	return python + " '" + path + "'"
}

// nodeToyCommand returns the command that starts the Node port of the toy
// adapter, skipping the test, with a message, where node is missing.
func nodeToyCommand(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH: the Node example (adapters/node) is not tested here")
	}
	path, err := filepath.Abs(filepath.Join("node", "toy_engine.mjs"))
	require.NoError(t, err)
	return "node '" + path + "'"
}

// buildMergecheck builds the command into a temporary directory.
func buildMergecheck(t *testing.T) (bin, dir string) {
	t.Helper()
	dir = t.TempDir()
	bin = filepath.Join(dir, "mergecheck")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/mergecheck/mergecheck/cmd/mergecheck").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin, dir
}

// result is the part of a mergecheck.results/v1 result the test reads.
type result struct {
	Rule    string `json:"rule"`
	Verdict string `json:"verdict"`
	Why     string `json:"why"`
	Cases   int    `json:"cases"`
}

// runToy runs `mergecheck run` against the toy adapter and returns the
// results by rule, with the run's standard output for failure messages.
func runToy(t *testing.T, bin, dir, engine, rules, checks string, seed int) (map[string]result, string) {
	t.Helper()
	js := filepath.Join(dir, "r.json")
	os.Remove(js)
	args := []string{"run", "--engine", "exec:" + engine, "--checks", checks, "--seed", strconv.Itoa(seed), "--corpus", "", "--json", js,
		"--timeout", "1m"} // far past a case's milliseconds, however busy the machine
	if rules != "" {
		args = append(args, "--rules", rules)
	}
	cmd := exec.Command(bin, args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run() // a non-zero exit is judged from the results below
	data, err := os.ReadFile(js)
	require.NoError(t, err, "no results (%v)\nstdout:\n%s\nstderr:\n%s", runErr, stdout.String(), stderr.String())
	var doc struct {
		Results []result `json:"results"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	out := map[string]result{}
	for _, r := range doc.Results {
		out[r.Rule] = r
	}
	return out, stdout.String()
}

// TestToyEngine runs mergecheck against the toy adapter over the protocol:
// it never fails a rule or faults, it is judged unsupported where it lacks
// a feature, and it holds the rules it implements.
func TestToyEngine(t *testing.T) {
	engine := toyCommand(t)
	bin, dir := buildMergecheck(t)

	t.Run("no rule fails and missing features are unsupported", func(t *testing.T) {
		rules := "730.2,730.2b,730.2c,730.2d,730.2e,730.3,702.140c,702.140e,712.21e"
		got, stdout := runToy(t, bin, dir, engine, rules, "30", 1)
		require.Len(t, got, len(strings.Split(rules, ",")), stdout)
		for rule, r := range got {
			assert.NotContains(t, []string{"failed", "engine-fault"}, r.Verdict, "%s: %s\n%s", rule, r.Why, stdout)
			p := properties.Find(properties.All, model.RuleID(rule))
			require.NotNil(t, p, rule)
			lacks := slices.ContainsFunc(p.Needs, func(f model.Feature) bool { return !model.Provides(toyFeatures, f) })
			if lacks || p.Events { // events: the toy's traces are partial
				assert.Equal(t, "unsupported", r.Verdict, "%s needs %v: %s\n%s", rule, p.Needs, r.Why, stdout)
			}
		}
		assert.Equal(t, "unsupported", got["730.2e"].Verdict, "730.2e needs face_down")
		assert.Equal(t, "unsupported", got["712.21e"].Verdict, "712.21e needs meld")
	})

	t.Run("it holds every rule its features reach, at every seed", func(t *testing.T) {
		holdsWhatItDeclares(t, bin, dir, engine)
	})

	t.Run("its Markdown report fits a pull-request comment", func(t *testing.T) {
		runToy(t, bin, dir, engine, "", "100", 1)
		md := filepath.Join(dir, "toy.md")
		out, err := exec.Command(bin, "report", filepath.Join(dir, "r.json"), "--md", md).CombinedOutput()
		require.NoError(t, err, "%s", out)
		info, err := os.Stat(md)
		require.NoError(t, err)
		assert.Less(t, info.Size(), int64(4096), "the toy's Markdown report")
	})
}

// TestNodeToyEngineHoldsWhatItDeclares: the Node toy too holds every rule
// its features reach at each seed 1 to 5.
func TestNodeToyEngineHoldsWhatItDeclares(t *testing.T) {
	engine := nodeToyCommand(t)
	bin, dir := buildMergecheck(t)
	holdsWhatItDeclares(t, bin, dir, engine)
}

// holdsWhatItDeclares checks a toy at seeds 1 to 5. The generators draw
// only what the toy declares (merged stacks and mutate), so it is judged
// on every rule those reach, held at each seed: the rules adapters/README
// lists, and as many as the README says. Its traces are partial, so the rules read from
// zone changes and reveals are unsupported, as are those needing a
// feature it lacks.
func holdsWhatItDeclares(t *testing.T, bin, dir, engine string) {
	t.Helper()
	documented := toyHeldInDocs(t)
	for seed := 1; seed <= 5; seed++ {
		got, stdout := runToy(t, bin, dir, engine, "", "100", seed)
		var held []model.RuleID
		for _, p := range properties.All {
			r := got[string(p.Rule)]
			switch {
			case p.Uncheckable != "":
				assert.Equal(t, "unchecked", r.Verdict, p.Rule)
			case slices.Contains(documented, p.Rule):
				held = append(held, p.Rule)
				assert.True(t, toyCanBeJudgedOn(p), "%s: the docs list it, and it needs what the toy lacks", p.Rule)
				assert.Equal(t, "held", r.Verdict, "seed %d, %s: %s\n%s", seed, p.Rule, r.Why, stdout)
			default:
				assert.Equal(t, "unsupported", r.Verdict, "seed %d, %s: %s\n%s", seed, p.Rule, r.Why, stdout)
			}
		}
		assert.Equal(t, documented, held, "seed %d: the rules the toy holds (want: adapters/README's list)", seed)
	}
}

// toyHeldInDocs reads the rules a toy holds from adapters/README ("holds
// N rules at each seed 1 to 5 (LIST)"), and checks that the README's
// sentence on the toy says as many.
func toyHeldInDocs(t *testing.T) []model.RuleID {
	t.Helper()
	doc, err := os.ReadFile("README.md")
	require.NoError(t, err)
	m := regexp.MustCompile(`holds ([0-9]+) rules at each seed 1 to 5\s+\(([^)]*)\)`).FindStringSubmatch(string(doc))
	require.NotNil(t, m, "adapters/README's list of the rules the toy holds")
	held, err := testenv.RuleList(m[2])
	require.NoError(t, err)
	require.Equal(t, m[1], strconv.Itoa(len(held)), "adapters/README's count of the rules it lists")
	root, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(root), fmt.Sprintf("holds the %d rules those reach", len(held)), "the README's count of the rules the toy holds")
	return held
}

// toyRefuses are the rules whose situations are drawn only with what the
// toys refuse though no feature names it, with why: they are unsupported
// for the toys, and never held on the cases without them.
var toyRefuses = map[model.RuleID]string{
	"702.18a": "shroud comes from Lightning Greaves, and the toys refuse Auras and Equipment",
	"702.11b": "hexproof comes from a hexproof counter, and the toys refuse counters but +1/+1 and -1/-1",
	"502.3":   "the untap step comes with next_turn, an action the toys do not play",
}

// toyCanBeJudgedOn reports whether the toy declares what p needs: its
// features and observers, and whole traces if p reads zone changes; and
// whether it plays what p's situations are drawn with (toyRefuses).
func toyCanBeJudgedOn(p *properties.Property) bool {
	if _, ok := toyRefuses[p.Rule]; ok {
		return false
	}
	return !p.Events && !slices.ContainsFunc(p.Needs, func(f model.Feature) bool { return !model.Provides(toyFeatures, f) }) &&
		!slices.ContainsFunc(p.Observes, func(o model.Observer) bool { return !slices.Contains(toyObservers, o) })
}

// TestNodeToyEngineAgreesWithPython: the Node port of the toy is judged
// exactly as the Python toy, rule by rule: the same verdicts on the same
// cases, with the same refusals.
func TestNodeToyEngineAgreesWithPython(t *testing.T) {
	node := nodeToyCommand(t)
	python := toyCommand(t)
	bin, dir := buildMergecheck(t)
	want, _ := runToy(t, bin, dir, python, "", "100", 1)
	got, stdout := runToy(t, bin, dir, node, "", "100", 1)
	require.Len(t, got, len(want), stdout)
	for rule, w := range want {
		assert.Equal(t, w, got[rule], "%s\n%s", rule, stdout)
	}
	assert.Equal(t, "held", got["730.3"].Verdict, stdout)
}

// TestToyEngineMatchesTheReference plays every example scenario through the
// toy adapters, in Python and in Node, and compares each trace they return
// with the reference engine's: where a toy accepts a scenario, it must be
// right.
func TestToyEngineMatchesTheReference(t *testing.T) {
	t.Run("python", func(t *testing.T) { toyMatchesTheReference(t, toyCommand(t)) })
	t.Run("node", func(t *testing.T) { toyMatchesTheReference(t, nodeToyCommand(t)) })
}

func toyMatchesTheReference(t *testing.T, command string) {
	e, err := harness.NewExec(command, harness.ExecOptions{})
	require.NoError(t, err)
	defer e.Close()
	files, err := filepath.Glob(filepath.Join("..", "reference", "testdata", "examples", "*.scenario.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	accepted := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		s, err := model.DecodeScenario(data)
		require.NoError(t, err, f)
		got, err := e.Run(context.Background(), s)
		if err != nil {
			require.ErrorIs(t, err, harness.ErrUnsupported, "%s: the toy refuses only as unsupported", f)
			continue
		}
		accepted++
		want, err := reference.Run(s)
		require.NoError(t, err, f)
		assert.Equal(t, normal(t, reported(want, e.Info().Observers)), normal(t, got), "%s: the toy's trace differs from the reference's", filepath.Base(f))
	}
	assert.GreaterOrEqual(t, accepted, 5, "the toy plays the mutate and leave-the-battlefield examples")
}

// normal returns a trace as generic JSON without the engine's name, so that
// traces from two engines compare equal when they say the same.
// reported returns tr without the triggers of observers outside obs:
// those an engine does not declare are never compared.
func reported(tr *model.Trace, obs []model.Observer) *model.Trace {
	c := *tr
	c.Steps = slices.Clone(tr.Steps)
	for i := range c.Steps {
		c.Steps[i].Events = slices.DeleteFunc(slices.Clone(c.Steps[i].Events), func(e model.Event) bool {
			return e.Kind == model.Trigger && !slices.Contains(obs, e.Observer)
		})
	}
	return &c
}

func normal(t *testing.T, tr *model.Trace) any {
	t.Helper()
	c := *tr
	c.Engine = ""
	if c.Steps == nil {
		c.Steps = []model.Step{}
	}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}
