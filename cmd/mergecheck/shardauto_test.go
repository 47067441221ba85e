package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
)

// TestShardAuto_IsTheShardICIGives: under each CI's parallel-job
// variables, --shard auto picks the shard --shard I/N would, for every
// job of a four-job split; a Kubernetes Indexed Job needs the total
// (auto/N); anywhere else it is an error naming what is missing.
func TestShardAuto_IsTheShardICIGives(t *testing.T) {
	const n = 4
	for job := 1; job <= n; job++ {
		want, err := harness.ParseShard(fmt.Sprintf("%d/%d", job, n))
		require.NoError(t, err)
		for _, tt := range []struct {
			spec string
			env  map[string]string
		}{
			{"auto", map[string]string{"CI_NODE_INDEX": fmt.Sprint(job), "CI_NODE_TOTAL": fmt.Sprint(n)}},
			{"auto", map[string]string{"BUILDKITE_PARALLEL_JOB": fmt.Sprint(job - 1), "BUILDKITE_PARALLEL_JOB_COUNT": fmt.Sprint(n)}},
			{"auto", map[string]string{"CIRCLE_NODE_INDEX": fmt.Sprint(job - 1), "CIRCLE_NODE_TOTAL": fmt.Sprint(n)}},
			{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(job - 1)}},
		} {
			got, err := parseShardFlag(tt.spec, func(k string) string { return tt.env[k] })
			require.NoError(t, err, "%v", tt.env)
			assert.Equal(t, want, got, "%v", tt.env)
		}
	}
	for _, tt := range []struct {
		spec string
		env  map[string]string
		want string
	}{
		{"auto", nil, "looked for CI_NODE_INDEX, BUILDKITE_PARALLEL_JOB, CIRCLE_NODE_INDEX, JOB_COMPLETION_INDEX"},
		{"auto", map[string]string{"JOB_COMPLETION_INDEX": "0"}, "use --shard auto/N"},
		{"auto", map[string]string{"CI_NODE_INDEX": "1"}, "CI_NODE_TOTAL"},
		{"auto", map[string]string{"CI_NODE_INDEX": "5", "CI_NODE_TOTAL": "4"}, "bad shard"},
		{"auto/x", nil, "auto/N"},
		{"auto/3", map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"}, "says 4 jobs"},
	} {
		_, err := parseShardFlag(tt.spec, func(k string) string { return tt.env[k] })
		if assert.Error(t, err, "%s %v", tt.spec, tt.env) {
			assert.Contains(t, err.Error(), tt.want)
		}
	}
	for _, c := range ciShards { // the test's own environment may be a CI's
		t.Setenv(c.index, "")
	}
	code, _, errOut := mc(t, "run", "--shard", "auto", "--rules", "730.2d", "--corpus", "")
	assert.Equal(t, exitTrouble, code)
	assert.Contains(t, errOut, "--shard auto: no CI parallel-job variable is set")
	t.Setenv("CI_NODE_INDEX", "2")
	t.Setenv("CI_NODE_TOTAL", "3")
	code, out, errOut := mc(t, "run", "--shard", "auto", "--rules", "730.2*", "--checks", "10", "--seed", "1", "--corpus", "")
	assert.Equal(t, exitOK, code, errOut)
	_, want, _ := mc(t, "run", "--shard", "2/3", "--rules", "730.2*", "--checks", "10", "--seed", "1", "--corpus", "")
	trim := func(s string) string { return s[:strings.LastIndex(strings.TrimSuffix(s, "\n"), "\n")] } // the summary's times differ
	assert.Equal(t, trim(want), trim(out), "auto is the shard I/N gives")
}
