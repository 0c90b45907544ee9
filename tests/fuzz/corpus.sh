#!/usr/bin/env bash
# Sourced by tests/fuzz/run.sh (exploring) and tests/fuzz/replay.sh (README's test command): the
# harnesses, how they are built, and every input file the repository and ../shared hold for each
# of them (the hand-made seeds, the regression files of the table tests, assets/, ../shared's md5
# and glTF samples, and files derived from those in BUILD/fuzz/generated/).
#
# Callers set ROOT (the checkout) and FUZZ (BUILD/fuzz) before sourcing.

# Longest first, so that two at a time finish together.
ALL_HARNESSES=(gltf call md5mesh md5_bind scene obstacles image material md5anim route paths skin
  dds md5camera embed)
SHARED="$ROOT/../shared"
SHARED_MD5="$SHARED/md5"

fuzz_log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# build_harnesses TREE JOBS HARNESS...: builds fuzz_HARNESS in TREE (configured with
# MD5STAGE_FUZZ=ON); fails when any does not build.
build_harnesses() {
  local tree="$1" jobs="$2" h
  shift 2
  local targets=()
  for h in "$@"; do targets+=(--target "fuzz_$h"); done
  fuzz_log "building the fuzz harnesses in $tree"
  nice -n 10 cmake --build "$tree" -j "$jobs" "${targets[@]}"
}

# list_inputs: writes $FUZZ/lists/HARNESS.txt, one input path a line (sorted, so every run
# replays the same files in the same order), for every harness. Derived inputs (version 1.0
# copies of ../shared's .glb files, the demo scenes' routes, mesh + anim pairs) are made in
# $FUZZ/generated/ first; nothing derived from ../shared is ever written into the checkout.
list_inputs() {
  local lists="$FUZZ/lists" generated="$FUZZ/generated"
  rm -rf "$lists" "$generated"
  mkdir -p "$lists" "$generated/gltf" "$generated/route" "$generated/md5_bind"
  local h
  for h in "${ALL_HARNESSES[@]}"; do : >"$lists/$h.txt"; done

  # add HARNESS FILE...: the files that exist, once each.
  add() {
    local harness="$1" f
    shift
    for f in "$@"; do [ -f "$f" ] && printf '%s\n' "$f" >>"$lists/$harness.txt"; done
    return 0
  }
  # found DIR... -- FIND_ARGS...: the regular files under the folders that exist, sorted.
  found() {
    local dirs=()
    while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
      [ -d "$1" ] && dirs+=("$1")
      shift
    done
    shift
    [ "${#dirs[@]}" -gt 0 ] || return 0
    find "${dirs[@]}" -type f "$@" | LC_ALL=C sort
  }
  local seeds="$ROOT/tests/fuzz/seeds" regressions="$ROOT/tests/core"
  local -a meshes anims images dds_files cameras gltfs decls skins
  mapfile -t meshes < <(found "$ROOT/assets" "$SHARED_MD5" -- -iname '*.md5mesh')
  mapfile -t anims < <(found "$ROOT/assets" "$SHARED_MD5" -- -iname '*.md5anim')
  add md5mesh "${meshes[@]}" "$seeds"/md5mesh/* "$regressions"/md5/regressions/*.md5mesh
  add md5anim "${anims[@]}" "$seeds"/md5anim/* "$regressions"/md5/regressions/*.md5anim
  add scene "$ROOT"/assets/scenes/*.json "$seeds"/scene/* "$regressions"/scene/regressions/*
  add route "$seeds"/route/* "$regressions"/path/regressions/*.route.json
  add paths "$seeds"/paths/* "$regressions"/path/regressions/*.paths
  add md5_bind "$regressions"/anim/regressions/*.bind
  add obstacles "$seeds"/obstacles/*
  # Images of every format the viewer decodes, hand-made edge files, and the regression files.
  mapfile -t images < <(found "$ROOT/assets" "$seeds/image" "$SHARED_MD5" -- \( -iname '*.tga' \
    -o -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.bmp' -o -iname '*.dds' \))
  add image "${images[@]}" "$regressions"/material/regressions/*
  mapfile -t dds_files < <(found "$ROOT/assets" "$SHARED_MD5" -- -iname '*.dds')
  add dds "${dds_files[@]}" "$seeds"/dds/* "$regressions"/material/regressions/*.dds
  mapfile -t cameras < <(found "$ROOT/assets" "$SHARED_MD5" -- -iname '*.md5camera')
  add md5camera "${cameras[@]}" "$seeds"/md5camera/* "$regressions"/md5/regressions/*.md5camera
  add embed "$seeds"/embed/*
  add call "$seeds"/call/*
  # glTF: ../shared's files, each .glb of them once more with asset.version "1.0" (which the
  # importer must refuse), hand-made ones (with their files after "\n--file:NAME\n", see
  # fuzz_gltf.cpp) and the regression files.
  if [ -d "$SHARED/gltf" ]; then
    local glb
    while IFS= read -r glb; do
      python3 - "$glb" "$generated/gltf/version_1_$(basename "$glb")" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(data.replace(b'"version":"2.0"', b'"version":"1.0"', 1))
PY
    done < <(found "$SHARED/gltf" -- -iname '*.glb')
  fi
  mapfile -t gltfs < <(found "$seeds/gltf" "$SHARED/gltf" "$generated/gltf" -- \( -iname '*.glb' \
    -o -iname '*.gltf' \))
  add gltf "${gltfs[@]}" "$regressions"/convert/regressions/*
  # Material and skin decls: the shared DarkRadiant and Unvanquished files, and the repository's.
  mapfile -t decls < <(found "$seeds/material" "$SHARED_MD5" -- \( -iname '*.mtr' \
    -o -iname '*.shader' -o -iname '*.skin' -o -iname '*.def' \))
  add material "${decls[@]}"
  mapfile -t skins < <(found "$seeds/material" "$SHARED_MD5" -- -iname '*.skin')
  add skin "${skins[@]}" "$seeds"/skin/*

  # The demo scenes' routes as route files.
  python3 - "$generated/route" "$ROOT"/assets/scenes/*.json <<'EOF'
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
  found "$generated/route" -- -name '*.route.json' >>"$lists/route.txt"

  # Mesh + anim pairs for the binding harness: MESH \0 ANIM \0 PARAMETERS. Each mesh with up to
  # three anims from its own folder (or an animation/ subfolder), and with an anim of another
  # skeleton.
  local params=$'\x10\x42\x01\x00\x80\x3f\x20\x30\x40\x50\x60\x70\x81\x91\xa1\xb1'
  local pair=0 mesh anim dir
  local foreign_anim="$seeds/md5anim/two_joints.md5anim"
  local -a own
  for mesh in "${meshes[@]}" "$seeds/md5mesh/two_joints.md5mesh"; do
    dir="$(dirname "$mesh")"
    mapfile -t own < <(find "$dir" -maxdepth 2 -type f -iname '*.md5anim' | LC_ALL=C sort | head -n 3)
    for anim in "${own[@]}" "$foreign_anim"; do
      { cat "$mesh"; printf '\0'; cat "$anim"; printf '\0%s' "$params"; } \
        >"$generated/md5_bind/pair-$(printf '%03d' "$pair")"
      pair=$((pair + 1))
    done
  done
  found "$generated/md5_bind" -- -name 'pair-*' >>"$lists/md5_bind.txt"
  unset -f add found
}
