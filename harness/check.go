package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

// Options control a run. The zero value, or nil, means the defaults.
type Options struct {
	Checks  int           // cases per property; 0 means 100
	Seed    uint64        // 0 means random; the seed used is always reported
	Timeout time.Duration // per Engine.Run call; 0 means 5s
	Budget  time.Duration // whole-run time budget; 0 means none
	// BudgetCalls bounds the engine calls of the whole run, for an engine
	// whose scenarios are slow: each rule the engine can be judged on gets
	// an equal share, searching and shrinking, so that the run is the
	// same at any parallelism. 0 means none.
	BudgetCalls int
	ShrinkTime  time.Duration // minimisation time per counterexample, for rapid and again for the domain pass; 0 means 30s
	// Shard selects a deterministic part of the properties; zero means all.
	Shard Shard
	// Corpus is a directory of counterexample files: replayed before
	// anything is generated, and where each new counterexample is saved,
	// atomically, before the run goes on. Empty means no corpus.
	Corpus string
	// Progress, if set, is called after each property.
	Progress func(Progress)
	// OnShrunk, if set, is called with a rule as soon as its first
	// counterexample is shrunk, from the worker that shrank it: a
	// progress report can then say a rule failed before the run ends.
	OnShrunk func(rule model.RuleID)
	// Parallel is how many properties run at once; 0 means
	// runtime.GOMAXPROCS(0). An engine that implements Cloner gets one
	// instance per worker (an adapter: one process each); any other is
	// shared, so its Run must be safe for concurrent use. Results are
	// those of a serial run.
	Parallel int
	// OnPlayed, if set, is called with every scenario the engine
	// played, searching and shrinking, from the worker that played it
	// (so it must be safe for concurrent use): for a dump of what the
	// engine was asked (mergecheck run --dump).
	OnPlayed func(Played)
	// Draws, if set, keeps each rule's first draws for other runs at
	// the same seed of engines that draw alike, and takes theirs: for a
	// caller that checks several engines in turn. Nil means each run
	// draws its own.
	Draws *Draws
}

// A Cloner is an Engine that can start another, independent instance of
// itself, for parallel workers.
type Cloner interface {
	Clone() (Engine, error)
}

// A ContextCloner is a Cloner whose starting can be ended by a context:
// a run stopped by a signal while a worker's adapter says hello stops at
// once.
type ContextCloner interface {
	CloneContext(ctx context.Context) (Engine, error)
}

// A Readier is an Engine that may need time to get ready before a
// scenario, such as an adapter restarting after a fault: the harness
// calls Ready before each scenario, outside the scenario's time limit
// (Options.Timeout), so that restarting is never counted against the case
// after the fault. An error is the case's engine fault.
type Readier interface {
	Ready(ctx context.Context) error
}

// An EncodedRunner is an Engine that can also be given a scenario with
// its encoding as a run request carries it (protocol.EncodeScenario),
// which the harness has made anyway to know the case by its hash: an
// adapter process then sends those bytes rather than encode the scenario
// a second time. RunEncoded must answer as Run does.
type EncodedRunner interface {
	RunEncoded(ctx context.Context, s *model.Scenario, enc []byte) (*model.Trace, error)
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
	parent := ctx
	if o.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Budget)
		defer cancel()
	}
	res := &Results{Engine: e.Info(), Seed: o.Seed, Options: o, Started: time.Now()}
	res.Options.Progress, res.Options.OnShrunk, res.Options.Draws = nil, nil, nil
	rn := newRun(ctx, e, props, o, res)
	if o.Corpus != "" {
		elsewhere := map[model.RuleID]bool{}
		for i, p := range props {
			elsewhere[p.Rule] = elsewhere[p.Rule] || !o.Shard.Selects(i)
		}
		var err error
		if res.Corpus, rn.fromCorpus, err = replayCorpus(rn.judges, elsewhere, o.Corpus); err != nil {
			return res, err
		}
	}
	engines, closeAll, err := workerEngines(ctx, e, min(o.Parallel, len(rn.selected)))
	defer closeAll()
	if err != nil && parent.Err() != nil {
		// Stopped while a worker's adapter was starting: every rule is
		// interrupted, and the reports say so.
		res.Results = StartInterrupted(res.Engine.Name, props, &o).Results
		res.Interrupted = true
		res.Elapsed = time.Since(res.Started)
		return res, nil
	}
	if err != nil {
		// Another worker's engine could not be started (an adapter that
		// fails its handshake): every rule is that fault, so that the
		// reports say what happened rather than nothing.
		faulted := StartFault(res.Engine.Name, props, &o, err)
		res.Results = faulted.Results
		res.Elapsed = time.Since(res.Started)
		return res, nil
	}
	if err := withRapidFlags(o.Checks, o.Seed, o.ShrinkTime, func() { rn.all(engines) }); err != nil {
		return res, err
	}
	rn.collect()
	res.Interrupted = parent.Err() != nil
	if rn.err != nil {
		return res, rn.err
	}
	res.Elapsed = time.Since(res.Started)
	return res, nil
}

// A run is one Check's state shared by its workers: the rules of the
// shard, their judges, and their results as they come.
type run struct {
	ctx        context.Context
	o          Options
	res        *Results
	selected   []*properties.Property
	judges     map[model.RuleID]*judge
	index      map[model.RuleID]int // of each rule in selected
	fromCorpus map[model.RuleID]*Counterexample
	results    []*Result // by index in selected
	internals  *internals
	// explain are the rules whose checks may name a departure, and
	// judged400 whether 400.1 is judged (see judge).
	explain   []*properties.Property
	judged400 bool
	// searched is how many of selected the run searched: those after
	// them are rules outside the selection whose checks named a
	// departure of a selected rule's case (addOutside).
	searched int

	mu           sync.Mutex // guards failed, done, err and Progress calls
	failed, done int
	err          error
}

// newRun selects the shard's rules and gives each a judge, with its share
// of the engine-call budget.
func newRun(ctx context.Context, e Engine, props []*properties.Property, o Options, res *Results) *run {
	rn := &run{ctx: ctx, o: o, res: res, judges: map[model.RuleID]*judge{}, index: map[model.RuleID]int{}}
	for i, p := range props {
		if o.Shard.Selects(i) {
			rn.index[p.Rule] = len(rn.selected)
			rn.selected = append(rn.selected, p)
		}
	}
	explain := explainers(res.Engine, props)
	judged400 := false
	for _, p := range rn.selected {
		ok, _ := applicable(res.Engine, p)
		judged400 = judged400 || p == properties.P400_1 && ok
	}
	in := &internals{}
	for _, p := range rn.selected {
		rn.judges[p.Rule] = &judge{ctx: ctx, e: e, p: p, o: o, info: res.Engine, time: &Timing{}, explain: explain, judged400: judged400, internals: in}
	}
	rn.internals, rn.explain, rn.judged400, rn.searched = in, explain, judged400, len(rn.selected)
	allot(rn.judges, rn.selected, res.Engine, o.BudgetCalls)
	rn.results = make([]*Result, len(rn.selected))
	return rn
}

// workerEngines returns n engines, one per worker: e and, for an engine
// that implements Cloner, independent clones of it; any other engine is
// shared, so its Run must be safe for concurrent use. closeAll closes the
// clones.
func workerEngines(ctx context.Context, e Engine, n int) (engines []Engine, closeAll func(), err error) {
	var closers []io.Closer
	closeAll = func() {
		for _, c := range closers {
			c.Close()
		}
	}
	engines = []Engine{e}
	for len(engines) < n {
		c, ok := e.(Cloner)
		if !ok {
			engines = append(engines, e)
			continue
		}
		var clone Engine
		if cc, ok := e.(ContextCloner); ok {
			clone, err = cc.CloneContext(ctx)
		} else {
			clone, err = c.Clone()
		}
		if err != nil {
			return engines, closeAll, fmt.Errorf("harness: starting another engine for a parallel worker: %w", err)
		}
		if cl, ok := clone.(io.Closer); ok {
			closers = append(closers, cl)
		}
		engines = append(engines, clone)
	}
	return engines, closeAll, nil
}

// all judges every rule of the run on the engines. Each property's run
// depends only on the seed, so workers give the results of a serial run,
// in the same order. A rule that explore finds failing is searched, and
// its failure shrunk, there and then; the verdict pass (settleAll)
// follows leads and unexplained departures once every rule has searched.
func (rn *run) all(engines []Engine) {
	early := make([]bool, len(rn.selected))
	explore(rn.ctx, rn.selected, rn.judges, engines, rn.fromCorpus, rn.o, func(e Engine, j *judge) {
		i := rn.index[j.p.Rule]
		early[i] = true
		rn.one(e, i)
	})
	rest := searchOrder(rn.selected, rn.judges, early)
	onWorkers(engines, len(rest), func() bool { return true }, func(e Engine, k int) { rn.one(e, rest[k]) })
	if rn.err == nil {
		rn.res.Unexplained = settleAll(rn.ends(), finishing{rn, engines})
	}
}

// one judges the rule selected[i] on e: from its corpus file if one still
// breaks it, else by its own search.
func (rn *run) one(e Engine, i int) {
	p := rn.selected[i]
	j := rn.judges[p.Rule]
	var r Result
	if ce := rn.fromCorpus[p.Rule]; ce != nil {
		if ce.Want == nil {
			ce.Want, _ = reference.Run(ce.Scenario)
		}
		ce.Seed = rn.o.Seed
		r = Result{Rule: p.Rule, Counterexample: ce, Calls: j.calls, basis: basis{corpus: true}}
		r.conclude()
	} else {
		j.e = e
		j.guard(func() { r = checkOne(rn.ctx, j, p, rn.o) })
		j.ahead = nil // the search is done with them
		if ie := j.internals.of(p.Rule); ie != nil {
			r = internalResult(p, ie, j.calls)
		}
	}
	rn.results[i] = &r
	rn.mu.Lock()
	defer rn.mu.Unlock()
	rn.done++
	if r.Verdict == Failed || r.Verdict == Fault || r.Verdict == Internal {
		rn.failed++
	}
	if rn.o.Progress != nil {
		rn.o.Progress(Progress{Done: rn.done, Total: len(rn.selected), Failed: rn.failed, Elapsed: time.Since(rn.res.Started), Budget: rn.o.Budget})
	}
}

// collect puts the rules' results into the run's Results, in the order
// selected, with the leads noted, the cases other rules reached counted,
// and every new counterexample saved to the corpus.
func (rn *run) collect() {
	noteLeads(rn.selected, rn.judges, rn.results)
	for _, j := range rn.judges {
		for q, n := range j.reached {
			if i, ok := rn.index[q]; ok && rn.results[i] != nil {
				rn.results[i].Reached += n
			}
		}
	}
	for i, r := range rn.results {
		if r == nil || i >= rn.searched && r.Verdict != Failed && r.Verdict != Internal {
			continue // a rule outside the selection that nothing failed
		}
		if ce := r.Counterexample; ce != nil && rn.o.Corpus != "" && ce.File == "" {
			path, err := saveCounterexample(rn.o.Corpus, rn.selected[i].Rule, ce.Scenario)
			if err != nil {
				rn.err = errors.Join(rn.err, err)
			}
			ce.File = path
		}
		if ie := r.Internal; ie != nil && ie.Scenario != nil && rn.o.Corpus != "" {
			// The case whose shrinking broke is still the engine's
			// failure: kept, unshrunk, to be played first next time.
			if _, err := saveCounterexample(rn.o.Corpus, rn.selected[i].Rule, ie.Scenario); err != nil {
				rn.err = errors.Join(rn.err, err)
			}
		}
		rn.res.Results = append(rn.res.Results, *r)
	}
}

// exploreRounds is how many cases of each rule explore plays, round by
// round across the rules, before any rule's own search.
const exploreRounds = 5

// explore plays the first cases of every rule's search that reach their
// rule, a round at a time across all the rules (one case of each, then
// the next), before any rule searches on its own: a bug that any rule's
// first cases show, under whichever rule's check fails, is then met
// within the first rounds rather than when its rule's turn comes. Each
// case is one the rule's own search draws among its first (see
// judge.preplay), and its outcome is kept for that search, so the run
// costs no more engine calls than without it. A rule whose check names
// the departure of another rule's case plays the rest of its exploring
// cases at the end of that round. A rule whose case fails or faults is
// handed to searchNow at the end of the round: its counterexample is
// shrunk early in the run, not when its turn comes, and every rule's
// first case is still played before any search. Rules
// are played in parallel within a round, each by one worker's engine,
// and the outcomes kept by rule, so the run is the same at any
// parallelism.
func explore(ctx context.Context, selected []*properties.Property, judges map[model.RuleID]*judge, engines []Engine, skip map[model.RuleID]*Counterexample, o Options, searchNow func(e Engine, j *judge)) {
	var mu sync.Mutex // guards failing
	var rules []*judge
	for _, p := range selected {
		if ok, _ := applicable(judges[p.Rule].info, p); ok && skip[p.Rule] == nil {
			rules = append(rules, judges[p.Rule])
		}
	}
	rounds := min(exploreRounds, o.Checks)
	for range rounds {
		var round []*judge
		for _, j := range rules {
			if !j.explored && j.tries < rounds && !j.broken() {
				round = append(round, j)
			}
		}
		round = freshFirst(round)
		bad := make([]bool, len(round))
		onWorkers(engines, len(round), func() bool { return ctx.Err() == nil }, func(e Engine, i int) {
			round[i].e = e
			round[i].guard(func() { bad[i] = round[i].preplay(o.Checks) })
		})
		failing := map[*judge]bool{}
		for i, j := range round {
			if bad[i] {
				failing[j] = true
			}
		}
		// A rule whose check named a departure in another rule's case
		// plays the rest of its exploring cases now: the engine has
		// likely broken it.
		named := namedByLeads(judges)
		var pressed []*judge
		for _, j := range rules {
			if named[j.p.Rule] && !j.explored && j.tries < rounds && !failing[j] {
				pressed = append(pressed, j)
			}
		}
		onWorkers(engines, len(pressed), func() bool { return ctx.Err() == nil }, func(e Engine, i int) {
			j := pressed[i]
			j.e = e
			j.guard(func() {
				for !j.explored && j.tries < rounds && ctx.Err() == nil && !j.broken() {
					if j.preplay(o.Checks) {
						mu.Lock()
						failing[j] = true
						mu.Unlock()
					}
				}
			})
		})
		// A rule a lead names whose check the lead's case breaks fails
		// now, on that case (no engine call to judge it): it is shrunk
		// at the end of this round, not after every rule's search.
		for _, j := range rules {
			if named[j.p.Rule] && !failing[j] && j.fromLead == nil && !j.searched && !j.broken() {
				if l, ok := firstLead(selected, judges, j); ok {
					j.guard(func() {
						if out := j.judgeTraces(l.played(), l.lc.out.got, l.lc.out.want, l.lc.out.diverged); out.problem != nil {
							out.key, out.played, out.call = l.lc.out.key, l.lc.out.played, l.lc.out.call
							j.fromLead = l.failure(out)
							failing[j] = true
						}
					})
				}
			}
		}
		var search []*judge
		for _, j := range rules {
			if failing[j] {
				j.searched = true
				search = append(search, j)
			}
		}
		onWorkers(engines, len(search), func() bool { return true }, func(e Engine, i int) { searchNow(e, search[i]) })
	}
}

// freshFirst orders a round of explore: first the rules whose next case
// brings a situation (a label) the rule has not played yet, then those
// whose next case repeats one, each in the order given. A bug shows in a
// situation; one not played yet is likelier to show a new one than a
// repeat, so a rule's second situation is not left behind every other
// rule's repeats. In the first round every rule's case is new. The order
// changes when cases are played, never which.
func freshFirst(round []*judge) []*judge {
	var fresh, repeat []*judge
	for _, j := range round {
		if j.nextIsFresh() {
			fresh = append(fresh, j)
		} else {
			repeat = append(repeat, j)
		}
	}
	return append(fresh, repeat...)
}

// searchOrder lists the rules explore did not search, in the order
// their searches start: first those whose cases showed the engine going
// another way than the rules (a departure that another rule's check
// names) and those named in a lead (see namedByLeads), then the rest,
// each in the order selected. A rule whose first cases show something amiss is the
// likeliest to fail, and its counterexample is then shrunk early in the
// run, not after every other rule's search. The order changes when a
// rule's search runs, never what it finds.
func searchOrder(selected []*properties.Property, judges map[model.RuleID]*judge, early []bool) []int {
	suspect := namedByLeads(judges)
	for _, j := range judges {
		if j.departed {
			suspect[j.p.Rule] = true
		}
	}
	var first, then []int
	for i, p := range selected {
		switch {
		case early[i]:
		case suspect[p.Rule]:
			first = append(first, i)
		default:
			then = append(then, i)
		}
	}
	return append(first, then...)
}

// namedByLeads is the set of rules some rule's cases named in a lead: a
// departure their check names, or a held case that broke it.
func namedByLeads(judges map[model.RuleID]*judge) map[model.RuleID]bool {
	named := map[model.RuleID]bool{}
	for _, j := range judges {
		for q := range j.leads {
			named[q] = true
		}
	}
	return named
}

// onWorkers runs do(e, i) for i from 0 to n-1, in that order of starting,
// each on one of the engines, one worker per engine; it stops handing out
// work once more reports false, and returns when every worker is done.
func onWorkers(engines []Engine, n int, more func() bool, do func(e Engine, i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for _, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(e, i)
			}
		}()
	}
	for i := 0; i < n && more(); i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// interrupted reports whether ctx was cancelled, as a signal cancels a
// run, rather than out of time or out of engine calls, as its budgets end
// it.
func interrupted(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.Canceled) && !errors.Is(context.Cause(ctx), errCallBudget)
}

// errCallBudget ends a rule's search or shrinking when its share of
// Options.BudgetCalls is spent.
var errCallBudget = errors.New("the rule's share of the engine-call budget is spent")

// allot gives each selected rule the engine can be judged on an equal
// share of budget engine calls (the first rules one more, when it does
// not divide), so that which rule gets which calls does not depend on
// how workers are scheduled. A budget of 0 allots nothing: no limit.
func allot(judges map[model.RuleID]*judge, selected []*properties.Property, info EngineInfo, budget int) {
	if budget <= 0 {
		return
	}
	var judged []*judge
	for _, p := range selected {
		if ok, _ := applicable(info, p); ok {
			judged = append(judged, judges[p.Rule])
		}
	}
	for i, j := range judged {
		j.allot = budget / len(judged)
		if i < budget%len(judged) {
			j.allot++
		}
		j.allot = max(j.allot, 0)
		j.limited = true
	}
}

// faultsInARow is how many cases in a row an engine may fault on before a
// rule's search ends with the fault: a violation says more than a crash,
// but an engine that breaks on everything is not worth a timeout a case.
const faultsInARow = 3

const stoppedBeforeAnyCase = "the run was stopped (interrupted, or out of time) before any case ran"

// failing is a failing case: the scenario drawn and what it did.
type failing struct {
	s   *model.Scenario
	out outcome
}

// played is the case as the engine was given it.
func (f *failing) played() *model.Scenario {
	if f.out.played != nil {
		return f.out.played
	}
	return f.s
}

// checkOne judges the rule of j on its own cases: it settles at once a
// rule the engine can't be judged on or one a lead has failed, then
// searches, and decides the verdict from what the search counted.
func checkOne(ctx context.Context, j *judge, p *properties.Property, o Options) (r Result) {
	start := time.Now()
	r = Result{Rule: p.Rule}
	if settle(ctx, j, p, &r) {
		return r
	}
	if j.limited {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		j.ctx, j.cancel = ctx, cancel
	}
	defer func() { r.Calls = j.calls }()
	r.Time.add(*j.time) // what explore spent on the rule
	j.time = &r.Time
	s := newSearcher(ctx, j, &r)
	found, fault, err := s.cover(o.Checks)
	if err != nil {
		var ie *InternalError
		if !errors.As(err, &ie) {
			ie = &InternalError{Rule: p.Rule, Msg: err.Error()}
		}
		j.internals.add(ie)
		if j.bad != nil {
			// The search broke before it got back to the case explore
			// saw fail or fault: that case is still the engine's
			// failure, kept unshrunk.
			j.internals.keep(p.Rule, j.bad.played())
		}
		return internalResult(p, j.internals.of(p.Rule), j.calls)
	}
	if found == nil && fault == nil && s.stopped && j.bad != nil {
		// Stopped before the search got to the case explore saw fail or
		// fault: that case is kept, unshrunk.
		keepUnshrunk(j, j.bad, &r)
		r.conclude()
		r.Calls, r.Elapsed = j.calls, time.Since(start)
		return r
	}
	switch {
	case found != nil:
		r.Counterexample = j.counterexample(found)
		r.ShrunkAtCall = j.calls
		if o.OnShrunk != nil {
			o.OnShrunk(p.Rule)
		}
		s.others(found)
	case fault != nil:
		r.Fault = j.engineFault(fault)
	}
	e := ending{failed: found != nil, faulted: fault != nil, stopped: s.stopped, interrupted: interrupted(ctx), checks: o.Checks, noDirectSetup: j.info.NoDirectSetup}
	if errors.Is(context.Cause(ctx), errCallBudget) {
		e.callShare = j.allot
	}
	if !e.failed && !e.faulted && !notJudged(r) {
		setAsideRefused(p, &r, s.refusedAs)
		e.short = uncovered(p, r)
		e.unreached = unreached(p, r)
	}
	d := decide(r, e)
	r.basis.searched = &d
	r.conclude()
	if d.forShort {
		r.lostCover = coveredButForLoss(p, r)
	}
	r.Elapsed = time.Since(start)
	return r
}

// settle settles a rule that is not to be searched: one the engine can't
// be judged on, one a lead has failed (shrunk now), or one the run
// stopped before. It reports whether it did.
func settle(ctx context.Context, j *judge, p *properties.Property, r *Result) bool {
	if ok, why := applicable(j.info, p); !ok {
		r.basis.unsupported, r.basis.unchecked = why, p.Uncheckable != ""
		r.conclude()
		return true
	}
	aside, shares, unreached := reach(p, j.info, j.o.Checks)
	if unreached != "" {
		r.basis.unsupported = unreached
		r.conclude()
		return true
	}
	r.SetAside, r.Shares = aside, shares
	if j.fromLead != nil {
		// Even when the run is stopped: the failure is kept, shrunk as
		// far as there is time.
		r.Time.add(*j.time)
		j.time = &r.Time
		failFromLead(j, r)
		return true
	}
	if ctx.Err() != nil {
		// Stopped before this rule began: say so at once rather than have
		// rapid skip through every case.
		r.basis.stoppedBefore, r.basis.interrupted = true, interrupted(ctx)
		if f := j.bad; f != nil {
			// A case explore played failed or faulted: what it showed is
			// kept, unshrunk, whatever stopped the run.
			keepUnshrunk(j, f, r)
		}
		r.conclude()
		return true
	}
	return false
}

// keepUnshrunk keeps a failing or faulting case as it was played, for a
// run stopped before it could be shrunk: the rule's finding.
func keepUnshrunk(j *judge, f *failing, r *Result) {
	s := f.played()
	r.basis.unshrunk = true
	if f.out.problem != nil {
		r.Counterexample = &Counterexample{Rule: j.p.Rule, Problem: f.out.problem.Error(), Class: f.out.class, Found: f.out.found,
			Scenario: s, Got: f.out.got, Want: f.out.want, Seed: j.o.Seed}
		r.FailedAtCall = f.out.call
		return
	}
	r.Fault = &EngineFault{Rule: j.p.Rule, Scenario: s, Err: f.out.fault, Class: f.out.class}
	if ae, ok := errors.AsType[*AdapterError](f.out.fault); ok {
		r.Fault.Stderr = ae.Stderr
	}
}

// rapidShrinkCalls is the most engine calls rapid's shrinking of one
// failure may make before the domain steps (minimize) take over. Left
// alone, rapid spent hundreds of calls on a generator's choices (520 for
// one failure of 730.2a) where the domain steps then needed tens; with
// no rapid shrinking at all, the domain steps, which only ever simplify,
// stop in local minima that depend on the seed (a token where another
// seed keeps a flip card). A hundred calls gets rapid near the minimum
// every seed reaches (TestCanonicalCounterexample) at a fraction of the
// cost (see "Engine calls" in docs/BENCHMARKS.md).
const rapidShrinkCalls = 100

// rapidShrinkDraws is the most cases rapid's shrinking of one failure
// may draw, played or not: most of its tries give a case already played,
// which costs no engine call but a draw. At selftest's seed 1, a tenth
// of its shrinkings drew more than this, up to 3,475, and their draws
// were half of all (see "Selftest" in docs/BENCHMARKS.md).
const rapidShrinkDraws = 800

// coverRounds is how many more rounds of --checks cases a rule draws
// while a label is short of its share, before it is uncovered. A share
// is a rate the generator reaches with room to spare
// (TestCover_EveryShareHoldsAtAnySeed), so a shortfall in one round is
// most often the seed's luck, and a correct engine must not be called
// uncovered for it; an engine that loses the label stays short in every
// round. (QuickCheck's checkCoverage likewise tests on while coverage is
// in doubt.)
const coverRounds = 3

// inDoubt reports whether r, judged on enough cases with none set aside
// for another reason, is short of a label's share.
func inDoubt(p *properties.Property, r Result, checks int) bool {
	return r.Cases >= minCases(checks) && !notJudged(r) && uncovered(p, r) != ""
}

// afterDraws draws g's scenarios after skipping n values of rapid's
// stream: another round of cases at the same seed, as deterministic as
// the first and shrinking as well.
func afterDraws(g *rapid.Generator[*model.Scenario], n int) *rapid.Generator[*model.Scenario] {
	return rapid.Custom(func(t *rapid.T) *model.Scenario {
		for range n {
			rapid.Uint64().Draw(t, "round")
		}
		return g.Draw(t, "scenario")
	})
}

// minCases is the fewest cases a rule must be judged on to hold when the
// engine refused the others: a tenth of the cases asked for.
func minCases(checks int) int { return max(1, checks/10) }

// lostCases says why a rule was judged on too few of its cases: the
// engine's trace departed from the rules' in the others.
func lostCases(r Result) string {
	var why []string
	if r.Excluded > 0 {
		why = append(why, fmt.Sprintf("in %d the engine's trace departed from the rules' in ways other rules report (%s)", r.Excluded, ExcludedList(r.ExcludedBy)))
	}
	if r.Departed > 0 {
		why = append(why, fmt.Sprintf("in %d it departed where no rule's check looks (see the unexplained departures)", r.Departed))
	}
	return fmt.Sprintf("only %d of %d cases could be judged on this rule: %s", r.Cases, r.Cases+r.Excluded+r.Departed, strings.Join(why, "; "))
}

// ExcludedList says how many cases each rule's check took from a rule
// (Result.ExcludedBy), most first: "730.3: 12, 400.1: 2".
func ExcludedList(by map[model.RuleID]int) string {
	rules := slices.Collect(maps.Keys(by))
	slices.SortFunc(rules, func(a, b model.RuleID) int {
		if by[a] != by[b] {
			return by[b] - by[a]
		}
		return strings.Compare(string(a), string(b))
	})
	var out []string
	for _, r := range rules {
		out = append(out, fmt.Sprintf("%s: %d", r, by[r]))
	}
	return strings.Join(out, ", ")
}

// topRefusals keeps the three commonest reasons the engine gave for
// refusing scenarios, with their counts.
func topRefusals(by map[string]int) []Refusal {
	var out []Refusal
	for reason, n := range by {
		out = append(out, Refusal{Reason: reason, Count: n})
	}
	slices.SortFunc(out, func(a, b Refusal) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return out[:min(len(out), 3)]
}

// counterexample shrinks a failing case to its canonical minimum, keeping
// its failure, and reports it. A failure the engine does not repeat when
// the minimal scenario is played again is still reported, as such.
func (j *judge) counterexample(f *failing) *Counterexample {
	t0 := time.Now()
	errs := j.shrinkErrors // those met while rapid shrank it
	j.shrinkErrors = nil
	defer func() { j.shrinkErrors = nil }()
	s := minimize(j, f)
	for m, n := range errs {
		if j.shrinkErrors == nil {
			j.shrinkErrors = map[string]int{}
		}
		j.shrinkErrors[m] += n
	}
	j.time.Minimize += time.Since(t0)
	out := j.play(s)
	if !out.same(f.out) {
		s, out = f.s, f.out
	}
	j.cache = nil // the shrink's outcomes are done with
	again := j.playUncached(s, nil, nil)
	reported := s
	if out.played != nil {
		reported = out.played // report what the engine was given
	}
	return &Counterexample{
		Rule: j.p.Rule, Problem: out.problem.Error(), Class: out.class, Found: out.found,
		Scenario: reported, Got: out.got, Want: out.want, Seed: j.o.Seed,
		Intermittent: !again.same(out) && !again.stopped, ShrinkErrors: topRefusals(j.shrinkErrors),
	}
}

// engineFault shrinks a case the engine faulted on, keeping the kind of
// fault, and reports it with the error and the adapter's last lines of
// standard error. A fault that does not recur when played again is
// reported as intermittent, with the error it first gave.
func (j *judge) engineFault(f *failing) *EngineFault {
	s := minimize(j, f)
	out := j.play(s)
	if !out.same(f.out) {
		s, out = f.s, f.out
	}
	j.cache = nil // the shrink's outcomes are done with
	again := j.playUncached(s, nil, nil)
	if out.played != nil {
		s = out.played // report what the engine was given
	}
	// A fault that comes back as another fault (a timeout where there was
	// garbage, on a busy machine) recurred: only one that does not fault
	// again is intermittent.
	fe := &EngineFault{Rule: j.p.Rule, Scenario: s, Err: out.fault, Class: out.class, Intermittent: again.fault == nil && !again.stopped}
	var ae *AdapterError
	if errors.As(out.fault, &ae) {
		fe.Stderr = ae.Stderr
	}
	return fe
}

// countLost counts the coverage labels of a case lost to a finding.
func countLost(p *properties.Property, r *Result, s *model.Scenario, out outcome) {
	if out.want == nil {
		return
	}
	if out.played != nil {
		s = out.played
	}
	for _, l := range labelsOf(p, s, out.want) {
		if r.lost == nil {
			r.lost = map[string]int{}
		}
		r.lost[l]++
	}
}

// coveredButForLoss reports whether every label short of its share would
// have had it, had the cases lost to findings been judged: the shortfall
// is those findings', not the generator's.
func coveredButForLoss(p *properties.Property, r Result) bool {
	all := r.Cases + r.Excluded + r.Departed
	if all == 0 || r.Excluded+r.Departed == 0 {
		return false
	}
	for l := range p.Cover {
		want := r.share(p, l)
		if _, aside := r.SetAside[l]; aside || r.Cases > 0 && float64(r.Coverage[l])/float64(r.Cases) >= want {
			continue
		}
		if float64(r.Coverage[l]+r.lost[l])/float64(all) < want {
			return false
		}
	}
	return true
}

// refusedPrefix begins the why of a coverage label set aside because the
// engine refused the scenarios that reach it.
const refusedPrefix = "the engine refused "

// setAsideRefused sets aside the coverage labels that fall short of
// their share only for the scenarios the engine refused: those it played
// do not reach them often enough, those it refused would have. Coverage
// is asked only of what the engine plays; a situation it refuses by name
// is unsupported, never uncovered, and the why counts the refusals.
func setAsideRefused(p *properties.Property, r *Result, reasons map[string]string) {
	for l := range p.Cover {
		n := r.RefusedLabels[l]
		if _, aside := r.SetAside[l]; aside || n == 0 {
			continue
		}
		want := r.share(p, l)
		if r.Cases > 0 && float64(r.Coverage[l])/float64(r.Cases) >= want {
			continue
		}
		if float64(r.Coverage[l]+n)/float64(r.Cases+r.Refused) < want {
			continue // short even with them: the draws', not the refusals'
		}
		if r.SetAside == nil {
			r.SetAside = map[string]string{}
		}
		r.SetAside[l] = fmt.Sprintf("%s%d scenarios drawn that reach it, as: %s", refusedPrefix, n, reasons[l])
		delete(r.Shares, l)
	}
	if len(r.Shares) == 0 {
		r.Shares = nil
	}
}

// unreached reports whether p names its situations and none of r's
// cases reached one: every label set aside, say, and the cases the engine
// played the ones where nothing the rule speaks of happens.
func unreached(p *properties.Property, r Result) bool {
	if p.Classify == nil || r.Cases == 0 {
		return false
	}
	for l, n := range r.Coverage {
		if l != properties.ElseHappens && n > 0 {
			return false
		}
	}
	return true
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
		if _, aside := r.SetAside[l]; aside {
			continue
		}
		if r.Cases == 0 {
			return "no case ran"
		}
		share, want := float64(r.Coverage[l])/float64(r.Cases), r.share(p, l)
		if share < want {
			if _, measured := r.Shares[l]; measured {
				return fmt.Sprintf("label %q covered %.0f%% of %d cases, want at least %.1f%% (the share measured for the features the engine declares; %.0f%% with every feature)", l, 100*share, r.Cases, 100*want, 100*p.Cover[l])
			}
			return fmt.Sprintf("label %q covered %.0f%% of %d cases, want at least %.0f%%", l, 100*share, r.Cases, 100*want)
		}
	}
	return ""
}

// share is the share of r's cases that label l is asked to cover: the
// property's, or the one measured for what the engine declares.
func (r Result) share(p *properties.Property, l string) float64 {
	if s, ok := r.Shares[l]; ok {
		return s
	}
	return p.Cover[l]
}

// CheckScenario plays one scenario on e and judges it by p as Check
// does: the problem found (by p's check, the trace's own, or the
// comparison with the rules' whole trace), or the engine's error
// (wrapping ErrUnsupported when the engine refuses the scenario). A case
// whose departure from the rules another rule's check names gives
// neither: it is that rule's finding.
func CheckScenario(ctx context.Context, e Engine, p *properties.Property, s *model.Scenario, timeout time.Duration) (problem, fault error) {
	j := newJudge(ctx, e, p, timeout)
	// One case, played once: no hash to key a cache by, and an encoding
	// only for an engine that takes one.
	var enc []byte
	if _, ok := e.(EncodedRunner); ok {
		enc = encode(s)
	}
	out := j.playUncached(s, enc, nil)
	switch {
	case out.stopped:
		return nil, ctx.Err()
	case out.refused != nil:
		return nil, out.refused
	}
	return out.problem, out.fault
}

func newJudge(ctx context.Context, e Engine, p *properties.Property, timeout time.Duration) *judge {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	info := e.Info()
	return &judge{ctx: ctx, e: e, p: p, o: Options{Timeout: timeout, ShrinkTime: 30 * time.Second}, info: info,
		shrinkState: shrinkState{cache: map[string]outcome{}}, time: &Timing{}, explain: explainers(info, []*properties.Property{p})}
}

// StartInterrupted returns the results of a run stopped (by a signal)
// before any rule began, while its engine was starting: every property of
// the shard interrupted, so that the reports say what happened.
func StartInterrupted(name string, props []*properties.Property, opts *Options) *Results {
	o := opts.withDefaults()
	res := &Results{Engine: EngineInfo{Name: name, Features: []model.Feature{}}, Seed: o.Seed, Options: o, Started: time.Now(), Interrupted: true}
	res.Options.Progress, res.Options.OnShrunk, res.Options.Draws = nil, nil, nil
	for i, p := range props {
		if !o.Shard.Selects(i) {
			continue
		}
		r := Result{Rule: p.Rule, basis: basis{stoppedBefore: true, interrupted: true, starting: true}}
		if p.Uncheckable != "" {
			r.basis = basis{unsupported: p.Uncheckable, unchecked: true}
		}
		r.conclude()
		res.Results = append(res.Results, r)
	}
	return res
}

// StartFault returns the results of a run whose engine could not even be
// started (an adapter that crashed or hung before its handshake): every
// property of the shard an engine fault with that error and no scenario,
// so the reports say what happened rather than nothing.
func StartFault(name string, props []*properties.Property, opts *Options, err error) *Results {
	o := opts.withDefaults()
	res := &Results{Engine: EngineInfo{Name: name, Features: []model.Feature{}}, Seed: o.Seed, Options: o, Started: time.Now()}
	res.Options.Progress = nil
	var ae *AdapterError
	stderr := []string(nil)
	if errors.As(err, &ae) {
		stderr = ae.Stderr
	}
	for i, p := range props {
		if !o.Shard.Selects(i) {
			continue
		}
		r := Result{Rule: p.Rule, Fault: &EngineFault{Rule: p.Rule, Err: err, Class: faultClass(err), Stderr: stderr}, basis: basis{startFault: true}}
		if p.Uncheckable != "" {
			r = Result{Rule: p.Rule, basis: basis{unsupported: p.Uncheckable, unchecked: true}}
		}
		r.conclude()
		res.Results = append(res.Results, r)
	}
	return res
}
