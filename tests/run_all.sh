#!/usr/bin/env bash
# Runs every test component and sums their "N passed, N failed" lines.
# A component that crashes or prints no such line counts as one failure.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
export BIN
total_pass=0; total_fail=0
count_of() {  # count_of WORD LINE: N of "N WORD" in a "N passed, N failed" line
    echo "$2" | grep -oE "[0-9]+ $1" | grep -oE '[0-9]+'
}
run() {  # run NAME COMMAND...
    local name=$1; shift
    local log; log=$(mktemp)
    echo "== $name"
    local t0=$SECONDS
    "$@" >"$log" 2>&1; local rc=$?
    grep -E '^(FAIL|not ok|MISMATCH|ERROR)' "$log" | head -40
    local line; line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    if [ -z "$line" ]; then
        echo "   $name: no summary line (exit $rc)"; tail -20 "$log"; total_fail=$((total_fail+1))
    else
        local p f; p=$(count_of passed "$line"); f=$(count_of failed "$line")
        echo "   $line ($((SECONDS - t0)) s)"
        total_pass=$((total_pass+p)); total_fail=$((total_fail+f))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then echo "   $name exited $rc"; total_fail=$((total_fail+1)); fi
    fi
    rm -f "$log"
}
# The unit tests in UNIT_SHARDS processes side by side (default: the cores, at most 4);
# most of them are single-threaded, and under the sanitizers they take minutes.
unit_sharded() {
    local n=${UNIT_SHARDS:-$(nproc 2>/dev/null || echo 1)} dir rc=0 p=0 f=0 k pids=()
    case $n in '' | *[!0-9]*) n=1 ;; esac
    [ "$n" -gt 4 ] && n=4
    [ "$n" -lt 1 ] && n=1
    dir=$(mktemp -d)
    for ((k = 0; k < n; k++)); do "$BIN/unit_tests" --shard "$k/$n" >"$dir/$k" 2>&1 & pids+=($!); done
    for k in "${pids[@]}"; do wait "$k" || rc=1; done
    for ((k = 0; k < n; k++)); do
        cat "$dir/$k"
        local line; line=$(grep -E '^unit: [0-9]+ passed, [0-9]+ failed' "$dir/$k" | tail -1)
        if [ -z "$line" ]; then echo "FAIL unit shard $k/$n: no summary line"; f=$((f + 1)); continue; fi
        p=$((p + $(count_of passed "$line"))); f=$((f + $(count_of failed "$line")))
    done
    rm -rf "$dir"
    echo "unit (all shards): $p passed, $f failed"
    return $rc
}
run unit unit_sharded
for t in tests/test_*.sh; do [ -e "$t" ] && run "$(basename "$t" .sh)" bash "$t"; done
for t in tests/test_*.py; do [ -e "$t" ] && run "$(basename "$t" .py)" python3 "$t"; done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
