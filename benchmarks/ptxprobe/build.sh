#!/usr/bin/env bash
# build.sh NAME [-D...] - kernels/screen_gen.cl to PTX with clang (nvptx64), for
# the CuPy probe (probe.py) and ptxas's resource report; run from the repo root
# after `make` (needs build/gen/tables.inc).  Output: out/ptx/NAME.ptx
set -eu
name=$1; shift
mkdir -p out/ptx
${CLANG:-clang-15} -x cl -cl-std=CL2.0 -DTG_TABLES_GLOBAL -target nvptx64-nvidia-nvcl -O3 ${LINEINFO:-} -mllvm -inline-threshold=1000000 -Icore -Ibuild/gen \
    -DTG_DEVICE_GPU=1 -DTG_DEVICE_CPU=0 -DSC_GEN_FLAGS=0 -Xclang -finclude-default-header \
    -include benchmarks/ptxprobe/shim.h "$@" -S kernels/screen_gen.cl -o out/ptx/$name.ptx
ptxas -arch=sm_90 -v out/ptx/$name.ptx -o /dev/null 2>&1 | grep -A2 "entry function 'screen_gen" | grep -v "^--" | sed "s/^/$name: /"
