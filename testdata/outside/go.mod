module example.com/myengine

go 1.26.0

require github.com/mergecheck/mergecheck v0.0.0

require (
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)

// mergecheck from a checkout beside the engine; with a published version,
// drop the replace and require that version.
replace github.com/mergecheck/mergecheck => ../..

tool github.com/mergecheck/mergecheck/cmd/mergecheck
