package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/jsonpos"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/rules"
)

// BaselineFormat identifies the baseline file format.
const BaselineFormat = "mergecheck/baseline/v1"

// A Baseline lists the rules an engine is known to fail, so that a run
// fails only on a new failure while the vendor works through the list.
type Baseline struct {
	Format   string     `json:"format"`
	Engine   string     `json:"engine,omitempty"`
	Expected []Expected `json:"expected"`
}

// Expected is one known failure.
type Expected struct {
	Rule   model.RuleID `json:"rule"`
	Reason string       `json:"reason"`
	// Until, if set (YYYY-MM-DD), is the last day the entry counts; after
	// it the failure fails the run again.
	Until string `json:"until,omitempty"`
}

// ReadBaseline reads a baseline file, rejecting unknown fields, a missing
// reason and a malformed date, each with the entry it is in.
func ReadBaseline(rd io.Reader) (*Baseline, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	var b Baseline
	if err := model.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	if b.Format != BaselineFormat {
		return nil, fmt.Errorf("baseline: %sformat is %q, want %q", where(data, "format"), b.Format, BaselineFormat)
	}
	seen := map[model.RuleID]int{}
	for i, e := range b.Expected {
		at := where(data, "expected", i)
		if e.Rule == "" || e.Reason == "" {
			return nil, fmt.Errorf("baseline: %sexpected[%d]: rule and reason are required", at, i)
		}
		if _, ok := rules.Lookup(e.Rule); !ok {
			return nil, fmt.Errorf("baseline: %sexpected[%d]: %q is not a rule mergecheck checks", where(data, "expected", i, "rule"), i, e.Rule)
		}
		if j, dup := seen[e.Rule]; dup {
			return nil, fmt.Errorf("baseline: %sexpected[%d]: rule %s is listed twice, in expected[%d] too", at, i, e.Rule, j)
		}
		seen[e.Rule] = i
		if e.Until != "" {
			if _, err := time.Parse(time.DateOnly, e.Until); err != nil {
				return nil, fmt.Errorf("baseline: %sexpected[%d] (%s): until %q is not a YYYY-MM-DD date", where(data, "expected", i, "until"), i, e.Rule, e.Until)
			}
		}
	}
	return &b, nil
}

// NewBaseline lists every failed or faulted rule of a run, each with the
// same reason.
func NewBaseline(r *harness.Results, reason string) *Baseline {
	b := &Baseline{Format: BaselineFormat, Engine: r.Engine.Name, Expected: []Expected{}}
	for _, res := range r.Results {
		if res.Verdict == harness.Failed || res.Verdict == harness.Fault {
			b.Expected = append(b.Expected, Expected{Rule: res.Rule, Reason: reason})
		}
	}
	return b
}

// WriteBaseline writes a baseline as indented JSON.
func WriteBaseline(w io.Writer, b *Baseline) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// Apply compares a run with the baseline as of now: it returns the run's
// results with the expected failures marked (r itself is left as it is),
// and what is expected, what now holds, what expired and what is new.
// Only rules the run checked are considered, so a shard is compared with
// its part of the baseline.
func (b *Baseline) Apply(r *harness.Results, file string, now time.Time) (*harness.Results, *BaselineReport) {
	rep := &BaselineReport{File: file}
	today := now.Format(time.DateOnly)
	live := map[model.RuleID]bool{}
	for _, e := range b.Expected {
		if e.Until != "" && e.Until < today {
			rep.Expired = append(rep.Expired, e.Rule)
			continue
		}
		live[e.Rule] = true
	}
	marked := *r
	marked.Results = slices.Clone(r.Results)
	for i := range marked.Results {
		res := &marked.Results[i]
		bad := res.Verdict == harness.Failed || res.Verdict == harness.Fault
		switch {
		case bad && live[res.Rule]:
			res.Expected = true
			rep.Expected = append(rep.Expected, res.Rule)
		case bad:
			rep.New = append(rep.New, res.Rule)
		case live[res.Rule] && res.Verdict == harness.Held:
			rep.Fixed = append(rep.Fixed, res.Rule)
		}
	}
	return &marked, rep
}

// OK reports whether the run passes against the baseline: no new failure,
// and no expected failure that now holds (remove it from the baseline).
func (rep *BaselineReport) OK() bool { return len(rep.New) == 0 && len(rep.Fixed) == 0 }

// Merge combines the results of a run's shards into the results of the
// whole run, rules in order. The shards must be of one run (engine, the
// mergecheck that ran them, seed, checks) and of one split, each shard once; a split with shards missing
// is an error naming them, unless partial is set, which marks the merged
// results with the shards missing instead.
func Merge(order []model.RuleID, partial bool, shards ...*harness.Results) (*harness.Results, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("merge: no results to merge")
	}
	first := shards[0]
	out := &harness.Results{Engine: first.Engine, Seed: first.Seed, Options: first.Options, Started: first.Started, Suite: first.Suite, Build: first.Build}
	out.Options.Shard = harness.Shard{}
	ways := max(first.Options.Shard.Count, 1)
	seen := map[model.RuleID]int{} // rule -> the shard whose result is kept
	at := map[model.RuleID]int{}   // rule -> its place in out.Results
	shardOf := map[int]int{}       // shard index -> result
	files := map[string]bool{}
	for i, s := range shards {
		n := max(s.Options.Shard.Count, 1)
		switch {
		case s.Engine.Name != first.Engine.Name || s.Engine.Version != first.Engine.Version:
			return nil, runsError("merge", "%[1]s is of engine %[3]s %[4]s, %[2]s of %[5]s %[6]s", []int{i, 0}, s.Engine.Name, s.Engine.Version, first.Engine.Name, first.Engine.Version)
		case s.Suite != first.Suite:
			return nil, runsError("merge", "%[1]s was run by %[3]s, %[2]s by %[4]s: shards of one run are run by one mergecheck", []int{i, 0}, orUnknown(s.Suite), orUnknown(first.Suite))
		case s.Seed != first.Seed:
			return nil, runsError("merge", "%[1]s has seed %[3]d, %[2]s seed %[4]d: shards of one run share a seed", []int{i, 0}, s.Seed, first.Seed)
		case s.Options.Checks != first.Options.Checks:
			return nil, runsError("merge", "%[1]s ran %[3]d checks per rule, %[2]s ran %[4]d", []int{i, 0}, s.Options.Checks, first.Options.Checks)
		case n != ways:
			return nil, runsError("merge", "%[1]s is a shard of a run split %[3]d ways, %[2]s of one split %[4]d ways", []int{i, 0}, n, ways)
		}
		idx := max(s.Options.Shard.Index, 1)
		if j, dup := shardOf[idx]; dup {
			return nil, runsError("merge", "%[1]s and %[2]s are both shard %[3]d/%[4]d", []int{j, i}, idx, ways)
		}
		shardOf[idx] = i
		if s.Started.Before(out.Started) {
			out.Started = s.Started
		}
		out.Elapsed = max(out.Elapsed, s.Elapsed)
		out.Interrupted = out.Interrupted || s.Interrupted
		out.MissingShards = append(out.MissingShards, s.MissingShards...)
		for _, r := range s.Results {
			j, dup := seen[r.Rule]
			switch {
			case !dup:
				seen[r.Rule] = i
				at[r.Rule] = len(out.Results)
				out.Results = append(out.Results, r)
			case !r.Outside && !out.Results[at[r.Rule]].Outside:
				return nil, runsError("merge", "rule %[3]s is in %[1]s and %[2]s; shards must not overlap", []int{j, i}, r.Rule)
			default:
				// A rule one shard failed outside its selection, on a
				// case of its own rules: a failure is kept, as one run of
				// every rule would fail it; else the shard that checks
				// the rule says what it says.
				k := at[r.Rule]
				old := out.Results[k]
				oldFailed, newFailed := old.Verdict == harness.Failed, r.Verdict == harness.Failed
				if newFailed && !oldFailed || newFailed == oldFailed && old.Outside && !r.Outside {
					out.Results[k] = r
					seen[r.Rule] = i
				}
			}
		}
		for _, c := range s.Corpus {
			if !files[c.File+"|"+string(c.Rule)] {
				files[c.File+"|"+string(c.Rule)] = true
				out.Corpus = append(out.Corpus, c)
			}
		}
	}
	var missing []string
	for idx := 1; idx <= ways; idx++ {
		if _, ok := shardOf[idx]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", idx, ways))
		}
	}
	if len(missing) > 0 && !partial {
		return nil, fmt.Errorf("merge: shard %s of the run is missing: merge every shard, or allow a partial merge", strings.Join(missing, ", "))
	}
	out.MissingShards = append(out.MissingShards, missing...)
	slices.SortStableFunc(out.Results, func(a, b harness.Result) int {
		return index(order, a.Rule) - index(order, b.Rule)
	})
	// A rule whose cases went to another shard's failed rule is blocked
	// by it, as in one run of every shard.
	harness.BlockAcross(out.Results)
	return out, nil
}

// Incomplete says, in a sentence for the top of every report, why a run's
// results do not cover the whole run: it was interrupted, or shards are
// missing from a merge. It is empty for a complete run.
func Incomplete(r *harness.Results) string {
	var parts []string
	if r.Interrupted {
		parts = append(parts, "the run was interrupted before its end, and the rules it had not finished are marked interrupted")
	}
	if len(r.MissingShards) > 0 {
		parts = append(parts, fmt.Sprintf("shard %s of the run is missing, and the rules it holds are not reported", strings.Join(r.MissingShards, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Incomplete: " + strings.Join(parts, "; ") + "."
}

func index(order []model.RuleID, r model.RuleID) int {
	if i := slices.Index(order, r); i >= 0 {
		return i
	}
	return len(order)
}

// where is the line and column of the value at path in data, as an
// error's prefix, or "" when it can't be found.
func where(data []byte, path ...any) string {
	if at := jsonpos.At(data, path...); at != "" {
		return at + ": "
	}
	return ""
}

// orUnknown names a suite that a results file does not name.
func orUnknown(suite string) string {
	if suite == "" {
		return "a mergecheck that did not say which"
	}
	return suite
}
