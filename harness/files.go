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
// as run saves them) below it, in lexical order. What is not a regular
// file (a named pipe, a device, a socket), which reading could hang on,
// is never opened: named as a path itself, it is an error; found in a
// directory, it is in skipped, with why.
func ScenarioFiles(paths []string) (files, skipped []string, err error) {
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, err
		}
		if !info.IsDir() {
			if why := notRegular(info); why != "" {
				return nil, nil, fmt.Errorf("%s: %s, not a regular file: not opened", p, why)
			}
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if _, corpus := corpusRule(path); d.IsDir() || !strings.HasSuffix(path, ".scenario.json") && !corpus {
				return nil
			}
			if why := entryNotRegular(path, d); why != "" {
				skipped = append(skipped, fmt.Sprintf("%s: %s, not a regular file: not opened", path, why))
				return nil
			}
			found = append(found, path)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if len(found) == 0 {
			return nil, skipped, fmt.Errorf("%s: no *.scenario.json or corpus (RULE-HASH.json) files", p)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, skipped, nil
}

// notRegular says what a file that is not a regular one is ("a named
// pipe"), or "" for a regular file.
func notRegular(info fs.FileInfo) string {
	m := info.Mode()
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "not a plain file (" + m.Type().String() + ")"
}

// entryNotRegular is notRegular for a directory entry, following a
// symbolic link to what it names.
func entryNotRegular(path string, d fs.DirEntry) string {
	if d.Type().IsRegular() {
		return ""
	}
	info, err := os.Stat(path)
	if err != nil {
		return "unreadable (" + err.Error() + ")"
	}
	return notRegular(info)
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
