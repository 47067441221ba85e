package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/atomicfile"
	"github.com/mergecheck/mergecheck/model"
)

// A dumper writes every scenario a run's engine played into a directory
// (run --dump), as files replay and judge take: NNNNNN-RULE.scenario.json,
// NNNNNN-RULE.engine.trace.json (the engine's trace) and
// NNNNNN-RULE.rules.trace.json (the reference's), numbered in the order
// played, and a line for each in index.jsonl saying how the run judged it.
type dumper struct {
	dir string
	mu  sync.Mutex
	n   int
	idx *os.File
	err error
}

// dumpEntry is one line of index.jsonl.
type dumpEntry struct {
	N           int          `json:"n"`
	Rule        model.RuleID `json:"rule"`
	Outcome     string       `json:"outcome"`
	Problem     string       `json:"problem,omitempty"`
	Scenario    string       `json:"scenario"`
	EngineTrace string       `json:"engine_trace,omitempty"`
	RulesTrace  string       `json:"rules_trace,omitempty"`
}

// newDumper makes dir (it must be empty or new, so that a dump is one
// run's) and its index.
func newDumper(dir string) (*dumper, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("--dump %s: the directory is not empty; a dump is one run's", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--dump: %w", err)
	}
	idx, err := os.Create(filepath.Join(dir, "index.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("--dump: %w", err)
	}
	return &dumper{dir: dir, idx: idx}, nil
}

// played writes one played scenario (harness.Options.OnPlayed). The first
// error stops the dump, and close returns it.
func (d *dumper) played(p harness.Played) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return
	}
	d.n++
	base := fmt.Sprintf("%06d-%s", d.n, p.Rule)
	e := dumpEntry{N: d.n, Rule: p.Rule, Outcome: p.Outcome, Problem: p.Problem, Scenario: base + ".scenario.json"}
	write := func(name string, v any) error {
		data, err := model.Encode(v)
		if err != nil {
			return err
		}
		return atomicfile.Write(filepath.Join(d.dir, name), data)
	}
	err := write(e.Scenario, p.Scenario)
	if err == nil && p.Engine != nil {
		e.EngineTrace = base + ".engine.trace.json"
		err = write(e.EngineTrace, p.Engine)
	}
	if err == nil && p.Rules != nil {
		e.RulesTrace = base + ".rules.trace.json"
		err = write(e.RulesTrace, p.Rules)
	}
	if err == nil {
		var line []byte
		if line, err = json.Marshal(e); err == nil {
			_, err = d.idx.Write(append(line, '\n'))
		}
	}
	if err != nil {
		d.err = fmt.Errorf("--dump: %w", err)
	}
}

// close closes the index and returns the dump's first error.
func (d *dumper) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return errors.Join(d.err, d.idx.Close())
}
