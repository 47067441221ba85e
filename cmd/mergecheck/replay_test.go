package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/properties"
)

// declared is an engine that declares what it is told to, whatever it is.
type declared struct {
	harness.Engine
	partial bool
}

func (d declared) Info() harness.EngineInfo {
	i := d.Engine.Info()
	i.PartialTraces = d.partial
	return i
}

// TestReplayJudgesPartialTracesAsRunDoes: replay, like run, leaves out
// the rules judged on zone changes and reveals for an engine whose traces
// are partial, and the expectations about events too; with whole traces
// the same bug is found.
func TestReplayJudgesPartialTracesAsRunDoes(t *testing.T) {
	files, err := scenarioFiles([]string{"../../reference/testdata/examples"})
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
			e := declared{mutant, partial}
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
			for _, x := range judgeable(s, e.Info()).Expect {
				assert.Empty(t, x.Triggers, f)
				assert.Nil(t, x.LeftBattlefield, f)
			}
		}
	}
	assert.Positive(t, found, "with whole traces the mutant is caught")
}
