// Command serve-reference serves the reference engine of mergecheck 0.1.0
// (commit 2e3d976) over the adapter protocol, as `mergecheck serve` of
// that release did with no flags: every feature of its vocabulary, every
// observer, the reference's refusals and invalid scenarios said as such.
// It is not part of that release; mergecheck's releases test builds it.
package main

import (
	"context"
	"errors"

	"github.com/mergecheck/mergecheck/adapter"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/reference"
)

func main() {
	adapter.Main(adapter.Engine{
		Name:         reference.Name,
		Version:      reference.Version,
		Capabilities: protocol.Capabilities{Features: model.Features, Observers: model.Observers, MaxInFlight: 4},
		Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) {
			t, err := reference.Run(s)
			switch {
			case errors.Is(err, reference.ErrUnsupported):
				return nil, adapter.Unsupported("%v", err)
			case errors.Is(err, reference.ErrInvalid):
				return nil, adapter.Invalid("%v", err)
			}
			return t, err
		},
	})
}
