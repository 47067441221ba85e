package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
	"github.com/mergecheck/mergecheck/reports"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated examples in docs/PROTOCOL.md")

// eventExamples are docs/PROTOCOL.md's examples of each event kind: the
// first event of each kind (model.EventKinds) that the reference's traces
// of the worked examples hold, taken in file order, with the action that
// made it, as JSON.
func eventExamples(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "reference", "testdata", "examples", "*.scenario.json"))
	require.NoError(t, err)
	slices.Sort(files)
	found := map[model.EventKind]string{}
	for _, f := range files {
		s, err := loadScenario(f)
		require.NoError(t, err)
		tr, err := reference.Run(s)
		require.NoError(t, err, f)
		for _, st := range tr.Steps {
			for _, e := range st.Events {
				if _, ok := found[e.Kind]; ok {
					continue
				}
				data, err := json.Marshal(e)
				require.NoError(t, err)
				found[e.Kind] = fmt.Sprintf("- `%s`, from `%s`, action %d (%s):\n\n  ```json\n  %s\n  ```\n",
					e.Kind, filepath.Base(f), st.Action, reports.ActionWords(s.Actions[st.Action]), data)
			}
		}
	}
	var b strings.Builder
	for _, k := range model.EventKinds {
		ex, ok := found[k]
		if !assert.True(t, ok, "no worked example has a %s event: add one", k) {
			continue
		}
		b.WriteString(ex)
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestProtocolDoc_AnExampleOfEveryEventKind: docs/PROTOCOL.md shows an
// event of every kind as the reference writes it, generated from the
// worked examples so that it never goes stale (go test -run
// TestProtocolDoc ./cmd/mergecheck -update-docs rewrites it).
func TestProtocolDoc_AnExampleOfEveryEventKind(t *testing.T) {
	block := docBlock(t, "PROTOCOL.md", "events", eventExamples(t))
	for _, k := range model.EventKinds {
		assert.Contains(t, block, fmt.Sprintf("\"kind\":%q", k))
	}
}

// docBlock checks that the block of docs/FILE between the markers
// <!-- NAME begin --> and <!-- NAME end --> is want, or with -update-docs
// writes want there; it returns the block as the doc has it.
func docBlock(t *testing.T, file, name, want string) string {
	t.Helper()
	path := filepath.Join(repoRoot, "docs", file)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(data)
	begin, end := "<!-- "+name+" begin -->\n", "<!-- "+name+" end -->"
	if *updateDocs {
		before, _, ok1 := strings.Cut(doc, begin)
		_, after, ok2 := strings.Cut(doc, end)
		require.True(t, ok1 && ok2, "the markers %q and %q", begin, end)
		require.NoError(t, os.WriteFile(path, []byte(before+begin+want+end+after), 0o644))
		return want
	}
	block := between(t, doc, begin, end)
	assert.Equal(t, want, block, "go test -run 'TestProtocolDoc|TestScenarioDoc' ./cmd/mergecheck -update-docs rewrites it")
	return block
}

// TestScenarioDoc_TheAbilitiesTableIsTheList: docs/SCENARIO.md's table of
// the abilities the reference knows is what mergecheck list --abilities
// prints (go test -run TestScenarioDoc ./cmd/mergecheck -update-docs
// rewrites it), and names every classified ability.
func TestScenarioDoc_TheAbilitiesTableIsTheList(t *testing.T) {
	code, want, _ := mc(t, "list", "--abilities")
	require.Equal(t, exitOK, code)
	docBlock(t, "SCENARIO.md", "abilities", want)
	for _, id := range reference.Classified() {
		assert.Contains(t, want, "| `"+string(id)+"` |")
	}
	code, out, _ := mc(t, "list", "--abilities", "--json")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, `"declarable_kinds": [`)
}
