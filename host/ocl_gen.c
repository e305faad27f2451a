/* ocl_gen.c - the generated streams on OpenCL: boards made, screened and digested
 * on the device (kernels/screen_gen.cl), one program per sc_screen flag set, each
 * checked against the CPU reference on its first use (see ocl.h). */
#include "ocl.h"
#ifdef TG_HAVE_OPENCL
#include <stdlib.h>
#include <string.h>
#include "ocl_impl.h"
#include "screen.h"
#include "screen_gen_src.inc"  /* SCREEN_GEN_CL_SRC: kernels/screen_gen.cl with core/ inlined */
#include "util.h"

double ocl_screen_gen_build_seconds(const OclScreen *s) { return s->gen_build_s; }
void ocl_screen_gen_set_split(OclScreen *s, int split) { s->gen_split = split != 0; }
int ocl_screen_gen_split(const OclScreen *s) { return s->gen_split; }

/* The kernel for sc_screen flags f, built on first use. */
static cl_kernel gen_kernel(OclScreen *s, int f) {
    cl_int st;
    if (s->gen_kern[f]) return s->gen_kern[f];
    char suffix[32];
    snprintf(suffix, sizeof suffix, " -DSC_GEN_FLAGS=%d", f);
    double t0 = util_now();
    s->gen_prog[f] = ocl_build_auto(s, SCREEN_GEN_CL_SRC, sizeof SCREEN_GEN_CL_SRC, suffix);
    s->gen_build_s = util_now() - t0;
    if (!s->gen_prog[f]) return NULL;
    s->gen_kern[f] = clCreateKernel(s->gen_prog[f], "screen_gen", &st);
    if (st != CL_SUCCESS) { util_fail(s->err, sizeof s->err, "clCreateKernel(screen_gen): %s", ocl_errname(st)); return NULL; }
    s->gen_split_k[f] = clCreateKernel(s->gen_prog[f], "screen_gen_split", &st);
    if (st == CL_SUCCESS) s->gen_legal_k[f] = clCreateKernel(s->gen_prog[f], "screen_gen_legal", &st);
    if (st == CL_SUCCESS) s->gen_scan_k[f] = clCreateKernel(s->gen_prog[f], "screen_gen_scan", &st);
    if (st == CL_SUCCESS) s->gen_mate_k[f] = clCreateKernel(s->gen_prog[f], "screen_gen_mate", &st);
    if (st == CL_SUCCESS) s->gen_finish_k[f] = clCreateKernel(s->gen_prog[f], "screen_gen_finish", &st);
    if (st == CL_SUCCESS) s->gen_rest_k[f] = clCreateKernel(s->gen_prog[f], "screen_gen_rest", &st);
    if (st != CL_SUCCESS) { util_fail(s->err, sizeof s->err, "clCreateKernel(screen_gen pass 2): %s", ocl_errname(st)); return NULL; }
    /* default work-group size: 256 on GPUs (the best of 32..256 measured on an
     * H100, benchmarks/RESULTS.md), 64 elsewhere, within what the kernel allows */
    size_t wg = 0, want = (s->dev.type & CL_DEVICE_TYPE_GPU) ? 256 : 64;
    clGetKernelWorkGroupInfo(s->gen_kern[f], s->dev.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    s->gen_local[f] = wg >= want ? want : wg >= 32 ? wg / 32 * 32 : wg ? wg : 1;
    for (int i = 0; i < 2 && !s->gen_digest[i]; i++) {
        s->gen_digest[i] = clCreateBuffer(s->ctx, CL_MEM_WRITE_ONLY, GEN_CHUNK * sizeof(cl_uint), NULL, &st);
        if (st == CL_SUCCESS) s->gen_stats[i] = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, 8 * sizeof(cl_uint), NULL, &st);
        if (st == CL_SUCCESS) s->gen_legal[i] = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, GEN_CHUNK * sizeof(cl_uint), NULL, &st);
        if (st != CL_SUCCESS) { util_fail(s->err, sizeof s->err, "clCreateBuffer(gen): %s", ocl_errname(st)); return NULL; }
    }
    return s->gen_kern[f];
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Kernel arguments as (size, address) pairs, set in order, then one launch. */
typedef struct { size_t size; const void *ptr; } KArg;
#define KA(x) {sizeof(x), &(x)}
static int launch(OclScreen *s, cl_command_queue q, cl_kernel k, const char *name, const KArg *a, int n,
                  size_t global, size_t local) {
    for (int i = 0; i < n; i++) {
        cl_int st = clSetKernelArg(k, (cl_uint)i, a[i].size, a[i].ptr);
        if (st != CL_SUCCESS) return util_fail(s->err, sizeof s->err, "clSetKernelArg(%s, %d): %s", name, i, ocl_errname(st));
    }
    cl_int st = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (st != CL_SUCCESS) return util_fail(s->err, sizeof s->err, "clEnqueueNDRangeKernel(%s): %s", name, ocl_errname(st));
    return 0;
}

static int gen_run(OclScreen *s, int split, const ScGenJob *job, size_t local, uint32_t *digest, uint64_t *kept,
                   size_t max_kept, ScGenStats *st) {
    int f = job->flags & 7;
    cl_kernel k = s->gen_kern[f];
    static const cl_uint zero[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    cl_uint cnt[2][8];
    size_t len[2] = {0, 0}, nk = 0;
    int busy[2] = {0, 0};
    memset(st, 0, sizeof *st);
    size_t cap = kept && max_kept ? max_kept : 1;
    if (cap > s->gen_kept_cap) {  /* kept buffers sized for what the caller takes */
        for (int i = 0; i < 2; i++) {
            cl_int e;
            if (s->gen_kept[i]) clReleaseMemObject(s->gen_kept[i]);
            s->gen_kept[i] = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, cap * sizeof(cl_ulong), NULL, &e);
            if (e != CL_SUCCESS) { s->gen_kept_cap = 0; return util_fail(s->err, sizeof s->err, "clCreateBuffer(kept): %s", ocl_errname(e)); }
        }
        s->gen_kept_cap = cap;
    }
    if (!local) local = s->gen_local[job->flags & 7];
    /* two passes keep a Position per legal board between them: smaller chunks
     * (2^21 boards, 1 GiB a slot, on GPUs; 2^16 elsewhere), halved until a slot
     * fits the device's largest allocation; a device that cannot hold them
     * runs one pass (same results) */
    size_t chunk = GEN_CHUNK;
    if (split && !s->gen_pos_chunk) {
        cl_ulong maxalloc = 0;
        clGetDeviceInfo(s->dev.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
        size_t c = (s->dev.type & CL_DEVICE_TYPE_GPU) ? (size_t)1 << 21 : (size_t)1 << 16;
        while (c > 4096 && maxalloc && (cl_ulong)c * SC_POS_STRIDE > maxalloc) c /= 2;
        for (int i = 0; i < 2; i++) {
            cl_int e;
            s->gen_pos[i] = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, c * SC_POS_STRIDE, NULL, &e);
            /* the staged pass 2: three words per board, a queue of up to one move per board */
            if (e == CL_SUCCESS) s->gen_rec[i] = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, 3 * c * sizeof(cl_uint), NULL, &e);
            if (e == CL_SUCCESS) s->gen_queue[i] = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, c * sizeof(cl_ulong), NULL, &e);
            if (e == CL_SUCCESS) s->gen_mate[i] = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, c, NULL, &e);
            if (e != CL_SUCCESS) {
                for (int j = 0; j <= i; j++) {
                    cl_mem *b[4] = {&s->gen_pos[j], &s->gen_rec[j], &s->gen_queue[j], &s->gen_mate[j]};
                    for (int t = 0; t < 4; t++) if (*b[t]) { clReleaseMemObject(*b[t]); *b[t] = NULL; }
                }
                s->gen_split = split = 0;
                break;
            }
        }
        if (split) s->gen_pos_chunk = c;
    }
    if (split) chunk = s->gen_pos_chunk;
    cl_ulong seed = job->seed;
    cl_int keep_mode = job->keep_mode, min_points = job->min_points, want = digest != NULL;
    size_t next = 0;
    int slot = 0;
    /* two slots, each on its own queue: one chunk's digests come back while the
     * next chunk computes */
    while (next < job->n || busy[0] || busy[1]) {
        if (busy[slot]) {
            CHK(clFinish(s->q[slot]), "clFinish");
            busy[slot] = 0;
            size_t got = cnt[slot][2] < cap ? cnt[slot][2] : cap, room = kept ? max_kept - nk : 0;
            if (got > room) got = room;
            if (got) CHK(clEnqueueReadBuffer(s->q[slot], s->gen_kept[slot], CL_TRUE, 0, got * sizeof(cl_ulong), kept + nk, 0, NULL, NULL),
                         "clEnqueueReadBuffer(kept)");
            nk += got;
            st->boards += len[slot];
            st->legal += cnt[slot][0];
            st->mate1 += cnt[slot][1];
            st->kept += cnt[slot][2];
        }
        if (next < job->n) {
            size_t m = job->n - next < chunk ? job->n - next : chunk;
            cl_ulong base = job->base + next;
            cl_uint nn = (cl_uint)m, mk = (cl_uint)(kept ? (max_kept - nk < cap ? max_kept - nk : cap) : 0);
            cl_command_queue q = s->q[slot];
            CHK(clEnqueueWriteBuffer(q, s->gen_stats[slot], CL_FALSE, 0, sizeof zero, zero, 0, NULL, NULL), "clEnqueueWriteBuffer(stats)");
            size_t global = (m + local - 1) / local * local;
            if (split) {
                cl_uint pc = (cl_uint)chunk, qc = (cl_uint)(s->gen_qcap && s->gen_qcap < chunk ? s->gen_qcap : chunk);
                size_t qglobal = (chunk + local - 1) / local * local;
                KArg a1[] = {KA(seed), KA(base), KA(nn), KA(want), KA(s->gen_digest[slot]), KA(s->gen_stats[slot]),
                             KA(s->gen_legal[slot]), KA(s->gen_pos[slot]), KA(pc)};
                /* screen_gen_legal, and screen_gen_rest with the records last */
                KArg a2[] = {KA(base), KA(s->w), KA(keep_mode), KA(min_points), KA(want), KA(s->gen_digest[slot]),
                             KA(s->gen_stats[slot]), KA(s->gen_legal[slot]), KA(s->gen_pos[slot]), KA(pc),
                             KA(s->gen_kept[slot]), KA(mk), KA(s->gen_rec[slot])};
                KArg a2s[] = {KA(s->w), KA(s->gen_stats[slot]), KA(s->gen_pos[slot]), KA(pc), KA(s->gen_rec[slot]),
                              KA(s->gen_queue[slot]), KA(qc)};
                KArg a3[] = {KA(s->gen_stats[slot]), KA(s->gen_pos[slot]), KA(pc), KA(s->gen_queue[slot]), KA(qc),
                             KA(s->gen_mate[slot])};
                KArg a4[] = {KA(base), KA(keep_mode), KA(min_points), KA(want), KA(s->gen_digest[slot]),
                             KA(s->gen_stats[slot]), KA(s->gen_legal[slot]), KA(pc), KA(s->gen_kept[slot]), KA(mk),
                             KA(s->gen_rec[slot]), KA(s->gen_queue[slot]), KA(s->gen_mate[slot])};
                if (launch(s, q, s->gen_split_k[f], "screen_gen_split", a1, 9, global, local)) goto bad;
                if (s->gen_staged && !(f & (SC_DO_MATE3 | SC_DO_FUTILE))) {
                    if (launch(s, q, s->gen_scan_k[f], "screen_gen_scan", a2s, 7, global, local) ||
                        launch(s, q, s->gen_mate_k[f], "screen_gen_mate", a3, 6, qglobal, local) ||
                        launch(s, q, s->gen_finish_k[f], "screen_gen_finish", a4, 13, global, local) ||
                        launch(s, q, s->gen_rest_k[f], "screen_gen_rest", a2, 13, global, local))
                        goto bad;
                } else if (launch(s, q, s->gen_legal_k[f], "screen_gen_legal", a2, 12, global, local)) {
                    goto bad;
                }
            } else {
                KArg a[] = {KA(seed), KA(base), KA(nn), KA(s->w), KA(keep_mode), KA(min_points), KA(want),
                            KA(s->gen_digest[slot]), KA(s->gen_stats[slot]), KA(s->gen_kept[slot]), KA(mk)};
                if (launch(s, q, k, "screen_gen", a, 11, global, local)) goto bad;
            }
            if (digest)
                CHK(clEnqueueReadBuffer(q, s->gen_digest[slot], CL_FALSE, 0, m * sizeof(cl_uint), digest + next, 0, NULL, NULL),
                    "clEnqueueReadBuffer(digest)");
            CHK(clEnqueueReadBuffer(q, s->gen_stats[slot], CL_FALSE, 0, sizeof cnt[slot], cnt[slot], 0, NULL, NULL),
                "clEnqueueReadBuffer(stats)");
            CHK(clFlush(q), "clFlush");
            len[slot] = m;
            busy[slot] = 1;
            next += m;
        }
        slot ^= 1;
    }
    if (kept) qsort(kept, nk, sizeof *kept, cmp_u64);
    return 0;
bad:
    for (int i = 0; i < 2; i++) clFinish(s->q[i]);
    return -1;
}

/* The first use of a flag set checks the program against the CPU reference on
 * 4096 boards: digests, counters and kept indices must all agree. */
int ocl_screen_gen(OclScreen *s, const ScGenJob *job, size_t local, uint32_t *digest, uint64_t *kept,
                   size_t max_kept, ScGenStats *st) {
    int f = job->flags & 7;
    if (!s->gen_kern[f]) {
        cl_kernel k = gen_kernel(s, f);
        if (!k) return -1;
        enum { N = 4096 };
        ScGenJob t = {0x5e1f7e57ull, 1000, N, f, SC_KEEP_CHECK, 0};
        uint32_t *dd = malloc(2 * N * sizeof *dd);
        uint64_t *kk = malloc(2 * N * sizeof *kk);
        ScGenStats a, b;
        screen_gen_cpu(&t, s->weights, 1, dd + N, kk + N, N, &b);
        int rc = 0;
        for (int split = 0; split < 2 && !rc; split++) {  /* both passes' kernels */
            memset(dd, 0xAB, N * sizeof *dd);
            rc = gen_run(s, split, &t, 0, dd, kk, N, &a);
            if (!rc && (memcmp(dd, dd + N, N * sizeof *dd) || memcmp(&a, &b, sizeof a) || memcmp(kk, kk + N, b.kept * sizeof *kk)))
                rc = util_fail(s->err, sizeof s->err, "self-test of screen_gen%s (flags %d) failed: the device differs from "
                               "the CPU reference (legal %llu/%llu, kept %llu/%llu)", split ? "_split" : "", f,
                               (unsigned long long)a.legal, (unsigned long long)b.legal, (unsigned long long)a.kept,
                               (unsigned long long)b.kept);
        }
        free(dd); free(kk);
        if (rc) {
            clReleaseKernel(s->gen_kern[f]);
            s->gen_kern[f] = NULL;
            return -1;
        }
    }
    return gen_run(s, s->gen_split, job, local, digest, kept, max_kept, st);
}

#endif
