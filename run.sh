#!/usr/bin/env bash
# tsumegen's two entry points (see README):
#   bash run.sh          install what is missing, build, run the main job
#   bash run.sh test     install what is missing (test oracles too), build, run every test
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-main}
case "$mode" in
test)
    bash tools/install_deps.sh --test
    # the builds first: the release binaries, warning-free under gcc -O3 and clang
    # too, and the AddressSanitizer + UBSan build of the same suite (make check)
    make -j2 all bin/unit_tests bin/fuzz_replay
    make -j2 variants
    make -j2 check-build
    # Then the two suites side by side: each keeps a core busy only part of the time
    # (processes that wait, single-threaded stretches), so together they take 20-25 %
    # less time than one after another on 2 cores.  make check's output follows.
    san_log=$(mktemp)
    make check >"$san_log" 2>&1 &
    san_pid=$!
    trap 'kill "$san_pid" 2>/dev/null || true; rm -f "$san_log"' EXIT  # (set -e reaches into traps)
    rel_rc=0
    make test || rel_rc=$?
    san_rc=0
    wait "$san_pid" || san_rc=$?
    trap - EXIT
    echo "== make check (AddressSanitizer + UBSan), run beside make test"
    cat "$san_log"
    rm -f "$san_log"
    echo "make test: exit $rel_rc; make check: exit $san_rc"
    [ "$rel_rc" = 0 ] && [ "$san_rc" = 0 ]
    ;;
main)
    bash tools/install_deps.sh
    make -j2 all >/dev/null
    bash tools/main_job.sh
    ;;
*)
    echo "usage: bash run.sh [test]" >&2; exit 2 ;;
esac
