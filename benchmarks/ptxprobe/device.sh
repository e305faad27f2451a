#!/usr/bin/env bash
# device.sh - one call on a lent NVIDIA GPU: the OpenCL generated-stream bench
# (the product path; $BASE names an older binary to time in the same run), the
# CuPy probe on the NVIDIA build's PTX (from tsumegen's cache) and on every
# out/ptx/*.cubin, and Nsight Compute on the NVIDIA PTX's pass-1 and pass-2
# kernels.  Results under $OUT (or out/probe).
set -u
cd "$(dirname "$0")/../.."
out=${OUT:-$PWD/out/probe}
mkdir -p "$out"
exec > >(tee "$out/device.log") 2>&1
echo "== $(date -u +%FT%TZ) $(hostname), $(nproc) cpus"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
. benchmarks/gpu_env.sh
args="--device gpu --gen-only --no-mate3 --boards 200000 --gen-boards 16777216"
for b in ${BASE:-}; do
    echo "== $b"; timeout 120 $b bench screen $args
done
echo "== bin/tsumegen (staged pass 2, the default)"
timeout 200 bin/tsumegen bench screen $args ${BENCH_ARGS:-}
for v in ${VARIANTS:-}; do
    echo "== bin/tsumegen TSUMEGEN_CL_OPTIONS=$v"
    TSUMEGEN_CL_OPTIONS="$v" timeout 120 bin/tsumegen bench screen $args
done
echo "== bin/tsumegen TSUMEGEN_GEN_STAGED=0"
TSUMEGEN_GEN_STAGED=0 timeout 120 bin/tsumegen bench screen $args
echo "== screen --generate 2e9 --unique-mate1"
/usr/bin/time -v timeout 100 bin/tsumegen screen --generate 2000000000 --unique-mate1 > /dev/null 2> "$out/gen2e9.err"
grep -E "screen:|Elapsed|Maximum resident" "$out/gen2e9.err"
if [ "${VERIFY:-0}" != 0 ]; then
    echo "== screen --verify $VERIFY (upload path, mate3 on every 10th)"
    timeout 240 bin/tsumegen screen --verify "$VERIFY" --device gpu --verbose --mate3-every 10
fi
nv=$(grep -l "screen_gen_scan" "$TSUMEGEN_CACHE_DIR"/*.bin | head -1)
mkdir -p "$out/nvptx"; cp "$nv" "$out/nvptx/"
cubins=("$nv" $(ls out/ptx/*.cubin 2>/dev/null))
echo "== probe (staged)"; timeout 150 python3 benchmarks/ptxprobe/probe.py "${cubins[@]}"
echo "== probe (STAGED=0)"; STAGED=0 timeout 100 python3 benchmarks/ptxprobe/probe.py "${cubins[@]}"
if [ "${NCU:-1}" = 1 ]; then
    sec="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SourceCounters --section InstructionStats"
    CHUNKS=1 timeout 200 ncu --clock-control none --target-processes all -k "regex:screen_gen_(split|scan|mate|finish|rest)" \
        --launch-count 5 $sec python3 benchmarks/ptxprobe/probe.py "$nv" > "$out/ncu.txt" 2>&1
    echo "== ncu (rc $?)"
    grep -E "^  screen_gen|Duration|Registers Per|Achieved Occupancy|Active Threads Per|Warp Cycles Per Issued|Executed Ipc A|L2 Cache Throughput|L1/TEX Cache Throughput|excessive" "$out/ncu.txt"
fi
