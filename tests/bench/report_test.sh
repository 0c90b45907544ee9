#!/usr/bin/env bash
# bench/report.py on recorded results (bench/testdata: one benchmark of each kind): it must print
# its report with a unit on every row and a target on every benchmark of bench/README.md's
# targets, check that every benchmark bench/*.cpp registers has a unit, and refuse a result
# whose name has none (the KeyError 'items_per_second' that `./build_wasm.sh bench` ended in).
#   tests/bench/report_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
ROOT="$1"
WORK="$2"
mkdir -p "$WORK"
python3 "$ROOT/bench/report.py" --bench-dir "$ROOT/bench/testdata" --site "$WORK/no-site" \
  --out "$WORK/results.json" --check-sources "$ROOT/bench" >"$WORK/report.txt"
python3 - "$WORK/results.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
bad = [r["name"] for r in rows if not r.get("unit")]
assert not bad, f"rows without a unit: {bad}"
for prefix in ("native/export_glb/", "native/convert_glb/", "native/export_maps/"):
    mine = [r for r in rows if r["name"].startswith(prefix)]
    assert mine and all(r["target"] for r in mine), f"{prefix}: no row or no target: {mine}"
# Side by side with DetourCrowd: both ratios, ours over theirs, with issue 45's bounds.
by_name = {r["name"]: r for r in rows}
step = by_name["ratio/giveway swap: md5stage vs detourcrowd (step per character)"]
assert abs(step["value"] - 0.5) < 1e-9 and step["target"] == "<= 1" and step["met"], step
arrival = by_name["ratio/giveway swap: md5stage vs detourcrowd (mean arrival)"]
assert abs(arrival["value"] - 1.125) < 1e-9 and arrival["target"] == "<= 1.3", arrival
PY
# A benchmark the report has no unit for: a message naming it, not a traceback.
mkdir -p "$WORK/unknown"
python3 - "$ROOT/bench/testdata/native.json" "$WORK/unknown/native.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
data["benchmarks"].append(dict(data["benchmarks"][0], name="new_row/walker", run_name="new_row/walker"))
json.dump(data, open(sys.argv[2], "w"))
PY
if python3 "$ROOT/bench/report.py" --bench-dir "$WORK/unknown" --site "$WORK/no-site" \
  --out "$WORK/unknown/results.json" >"$WORK/unknown/report.txt" 2>&1; then
  echo "report.py accepted a benchmark without a unit" >&2
  exit 1
fi
grep -q "benchmark 'new_row/walker' has no unit" "$WORK/unknown/report.txt" || {
  cat "$WORK/unknown/report.txt" >&2
  exit 1
}
echo "bench report: every row has its unit"
