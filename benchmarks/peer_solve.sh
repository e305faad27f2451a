#!/usr/bin/env bash
# tsumegen against OpenShogiLib's df-pn (Debian libosl-dev) on the same ShogiBoardQ
# problems, one search thread each, in one run (the machines are noisy: compare the
# ratios printed here, not figures from different runs).
#   bash benchmarks/peer_solve.sh [COUNT]      (first COUNT problems per set, default 300)
# Columns: OSL = mate search only (its line is a mate, not necessarily the shortest);
# tsumegen exact = mate + exact length (no mate in L-2 proved) + main line;
# tsumegen full = exact + 余詰/駒余り analysis (--yozume-depth 4).  ms = summed search
# time per set as each program reports it; ratio = tsumegen / OSL.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-300}
TSUMEGEN=${TSUMEGEN:-bin/tsumegen}
[ "$TSUMEGEN" != bin/tsumegen ] || make -s bin/tsumegen
if ! [ -f /usr/include/osl/checkmate/dfpn.h ]; then
    echo "peer_solve: OpenShogiLib is missing: apt-get install libosl-dev libboost-dev" >&2
    exit 2
fi
mkdir -p build/peers
if ! [ -x build/peers/osl_dfpn ] || [ benchmarks/peers/osl_dfpn.cc -nt build/peers/osl_dfpn ]; then
    g++ -O2 -std=c++17 -DOSL_SMP benchmarks/peers/osl_dfpn.cc -losl -lpthread -o build/peers/osl_dfpn
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "peer_solve: first $N problems per set, one thread each, $(date -u +%Y-%m-%d), $(nproc) cores"
printf '%-6s | %-28s | %-34s | %-22s | %s\n' set "OSL mate (ms, nodes, mate)" "tsumegen exact (ms, nodes, =record)" "tsumegen full (ms)" "exact/OSL full/OSL"
for p in 3 5 7 11 13; do
    set_file=data/third_party/shogiboardq/tsume_${p}ply_1000_20261001.txt
    awk -v n="$N" '!/^#/ && k++ < n' "$set_file" > "$tmp/in.txt"
    build/peers/osl_dfpn 10000000 < "$tmp/in.txt" > "$tmp/osl.jsonl"
    "$TSUMEGEN" solve --threads 1 --hash 16 --no-flaws < "$tmp/in.txt" > "$tmp/exact.jsonl"
    "$TSUMEGEN" solve --threads 1 --hash 16 --yozume-depth 4 < "$tmp/in.txt" > "$tmp/full.jsonl"
    python3 - "$p" "$tmp" <<'PY'
import json, sys
p, d = sys.argv[1], sys.argv[2]
def load(name): return [json.loads(l) for l in open(f"{d}/{name}.jsonl")]
osl, ex, full = load("osl"), load("exact"), load("full")
o_ms = sum(r.get("ms", 0) for r in osl); o_nodes = sum(r.get("nodes", 0) for r in osl)
o_mate = sum(r.get("result") == "mate" for r in osl)
e_ms = sum(r["ms"] for r in ex); e_nodes = sum(r["nodes"] for r in ex)
e_rec = sum(r.get("result") == "mate" and r.get("length") == r.get("record_length") and not any(
    "upper_bound" in n for n in r.get("notes", [])) for r in ex)
f_ms = sum(r["ms"] for r in full)
print(f"{p+'-ply':<6} | {o_ms:8.0f} {o_nodes:10d} {o_mate:4d}/{len(osl):<4d} | {e_ms:8.0f} {e_nodes:11d} {e_rec:4d}/{len(ex):<4d}       "
      f"| {f_ms:8.0f}               | {e_ms / max(o_ms, 1e-9):6.2f} {f_ms / max(o_ms, 1e-9):6.2f}")
PY
done
