package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/model"
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
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	if b.Format != BaselineFormat {
		return nil, fmt.Errorf("baseline: format is %q, want %q", b.Format, BaselineFormat)
	}
	for i, e := range b.Expected {
		if e.Rule == "" || e.Reason == "" {
			return nil, fmt.Errorf("baseline: expected[%d]: rule and reason are required", i)
		}
		if e.Until != "" {
			if _, err := time.Parse(time.DateOnly, e.Until); err != nil {
				return nil, fmt.Errorf("baseline: expected[%d] (%s): until %q is not a YYYY-MM-DD date", i, e.Rule, e.Until)
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

// Apply compares a run with the baseline as of now: it marks the expected
// failures in r and reports what is expected, what now holds, what expired
// and what is new. Only rules the run checked are considered, so a shard
// is compared with its part of the baseline.
func (b *Baseline) Apply(r *harness.Results, file string, now time.Time) *BaselineReport {
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
	for i := range r.Results {
		res := &r.Results[i]
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
	return rep
}

// OK reports whether the run passes against the baseline: no new failure,
// and no expected failure that now holds (remove it from the baseline).
func (rep *BaselineReport) OK() bool { return len(rep.New) == 0 && len(rep.Fixed) == 0 }

// Merge combines the results of the shards of one run: same engine, seed
// and checks, no rule in two shards. The result lists the rules in the
// order of order (normally properties.All's rules).
func Merge(order []model.RuleID, shards ...*harness.Results) (*harness.Results, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("merge: no results to merge")
	}
	first := shards[0]
	out := &harness.Results{Engine: first.Engine, Seed: first.Seed, Options: first.Options, Started: first.Started}
	out.Options.Shard = harness.Shard{}
	seen := map[model.RuleID]int{}
	files := map[string]bool{}
	for i, s := range shards {
		switch {
		case s.Engine.Name != first.Engine.Name || s.Engine.Version != first.Engine.Version:
			return nil, fmt.Errorf("merge: result %d is of engine %s %s, result 0 of %s %s", i, s.Engine.Name, s.Engine.Version, first.Engine.Name, first.Engine.Version)
		case s.Seed != first.Seed:
			return nil, fmt.Errorf("merge: result %d has seed %d, result 0 seed %d: shards of one run share a seed", i, s.Seed, first.Seed)
		case s.Options.Checks != first.Options.Checks:
			return nil, fmt.Errorf("merge: result %d ran %d checks per rule, result 0 ran %d", i, s.Options.Checks, first.Options.Checks)
		}
		if s.Started.Before(out.Started) {
			out.Started = s.Started
		}
		out.Elapsed = max(out.Elapsed, s.Elapsed)
		for _, r := range s.Results {
			if j, dup := seen[r.Rule]; dup {
				return nil, fmt.Errorf("merge: rule %s is in results %d and %d; shards must not overlap", r.Rule, j, i)
			}
			seen[r.Rule] = i
			out.Results = append(out.Results, r)
		}
		for _, c := range s.Corpus {
			if !files[c.File+"|"+string(c.Rule)] {
				files[c.File+"|"+string(c.Rule)] = true
				out.Corpus = append(out.Corpus, c)
			}
		}
	}
	slices.SortStableFunc(out.Results, func(a, b harness.Result) int {
		return index(order, a.Rule) - index(order, b.Rule)
	})
	return out, nil
}

func index(order []model.RuleID, r model.RuleID) int {
	if i := slices.Index(order, r); i >= 0 {
		return i
	}
	return len(order)
}
