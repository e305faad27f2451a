/* bitboard.h - 81-square bitboards in two 64-bit words.
 *
 * Layout (as YaneuraOu/Apery): square sq = file*9+rank is bit sq of p[0] for
 * sq < 63 (files 1-7), bit sq-63 of p[1] otherwise (files 8-9).  A whole file
 * therefore sits in one word, and every ray visits squares in monotonic index
 * order, so the nearest blocker on a ray is the lowest set bit (rays of
 * increasing index) or the highest (decreasing). */
#ifndef TSUMEGEN_BITBOARD_H
#define TSUMEGEN_BITBOARD_H
#include "types.h"

typedef struct { uint64_t p[2]; } Bitboard;

/* Ray directions; even entries step toward lower square indices. */
enum { DIR_N = 0, DIR_S, DIR_R, DIR_L, DIR_NR, DIR_SL, DIR_SR, DIR_NL, DIR_NB = 8 };
/* N = toward rank 1 (-1), R = toward file 1 (-9); NR = -10, SL = +10, SR = -8, NL = +8. */

#include "tables.h"

TG_INLINE Bitboard bb_make(uint64_t lo, uint64_t hi) { Bitboard b; b.p[0] = lo; b.p[1] = hi; return b; }
TG_INLINE Bitboard bb_empty(void) { return bb_make(0, 0); }
TG_INLINE Bitboard bb_sq(int sq) {
    return sq < 63 ? bb_make((uint64_t)1 << sq, 0) : bb_make(0, (uint64_t)1 << (sq - 63));
}
TG_INLINE Bitboard bb_and(Bitboard a, Bitboard b) { return bb_make(a.p[0] & b.p[0], a.p[1] & b.p[1]); }
TG_INLINE Bitboard bb_or(Bitboard a, Bitboard b) { return bb_make(a.p[0] | b.p[0], a.p[1] | b.p[1]); }
TG_INLINE Bitboard bb_xor(Bitboard a, Bitboard b) { return bb_make(a.p[0] ^ b.p[0], a.p[1] ^ b.p[1]); }
TG_INLINE Bitboard bb_andnot(Bitboard a, Bitboard b) { return bb_make(a.p[0] & ~b.p[0], a.p[1] & ~b.p[1]); }
TG_INLINE int bb_any(Bitboard a) { return (a.p[0] | a.p[1]) != 0; }
TG_INLINE int bb_test(Bitboard a, int sq) {
    return sq < 63 ? (int)((a.p[0] >> sq) & 1) : (int)((a.p[1] >> (sq - 63)) & 1);
}
TG_INLINE int bb_count(Bitboard a) { return popcount64(a.p[0]) + popcount64(a.p[1]); }
TG_INLINE int bb_more_than_one(Bitboard a) {
    uint64_t lo = a.p[0], hi = a.p[1];
    return (lo & (lo - 1)) || (hi & (hi - 1)) || (lo && hi);
}
TG_INLINE int bb_lsb(Bitboard a) { return a.p[0] ? lsb64(a.p[0]) : 63 + lsb64(a.p[1]); }
TG_INLINE int bb_msb(Bitboard a) { return a.p[1] ? 63 + msb64(a.p[1]) : msb64(a.p[0]); }
/* Remove and return the lowest square; the caller guarantees a is not empty. */
TG_INLINE int bb_pop(Bitboard *a) {
    if (a->p[0]) { int s = lsb64(a->p[0]); a->p[0] &= a->p[0] - 1; return s; }
    int s = 63 + lsb64(a->p[1]); a->p[1] &= a->p[1] - 1; return s;
}
/* All 81 squares; ranks [lo,hi] as seen by colour c. */
TG_INLINE Bitboard bb_all(void) { return bb_make(0x7FFFFFFFFFFFFFFFull, 0x3FFFFull); }
TG_INLINE Bitboard bb_ranks(int c, int lo, int hi) { return BB_RANKS[c][lo][hi]; }
TG_INLINE Bitboard bb_file(int file) { return BB_FILE[file]; }

/* Sliding attack along one ray: the ray up to and including the first blocker. */
TG_INLINE Bitboard ray_attack(int dir, int sq, Bitboard occ) {
    Bitboard r = RAY[dir][sq];
    Bitboard blk = bb_and(r, occ);
    if (bb_any(blk)) {
        int b = (dir & 1) ? bb_lsb(blk) : bb_msb(blk);
        r = bb_andnot(r, RAY[dir][b]);
    }
    return r;
}
TG_INLINE Bitboard lance_attack(int c, int sq, Bitboard occ) {
    return ray_attack(c == BLACK ? DIR_N : DIR_S, sq, occ);
}
TG_INLINE Bitboard rook_attack(int sq, Bitboard occ) {
    return bb_or(bb_or(ray_attack(DIR_N, sq, occ), ray_attack(DIR_S, sq, occ)),
                 bb_or(ray_attack(DIR_R, sq, occ), ray_attack(DIR_L, sq, occ)));
}
TG_INLINE Bitboard bishop_attack(int sq, Bitboard occ) {
    return bb_or(bb_or(ray_attack(DIR_NR, sq, occ), ray_attack(DIR_SL, sq, occ)),
                 bb_or(ray_attack(DIR_SR, sq, occ), ray_attack(DIR_NL, sq, occ)));
}
/* The squares of sq's file, of its file and rank, and of its diagonals, on an empty
 * board: a slider kind can attack sq only from there, so callers test these first
 * and compute the occupancy-dependent attack only when one stands on them. */
TG_INLINE Bitboard file_lines(int sq) { return bb_or(RAY[DIR_N][sq], RAY[DIR_S][sq]); }
TG_INLINE Bitboard rook_lines(int sq) { return bb_or(file_lines(sq), bb_or(RAY[DIR_R][sq], RAY[DIR_L][sq])); }
TG_INLINE Bitboard bishop_lines(int sq) {
    return bb_or(bb_or(RAY[DIR_NR][sq], RAY[DIR_SL][sq]), bb_or(RAY[DIR_SR][sq], RAY[DIR_NL][sq]));
}
/* Squares strictly between a and b (empty unless they share a line). */
TG_INLINE Bitboard between_bb(int a, int b) {
    int d = DIRECTION[a][b];
    if (d == DIR_NB) return bb_empty();
    return bb_and(RAY[d][a], RAY[d ^ 1][b]);
}
/* True when a, b and c lie on one line (c may be anywhere on it). */
TG_INLINE int aligned(int a, int b, int c) {
    int d = DIRECTION[a][b];
    if (d == DIR_NB) return 0;
    return a == c || bb_test(RAY[d][a], c) || bb_test(RAY[d ^ 1][a], c);
}

/* Attacks of piece type pt of colour c standing on sq. */
TG_INLINE Bitboard piece_attack(int c, int pt, int sq, Bitboard occ) {
    switch (pt) {
    case PAWN: return PAWN_ATK[c][sq];
    case LANCE: return lance_attack(c, sq, occ);
    case KNIGHT: return KNIGHT_ATK[c][sq];
    case SILVER: return SILVER_ATK[c][sq];
    case BISHOP: return bishop_attack(sq, occ);
    case ROOK: return rook_attack(sq, occ);
    case KING: return KING_ATK[sq];
    case HORSE: return bb_or(bishop_attack(sq, occ), KING_ATK[sq]);
    case DRAGON: return bb_or(rook_attack(sq, occ), KING_ATK[sq]);
    default: return GOLD_ATK[c][sq]; /* gold and the four promoted minors */
    }
}

#endif
