// Command myengine is a vendor's engine as an adapter, in a module of its
// own: mergecheck's tests build it to show that a vendor's module can
// depend on mergecheck, serve an engine with the adapter kit, check it in
// its own go test, and run the mergecheck command as a Go tool.
package main

import (
	"context"
	"os"

	"github.com/mergecheck/mergecheck/adapter"
	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/protocol"
	"github.com/mergecheck/mergecheck/reference"
)

// Engine is the vendor's engine. This one stands in for a real engine by
// playing the reference; MYENGINE_MUTANT gives it one of the reference's
// deliberate bugs.
func Engine(mutant string) adapter.Engine {
	return adapter.Engine{
		Name: "myengine", Version: "1.0",
		Capabilities: protocol.Capabilities{Features: []model.Feature{model.FeatureMutate, model.FeatureMerge}},
		Play: func(_ context.Context, s *model.Scenario) (*model.Trace, error) {
			return reference.RunMutant(s, mutant)
		},
	}
}

func main() {
	adapter.Main(Engine(os.Getenv("MYENGINE_MUTANT")))
}
