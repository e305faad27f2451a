#!/usr/bin/env bash
# gpu_recheck.sh - the short re-check of the screen on an NVIDIA GPU after a change
# to the code the kernels include (core/position.c, movegen.c, screen.c, gen.c):
#   bash benchmarks/gpu_recheck.sh [OUTDIR] [REFDIR]
# 1. `bench screen` on generated boards (kept boards/s; every board's digest
#    compared with the CPU reference);
# 2. `screen --generate 2000000000 --unique-mate1` end to end (its counts are fixed
#    by the stream: 784,863,050 legal, 35,500,307 with mate-in-1, 21,474,312 kept);
# 3. `screen --verify 1000000 --mate3-every 10` on the upload path (0 mismatches);
# 4. when REFDIR (default out/devref/p1-omp) holds a `--device omp` run of
#    gpu_compose.sh's first command, that run again with the screen on the GPU and
#    the verifier on every host thread (the thread count must not change the output)
#    (EQUAL or DIFFERENT; COMPOSE_LIMIT seconds at most, default 300).
# Each tsumegen process pays NVIDIA's program build (a minute or more) once.
# A smoke test elsewhere: DEVICE=cpu GENERATE=100000 VERIFY=2000 BENCH_SIZE="--boards
# 2000 --gen-boards 65536" bash benchmarks/gpu_recheck.sh out/x none
set -u
cd "$(dirname "$0")/.."
out=${1:-out/gpurecheck}
ref=${2:-out/devref/p1-omp}
. benchmarks/gpu_env.sh
B=${TSUMEGEN:-bin/tsumegen}
dev=${DEVICE:-gpu}
$B devices
stamp() { awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $1}"; }
t0=$(date +%s.%N)
$B bench screen --device "$dev" --gen-only --no-mate3 ${BENCH_SIZE:---boards 200000 --gen-boards 16777216}
echo "   bench wall $(stamp "$t0") s"
t0=$(date +%s.%N)
$B screen --generate "${GENERATE:-2000000000}" --unique-mate1 --device "$dev" --verbose >"$out/generate.out"
echo "   generate: rc $?, $(wc -l <"$out/generate.out") boards printed, wall $(stamp "$t0") s"
t0=$(date +%s.%N)
$B screen --verify "${VERIFY:-1000000}" --device "$dev" --mate3-every 10 --verbose
echo "   verify wall $(stamp "$t0") s"
rm -f "$out/generate.out"
if [ -f "$ref/problems.jsonl" ]; then
    init() { sed -n "s/^$1 //p" benchmarks/ga_initial.txt; }
    rm -rf "$out/p1-gpu"
    t0=$(date +%s.%N)
    timeout "${COMPOSE_LIMIT:-300}" $B compose ga --quiet --method ga --pop 200 --nodes 200000 --repair 0 --extend 0 \
        --init "$(init p1)" --gens 6 --seed 1 --threads "$(nproc)" --device "$dev" --out "$out/p1-gpu"
    echo "   compose rc $?, wall $(stamp "$t0") s"
    cols='import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l); print(*(d.get(k) for k in ("generation", "best", "mean", "archive", "problems", "longest",
        "screened", "legal", "verified", "mate", "perfect", "nomate", "unknown", "undecided")))'
    if cmp -s "$ref/problems.jsonl" "$out/p1-gpu/problems.jsonl" &&
       diff <(python3 -c "$cols" "$ref/generations.jsonl") <(python3 -c "$cols" "$out/p1-gpu/generations.jsonl"); then
        echo "EQUAL: GPU compose == $ref ($(wc -l <"$ref/problems.jsonl") problems)"
    else
        echo "DIFFERENT: GPU compose != $ref"
    fi
fi
exit 0
