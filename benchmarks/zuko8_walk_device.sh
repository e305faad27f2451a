#!/bin/bash
# Zuko 8 along its record on a many-core machine: the exact length (TSUME_RULES.md)
# from the attacker positions after 0, 2, ..., 10 record moves, each `solve
# --apply-moves --threads 2`, all at once (PLIES picks the positions; HASH MB each).
# Writes $OUT/walkK.json.  The eighteenth session's run (benchmarks/RESULTS.md):
# PLIES="0 2 4 6 8 10 14 16 18 20" TIME_MS=530000 HASH=6144 on a 16-core device host.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/z8}; mkdir -p "$OUT"
T=${TIME_MS:-540000}
SFEN="4+bn1g1/5kpPl/2l1b1s2/3+l1N1GP/4G1+P1N/5L3/9/1+r7/R8 b GP3sn13p 1"
# the record's first 22 plies (its 23rd, 9i9b+, is where it stops being the longest line)
REC=(P*4c 4b4c 2d3c 3b3c S*5b 5a5b 4d3b+ N*4d 5e4d 5c4d 3e4d 4c3b B*8g 8h8g G*4c 5b4c 4d4c 3b2b N*3d 3c3d B*7g 8g7g)
for k in ${PLIES:-0 2 4 6 8 10}; do
  mv="${REC[*]:0:$k}"
  echo "$SFEN moves $mv" | OMP_WAIT_POLICY=passive ./bin/tsumegen solve --apply-moves --threads 2 --hash ${HASH:-8192} \
      --time "$T" > "$OUT/walk$k.json" 2> "$OUT/walk$k.err" &
done
wait
for f in "$OUT"/*.json; do echo "== $f"; cut -c1-400 "$f"; done
