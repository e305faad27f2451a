/* ocl.h - OpenCL runtime for the screening kernel (kernels/screen.cl).
 *
 * Device choice: a spec from --device, else $TSUMEGEN_DEVICE, else "auto":
 *   auto   the first GPU, else the first CPU/other device (pocl), else none
 *   gpu | cpu     the first device of that type
 *   N      the N-th device of `tsumegen devices`
 *   TEXT   the first device whose "platform: name" contains TEXT (case-insensitive)
 *   omp | none    no OpenCL: the caller uses the OpenMP path
 * The program is built with -D flags describing the device, cached as a binary
 * under $TSUMEGEN_CACHE_DIR (else $XDG_CACHE_HOME/tsumegen, else
 * ~/.cache/tsumegen; "off" disables) keyed by a hash of source, options, device,
 * device version and driver version, and checked at start-up against the CPU
 * reference.  Every cl* error is reported by name (build log included).
 * $TSUMEGEN_CL_OPTIONS is appended to the build options (part of the cache key),
 * for tuning a device: e.g. "-cl-nv-maxrregcount=96" on NVIDIA, or
 * "-cl-std=CL3.0 -DTG_TABLES_GLOBAL" (tables in global memory, core/platform.h)
 * where program-scope global variables exist.
 *
 * Without TG_HAVE_OPENCL (no OpenCL headers at build time) every function here
 * reports "built without OpenCL" and callers use the OpenMP path. */
#ifndef TSUMEGEN_OCL_H
#define TSUMEGEN_OCL_H
#include <stddef.h>
#include <stdio.h>
#include "screen.h"  /* host/screen.h: ScBoard, ScResult, ScGenJob */

typedef struct OclScreen OclScreen;

/* Lists every OpenCL device (index, type, platform, name, version); returns the
 * number of devices (0 also when OpenCL is missing, with a line saying why). */
int ocl_list_devices(FILE *f);

/* Opens the device named by spec (NULL: $TSUMEGEN_DEVICE or "auto"), builds or
 * loads the program, uploads the weights and runs the self-test.  Returns NULL
 * with a message in err when there is no usable device (spec "omp" gives NULL
 * with err ""). */
OclScreen *ocl_screen_open(const char *spec, const int32_t *weights, size_t batch, char *err, size_t errlen);
/* The same device, for ocl_screen_gen alone: the screen program is not built
 * (submit/run then fail with a message). */
OclScreen *ocl_gen_open(const char *spec, const int32_t *weights, char *err, size_t errlen);
void ocl_screen_close(OclScreen *s);
const char *ocl_screen_device(const OclScreen *s);   /* "platform: device" */
size_t ocl_screen_batch(const OclScreen *s);          /* boards per slot */
double ocl_screen_build_seconds(const OclScreen *s);  /* program build/load time */
int ocl_screen_cache_hit(const OclScreen *s);
unsigned long long ocl_screen_private_mem(const OclScreen *s);  /* per work-item, as reported */

/* Double buffering: two slots, each with its own queue and buffers.  submit
 * copies n <= batch boards and enqueues upload, kernel and download without
 * waiting; wait blocks until that slot's results are in out.  0 or -1 (err). */
int ocl_screen_submit(OclScreen *s, int slot, const ScBoard *in, size_t n, int flags);
int ocl_screen_wait(OclScreen *s, int slot, ScResult *out);

/* Whole array, pipelined through both slots.  0 or -1. */
int ocl_screen_run(OclScreen *s, const ScBoard *in, ScResult *out, size_t n, int flags);

/* A generated stream (core/gen.h) made and screened on the device: nothing is
 * uploaded, and only digests (when digest is not NULL), counters and kept
 * indices come back.  The program for job->flags is built (or loaded from the
 * cache) on first use, with the flags as constants.  local: work-group size (0 =
 * the default).  kept gets min(kept count, max_kept) indices in increasing order
 * (when more pass than max_kept, which ones are stored is not defined); digest,
 * kept and st mean what screen_gen_cpu's do, and agree with it bit for bit
 * whenever st->kept <= max_kept.  0 or -1. */
int ocl_screen_gen(OclScreen *s, const ScGenJob *job, size_t local, uint32_t *digest, uint64_t *kept,
                   size_t max_kept, ScGenStats *st);
/* One pass, or two (legal boards listed first, then screened together: warps
 * of like cost; kernels/screen_gen.cl).  Default: two on GPUs, one elsewhere;
 * $TSUMEGEN_GEN_SPLIT=0/1 overrides.  The results are the same either way. */
void ocl_screen_gen_set_split(OclScreen *s, int split);
int ocl_screen_gen_split(const OclScreen *s);
/* Seconds the last ocl_screen_gen spent building or loading its program. */
double ocl_screen_gen_build_seconds(const OclScreen *s);

/* The build options in force (after any fallback). */
const char *ocl_screen_options(const OclScreen *s);

/* The last error message of s. */
const char *ocl_screen_error(const OclScreen *s);

/* --cl-threads N: pocl's thread count.  pocl reads it from the environment when it
 * starts, so call this before the first OpenCL call of the process. */
void ocl_set_cl_threads(int n);

/* What ocl_screen_open_cmd says on stderr, as "tsumegen CMD: ..." lines. */
#define OCL_SAY_FALLBACK 1  /* no usable device: why, and that the OpenMP path runs */
#define OCL_SAY_DEVICE 2    /* the device opened: name, program built or cached, private memory */
#define OCL_SAY_OMP 4       /* omp asked for: that the OpenMP path runs */
#define OCL_GEN_ONLY 8      /* not a message: open with ocl_gen_open */

/* The device policy the commands share (screen, bench screen, compose): opens spec
 * as ocl_screen_open does.  NULL with *fatal = 0 means "use the OpenMP path"
 * (screen_cpu); NULL with *fatal = 1 means a device named explicitly (by spec or
 * $TSUMEGEN_DEVICE, not auto) is unusable in a build with OpenCL: the error was
 * printed and the command should exit 2.  threads: the OpenMP threads the caller
 * will use (0 = OpenMP's default), for the messages. */
OclScreen *ocl_screen_open_cmd(const char *cmd, const char *spec, const int32_t *weights, size_t batch,
                               int threads, int say, int *fatal);

#endif
