#!/usr/bin/env bash
# README's test command's fuzz stage: every input tests/fuzz/corpus.sh lists (the hand-made seeds,
# every regression file, assets/, ../shared's md5 and glTF samples where present, and what is
# derived from them) run once through its libFuzzer harness (clang, ASan + UBSan + LeakSanitizer),
# all of them every time, in a sorted order: no random exploring, so two runs on one commit
# replay the same files and give the same counts. Each file is one test: a crash, a failed
# harness invariant, a leak or a run past FUZZ_TIMEOUT seconds fails it, and the summary names it.
# BUILD_DIR/fuzz/results.json: {"passed": files, "failed": files, "skipped": 0, "mode": "replay",
# "harnesses": [{name, files, failed_files: [...], seconds, slowest_ms, slowest_file}]}.
#
#   tests/fuzz/replay.sh [BUILD_DIR]              (default: build/)
#   FUZZ_TREE=DIR      the harnesses of that tree (configured with MD5STAGE_FUZZ=ON already; else
#                      BUILD_DIR/fuzz is configured as tests/fuzz/run.sh does)
#   FUZZ_ONLY="gltf"   only these harnesses
#   FUZZ_PARALLEL=2    that many harnesses at once (default 2)
#   FUZZ_TIMEOUT=60    seconds one input may take (libFuzzer's -timeout; the slowest input takes
#                      under 8 s here, so a slower machine does not change the verdict)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$(mkdir -p "${1:-$ROOT/build}" && cd "${1:-$ROOT/build}" && pwd)"
FUZZ="$BUILD/fuzz"
JOBS="${JOBS:-2}"
TIMEOUT="${FUZZ_TIMEOUT:-60}"
# shellcheck source=tests/fuzz/corpus.sh
source "$ROOT/tests/fuzz/corpus.sh"
read -r -a HARNESSES <<<"${FUZZ_ONLY:-${ALL_HARNESSES[*]}}"
REPLAY="$FUZZ/replay"

# write_results: the per-harness records of $REPLAY/*.result (JSON lines) as results.json.
write_results() {
  python3 - "$FUZZ/results.json" "${HARNESSES[@]}" <<'PY'
import json, os, sys
out, names = sys.argv[1], sys.argv[2:]
replay = os.path.join(os.path.dirname(out), "replay")
harnesses = []
for name in names:
    try:
        with open(os.path.join(replay, name + ".result")) as f:
            harnesses.append(json.load(f))
    except (OSError, ValueError):
        harnesses.append({"name": name, "files": 0, "failed_files": ["(the harness did not run)"],
                          "seconds": 0, "slowest_ms": 0, "slowest_file": ""})
failed = sum(len(h["failed_files"]) for h in harnesses)
passed = sum(h["files"] for h in harnesses) - sum(
    len([f for f in h["failed_files"] if not f.startswith("(")]) for h in harnesses)
report = {"passed": passed, "failed": failed, "skipped": 0, "mode": "replay",
          "files": sum(h["files"] for h in harnesses), "harnesses": harnesses}
with open(out, "w") as f:
    json.dump(report, f, indent=1)
for h in harnesses:
    print(f"  fuzz_{h['name']}: {h['files']} files replayed, {len(h['failed_files'])} failed, "
          f"{h['seconds']} s, slowest {h['slowest_ms']} ms ({h['slowest_file']})", file=sys.stderr)
    for f in h["failed_files"]:
        print(f"    FAILED: {f}", file=sys.stderr)
print(f"fuzz replay: {report['files']} files, {passed} passed, {failed} failed "
      f"(results in {out})", file=sys.stderr)
PY
}

mkdir -p "$FUZZ"
rm -f "$FUZZ/results.json"
rm -rf "$REPLAY"
mkdir -p "$REPLAY"
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2
  write_results
  exit 1
fi
TREE="${FUZZ_TREE:-$FUZZ}"
if [ -z "${FUZZ_TREE:-}" ]; then
  fuzz_log "configuring $FUZZ"
  CXX=clang++ cmake -S "$ROOT" -B "$FUZZ" -DMD5STAGE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >"$FUZZ/configure.log" 2>&1 || { cat "$FUZZ/configure.log" >&2; rm -f "$FUZZ/CMakeCache.txt"; }
fi
if ! build_harnesses "$TREE" "$JOBS" "${HARNESSES[@]}"; then
  echo "fuzz: the harnesses did not build" >&2
  write_results
  exit 1
fi
list_inputs

# run_harness HARNESS: every listed file through fuzz_HARNESS; writes $REPLAY/HARNESS.result.
# All files in one process first (libFuzzer runs each file given once); when that fails (a crash,
# a timeout, or LeakSanitizer at exit), each file again in a process of its own, so every failing
# file is named, not only the first.
run_harness() {
  local h="$1" list="$FUZZ/lists/$1.txt" log="$REPLAY/$1.log" start rc
  local binary="$TREE/tests/fuzz/fuzz_$h"
  local -a files
  mapfile -t files <"$list"
  start=$SECONDS
  local flags=(-timeout="$TIMEOUT" -rss_limit_mb=2048 -artifact_prefix="$REPLAY/$h-")
  local failed_list="$REPLAY/$h.failed"
  : >"$failed_list"
  if [ "${#files[@]}" -gt 0 ]; then
    UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}" ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" \
      nice -n 10 "$binary" "${flags[@]}" "${files[@]}" >"$log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "fuzz_$h: the batch failed (exit $rc); replaying its files one by one" >&2
      local f i=0
      for f in "${files[@]}"; do
        i=$((i + 1))
        UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}" ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" \
          nice -n 10 "$binary" "${flags[@]}" "$f" >"$REPLAY/$h.$i.log" 2>&1
        rc=$?
        if [ "$rc" -ne 0 ]; then
          printf '%s\n' "$f" >>"$failed_list"
          echo "fuzz_$h: FAILED on $f (exit $rc); log: $REPLAY/$h.$i.log" >&2
          grep -E 'ERROR|FUZZ_CHECK|runtime error|ALARM|leak' "$REPLAY/$h.$i.log" | head -n 5 >&2
          cat "$REPLAY/$h.$i.log" >>"$log"
        else
          # Each file's timing line, for the slowest below.
          grep '^Executed ' "$REPLAY/$h.$i.log" >>"$log"
          rm -f "$REPLAY/$h.$i.log"
        fi
      done
      # A failure no single file repeats (it needed the files before it): the batch is named.
      [ -s "$failed_list" ] || printf '(the batch of %d files: see %s)\n' "${#files[@]}" "$log" \
        >"$failed_list"
    fi
  fi
  python3 - "$h" "$ROOT" "$list" "$failed_list" "$log" "$((SECONDS - start))" \
    >"$REPLAY/$h.result" <<'PY'
import json, os, re, sys
name, root, listed, failed_path, log, seconds = sys.argv[1:]
rel = lambda p: p if p.startswith("(") else os.path.relpath(p, root)
files = [l for l in open(listed).read().splitlines() if l]
failed = [rel(l) for l in open(failed_path).read().splitlines() if l]
slowest_ms, slowest_file = 0, ""
try:
    text = open(log, errors="replace").read()
except OSError:
    text = ""
for m in re.finditer(r"^Executed (.*) in (\d+) ms$", text, re.M):
    if int(m.group(2)) >= slowest_ms:
        slowest_ms, slowest_file = int(m.group(2)), rel(m.group(1))
print(json.dumps({"name": name, "files": len(files), "failed_files": failed,
                  "seconds": int(seconds), "slowest_ms": slowest_ms,
                  "slowest_file": slowest_file}))
PY
}

fuzz_log "replaying every input of ${HARNESSES[*]} (${FUZZ_PARALLEL:-2} harnesses at a time, at most $TIMEOUT s an input)"
parallel="${FUZZ_PARALLEL:-2}"
running=0
for h in "${HARNESSES[@]}"; do
  run_harness "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
write_results
python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["failed"] != 0)' "$FUZZ/results.json"
