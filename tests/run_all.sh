#!/usr/bin/env bash
# Runs every test component and sums their "N passed, N failed" lines.
# A component that crashes or prints no such line counts as one failure.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
export BIN
total_pass=0; total_fail=0
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
        local p f; p=$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+'); f=$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
        echo "   $line ($((SECONDS - t0)) s)"
        total_pass=$((total_pass+p)); total_fail=$((total_fail+f))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then echo "   $name exited $rc"; total_fail=$((total_fail+1)); fi
    fi
    rm -f "$log"
}
run unit "$BIN/unit_tests"
for t in tests/test_*.sh; do [ -e "$t" ] && run "$(basename "$t" .sh)" bash "$t"; done
for t in tests/test_*.py; do [ -e "$t" ] && run "$(basename "$t" .py)" python3 "$t"; done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
