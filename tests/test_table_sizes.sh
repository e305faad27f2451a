#!/usr/bin/env bash
# The verifier's verdicts do not depend on its table size: near-miss variants of
# ShogiBoardQ problems solved with 1 MB and 256 MB tables (benchmarks/table_sizes.py).
# Also their mirrors and colour flips (the same problems).  60 problems per set (12
# under the sanitizer build).  Last line: "N passed, N failed".
. "$(dirname "$0")/harness.sh"
n=60
case "$BIN" in *san*) n=12 ;; esac
TSUMEGEN="$BIN/tsumegen" python3 benchmarks/table_sizes.py --per-file "$n" --threads 2 --symmetry
