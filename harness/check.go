package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/generators"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Options control a run. The zero value, or nil, means the defaults.
type Options struct {
	Checks     int           `json:"checks"`         // cases per property; 0 means 100
	Seed       uint64        `json:"seed"`           // 0 means random; the seed used is always reported
	Timeout    time.Duration `json:"timeout_ns"`     // per Engine.Run call; 0 means 5s
	Budget     time.Duration `json:"budget_ns"`      // whole-run time budget; 0 means none
	ShrinkTime time.Duration `json:"shrink_time_ns"` // minimisation time per counterexample, for rapid and again for the domain pass; 0 means 30s
	// Shard selects a deterministic part of the properties; zero means all.
	Shard Shard `json:"shard"`
	// Corpus is a directory of counterexample files: replayed before
	// anything is generated, and where each new counterexample is saved,
	// atomically, before the run goes on. Empty means no corpus.
	Corpus string `json:"corpus,omitempty"`
	// Progress, if set, is called after each property.
	Progress func(Progress) `json:"-"`
	// Parallel is how many properties run at once; 0 means
	// runtime.GOMAXPROCS(0). An engine that implements Cloner gets one
	// instance per worker (an adapter: one process each); any other is
	// shared, so its Run must be safe for concurrent use. Results are
	// those of a serial run.
	Parallel int `json:"parallel,omitempty"`
}

// A Cloner is an Engine that can start another, independent instance of
// itself, for parallel workers.
type Cloner interface {
	Clone() (Engine, error)
}

// Progress is how far a run has got.
type Progress struct {
	Done, Total int // properties
	Failed      int // properties failed or faulted so far
	Elapsed     time.Duration
	Budget      time.Duration // zero when there is none
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.Checks <= 0 {
		out.Checks = 100
	}
	if out.Timeout <= 0 {
		out.Timeout = 5 * time.Second
	}
	if out.ShrinkTime <= 0 {
		out.ShrinkTime = 30 * time.Second
	}
	if out.Seed == 0 {
		out.Seed = rand.Uint64()>>1 | 1
	}
	if out.Parallel <= 0 {
		out.Parallel = runtime.GOMAXPROCS(0)
	}
	return out
}

// Check runs props against e and returns one Result per property of the
// shard, in the order of props. It first replays the corpus, if any: a
// corpus file that still breaks its rule settles that rule. The error is
// non-nil only when the run itself cannot proceed (an invalid property
// list, an unreadable corpus directory, a counterexample that can't be
// saved); the results so far come with it. Verdicts, including engine
// faults, are in the Results. If e implements io.Closer, Check closes it.
func Check(ctx context.Context, e Engine, props []*properties.Property, opts *Options) (*Results, error) {
	if err := properties.Validate(props); err != nil {
		return nil, err
	}
	o := opts.withDefaults()
	if c, ok := e.(io.Closer); ok {
		defer c.Close()
	}
	if o.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Budget)
		defer cancel()
	}
	res := &Results{Engine: e.Info(), Seed: o.Seed, Options: o, Started: time.Now()}
	res.Options.Progress = nil
	var selected []*properties.Property
	for i, p := range props {
		if o.Shard.Selects(i) {
			selected = append(selected, p)
		}
	}
	judges := map[model.RuleID]*judge{}
	for _, p := range selected {
		judges[p.Rule] = &judge{ctx: ctx, e: e, p: p, o: o, info: res.Engine, time: &Timing{}}
	}
	var fromCorpus map[model.RuleID]*Counterexample
	if o.Corpus != "" {
		var err error
		elsewhere := map[model.RuleID]bool{}
		for _, p := range props {
			elsewhere[p.Rule] = elsewhere[p.Rule] || !o.Shard.Selects(slices.Index(props, p))
		}
		if res.Corpus, fromCorpus, err = replayCorpus(judges, elsewhere, o.Corpus); err != nil {
			return res, err
		}
	}
	engines := []Engine{e} // one per worker
	for len(engines) < min(o.Parallel, len(selected)) {
		c, ok := e.(Cloner)
		if !ok {
			engines = append(engines, e) // shared: its Run is safe for concurrent use
			continue
		}
		clone, err := c.Clone()
		if err != nil {
			return res, fmt.Errorf("harness: starting another engine for a parallel worker: %w", err)
		}
		if cl, ok := clone.(io.Closer); ok {
			defer cl.Close()
		}
		engines = append(engines, clone)
	}
	results := make([]*Result, len(selected))
	var mu sync.Mutex // guards failed, done, runErr and Progress calls
	failed, done := 0, 0
	var runErr error
	one := func(e Engine, i int) {
		p := selected[i]
		var r Result
		if ce := fromCorpus[p.Rule]; ce != nil {
			if ce.Want == nil {
				ce.Want, _ = reference.Run(ce.Scenario)
			}
			ce.Seed = o.Seed
			r = Result{Rule: p.Rule, Verdict: Failed, Counterexample: ce, Why: "a corpus scenario still breaks it"}
		} else {
			j := judges[p.Rule]
			j.e = e
			var err error
			if r, err = checkOne(ctx, j, p, o); err != nil {
				mu.Lock()
				runErr = errors.Join(runErr, err)
				mu.Unlock()
				return
			}
		}
		if ce := r.Counterexample; ce != nil && o.Corpus != "" && ce.File == "" {
			path, err := saveCounterexample(o.Corpus, p.Rule, ce.Scenario)
			if err != nil {
				mu.Lock()
				runErr = errors.Join(runErr, err)
				mu.Unlock()
			}
			ce.File = path
		}
		results[i] = &r
		mu.Lock()
		defer mu.Unlock()
		done++
		if r.Verdict == Failed || r.Verdict == Fault {
			failed++
		}
		if o.Progress != nil {
			o.Progress(Progress{Done: done, Total: len(selected), Failed: failed, Elapsed: time.Since(res.Started), Budget: o.Budget})
		}
	}
	// Each property's run depends only on the seed, so workers give the
	// results of a serial run, in the same order.
	err := withRapidFlags(o.Checks, o.Seed, o.ShrinkTime, func() {
		next := make(chan int)
		var wg sync.WaitGroup
		for _, e := range engines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					one(e, i)
				}
			}()
		}
		for i := range selected {
			next <- i
		}
		close(next)
		wg.Wait()
	})
	if err != nil {
		return res, err
	}
	for _, r := range results {
		if r != nil {
			res.Results = append(res.Results, *r)
		}
	}
	if runErr != nil {
		return res, runErr
	}
	res.Elapsed = time.Since(res.Started)
	return res, nil
}

// outcome is what one scenario did on the engine under test.
type outcome struct {
	problem error        // the check's complaint, if any
	fault   error        // the engine's failure, if any
	got     *model.Trace // the engine's trace
	want    *model.Trace // the reference's trace
	// stopped is set when the run was interrupted or ran out of time
	// while the engine played: neither a case nor a fault.
	stopped bool
	// played is the scenario the engine was given, when the harness had
	// to rewrite it (EngineInfo.NoDirectSetup).
	played *model.Scenario
	key    string // the hash of the scenario played
}

func (o outcome) bad() bool { return o.problem != nil || o.fault != nil }

// judge plays s on e (and on the reference for a differential property)
// and applies p's check.
type judge struct {
	ctx   context.Context
	e     Engine
	p     *properties.Property
	o     Options
	info  EngineInfo
	cache map[string]outcome
	time  *Timing
}

// play plays s, from the cache when it holds s. The cache is kept only
// while shrinking (see remember), where the same scenario comes back
// often; a long run that finds nothing would otherwise hold every trace.
func (j *judge) play(s *model.Scenario) outcome {
	enc := encode(s)
	key := hashOf(enc)
	if out, ok := j.cache[key]; ok {
		return out
	}
	out := j.playUncached(s, enc)
	out.key = key
	if !out.stopped && j.cache != nil {
		j.cache[key] = out
	}
	return out
}

// remember starts the cache of outcomes, for shrinking.
func (j *judge) remember() {
	if j.cache == nil {
		j.cache = map[string]outcome{}
	}
}

// playUncached plays s, whose encoding is enc.
func (j *judge) playUncached(s *model.Scenario, enc []byte) outcome {
	var played *model.Scenario
	if j.info.NoDirectSetup && slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return len(p.Components) > 1 }) {
		built, ok := model.BuildByActions(s)
		if ok {
			_, err := reference.Run(built)
			ok = err == nil
		}
		if !ok {
			return outcome{fault: fmt.Errorf("%w: the engine can't set up merged stacks directly, and this scenario's can't be built by casting mutating spells", ErrUnsupported)}
		}
		played, s, enc = built, built, nil
	}
	out := j.playScenario(s, enc)
	out.played = played
	return out
}

// playScenario plays s on the engine and judges it. enc, if not nil, is
// s's encoding, which an adapter process is given rather than encode s
// again.
func (j *judge) playScenario(s *model.Scenario, enc []byte) outcome {
	ctx, cancel := context.WithTimeout(j.ctx, j.o.Timeout)
	defer cancel()
	t0 := time.Now()
	var got *model.Trace
	var err error
	if x, ok := j.e.(*Exec); ok && enc != nil {
		got, err = x.run(ctx, s, enc)
	} else {
		got, err = j.e.Run(ctx, s)
	}
	j.time.Engine += time.Since(t0)
	if err != nil && j.ctx.Err() != nil {
		return outcome{stopped: true}
	}
	if err != nil {
		return outcome{fault: err}
	}
	c := &properties.Case{Scenario: s, Trace: got, Partial: j.info.PartialTraces}
	var want *model.Trace
	if j.p.Differential {
		t0 := time.Now()
		want, err = reference.Run(s)
		j.time.Reference += time.Since(t0)
		if err != nil {
			return outcome{fault: fmt.Errorf("the reference engine can't play this scenario: %w", err)}
		}
		c.Reference = want
	}
	t0 = time.Now()
	err = safeCheck(j.p, c)
	j.time.Check += time.Since(t0)
	if err != nil {
		return outcome{problem: err, got: got, want: want}
	}
	return outcome{got: got, want: want}
}

// safeCheck runs a property's check, turning a panic (a bug in the check,
// or a trace too malformed to read) into a problem report.
func safeCheck(p *properties.Property, c *properties.Case) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the trace could not be judged: %v", r)
		}
	}()
	return p.Check(c)
}

const stoppedBeforeAnyCase = "the run was stopped (interrupted, or out of time) before any case ran"

func checkOne(ctx context.Context, j *judge, p *properties.Property, o Options) (Result, error) {
	start := time.Now()
	r := Result{Rule: p.Rule}
	info := j.info
	switch {
	case p.Uncheckable != "":
		r.Verdict, r.Why = Unchecked, p.Uncheckable
		return r, nil
	case !info.Supports(p.Needs):
		var missing []string
		for _, f := range p.Needs {
			if !slices.Contains(info.Features, f) {
				missing = append(missing, string(f))
			}
		}
		r.Verdict, r.Why = Unsupported, "the engine does not declare "+strings.Join(missing, ", ")
		return r, nil
	case p.Differential && info.PartialTraces:
		// A differential check compares whole traces; against partial
		// observations it would blame the engine for what it left out.
		// The plain invariants still judge such an engine.
		r.Verdict, r.Why = Unsupported, "the engine's traces are partial, and this rule is checked against the reference engine's whole trace"
		return r, nil
	}
	if ctx.Err() != nil {
		// Stopped before this rule began: say so at once rather than
		// have rapid skip through every case.
		r.Verdict, r.Why = Uncovered, stoppedBeforeAnyCase
		return r, nil
	}
	gen := p.Gen
	if info.NoDirectSetup {
		// Draw only stacks such an engine can be given, built by casting.
		gen = generators.ForActions(gen)
	}
	j.time = &r.Time
	r.Coverage = map[string]int{}
	var last, firstFault *model.Scenario
	var refused error // an engine's own "unsupported" for a drawn scenario
	var lastOut outcome
	failed, budget := false, false
	tb := &recorder{name: string(p.Rule)}
	digest := sha256.New()
	func() {
		rapid.Check(tb, func(t *rapid.T) {
			if ctx.Err() != nil {
				budget = true
				if !failed {
					// Nothing to shrink: end rapid's loop now rather than
					// skip through every remaining case. (While a failure
					// shrinks, a skip leaves its counterexample alone.)
					t.Fatalf("stopped")
				}
				t.SkipNow()
			}
			t0 := time.Now()
			s := gen.Draw(t, "scenario")
			r.Time.Generate += time.Since(t0)
			out := j.play(s)
			if out.stopped {
				budget = true
				t.SkipNow()
			}
			if out.fault != nil && out.problem == nil {
				// A fault is reported only if no case breaks the rule:
				// a violation says more than a crash. An engine that
				// refuses a scenario as unsupported has not faulted.
				if errors.Is(out.fault, ErrUnsupported) {
					if refused == nil {
						refused = out.fault
					}
					return
				}
				if firstFault == nil {
					firstFault = s
					j.remember()
				}
				return
			}
			last, lastOut = s, out
			if !failed && !out.bad() {
				r.Cases++
				digest.Write([]byte(out.key))
				if p.Classify != nil {
					for _, l := range p.Classify(s) {
						r.Coverage[l]++
					}
				}
			}
			if out.bad() {
				failed = true
				j.remember()
				t.Fatalf("%v", errors.Join(out.problem, out.fault))
			}
		})
	}()
	if tb.failed && !failed && !budget {
		// rapid failed without any case going wrong: a generator or the
		// harness itself broke. That is mergecheck's bug, not a verdict.
		return r, fmt.Errorf("harness: property %s could not run: %s", p.Rule, strings.Join(tb.logs, "\n"))
	}
	r.Elapsed = time.Since(start)
	r.Digest = hex.EncodeToString(digest.Sum(nil))[:16]
	switch {
	case failed && last != nil && lastOut.bad():
		t0 := time.Now()
		s := minimize(j, last)
		r.Time.Minimize = time.Since(t0)
		out := j.play(s)
		r.Verdict = Failed
		if out.played != nil {
			s = out.played // report what the engine was given
		}
		want := out.want
		if want == nil {
			// A plain property did not need the reference, but its trace
			// beside the engine's shows the difference at a glance.
			want, _ = reference.Run(s)
		}
		r.Counterexample = &Counterexample{Rule: p.Rule, Problem: out.problem.Error(), Scenario: s, Got: out.got, Want: want, Seed: o.Seed}
	case firstFault != nil:
		s := minimize(j, firstFault)
		r.Verdict = Fault
		r.Fault = &EngineFault{Rule: p.Rule, Scenario: s, Err: j.play(s).fault}
		var ae *AdapterError
		if errors.As(r.Fault.Err, &ae) {
			r.Fault.Stderr = ae.Stderr
		}
	case refused != nil && r.Cases == 0:
		r.Verdict, r.Why = Unsupported, "the engine refused the scenarios drawn for this rule: "+refused.Error()
	case budget && r.Cases == 0:
		r.Verdict, r.Why = Uncovered, stoppedBeforeAnyCase
	default:
		r.Verdict = Held
		if why := uncovered(p, r); why != "" {
			r.Verdict, r.Why = Uncovered, why
			if info.NoDirectSetup {
				// Not the generators' failing but the engine's limit: the
				// stacks it can be given don't reach the rule enough.
				r.Verdict, r.Why = Unsupported, "the engine can't set up merged stacks, and those that can be built for it by casting mutating spells don't reach this rule often enough: "+why
			}
		}
		if budget && r.Verdict == Held {
			r.Why = fmt.Sprintf("the run was stopped after %d of %d cases; all of them held", r.Cases, o.Checks)
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// uncovered reports a label whose share of cases is below what the
// property declares, like QuickCheck's cover.
func uncovered(p *properties.Property, r Result) string {
	labels := make([]string, 0, len(p.Cover))
	for l := range p.Cover {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	for _, l := range labels {
		if r.Cases == 0 {
			return "no case ran"
		}
		share := float64(r.Coverage[l]) / float64(r.Cases)
		if share < p.Cover[l] {
			return fmt.Sprintf("label %q covered %.0f%% of %d cases, want at least %.0f%%", l, 100*share, r.Cases, 100*p.Cover[l])
		}
	}
	return ""
}

// CheckScenario plays one scenario on e and judges it by p: the problem
// the property's check reports, or the engine's error (wrapping
// ErrUnsupported when the engine refuses the scenario). It is the single
// step Check repeats, for drivers such as package enginetest.
func CheckScenario(ctx context.Context, e Engine, p *properties.Property, s *model.Scenario, timeout time.Duration) (problem, fault error) {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	j := &judge{ctx: ctx, e: e, p: p, o: Options{Timeout: timeout}, info: e.Info(), cache: map[string]outcome{}, time: &Timing{}}
	out := j.play(s)
	return out.problem, out.fault
}

// Minimize shrinks a scenario on which e breaks p by the harness's own
// domain steps (see Check), returning the canonical minimal scenario.
func Minimize(ctx context.Context, e Engine, p *properties.Property, s *model.Scenario, timeout time.Duration) *model.Scenario {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	j := &judge{ctx: ctx, e: e, p: p, o: Options{Timeout: timeout, ShrinkTime: 30 * time.Second}, info: e.Info(), cache: map[string]outcome{}, time: &Timing{}}
	if !j.play(s).bad() {
		return s
	}
	return minimize(j, s)
}
