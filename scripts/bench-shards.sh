#!/usr/bin/env bash
# Compares scoring a pair in N shard processes, run at once and merged,
# with one run over the whole pair: wall time, total CPU time, the largest
# resident memory of a process, and the frames the parts read beyond their
# own at the edges. The merged document is checked against the one run's.
#
#   scripts/bench-shards.sh REF DIST N [vmaf-score options...]
#
# Uses build/vmaf-score (VMAF_SCORE overrides). Each process gets the
# options given (e.g. --threads 1); the one run gets the same.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,10p "$0"; exit 1; }
ref=$1 dist=$2 n=$3
shift 3
tool=${VMAF_SCORE:-$(dirname "$0")/../build/vmaf-score}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timed() { # FILE CMD...: runs CMD, appends "wall user sys maxrss_kib" to FILE
  local out=$1
  shift
  /usr/bin/time -a -o "$out" -f '%e %U %S %M' "$@"
}
start=$(date +%s.%N)
timed "$work/one.time" "$tool" -r "$ref" -d "$dist" -q --json -o "$work/one.json" "$@"
one_wall=$(awk '{print $1}' "$work/one.time")
start=$(date +%s.%N)
pids=()
for ((i = 0; i < n; i++)); do
  timed "$work/parts.time" "$tool" -r "$ref" -d "$dist" -q --json -o "$work/part$i.json" --shard "$i/$n" "$@" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
timed "$work/merge.time" "$tool" merge -q -o "$work/merged.json" "$work"/part*.json
end=$(date +%s.%N)
if diff <(grep -v '"fps"' "$work/one.json") <(grep -v '"fps"' "$work/merged.json") >/dev/null; then
  same=identical
else
  same=DIFFERENT
fi
python3 - "$work" "$n" "$one_wall" "$start" "$end" "$same" <<'PY'
import json, sys, glob
work, n, one_wall, start, end, same = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
def rows(name):
    return [list(map(float, l.split())) for l in open(f"{work}/{name}") if l.strip()]
one = rows("one.time")[0]
parts = rows("parts.time")
merge = rows("merge.time")[0]
frames = extra = 0
for p in sorted(glob.glob(f"{work}/part*.json")):
    s = json.load(open(p))["vmafsink_shard"]
    frames += s["end"] - s["first"]
    extra += (s["first"] - s["read"][0]) + (s["read"][1] - s["end"])
edges = 2 * (n - 1)
print(f"frames {frames}, parts {n}")
print(f"one run:   wall {one_wall:.2f} s, cpu {one[1]+one[2]:.2f} s, max rss {one[3]/1024:.0f} MiB")
print(f"{n} shards:  wall {end-start:.2f} s (merge {merge[0]:.2f} s), cpu {sum(p[1]+p[2] for p in parts)+merge[1]+merge[2]:.2f} s "
      f"(merge {merge[1]+merge[2]:.2f} s), "
      f"max rss {max(p[3] for p in parts)/1024:.0f} MiB per shard, {merge[3]/1024:.0f} MiB merge")
print(f"frames read twice: {extra} over {edges} edges ({extra/edges if edges else 0:.1f} per edge, {100*extra/frames:.1f}% of the frames)")
print(f"merged document vs one run: {same}")
PY
