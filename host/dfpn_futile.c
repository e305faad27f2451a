/* dfpn_futile.c - the questions of the futile-interposition rule (L(E), "is this
 * drop futile?") and the bounded-query front door of the exact-length search
 * (df_exact_or, df_real_defences).  Each question is a nested df-pn search (mid in
 * dfpn.c) from a root of its own; answers go to the futile cache (dfpn_table.c). */
#include <string.h>
#include "dfpn_impl.h"

/* A root searched with infinite thresholds ends proven or disproven; anything else
 * (numbers that stopped short of INF) is undecided and counts as a limit hit, so no
 * caller can take "not proven" for "disproven".  1 if the search must stop. */
static int undecided(DfCtx *c, const Nd *r) {
    if (!c->aborted && r->pn != 0 && r->dn != 0) c->aborted = 1;
    return c->aborted;
}

/* A bounded query from a root (the length search, a futility test, L(E)).  Deep
 * bounds run with the repetition test on, as in df_search: a shortest mate never
 * repeats a position, so the answer stays exact for this root, and a deep "no"
 * does not chase the king round cycles to the bound.  Zuko 1's exact 69 (the
 * length search from 55 up) took 30.6 M nodes this way; without, 30 M nodes
 * reached 55. */
static void mid_rooted(DfCtx *c, Position *pos, int d, int mode, int ply, Nd *r) {
    int save = c->no_rep, save_find = c->find;
    if (d >= PLAIN_FIRST_DEPTH) c->no_rep = 0;
    c->find = mode == DF_PLAIN && d >= DF_MAX_DEPTH;
    mid_solve(c, pos, d, mode, ply, r);
    c->no_rep = save;
    c->find = save_find;
}

/* "Not mated within d" under the no-drop rule (DF_NODROP) is "not mated within d"
 * under both real rules: its defender only gives up the drops.  That search keeps
 * hand superiority and needs no futility test, and most refutations in a disproof
 * of a futile-rule query are king moves and captures anyway.  Zuko 21's "no mate
 * within 13" took 6.0-6.7 M nodes under the futile rule alone, 1.6-3.2 M with this
 * first (tables of 512 MB to 2 GB: df-pn's node counts move with what it keeps).
 * Where the no-drop rule finds a mate the caller searches under its own rule, and
 * finds the drop-free disproofs of the subtrees in the table (borrow_plain).
 * 1: disproven, 0: not, -2: a limit. */
static int nodrop_disproves(DfCtx *c, Position *pos, int d, int ply) {
    if (c->nforbid) return 0;  /* forbidden sets belong to plain-rule queries only */
    Nd r;
    mid_rooted(c, pos, d, DF_NODROP, ply, &r);
    if (undecided(c, &r)) return -2;
    return r.dn == 0;
}

/* "Mate within d?" under the futile rule, the no-drop rule asked first.  *r as
 * from mid: a disproof (pn INF, dn 0) when the no-drop rule found one. */
static void futile_within(DfCtx *c, Position *pos, int d, int ply, Nd *r) {
    int nd = nodrop_disproves(c, pos, d, ply);
    if (nd == 0) { mid_rooted(c, pos, d, DF_FUTILE, ply, r); return; }
    r->pn = nd > 0 ? INF : 1;  /* (-2: a limit, which undecided() reports) */
    r->dn = nd > 0 ? 0 : 1;
    r->flags = DF_DEPTH;
}

static int exact_or_at(DfCtx *c, Position *pos, int ub, int ply) {
    Nd r;
    mid_rooted(c, pos, ub, DF_FUTILE, ply, &r);
    if (undecided(c, &r)) return -2;
    if (r.pn != 0) return -1;
    int u = r.len;
    while (u - 2 >= 1) {
        futile_within(c, pos, u - 2, ply, &r);
        if (undecided(c, &r)) return -2;
        if (r.pn != 0) break;
        if (r.len >= u) break;  /* cannot happen: a proof within u-2 is shorter */
        u = r.len;
    }
    return u;
}

/* Deep futility tests (L(E) of a long problem) ask "mate within le?" where the
 * answer is often an absolute no or a short yes; bounded queries run without the
 * repetition test (df_set_no_rep), so a deep no chases the king round cycles until
 * the bound (Zuko 100's main line stalled for minutes in one such test).  The plain
 * rule, unbounded and with the repetition test, answers both cheaply: a plain proof
 * within le is a futile-rule one, a plain absolute no-mate is one too.  Only when
 * the hands are whole for the lookups (a real position, a capture given back, or no
 * hand convention), since a captured piece that vanishes would let plain entries mix
 * the two worlds.
 * 1: *r is the answer (pn 0 = mated within le, dn 0 = not mated); -1: search it. */
int plain_first(DfCtx *c, Position *pos, int le, int ply, int hands_whole, Nd *r) {
    if (le < PLAIN_FIRST_DEPTH || (!hands_whole && c->conv)) return -1;
    mid_rooted(c, pos, DF_MAX_DEPTH, DF_PLAIN, ply, r);
    if (c->aborted) return 1;
    if (r->pn == 0 && r->len <= le) return 1;
    if (r->dn == 0 && !(r->flags & DF_DEPTH)) return 1;  /* (DF_REP alone: exact for this root) */
    return -1;
}

/* Is the giveback test of (key after the capture, le) already running further up?
 * The drop and its capture cost no plies, so with the piece given back two
 * interposition squares can send the tests round a cycle at the same bound for
 * ever (Zuko 3 filled the 2,400-ply stack).  Such a repeat answers 0 at once,
 * which is sound because a giveback test is only ever believed when it says
 * "futile": on 0 its caller runs the exact test (the piece vanishes), and those
 * cannot cycle (each one takes a piece out of the game, or costs plies). */
static int giveback_cycle(const DfCtx *c, uint64_t key, int le) {
    for (int i = c->gb_n - 1; i >= 0; i--)
        if (c->gb_key[i] == key && c->gb_le[i] == le) return 1;
    return 0;
}

/* Is drop dm futile: capture on its square (a checking move) and mate within le
 * plies without the captured piece?  giveback: the captured piece goes back to the
 * defender's hand (the strongest defender: success here means futile for every kind). */
static int futile_test(DfCtx *c, Position *pos, Move dm, int le, int ply, int giveback) {
    Undo u1;
    int s = move_to(dm), k = move_drop_type(dm), att = c->attacker, res = 0;
    pos_do_move(pos, dm, &u1);
    Frame *g = frame(c, ply + 1);
    if (g) {
        gen_checks(pos, &g->ml);
        for (int i = 0; i < g->ml.count && !res; i++) {
            Move cm = g->ml.moves[i];
            if (move_is_drop(cm) || move_to(cm) != s) continue;
            Undo u2;
            pos_do_move(pos, cm, &u2);
            pos->hand[att][k]--;
            pos->hand_key -= ZOBRIST_HAND[att][k];
            if (giveback) { pos->hand[att ^ 1][k]++; pos->hand_key += ZOBRIST_HAND[att ^ 1][k]; }
            else c->vanished[k]++;
            Nd r = {1, 1, NO_LEN, 0, 0, 0, {0}};
            uint64_t gk = pos_key(pos);
            int cyc = giveback && giveback_cycle(c, gk, le), pushed = 0;
            if (giveback && !cyc && c->gb_n < GB_MAX) {
                c->gb_key[c->gb_n] = gk;
                c->gb_le[c->gb_n++] = (int16_t)le;
                pushed = 1;
            }
            int nd = cyc ? 0 : nodrop_disproves(c, pos, le, ply + 2);
            if (nd) { r.pn = nd > 0 ? INF : 1; r.dn = nd > 0 ? 0 : 1; }  /* (-2: undecided below) */
            else if (!cyc && plain_first(c, pos, le, ply + 2, giveback, &r) < 0)
                mid_rooted(c, pos, le, DF_FUTILE, ply + 2, &r);
            c->gb_n -= pushed;
            pos->hand[att][k]++;
            if (giveback) pos->hand[att ^ 1][k]--;
            else c->vanished[k]--;
            pos_undo_move(pos, cm, &u2);
            if (cyc) continue;  /* 0: the caller runs the exact test (giveback 0) */
            if (undecided(c, &r)) res = -2;
            else if (r.pn == 0) res = 1;
        }
    }
    pos_undo_move(pos, dm, &u1);
    return c->aborted ? -2 : res;
}

/* Is drop dm futile against every L(E) up to bound?  (Given back first: success
 * there holds for every kind.)  1 futile, 0 not, -2 on a limit.  A nested
 * question: the path so far is not part of it. */
int drop_futile_upto(DfCtx *c, Position *pos, Move dm, int bound, int ply) {
    int save_base = c->path_base;
    c->path_base = c->path_n;
    int r = futile_test(c, pos, dm, bound, ply, 1);
    if (r == 0) r = futile_test(c, pos, dm, bound, ply, 0);
    c->path_base = save_base;
    return r;
}

/* The AND node of frame f has every non-drop defence proven (f->len holds proof
 * lengths).  Decides the futility of the drops selected by `which` (bit j = j-th
 * drop), computing L(E) first if needed; results go to the futile cache.  A drop
 * found futile with the captured piece given back decides every kind on its
 * square (the defender is then no weaker than after any other drop there).
 * Returns 0, -1 if some non-drop defence turns out not mated, -2 on a limit. */
int compute_futile(DfCtx *c, Position *pos, Frame *f, uint64_t key, int ply, uint64_t which,
                   uint64_t *mask_out, uint64_t *known_out) {
    int save_base = c->path_base, rc = 0;
    c->path_base = c->path_n;
    FutEntry *fe = fut_probe(c, key);
    int le = fe ? fe->le : -1, le_ub = 0;
    uint64_t mask = fe ? fe->mask : 0, known = fe ? fe->known : 0;
    for (int i = 0; i < f->ml.count; i++)
        if (!move_is_drop(f->ml.moves[i])) {
            int u = f->len[i] < NO_LEN ? f->len[i] : DF_MAX_DEPTH;
            if (1 + u > le_ub) le_ub = 1 + u;
        }
    /* Two rounds: a drop that is not futile against the upper bound le_ub of L(E) is
     * not futile at all (cheap); only the others need the exact L(E). */
    for (int round = 0; round < 2 && rc == 0; round++) {
        uint64_t todo = which & ~known;
        if (!todo) break;
        int bound;
        if (round == 0) {
            if (le >= 0) continue;
            bound = le_ub;
        } else {
            if (le < 0) {
                le = 0;
                for (int i = 0; i < f->ml.count && rc == 0; i++) {
                    Move m = f->ml.moves[i];
                    if (move_is_drop(m)) continue;
                    Undo u;
                    pos_do_move(pos, m, &u);
                    int ex = exact_or_at(c, pos, f->len[i] < NO_LEN ? f->len[i] : DF_MAX_DEPTH, ply + 1);
                    pos_undo_move(pos, m, &u);
                    if (ex < 0) rc = ex;  /* -1: this defence is not mated */
                    else if (1 + ex > le) le = 1 + ex;
                }
                if (rc) break;
            }
            bound = le;
        }
        signed char sq_all[SQ_NB];
        memset(sq_all, -1, sizeof sq_all);
        for (int i = 0, j = 0; i < f->ml.count && rc == 0; i++) {
            Move m = f->ml.moves[i];
            if (!move_is_drop(m)) continue;
            int jj = j++;
            if (jj >= 64 || !(todo >> jj & 1)) continue;
            int s = move_to(m), fut;
            if (sq_all[s] < 0) {
                int r = futile_test(c, pos, m, bound, ply, 1);
                if (r < 0) { rc = -2; break; }
                sq_all[s] = (signed char)r;
            }
            fut = sq_all[s] ? 1 : futile_test(c, pos, m, bound, ply, 0);
            if (fut < 0) { rc = -2; break; }
            if (round == 0) {
                if (!fut) known |= 1ull << jj;  /* not futile even against the upper bound */
            } else {
                known |= 1ull << jj;
                if (fut) mask |= 1ull << jj;
            }
        }
        if (round == 1 && rc == 0)  /* exact L(E): a square futile for the strongest defender is futile for all */
            for (int i = 0, j = 0; i < f->ml.count && j < 64; i++)
                if (move_is_drop(f->ml.moves[i])) {
                    if (sq_all[move_to(f->ml.moves[i])] == 1) { known |= 1ull << j; mask |= 1ull << j; }
                    j++;
                }
    }
    c->path_base = save_base;
    if (rc) return rc;
    fe = fut_slot(c, key);  /* the nested searches may have reused the slot */
    if (le >= 0) fe->le = (int16_t)le;
    fe->mask |= mask;
    fe->known |= known;
    *mask_out = fe->mask;
    *known_out = fe->known;
    return 0;
}

/* Bottom-up: "mate within d?" for d = 1, 3, 5, ... until a proof; each disproof
 * raises the lower bound, so a limit still leaves a proven "no mate in < *lb". */
static int exact_or_up(DfCtx *c, Position *pos, int ub, int *lb) {
    for (int d = 1; d < ub; d += 2) {
        Nd r;
        futile_within(c, pos, d, 0, &r);
        if (undecided(c, &r)) return -2;
        if (r.pn == 0) return r.len;
        *lb = d + 2;
        df_note_bounds(c, 0, *lb);
    }
    return ub;  /* mated within ub (a plain proof of ub is a futile-rule proof within ub) */
}

int df_exact_or(DfCtx *c, Position *pos, int ub, int *lb) {
    if (c->aborted) return -2;
    if (ub > DF_MAX_DEPTH) ub = DF_MAX_DEPTH;
    set_conv(c, pos);
    c->path_n = c->path_base = 0;
    if (lb) {
        *lb = 1;
        return exact_or_up(c, pos, ub, lb);
    }
    return exact_or_at(c, pos, ub, 0);
}

int df_real_defences(DfCtx *c, Position *pos, int value, MoveList *out) {
    int n = gen_evasions(pos, out), ndrops = 0;
    for (int i = 0; i < n; i++) ndrops += move_is_drop(out->moves[i]);
    if (!ndrops || c->aborted) return c->aborted ? -2 : n;
    set_conv(c, pos);
    uint64_t key = node_key(pos, DF_FUTILE), mask = 0, all = ndrops >= 64 ? ~0ull : (1ull << ndrops) - 1;
    FutEntry *fe = fut_probe(c, key);
    if (fe && (fe->known & all) == all) mask = fe->mask;
    else {
        Frame *f = frame(c, 0);
        if (!f) return -2;
        f->ml = *out;
        for (int i = 0; i < n; i++) f->len[i] = (int16_t)(value > 0 && value - 1 < NO_LEN ? value - 1 : NO_LEN);
        c->path_n = c->path_base = 0;
        uint64_t known;
        int rc = compute_futile(c, pos, f, key, 0, all, &mask, &known);
        if (rc == -2) return -2;
        if (rc == -1) return n;
    }
    int k = 0;
    for (int i = 0, j = 0; i < n; i++) {
        Move m = out->moves[i];
        if (move_is_drop(m)) {
            int fut = j < 64 && (mask >> j & 1);
            j++;
            if (fut) continue;
        }
        out->moves[k++] = m;
    }
    out->count = k;
    return k;
}
