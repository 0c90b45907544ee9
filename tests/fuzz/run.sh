#!/usr/bin/env bash
# Builds the libFuzzer harnesses in BUILD_DIR/fuzz (clang, ASan + UBSan), assembles their seed
# corpora and runs each harness for its share of SECONDS (SHARE below: the parsers with little
# to explore get half, the glTF importer and the command dispatcher all of it); crashes go to BUILD_DIR/fuzz/crashes/ and the summary
# to BUILD_DIR/fuzz/results.json: {"passed": N, "failed": M, "harnesses": [{name, seconds,
# executions, crashed}]}.
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
SHARED_MD5="$ROOT/../shared/md5"
JOBS="${JOBS:-2}"
# Longest first, so that two at a time finish together.
ALL_HARNESSES=(gltf call md5mesh md5_bind scene obstacles image material md5anim route paths skin
  dds md5camera embed)
# Percent of SECONDS each harness runs (README's test command: 60 s, so 30 to 60 s each, about
# five minutes for all of them two at a time).
declare -A SHARE=([gltf]=100 [call]=100 [md5mesh]=75 [md5_bind]=75 [scene]=75 [obstacles]=75
  [image]=75 [material]=75 [md5anim]=50 [route]=50 [paths]=50 [skin]=50 [dds]=50 [md5camera]=50
  [embed]=50)
read -r -a HARNESSES <<<"${FUZZ_ONLY:-${ALL_HARNESSES[*]}}"
# Seeds larger than this slow every mutation down more than they add coverage.
MAX_SEED_BYTES=262144

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

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
log "building the fuzz harnesses in $TREE"
targets=()
for h in "${HARNESSES[@]}"; do targets+=(--target "fuzz_$h"); done
if ! nice -n 10 cmake --build "$TREE" -j "$JOBS" "${targets[@]}"; then
  echo "fuzz: the harnesses did not build" >&2
  failed=(); for h in "${HARNESSES[@]}"; do failed+=("$h:0:0:true"); done
  write_results "${failed[@]}"
  exit 1
fi

# ---- seed corpora (rebuilt every run; libFuzzer's own finds stay in $FUZZ/corpus) --------------
SEEDS="$FUZZ/seeds"
rm -rf "$SEEDS"
for h in "${ALL_HARNESSES[@]}"; do mkdir -p "$SEEDS/$h" "$FUZZ/corpus/$h"; done
mkdir -p "$FUZZ/crashes" "$FUZZ/logs"

seed() {  # seed HARNESS FILE...: copies files no larger than MAX_SEED_BYTES, names kept unique
  local h="$1" f; shift
  for f in "$@"; do
    [ -f "$f" ] || continue
    [ "$(stat -c %s "$f")" -le "$MAX_SEED_BYTES" ] || continue
    cp "$f" "$SEEDS/$h/$(printf '%s' "$f" | md5sum | cut -c1-8)-$(basename "$f")"
  done
}
md5_sources=("$ROOT/assets")
[ -d "$SHARED_MD5" ] && md5_sources+=("$SHARED_MD5")
mapfile -t meshes < <(find "${md5_sources[@]}" -type f -iname '*.md5mesh' | sort)
mapfile -t anims < <(find "${md5_sources[@]}" -type f -iname '*.md5anim' | sort)
seed md5mesh "${meshes[@]}" "$ROOT"/tests/fuzz/seeds/md5mesh/* "$ROOT"/tests/core/md5/regressions/*.md5mesh
seed md5anim "${anims[@]}" "$ROOT"/tests/fuzz/seeds/md5anim/* "$ROOT"/tests/core/md5/regressions/*.md5anim
seed scene "$ROOT"/assets/scenes/*.json "$ROOT"/tests/fuzz/seeds/scene/* \
  "$ROOT"/tests/core/scene/regressions/*
seed route "$ROOT"/tests/fuzz/seeds/route/* "$ROOT"/tests/core/path/regressions/*.route.json
seed paths "$ROOT"/tests/fuzz/seeds/paths/* "$ROOT"/tests/core/path/regressions/*.paths
seed md5_bind "$ROOT"/tests/core/anim/regressions/*.bind
seed obstacles "$ROOT"/tests/fuzz/seeds/obstacles/*
# Images of every format the viewer decodes, hand-made edge files, and the regression files.
image_sources=("$ROOT/assets" "$ROOT/tests/fuzz/seeds/image")
[ -d "$SHARED_MD5" ] && image_sources+=("$SHARED_MD5")
mapfile -t images < <(find "${image_sources[@]}" -type f \( -iname '*.tga' -o -iname '*.png' \
  -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.bmp' -o -iname '*.dds' \) | sort)
seed image "${images[@]}" "$ROOT"/tests/core/material/regressions/*
mapfile -t dds_files < <(find "${image_sources[@]}" -type f -iname '*.dds' | sort)
seed dds "${dds_files[@]}" "$ROOT"/tests/fuzz/seeds/dds/* "$ROOT"/tests/core/material/regressions/*.dds
mapfile -t cameras < <(find "${md5_sources[@]}" -type f -iname '*.md5camera' | sort)
seed md5camera "${cameras[@]}" "$ROOT"/tests/fuzz/seeds/md5camera/* \
  "$ROOT"/tests/core/md5/regressions/*.md5camera
seed embed "$ROOT"/tests/fuzz/seeds/embed/*
seed call "$ROOT"/tests/fuzz/seeds/call/*
# glTF: the shared files, hand-made ones (with their files after "\n--file:NAME\n", see
# fuzz_gltf.cpp) and the regression files.
gltf_sources=("$ROOT/tests/fuzz/seeds/gltf")
if [ -d "$ROOT/../shared/gltf" ]; then
  gltf_sources+=("$ROOT/../shared/gltf")
  # Made here from the shared files, never kept in the repository (they are other projects'):
  # each .glb with asset.version "1.0", which the importer must refuse.
  mkdir -p "$FUZZ/generated/gltf"
  find "$ROOT/../shared/gltf" -type f -iname '*.glb' -print0 |
    while IFS= read -r -d '' glb; do
      python3 - "$glb" "$FUZZ/generated/gltf/version_1_$(basename "$glb")" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(data.replace(b'"version":"2.0"', b'"version":"1.0"', 1))
PY
    done
  gltf_sources+=("$FUZZ/generated/gltf")
fi
mapfile -t gltfs < <(find "${gltf_sources[@]}" -type f \( -iname '*.glb' -o -iname '*.gltf' \) | sort)
seed gltf "${gltfs[@]}" "$ROOT"/tests/core/convert/regressions/*
# Material and skin decls: the shared DarkRadiant and Unvanquished files, and the repository's own.
decl_sources=("$ROOT/tests/fuzz/seeds/material")
[ -d "$SHARED_MD5" ] && decl_sources+=("$SHARED_MD5")
mapfile -t decls < <(find "${decl_sources[@]}" -type f \( -iname '*.mtr' -o -iname '*.shader' \
  -o -iname '*.skin' -o -iname '*.def' \) | sort)
seed material "${decls[@]}"
mapfile -t skins < <(find "${decl_sources[@]}" -type f -iname '*.skin' | sort)
seed skin "${skins[@]}" "$ROOT"/tests/fuzz/seeds/skin/*

# The scenes' routes as route files.
if command -v python3 >/dev/null; then
  python3 - "$SEEDS/route" "$ROOT"/assets/scenes/*.json <<'EOF'
import json, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    try:
        scene = json.load(open(path))
    except (OSError, ValueError):
        continue
    for i, route in enumerate(scene.get("routes", [])):
        if "segments" in route:
            name = path.rsplit("/", 1)[-1].replace(".json", "")
            with open(f"{out}/{name}-{i}.route.json", "w") as f:
                json.dump({"segments": route["segments"], "closed": route.get("closed", False)}, f)
EOF
fi

# Mesh + anim pairs for the binding harness: MESH \0 ANIM \0 PARAMETERS. Each mesh with up to three
# anims from its own folder (or an animation/ subfolder), and with an anim of another skeleton.
params=$'\x10\x42\x01\x00\x80\x3f\x20\x30\x40\x50\x60\x70\x81\x91\xa1\xb1'
pair=0
make_pair() {  # make_pair MESH ANIM
  local size=$(($(stat -c %s "$1") + $(stat -c %s "$2")))
  [ "$size" -le "$MAX_SEED_BYTES" ] || return 0
  { cat "$1"; printf '\0'; cat "$2"; printf '\0%s' "$params"; } >"$SEEDS/md5_bind/pair-$pair"
  pair=$((pair + 1))
}
foreign_anim="$ROOT/tests/fuzz/seeds/md5anim/two_joints.md5anim"
for mesh in "${meshes[@]}" "$ROOT/tests/fuzz/seeds/md5mesh/two_joints.md5mesh"; do
  dir="$(dirname "$mesh")"
  mapfile -t own < <(find "$dir" -maxdepth 2 -type f -iname '*.md5anim' | sort | head -n 3)
  for anim in "${own[@]}"; do make_pair "$mesh" "$anim"; done
  make_pair "$mesh" "$foreign_anim"
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
