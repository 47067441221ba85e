// Package releases_test holds mergecheck to its word to the adapters
// written for its earlier releases: what a release adds reaches an
// engine only when its adapter declares it. testdata/ keeps, for each
// release, the hello its reference engine said (the fixture of that
// release's feature vocabulary) and, for 0.1.0, the source of that
// reference, which the tests build and check under today's checker
// (testdata/README.md says how each was made).
package releases_test

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/testenv"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/reference"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// hello reads the hello fixture of release and returns what it declares.
func hello(t *testing.T, release string) engine.Info {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", release, "hello.json"))
	require.NoError(t, err)
	// The protocol has a hello on one line; the fixture is indented to be
	// read.
	var line strings.Builder
	for _, l := range strings.Split(string(data), "\n") {
		line.WriteString(strings.TrimSpace(l))
	}
	h, err := protocol.DecodeHello([]byte(line.String()))
	require.NoError(t, err, "%s's hello is read strictly by today's checker", release)
	info := engine.Info{Name: h.Engine.Name, Version: h.Engine.Version, Features: h.Capabilities.Features, Observers: h.Capabilities.Observers}
	return info
}

// TestVocabulary_EachReleasesHelloDeclaresItsVocabulary: the hello of
// each release's reference, kept as a fixture, declares every feature of
// that release's vocabulary and nothing later, and today's checker
// still reads it.
func TestVocabulary_EachReleasesHelloDeclaresItsVocabulary(t *testing.T) {
	require.Equal(t, model.Features, model.Vocabularies[len(model.Vocabularies)-1].Features, "the last vocabulary is today's features")
	for _, v := range model.Vocabularies {
		t.Run(v.Release, func(t *testing.T) {
			info := hello(t, v.Release)
			assert.Equal(t, v.Features, info.Features)
			for _, f := range info.Features {
				assert.LessOrEqual(t, model.Since(f), v.Release, "%s is of a later release", f)
			}
		})
	}
}

// TestVocabulary_NoDrawForAReleaseUsesALaterFeature: an adapter whose
// hello is that of an earlier release is given, for every rule, only
// scenarios that release could send: no draw at seeds 1 to 3 uses,
// by the scenario or by the rules' trace of it, a feature (or the choice
// that comes with one, such as choices.may on cast_mutate, which ward
// brought) of a later vocabulary.
func TestVocabulary_NoDrawForAReleaseUsesALaterFeature(t *testing.T) {
	if testing.Short() {
		t.Skip("every rule's draws for every release's hello")
	}
	for _, v := range model.Vocabularies[:len(model.Vocabularies)-1] {
		info := hello(t, v.Release)
		declared, _ := model.ExpandFeatures(info.Features)
		lacks := slices.DeleteFunc(slices.Clone(model.Features), func(f model.Feature) bool { return slices.Contains(declared, f) })
		for _, p := range properties.All {
			if p.Draws == nil {
				continue
			}
			g := p.Draws.For(generators.Engine{Lacks: lacks})
			for seed := 1; seed <= 3; seed++ {
				for i := range 40 {
					s, broke := testenv.Draw(g, seed*1_000+i)
					if broke != "" {
						assert.Fail(t, "a draw broke the generators", "%s: a draw of %s at seed %d (%d): %s", v.Release, p.Rule, seed, i, broke)
					}
					if s == nil {
						continue
					}
					for _, f := range reference.Uses(s) {
						if !slices.Contains(v.Features, f) {
							assert.Fail(t, "a draw uses a later feature", "%s: a draw of %s at seed %d (%d) uses %s, of %s", v.Release, p.Rule, seed, i, f, model.Since(f))
							return
						}
					}
					for _, a := range s.Actions {
						if a.Type == model.CastMutate && a.Choices.May != nil {
							assert.Fail(t, "a draw uses a later choice", "%s: a draw of %s at seed %d (%d) scripts choices.may on cast_mutate", v.Release, p.Rule, seed, i)
							return
						}
					}
				}
			}
		}
	}
}

// TestRelease0_1_0_ItsReferenceKeepsItsVerdicts: the reference engine of
// 0.1.0, built from its source and served over the protocol with its own
// hello, is judged by today's checker at seeds 1 to 3 with no engine
// fault, no uncovered or blocked rule and no unexplained departure: what
// 0.2.0 added reached it only where it declared it. Every rule it fails
// is a correction of the reference that CHANGELOG.md lists for 0.2.0.
func TestRelease0_1_0_ItsReferenceKeepsItsVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 0.1.0's reference and runs every rule at three seeds")
	}
	bin := build010(t)
	corrections := correctedRules(t, "0.2.0")
	for seed := uint64(1); seed <= 3; seed++ {
		e, err := harness.NewExec(bin, harness.ExecOptions{})
		require.NoError(t, err)
		res, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Seed: seed, Timeout: time.Minute, ShrinkTime: 10 * time.Minute})
		require.NoError(t, err)
		require.NoError(t, e.Close())
		assert.Equal(t, hello(t, "0.1.0").Features, res.Engine.Features, "the engine is 0.1.0's, declaring its vocabulary")
		assert.Empty(t, res.Unexplained, "seed %d: no unexplained departure", seed)
		for _, r := range res.Results {
			switch r.Verdict {
			case harness.Held, harness.Unsupported, harness.Unchecked:
			case harness.Failed:
				assert.Contains(t, corrections, r.Rule, "seed %d: %s failed, and CHANGELOG.md lists no correction of it for 0.2.0: %v", seed, r.Rule, r.Counterexample.Problem)
			default:
				assert.Fail(t, "a verdict 0.1.0's reference must not get", "seed %d: %s is %s: %s", seed, r.Rule, r.Verdict, r.Why)
			}
		}
	}
}

// TestRelease0_1_0_SourceIsTheReleasedCommit: the source kept for
// 0.1.0's reference is commit 2e3d976's, file by file, wherever the
// repository's history is at hand (a shallow clone has not got it).
func TestRelease0_1_0_SourceIsTheReleasedCommit(t *testing.T) {
	const commit = "2e3d9766c1b746a9291cd36e3a1b9021785936ec"
	if err := exec.Command("git", "cat-file", "-e", commit+"^{commit}").Run(); err != nil {
		t.Skipf("the history holds no commit %s here (a shallow clone?): %v", commit[:7], err)
	}
	dir := t.TempDir()
	untar(t, filepath.Join("testdata", "0.1.0", "source.tar.gz"), dir)
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		require.NoError(t, err)
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		want, err := exec.Command("git", "show", commit+":"+filepath.ToSlash(rel)).Output()
		require.NoError(t, err, rel)
		assert.Equal(t, string(want), string(got), "%s differs from the commit's", rel)
		n++
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, n, 30, "the archive holds the reference and the packages it needs")
}

// build010 builds 0.1.0's reference, served over the protocol, from the
// source kept in testdata, and returns the command that starts it.
func build010(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	untar(t, filepath.Join("testdata", "0.1.0", "source.tar.gz"), dir)
	main, err := os.ReadFile(filepath.Join("testdata", "0.1.0", "serve-reference.go"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "cmd", "serve-reference"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cmd", "serve-reference", "main.go"), main, 0o644))
	bin := filepath.Join(dir, "serve-reference")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/serve-reference")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build of 0.1.0's reference: %s", out)
	return "'" + bin + "'"
}

// untar extracts the gzipped tar archive at path into dir.
func untar(t *testing.T, path, dir string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	r := tar.NewReader(z)
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		require.NoError(t, err)
		to := filepath.Join(dir, filepath.FromSlash(h.Name))
		require.True(t, strings.HasPrefix(to, dir+string(filepath.Separator)), "%s: %s leaves the directory", path, h.Name)
		switch h.Typeflag {
		case tar.TypeDir:
			require.NoError(t, os.MkdirAll(to, 0o755))
		case tar.TypeReg:
			require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
			data, err := io.ReadAll(r)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(to, data, 0o644))
		}
	}
}

// correctedRules returns the rules that CHANGELOG.md's section of release
// lists as corrections of the reference: a rule an
// earlier release's reference fails must be one of them.
func correctedRules(t *testing.T, release string) []model.RuleID {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "CHANGELOG.md"))
	require.NoError(t, err)
	text := string(data)
	start := strings.Index(text, "## ["+release+"]")
	require.GreaterOrEqual(t, start, 0, "CHANGELOG.md has no section for %s", release)
	text = text[start:]
	if end := strings.Index(text[3:], "\n## ["); end >= 0 {
		text = text[:end+3]
	}
	var rules []model.RuleID
	for _, heading := range []string{"### Corrections of the reference"} {
		i := strings.Index(text, heading)
		require.GreaterOrEqual(t, i, 0, "CHANGELOG.md's %s has no %q", release, heading)
		part := text[i+len(heading):]
		if j := strings.Index(part, "\n### "); j >= 0 {
			part = part[:j]
		}
		for _, line := range strings.Split(part, "\n") {
			head, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), ":")
			if !ok || !strings.HasPrefix(line, "- ") {
				continue
			}
			for _, r := range ruleNumber.FindAllString(head, -1) {
				rules = append(rules, model.RuleID(r))
			}
		}
	}
	return rules
}

// ruleNumber matches a rule number of the Comprehensive Rules.
var ruleNumber = regexp.MustCompile(`\b\d{3}(\.\d+[a-z]?)?\b`)
