package main

import (
	"runtime/debug"
	"strings"

	"github.com/mergecheck/mergecheck/harness"
)

// version is the release this code is, or will be: the heading of
// CHANGELOG.md that holds its changes (a test keeps the two alike).
const version = "0.2.0-dev"

// thisBuild is the mergecheck that runs: its release and, from the Go
// build's version-control information, the commit it was built from and
// whether its tree had changes, so that two nights' reports say which
// build judged them. A binary built without that information (go run,
// go test) says its commit is unknown.
func thisBuild() harness.Build {
	b := harness.Build{Version: version}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		// Installed from the module proxy: the module's version names
		// the commit (a pseudo-version ends with it).
		b.Module = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// suiteName is the suite as the reports name it: "mergecheck 0.2.0-dev
// (commit 1a2b3c4d5e6f)".
func suiteName(b harness.Build) string {
	return strings.TrimSpace("mergecheck " + b.String())
}
