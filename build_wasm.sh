#!/usr/bin/env bash
# md5stage's one entry point: installs what is missing (Debian 12, as root), fetches Dear ImGui's
# sources, builds native + wasm, stages the site, and serves it, tests it, benchmarks or fuzzes it.
#
#   ./build_wasm.sh [build]        set up and build everything, stage the site in build/site
#   ./build_wasm.sh setup          only install packages, npm modules and Dear ImGui's sources
#   ./build_wasm.sh stage          only stage build/site and build/dist again (after a web/ change)
#   ./build_wasm.sh serve [PORT]   build, then serve the viewer on http://127.0.0.1:PORT/ (8080)
#   ./build_wasm.sh test           build, run the format check, native, sanitizer, fuzz replay (every
#                                  seed and regression file) and browser tests: "N passed, N failed,
#                                  N skipped" (CI=true: skips fail)
#   ./build_wasm.sh native-test    only the native unit tests (fast loop during development)
#   ./build_wasm.sh bench          benchmarks (native + wasm), writes build/bench/results.json
#   ./build_wasm.sh fuzz [SECONDS] explores: each libFuzzer harness for SECONDS (default 60)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$ROOT/build"
CACHE="$BUILD/cache"
SITE="$BUILD/site"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
export NODE_PATH=/usr/share/nodejs  # Debian's node-acorn, for emcc's acorn-optimizer and bundle_script
export DEBIAN_FRONTEND=noninteractive

APT_PACKAGES=(
  build-essential cmake clang libclang-rt-14-dev python3 xz-utils ca-certificates
  emscripten node-acorn libglm-dev libstb-dev libfast-float-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev libassimp-dev assimp-utils libtinygltf-dev
  nlohmann-json3-dev libfmt-dev
  chromium dpkg-dev clang-format
  mkdocs python3-sphinx  # the documentation-site examples the browser tests build (web/package/examples)
)

# shellcheck source=tools/debian.sh
source "$ROOT/tools/debian.sh"

ensure_packages() { ensure_apt_packages "${APT_PACKAGES[@]}" nodejs npm; }

ensure_npm() {
  local dir="$ROOT/tests/browser"
  if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
     [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    log "installing npm packages (tests/browser/package-lock.json)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# Dear ImGui 1.86 from Debian's source package (tools/debian.sh checks it against the .dsc).
ensure_imgui() {
  IMGUI_DIR="$CACHE/imgui/imgui-1.86"
  if [ ! -f "$IMGUI_DIR/imgui.cpp" ]; then
    fetch_debian_source imgui 'imgui_1.86*.orig.tar.*' "$CACHE/imgui"
  fi
  [ -f "$IMGUI_DIR/imgui.cpp" ] || { echo "Dear ImGui sources missing in $IMGUI_DIR" >&2; exit 1; }
}

setup() {
  ensure_packages
  ensure_npm
  ensure_imgui
  ensure_zlib_sources
}

# configure_once BUILD_DIR ARGS...: cmake only when the folder is new or its arguments changed
# (a folder configured before a -D was added would otherwise keep building without it).
configure_once() {
  local dir="$1"; shift
  local stamp="$dir/.md5stage-configure-args"
  if [ ! -f "$dir/CMakeCache.txt" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$*" ]; then
    # A cache keeps its compiler whatever CXX says now: changed arguments start from none.
    rm -f "$dir/CMakeCache.txt"
    "$@"
    printf '%s' "$*" >"$stamp"
  fi
}

build_native() {
  log "native build"
  configure_once "$BUILD/native" cmake -S "$ROOT" -B "$BUILD/native" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD/native" -j "$JOBS"
}

build_wasm() {
  log "wasm build"
  configure_once "$BUILD/wasm" emcmake cmake -S "$ROOT" -B "$BUILD/wasm" \
    -DCMAKE_BUILD_TYPE=Release -DIMGUI_DIR="$IMGUI_DIR" -DZLIB_SOURCE_DIR="$ZLIB_SOURCE_DIR" >/dev/null
  cmake --build "$BUILD/wasm" -j "$JOBS"
}

# The figures module of <md5-stage> (issue 27): its own tree at -Oz, since its bytes come before
# a documentation page's first picture; CMakeLists.txt puts the per-frame code at -O2
# (docs/design.md, "Figures").
build_figures() {
  log "figures build (lean wasm, -Oz; per-frame code -O2, its hot files inlined)"
  configure_once "$BUILD/figures" emcmake cmake -S "$ROOT" -B "$BUILD/figures" \
    -DCMAKE_BUILD_TYPE=MinSizeRel -DCMAKE_CXX_FLAGS_MINSIZEREL="-Oz -DNDEBUG" \
    -DCMAKE_C_FLAGS_MINSIZEREL="-Oz -DNDEBUG" -DMD5STAGE_FIGURES=ON \
    -DIMGUI_DIR="$IMGUI_DIR" -DZLIB_SOURCE_DIR="$ZLIB_SOURCE_DIR" >/dev/null
  cmake --build "$BUILD/figures" -j "$JOBS" --target md5stage_figures
}

# bundle_script NAME DIR [EXTRA...]: web/lib/runtime.js (what the viewer page, the embed and the
# element share: docs/design.md, "The page runtime"), EXTRA sources, and web/NAME in one function
# scope, without their comments, as DIR/NAME (tools/bundle_script.js): a page still loads one
# script.
bundle_script() {
  local name="$1" dir="$2" mangle=()
  shift 2
  # The element's bundle comes before a documentation page's first figure: its local names are
  # shortened too (tools/bundle_script.js --mangle).
  [ "$name" = md5stage-element.js ] && mangle=(--mangle)
  node "$ROOT/tools/bundle_script.js" "${mangle[@]}" "$dir/$name" "$ROOT/web/lib/runtime.js" "$@" "$ROOT/web/$name"
}

stage_site() {
  mkdir -p "$SITE"
  cp -ru "$ROOT/web/." "$SITE/"
  rm -rf "$SITE/lib"  # in the scripts below, not served alone
  # The page API from the command table (src/viewer/command_spec.h): its TypeScript declaration,
  # and the table that main.js makes window.md5stage's functions from; the element's from its
  # table (src/viewer/element_spec.h): its declarations (TypeScript, React JSX) and the attribute
  # table md5stage-element.js observes.
  "$BUILD/native/md5stage_api_types" "$SITE/md5stage.d.ts" "$BUILD/page_commands.js" \
    "$SITE/md5stage-element.d.ts" "$SITE/md5stage-element-react.d.ts" "$BUILD/element_table.js"
  bundle_script main.js "$SITE" "$BUILD/page_commands.js"
  bundle_script embed.js "$SITE"
  bundle_script md5stage-element.js "$SITE" "$BUILD/element_table.js"
  cp -u "$BUILD/wasm/md5stage.js" "$BUILD/wasm/md5stage.wasm" "$SITE/"
  cp -u "$BUILD/figures/md5stage-figures.js" "$BUILD/figures/md5stage-figures.wasm" "$SITE/"
  mkdir -p "$SITE/assets"
  cp -ru "$ROOT/assets/." "$SITE/assets/"
  pack_meshes "$SITE/assets"
  log "site staged in $SITE"
}

# pack_meshes DIR: each .md5mesh under DIR gets its compact form beside it (`md5stage pack`), for
# a figure's mesh-pack attribute (docs/design.md, "The mesh pack"); the text stays the source.
pack_meshes() {
  local mesh
  while IFS= read -r -d '' mesh; do
    "$BUILD/native/md5stage" pack "$mesh" >/dev/null
  done < <(find "$1" -name '*.md5mesh' -print0)
}

# build/dist/md5stage-element/: the element's npm package (web/package/), `npm pack` makes it a
# tarball a documentation site installs.
stage_package() {
  local dist="$BUILD/dist/md5stage-element"
  rm -rf "$dist"
  mkdir -p "$dist/assets"
  cp "$ROOT/web/package/package.json" "$ROOT/web/package/README.md" \
    "$BUILD/figures/md5stage-figures.js" "$BUILD/figures/md5stage-figures.wasm" \
    "$SITE/md5stage-element.d.ts" "$SITE/md5stage-element-react.d.ts" "$dist/"
  bundle_script md5stage-element.js "$dist" "$BUILD/element_table.js"
  cp -r "$ROOT/assets/." "$dist/assets/"
  pack_meshes "$dist/assets"
  log "element package staged in $dist"
}

build_all() {
  setup
  build_native
  build_wasm
  build_figures
  stage_site
  stage_package
}

# ---- tests ------------------------------------------------------------------------------------
# Totals for the summary line. A skipped test is never counted as passed. Under CI=true (.ci/run)
# nothing may be skipped: the GoogleTest tests that need ../shared fail instead of skipping
# (tests/shared_data.h), and so does a browser test that skips (tests/browser/run.mjs).
PASSED=0
FAILED=0
SKIPPED=0
add_counts() {  # add_counts PASSED FAILED SKIPPED
  PASSED=$((PASSED + $1))
  FAILED=$((FAILED + $2))
  SKIPPED=$((SKIPPED + $3))
}

# timed NAME COMMAND...: runs a stage and keeps its wall time for the summary.
STAGE_TIMES=()
timed() {
  local name="$1" start=$SECONDS
  shift
  "$@"
  STAGE_TIMES+=("$name $((SECONDS - start)) s")
}

summary() {  # prints each stage's time and the summary line; fails when anything failed
  local stage
  for stage in "${STAGE_TIMES[@]}"; do echo "  time: $stage"; done
  echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
  [ "$FAILED" -eq 0 ]
}

# count_junit FILE: adds a ctest JUnit report's test cases to the totals: "run" passed, "fail"
# failed, GTEST_SKIP (ctest's SKIP_REGULAR_EXPRESSION) / SKIP_RETURN_CODE and DISABLED_ tests
# skipped; a test not run for any other reason (a missing executable, a failed fixture) failed.
count_junit() {
  local counts
  if ! counts=$(python3 -c '
import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    status = case.get("status")
    reason = case.find("skipped")
    if status == "run":
        passed += 1
    elif status == "disabled" or (status == "notrun" and reason is not None and
                                  reason.get("message", "").startswith("SKIP_")):
        skipped += 1
    else:
        failed += 1
print(passed, failed, skipped)' "$1"); then
    echo "cannot read the test report $1" >&2
    counts="0 1 0"
  fi
  # shellcheck disable=SC2086
  add_counts $counts
}

# count_json_report FILE WHAT: adds a {passed, failed[, skipped]} report (browser, fuzz) to the
# totals; a missing or unreadable report is one failure.
count_json_report() {
  local counts
  if [ -f "$1" ] && counts=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const n = (v) => { if (!Number.isInteger(v) || v < 0) throw new Error("bad count"); return v; };
    console.log(n(r.passed), n(r.failed), n(r.skipped || 0));' "$1"); then
    # shellcheck disable=SC2086
    add_counts $counts
  else
    echo "$2 produced no readable report ($1)" >&2
    add_counts 0 1 0
  fi
}

# clang-format --dry-run -Werror over src/, tests/ and tools/: one test in the totals.
run_format_check() {
  log "format check (clang-format, .clang-format)"
  if bash "$ROOT/tools/check_format.sh"; then add_counts 1 0 0; else add_counts 0 1 0; fi
}

run_native_tests() {
  log "native tests"
  ctest --test-dir "$BUILD/native" -j "$JOBS" --output-on-failure \
    --output-junit "$BUILD/native/junit.xml" || true
  count_junit "$BUILD/native/junit.xml"
}

run_sanitizer_tests() {
  log "native tests under AddressSanitizer + UndefinedBehaviorSanitizer"
  # -O1 -g1: line tables for the reports, at a fraction of a full debug build's compile time; the
  # test programs' own sources at -O0 (instrumented code compiles twice as fast there, and their
  # run time is in the code they test) and no benchmarks: this tree was most of CI's time.
  # clang, with the fuzz harnesses (MD5STAGE_FUZZ): the fuzz step links them against this tree's
  # libraries instead of compiling the core once more (docs/reliability.md, section 2).
  configure_once "$BUILD/asan" env CXX=clang++ cmake -S "$ROOT" -B "$BUILD/asan" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" -DMD5STAGE_SANITIZE=ON \
    -DMD5STAGE_FUZZ=ON -DMD5STAGE_TEST_OPTIMIZATION=-O0 -DMD5STAGE_BENCH=OFF >/dev/null
  cmake --build "$BUILD/asan" -j "$JOBS"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$BUILD/asan" -j "$JOBS" --output-on-failure \
    --output-junit "$BUILD/asan/junit.xml" || true
  count_junit "$BUILD/asan/junit.xml"
}

run_browser_tests() {
  log "browser tests (playwright-core + Chromium)"
  local report="$BUILD/browser/results.json"
  mkdir -p "$BUILD/browser"
  rm -f "$report"
  node "$ROOT/tests/browser/run.mjs" --site "$SITE" --out "$BUILD/browser" || true
  count_json_report "$report" "the browser test runner"
}

# Every input the repository and ../shared hold for each harness (tests/fuzz/corpus.sh: seeds,
# regression files, samples), replayed once under the sanitizer tree's harnesses, two harnesses at
# once: each file is a test in the totals, the same files every run (tests/fuzz/replay.sh writes
# build/fuzz/results.json). Exploring for a while is `./build_wasm.sh fuzz [SECONDS]`.
run_fuzz_replay() {
  [ -f "$ROOT/tests/fuzz/replay.sh" ] || return 0
  log "fuzz: replaying every seed and regression file, ${FUZZ_PARALLEL:-2} harnesses at a time"
  local report="$BUILD/fuzz/results.json"
  rm -f "$report"
  FUZZ_TREE="$BUILD/asan" FUZZ_PARALLEL="${FUZZ_PARALLEL:-2}" \
    bash "$ROOT/tests/fuzz/replay.sh" "$BUILD" || true
  count_json_report "$report" "the fuzz replay"
}

cmd="${1:-build}"
case "$cmd" in
  build)
    build_all ;;
  setup)
    setup ;;
  stage)
    stage_site
    stage_package ;;
  serve)
    port="${2:-8080}"
    build_all
    log "serving the viewer: http://127.0.0.1:$port/"
    exec python3 -m http.server --bind 127.0.0.1 "$port" -d "$SITE" ;;
  test)
    timed setup setup
    timed native-build build_native
    timed wasm-build build_wasm
    timed figures-build build_figures
    stage_site
    stage_package
    timed format run_format_check
    timed native-tests run_native_tests
    timed sanitizer-tests run_sanitizer_tests
    timed fuzz run_fuzz_replay
    timed browser-tests run_browser_tests
    summary ;;
  native-test)
    ensure_packages
    build_native
    run_native_tests
    summary ;;
  bench)
    build_all
    exec bash "$ROOT/bench/run.sh" "$BUILD" ;;
  fuzz)
    setup
    exec bash "$ROOT/tests/fuzz/run.sh" "$BUILD" "${2:-60}" ;;
  *)
    sed -n '2,14p' "$0" >&2
    exit 2 ;;
esac
