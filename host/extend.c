/* extend.c - backward extension candidates (see extend.h). */
#include "extend.h"
#include <stdlib.h>
#include <string.h>
#include "../core/mate1.h"
#include "sfen.h"

int extend_check_from(Position *q, Move m, Position *after) {
    if (compose_normalize(q) || in_check(q)) return 0;
    MoveList ml;
    gen_checks(q, &ml);
    if (!movelist_has(&ml, m)) return 0;
    Undo u;
    *after = *q;
    pos_do_move(after, m, &u);
    return 1;
}

/* Keeps q as a candidate when it is legal, m is a legal check there, the king's
 * move k' -> k is a legal reply, the two moves give p's board and attacker hand
 * back, and the attacker has no mate in one.  Duplicates (one Q by two routes)
 * are dropped by key. */
static int accept(const Position *p, Position *q, Move m, Move reply, ExtendCandidate *out, int n) {
    Position r;
    if (!extend_check_from(q, m, &r)) return 0;
    MoveList ml;
    Undo u;
    gen_evasions(&r, &ml);
    if (!movelist_has(&ml, reply)) return 0;
    pos_do_move(&r, reply, &u);
    if (memcmp(r.board, p->board, sizeof r.board) || memcmp(r.hand[p->side], p->hand[p->side], sizeof r.hand[0]))
        return 0;
    Position t = *q;
    if (gen_mate1(&t, &ml) > 0) return 0;  /* a mate in one: the new first move is not the only one */
    uint64_t key = pos_key(q);
    for (int i = 0; i < n; i++)
        if (pos_key(&out[i].pos) == key) return 0;
    out[n].pos = *q, out[n].check = m, out[n].reply = reply;
    return 1;
}

int extend_pre_kinds(int us, int pt, int from, int to, int out[2]) {
    int n = 0;
    out[n++] = pt;
    if (pt > KING && (in_zone(us, from) || in_zone(us, to))) out[n++] = raw_type(pt);
    return n;
}

/* Candidates whose check m puts an attacker piece of kind pt on s: q1 is the
 * position after m (the piece on s), reply the defender's answer that gives p
 * back.  The piece was dropped (an unpromoted kind) or came from an empty square
 * other than `keep` (the square the reply starts from). */
static int checks_onto(const Position *p, const Position *q1, int pt, int s, int keep, Move reply,
                       ExtendCandidate *out, int n, int max) {
    int us = p->side, n0 = n;
    Position base = *q1;
    pos_remove(&base, s);
    if (pt <= GOLD) {
        Position q = base;
        q.hand[us][pt]++;
        n += accept(p, &q, make_drop(pt, s), reply, out, n);
    }
    for (int from = 0; from < SQ_NB && n < max; from++) {
        if (base.board[from] || from == keep || from == s) continue;
        int kinds[2], nk = extend_pre_kinds(us, pt, from, s, kinds);
        for (int i = 0; i < nk && n < max; i++) {
            /* a piece of kind kinds[i] on `from` reaches s (pre-move occupancy) */
            if (!bb_test(piece_attack(us, kinds[i], from, base.occupied), s)) continue;
            Position q = base;
            pos_put(&q, from, make_piece(us, kinds[i]));
            n += accept(p, &q, make_move(from, s, kinds[i] != pt), reply, out, n);
        }
    }
    return n - n0;
}

int extend_candidates(const Position *p, Rng *rng, ExtendCandidate *out, int max) {
    int us = p->side, them = us ^ 1, k = p->king_sq[them], n = 0;
    if (k == SQ_NONE || max <= 0) return 0;
    /* 1. the king steps back to k from an empty neighbour k2: it escapes a check
     * by a piece already on s in p, or takes a piece sacrificed on k (one the
     * defender holds in p) */
    Bitboard around = KING_ATK[k];
    while (bb_any(around) && n < max) {
        int k2 = bb_pop(&around);
        if (p->board[k2]) continue;
        Move reply = make_move(k2, k, 0);
        Position q1 = *p;  /* after m, before the king's move */
        pos_remove(&q1, k);
        pos_put(&q1, k2, make_piece(them, KING));
        for (int pt = PAWN; pt <= DRAGON && n < max; pt++) {
            if (pt == KING || !p->hand[them][raw_type(pt)]) continue;
            Position q = q1;
            pos_put(&q, k, make_piece(us, pt));
            n += checks_onto(p, &q, pt, k, k2, reply, out, n, max);
        }
        for (int s = 0; s < SQ_NB && n < max; s++) {
            int pc = q1.board[s];
            if (pc && piece_color(pc) == us && piece_type(pc) != KING)
                n += checks_onto(p, &q1, piece_type(pc), s, k2, reply, out, n, max);
        }
    }
    /* 2. the king stays: a defender piece on s in p came from an empty square t
     * and took a piece sacrificed on s that gave check (one the defender holds in
     * p), promoting on the way or not */
    for (int s = 0; s < SQ_NB && n < max; s++) {
        int pc = p->board[s];
        if (!pc || piece_color(pc) != them || piece_type(pc) == KING) continue;
        for (int t = 0; t < SQ_NB && n < max; t++) {
            if (p->board[t]) continue;
            int kinds[2], nk = extend_pre_kinds(them, piece_type(pc), t, s, kinds);
            for (int i = 0; i < nk && n < max; i++) {
                if (!bb_test(piece_attack(them, kinds[i], t, p->occupied), s)) continue;
                Move reply = make_move(t, s, kinds[i] != piece_type(pc));
                for (int pt = PAWN; pt <= DRAGON && n < max; pt++) {
                    if (pt == KING || !p->hand[them][raw_type(pt)]) continue;
                    Position q1 = *p;
                    pos_remove(&q1, s);
                    pos_put(&q1, t, make_piece(them, kinds[i]));
                    pos_put(&q1, s, make_piece(us, pt));
                    n += checks_onto(p, &q1, pt, s, t, reply, out, n, max);
                }
            }
        }
    }
    for (int i = n - 1; i > 0; i--) {  /* shuffled: the caller takes the first few */
        int j = (int)rng_below(rng, (uint32_t)i + 1);
        ExtendCandidate t = out[i];
        out[i] = out[j], out[j] = t;
    }
    return n;
}

/* ---- the pool ---- */

/* (compose extend --from a reverse run's problems.jsonl starts with 100,000
 * entries and more: the set's index, not a scan) */
int extend_pool_add_sfen(ExtendPool *pool, const char *sfen, int length, int extended) {
    if (keys_has(&pool->sfen, sfen)) return 0;
    if (pool->n == pool->cap) {
        int cap = pool->cap ? 2 * pool->cap : 64;
        int *l = realloc(pool->length, sizeof(int) * (size_t)cap);
        if (!l) return -1;
        pool->length = l;
        uint8_t *x = realloc(pool->extended, (size_t)cap);
        if (!x) return -1;
        pool->extended = x, pool->cap = cap;
    }
    if (keys_add(&pool->sfen, sfen) < 0) return -1;
    pool->length[pool->n] = length, pool->extended[pool->n] = (uint8_t)(extended != 0);
    pool->n++;
    return 1;
}

int extend_pool_add(ExtendPool *pool, const Position *pos, int length) {
    char key[SFEN_MAX];
    compose_canonical(pos, key, sizeof key);
    return extend_pool_add_sfen(pool, key, length, 0);
}

int extend_pool_next(const ExtendPool *pool, int min_length) {
    int best = -1;
    for (int i = 0; i < pool->n; i++)
        if (!pool->extended[i] && pool->length[i] >= min_length && (best < 0 || pool->length[i] > pool->length[best]))
            best = i;
    return best;
}

void extend_pool_free(ExtendPool *pool) {
    keys_free(&pool->sfen);
    free(pool->length);
    free(pool->extended);
    memset(pool, 0, sizeof *pool);
}
