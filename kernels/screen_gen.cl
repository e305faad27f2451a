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
        if (want_digest) digest[i] = sc_result_digest(&r);
        /* counters summed in local memory first: one global atomic per group */
        if (r.reason == SC_OK) atomic_inc(&l_legal);
        if (r.n_mate1) atomic_inc(&l_mate1);
        if (sc_gen_keep(&r, keep_mode, min_points)) {
            uint k = atomic_inc(&stats[2]);
            if (k < max_kept) kept[k] = base + i;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        if (l_legal) atomic_add(&stats[0], l_legal);
        if (l_mate1) atomic_add(&stats[1], l_mate1);
    }
}

/* The same stream in two passes, so that warps run boards of like cost: legal
 * boards need the check and mate search, illegal ones (about 60% of a random
 * stream) stop after set-up, and in one pass a warp waits for its slowest lane.
 * Pass 1 settles the illegal boards and lists the legal ones' offsets in
 * legal[] and their set-up positions in pos_store (SC_POS_STRIDE bytes each;
 * stats[3] of them); pass 2, one work-item per listed board (the rest return at
 * once), screens each from its stored position.  Results, counters and kept
 * indices equal screen_gen's. */
__kernel void screen_gen_split(ulong seed, ulong base, uint n, int want_digest, __global uint *digest,
                               __global uint *stats, __global uint *legal, __global ulong *pos_store) {
    __local uint l_count, l_base;
    uint lid = (uint)get_local_id(0), i = (uint)get_global_id(0), slot = 0;
    int ok = 0;
    Position pos;
    if (lid == 0) l_count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        ScBoard b;
        ScResult r;
        sc_gen_board(seed, base + i, &b);
        ok = sc_screen_setup(&b, &pos, &r, SC_GEN_FLAGS) == SC_OK;
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
        *(__global Position *)(pos_store + (size_t)(l_base + slot) * (SC_POS_STRIDE / 8)) = pos;
    }
}

__kernel void screen_gen_legal(ulong base, __global const int *weights, int keep_mode, int min_points,
                               int want_digest, __global uint *digest, __global uint *stats,
                               __global const uint *legal, __global const ulong *pos_store, __global ulong *kept,
                               uint max_kept) {
    __local uint l_mate1;
    uint lid = (uint)get_local_id(0), j = (uint)get_global_id(0);
    if (lid == 0) l_mate1 = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (j < stats[3]) {
        uint i = legal[j];
        ScResult r;
        Position pos = *(__global const Position *)(pos_store + (size_t)j * (SC_POS_STRIDE / 8));
        sc_result_init(&r, SC_GEN_FLAGS);
        sc_screen_legal(&pos, &r, weights, SC_GEN_FLAGS);
        if (want_digest) digest[i] = sc_result_digest(&r);
        if (r.n_mate1) atomic_inc(&l_mate1);
        if (sc_gen_keep(&r, keep_mode, min_points)) {
            uint k = atomic_inc(&stats[2]);
            if (k < max_kept) kept[k] = base + i;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && l_mate1) atomic_add(&stats[1], l_mate1);
}
