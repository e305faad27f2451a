/* shim.h - what clang's nvptx64-nvidia-nvcl target lacks without libclc: the
 * few OpenCL built-ins the screening kernels call, mapped to NVVM intrinsics
 * (profiling builds only; tsumegen itself goes through the vendor's compiler). */
#define clz(x) ((x) ? (ulong)__builtin_clzl(x) : 64ul)
#define popcount(x) ((ulong)__builtin_popcountl(x))
#define get_local_id(d) ((size_t)__nvvm_read_ptx_sreg_tid_x())
#define get_global_id(d) ((size_t)__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x())
#define atomic_inc(p) __nvvm_atom_add_gen_i((volatile int *)(p), 1)
#define atomic_add(p, v) __nvvm_atom_add_gen_i((volatile int *)(p), (int)(v))
#define barrier(f) __syncthreads()
