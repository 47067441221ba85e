# mergecheck's everyday commands. `make test` is what CI runs (.ci/run).

GO ?= go

.PHONY: all test race check run replay selftest bench bench-calls fuzz update vet

all: check test

# The test command of the README and of CI. cmd/mergecheck's tests take
# about thirteen minutes of two cores; on a machine shared with two CPU-bound
# jobs per core they would take about three times as long, past go test's
# default limit of ten minutes per package and past thirty, hence sixty.
test:
	$(GO) test -timeout 60m ./...

# The race detector over the packages that run goroutines, in short mode
# (the long suite tests skip there). harness's short tests took over go
# test's default ten minutes under the race detector on a loaded machine
# on 2026-12-01, hence the limit of test's.
race:
	$(GO) test -race -short -timeout 60m ./harness/ ./cmd/mergecheck/ ./reports/ ./enginetest/

# Formatting and static checks.
check: vet
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# The main job: check the reference engine against every rule. SEED pins
# the random seed (CI pins it, so that CI never depends on chance).
SEED ?= 0
run:
	$(GO) run ./cmd/mergecheck run --seed $(SEED)

# The suite against every mutant, with the kill matrix.
selftest:
	$(GO) run ./cmd/mergecheck selftest

# Play every worked example in the reference engine and check what the
# rules say must happen.
replay:
	$(GO) run ./cmd/mergecheck replay reference/testdata/examples reference/testdata/realcards

# Benchmarks, in benchstat-friendly form.
# Engine calls until each mutant's first failure and for shrinking it,
# over seeds 1 to 10 (docs/BENCHMARKS.md, "Engine calls"); counts, not times.
bench-calls:
	$(GO) test -run '^$$' -bench SlowEngine -benchtime 1x -timeout 1h ./harness/ -args -slow.seeds=10

# Each benchmark at the garbage collector's setting its figures in
# docs/BENCHMARKS.md were made at (the test binaries otherwise run at
# package testenv's).
bench:
	GOGC=100 $(GO) test -run '^$$' -bench . -benchmem -count 6 ./reference/ ./model/
	GOGC=100 $(GO) test -run '^$$' -bench 'Generate|CheckOneProperty|ReferenceOneScenario' -benchmem -count 6 ./harness/
	GOGC=100 $(GO) test -run '^$$' -bench BenchmarkRun -benchtime 5x -count 3 -cpu 1,2 ./harness/
	GOGC=200 $(GO) test -run '^$$' -bench BenchmarkRun -benchtime 5x -count 3 -cpu 1,2 ./harness/  # as the command runs
	GOGC=100 $(GO) test -run '^$$' -bench EnginePath -benchtime 2s -count 3 ./cmd/mergecheck/
	GOGC=100 $(GO) test -run '^$$' -bench RunPath -benchtime 10x -count 3 ./cmd/mergecheck/
	GOGC=100 $(GO) test -run '^$$' -bench RapidVersusGopter -benchtime 1x -v ./gopterscenario/

# Fuzz the scenario decoder, its fast path against the format's, the
# reference engine, and the protocol's decoding of answers and requests,
# FUZZTIME each. Minimising a new input may take FUZZMIN at most, so that
# a short budget fuzzes rather than minimises.
FUZZTIME ?= 2m
FUZZMIN ?= 5s
FUZZ = $(GO) test -run '^$$' -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMIN)
fuzz:
	$(FUZZ) -fuzz '^FuzzDecodeScenario$$' ./model
	$(FUZZ) -fuzz '^FuzzFastAndSlowDecodeAgree$$' ./model
	$(FUZZ) -fuzz '^FuzzRun$$' ./reference
	$(FUZZ) -fuzz '^FuzzRunActions$$' ./reference
	$(FUZZ) -fuzz '^FuzzDecodeReply$$' ./protocol
	$(FUZZ) -fuzz '^FuzzDecodeRequest$$' ./protocol

# Rewrite the worked examples' scenario and trace files from examples_test.go.
update:
	$(GO) test ./reference -run TestWorkedExamples -update
