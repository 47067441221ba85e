package enginetest

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Replay plays scenario files on e, each in a subtest named after the
// scenario, and judges it as mergecheck replay does: every property, the
// trace's own accounting and the scenario's expectations. A path that is
// a directory stands for the worked examples (*.scenario.json) and corpus
// files (RULE-HASH.json) below it, so mergecheck's own examples, or a
// corpus Run saved, can be played in a vendor's go test:
//
//	enginetest.Replay(t, myEngine, "testdata/mergecheck-corpus")
//
// A scenario that uses a feature e does not declare, or that e refuses,
// is skipped with the reason.
func Replay(t *testing.T, e engine.Engine, paths ...string) {
	t.Helper()
	files, skipped, err := harness.ScenarioFiles(paths)
	for _, s := range skipped {
		t.Logf("enginetest: skipped %s", s)
	}
	if err != nil {
		t.Fatalf("enginetest: %v", err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("enginetest: %v", err)
			continue
		}
		s, err := model.DecodeScenario(data)
		if err != nil {
			t.Errorf("enginetest: %s: %v", path, err)
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			if lacks := e.Info().Lacks(reference.Uses(s)); len(lacks) > 0 {
				t.Skipf("%s uses %v, which the engine does not declare", path, lacks)
			}
			tr, problems, err := harness.PlayAndJudge(context.Background(), e, s, properties.All)
			switch {
			case errors.Is(err, engine.ErrUnsupported):
				t.Skipf("%s: %v", path, err)
			case err != nil:
				t.Fatalf("%s: %v", path, err)
			}
			if err := errors.Join(append(problems, model.CheckExpectations(harness.Judgeable(s, e.Info()), tr))...); err != nil {
				t.Errorf("%s:\n\t%s", path, strings.ReplaceAll(err.Error(), "\n", "\n\t"))
			}
		})
	}
}
