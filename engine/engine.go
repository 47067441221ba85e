// Package engine is what an engine under test is to mergecheck: the
// Engine interface that the harness checks, enginetest.Run takes and the
// adapter kit's engines implement, what an engine declares of itself, and
// the two answers besides a trace, a refusal and a divergence. It is
// small, so that an adapter importing it carries none of the harness.
package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mergecheck/mergecheck/model"
)

// An Engine is a rules engine under test: in-process Go, or a child process
// speaking the adapter protocol.
//
// Run must treat each scenario independently: the scenario carries the
// whole starting state, actions and choices. A non-nil error means the
// engine could not play the scenario (a fault), not that it played it
// wrongly; it wraps [ErrUnsupported] when the scenario needs something the
// engine does not implement.
type Engine interface {
	Info() Info
	Run(ctx context.Context, s *model.Scenario) (*model.Trace, error)
}

// Info describes an engine. Engines that hold resources also
// implement io.Closer; the harness closes them when a run ends.
type Info struct {
	Name     string          `json:"name"`
	Version  string          `json:"version"`
	Features []model.Feature `json:"features"`
	// Observers are the standard observers whose triggers the engine's
	// traces report; nil means all of them. A property that reads an
	// observer the engine does not report is unsupported for it.
	Observers []model.Observer `json:"observers"`
	// PartialTraces is set by an engine whose traces may leave out
	// events other than its observers' triggers (zone changes, reveals,
	// tokens ceasing to exist). Properties that read those events are
	// then unsupported, and the comparison with the rules' trace leaves
	// them out.
	PartialTraces bool `json:"partial_traces,omitempty"`
	// NoDirectSetup is set by an engine that can't start from merged
	// stacks built directly: the harness builds them by casting mutating
	// spells instead (model.BuildByActions), and refuses for it the
	// scenarios whose stacks can't be built that way.
	NoDirectSetup bool `json:"no_direct_setup,omitempty"`
}

// Supports reports whether the engine declares every feature in needs:
// each feature itself, or a shorthand for it ("face_down"); a shorthand
// in needs is met by any one of its parts (model.Provides).
func (i Info) Supports(needs []model.Feature) bool {
	return len(i.Lacks(needs)) == 0
}

// Lacks returns the features of needs the engine does not declare.
func (i Info) Lacks(needs []model.Feature) []model.Feature {
	var declared []model.Feature
	var lacks []model.Feature
	for _, f := range needs {
		if slices.Contains(i.Features, f) || model.Provides(i.Features, f) {
			// The common cases, without expanding shorthands: the need
			// declared as it is, or a shorthand need met by a part
			// declared.
			continue
		}
		if declared == nil {
			declared, _ = model.ExpandFeatures(i.Features)
		}
		if !model.Provides(declared, f) {
			lacks = append(lacks, f)
		}
	}
	return lacks
}

// Reports reports whether the engine reports every observer in obs.
func (i Info) Reports(obs []model.Observer) bool {
	if i.Observers == nil {
		return true
	}
	for _, o := range obs {
		if !slices.Contains(i.Observers, o) {
			return false
		}
	}
	return true
}

// ErrUnsupported is wrapped by an engine's error for a scenario that needs
// something it does not implement.
var ErrUnsupported = errors.New("unsupported by the engine")

// A Divergence is an engine's answer that it could not play action Action
// of a scenario as scripted: the permanent it names is gone in the
// engine's game, the card it casts is not in its hand, the action is
// illegal in the engine's state. The engine's game has gone another way
// than the rules', and that is a finding about the engine, not a fault:
// the harness judges the steps it played (Trace, one step per action
// before Action) and reports the case as a failure.
type Divergence struct {
	Action int
	Reason string
	Trace  *model.Trace
}

func (d *Divergence) Error() string {
	return fmt.Sprintf("the engine could not play action %d: %s", d.Action, d.Reason)
}
