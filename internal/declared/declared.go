// Package declared is the reference engine behind a declaration: the
// features, observers, partial traces and direct setup an engine may
// declare in its hello. It plays what the declaration allows as the rules
// do, refuses by name whatever scenario uses more, and reports only what
// the declaration says it reports, as a correct engine that declared as
// much would. The suite tests itself with it: whatever a vendor declares,
// a correct engine must hold or be unsupported on every rule.
package declared

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/mergecheck/mergecheck/engine"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// A Declaration is what an engine says of itself, as its hello says it
// (docs/PROTOCOL.md, "capabilities").
type Declaration struct {
	Features      []model.Feature  // features and their parts; nil means every feature
	Observers     []model.Observer // nil means every observer
	PartialTraces bool             // traces leave out zone changes, reveals and tokens ceasing to exist
	NoDirectSetup bool             // merged stacks can't be set up, only built by casting
}

// Random draws a declaration from r: each feature part, each observer and
// each flag in or out at even odds, sometimes every feature or observer
// (nil), so that random declarations span what vendors declare, from
// nothing to everything.
func Random(r *rand.Rand) Declaration {
	var d Declaration
	if r.IntN(8) != 0 {
		d.Features = []model.Feature{}
		for _, f := range model.Features {
			if r.IntN(2) == 0 {
				d.Features = append(d.Features, f)
			}
		}
	}
	if r.IntN(2) == 0 {
		d.Observers = []model.Observer{}
		for _, o := range model.Observers {
			if r.IntN(2) == 0 {
				d.Observers = append(d.Observers, o)
			}
		}
	}
	d.PartialTraces = r.IntN(4) == 0
	d.NoDirectSetup = r.IntN(4) == 0
	return d
}

// Info is what an engine with this declaration says of itself.
func (d Declaration) Info(name, version string) engine.Info {
	features := d.Features
	if features == nil {
		features = model.Features
	}
	return engine.Info{Name: name, Version: version, Features: slices.Clone(features), Observers: slices.Clone(d.Observers),
		PartialTraces: d.PartialTraces, NoDirectSetup: d.NoDirectSetup}
}

// Args are the flags of mergecheck serve that serve the reference with
// this declaration.
func (d Declaration) Args() []string {
	var out []string
	if d.Features != nil {
		out = append(out, "--features", join(d.Features))
	}
	if d.Observers != nil {
		out = append(out, "--observers", join(d.Observers))
	}
	if d.PartialTraces {
		out = append(out, "--partial-traces")
	}
	if d.NoDirectSetup {
		out = append(out, "--no-direct-setup")
	}
	return out
}

// String is the declaration as serve's flags, for a test's name.
func (d Declaration) String() string {
	if args := d.Args(); len(args) > 0 {
		return strings.Join(args, " ")
	}
	return "(every feature and observer)"
}

func join[T ~string](xs []T) string {
	if len(xs) == 0 {
		return `""`
	}
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(x))
	}
	return b.String()
}

// Refusal says why an engine with this declaration refuses s, or is ""
// when s is within it: s uses a feature it does not declare, or starts
// from a merged stack it can't set up.
func (d Declaration) Refusal(s *model.Scenario) string {
	if d.NoDirectSetup && slices.ContainsFunc(s.Start.Battlefield, func(p model.Permanent) bool { return len(p.Components) > 1 }) {
		return "this engine can't start from a merged stack (serve --no-direct-setup)"
	}
	if d.Features == nil {
		return ""
	}
	if lacks := slices.DeleteFunc(reference.Uses(s), func(f model.Feature) bool { return slices.Contains(d.Features, f) }); len(lacks) > 0 {
		return fmt.Sprintf("the scenario uses %v, which this engine does not implement (serve --features)", lacks)
	}
	return ""
}

// Trim leaves out of t, in place, what the declaration does not report:
// the triggers of the observers it does not declare, and, for partial
// traces, the zone changes, reveals and tokens ceasing to exist. It
// returns t.
func (d Declaration) Trim(t *model.Trace) *model.Trace {
	if t == nil || d.Observers == nil && !d.PartialTraces {
		return t
	}
	for i := range t.Steps {
		st := &t.Steps[i]
		st.Events = slices.DeleteFunc(st.Events, func(e model.Event) bool {
			switch e.Kind {
			case model.Trigger:
				return d.Observers != nil && !slices.Contains(d.Observers, e.Observer)
			case model.ZoneChange, model.Reveal, model.CeaseToExist:
				return d.PartialTraces
			}
			return false
		})
	}
	return t
}

// Engine returns the reference engine behind the declaration d, in
// process.
func Engine(d Declaration) engine.Engine { return refEngine{d} }

type refEngine struct{ d Declaration }

func (e refEngine) Info() engine.Info {
	return e.d.Info("declared:"+e.d.String(), reference.Version)
}

func (e refEngine) Run(ctx context.Context, s *model.Scenario) (*model.Trace, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if why := e.d.Refusal(s); why != "" {
		return nil, fmt.Errorf("%w: %s", engine.ErrUnsupported, why)
	}
	t, err := reference.Run(s)
	if errors.Is(err, reference.ErrUnsupported) {
		return nil, errors.Join(engine.ErrUnsupported, err)
	}
	return e.d.Trim(t), err
}
