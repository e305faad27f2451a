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
 * other than `keep` (the square the reply starts from); a board move may also
 * have taken a defender piece on s, of a kind the attacker holds in p (it went
 * to the attacker's hand there). */
static int checks_onto(const Position *p, const Position *q1, int pt, int s, int keep, Move reply,
                       ExtendCandidate *out, int n, int max) {
    int us = p->side, them = us ^ 1, n0 = n;
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
            Move m = make_move(from, s, kinds[i] != pt);
            n += accept(p, &q, m, reply, out, n);
            for (int c = PAWN; c <= GOLD && n < max; c++) {
                if (!base.hand[us][c]) continue;
                for (int promoted = 0; promoted <= can_promote_type(c) && n < max; promoted++) {
                    Position qc = q;
                    qc.hand[us][c]--;
                    pos_put(&qc, s, make_piece(them, promoted ? c + PROMOTE : c));
                    n += accept(p, &qc, m, reply, out, n);
                }
            }
        }
    }
    return n - n0;
}

/* Candidates whose reply is `reply`: r is p with the reply taken back (the
 * position after the check, the defender to move).  The check was made by the
 * attacker piece on `only`, or by any attacker piece when only < 0 (one that
 * moved with check, or one that moved off a line and uncovered it). */
static int checks_into(const Position *p, const Position *r, int only, int keep, Move reply,
                       ExtendCandidate *out, int n, int max) {
    int us = p->side, them = us ^ 1, n0 = n;
    if (!is_attacked(r, us, r->king_sq[them], r->occupied)) return 0;  /* not a check */
    int first = only < 0 ? 0 : only, last = only < 0 ? SQ_NB - 1 : only;
    for (int s = first; s <= last && n < max; s++) {
        int pc = r->board[s];
        if (pc && piece_color(pc) == us && piece_type(pc) != KING)
            n += checks_onto(p, r, piece_type(pc), s, keep, reply, out, n, max);
    }
    return n - n0;
}

int extend_candidates(const Position *p, Rng *rng, ExtendCandidate *out, int max) {
    int us = p->side, them = us ^ 1, k = p->king_sq[them], n = 0;
    if (k == SQ_NONE || max <= 0) return 0;
    /* 1. the king steps back to k from an empty neighbour k2: it escapes a check,
     * or takes a piece on k (one the defender holds in p), the checker sacrificed
     * there or another piece */
    Bitboard around = KING_ATK[k];
    while (bb_any(around) && n < max) {
        int k2 = bb_pop(&around);
        if (p->board[k2]) continue;
        Move reply = make_move(k2, k, 0);
        Position r = *p;
        pos_remove(&r, k);
        pos_put(&r, k2, make_piece(them, KING));
        n += checks_into(p, &r, -1, k2, reply, out, n, max);
        for (int pt = PAWN; pt <= DRAGON && n < max; pt++) {
            if (pt == KING || !p->hand[them][raw_type(pt)]) continue;
            Position rc = r;
            pos_put(&rc, k, make_piece(us, pt));
            n += checks_into(p, &rc, -1, k2, reply, out, n, max);
        }
    }
    /* 2. the king stays: a defender piece on s in p came from an empty square t,
     * promoting on the way or not, and took the checker on s (a piece the defender
     * holds in p) or blocked the check's line (移動合) */
    for (int s = 0; s < SQ_NB && n < max; s++) {
        int pc = p->board[s];
        if (!pc || piece_color(pc) != them || piece_type(pc) == KING) continue;
        for (int t = 0; t < SQ_NB && n < max; t++) {
            if (p->board[t]) continue;
            int kinds[2], nk = extend_pre_kinds(them, piece_type(pc), t, s, kinds);
            for (int i = 0; i < nk && n < max; i++) {
                if (!bb_test(piece_attack(them, kinds[i], t, p->occupied), s)) continue;
                Move reply = make_move(t, s, kinds[i] != piece_type(pc));
                Position r = *p;
                pos_remove(&r, s);
                pos_put(&r, t, make_piece(them, kinds[i]));
                n += checks_into(p, &r, -1, t, reply, out, n, max);
                for (int pt = PAWN; pt <= DRAGON && n < max; pt++) {
                    if (pt == KING || !p->hand[them][raw_type(pt)]) continue;
                    Position rc = r;
                    pos_put(&rc, s, make_piece(us, pt));
                    n += checks_into(p, &rc, s, t, reply, out, n, max);
                }
            }
        }
    }
    /* 3. the king stays: an unpromoted defender piece on s in p was dropped there
     * to block the check's line (合駒) */
    for (int s = 0; s < SQ_NB && n < max; s++) {
        int pc = p->board[s], pt = piece_type(pc);
        if (!pc || piece_color(pc) != them || pt > GOLD) continue;
        Position r = *p;
        pos_remove(&r, s);
        n += checks_into(p, &r, -1, -1, make_drop(pt, s), out, n, max);
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
int extend_pool_add_sfen(ExtendPool *pool, const char *sfen, int length, int extended, int parent) {
    if (keys_has(&pool->sfen, sfen)) return 0;
    if (pool->n == pool->cap) {
        int cap = pool->cap ? 2 * pool->cap : 64;
        int *l = realloc(pool->length, sizeof(int) * (size_t)cap);
        if (!l) return -1;
        pool->length = l;
        int *pa = realloc(pool->parent, sizeof(int) * (size_t)cap);
        if (!pa) return -1;
        pool->parent = pa;
        int *k = realloc(pool->kids_extended, sizeof(int) * (size_t)cap);
        if (!k) return -1;
        pool->kids_extended = k;
        uint8_t *x = realloc(pool->extended, (size_t)cap);
        if (!x) return -1;
        pool->extended = x, pool->cap = cap;
    }
    if (keys_add(&pool->sfen, sfen) < 0) return -1;
    int i = pool->n++;
    pool->length[i] = length, pool->extended[i] = 0, pool->kids_extended[i] = 0;
    pool->parent[i] = parent >= 0 && parent < i ? parent : -1;
    if (extended) extend_pool_take(pool, i);
    return 1;
}

int extend_pool_add(ExtendPool *pool, const Position *pos, int length, int parent) {
    char key[SFEN_MAX];
    compose_canonical(pos, key, sizeof key);
    return extend_pool_add_sfen(pool, key, length, 0, parent);
}

void extend_pool_take(ExtendPool *pool, int i) {
    pool->extended[i] = 1;
    if (pool->parent[i] >= 0) pool->kids_extended[pool->parent[i]]++;
}

/* the order of extend_pool_next: the length less the siblings' discount */
static int pool_score(const ExtendPool *pool, int i) {
    int p = pool->parent[i];
    return pool->length[i] - (p < 0 || pool->sibling_step <= 0 ? 0 : 2 * (pool->kids_extended[p] / pool->sibling_step));
}

int extend_pool_next(const ExtendPool *pool, int min_length) {
    int best = -1, best_score = 0;
    for (int i = 0; i < pool->n; i++) {
        if (pool->extended[i] || pool->length[i] < min_length) continue;
        int s = pool_score(pool, i);
        if (best < 0 || s > best_score) best = i, best_score = s;
    }
    return best;
}

void extend_pool_free(ExtendPool *pool) {
    keys_free(&pool->sfen);
    free(pool->length);
    free(pool->parent);
    free(pool->kids_extended);
    free(pool->extended);
    memset(pool, 0, sizeof *pool);  /* (sibling_step too) */
}
