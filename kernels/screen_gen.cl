/* screen_gen.cl - candidates made and screened on the device (see core/gen.h).
 * One work-item per board: board base+i of stream `seed` is generated from its
 * index (nothing is uploaded), screened by the same sc_screen as kernels/screen.cl,
 * and what comes back is small: a 32-bit digest per board when asked for (for
 * the bit-for-bit check against the CPU), three counters, and the indices of the
 * boards that pass the composer's filter (sc_gen_keep), in no particular order.
 * Build options: SC_GEN_FLAGS, the sc_screen flags as a constant, so a program
 * built for the cheap screen carries no mate3 or futility code (less private
 * memory per work-item, more work-items resident); TG_DEVICE_GPU/CPU as for
 * screen.cl. */
#include "position.c"
#include "movegen.c"
#include "screen.c"
#include "gen.c"

#ifndef SC_GEN_FLAGS
#define SC_GEN_FLAGS 0
#endif

/* What every kernel does with a finished board: its digest, the counter of
 * boards with a mate-in-1 (summed per group by the caller: one global atomic per
 * group), the kept list. */
TG_INLINE void sc_gen_finish_board(const ScResult *r, ulong index, uint i, int keep_mode, int min_points,
                                   int want_digest, __global uint *digest, __global uint *stats,
                                   __global ulong *kept, uint max_kept, __local uint *l_mate1) {
    if (want_digest) digest[i] = sc_result_digest(r);
    if (r->n_mate1) atomic_inc(l_mate1);
    if (sc_gen_keep(r, keep_mode, min_points)) {
        uint k = atomic_inc(&stats[2]);
        if (k < max_kept) kept[k] = index;
    }
}

/* stats[0] legal boards, stats[1] boards with a mate-in-1, stats[2] kept boards
 * (may exceed max_kept: only the first max_kept indices are stored). */
__kernel void screen_gen(ulong seed, ulong base, uint n, __global const int *weights, int keep_mode,
                         int min_points, int want_digest, __global uint *digest, __global uint *stats,
                         __global ulong *kept, uint max_kept) {
    __local uint l_legal, l_mate1;
    uint lid = (uint)get_local_id(0), i = (uint)get_global_id(0);
    if (lid == 0) { l_legal = 0; l_mate1 = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        ScBoard b;
        ScResult r;
        sc_gen_board(seed, base + i, &b);
        sc_screen(&b, &r, weights, SC_GEN_FLAGS);
        if (r.reason == SC_OK) atomic_inc(&l_legal);  /* (summed per group, as l_mate1) */
        sc_gen_finish_board(&r, base + i, i, keep_mode, min_points, want_digest, digest, stats, kept, max_kept, &l_mate1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        if (l_legal) atomic_add(&stats[0], l_legal);
        if (l_mate1) atomic_add(&stats[1], l_mate1);
    }
}

/* Positions kept between passes, word-major ("structure of arrays"): word k of
 * slot j at store[k * cap + j], so that a warp's neighbouring work-items touch
 * neighbouring words (one Position per work-item, stored whole, was 90% wasted
 * sectors and bound the first pass by the L2 on an H100). */
#define SC_POS_WORDS ((sizeof(Position) + 7) / 8)
typedef union {  /* (a union, not a cast: OpenCL C keeps C's aliasing rules) */
    Position p;
    ulong w[SC_POS_WORDS];
} ScPosWords;

TG_INLINE void sc_pos_put(__global ulong *store, uint cap, uint j, const ScPosWords *u) {
    for (uint k = 0; k < SC_POS_WORDS; k++) store[(size_t)k * cap + j] = u->w[k];
}

TG_INLINE void sc_pos_get(__global const ulong *store, uint cap, uint j, ScPosWords *u) {
    for (uint k = 0; k < SC_POS_WORDS; k++) u->w[k] = store[(size_t)k * cap + j];
}

/* The same stream in two passes, so that warps run boards of like cost: legal
 * boards need the check and mate search, illegal ones (about 60% of a random
 * stream) stop after set-up, and in one pass a warp waits for its slowest lane.
 * Pass 1 settles the illegal boards and lists the legal ones' offsets in
 * legal[] and their set-up positions in pos_store (sc_pos_put, cap slots;
 * stats[3] of them); pass 2 screens each listed board from its stored position:
 * screen_gen_legal, one work-item per board, for the mate3 and futility flags;
 * for the plain screen, three kernels (scan, mate, finish) that hand the mate
 * tests out one move per work-item.  Results, counters and kept indices equal
 * screen_gen's. */
__kernel void screen_gen_split(ulong seed, ulong base, uint n, int want_digest, __global uint *digest,
                               __global uint *stats, __global uint *legal, __global ulong *pos_store, uint cap) {
    __local uint l_count, l_base;
    uint lid = (uint)get_local_id(0), i = (uint)get_global_id(0), slot = 0;
    int ok = 0;
    ScPosWords pos;
    if (lid == 0) l_count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        ScBoard b;
        ScResult r;
        sc_gen_board(seed, base + i, &b);
        ok = sc_screen_setup(&b, &pos.p, &r, SC_GEN_FLAGS) == SC_OK;
        if (ok) slot = atomic_inc(&l_count);
        else if (want_digest) digest[i] = sc_result_digest(&r);
    }
    /* one global atomic per group reserves the group's run of the list */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        l_base = l_count ? atomic_add(&stats[3], l_count) : 0;
        if (l_count) atomic_add(&stats[0], l_count);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ok) {
        legal[l_base + slot] = i;
        sc_pos_put(pos_store, cap, l_base + slot, &pos);
    }
}

#define SC_SCAN_DONE 0xFFFFFFFFu  /* rec[j] of a board the staged scan leaves to screen_gen_rest */

/* One listed board whole (rest: only those the staged scan left to it). */
TG_INLINE void sc_gen_legal_one(ulong base, __global const int *weights, int keep_mode, int min_points,
                                int want_digest, __global uint *digest, __global uint *stats,
                                __global const uint *legal, __global const ulong *pos_store, uint cap,
                                __global ulong *kept, uint max_kept, __global const uint *rest,
                                __local uint *l_mate1) {
    uint lid = (uint)get_local_id(0), j = (uint)get_global_id(0);
    if (lid == 0) *l_mate1 = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (j < stats[3] && (!rest || rest[j] == SC_SCAN_DONE)) {
        uint i = legal[j];
        ScResult r;
        ScPosWords pos;
        sc_pos_get(pos_store, cap, j, &pos);
        sc_result_init(&r, SC_GEN_FLAGS);
        sc_screen_legal(&pos.p, &r, weights, SC_GEN_FLAGS);
        sc_gen_finish_board(&r, base + i, i, keep_mode, min_points, want_digest, digest, stats, kept, max_kept, l_mate1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && *l_mate1) atomic_add(&stats[1], *l_mate1);
}

__kernel void screen_gen_legal(ulong base, __global const int *weights, int keep_mode, int min_points,
                               int want_digest, __global uint *digest, __global uint *stats,
                               __global const uint *legal, __global const ulong *pos_store, uint cap,
                               __global ulong *kept, uint max_kept) {
    __local uint l_mate1;
    sc_gen_legal_one(base, weights, keep_mode, min_points, want_digest, digest, stats, legal, pos_store, cap, kept,
                     max_kept, 0, &l_mate1);
}

/* ---- the plain screen's pass 2 in three kernels ----------------------------
 * About 0.8 checks per legal board need the mate test (a move, the defender's
 * replies, the move undone), but a few boards need ten or more: one work-item
 * per board left most lanes of a warp idle (3.7 of 32 active on an H100).
 * screen_gen_scan counts each board's checks, computes its points and queues
 * the moves that need the test (queue[q] = board slot << 16 | move, stats[4]
 * of them, up to qcap); screen_gen_mate tests one queued move per work-item;
 * screen_gen_finish puts each board's result together in move order.  The scan
 * holds up to SC_SCAN_QUEUE moves per board before it knows where they go; a
 * board with more scans again straight into the queue (screening such boards
 * whole, one lane each, cost 13% of the pass on an H100).  A board that finds
 * the queue full is left to screen_gen_rest (rec[j] = SC_SCAN_DONE), which
 * screens it whole as screen_gen_legal does. */
#ifndef SC_SCAN_QUEUE
#define SC_SCAN_QUEUE 32  /* 8: 0.81x, 16: 0.97x of 32 on an H100 (a build option) */
#endif
#define SC_QUEUE_BLANK 0xFFFFFFFFFFFFFFFFul

__kernel void screen_gen_scan(__global const int *weights, __global uint *stats, __global const ulong *pos_store,
                              uint cap, __global uint *rec, __global ulong *queue, uint qcap) {
    uint j = (uint)get_global_id(0);
    if (j < stats[3]) {
        ScPosWords pos;
        ScScan sc;
        ushort mv[SC_SCAN_QUEUE];
        uint h = 0, qb;
        Move m;
        sc_pos_get(pos_store, cap, j, &pos);
        sc_scan_init(&pos.p, &sc);
        while ((m = sc_scan_next(&pos.p, &sc)) != MOVE_NONE) {
            if (h < SC_SCAN_QUEUE) mv[h] = (ushort)m;
            h++;
        }
        qb = h ? atomic_add(&stats[4], h) : 0;
        if (h && qb + h > qcap) {  /* full: blank what fits of the run; rest screens the board */
            for (uint k = 0; k < h && qb + k < qcap; k++) queue[qb + k] = SC_QUEUE_BLANK;
            qb = SC_SCAN_DONE;
        } else if (h > SC_SCAN_QUEUE) {  /* rare: more than mv[] holds, so scan again into the queue */
            uint k = 0;
            sc_scan_init(&pos.p, &sc);
            while ((m = sc_scan_next(&pos.p, &sc)) != MOVE_NONE) queue[qb + k++] = (ulong)j << 16 | m;
        } else {
            for (uint k = 0; k < h; k++) queue[qb + k] = (ulong)j << 16 | mv[k];
        }
        rec[j] = qb;
        if (qb != SC_SCAN_DONE) {
            rec[cap + j] = (uint)sc.checks | h << 16;
            rec[2 * cap + j] = (uint)sc_points(&pos.p, weights);
        }
    }
}

__kernel void screen_gen_rest(ulong base, __global const int *weights, int keep_mode, int min_points,
                              int want_digest, __global uint *digest, __global uint *stats,
                              __global const uint *legal, __global const ulong *pos_store, uint cap,
                              __global ulong *kept, uint max_kept, __global const uint *rec) {
    __local uint l_mate1;
    sc_gen_legal_one(base, weights, keep_mode, min_points, want_digest, digest, stats, legal, pos_store, cap, kept,
                     max_kept, rec, &l_mate1);
}

/* mate[q] = 1 iff queued move q mates (no legal reply). */
__kernel void screen_gen_mate(__global const uint *stats, __global const ulong *pos_store, uint cap,
                              __global const ulong *queue, uint qcap, __global uchar *mate) {
    uint q = (uint)get_global_id(0);
    if (q >= stats[4] || q >= qcap) return;
    ulong e = queue[q];
    if (e == SC_QUEUE_BLANK) return;
    ScPosWords pos;
    sc_pos_get(pos_store, cap, (uint)(e >> 16), &pos);
    mate[q] = (uchar)(sc_reply_kind(&pos.p, (Move)(e & 0xFFFF)) == 0);
}

__kernel void screen_gen_finish(ulong base, int keep_mode, int min_points, int want_digest, __global uint *digest,
                                __global uint *stats, __global const uint *legal, uint cap, __global ulong *kept,
                                uint max_kept, __global const uint *rec, __global const ulong *queue,
                                __global const uchar *mate) {
    __local uint l_mate1;
    uint lid = (uint)get_local_id(0), j = (uint)get_global_id(0);
    if (lid == 0) l_mate1 = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (j < stats[3] && rec[j] != SC_SCAN_DONE) {
        uint i = legal[j], qb = rec[j], c = rec[cap + j], h = c >> 16;
        ScResult r;
        sc_result_init(&r, SC_GEN_FLAGS);
        r.checks = (ushort)(c & 0xFFFF);
        r.points = (int)rec[2 * cap + j];
        for (uint k = 0; k < h; k++)
            if (mate[qb + k]) sc_result_mate(&r, (Move)(queue[qb + k] & 0xFFFF));
        sc_gen_finish_board(&r, base + i, i, keep_mode, min_points, want_digest, digest, stats, kept, max_kept, &l_mate1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && l_mate1) atomic_add(&stats[1], l_mate1);
}
