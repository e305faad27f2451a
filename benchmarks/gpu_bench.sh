#!/usr/bin/env bash
# gpu_bench.sh - the screening benchmarks on a machine with an NVIDIA GPU.
#   bash benchmarks/gpu_bench.sh [OUTDIR] [full|sweep]
# full (default): devices, a 1,000,000-board kernel == reference check, and
#   `bench screen` (every path, generated streams, work-group sizes);
# sweep: generated streams only, once per build variant in $VARIANTS (a list of
#   TSUMEGEN_CL_OPTIONS values separated by '|'; default: the default options,
#   OpenCL C 1.2 with the tables in constant memory, NVIDIA register caps).
# Uses bin/tsumegen as built ($TSUMEGEN names another binary, e.g. an older
# build to compare in the same run; $SWEEP_ARGS adds bench options, e.g.
# --no-mate3).  When the NVIDIA driver's OpenCL library exists but no ICD file
# names it (container images often lack /etc/OpenCL/vendors), a
# private vendors folder is made and OCL_ICD_VENDORS points at it; a
# libOpenCL.so.1 in .ocl/ (Debian's ocl-icd-libopencl1) is used when the system
# has none.  Program caches: $TSUMEGEN_CACHE_DIR (tsumegen's, PTX on NVIDIA) and
# $TSUMEGEN_CACHE_DIR/nv (the CUDA driver's JIT cache); a folder carried from an
# earlier run saves the NVIDIA compiler's minutes.  Output also goes to
# OUTDIR/gpu_bench.log, and the caches to OUTDIR/cache.tar.
set -u
cd "$(dirname "$0")/.."
out=${1:-out/gpu}
mode=${2:-full}
. benchmarks/gpu_env.sh
echo "mode $mode"
B=${TSUMEGEN:-bin/tsumegen}
$B devices
if [ "$mode" = sweep ]; then
    # VARIANTS unset: the default list; set to '' : the default options alone
    IFS='|' read -r -a variants <<<"${VARIANTS-|-cl-std=CL1.2|-cl-nv-maxrregcount=128|-cl-nv-maxrregcount=96|-cl-nv-maxrregcount=64}"
    [ ${#variants[@]} -eq 0 ] && variants=("")
    for v in "${variants[@]}"; do
        echo "== variant TSUMEGEN_CL_OPTIONS='$v'"
        t0=$(date +%s.%N)
        TSUMEGEN_CL_OPTIONS="$v" $B bench screen --device gpu --gen-only --local-sweep \
            --boards ${BOARDS:-200000} --gen-boards ${GEN_BOARDS:-16777216} ${SWEEP_ARGS:-}
        echo "   variant wall $(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
    done
else
    $B screen --verify ${VERIFY:-1000000} --device gpu --verbose --mate3-every 10
    $B bench screen --device gpu --verbose --local-sweep ${BENCH_ARGS:-}
fi
tar -C "$TSUMEGEN_CACHE_DIR" -cf "$out/cache.tar" . 2>/dev/null
ls -la "$out/cache.tar"
exit 0
