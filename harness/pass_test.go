package harness

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/model"
)

// table is a finisher answered from plain values: which rules' judgments
// of which leads fail, which rules mergecheck breaks on, and what it was
// asked to shrink.
type table struct {
	fails  map[string]bool // "rule<-from" judged a failure
	broken map[int]bool    // rules whose shrinking breaks
	ends   []searchEnd
	judged []string // "rule<-from", in the order judged
	shrunk []string // "rule<-from" and "aspect@rule", in the order shrunk
}

func (tb *table) judge(i int, lc leadCase) outcome {
	key := fmt.Sprintf("%s<-%s", tb.ends[i].rule, lc.s.Name)
	tb.judged = append(tb.judged, key)
	if tb.fails[key] {
		return outcome{problem: errors.New(key), call: lc.out.call}
	}
	return outcome{}
}

func (tb *table) shrinkLeads(fs []*leadFix) {
	for _, f := range fs {
		tb.shrunk = append(tb.shrunk, fmt.Sprintf("%s<-%s", tb.ends[f.i].rule, f.from))
		if !tb.broken[f.i] {
			f.ce, f.calls = &Counterexample{Rule: tb.ends[f.i].rule, Problem: f.out.problem.Error()}, 40
		}
	}
}

func (tb *table) shrinkDepartures(us []Unexplained, by []int) {
	for k := range us {
		tb.shrunk = append(tb.shrunk, fmt.Sprintf("%s@%s", us[k].key, tb.ends[by[k]].rule))
		us[k].Counterexample = &Counterexample{Rule: tb.ends[by[k]].rule}
	}
}

func (tb *table) internal(i int) *Result {
	if !tb.broken[i] {
		return nil
	}
	r := Result{Rule: tb.ends[i].rule, Internal: &InternalError{Rule: tb.ends[i].rule, Msg: "broke"}}
	r.conclude()
	return &r
}

// searched is a rule's result as its own search decided it.
func searched(rule model.RuleID, v Verdict, cases int) *Result {
	r := &Result{Rule: rule, Cases: cases, basis: basis{searched: &decision{verdict: v}}}
	if v == Failed {
		r.Counterexample = &Counterexample{Rule: rule}
	}
	r.conclude()
	return r
}

// leadOf is a case drawn for rule from, played at the rule's call.
func leadOf(from model.RuleID, call int) leadCase {
	return leadCase{s: &model.Scenario{Name: string(from)}, out: outcome{call: call}}
}

// TestSettle: the verdict pass on plain values. A lead fails only an open
// rule its own cases did not fail, the first of three in rule order that
// its judgment fails; unexplained departures are grouped by signature and
// shrunk by the first rule to show them; a finding blocks the rules it
// kept from being judged; a rule mergecheck broke on is that, whatever
// else.
func TestSettle(t *testing.T) {
	type want struct {
		verdict  Verdict
		lead     model.RuleID // the rule whose case it failed on
		blocked  model.RuleID
		fromLead bool
	}
	for _, tt := range []struct {
		name   string
		ends   func() []searchEnd
		fails  []string
		broken []int
		want   map[model.RuleID]want
		judged []string
		shrunk []string
		keys   []string                        // of the unexplained departures (departureKey)
		cases  map[string]map[model.RuleID]int // by key
	}{
		{
			name: "a held rule fails on the lead its check names",
			ends: func() []searchEnd {
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Held, 100), open: true},
					{rule: "1.2", result: searched("1.2", Held, 100), open: true, leads: map[model.RuleID]leadCase{"1.1": leadOf("1.2", 7)}},
				}
			},
			fails:  []string{"1.1<-1.2"},
			want:   map[model.RuleID]want{"1.1": {verdict: Failed, lead: "1.2", fromLead: true}, "1.2": {verdict: Held}},
			judged: []string{"1.1<-1.2"},
			shrunk: []string{"1.1<-1.2"},
		},
		{
			name: "a lead its judgment does not fail leaves the rule held",
			ends: func() []searchEnd {
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Held, 100), open: true},
					{rule: "1.2", result: searched("1.2", Held, 100), open: true, leads: map[model.RuleID]leadCase{"1.1": leadOf("1.2", 7)}},
				}
			},
			want:   map[model.RuleID]want{"1.1": {verdict: Held}, "1.2": {verdict: Held}},
			judged: []string{"1.1<-1.2"},
		},
		{
			name: "a rule that failed, faulted, broke or is closed follows no lead",
			ends: func() []searchEnd {
				leads := map[model.RuleID]leadCase{"1.1": leadOf("1.9", 1), "1.2": leadOf("1.9", 1), "1.3": leadOf("1.9", 1), "1.4": leadOf("1.9", 1)}
				fault := &Result{Rule: "1.2", Fault: &EngineFault{}, basis: basis{searched: &decision{verdict: Fault}}}
				fault.conclude()
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Failed, 3), open: true},
					{rule: "1.2", result: fault, open: true},
					{rule: "1.3", result: searched("1.3", Held, 100), open: true},
					{rule: "1.4", result: searched("1.4", Held, 100), open: false},
					{rule: "1.9", result: searched("1.9", Held, 100), open: true, leads: leads},
				}
			},
			fails:  []string{"1.1<-1.9", "1.2<-1.9", "1.3<-1.9", "1.4<-1.9"},
			broken: []int{2},
			want: map[model.RuleID]want{"1.1": {verdict: Failed}, "1.2": {verdict: Fault}, "1.3": {verdict: Internal},
				"1.4": {verdict: Held}, "1.9": {verdict: Held}},
		},
		{
			name: "leads are judged in rule order, three at most",
			ends: func() []searchEnd {
				lead := func(from model.RuleID) map[model.RuleID]leadCase {
					return map[model.RuleID]leadCase{"1.1": leadOf(from, 2)}
				}
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Held, 100), open: true},
					{rule: "1.2", result: searched("1.2", Held, 100), open: true, leads: lead("1.2")},
					{rule: "1.3", result: searched("1.3", Held, 100), open: true, leads: lead("1.3")},
					{rule: "1.4", result: searched("1.4", Held, 100), open: true, leads: lead("1.4")},
					{rule: "1.5", result: searched("1.5", Held, 100), open: true, leads: lead("1.5")},
				}
			},
			fails:  []string{"1.1<-1.5"},
			want:   map[model.RuleID]want{"1.1": {verdict: Held}},
			judged: []string{"1.1<-1.2", "1.1<-1.3", "1.1<-1.4"},
		},
		{
			name: "the first failing lead in rule order is the failure",
			ends: func() []searchEnd {
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Held, 100), open: true},
					{rule: "1.2", result: searched("1.2", Held, 100), open: true, leads: map[model.RuleID]leadCase{"1.1": leadOf("1.2", 9)}},
					{rule: "1.3", result: searched("1.3", Held, 100), open: true, leads: map[model.RuleID]leadCase{"1.1": leadOf("1.3", 1)}},
				}
			},
			fails:  []string{"1.1<-1.2", "1.1<-1.3"},
			want:   map[model.RuleID]want{"1.1": {verdict: Failed, lead: "1.2", fromLead: true}},
			judged: []string{"1.1<-1.2"},
			shrunk: []string{"1.1<-1.2"},
		},
		{
			name: "shrinking a lead's failure broke: the rule is internal",
			ends: func() []searchEnd {
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Held, 100), open: true},
					{rule: "1.2", result: searched("1.2", Held, 100), open: true, leads: map[model.RuleID]leadCase{"1.1": leadOf("1.2", 3)}},
				}
			},
			fails:  []string{"1.1<-1.2"},
			broken: []int{0},
			want:   map[model.RuleID]want{"1.1": {verdict: Internal}, "1.2": {verdict: Held}},
		},
		{
			name: "departures are grouped by signature and block the rules they took",
			ends: func() []searchEnd {
				uncovered := func(rule model.RuleID, departed int) *Result {
					r := &Result{Rule: rule, Cases: 50, Departed: departed, basis: basis{searched: &decision{verdict: Uncovered}}}
					r.conclude()
					return r
				}
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Held, 100), open: true},
					{rule: "1.2", result: uncovered("1.2", 4), open: true, departures: map[string]*departed{"turn": {n: 1}, "status": {n: 3}}},
					{rule: "1.3", result: uncovered("1.3", 2), open: true, departures: map[string]*departed{"status": {n: 2}}},
				}
			},
			want:   map[model.RuleID]want{"1.1": {verdict: Held}, "1.2": {verdict: Blocked}, "1.3": {verdict: Blocked}},
			shrunk: []string{"status@1.2", "turn@1.2"},
			keys:   []string{"status", "turn"},
			cases:  map[string]map[model.RuleID]int{"status": {"1.2": 3, "1.3": 2}, "turn": {"1.2": 1}},
		},
		{
			name: "a rule failed by a lead blocks the rule whose cases it took",
			ends: func() []searchEnd {
				lost := &Result{Rule: "1.3", Cases: 10, Excluded: 30, ExcludedBy: map[model.RuleID]int{"1.1": 30}, basis: basis{searched: &decision{verdict: Uncovered}}}
				lost.conclude()
				return []searchEnd{
					{rule: "1.1", result: searched("1.1", Held, 100), open: true},
					{rule: "1.2", result: searched("1.2", Held, 100), open: true, leads: map[model.RuleID]leadCase{"1.1": leadOf("1.2", 5)}},
					{rule: "1.3", result: lost, open: true},
				}
			},
			fails:  []string{"1.1<-1.2"},
			want:   map[model.RuleID]want{"1.1": {verdict: Failed, lead: "1.2", fromLead: true}, "1.3": {verdict: Blocked, blocked: "1.1"}},
			judged: []string{"1.1<-1.2"},
			shrunk: []string{"1.1<-1.2"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tb := &table{ends: tt.ends(), fails: map[string]bool{}, broken: map[int]bool{}}
			for _, f := range tt.fails {
				tb.fails[f] = true
			}
			for _, i := range tt.broken {
				tb.broken[i] = true
			}
			un := settleAll(tb.ends, tb)
			for _, e := range tb.ends {
				w, ok := tt.want[e.rule]
				if !ok {
					continue
				}
				r := e.result
				assert.Equal(t, w.verdict, r.Verdict, "%s: %s", e.rule, r.Why)
				assert.Equal(t, w.fromLead, r.FromLead, e.rule)
				assert.Equal(t, w.blocked, r.BlockedBy, e.rule)
				if w.lead != "" {
					if assert.NotNil(t, r.Lead, e.rule) {
						assert.Equal(t, w.lead, r.Lead.Rule, e.rule)
					}
					assert.NotNil(t, r.Counterexample, e.rule)
					assert.Equal(t, 40, r.Calls, "%s: its calls once shrunk", e.rule)
				}
			}
			if tt.judged != nil {
				assert.Equal(t, tt.judged, tb.judged, "the leads judged, in order")
			}
			assert.Equal(t, tt.shrunk, tb.shrunk, "what was shrunk, in order")
			var keys []string
			for _, u := range un {
				keys = append(keys, u.key)
				assert.NotNil(t, u.Counterexample, u.key)
				if tt.cases != nil {
					assert.Equal(t, tt.cases[u.key], u.Cases, u.key)
				}
			}
			assert.Equal(t, tt.keys, keys)
		})
	}
}
