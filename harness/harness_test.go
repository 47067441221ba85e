package harness_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/build"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/properties"
	"github.com/mergecheck/mergecheck/reference"
)

func check(t *testing.T, engine string, props []*properties.Property, seed uint64) *harness.Results {
	t.Helper()
	e, err := harness.Reference(engine)
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), e, props, &harness.Options{Checks: 100, Seed: seed})
	require.NoError(t, err)
	return res
}

// TestReferenceHoldsEveryProperty: the oracle passes its own suite, and the
// rules no trace can show are listed as unchecked, never as held.
func TestReferenceHoldsEveryProperty(t *testing.T) {
	res := check(t, "", properties.All, 20261130)
	for _, r := range res.Results {
		p := properties.Find(properties.All, r.Rule)
		want := harness.Held
		if p.Uncheckable != "" {
			want = harness.Unchecked
		}
		assert.Equal(t, want, r.Verdict, "%s: %s %v", r.Rule, r.Why, r.Counterexample)
		if want == harness.Held {
			assert.Equal(t, 100, r.Cases, r.Rule)
		}
	}
	assert.NoError(t, res.Err())
}

// TestEveryPropertyHasAMutant: a property that no mutant is meant to break
// proves nothing.
func TestEveryPropertyHasAMutant(t *testing.T) {
	for _, p := range properties.All {
		if p.Uncheckable != "" {
			continue
		}
		found := false
		for _, m := range reference.Mutants {
			for _, r := range m.Breaks {
				found = found || r == p.Rule
			}
		}
		assert.True(t, found, "no mutant breaks %s", p.Rule)
	}
}

// TestSuiteKillsEveryMutant: each mutant fails each rule it breaks, with a
// counterexample that names the rule and has shrunk to the stated minimum.
func TestSuiteKillsEveryMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mutant (or lazy engine) over every rule; go test without -short runs it")
	}
	for _, m := range reference.Mutants {
		t.Run(m.Name, func(t *testing.T) {
			for _, rule := range m.Breaks {
				p := properties.Find(properties.All, rule)
				require.NotNil(t, p, "mutant %s names rule %s, which has no property", m.Name, rule)
				r := check(t, m.Name, []*properties.Property{p}, 1).Results[0]
				require.Equal(t, harness.Failed, r.Verdict, "%s survived %s: %s", m.Name, rule, r.Why)
				ce := r.Counterexample
				assert.Equal(t, rule, ce.Rule)
				assert.True(t, strings.HasPrefix(ce.Error(), string(rule)+": "), ce.Error())
				comps, acts := ce.Size()
				want := [2]int{m.Components, m.Actions}
				if size, ok := m.Sizes[rule]; ok {
					want = size
				}
				assert.Equal(t, want, [2]int{comps, acts},
					"%s on %s: counterexample has %d components and %d actions:\n%s", m.Name, rule, comps, acts, encode(t, ce.Scenario))
				_, err := reference.Run(ce.Scenario)
				assert.NoError(t, err, "the counterexample must be a valid scenario")
			}
		})
	}
}

func encode(t *testing.T, s *model.Scenario) string {
	b, err := model.Encode(s)
	require.NoError(t, err)
	return string(b)
}

// notCanonical lists the failures whose minimal counterexample depends on
// the seed, each with the reason (the README lists them too).
var notCanonical = map[string]string{
	"card-replacement-skips-tokens/730.3e": "the card-only replacement effect is Wheel of Sun and Moon under its owner's control or Leyline of the Void " +
		"under the other player's, whichever the seed drew; each is a minimum, and one becomes the other only by a new card and a new controller at once, " +
		"which no single shrinking step makes",
	"clone-copies-top-card/707.5": "Clone copying a face-down Grizzly Bears or a transformed Delver of Secrets, whichever the seed drew (seeds 1, 2 and 4 the first, " +
		"3, 5 and 6 the second since the reference copies the face that is up of a permanent kept flipped); each is a minimum, since turning the Bears face up " +
		"or the Delver front face up leaves nothing for the mutant to get wrong, and one becomes the other only by a new card and a new face at once",
	"lazy:frozen/730.2f": "an engine that changes nothing departs from the rules on any action, and no other rule's check claims a permanent that never " +
		"appeared, so 730.2f's smallest case is whichever action the seed drew first (a tap, a manifest); none becomes another by one step",
}

// TestCanonicalCounterexample: the same bug yields the same minimal
// scenario, byte for byte, whatever the seed: for every mutant on every
// rule it breaks, and every lazy engine on every rule it must fail, seeds
// 1 to 6 give one counterexample, but for the failures listed in
// notCanonical.
func TestCanonicalCounterexample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mutant (or lazy engine) over every rule; go test without -short runs it")
	}
	type engine struct {
		name  string
		open  func() (harness.Engine, error)
		rules []model.RuleID
	}
	var engines []engine
	for _, m := range reference.Mutants {
		engines = append(engines, engine{m.Name, func() (harness.Engine, error) { return harness.Reference(m.Name) }, m.Breaks})
	}
	for _, l := range reference.Lazies {
		engines = append(engines, engine{"lazy:" + l.Name, func() (harness.Engine, error) { return harness.Lazy(l.Name, 1) }, l.Fails})
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			for _, rule := range e.rules {
				p := properties.Find(properties.All, rule)
				var first string
				for seed := uint64(1); seed <= 6; seed++ {
					eng, err := e.open()
					require.NoError(t, err)
					res, err := harness.Check(context.Background(), eng, []*properties.Property{p}, &harness.Options{Checks: 100, Seed: seed, Parallel: 1})
					require.NoError(t, err)
					r := res.Results[0]
					require.Equal(t, harness.Failed, r.Verdict, "%s on %s, seed %d: %s", e.name, rule, seed, r.Why)
					got := encode(t, r.Counterexample.Scenario)
					if seed == 1 {
						first = got
						continue
					}
					if why, ok := notCanonical[e.name+"/"+string(rule)]; ok {
						assert.NotEmpty(t, why)
						continue
					}
					assert.Equal(t, first, got, "%s on %s: seed %d gives another counterexample", e.name, rule, seed)
				}
			}
		})
	}
}

// TestSameSeedSameRun: the same seed draws the same scenarios and gives
// the same verdicts; another seed draws others.
func TestSameSeedSameRun(t *testing.T) {
	props := []*properties.Property{properties.P730_2d, properties.P730_3, properties.P702_140c}
	a := check(t, "", props, 99)
	b := check(t, "", props, 99)
	c := check(t, "", props, 100)
	for i := range props {
		assert.Equal(t, a.Results[i].Digest, b.Results[i].Digest, props[i].Rule)
		assert.Equal(t, a.Results[i].Verdict, b.Results[i].Verdict)
		assert.Equal(t, a.Results[i].Coverage, b.Results[i].Coverage)
		assert.NotEqual(t, a.Results[i].Digest, c.Results[i].Digest, props[i].Rule)
	}
	m1 := check(t, "count-one-card", []*properties.Property{properties.P712_21e}, 5).Results[0]
	m2 := check(t, "count-one-card", []*properties.Property{properties.P712_21e}, 5).Results[0]
	require.Equal(t, harness.Failed, m1.Verdict)
	assert.Equal(t, encode(t, m1.Counterexample.Scenario), encode(t, m2.Counterexample.Scenario))
}

// TestUnsupportedIsNeverHeld: a property needing a feature the engine
// lacks is reported unsupported.
func TestUnsupportedIsNeverHeld(t *testing.T) {
	e := limited{features: []model.Feature{model.FeatureMerge, model.FeatureMutate, model.FeatureFlip, model.FeatureDoubleFaced, model.FeatureFaceDown}}
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2d, properties.P701_42a}, &harness.Options{Checks: 10, Seed: 3})
	require.NoError(t, err)
	assert.Equal(t, harness.Held, res.Results[0].Verdict)
	assert.Equal(t, harness.Unsupported, res.Results[1].Verdict)
	assert.Contains(t, res.Results[1].Why, "meld")
}

// limited is the reference behind a narrower declaration: fewer features,
// partial traces, or an action it fails on.
type limited struct {
	features  []model.Feature
	observers []model.Observer
	partial   bool
	failOn    model.ActionType
}

func (l limited) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "limited", Features: l.features, Observers: l.observers, PartialTraces: l.partial}
}

func (l limited) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	for _, a := range s.Actions {
		if a.Type == l.failOn {
			return nil, errors.New("can't " + string(a.Type))
		}
	}
	return reference.Run(s)
}

// TestPartialTracesLeaveOutOnlyTheRulesOfEvents: an engine with partial
// traces may leave out zone changes and reveals, so the rules judged on
// those are unsupported for it, with the reason; the rules judged on
// states and characteristics still judge it (730.2a compares
// characteristics and needs no event).
func TestPartialTracesLeaveOutOnlyTheRulesOfEvents(t *testing.T) {
	e := limited{features: model.Features, partial: true}
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2d, properties.P730_2a, properties.P708_9}, &harness.Options{Checks: 10, Seed: 3})
	require.NoError(t, err)
	assert.Equal(t, harness.Held, res.Results[0].Verdict, res.Results[0].Why)
	assert.Equal(t, harness.Held, res.Results[1].Verdict, res.Results[1].Why)
	assert.Equal(t, harness.Unsupported, res.Results[2].Verdict)
	assert.Contains(t, res.Results[2].Why, "partial")
}

// TestObserversOneByOne: an engine that does not report one observer is
// unsupported on the rules that read it and judged on the rest, the
// differential ones that read no observer among them.
func TestObserversOneByOne(t *testing.T) {
	var obs []model.Observer
	for _, o := range model.Observers {
		if o != model.Mutates {
			obs = append(obs, o)
		}
	}
	e := limited{features: model.Features, observers: obs}
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2a, properties.P712_8d, properties.P702_140d}, &harness.Options{Checks: 20, Seed: 3})
	require.NoError(t, err)
	assert.Equal(t, harness.Held, res.Results[0].Verdict, res.Results[0].Why)
	assert.Equal(t, harness.Held, res.Results[1].Verdict, res.Results[1].Why)
	assert.Equal(t, harness.Unsupported, res.Results[2].Verdict)
	assert.Contains(t, res.Results[2].Why, "mutates")
}

// TestUncoveredIsNotHeld: a property whose generator misses its label
// fails instead of passing vacuously.
func TestUncoveredIsNotHeld(t *testing.T) {
	p := *properties.P730_2d
	p.Classify = func(*model.Scenario, *model.Trace) []string { return nil }
	p.Cover = map[string]float64{"never-drawn": 0.1}
	res := check(t, "", []*properties.Property{&p}, 1)
	assert.Equal(t, harness.Uncovered, res.Results[0].Verdict)
	assert.Contains(t, res.Results[0].Why, `"never-drawn" covered 0% of 400 cases`, "short in every round of 100")
}

// TestCover_AShortRoundIsTheSeedsLuck: a label short of its share in a
// rule's first 100 cases draws more rounds, and a correct engine that
// reaches the share over them holds: uncovered must not depend on the
// seed. The share is set just under the label's rate (merged-leaves, 71%)
// so that some of the seeds fall short in their first round.
func TestCover_AShortRoundIsTheSeedsLuck(t *testing.T) {
	p := *properties.P730_3
	p.Cover = map[string]float64{"merged-leaves": 0.66}
	rescued := 0
	for seed := uint64(1); seed <= 12; seed++ {
		r := check(t, "", []*properties.Property{&p}, seed).Results[0]
		require.Contains(t, []int{100, 200, 300, 400}, r.Cases, "seed %d: whole rounds", seed)
		if r.Cases > 100 && r.Verdict == harness.Held {
			rescued++
		}
		if r.Verdict == harness.Uncovered {
			assert.Equal(t, 400, r.Cases, "seed %d: uncovered only when short in every round", seed)
		} else {
			assert.Equal(t, harness.Held, r.Verdict, "seed %d", seed)
		}
	}
	assert.NotZero(t, rescued, "no seed fell short in its first round and held after more: the test shows nothing")
}

// TestCover_ASituationTheEngineRefusesIsUnsupportedNotUncovered: an
// engine that refuses by name every case whose merged permanent goes to
// a graveyard never plays 730.3's merged-dies: more rounds do not make it
// covered, and the label is not asked of it. The rule is held on what it
// plays, the label named with the count of its refusals. A label short
// even with the refused cases counted is still uncovered (TestDecide).
func TestCover_ASituationTheEngineRefusesIsUnsupportedNotUncovered(t *testing.T) {
	res, err := harness.Check(context.Background(), noGraveyard{}, []*properties.Property{properties.P730_3}, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	r := res.Results[0]
	assert.Equal(t, harness.Held, r.Verdict)
	assert.Zero(t, r.Coverage["merged-dies"])
	assert.Positive(t, r.RefusedLabels["merged-dies"])
	assert.Contains(t, r.Why, fmt.Sprintf(`"merged-dies" (%d refused)`, r.RefusedLabels["merged-dies"]))
	assert.Contains(t, r.SetAside["merged-dies"], "no graveyard here", "the engine's reason")
	assert.Equal(t, 400, r.Cases+r.Refused, "four rounds drawn before the label is set aside")
}

// noGraveyard is the reference but refuses any move to a graveyard.
type noGraveyard struct{}

func (noGraveyard) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "no-graveyard", Features: model.Features}
}

func (noGraveyard) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	for _, a := range s.Actions {
		if a.Type == model.Move && a.To == model.Graveyard {
			return nil, fmt.Errorf("%w: no graveyard here", harness.ErrUnsupported)
		}
	}
	return reference.Run(s)
}

// TestEngineFaultIsReportedWithItsScenario: an engine that can't play a
// scenario is a fault, with the minimal scenario that shows it.
func TestEngineFaultIsReportedWithItsScenario(t *testing.T) {
	e := limited{features: model.Features, failOn: model.Move}
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_3}, &harness.Options{Checks: 20, Seed: 2})
	require.NoError(t, err)
	r := res.Results[0]
	require.Equal(t, harness.Fault, r.Verdict)
	assert.ErrorContains(t, r.Fault, "can't move")
	require.NotNil(t, r.Fault.Scenario)
	assert.Len(t, r.Fault.Scenario.Actions, 1, "shrunk to the one action it can't play")
	assert.Error(t, res.Err())
}

// TestBudgetStopsTheRun: a spent budget leaves the rules it didn't reach
// uncovered, never held.
func TestBudgetStopsTheRun(t *testing.T) {
	e, err := harness.Reference("")
	require.NoError(t, err)
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2d}, &harness.Options{Checks: 10, Seed: 1, Budget: time.Nanosecond})
	require.NoError(t, err)
	assert.Equal(t, harness.Uncovered, res.Results[0].Verdict)
}

// TestEngineRefusalIsUnsupportedNotFault: an engine that answers
// ErrUnsupported for the scenarios of a rule leaves it unsupported.
func TestEngineRefusalIsUnsupportedNotFault(t *testing.T) {
	e := refusing{}
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_3}, &harness.Options{Checks: 10, Seed: 2})
	require.NoError(t, err)
	assert.Equal(t, harness.Unsupported, res.Results[0].Verdict)
	assert.Contains(t, res.Results[0].Why, "no leaving")
	assert.NoError(t, res.Err())
}

type refusing struct{}

func (refusing) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "refusing", Features: model.Features}
}

func (refusing) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	return nil, fmt.Errorf("%w: no leaving the battlefield here", harness.ErrUnsupported)
}

// TestParallelEqualsSerial: properties spread over workers give the
// results of a serial run with the same seed, in the same order.
func TestParallelEqualsSerial(t *testing.T) {
	for _, engine := range []string{"", "replacement-top-only", "dfc-merged-turns-face-down"} {
		e, err := harness.Reference(engine)
		require.NoError(t, err)
		serial, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 50, Seed: 21, Parallel: 1})
		require.NoError(t, err)
		parallel, err := harness.Check(context.Background(), e, properties.All, &harness.Options{Checks: 50, Seed: 21, Parallel: 4})
		require.NoError(t, err)
		require.Len(t, parallel.Results, len(serial.Results))
		for i, s := range serial.Results {
			p := parallel.Results[i]
			assert.Equal(t, s.Rule, p.Rule)
			assert.Equal(t, s.Verdict, p.Verdict, s.Rule)
			assert.Equal(t, s.Digest, p.Digest, s.Rule)
			assert.Equal(t, s.Calls, p.Calls, s.Rule)
			assert.Equal(t, s.FailedAtCall, p.FailedAtCall, s.Rule)
			assert.Equal(t, s.ShrunkAtCall, p.ShrunkAtCall, s.Rule)
			assert.Equal(t, s.Lead, p.Lead, s.Rule)
			if s.Counterexample != nil {
				assert.Equal(t, encode(t, s.Counterexample.Scenario), encode(t, p.Counterexample.Scenario), s.Rule)
			}
		}
	}
}

// noSetup is the reference (or one of its mutants) declaring it can't
// start from merged stacks; it refuses any scenario that does, so the
// harness must build them.
type noSetup struct{ mutant string }

func (noSetup) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "no-setup", Features: model.Features, NoDirectSetup: true}
}

func (e noSetup) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	for _, p := range s.Start.Battlefield {
		if len(p.Components) > 1 {
			return nil, errors.New("given a merged stack to set up")
		}
	}
	return reference.RunMutant(s, e.mutant)
}

// TestEnginesWithoutDirectSetupAreJudgedOnEveryRule: for such an engine
// the harness draws only stacks it can have built by casting mutating
// spells onto a base (face up or face down), and melds a meld pair by the
// first action instead of starting melded. Every checkable rule is then
// judged, none unsupported or uncovered, and bugs in meld and in
// face-down components are still caught.
func TestEnginesWithoutDirectSetupAreJudgedOnEveryRule(t *testing.T) {
	res, err := harness.Check(context.Background(), noSetup{}, properties.All, &harness.Options{Checks: 100, Seed: 1})
	require.NoError(t, err)
	require.NoError(t, res.Err())
	for _, r := range res.Results {
		assert.Contains(t, []harness.Verdict{harness.Held, harness.Unchecked}, r.Verdict, "%s: %s", r.Rule, r.Why)
	}
	for _, tc := range []struct {
		mutant string
		p      *properties.Property
	}{
		{"melded-mana-value-zero", properties.P712_8g},
		{"instant-turns-face-up", properties.P730_2g},
		{"no-reveal", properties.P708_9},
	} {
		bug, err := harness.Check(context.Background(), noSetup{mutant: tc.mutant}, []*properties.Property{tc.p}, &harness.Options{Checks: 100, Seed: 1})
		require.NoError(t, err)
		r := bug.Results[0]
		require.Equal(t, harness.Failed, r.Verdict, "%s: %s", tc.mutant, r.Why)
		for _, p := range r.Counterexample.Scenario.Start.Battlefield {
			assert.Len(t, p.Components, 1, "%s: the engine was given a stack to set up", tc.mutant)
		}
	}
}

// TestStacksBuiltByActionsForEnginesWithoutDirectSetup: such an engine is
// never given a merged starting stack; the stacks that can be cast are,
// and the rules are judged on what it plays.
func TestStacksBuiltByActionsForEnginesWithoutDirectSetup(t *testing.T) {
	res, err := harness.Check(context.Background(), noSetup{}, []*properties.Property{properties.P730_3, properties.P702_140e, properties.P730_2d}, &harness.Options{Checks: 100, Seed: 4})
	require.NoError(t, err)
	for _, r := range res.Results {
		assert.Contains(t, []harness.Verdict{harness.Held, harness.Unsupported, harness.Uncovered}, r.Verdict, "%s: %s %v", r.Rule, r.Why, r.Fault)
	}
	assert.NoError(t, res.Err(), "no fault: the engine never saw a merged start")

	bd := build.New("stack", "")
	bd.Card("c1", build.A, "Gemrazer")
	bd.Card("c2", build.A, "Grizzly Bears")
	bd.Card("c3", build.A, "Vulpikeet")
	bd.Perm("p1", build.A, build.Up("c1"), build.Up("c2"), build.Up("c3")).
		Mod("p1", func(p *model.Permanent) { p.Status.Tapped = true }).
		Do(model.Action{Type: model.Move, Object: "p1", To: model.Exile, Choices: model.Choices{Order: []model.ObjectID{"c1", "c2", "c3"}}},
			model.Action{Type: model.Return, Object: "p1", Choices: model.Choices{Order: []model.ObjectID{"c1", "c2", "c3"}}},
			model.Action{Type: model.Tap, Object: "c2@1"})
	built, ok := model.BuildByActions(bd.Scenario())
	require.True(t, ok)
	assert.Len(t, built.Start.Battlefield[0].Components, 1)
	assert.Equal(t, model.ObjectID("c2@5"), built.Actions[len(built.Actions)-1].Object, "entering ids follow the prepended actions")
	tr, err := reference.Run(built)
	require.NoError(t, err)
	direct, err := reference.Run(bd.Scenario())
	require.NoError(t, err)
	want := direct.Steps[0].State
	got := tr.Steps[4].State
	assert.Equal(t, want.Player(build.A).Zones, got.Player(build.A).Zones)
	final := tr.Steps[len(tr.Steps)-1].State
	assert.NotNil(t, final.Permanent("c2@5"))
}

// TestBudgetEndsARuleMidway: a budget spent in the middle of a rule with a
// million cases to go ends it then, with the cases run so far, instead of
// skipping through the rest (which took seconds per hundred thousand).
func TestBudgetEndsARuleMidway(t *testing.T) {
	e, err := harness.Reference("")
	require.NoError(t, err)
	start := time.Now()
	// The budget leaves room for the first cases on a busy machine under
	// the race detector, where 200ms once ran none (the lookahead alone
	// draws a hundred scenarios); a million cases take far longer.
	res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P110_5c}, &harness.Options{Checks: 1_000_000, Seed: 1, Budget: 10 * time.Second})
	require.NoError(t, err)
	// Skipping through the million cases took minutes; a margin this wide
	// holds on a busy machine.
	assert.Less(t, time.Since(start), 2*time.Minute, "the budget was 10s")
	r := res.Results[0]
	assert.Equal(t, harness.Held, r.Verdict, r.Why)
	assert.Positive(t, r.Cases)
	assert.Contains(t, r.Why, "stopped after")
}

// onceWrong is the reference, but for one call: the first scenario with an
// action that it plays, it answers with that action's step left out.
type onceWrong struct {
	mu   sync.Mutex
	done bool
}

func (*onceWrong) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "once-wrong", Features: model.Features}
}

func (o *onceWrong) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	t, err := reference.Run(s)
	o.mu.Lock()
	defer o.mu.Unlock()
	if err == nil && !o.done && len(t.Steps) > 0 {
		o.done = true
		t.Steps = t.Steps[:len(t.Steps)-1]
	}
	return t, err
}

// Test400_1_AFailureThatDoesNotRecurStillFails: a case that failed once
// fails its rule, though the engine does not fail again when the case is
// played once more; the counterexample says it is intermittent and keeps
// the trace the engine gave.
func Test400_1_AFailureThatDoesNotRecurStillFails(t *testing.T) {
	res, err := harness.Check(context.Background(), &onceWrong{}, []*properties.Property{properties.P730_2d}, &harness.Options{Checks: 50, Seed: 1})
	require.NoError(t, err)
	r := res.Results[0]
	require.Equal(t, harness.Failed, r.Verdict, r.Why)
	ce := r.Counterexample
	assert.True(t, ce.Intermittent, ce.Problem)
	assert.Equal(t, properties.P400_1.Rule, ce.Found)
	assert.Less(t, len(ce.Got.Steps), len(ce.Scenario.Actions), "the trace kept is the one that failed")
}

// faulting faults on every call, as an adapter writing garbage does on a
// busy machine: the first time it answers garbage, and when the scenario
// is played again the answer may come too late instead. With once, it
// faults only on the first call for each scenario and plays the rest.
type faulting struct {
	once  bool
	mu    *sync.Mutex
	calls map[string]int
}

func (f faulting) Info() harness.EngineInfo {
	return harness.EngineInfo{Name: "faulting", Features: model.Features}
}

func (f faulting) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	b, _ := model.Encode(s)
	f.mu.Lock()
	f.calls[string(b)]++
	n := f.calls[string(b)]
	f.mu.Unlock()
	switch {
	case f.once && n > 1:
		return reference.Run(s)
	case n%2 == 1:
		return nil, &harness.AdapterError{Kind: "garbage", Err: errors.New("the adapter wrote a line that is not a protocol message")}
	}
	return nil, &harness.AdapterError{Kind: "timeout", Err: errors.New("no answer to the request in time")}
}

// TestFault_OneThatRecursAsAnotherIsNotIntermittent: a fault that comes
// back as another kind of fault when its scenario is played again
// recurred, and is not called intermittent; one that does not fault again
// is.
func TestFault_OneThatRecursAsAnotherIsNotIntermittent(t *testing.T) {
	for _, once := range []bool{false, true} {
		e := faulting{once: once, mu: &sync.Mutex{}, calls: map[string]int{}}
		res, err := harness.Check(context.Background(), e, []*properties.Property{properties.P730_2d}, &harness.Options{Checks: 10, Seed: 1, Parallel: 1})
		require.NoError(t, err)
		r := res.Results[0]
		require.Equal(t, harness.Fault, r.Verdict, "once=%v", once)
		assert.Equal(t, once, r.Fault.Intermittent, "once=%v: %v", once, r.Fault)
	}
}
