# mergecheck's everyday commands. `make test` is what CI runs (.ci/run).

GO ?= go

.PHONY: all test check replay bench fuzz update vet

all: check test

# The test command of the README and of CI.
test:
	$(GO) test ./...

# Formatting and static checks.
check: vet
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# The main job: play every worked example in the reference engine and check
# what the rules say must happen.
replay:
	$(GO) run ./cmd/mergecheck replay reference/testdata/examples

# Benchmarks, in benchstat-friendly form.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./reference/ ./model/

# Fuzz the scenario decoder and the reference engine for a while each.
FUZZTIME ?= 2m
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecodeScenario -fuzztime $(FUZZTIME) ./model
	$(GO) test -run '^$$' -fuzz FuzzRun -fuzztime $(FUZZTIME) ./reference

# Rewrite the worked examples' scenario and trace files from examples_test.go.
update:
	$(GO) test ./reference -run TestWorkedExamples -update
