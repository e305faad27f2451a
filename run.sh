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
    make -j2 all
    make test
    # warning-free under gcc -O3 and clang too (about 15 s on 2 cores)
    make -j2 variants
    # the same suite under AddressSanitizer + UBSan
    make check
    ;;
main)
    bash tools/install_deps.sh
    make -j2 all >/dev/null
    bash tools/main_job.sh
    ;;
*)
    echo "usage: bash run.sh [test]" >&2; exit 2 ;;
esac
