#!/usr/bin/env bash
# Runs the benchmark suite natively and as wasm under node (plus the viewer's start-up size and,
# when the site and Chromium are there, the crowd scene in the browser), then prints one table
# and writes BUILD_DIR/bench/results.json. Called by `./build_wasm.sh bench` after the build.
#
#   bash bench/run.sh [BUILD_DIR]          (default: build/)
#   Options (environment): BENCH_REPETITIONS=5 BENCH_MIN_TIME=0.2 BENCH_FILTER=regex
#   BENCH_BROWSER=0 (skip Chromium) BENCH_BROWSER_SECONDS=60 (per crowd size)
#   BENCH_WASM_SCALAR=1 (also a wasm build without -msimd128, to see what SIMD buys)
#   BENCH_MODEL_VIEWER=1 (also the figures side by side with <model-viewer> 4.4: installs the
#   pinned npm package in bench/model-viewer, bench/model_viewer.mjs, about 10 minutes)
#   BENCH_OMPL=1 (also the planner against OMPL: installs libompl-dev, builds and runs
#   md5stage_ompl_compare, about 15 minutes; BENCH_OMPL_ARGS passes it options)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(mkdir -p "${1:-$ROOT/build}" && cd "${1:-$ROOT/build}" && pwd)"
CACHE="$BUILD/cache"
OUT="$BUILD/bench"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
REPETITIONS="${BENCH_REPETITIONS:-5}"
MIN_TIME="${BENCH_MIN_TIME:-0.2}"
FILTER="${BENCH_FILTER:-.}"
export NODE_PATH=/usr/share/nodejs  # emcc's acorn-optimizer needs Debian's node-acorn
export DEBIAN_FRONTEND=noninteractive

# shellcheck source=tools/debian.sh
source "$ROOT/tools/debian.sh"

# Normally nothing: build_wasm.sh's package list has all of these.
ensure_packages() {
  ensure_apt_packages build-essential cmake python3 emscripten libglm-dev libfast-float-dev \
    libbenchmark-dev libassimp-dev zlib1g-dev nodejs librecast-dev
}

ensure_benchmark_sources() {
  BENCHMARK_DIR="$CACHE/benchmark/benchmark-1.7.1"
  if [ ! -f "$BENCHMARK_DIR/src/benchmark.cc" ]; then
    fetch_debian_source benchmark 'benchmark_1.7.1*.orig.tar.*' "$CACHE/benchmark"
  fi
  [ -f "$BENCHMARK_DIR/src/benchmark.cc" ] ||
    { echo "Google Benchmark sources missing in $BENCHMARK_DIR" >&2; exit 1; }
}

build_native_bench() {
  log "native benchmark build"
  # Re-running cmake is cheap and picks up bench/ in a tree configured before it existed.
  cmake -S "$ROOT" -B "$BUILD/native" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD/native" -j "$JOBS" --target md5stage_bench
}

build_wasm_bench() {  # build_wasm_bench DIR SIMD(ON|OFF)
  log "wasm benchmark build ($1, SIMD $2)"
  if [ ! -f "$1/CMakeCache.txt" ]; then
    emcmake cmake -S "$ROOT/bench" -B "$1" -DCMAKE_BUILD_TYPE=Release \
      -DBENCHMARK_SOURCE_DIR="$BENCHMARK_DIR" -DZLIB_SOURCE_DIR="$ZLIB_SOURCE_DIR" \
      -DMD5STAGE_WASM_SIMD="$2" >/dev/null
  fi
  cmake --build "$1" -j "$JOBS" --target md5stage_bench
}

# Repetitions in random order across benchmarks: a load spike on the shared machine then hits
# both sides of a ratio (md5stage/Assimp) alike instead of one of them.
BENCH_ARGS=(--benchmark_repetitions="$REPETITIONS" --benchmark_min_time="$MIN_TIME"
            --benchmark_enable_random_interleaving=true
            --benchmark_filter="$FILTER" --benchmark_out_format=json)

run_native() {
  log "native benchmarks"
  "$BUILD/native/bench/md5stage_bench" "${BENCH_ARGS[@]}" --benchmark_out="$OUT/native.json" \
    >"$OUT/native.log"
}

run_wasm() {  # run_wasm DIR NAME
  log "wasm benchmarks under node ($2)"
  (cd "$1" && node --no-experimental-fetch md5stage_bench.js "${BENCH_ARGS[@]}" \
    --benchmark_out="$OUT/$2.json") >"$OUT/$2.log"
}

# The planner against OMPL's optimal planners (bench/ompl_compare.cpp): its table and summary in
# OUT/ompl_compare.txt, a row per case in OUT/ompl_compare.csv.
run_ompl_compare() {
  [ "${BENCH_OMPL:-0}" = 1 ] || return 0
  log "planner against OMPL (md5stage_ompl_compare)"
  ensure_apt_packages libompl-dev
  cmake -S "$ROOT" -B "$BUILD/native" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD/native" -j "$JOBS" --target md5stage_ompl_compare
  # shellcheck disable=SC2086
  "$BUILD/native/bench/md5stage_ompl_compare" ${BENCH_OMPL_ARGS:-} --csv "$OUT/ompl_compare.csv" \
    | tee "$OUT/ompl_compare.txt" | tail -n 2
}

run_browser() {
  [ "${BENCH_BROWSER:-1}" = 1 ] || return 0
  if [ ! -f "$BUILD/site/md5stage.wasm" ] || [ ! -d "$ROOT/tests/browser/node_modules" ]; then
    log "browser benchmark skipped (no staged site or no tests/browser/node_modules)"
    return 0
  fi
  local model_viewer=()
  if [ "${BENCH_MODEL_VIEWER:-0}" = 1 ]; then
    log "installing <model-viewer> for the side-by-side rows (bench/model-viewer/package-lock.json)"
    npm ci --prefix "$ROOT/bench/model-viewer" --no-audit --no-fund >/dev/null
    model_viewer=(--model-viewer "$BUILD/native/md5stage")
  fi
  log "crowd scene in headless Chromium"
  node "$ROOT/bench/browser.mjs" --site "$BUILD/site" --out "$OUT/browser.json" \
    --seconds "${BENCH_BROWSER_SECONDS:-60}" "${model_viewer[@]}" ||
    log "browser benchmark failed (see above); the table reports it as missing"
}

ensure_packages
ensure_benchmark_sources
ensure_zlib_sources
mkdir -p "$OUT"
rm -f "$OUT"/native.json "$OUT"/wasm.json "$OUT"/wasm-scalar.json "$OUT"/browser.json
# Everything is compiled before anything is timed.
build_native_bench
build_wasm_bench "$OUT/wasm" ON
if [ "${BENCH_WASM_SCALAR:-0}" = 1 ]; then build_wasm_bench "$OUT/wasm-scalar" OFF; fi
run_native
run_wasm "$OUT/wasm" wasm
if [ "${BENCH_WASM_SCALAR:-0}" = 1 ]; then run_wasm "$OUT/wasm-scalar" wasm-scalar; fi
run_browser
run_ompl_compare
python3 "$ROOT/bench/report.py" --bench-dir "$OUT" --site "$BUILD/site" --out "$OUT/results.json"
