package harness

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mergecheck/mergecheck/model"
)

// ScenarioFiles expands paths: a file names itself, a directory
// every worked example (*.scenario.json) and corpus file (RULE-HASH.json,
// as run saves them) below it, in lexical order.
func ScenarioFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if _, corpus := CorpusRule(path); !d.IsDir() && (strings.HasSuffix(path, ".scenario.json") || corpus) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no *.scenario.json or corpus (RULE-HASH.json) files", p)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// Judgeable returns s with the expectations that can judge an engine like
// info: for one whose traces are partial, without the claims about events
// (triggers, reveals or their absence, nothing happening, the order of
// events, what left the battlefield): an event it doesn't report would
// fail them, or its absence meet them vacuously. That an action is not
// allowed every engine must report.
func Judgeable(s *model.Scenario, info EngineInfo) *model.Scenario {
	if !info.PartialTraces {
		return s
	}
	c := *s
	c.Expect = slices.Clone(s.Expect)
	for i := range c.Expect {
		x := &c.Expect[i]
		x.Triggers, x.NothingHappens, x.Revealed, x.LeftBattlefield = nil, "", nil, nil
		x.NoReveal, x.Sequence = false, nil
	}
	return &c
}
