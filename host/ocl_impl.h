/* ocl_impl.h - what the OpenCL runtime's two files share (ocl.c: devices, program
 * builds and the screen; ocl_gen.c: the generated streams).  Only with OpenCL. */
#ifndef TSUMEGEN_OCL_IMPL_H
#define TSUMEGEN_OCL_IMPL_H
#include "ocl.h"
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    char name[256];      /* "platform: device" */
    char version[128];   /* device version */
    char driver[128];    /* driver version */
} DevInfo;

#define GEN_CHUNK ((size_t)1 << 23)  /* boards per launch: 32 MiB of digests */

struct OclScreen {
    DevInfo dev;
    cl_context ctx;
    cl_program prog;
    cl_kernel kern[2];
    cl_command_queue q[2];
    cl_mem in[2], out[2], w;
    size_t n[2], batch, local;
    unsigned long long priv_mem;  /* CL_KERNEL_PRIVATE_MEM_SIZE, bytes per work-item */
    double build_s;
    int cache_hit;
    char opts[256];               /* build options of the screen program */
    char opts_fallback[256];      /* options to retry with when opts fail to build, or "" */
    int32_t *weights;             /* host copy, for the generated streams' self-test */
    /* generated streams: one program per sc_screen flag set, made on first use;
     * per slot a digest buffer of GEN_CHUNK boards, counters and kept indices */
    cl_program gen_prog[8];
    cl_kernel gen_kern[8], gen_split_k[8], gen_legal_k[8], gen_scan_k[8], gen_mate_k[8], gen_finish_k[8], gen_rest_k[8];
    size_t gen_local[8];
    int gen_split;                /* two passes (legal boards listed first); see screen_gen.cl */
    int gen_staged;               /* pass 2 of the plain screen as scan, mate and finish kernels */
    size_t gen_qcap;              /* its move queue's length if less than a chunk (tests), else 0 */
    cl_mem gen_digest[2], gen_stats[2], gen_kept[2], gen_legal[2], gen_pos[2];
    cl_mem gen_rec[2], gen_queue[2], gen_mate[2];  /* the staged pass 2's records, move queue, answers */
    size_t gen_pos_chunk;         /* boards per chunk in two passes (gen_pos sized for it), 0 = not yet */
    size_t gen_kept_cap;
    double gen_build_s;
    char err[1024];
};

/* A cl call's status; on failure the message into s->err and `goto bad`. */
#define CHK(call, what)                                                            \
    do {                                                                           \
        cl_int st_ = (call);                                                       \
        if (st_ != CL_SUCCESS) { util_fail(s->err, sizeof s->err, "%s: %s", what, ocl_errname(st_)); goto bad; } \
    } while (0)

/* The name of an OpenCL status ("CL_OUT_OF_RESOURCES"). */
const char *ocl_errname(cl_int e);
/* The program src built with s->opts + suffix (from the binary cache when it holds
 * it); when that fails and s has fallback options, those replace s->opts for good. */
cl_program ocl_build_auto(OclScreen *s, const char *src, size_t srclen, const char *suffix);

#endif
