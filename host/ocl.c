/* ocl.c - OpenCL runtime for the screening kernel (see ocl.h). */
#include "ocl.h"
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#ifndef TG_HAVE_OPENCL

struct OclScreen { int unused; };
int ocl_list_devices(FILE *f) {
    fputs("no OpenCL: tsumegen was built without the OpenCL headers (the OpenMP path is used)\n", f);
    return 0;
}
OclScreen *ocl_screen_open(const char *spec, const int32_t *weights, size_t batch, char *err, size_t errlen) {
    (void)weights; (void)batch;
    const char *env = getenv("TSUMEGEN_DEVICE");
    if (!spec) spec = env;
    if (spec && (!strcmp(spec, "omp") || !strcmp(spec, "none"))) snprintf(err, errlen, "%s", "");
    else snprintf(err, errlen, "built without OpenCL");
    return NULL;
}
OclScreen *ocl_gen_open(const char *spec, const int32_t *weights, char *err, size_t errlen) {
    return ocl_screen_open(spec, weights, 0, err, errlen);
}
void ocl_screen_close(OclScreen *s) { (void)s; }
const char *ocl_screen_device(const OclScreen *s) { (void)s; return "none"; }
size_t ocl_screen_batch(const OclScreen *s) { (void)s; return 0; }
double ocl_screen_build_seconds(const OclScreen *s) { (void)s; return 0; }
int ocl_screen_cache_hit(const OclScreen *s) { (void)s; return 0; }
unsigned long long ocl_screen_private_mem(const OclScreen *s) { (void)s; return 0; }
int ocl_screen_submit(OclScreen *s, int slot, const ScBoard *in, size_t n, int flags) {
    (void)s; (void)slot; (void)in; (void)n; (void)flags; return -1;
}
int ocl_screen_wait(OclScreen *s, int slot, ScResult *out) { (void)s; (void)slot; (void)out; return -1; }
int ocl_screen_run(OclScreen *s, const ScBoard *in, ScResult *out, size_t n, int flags) {
    (void)s; (void)in; (void)out; (void)n; (void)flags; return -1;
}
int ocl_screen_gen(OclScreen *s, const ScGenJob *job, size_t local, uint32_t *digest, uint64_t *kept,
                   size_t max_kept, ScGenStats *st) {
    (void)s; (void)job; (void)local; (void)digest; (void)kept; (void)max_kept; (void)st; return -1;
}
double ocl_screen_gen_build_seconds(const OclScreen *s) { (void)s; return 0; }
void ocl_screen_gen_set_split(OclScreen *s, int split) { (void)s; (void)split; }
int ocl_screen_gen_split(const OclScreen *s) { (void)s; return 0; }
const char *ocl_screen_error(const OclScreen *s) { (void)s; return "built without OpenCL"; }
const char *ocl_screen_options(const OclScreen *s) { (void)s; return ""; }

#else

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ocl_impl.h"
#include "screen.h"
#include "screen_src.inc"  /* SCREEN_CL_SRC: kernels/screen.cl with core/ inlined */
#include "util.h"

const char *ocl_errname(cl_int e) {
    switch (e) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_HOST_PTR) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    E(CL_INVALID_IMAGE_SIZE) E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL_DEFINITION) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT)
    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_INVALID_PROPERTY) E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS)
    E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform installed)";
    default: return "unknown OpenCL error";
    }
}

#define MAX_DEVS 32


static int enum_devices(DevInfo *d, int max, cl_int *status) {
    cl_platform_id plats[8];
    cl_uint np = 0;
    int n = 0;
    *status = clGetPlatformIDs(8, plats, &np);
    if (*status != CL_SUCCESS) return 0;
    for (cl_uint p = 0; p < np && p < 8; p++) {
        cl_device_id devs[16];
        cl_uint nd = 0;
        char pname[128] = "";
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) continue;
        for (cl_uint i = 0; i < nd && i < 16 && n < max; i++, n++) {
            char dname[120] = "";
            d[n].platform = plats[p];
            d[n].device = devs[i];
            clGetDeviceInfo(devs[i], CL_DEVICE_TYPE, sizeof d[n].type, &d[n].type, NULL);
            clGetDeviceInfo(devs[i], CL_DEVICE_NAME, sizeof dname, dname, NULL);
            snprintf(d[n].name, sizeof d[n].name, "%s: %s", pname, dname);
            d[n].version[0] = d[n].driver[0] = 0;
            clGetDeviceInfo(devs[i], CL_DEVICE_VERSION, sizeof d[n].version, d[n].version, NULL);
            clGetDeviceInfo(devs[i], CL_DRIVER_VERSION, sizeof d[n].driver, d[n].driver, NULL);
        }
    }
    return n;
}

static const char *type_name(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU) return "gpu";
    if (t & CL_DEVICE_TYPE_CPU) return "cpu";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

int ocl_list_devices(FILE *f) {
    DevInfo d[MAX_DEVS];
    cl_int st;
    int n = enum_devices(d, MAX_DEVS, &st);
    if (st != CL_SUCCESS) {
        fprintf(f, "no OpenCL platform (%s): the OpenMP path is used\n", ocl_errname(st));
        return 0;
    }
    if (!n) fputs("no OpenCL device: the OpenMP path is used\n", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%d  %-4s %s  [%s; driver %s]\n", i, type_name(d[i].type), d[i].name, d[i].version, d[i].driver);
    return n;
}

static int contains_ci(const char *hay, const char *needle) {
    size_t nl = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < nl && hay[i] && (hay[i] | 32) == (needle[i] | 32)) i++;
        if (i == nl) return 1;
    }
    return 0;
}

/* Chooses a device by spec; -1 with err if none. */
static int choose(const DevInfo *d, int n, const char *spec, char *err, size_t el) {
    if (!n) return util_fail(err, el, "no OpenCL device");
    if (!strcmp(spec, "auto")) {
        for (int i = 0; i < n; i++) if (d[i].type & CL_DEVICE_TYPE_GPU) return i;
        return 0;
    }
    if (!strcmp(spec, "gpu") || !strcmp(spec, "cpu")) {
        cl_device_type t = spec[0] == 'g' ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
        for (int i = 0; i < n; i++) if (d[i].type & t) return i;
        return util_fail(err, el, "no OpenCL %s device (see tsumegen devices)", spec);
    }
    char *end;
    long k = strtol(spec, &end, 10);
    if (*spec && !*end) {
        if (k < 0 || k >= n) return util_fail(err, el, "device %ld does not exist (there are %d; see tsumegen devices)", k, n);
        return (int)k;
    }
    for (int i = 0; i < n; i++) if (contains_ci(d[i].name, spec)) return i;
    return util_fail(err, el, "no OpenCL device matches '%s' (see tsumegen devices)", spec);
}

/* ---- program build with a binary cache --------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001B3ull;
    return h;
}

static int cache_path(char *out, size_t len, uint64_t key) {
    const char *dir = getenv("TSUMEGEN_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char base[768];
    if (dir && !strcmp(dir, "off")) return -1;
    if (dir && *dir) snprintf(base, sizeof base, "%s", dir);
    else if (xdg && *xdg) snprintf(base, sizeof base, "%s/tsumegen", xdg);
    else if (home && *home) {
        char parent[700];
        snprintf(parent, sizeof parent, "%.600s/.cache", home);
        mkdir(parent, 0755);
        snprintf(base, sizeof base, "%s/tsumegen", parent);
    } else return -1;
    if (mkdir(base, 0755) && errno != EEXIST) return -1;
    snprintf(out, len, "%s/screen-%016llx.bin", base, (unsigned long long)key);
    return 0;
}

static cl_program load_cached(OclScreen *s, const char *path, const char *opts) {
    cl_program prog = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bin = len > 0 ? malloc((size_t)len) : NULL;
    if (bin && fread(bin, 1, (size_t)len, f) == (size_t)len) {
        size_t blen = (size_t)len;
        const unsigned char *bp = bin;
        cl_int st, bst;
        prog = clCreateProgramWithBinary(s->ctx, 1, &s->dev.device, &blen, &bp, &bst, &st);
        if (prog && (st != CL_SUCCESS || bst != CL_SUCCESS ||
                     clBuildProgram(prog, 1, &s->dev.device, opts, NULL, NULL) != CL_SUCCESS)) {
            clReleaseProgram(prog);
            prog = NULL;
        }
    }
    free(bin);
    fclose(f);
    return prog;
}

static void save_cached(cl_program prog, const char *path) {
    size_t blen = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof blen, &blen, NULL) != CL_SUCCESS || !blen) return;
    unsigned char *bin = malloc(blen);
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
        char tmp[1100];
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
        FILE *f = fopen(tmp, "wb");
        if (f) {  /* write then rename: readers never see a partial file */
            int ok = fwrite(bin, 1, blen, f) == blen;
            ok &= fclose(f) == 0;
            if (!ok || rename(tmp, path)) remove(tmp);
        }
    }
    free(bin);
}

static cl_program build_program(OclScreen *s, const char *src, size_t srclen, const char *opts) {
    cl_int st;
    uint64_t key = 0xcbf29ce484222325ull;
    key = fnv(key, src, srclen);
    key = fnv(key, opts, strlen(opts) + 1);
    key = fnv(key, s->dev.name, strlen(s->dev.name) + 1);
    key = fnv(key, s->dev.version, strlen(s->dev.version) + 1);
    key = fnv(key, s->dev.driver, strlen(s->dev.driver) + 1);
    char path[1024];
    int have_path = cache_path(path, sizeof path, key) == 0;
    double t0 = util_now();
    cl_program prog = have_path ? load_cached(s, path, opts) : NULL;
    if (prog) {
        s->cache_hit = 1;
        s->build_s = util_now() - t0;
        return prog;
    }
    prog = clCreateProgramWithSource(s->ctx, 1, &src, NULL, &st);
    if (st != CL_SUCCESS) { util_fail(s->err, sizeof s->err, "clCreateProgramWithSource: %s", ocl_errname(st)); return NULL; }
    st = clBuildProgram(prog, 1, &s->dev.device, opts, NULL, NULL);
    if (st != CL_SUCCESS) {
        size_t loglen = 0;
        clGetProgramBuildInfo(prog, s->dev.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
        char *log = calloc(1, loglen + 1);
        clGetProgramBuildInfo(prog, s->dev.device, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
        util_fail(s->err, sizeof s->err, "clBuildProgram: %s (options %s); build log:\n%.800s", ocl_errname(st), opts, log);
        free(log);
        clReleaseProgram(prog);
        return NULL;
    }
    s->build_s = util_now() - t0;
    if (have_path) save_cached(prog, path);
    return prog;
}

/* (ocl_impl.h) The fallback options put the tables in constant memory. */
cl_program ocl_build_auto(OclScreen *s, const char *src, size_t srclen, const char *suffix) {
    char opts[400];
    snprintf(opts, sizeof opts, "%s%s", s->opts, suffix);
    cl_program p = build_program(s, src, srclen, opts);
    if (p || !s->opts_fallback[0]) return p;
    snprintf(s->opts, sizeof s->opts, "%s", s->opts_fallback);
    s->opts_fallback[0] = 0;
    snprintf(opts, sizeof opts, "%s%s", s->opts, suffix);
    return build_program(s, src, srclen, opts);
}

/* ---- open / close ------------------------------------------------------ */


static int self_test(OclScreen *s, const int32_t *weights);

static OclScreen *open_device(const char *spec, const int32_t *weights, size_t batch, int with_screen, char *err,
                              size_t errlen);
OclScreen *ocl_screen_open(const char *spec, const int32_t *weights, size_t batch, char *err, size_t errlen) {
    return open_device(spec, weights, batch, 1, err, errlen);
}
OclScreen *ocl_gen_open(const char *spec, const int32_t *weights, char *err, size_t errlen) {
    return open_device(spec, weights, 0, 0, err, errlen);
}

static OclScreen *open_device(const char *spec, const int32_t *weights, size_t batch, int with_screen, char *err,
                              size_t errlen) {
    DevInfo d[MAX_DEVS];
    cl_int st;
    if (!spec) spec = getenv("TSUMEGEN_DEVICE");
    if (!spec || !*spec) spec = "auto";
    if (!strcmp(spec, "omp") || !strcmp(spec, "none")) { snprintf(err, errlen, "%s", ""); return NULL; }
    int n = enum_devices(d, MAX_DEVS, &st);
    if (st != CL_SUCCESS) { util_fail(err, errlen, "no OpenCL platform (%s)", ocl_errname(st)); return NULL; }
    int k = choose(d, n, spec, err, errlen);
    if (k < 0) return NULL;
    OclScreen *s = calloc(1, sizeof *s);
    s->dev = d[k];
    s->batch = batch ? batch : 65536;
    s->ctx = clCreateContext(NULL, 1, &s->dev.device, NULL, NULL, &st);
    CHK(st, "clCreateContext");
    for (int i = 0; i < 2; i++) {
        s->q[i] = clCreateCommandQueue(s->ctx, s->dev.device, 0, &st);
        CHK(st, "clCreateCommandQueue");
        s->in[i] = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY, s->batch * sizeof(ScBoard), NULL, &st);
        CHK(st, "clCreateBuffer(boards)");
        s->out[i] = clCreateBuffer(s->ctx, CL_MEM_WRITE_ONLY, s->batch * sizeof(ScResult), NULL, &st);
        CHK(st, "clCreateBuffer(results)");
    }
    s->weights = malloc(SC_W_NB * sizeof(int32_t));
    memcpy(s->weights, weights, SC_W_NB * sizeof(int32_t));
    s->w = clCreateBuffer(s->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, SC_W_NB * sizeof(int32_t), (void *)weights, &st);
    CHK(st, "clCreateBuffer(weights)");
    {
        const char *extra = getenv("TSUMEGEN_CL_OPTIONS");
        int std_given = extra && strstr(extra, "-cl-std=");
        /* GPUs of OpenCL 2.0 or later first get the tables in global memory (twice
         * the boards/s of constant memory on an H100, benchmarks/RESULTS.md); a
         * device whose compiler refuses program-scope global variables falls
         * back to OpenCL C 1.2 once (build_auto) */
        const char *std = "-cl-std=CL1.2 ";
        if (!std_given && (s->dev.type & CL_DEVICE_TYPE_GPU)) {
            if (!strncmp(s->dev.version, "OpenCL 3", 8)) std = "-cl-std=CL3.0 -DTG_TABLES_GLOBAL ";
            else if (!strncmp(s->dev.version, "OpenCL 2", 8)) std = "-cl-std=CL2.0 -DTG_TABLES_GLOBAL ";
        }
        snprintf(s->opts, sizeof s->opts, "%s-DTG_DEVICE_GPU=%d -DTG_DEVICE_CPU=%d -DSC_ABI=%d%s%.120s",
                 std_given ? "" : std,
                 (s->dev.type & CL_DEVICE_TYPE_GPU) != 0, (s->dev.type & CL_DEVICE_TYPE_CPU) != 0,
                 (int)(sizeof(ScBoard) * 1000 + sizeof(ScResult)), extra && *extra ? " " : "", extra ? extra : "");
        if (strstr(s->opts, "-DTG_TABLES_GLOBAL") && !std_given)
            snprintf(s->opts_fallback, sizeof s->opts_fallback, "-cl-std=CL1.2 %s", strstr(s->opts, "-DTG_DEVICE_GPU"));
        /* two passes on GPUs, where a warp waits for its slowest lane; one on CPUs */
        const char *sp = getenv("TSUMEGEN_GEN_SPLIT");
        s->gen_split = sp && *sp ? atoi(sp) != 0 : (s->dev.type & CL_DEVICE_TYPE_GPU) != 0;
        /* the staged pass 2 everywhere unless TSUMEGEN_GEN_STAGED=0 (to compare) */
        const char *sg = getenv("TSUMEGEN_GEN_STAGED");
        s->gen_staged = sg && *sg ? atoi(sg) != 0 : 1;
        /* TSUMEGEN_GEN_QCAP: a short move queue, so tests reach the overflow path */
        const char *qc = getenv("TSUMEGEN_GEN_QCAP");
        s->gen_qcap = qc && atol(qc) > 0 ? (size_t)atol(qc) : 0;
        if (!with_screen) return s;  /* generated streams only: their programs are built on use */
        s->prog = ocl_build_auto(s, SCREEN_CL_SRC, sizeof SCREEN_CL_SRC, "");
        if (!s->prog) goto bad;
    }
    for (int i = 0; i < 2; i++) {
        s->kern[i] = clCreateKernel(s->prog, "screen", &st);
        CHK(st, "clCreateKernel(screen)");
        CHK(clSetKernelArg(s->kern[i], 0, sizeof(cl_mem), &s->in[i]), "clSetKernelArg(0)");
        CHK(clSetKernelArg(s->kern[i], 1, sizeof(cl_mem), &s->out[i]), "clSetKernelArg(1)");
        CHK(clSetKernelArg(s->kern[i], 2, sizeof(cl_mem), &s->w), "clSetKernelArg(2)");
    }
    {
        size_t wg = 0;
        CHK(clGetKernelWorkGroupInfo(s->kern[0], s->dev.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
            "clGetKernelWorkGroupInfo");
        s->local = wg >= 64 ? 64 : (wg ? wg : 1);
        cl_ulong pm = 0;
        clGetKernelWorkGroupInfo(s->kern[0], s->dev.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL);
        s->priv_mem = pm;
    }
    if (self_test(s, weights)) goto bad;
    return s;
bad:
    snprintf(err, errlen, "%s: %s", s->dev.name, s->err);
    ocl_screen_close(s);
    return NULL;
}

void ocl_screen_close(OclScreen *s) {
    if (!s) return;
    for (int i = 0; i < 2; i++) {
        if (s->q[i]) clFinish(s->q[i]);
        if (s->kern[i]) clReleaseKernel(s->kern[i]);
        if (s->in[i]) clReleaseMemObject(s->in[i]);
        if (s->out[i]) clReleaseMemObject(s->out[i]);
        if (s->q[i]) clReleaseCommandQueue(s->q[i]);
    }
    for (int i = 0; i < 8; i++) {
        if (s->gen_kern[i]) clReleaseKernel(s->gen_kern[i]);
        if (s->gen_split_k[i]) clReleaseKernel(s->gen_split_k[i]);
        if (s->gen_legal_k[i]) clReleaseKernel(s->gen_legal_k[i]);
        if (s->gen_scan_k[i]) clReleaseKernel(s->gen_scan_k[i]);
        if (s->gen_mate_k[i]) clReleaseKernel(s->gen_mate_k[i]);
        if (s->gen_finish_k[i]) clReleaseKernel(s->gen_finish_k[i]);
        if (s->gen_rest_k[i]) clReleaseKernel(s->gen_rest_k[i]);
        if (s->gen_prog[i]) clReleaseProgram(s->gen_prog[i]);
    }
    for (int i = 0; i < 2; i++) {
        if (s->gen_digest[i]) clReleaseMemObject(s->gen_digest[i]);
        if (s->gen_stats[i]) clReleaseMemObject(s->gen_stats[i]);
        if (s->gen_kept[i]) clReleaseMemObject(s->gen_kept[i]);
        if (s->gen_legal[i]) clReleaseMemObject(s->gen_legal[i]);
        if (s->gen_pos[i]) clReleaseMemObject(s->gen_pos[i]);
        if (s->gen_rec[i]) clReleaseMemObject(s->gen_rec[i]);
        if (s->gen_queue[i]) clReleaseMemObject(s->gen_queue[i]);
        if (s->gen_mate[i]) clReleaseMemObject(s->gen_mate[i]);
    }
    if (s->w) clReleaseMemObject(s->w);
    if (s->prog) clReleaseProgram(s->prog);
    if (s->ctx) clReleaseContext(s->ctx);
    free(s->weights);
    free(s);
}

const char *ocl_screen_device(const OclScreen *s) { return s->dev.name; }
size_t ocl_screen_batch(const OclScreen *s) { return s->batch; }
double ocl_screen_build_seconds(const OclScreen *s) { return s->build_s; }
int ocl_screen_cache_hit(const OclScreen *s) { return s->cache_hit; }
unsigned long long ocl_screen_private_mem(const OclScreen *s) { return s->priv_mem; }
const char *ocl_screen_error(const OclScreen *s) { return s->err; }
const char *ocl_screen_options(const OclScreen *s) { return s->opts; }

/* ---- running ----------------------------------------------------------- */

int ocl_screen_submit(OclScreen *s, int slot, const ScBoard *in, size_t n, int flags) {
    cl_int fl = flags, nn = (cl_int)n;
    if (!s->prog) return util_fail(s->err, sizeof s->err, "the screen program was not built (device opened for generated streams only)");
    if (n > s->batch) return util_fail(s->err, sizeof s->err, "batch of %zu boards exceeds %zu", n, s->batch);
    s->n[slot] = n;
    if (!n) return 0;
    /* the upload copies `in` before returning only when blocking; keep it blocking
     * so callers may reuse their buffer, the kernel and download stay queued */
    CHK(clEnqueueWriteBuffer(s->q[slot], s->in[slot], CL_TRUE, 0, n * sizeof(ScBoard), in, 0, NULL, NULL), "clEnqueueWriteBuffer");
    CHK(clSetKernelArg(s->kern[slot], 3, sizeof fl, &fl), "clSetKernelArg(3)");
    CHK(clSetKernelArg(s->kern[slot], 4, sizeof nn, &nn), "clSetKernelArg(4)");
    size_t local = s->local, global = (n + local - 1) / local * local;
    CHK(clEnqueueNDRangeKernel(s->q[slot], s->kern[slot], 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    CHK(clFlush(s->q[slot]), "clFlush");
    return 0;
bad:
    return -1;
}

int ocl_screen_wait(OclScreen *s, int slot, ScResult *out) {
    size_t n = s->n[slot];
    if (!n) return 0;
    CHK(clEnqueueReadBuffer(s->q[slot], s->out[slot], CL_TRUE, 0, n * sizeof(ScResult), out, 0, NULL, NULL), "clEnqueueReadBuffer");
    s->n[slot] = 0;
    return 0;
bad:
    return -1;
}

int ocl_screen_run(OclScreen *s, const ScBoard *in, ScResult *out, size_t n, int flags) {
    size_t next = 0, start[2] = {0, 0};
    int slot = 0, busy[2] = {0, 0};
    while (next < n || busy[0] || busy[1]) {  /* one slot computes while the other is refilled */
        if (busy[slot]) {
            if (ocl_screen_wait(s, slot, out + start[slot])) return -1;
            busy[slot] = 0;
        }
        if (next < n) {
            size_t k = n - next < s->batch ? n - next : s->batch;
            if (ocl_screen_submit(s, slot, in + next, k, flags)) return -1;
            start[slot] = next;
            busy[slot] = 1;
            next += k;
        }
        slot ^= 1;
    }
    return 0;
}

/* ---- self-test --------------------------------------------------------- */

/* A few hundred random boards and every flag combination, against the CPU
 * reference; also fixes the struct layout agreement between host and device. */
static int self_test(OclScreen *s, const int32_t *weights) {
    enum { N = 512 };
    ScBoard *b = malloc(N * sizeof *b);
    ScResult *r = malloc(N * sizeof *r), *ref = malloc(N * sizeof *ref);
    int rc = 0;
    screen_random_boards(b, N, 0x5e1f7e57ull);
    int flags[2] = {SC_DO_MATE3 | SC_DO_FUTILE, SC_STRICT_HANDS};
    for (int f = 0; f < 2 && !rc; f++) {
        memset(r, 0xAB, N * sizeof *r);
        if (ocl_screen_run(s, b, r, N, flags[f])) { rc = -1; break; }
        screen_cpu(b, ref, N, weights, flags[f], 1);
        for (int i = 0; i < N; i++)
            if (memcmp(&r[i], &ref[i], sizeof *r)) {
                rc = util_fail(s->err, sizeof s->err, "self-test failed: board %d (flags %d) differs from the CPU reference "
                          "(device: reason %d checks %d mate1 %d mate3 %d points %d; reference: %d %d %d %d %d)", i, flags[f],
                          r[i].reason, r[i].checks, r[i].n_mate1, r[i].mate3, r[i].points,
                          ref[i].reason, ref[i].checks, ref[i].n_mate1, ref[i].mate3, ref[i].points);
                break;
            }
    }
    free(b); free(r); free(ref);
    return rc;
}

#endif

/* ---- shared by both builds --------------------------------------------- */

void ocl_set_cl_threads(int n) {
    char v[16];
    snprintf(v, sizeof v, "%d", n);
    setenv("POCL_CPU_MAX_CU_COUNT", v, 1);   /* pocl >= 4 */
    setenv("POCL_MAX_PTHREAD_COUNT", v, 1);  /* pocl 3 (Debian 12) */
}

OclScreen *ocl_screen_open_cmd(const char *cmd, const char *spec, const int32_t *weights, size_t batch,
                               int threads, int say, int *fatal) {
    char err[2048];
    const char *name = spec ? spec : getenv("TSUMEGEN_DEVICE");
    int explicit_dev = name && *name && strcmp(name, "auto");
#ifdef _OPENMP
    int nt = threads > 0 ? threads : omp_get_max_threads();
#else
    int nt = 1;
    (void)threads;
#endif
    *fatal = 0;
    OclScreen *s = (say & OCL_GEN_ONLY) ? ocl_gen_open(spec, weights, err, sizeof err)
                                         : ocl_screen_open(spec, weights, batch, err, sizeof err);
    if (s && (say & OCL_GEN_ONLY)) {
        if (say & OCL_SAY_DEVICE)
            fprintf(stderr, "tsumegen %s: device %s (generated streams only; options %s)\n", cmd, ocl_screen_device(s),
                    ocl_screen_options(s));
        return s;
    }
    if (s) {
        if (say & OCL_SAY_DEVICE)
            fprintf(stderr, "tsumegen %s: device %s (program %s in %.3f s; %llu bytes private memory per work-item; "
                    "options %s)\n", cmd, ocl_screen_device(s), ocl_screen_cache_hit(s) ? "loaded from cache" : "built",
                    ocl_screen_build_seconds(s), ocl_screen_private_mem(s), ocl_screen_options(s));
        return s;
    }
    if (!err[0]) {  /* omp asked for */
        if (say & OCL_SAY_OMP) fprintf(stderr, "tsumegen %s: device omp: the OpenMP path (%d thread%s)\n", cmd, nt, nt == 1 ? "" : "s");
        return NULL;
    }
    /* an explicit device that fails is an error, unless this build has no OpenCL at all */
    if (explicit_dev && strcmp(err, "built without OpenCL")) {
        fprintf(stderr, "tsumegen %s: %s\n", cmd, err);
        *fatal = 1;
        return NULL;
    }
    if (say & OCL_SAY_FALLBACK)
        fprintf(stderr, "tsumegen %s: %s; using the OpenMP path (%d thread%s)\n", cmd, err, nt, nt == 1 ? "" : "s");
    return NULL;
}
