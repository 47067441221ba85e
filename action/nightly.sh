#!/usr/bin/env bash
# The nightly job of mergecheck's GitHub Action (action.yml), in one step:
# run the shards of one night side by side, merge them, judge the merged
# run against the baseline, write a bug report for each new finding, say
# what changed since the last night, and leave everything in $OUT for the
# job summary and the artifact.
#
# Its inputs come in the environment, as action.yml passes them:
#   MERGECHECK    the mergecheck binary
#   ENGINE        --engine (reference, mutant:NAME, or 'exec:COMMAND ARGS')
#   CHECKS, SEED  --checks and --seed (SEED empty: the date, YYYYMMDD)
#   SHARDS        how many shards to run side by side (1: one run)
#   BASELINE      a baseline file (mergecheck baseline), or empty
#   CORPUS        the corpus directory, or empty for none
#   BUDGET_CALLS  --budget-calls for each shard, or empty
#   LAST          the last night's results.json, or empty
#   OUT           where to write the night (default mergecheck-night)
# and, from GitHub (or a test), GITHUB_STEP_SUMMARY and GITHUB_OUTPUT.
# It exits as mergecheck merge does against the baseline: 0 when nothing
# new failed, 1 for a new failure, 2 for a broken engine or run.
set -uo pipefail

out=${OUT:-mergecheck-night}
seed=${SEED:-$(date -u +%Y%m%d)}
shards=${SHARDS:-1}
mkdir -p "$out/shards" "$out/issues" "$out/new-corpus"

run=(--engine "${ENGINE:-reference}" --checks "${CHECKS:-100}" --seed "$seed" --progress lines)
if [ -n "${CORPUS:-}" ]; then
  run+=(--corpus "$CORPUS")
  mkdir -p "$CORPUS"
  ls "$CORPUS" > "$out/.corpus-before" 2>/dev/null || true
else
  run+=(--corpus "")
fi
if [ -n "${BUDGET_CALLS:-}" ] && [ "${BUDGET_CALLS}" != 0 ]; then
  run+=(--budget-calls "$BUDGET_CALLS")
fi

# The shards, side by side; their exit codes are merge's to judge.
pids=()
for i in $(seq 1 "$shards"); do
  "$MERGECHECK" run "${run[@]}" --shard "$i/$shards" --json "$out/shards/shard-$i.json" \
    > "$out/shards/shard-$i.txt" 2>&1 &
  pids+=("$!")
done
for pid in "${pids[@]}"; do
  wait "$pid"
done

expect=()
if [ -n "${BASELINE:-}" ]; then
  expect=(--expect "$BASELINE")
fi
"$MERGECHECK" merge "${expect[@]}" --json "$out/results.json" --md "$out/report.md" \
  --html "$out/report.html" --junit "$out/report.xml" "$out"/shards/shard-*.json
code=$?
if [ ! -f "$out/results.json" ]; then
  echo "mergecheck: no shard's results could be merged; see $out/shards" >&2
  exit 2
fi

# A bug report for each finding the baseline does not expect.
"$MERGECHECK" report "$out/results.json" --issues "$out/issues" "${expect[@]}" > "$out/issues.txt"
new_bugs=$(find "$out/issues" -name '*.md' | wc -l | tr -d ' ')

# What changed since the last night, bug by bug.
if [ -n "${LAST:-}" ] && [ -f "$LAST" ]; then
  "$MERGECHECK" diff "$LAST" "$out/results.json" --md "$out/diff.md" > "$out/diff.txt"
fi

# The counterexamples this night added to the corpus, to commit.
if [ -n "${CORPUS:-}" ]; then
  ls "$CORPUS" | while read -r f; do
    if ! grep -qxF "$f" "$out/.corpus-before"; then
      cp "$CORPUS/$f" "$out/new-corpus/"
    fi
  done
  rm -f "$out/.corpus-before"
fi

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$out/report.md" >> "$GITHUB_STEP_SUMMARY"
  if [ -f "$out/diff.md" ]; then
    printf '\n' >> "$GITHUB_STEP_SUMMARY"
    cat "$out/diff.md" >> "$GITHUB_STEP_SUMMARY"
  fi
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "dir=$out"
    echo "results=$out/results.json"
    echo "issues=$out/issues"
    echo "new-bugs=$new_bugs"
    echo "new-corpus=$out/new-corpus"
    echo "exit-code=$code"
  } >> "$GITHUB_OUTPUT"
fi
exit "$code"
