#!/usr/bin/env bash
# Exploring (`./build_wasm.sh fuzz [SECONDS]`): builds the libFuzzer harnesses in BUILD_DIR/fuzz
# (clang, ASan + UBSan), assembles their seed corpora (tests/fuzz/corpus.sh) and runs each
# harness for its share of SECONDS (SHARE below: the parsers with little to explore get half, the
# glTF importer and the command dispatcher all of it); crashes go to BUILD_DIR/fuzz/crashes/ and
# the summary to BUILD_DIR/fuzz/results.json: {"passed": N, "failed": M, "harnesses": [{name,
# seconds, executions, crashed}]}. What it finds becomes a regression file with a table test.
# README's test command runs tests/fuzz/replay.sh instead: every input once, the same each time.
#
#   tests/fuzz/run.sh [BUILD_DIR] [SECONDS]     (defaults: build/, 60)
#   FUZZ_ONLY="scene route" tests/fuzz/run.sh   only these harnesses
#   FUZZ_PARALLEL=2                              run that many harnesses at once (default 1)
#   FUZZ_EVEN=1                                  every harness for the full SECONDS (long runs)
#   FUZZ_TREE=DIR                                the harnesses of that tree (configured already)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$(mkdir -p "${1:-$ROOT/build}" && cd "${1:-$ROOT/build}" && pwd)"
DURATION="${2:-60}"
FUZZ="$BUILD/fuzz"
JOBS="${JOBS:-2}"
# shellcheck source=tests/fuzz/corpus.sh
source "$ROOT/tests/fuzz/corpus.sh"
# Percent of SECONDS each harness runs (60 s: 30 to 60 s each, about five minutes for all of
# them two at a time).
declare -A SHARE=([gltf]=100 [call]=100 [md5mesh]=75 [md5_bind]=75 [scene]=75 [obstacles]=75
  [image]=75 [material]=75 [md5anim]=50 [route]=50 [paths]=50 [skin]=50 [dds]=50 [md5camera]=50
  [embed]=50)
read -r -a HARNESSES <<<"${FUZZ_ONLY:-${ALL_HARNESSES[*]}}"
# Seeds larger than this slow every mutation down more than they add coverage.
MAX_SEED_BYTES=262144

log() { fuzz_log "$@"; }

write_results() {  # write_results NAME:SECONDS:EXECUTIONS:CRASHED...
  local passed=0 failed=0 entries="" name seconds executions crashed
  for entry in "$@"; do
    IFS=: read -r name seconds executions crashed <<<"$entry"
    if [ "$crashed" = true ]; then failed=$((failed + 1)); else passed=$((passed + 1)); fi
    entries+="${entries:+,
    }{\"name\": \"$name\", \"seconds\": $seconds, \"executions\": $executions, \"crashed\": $crashed}"
  done
  printf '{"passed": %d, "failed": %d, "harnesses": [\n    %s\n]}\n' \
    "$passed" "$failed" "$entries" >"$FUZZ/results.json"
  log "fuzz: $passed passed, $failed failed (results in $FUZZ/results.json)"
}

# ---- build ------------------------------------------------------------------------------------
mkdir -p "$FUZZ"
rm -f "$FUZZ/results.json"
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2
  failed=(); for h in "${HARNESSES[@]}"; do failed+=("$h:0:0:true"); done
  write_results "${failed[@]}"
  exit 1
fi
# FUZZ_TREE: a tree configured already with MD5STAGE_FUZZ=ON (README's test command passes its
# sanitizer tree, whose libraries the harnesses link); else $FUZZ, configured every run (a few
# seconds: a folder configured before a harness was added would otherwise not know its target).
TREE="${FUZZ_TREE:-$FUZZ}"
if [ -z "${FUZZ_TREE:-}" ]; then
  log "configuring $FUZZ"
  CXX=clang++ cmake -S "$ROOT" -B "$FUZZ" -DMD5STAGE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >"$FUZZ/configure.log" 2>&1 || { cat "$FUZZ/configure.log" >&2; rm -f "$FUZZ/CMakeCache.txt"; }
fi
if ! build_harnesses "$TREE" "$JOBS" "${HARNESSES[@]}"; then
  echo "fuzz: the harnesses did not build" >&2
  failed=(); for h in "${HARNESSES[@]}"; do failed+=("$h:0:0:true"); done
  write_results "${failed[@]}"
  exit 1
fi

# ---- seed corpora (rebuilt every run; libFuzzer's own finds stay in $FUZZ/corpus) --------------
# Every input tests/fuzz/corpus.sh lists for a harness, but those larger than MAX_SEED_BYTES.
SEEDS="$FUZZ/seeds"
rm -rf "$SEEDS"
mkdir -p "$FUZZ/crashes" "$FUZZ/logs"
list_inputs
for h in "${ALL_HARNESSES[@]}"; do
  mkdir -p "$SEEDS/$h" "$FUZZ/corpus/$h"
  while IFS= read -r f; do
    [ "$(stat -c %s "$f")" -le "$MAX_SEED_BYTES" ] || continue
    cp "$f" "$SEEDS/$h/$(printf '%s' "$f" | md5sum | cut -c1-8)-$(basename "$f")"
  done <"$FUZZ/lists/$h.txt"
done

# ---- run ----------------------------------------------------------------------------------------
run_one() {  # run_one HARNESS: runs it, prints NAME:SECONDS:EXECUTIONS:CRASHED
  local h="$1" dict="" logf="$FUZZ/logs/$1.log" start end rc executions crashed=false
  case "$h" in
    md5mesh | md5anim | md5_bind) dict="-dict=$ROOT/tests/fuzz/dicts/md5.dict" ;;
    scene | route | obstacles) dict="-dict=$ROOT/tests/fuzz/dicts/json.dict" ;;
    material) dict="-dict=$ROOT/tests/fuzz/dicts/material.dict" ;;
    image | dds) dict="-dict=$ROOT/tests/fuzz/dicts/image.dict" ;;
    md5camera | skin | gltf | embed | call) dict="-dict=$ROOT/tests/fuzz/dicts/$h.dict" ;;
  esac
  local seconds="$DURATION"
  [ "${FUZZ_EVEN:-0}" = 1 ] || seconds=$(((DURATION * ${SHARE[$h]:-100} + 99) / 100))
  local before
  before=$(ls "$FUZZ/crashes" | grep -c "^$h-" || true)
  start=$(date +%s)
  # shellcheck disable=SC2086
  UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}" nice -n 10 "$TREE/tests/fuzz/fuzz_$h" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$FUZZ/crashes/$h-" $dict \
    "$FUZZ/corpus/$h" "$SEEDS/$h" >"$logf" 2>&1
  rc=$?
  end=$(date +%s)
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$logf" | grep -o '[0-9]*$' |
               tail -n1)
  if [ -z "$executions" ]; then  # no final stats after a crash: the last progress line
    executions=$(grep -o '^#[0-9]*' "$logf" | tr -d '#' | sort -n | tail -n1)
  fi
  local after
  after=$(ls "$FUZZ/crashes" | grep -c "^$h-" || true)
  if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
    crashed=true
    echo "fuzz_$h: FAILED (exit $rc); log: $logf" >&2
    grep -E 'ERROR|FUZZ_CHECK|runtime error|Test unit written' "$logf" | head -n 5 >&2
  fi
  echo "$h:$((end - start)):${executions:-0}:$crashed"
}

log "fuzzing ${HARNESSES[*]} (${FUZZ_PARALLEL:-1} at a time, at most $DURATION s each)"
parallel="${FUZZ_PARALLEL:-1}"
# A pool: the next harness starts as soon as one finishes.
running=0
for h in "${HARNESSES[@]}"; do
  run_one "$h" >"$FUZZ/logs/$h.result" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
results=()
for h in "${HARNESSES[@]}"; do
  results+=("$(cat "$FUZZ/logs/$h.result")")
  log "$(cat "$FUZZ/logs/$h.result")"
done
write_results "${results[@]}"
grep -q '"failed": 0' "$FUZZ/results.json"
