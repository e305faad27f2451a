#!/usr/bin/env bash
# tsumegen against OpenShogiLib's df-pn (Debian libosl-dev) on the same ShogiBoardQ
# problems, one search thread each, in one run (the machines are noisy: compare the
# ratios printed here, not figures from different runs): builds the adapter
# (benchmarks/peers/osl_dfpn.cc) and runs `tsumegen bench solve --peer` with it.
#   bash benchmarks/peer_solve.sh [COUNT]      (first COUNT problems per set, default 300)
# Rows per set: exact = mate + exact length (no mate in L-2 proved) + main line;
# full = exact + 余詰/駒余り analysis (--yozume-depth 4); peer = OSL's mate search only
# (its line is a mate, not necessarily the shortest), 10 M nodes a problem.
# exact/peer and full/peer = the summed search times per set as each program reports
# them (ms/problem x n), tsumegen over OSL.
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
echo "peer_solve: first $N problems per set, one thread each, $(date -u +%Y-%m-%d), $(nproc) cores"
exec "$TSUMEGEN" bench solve --count "$N" --threads 1 --peer "build/peers/osl_dfpn 10000000"
