package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
)

// ciShards are the parallel-job variables of the CIs --shard auto reads:
// the job's index and the number of jobs, and whether the index counts
// from 0. A total of "" is one the CI does not give, which --shard
// auto/N gives instead.
var ciShards = []struct {
	ci, index, total string
	fromZero         bool
}{
	{"GitLab CI", "CI_NODE_INDEX", "CI_NODE_TOTAL", false},
	{"Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", true},
	{"CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", true},
	{"a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "", true},
}

// autoShard resolves --shard auto (or auto/N, N the number of shards
// where the CI does not say it) from the CI's own parallel-job variables,
// read with getenv: the shard that --shard I/N would give. Any other
// environment is an error naming the variables it looked for.
func autoShard(spec string, getenv func(string) string) (harness.Shard, error) {
	given := 0
	if rest, ok := strings.CutPrefix(spec, "auto/"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 {
			return harness.Shard{}, fmt.Errorf("--shard %s: want auto, or auto/N with N the number of shards", spec)
		}
		given = n
	}
	var looked []string
	for _, c := range ciShards {
		is := getenv(c.index)
		if is == "" {
			looked = append(looked, c.index)
			continue
		}
		i, err := strconv.Atoi(is)
		if err != nil {
			return harness.Shard{}, fmt.Errorf("--shard %s: %s (%s) is %q, not a number", spec, c.index, c.ci, is)
		}
		if c.fromZero {
			i++
		}
		n := given
		if c.total != "" {
			ts := getenv(c.total)
			t, err := strconv.Atoi(ts)
			if err != nil {
				return harness.Shard{}, fmt.Errorf("--shard %s: %s is set (%s) but %s is %q, not a number", spec, c.index, c.ci, c.total, ts)
			}
			if given != 0 && given != t {
				return harness.Shard{}, fmt.Errorf("--shard %s: %s says %d jobs", spec, c.total, t)
			}
			n = t
		}
		if n == 0 {
			return harness.Shard{}, fmt.Errorf("--shard %s: %s (%s) gives the index but not the number of shards: use --shard auto/N", spec, c.index, c.ci)
		}
		s, err := harness.ParseShard(fmt.Sprintf("%d/%d", i, n))
		if err != nil {
			return harness.Shard{}, fmt.Errorf("--shard %s: from %s: %w", spec, c.ci, err)
		}
		return s, nil
	}
	return harness.Shard{}, fmt.Errorf("--shard %s: no CI parallel-job variable is set (looked for %s); give --shard I/N", spec, strings.Join(looked, ", "))
}

// parseShardFlag reads --shard: I/N, auto or auto/N.
func parseShardFlag(spec string, getenv func(string) string) (harness.Shard, error) {
	if spec == "auto" || strings.HasPrefix(spec, "auto/") {
		return autoShard(spec, getenv)
	}
	return harness.ParseShard(spec)
}
