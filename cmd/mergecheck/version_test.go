package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
)

// TestVersion_NamesTheCommit: a mergecheck built from a checkout says,
// in `mergecheck version` and in the JSON report's mergecheck field,
// the commit it was built from, so that two nights' reports say which
// build judged them.
func TestVersion_NamesTheCommit(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not in a git checkout: no commit to name")
	}
	commit := strings.TrimSpace(string(head))
	bin := filepath.Join(t.TempDir(), "mergecheck")
	// Whatever GOFLAGS says: this build is to be stamped.
	out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)

	text, err := exec.Command(bin, "version").Output()
	require.NoError(t, err)
	assert.Regexp(t, `^mergecheck `+regexp.QuoteMeta(version)+` \(commit `+commit[:12]+`(, modified)?\)\n$`, string(text))

	report := filepath.Join(t.TempDir(), "results.json")
	cmd := exec.Command(bin, "run", "--rules", "730.2d", "--checks", "10", "--seed", "1", "--corpus", "", "--progress", "off", "--json", report)
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	var doc struct {
		Suite      string        `json:"suite"`
		Mergecheck harness.Build `json:"mergecheck"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.Equal(t, commit, doc.Mergecheck.Commit)
	assert.Equal(t, version, doc.Mergecheck.Version)
	assert.Equal(t, strings.TrimSpace(string(text)), doc.Suite, "the suite the report names is the one version prints")
}

// TestBuild_InWords: a build reads as its release and commit, the module
// version it was installed as, or says its commit is unknown.
func TestBuild_InWords(t *testing.T) {
	for _, tt := range []struct {
		b    harness.Build
		want string
	}{
		{harness.Build{Version: "0.2.0", Commit: "1a2b3c4d5e6f7a8b9c0d"}, "0.2.0 (commit 1a2b3c4d5e6f)"},
		{harness.Build{Version: "0.2.0", Commit: "1a2b3c4d5e6f7a8b9c0d", Modified: true}, "0.2.0 (commit 1a2b3c4d5e6f, modified)"},
		{harness.Build{Version: "0.2.0", Module: "v0.2.0"}, "0.2.0 (module v0.2.0)"},
		{harness.Build{Version: "0.2.0"}, "0.2.0 (commit unknown)"},
	} {
		assert.Equal(t, tt.want, tt.b.String())
	}
}

// TestVersion_IsTheChangelogsNewestRelease: the version a build reports
// is the newest release CHANGELOG.md lists, with -dev while that release
// is unreleased, so that a report's version finds its release notes.
func TestVersion_IsTheChangelogsNewestRelease(t *testing.T) {
	data, err := os.ReadFile("../../CHANGELOG.md")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^## \[([0-9]+\.[0-9]+\.[0-9]+)\] — (unreleased|[0-9]{4}-[0-9]{2}-[0-9]{2})`).FindStringSubmatch(string(data))
	require.NotNil(t, m, "CHANGELOG.md's newest release heading")
	want := m[1]
	if m[2] == "unreleased" {
		want += "-dev"
	}
	assert.Equal(t, want, version)
}
