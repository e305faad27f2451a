# harness.sh - sourced first by each tests/test_*.sh: the repository root as the
# working directory, BIN (the binaries under test: bin, or bin/san under make
# check), and the ok/bad counters whose "N passed, N failed" line run_all.sh sums.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
pass=0; fail=0
ok() { echo "ok   $1"; pass=$((pass+1)); }
bad() { echo "FAIL $1"; fail=$((fail+1)); }
