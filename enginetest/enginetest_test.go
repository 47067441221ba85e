package enginetest_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/adapter"
	"github.com/mergecheck/mergecheck/enginetest"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/testenv"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/reference"
)

// TestMain keeps rapid from writing fail files into this package, and
// runs the tests with the garbage collector set for them (package
// testenv).
func TestMain(m *testing.M) {
	flag.Parse()
	_ = flag.Set("rapid.nofailfile", "true")
	_ = flag.Set("mergecheck.corpus", "") // tests that want a corpus set their own
	testenv.Main(m)
}

// TestEngine is what a vendor writes: the reference passes every rule.
func TestEngine(t *testing.T) {
	e, err := harness.Reference("")
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Run(t, e)
}

// TestMutantFailsItsRule runs enginetest.Run on a mutant in a test tree of
// its own (testing.RunTests), so that its failure is observed rather than
// failing this test.
func TestMutantFailsItsRule(t *testing.T) {
	e, err := harness.Reference("token-if-any-token")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var failed []string
	ok := testing.RunTests(func(pat, str string) (bool, error) { return true, nil }, []testing.InternalTest{{
		Name: "TestVendorEngine",
		F: func(t *testing.T) {
			enginetest.Run(t, e, properties.P730_2d, properties.P730_3)
			mu.Lock()
			defer mu.Unlock()
			if t.Failed() {
				failed = append(failed, "failed")
			}
		},
	}})
	if ok {
		t.Fatal("the mutant passed 730.2d")
	}
	if len(failed) == 0 {
		t.Fatal("enginetest.Run reported no failure")
	}
}

// TestSkipsWhatTheEngineLacks: a rule needing an undeclared feature is
// skipped with the reason, never passed.
func TestSkipsWhatTheEngineLacks(t *testing.T) {
	e := narrow{}
	t.Run("inner", func(t *testing.T) {
		enginetest.Run(t, e, properties.P701_42a)
	})
}

type narrow struct{}

func (narrow) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "narrow", Features: []model.Feature{model.FeatureMerge}}
}

func (narrow) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	panic("a skipped rule must not run the engine: " + strings.Join(nil, ""))
}

// kit is the reference, or one of its mutants, written for the adapter
// kit, as a vendor's Go engine is.
func kit(t *testing.T, mutant string) adapter.Engine {
	t.Helper()
	if mutant != "" {
		require.NotNil(t, reference.FindMutant(mutant))
	}
	return adapter.Engine{Name: "kit", Version: "1",
		Capabilities: protocol.Capabilities{Features: model.Features},
		Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) {
			return reference.RunMutant(s, mutant)
		}}
}

// TestKitEngine_RunsWithoutAWrapper: an engine written for the adapter kit
// is given to enginetest.Run as it is, and its bug fails its rule (the
// kit's answers are tested in package adapter).
func TestKitEngine_RunsWithoutAWrapper(t *testing.T) {
	enginetest.Run(t, kit(t, ""), properties.P730_2d, properties.P730_3)

	var mu sync.Mutex
	failed := false
	testing.RunTests(func(pat, str string) (bool, error) { return true, nil }, []testing.InternalTest{{
		Name: "TestKitMutant",
		F: func(t *testing.T) {
			enginetest.Run(t, kit(t, "token-if-any-token"), properties.P730_2d)
			mu.Lock()
			defer mu.Unlock()
			failed = t.Failed()
		},
	}})
	assert.True(t, failed, "the kit engine's bug passed 730.2d")
}

// TestFailureIsSavedWhereReplayFindsIt: a counterexample enginetest finds
// is saved as a corpus file (RULE-HASH.json), which mergecheck replay
// plays and on which the engine still fails the rule.
func TestFailureIsSavedWhereReplayFindsIt(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, flag.Set("mergecheck.corpus", dir))
	defer flag.Set("mergecheck.corpus", "")
	e, err := harness.Reference("token-if-any-token")
	require.NoError(t, err)
	testing.RunTests(func(pat, str string) (bool, error) { return true, nil }, []testing.InternalTest{{
		Name: "TestVendorEngineSaves",
		F:    func(t *testing.T) { enginetest.Run(t, e, properties.P730_2d) },
	}})
	files, err := filepath.Glob(filepath.Join(dir, "730.2d-*.json"))
	require.NoError(t, err)
	require.Len(t, files, 1, "the counterexample is saved, named by its rule")
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	s, err := model.DecodeScenario(data)
	require.NoError(t, err)
	problem, fault := harness.CheckScenario(context.Background(), e, properties.P730_2d, s, time.Minute)
	assert.NoError(t, fault)
	assert.Error(t, problem, "the saved scenario still shows the failure")
}

// TestReplay_PlaysTheWorkedExamplesInProcess: enginetest.Replay judges
// scenario files on an in-process engine as mergecheck replay does: the
// reference keeps every worked example, and a mutant fails some.
func TestReplay_PlaysTheWorkedExamplesInProcess(t *testing.T) {
	examples := filepath.Join("..", "reference", "testdata", "examples")
	ref, err := harness.Reference("")
	require.NoError(t, err)
	enginetest.Replay(t, ref, examples)

	mutant := kit(t, "dies-per-card")
	ok := testing.RunTests(func(pat, str string) (bool, error) { return true, nil }, []testing.InternalTest{{
		Name: "TestVendorReplay",
		F:    func(t *testing.T) { enginetest.Replay(t, mutant, examples) },
	}})
	assert.False(t, ok, "the mutant kept every worked example")
}
