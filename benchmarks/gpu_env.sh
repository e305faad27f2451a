# gpu_env.sh - the GPU scripts' common start, sourced after they set $out (their
# output folder): makes $out absolute and creates it, copies everything the script
# prints to $out/NAME.log (NAME: the script's, e.g. gpu_bench), prints the machine
# and its GPUs, makes NVIDIA's OpenCL driver reachable and points the program
# caches at "$out/cache".
# When the NVIDIA driver's OpenCL library exists but no ICD file names it (container
# images often lack /etc/OpenCL/vendors), a private vendors folder is made and
# OCL_ICD_VENDORS points at it; a libOpenCL.so.1 in .ocl/ (Debian's
# ocl-icd-libopencl1) is used when the system has none.  Program caches:
# $TSUMEGEN_CACHE_DIR (tsumegen's, PTX on NVIDIA) and $TSUMEGEN_CACHE_DIR/nv (the
# CUDA driver's JIT cache).
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
mkdir -p "$out"
exec > >(tee "$out/$(basename "$0" .sh).log") 2>&1
echo "== $(date -u +%FT%TZ) $(hostname), $(nproc) cpus"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
if ! ldconfig -p | grep -q 'libOpenCL.so.1' && [ -f .ocl/libOpenCL.so.1 ]; then
    export LD_LIBRARY_PATH="$PWD/.ocl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "ICD loader: .ocl/libOpenCL.so.1"
fi
if [ -z "$(ls /etc/OpenCL/vendors 2>/dev/null)" ]; then
    lib=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
    [ -z "$lib" ] && lib=$(find /usr/local/nvidia /usr/lib* -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
    echo "NVIDIA OpenCL library: ${lib:-not found}"
    if [ -n "$lib" ]; then
        mkdir -p "$out/vendors"
        echo "$lib" > "$out/vendors/nvidia.icd"
        export OCL_ICD_VENDORS="$out/vendors"
    fi
fi
export TSUMEGEN_CACHE_DIR=${TSUMEGEN_CACHE_DIR:-$out/cache}
mkdir -p "$TSUMEGEN_CACHE_DIR/nv"
export CUDA_CACHE_PATH="$TSUMEGEN_CACHE_DIR/nv" CUDA_CACHE_MAXSIZE=4294967296
