#!/usr/bin/env bash
# The bench's node counts are a signature of the move generator: any change in
# move generation shows up here (speeds are printed, never asserted).
. "$(dirname "$0")/harness.sh"
out=$("$BIN/tsumegen" bench perft --repeat 1 2>&1)
echo "$out"
if echo "$out" | grep -qx "signature 24670505"; then echo "ok   bench perft signature"; pass=$((pass+1));
else echo "FAIL bench perft signature (expected 24670505)"; fail=$((fail+1)); fi
last=$("$BIN/tsumegen" perft 3 | tail -1)
if [ "$last" = "nodes 25470" ]; then echo "ok   perft CLI last line"; pass=$((pass+1));
else echo "FAIL perft CLI last line: $last"; fail=$((fail+1)); fi
div=$("$BIN/tsumegen" perft 2 --divide | head -n -1 | awk '{s+=$2} END {print NR, s}')
if [ "$div" = "30 900" ]; then echo "ok   perft --divide sums"; pass=$((pass+1));
else echo "FAIL perft --divide: $div"; fail=$((fail+1)); fi
# bench confirm: both rows, each settling or giving up on every position it read
conf=$("$BIN/tsumegen" bench confirm --count 3 --nodes 3000 2>&1); rc=$?
rows=$(echo "$conf" | awk '/^epsilon/ && $3 == "n=" && $4 == 3 && $7 + $9 + $11 == 3' | wc -l)
if [ $rc -eq 0 ] && [ "$rows" = 2 ] && echo "$conf" | grep -q '^ratio epsilon'; then echo "ok   bench confirm rows"; pass=$((pass+1));
else echo "FAIL bench confirm (rc $rc): $conf"; fail=$((fail+1)); fi
echo "bench-signature: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
