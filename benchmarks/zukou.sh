#!/usr/bin/env bash
# Issue 3's Zuko target: `tsumegen solve` on 図巧 (zukou) problems FIRST..LAST of
# data/edo/zukou.tsv with a per-problem time limit; prints a markdown table
# (recorded length, our verdict, exact length or upper bound, seconds, nodes).
#   bash benchmarks/zukou.sh [FIRST] [LAST] [TIME_MS] [THREADS]   (defaults 1 29 60000 1)
#   HASH=MB: the table per thread (default 1024: a minute here is 30-40 M nodes; HASH=grow:
#   no --hash, so a lone problem's table grows as solve's does by default; Zuko
#   17's exact 41 takes 4.6 M nodes with solve's default 32 MB, 5.2 M with 512 MB at
#   4fa94ea; before 22d25d0, 32 MB found no mate in 195 M nodes)
#   OPTS="...": more solve options (e.g. OPTS="--nodes 8000000 --length-search up" with
#   TIME_MS 0 for a deterministic run)
#   ALONE=1: one problem at a time with all THREADS on it (a lone problem's exact-length
#   search takes a second thread: bottom up and the walk at once); default: THREADS
#   problems side by side, one thread each
# "exact" = no mate in L-2 was proved; "ub" = a mate of that length was found but
# the limit stopped the proof that no shorter one exists ("proven at least": the
# length is proved to be at least that); "unknown" = no mate found.
set -euo pipefail
cd "$(dirname "$0")/.."
FIRST=${1:-1}; LAST=${2:-29}; TIME=${3:-60000}; THREADS=${4:-1}; HASH=${HASH:-1024}
TSUMEGEN=${TSUMEGEN:-bin/tsumegen}
HASHOPT=(--hash "$HASH")
[ "$HASH" != grow ] || HASHOPT=()
[ "$TSUMEGEN" != bin/tsumegen ] || make -s bin/tsumegen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -F'\t' -v a="$FIRST" -v b="$LAST" '!/^#/ { n++; if (n >= a && n <= b) print $1 "\t" $2 "\t" $3 }' data/edo/zukou.tsv > "$tmp/set.tsv"
if [ "${ALONE:-0}" = 1 ]; then
  : > "$tmp/out.jsonl"
  cut -f3 "$tmp/set.tsv" | while IFS= read -r sfen; do
    "$TSUMEGEN" solve --no-flaws --time "$TIME" --threads "$THREADS" "${HASHOPT[@]}" ${OPTS:-} "$sfen" >> "$tmp/out.jsonl"
  done
else
  cut -f3 "$tmp/set.tsv" | "$TSUMEGEN" solve --no-flaws --time "$TIME" --threads "$THREADS" "${HASHOPT[@]}" ${OPTS:-} > "$tmp/out.jsonl"
fi
python3 - "$tmp" "$TIME" <<'PY'
import json, sys
d, limit = sys.argv[1], int(sys.argv[2])
rows = [l.rstrip("\n").split("\t") for l in open(f"{d}/set.tsv")]
outs = [json.loads(l) for l in open(f"{d}/out.jsonl")]
print("| problem | recorded | result | length | proven at least | status | s | nodes |")
print("|---|---|---|---|---|---|---|---|")
n_exact = n_rec = 0
for (pid, rec, _), o in zip(rows, outs):
    ub = any("upper_bound" in x for x in o.get("notes", []))
    status = "unknown" if o["result"] != "mate" else ("ub" if ub else "exact")
    n_exact += status == "exact"
    n_rec += status == "exact" and o["length"] == int(rec)
    lb = o.get("length_lb", o["length"]) if o["result"] == "mate" else "-"
    print(f"| {pid} | {rec} | {o['result']} | {o['length'] or '-'} | {lb} | {status} | {o['ms'] / 1000:.1f} | {o['nodes']} |")
print(f"\n{len(outs)} problems, limit {limit / 1000:.0f} s: {n_exact} exact ({n_rec} equal to the record), "
      f"{sum(o['result'] == 'mate' for o in outs)} mates found")
PY
