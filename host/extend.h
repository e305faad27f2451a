/* extend.h - backward extension (逆算): boards one attacker check and one
 * defender reply before a problem, the composer's way to grow a perfect problem
 * of L plies into candidates of L + 2.
 *
 * The expert composes long problems backwards: take a finished problem and ask
 * what position, one check and one defence earlier, leads into it.  For a
 * problem P (attacker to move, defender king on k) a candidate Q is P with the
 * defender's reply r taken back and then the attacker's check m, where r is any
 * evasion:
 *   - the king's step k2 -> k from an empty neighbour, taking nothing, the checker
 *     (sacrificed on k), or another attacker piece on k;
 *   - a defender piece on s in P that came from an empty square t (promoting or
 *     not) and took the checker on s, or blocked the check's line (移動合);
 *   - an unpromoted defender piece on s in P dropped there to block the line (合駒);
 * and m is any check that leads to P with r taken back: a drop, a board move
 * (promoting or not) from an empty square, a move that uncovers a slider's line,
 * or a move that took a defender piece of a kind the attacker holds in P.
 * A piece the defender took comes out of its hand in P, one the attacker took
 * out of the attacker's hand in P.
 * Q is legal, the defender is not in check in Q, and the attacker has no mate in
 * one there.  Whether the reply is the longest defence and m the only mate is for
 * the verifier to decide. */
#ifndef TSUMEGEN_EXTEND_H
#define TSUMEGEN_EXTEND_H
#include "compose.h"
#include "ga.h"
#include "keyset.h"

typedef struct {
    Position pos;  /* Q, normalized (hand convention) */
    Move check;    /* m */
    Move reply;    /* the defender's answer that gives P back */
} ExtendCandidate;

/* Every distinct candidate Q for problem p (attacker to move), at most max, in
 * an order shuffled by rng.  Returns how many were written to out. */
int extend_candidates(const Position *p, Rng *rng, ExtendCandidate *out, int max);

/* The first test of any candidate made backwards: q normalized (the hand
 * convention, every legality rule), the side not to move not in check, and m a
 * legal check in q.  Then *after is q after m and the answer 1; else 0. */
int extend_check_from(Position *q, Move m, Position *after);

/* The kinds a piece of type pt on `to` may have had before moving there from
 * `from` for side us: itself, and the unpromoted kind when the move could
 * promote.  Returns how many (1 or 2) were written to out. */
int extend_pre_kinds(int us, int pt, int from, int to, int out[2]);

/* The problems waiting to be extended: perfect boards with their lengths and
 * the entry each was extended from, each extended once.  Next is the longest
 * (ties: the earlier found), less two plies for every sibling_step of its
 * siblings (the same parent's other problems) already extended when sibling_step
 * is set: one extension makes dozens of near twins, boards that differ only in
 * which piece a check took, and when the first few of them lead nowhere the
 * others mostly do not either, so the search goes back a level to another family.
 * `compose extend` sets EXTEND_SIBLING_STEP; the GA, whose main job was measured
 * without it, keeps longest first (RESULTS, fifty-first session). */
enum { EXTEND_SIBLING_STEP = 4 };
typedef struct {
    Keys sfen;  /* canonical SFEN (compose_canonical): entry i is sfen.s[i] */
    int *length;
    int *parent;         /* the entry it was extended from; -1: an input */
    int *kids_extended;  /* how many of its own extensions have been extended */
    uint8_t *extended;
    int n, cap;
    int sibling_step;    /* 0: longest first, no discount */
} ExtendPool;

/* Adds a perfect problem (once per canonical board), extended from entry parent
 * (-1: none); returns 1 when new, 0 when known, -1 when out of memory. */
int extend_pool_add(ExtendPool *pool, const Position *pos, int length, int parent);
/* Same, from the canonical SFEN and the flag (checkpoints: entries in order, so
 * a parent comes before its children). */
int extend_pool_add_sfen(ExtendPool *pool, const char *sfen, int length, int extended, int parent);
/* The entry to extend next (of at least min_length plies, not yet extended, in
 * the order above), -1 if none. */
int extend_pool_next(const ExtendPool *pool, int min_length);
/* Marks entry i extended. */
void extend_pool_take(ExtendPool *pool, int i);
void extend_pool_free(ExtendPool *pool);

#endif
