#!/usr/bin/env bash
# The main job with sensible defaults: compose perfect problems with the GA from
# the built-in 1-move problem, then show what was found.  Results land in
# out/compose-<timestamp>/ (problems.jsonl, NNN.kif, summary.json, and the longest
# problem solved again with its 変化 in longest/0001.kif); Ctrl-C keeps them, and
#   bin/tsumegen compose ga --out DIR --resume
# continues an interrupted run with its own options (from DIR/checkpoint.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${TSUMEGEN_OUT:-out/compose-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p out
pop=${POP:-100}; gens=${GENS:-20}; seed=${SEED:-1}
echo "composing: GA with archive, population $pop, $gens generations, seed $seed -> $out" >&2
rc=0
bin/tsumegen compose ga --pop "$pop" --gens "$gens" --seed "$seed" --out "$out" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 130 ] || exit "$rc"  # (130: Ctrl-C; what was found is shown below)
n=$(wc -l < "$out/problems.jsonl")
echo "$n perfect problems in $out/problems.jsonl (KIF files beside it); the longest:" >&2
longest=$(python3 - "$out/problems.jsonl" <<'PY' 2>/dev/null || true
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if rows:
    best = max(rows, key=lambda r: r["length"])
    print(best["id"], best["length"], best["sfen"], " ".join(best["pv"]))
PY
)
if [ -n "$longest" ]; then
    set -- $longest
    echo "  #$1: $2 plies  $3 $4 $5 $6" >&2
    kif=$(printf "%s/%03d.kif" "$out" "$1")
    # shown with its 変化 (each other defence's own mate), checked again by solve
    if bin/tsumegen solve --variations --kif "$out/longest" "$3 $4 $5 $6" >"$out/longest.json" 2>/dev/null &&
        [ -f "$out/longest/0001.kif" ]; then
        kif=$out/longest/0001.kif
    fi
    [ -f "$kif" ] && cat "$kif"
fi
exit "$rc"
