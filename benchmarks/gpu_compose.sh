#!/usr/bin/env bash
# gpu_compose.sh - the GA composer with its screen on an NVIDIA GPU.
#   bash benchmarks/gpu_compose.sh [OUTDIR] [REFDIR]
# 1. Equality: a short run (initial problem p1, pop 200, $GENS generations, seed 1,
#    2 verifier threads, --device gpu) must write the same problems.jsonl and the
#    same per-generation counts as REFDIR, the same run made elsewhere with
#    --device omp (default out/devref/p1-omp; make it with the command printed
#    below).  The screen decides which offspring reach the verifier, so equal
#    output checks the device end to end, across machines.
# 2. Figures: one Table 2 run (p5, seed 1, 200 x 50, plain GA: --repair 0
#    --extend 0) with the screen on the GPU and the verifier on every host thread.
# Uses bin/tsumegen as built; the OpenCL set-up is benchmarks/gpu_env.sh's.
set -u
cd "$(dirname "$0")/.."
out=${1:-out/gpucompose}
ref=${2:-out/devref/p1-omp}
. benchmarks/gpu_env.sh
B=${TSUMEGEN:-bin/tsumegen}
init() { sed -n "s/^$1 //p" benchmarks/ga_initial.txt; }
GENS=${GENS:-6}
DEVICE=${DEVICE:-gpu}  # (another device names a check run without a GPU)
P5_GENS=${P5_GENS:-50}
common=(--quiet --method ga --pop 200 --nodes 200000 --repair 0 --extend 0)
echo "reference: $B compose ga ${common[*]} --init \"\$(p1)\" --gens $GENS --seed 1 --threads 2 --device omp --out $ref"
t0=$(date +%s.%N)
$B compose ga "${common[@]}" --init "$(init p1)" --gens "$GENS" --seed 1 --threads 2 --device "$DEVICE" \
    --out "$out/p1-gpu" | tee "$out/p1-gpu.summary"
echo "   wall $(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
# per-generation counts without the timings
counts() { python3 -c '
import json, sys
keys = ("generation", "best", "mean", "archive", "problems", "longest", "screened", "legal",
        "verified", "mate", "perfect", "nomate", "unknown", "undecided")
for line in open(sys.argv[1]):
    d = json.loads(line)
    print(" ".join(str(d.get(k)) for k in keys))' "$1"; }
if [ -f "$ref/problems.jsonl" ]; then
    if cmp -s "$ref/problems.jsonl" "$out/p1-gpu/problems.jsonl" &&
       diff <(counts "$ref/generations.jsonl") <(counts "$out/p1-gpu/generations.jsonl"); then
        echo "EQUAL: GPU run == $ref ($(wc -l < "$ref/problems.jsonl") problems, $GENS generations)"
    else
        echo "DIFFERENT: GPU run != $ref"
    fi
else
    echo "no reference in $ref: equality not checked"
fi
t0=$(date +%s.%N)
$B compose ga "${common[@]}" --init "$(init p5)" --gens "$P5_GENS" --seed 1 --threads "$(nproc)" --device "$DEVICE" \
    --out "$out/p5-ga-s1" | tee "$out/p5.summary"
echo "   wall $(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
tail -3 "$out/p5-ga-s1/generations.jsonl"
exit 0
