package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// actionFile is the part of action.yml a test needs: its inputs'
// defaults and its steps.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name             string            `yaml:"name"`
			ID               string            `yaml:"id"`
			Uses             string            `yaml:"uses"`
			With             map[string]string `yaml:"with"`
			Shell            string            `yaml:"shell"`
			WorkingDirectory string            `yaml:"working-directory"`
			Env              map[string]string `yaml:"env"`
			Run              string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// expression is a GitHub Actions expression, ${{ ... }}.
var expression = regexp.MustCompile(`\$\{\{\s*([^}]+?)\s*\}\}`)

// actionRun is one run of the action's steps as GitHub runs them: the
// inputs given (the rest at their defaults), in a workspace with the step
// summary and output files GitHub gives, the steps that use other actions
// (setup-go, upload-artifact) left to GitHub. It returns the exit code of
// the step that failed (0 if none), the job summary and the outputs.
func actionRun(t *testing.T, workspace string, inputs map[string]string) (code int, summary string, outputs map[string]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	require.NoError(t, err)
	var a actionFile
	require.NoError(t, yaml.Unmarshal(data, &a))
	require.Equal(t, "composite", a.Runs.Using)
	root, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	temp := t.TempDir()
	summaryFile, outputFile := filepath.Join(temp, "summary.md"), filepath.Join(temp, "output")
	outputs = map[string]string{}
	eval := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(e string) string {
			name := expression.FindStringSubmatch(e)[1]
			switch {
			case name == "github.action_path":
				return root
			case name == "runner.temp":
				return temp
			case strings.HasPrefix(name, "inputs."):
				in := strings.TrimPrefix(name, "inputs.")
				def, ok := a.Inputs[in]
				require.True(t, ok, "action.yml uses input %q, which it does not declare", in)
				if v, ok := inputs[in]; ok {
					return v
				}
				return def.Default
			case strings.HasPrefix(name, "steps."):
				parts := strings.Split(name, ".") // steps.ID.outputs.NAME
				return outputs[parts[len(parts)-1]]
			}
			t.Fatalf("an expression this test does not know: %s", e)
			return ""
		})
	}
	for in := range inputs {
		_, ok := a.Inputs[in]
		require.True(t, ok, "the test gives input %q, which action.yml does not declare", in)
	}
	for _, step := range a.Runs.Steps {
		if step.Uses != "" {
			for k, v := range step.With {
				step.With[k] = eval(v) // every expression known
			}
			continue // setup-go and upload-artifact are GitHub's
		}
		require.Equal(t, "bash", step.Shell, step.Name)
		cmd := exec.Command("bash", "-e", "-c", eval(step.Run))
		cmd.Dir = workspace
		if step.WorkingDirectory != "" {
			cmd.Dir = eval(step.WorkingDirectory)
		}
		cmd.Env = append(os.Environ(), "GITHUB_STEP_SUMMARY="+summaryFile, "GITHUB_OUTPUT="+outputFile, "GITHUB_WORKSPACE="+workspace, "RUNNER_TEMP="+temp)
		for k, v := range step.Env {
			cmd.Env = append(cmd.Env, k+"="+eval(v))
		}
		out, err := cmd.CombinedOutput()
		readOutputs(t, outputFile, outputs)
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
			t.Logf("step %q exited %d:\n%s", step.Name, code, out)
			break
		}
		require.NoError(t, err, "%s: %s", step.Name, out)
	}
	s, _ := os.ReadFile(summaryFile)
	return code, string(s), outputs
}

// readOutputs reads a GITHUB_OUTPUT file of NAME=VALUE lines.
func readOutputs(t *testing.T, path string, into map[string]string) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	require.NoError(t, err)
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			into[k] = v
		}
	}
}

// TestAction_TheNightInOneStep: the action's steps, run as GitHub runs
// them with a served mutant as the engine and two shards: the job summary
// holds the Markdown report, the night's directory the JSON and the new
// corpus files, the merged verdicts are those of one unsharded run at the
// same seed, and the job fails on a finding. With the night's baseline
// the next night passes; a night with a bug the baseline lacks fails,
// with one bug report.
func TestAction_TheNightInOneStep(t *testing.T) {
	if testing.Short() {
		t.Skip("six whole runs over the protocol")
	}
	bin := binary(t)
	ws := t.TempDir()
	engine := "exec:" + bin + " serve --mutant dies-per-card"
	inputs := map[string]string{"engine": engine, "shards": "2", "seed": "1", "out": "night1"}
	code, summary, outputs := actionRun(t, ws, inputs)
	assert.Equal(t, exitFailed, code, "a finding fails the job")
	report, err := os.ReadFile(filepath.Join(ws, "night1", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, summary, string(report), "the job summary holds the Markdown report")
	assert.Contains(t, summary, "1 bug failing 2 rules")
	assert.Equal(t, "1", outputs["new-bugs"])
	assert.FileExists(t, filepath.Join(ws, outputs["results"]))
	corpus, err := os.ReadDir(filepath.Join(ws, outputs["new-corpus"]))
	require.NoError(t, err)
	assert.NotEmpty(t, corpus, "the night's new counterexamples, to commit")

	// The two shards merged are one run.
	whole := filepath.Join(ws, "whole.json")
	mc(t, "run", "--engine", "mutant:dies-per-card", "--seed", "1", "--corpus", "", "--progress", "off", "--json", whole)
	assert.Equal(t, verdicts(readDoc(t, whole)), verdicts(readDoc(t, filepath.Join(ws, outputs["results"]))))

	// The next night, with this one's baseline and the same bug: green.
	code, _, errOut := mc(t, "baseline", filepath.Join(ws, outputs["results"]), "-o", filepath.Join(ws, "baseline.json"), "--reason", "ticket 1")
	require.Equal(t, exitOK, code, errOut)
	inputs = map[string]string{"engine": engine, "shards": "2", "seed": "2", "out": "night2", "baseline": "baseline.json", "last-night": "night1/results.json"}
	code, summary, outputs = actionRun(t, ws, inputs)
	assert.Equal(t, exitOK, code, summary)
	assert.Equal(t, "0", outputs["new-bugs"])
	assert.Contains(t, summary, "mergecheck diff", "the diff against the last night is in the summary")
	assert.Regexp(t, `\| still there \(expected\) \| (730\.3 and 712\.21|712\.21 and 730\.3) \|`, summary, "the baselined bug is still there, not gone")

	// A night with a new bug: it fails, with that bug's report.
	inputs["engine"], inputs["out"] = "exec:"+bin+" serve --mutant dies-per-card+transform-top-only", "night3"
	code, _, outputs = actionRun(t, ws, inputs)
	assert.Equal(t, exitFailed, code)
	assert.Equal(t, "1", outputs["new-bugs"])
	issues, err := filepath.Glob(filepath.Join(ws, outputs["issues"], "*.md"))
	require.NoError(t, err)
	require.Len(t, issues, 1)
	text, err := os.ReadFile(issues[0])
	require.NoError(t, err)
	assert.Contains(t, string(text), "# 730.2i")
}

// kubeJob is the part of a Kubernetes Job manifest a test runs.
type kubeJob struct {
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Template       struct {
			Spec struct {
				Containers []struct {
					WorkingDir string   `yaml:"workingDir"`
					Command    []string `yaml:"command"`
					Args       []string `yaml:"args"`
					Env        []struct {
						Name  string `yaml:"name"`
						Value string `yaml:"value"`
					} `yaml:"env"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// TestKubernetesManifest_TheCommandsRun: the Indexed Job and the merge Job
// of docs/NIGHTLY.md, their commands run as the pods would (each shard
// with its JOB_COMPLETION_INDEX, /night a directory of the test's, the
// engine a mutant): every shard writes its results, the merge is one
// unsharded run at the same seed, it exits 1 on a failure the baseline
// lacks, and the bug reports are written.
func TestKubernetesManifest_TheCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("four shards and a merge")
	}
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "NIGHTLY.md"))
	require.NoError(t, err)
	block := between(t, string(doc), "<!-- kubernetes begin -->\n```yaml\n", "```\n<!-- kubernetes end -->")
	dec := yaml.NewDecoder(strings.NewReader(block))
	var jobs []kubeJob
	for {
		var j kubeJob
		if err := dec.Decode(&j); err != nil {
			break
		}
		jobs = append(jobs, j)
	}
	require.Len(t, jobs, 2, "the shards' Job and the merge's")
	shards, merge := jobs[0], jobs[1]
	require.Equal(t, "Indexed", shards.Spec.CompletionMode)
	night := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(night, "baseline.json"), []byte(`{"format": "mergecheck/baseline/v1", "expected": []}`), 0o644))
	bin := binary(t)
	pod := func(j kubeJob, env ...string) int {
		c := j.Spec.Template.Spec.Containers[0]
		require.Equal(t, []string{"sh", "-c"}, c.Command)
		require.Equal(t, "/night", c.WorkingDir)
		script := strings.ReplaceAll(c.Args[0], "/night", night)
		script = strings.ReplaceAll(script, "'exec:/engine/adapter'", "mutant:dies-per-card")
		script = strings.ReplaceAll(script, "--checks 5000", "--checks 100")
		script = strings.ReplaceAll(script, "mergecheck ", bin+" ")
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = night
		cmd.Env = append(os.Environ(), env...)
		for _, e := range c.Env {
			cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
		}
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Logf("%s:\n%s", j.Metadata.Name, out)
			return ee.ExitCode()
		}
		require.NoError(t, err, "%s", out)
		return 0
	}
	for i := range shards.Spec.Completions {
		assert.Equal(t, 0, pod(shards, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i)), "a shard's pod succeeds, findings or not")
		assert.FileExists(t, filepath.Join(night, fmt.Sprintf("shard-%d.json", i)))
	}
	assert.Equal(t, exitFailed, pod(merge), "a failure the baseline lacks fails the merge")
	seed := shards.Spec.Template.Spec.Containers[0].Env[0].Value
	whole := filepath.Join(t.TempDir(), "whole.json")
	mc(t, "run", "--engine", "mutant:dies-per-card", "--seed", seed, "--corpus", "", "--progress", "off", "--json", whole)
	assert.Equal(t, verdicts(readDoc(t, whole)), verdicts(readDoc(t, filepath.Join(night, "results.json"))))
	issues, err := filepath.Glob(filepath.Join(night, "issues", "*.md"))
	require.NoError(t, err)
	assert.Len(t, issues, 1, "the bug report")
}
