/* dfpn.c - depth-limited df-pn with hand superiority, path-exact repetition
 * handling and the futile-interposition rule (see dfpn.h for the semantics).
 *
 * Every visit of a node keeps its children's (pn, dn, len, flags) in a per-ply
 * frame on the heap.  Path-dependent disproofs (repetition, forbidden positions)
 * never enter the main table: repetition-bound ones go to a side table checked
 * against the current path (RepEntry), or become path-free (see mid).  The
 * futile-interposition questions and the exact-length front door are in
 * dfpn_futile.c. */
#include <stdlib.h>
#include <string.h>
#include "dfpn_impl.h"
#include "../core/screen.h"

/* The correction for drops (NOTES_VERIFIER 3): at a proven defender node in check
 * from a distant slider, a kind the defender does not hold but could interpose was
 * no defence only because the attacker keeps all of it; the proof hand must then
 * require every piece of that kind the attacker holds here. */
static void interpose_correction(const DfCtx *c, const Position *pos, uint8_t ph[8]) {
    int def = c->attacker ^ 1;
    if (pos->king_sq[def] == SQ_NONE) return;
    Bitboard chk = checkers_of(pos);
    if (!bb_any(chk) || bb_more_than_one(chk)) return;  /* double check: no interposition */
    Bitboard btw = between_bb(pos->king_sq[def], bb_lsb(chk));
    if (!bb_any(btw)) return;
    for (int k = PAWN; k <= GOLD; k++)
        if (!pos->hand[def][k] && pos->hand[c->attacker][k] > ph[k] && bb_any(drop_targets(pos, k, btw)))
            ph[k] = pos->hand[c->attacker][k];
}

/* Proof hand of an OR node proven by move m (played from pos) whose child has proof hand cph. */
static void or_proof_hand(const Position *pos, Move m, const uint8_t cph[8], uint8_t ph[8]) {
    memcpy(ph, cph, 8);
    if (move_is_drop(m)) ph[move_drop_type(m)]++;
    else if (pos->board[move_to(m)]) {
        int k = raw_type(piece_type(pos->board[move_to(m)]));
        if (ph[k]) ph[k]--;
    }
}

/* Disproof hands (plain and no-drop rules): a disproof carries in ph the largest
 * attacker hand it holds for, so the table answers "no mate" for the same board
 * with up to those pieces in hand (tt_probe's weak match), as proofs do with their
 * proof hands.  Every disproof's hand is at least the actual one; where no better
 * hand is known it is the actual one.  Under the futile rule, or with a forbidden
 * set, entries do not generalise over hands: the actual hand. */
static const uint8_t hand_full[HAND_TYPE_NB] = {SET_COUNT_LIST};  /* a set's count of each kind */

static int hands_generalise(const DfCtx *c, int mode) { return mode != DF_FUTILE && !c->nforbid; }

static void actual_hand(const DfCtx *c, const Position *pos, uint8_t h[8]) { memcpy(h, pos->hand[c->attacker], 8); }

/* A disproof that holds for any hand (a bound reached, a defence that needs no
 * piece in hand): every kind at its full count. */
static void any_hand(uint8_t h[8]) { memcpy(h, hand_full, 8); }

/* An attacker node without a check: more of a kind it holds gives no new check,
 * any of a kind it lacks might. */
static void no_check_hand(const DfCtx *c, const Position *pos, uint8_t h[8]) {
    for (int k = 0; k < 8; k++) h[k] = pos->hand[c->attacker][k] ? hand_full[k] : 0;
}

/* The disproof hand of an attacker node: the least over its checks of what each
 * check's refutation allows, mapped back through the check (a drop used one more
 * piece, a capture gained one); none of a kind the attacker lacks here (its drops
 * were never tried). */
static void or_disproof_hand(const DfCtx *c, const Position *pos, const Frame *f, int n, uint8_t h[8]) {
    no_check_hand(c, pos, h);
    for (int i = 0; i < n; i++) {
        if (!f->act[i]) continue;
        Move m = f->ml.moves[i];
        uint8_t a[8];
        memcpy(a, f->ph[i], 8);
        if (move_is_drop(m)) a[move_drop_type(m)]++;
        else if (pos->board[move_to(m)]) {
            int k = raw_type(piece_type(pos->board[move_to(m)]));
            TG_ASSERT(a[k] > 0);
            a[k]--;
        }
        for (int k = PAWN; k <= GOLD; k++)
            if (a[k] < h[k]) h[k] = a[k];
    }
}

/* The disproof hand of a defender node refuted by child ref: the child's; under the
 * plain rule a refuting drop of kind k needs the defender to keep one, so with the
 * hand convention (more for the attacker is less for the defender) the attacker may
 * hold at most its own count plus the defender's less one. */
static void and_disproof_hand(const DfCtx *c, const Position *pos, const Frame *f, int ref, uint8_t h[8]) {
    memcpy(h, f->ph[ref], 8);
    Move m = f->ml.moves[ref];
    if (move_is_drop(m)) {
        int k = move_drop_type(m), most = pos->hand[c->attacker][k] + pos->hand[c->attacker ^ 1][k] - 1;
        if (h[k] > most) h[k] = (uint8_t)most;
    }
}

/* ---- search ---- */

/* The no-drop rule's evasions: drops left out (in place); the new count. */
static int without_drops(MoveList *ml) {
    int n = 0;
    for (int i = 0; i < ml->count; i++)
        if (!move_is_drop(ml->moves[i])) ml->moves[n++] = ml->moves[i];
    ml->count = n;
    return n;
}

/* Defender moves at an AND node under a rule mode. */
static int gen_defences(const Position *pos, int mode, MoveList *ml) {
    int n = gen_evasions(pos, ml);
    return mode == DF_NODROP ? without_drops(ml) : n;
}

/* Index of k on the current path (OR positions), -1 if absent. */
static int on_path(const DfCtx *c, uint64_t k) {
    if (c->no_rep) return -1;
    for (int i = c->path_base; i < c->path_n; i++)
        if (c->path[i] == k) return i;
    return -1;
}

static int forbidden(const DfCtx *c, uint64_t k) {
    for (int i = 0; i < c->nforbid; i++)
        if (c->forbid[i] == k) return 1;
    return 0;
}

#define NO_CUT (-2)
/* Is reaching pk a failure for the attacker: REP_FORBID for a forbidden position
 * (plain rule), the path index it repeats (OR nodes only), else NO_CUT. */
static int path_cut(const DfCtx *c, uint64_t pk, int mode, int is_or) {
    if (mode == DF_PLAIN && forbidden(c, pk)) return REP_FORBID;
    int k = is_or ? on_path(c, pk) : -1;
    return k >= 0 ? k : NO_CUT;
}

/* INF means proven or disproven and nothing else: a sum of unresolved numbers
 * stops at INF - 1 (summed pn of a DAG double-count and once reached 2^48 at an
 * unresolved root, which the length search then took for a disproof). */
static uint64_t sat_add(uint64_t a, uint64_t b) {
    if (a >= INF || b >= INF) return INF;
    return a + b >= INF ? INF - 1 : a + b;
}
/* The 1+epsilon trick: a child may run until it is clearly worse than its best
 * sibling (not just by one), so the search does not flip between near-equal
 * siblings and re-expand their subtrees from the table each time.  epsilon is
 * 1/c->eps_div (df_set_epsilon; 1/DF_EPSILON_DIV by default). */
static uint64_t eps_up(const DfCtx *c, uint64_t second) {
    if (second >= INF - 1) return second;
    uint64_t e = second + 1 + second / (uint64_t)c->eps_div;
    return e >= INF ? INF - 1 : e;
}

static int or_last_ply(DfCtx *c, Position *pos, int mode, Nd *r, Move *bm);
static void mid(DfCtx *c, Position *pos, int depth, int mode, uint64_t thpn, uint64_t thdn, int ply, Nd *out);

/* A resolved number pair has the other number at INF (the aggregation relies on it);
 * debug builds check every child against it. */
static int numbers_consistent(uint64_t pn, uint64_t dn) { return (dn != 0 || pn == INF) && (pn != 0 || dn == INF); }

/* Interposition drops on one square are chained (see aggregate): marks the square
 * of drop m in `seen` (81 bits in two words); 1 if m is the first drop there. */
static int first_drop_on_square(uint64_t seen[2], Move m) {
    int s = move_to(m);
    if (seen[s >> 6] >> (s & 63) & 1) return 0;
    seen[s >> 6] |= 1ull << (s & 63);
    return 1;
}

/* Fills child i of frame f (a node at `ply`) from the table or cheap tests. */
static void init_child(DfCtx *c, Position *pos, Frame *f, int i, int cdepth, int mode, int child_or) {
    Undo u;
    Move m = f->ml.moves[i];
    f->len[i] = NO_LEN;
    f->flg[i] = 0;
    memset(f->ph[i], 0, 8);
    pos_do_move(pos, m, &u);
    int cut;
    if (child_or && cdepth < 1) {
        f->pn[i] = INF; f->dn[i] = 0; f->flg[i] = DF_DEPTH;
        any_hand(f->ph[i]);
    } else if ((cut = path_cut(c, pos_key(pos), mode, child_or)) != NO_CUT) {
        f->pn[i] = INF; f->dn[i] = 0; f->flg[i] = DF_REP;
        f->rl[i] = f->rh[i] = (int16_t)cut;
        actual_hand(c, pos, f->ph[i]);
    } else {
        Probe p;
        Nd rn;
        if (rep_lookup(c, pos, mode, cdepth, &rn)) {
            f->pn[i] = INF; f->dn[i] = 0; f->flg[i] = (uint8_t)rn.flags;
            f->rl[i] = (int16_t)rn.rep; f->rh[i] = (int16_t)rn.rep_hi;
            actual_hand(c, pos, f->ph[i]);
            pos_undo_move(pos, m, &u);
            return;
        }
        tt_probe(c, node_key(pos, mode), pos, mode, cdepth, &p);
        f->pn[i] = p.pn;
        f->dn[i] = p.dn;
        f->flg[i] = (uint8_t)p.flags;
        if (p.status == DF_PROVEN || p.status == DF_DISPROVEN) memcpy(f->ph[i], p.ph, 8);
        if (p.status == DF_PROVEN) f->len[i] = (int16_t)p.len;
        else if (p.status == DF_UNKNOWN && !p.hit && !child_or) {
            /* df-pn+: a new AND child's pn = number of evasions, counted without a
             * list (count_evasions: Zuko 8's first search 7 % faster, the same nodes;
             * listing them here was a quarter of its time).  (Not for a disproof
             * found by hand superiority, which is no "hit": it once got pn = n with
             * dn = 0, and the parent kept choosing that disproven child — Zuko 6
             * cycled between plies 22 and 26 for minutes.) */
            int nondrop, drop_squares;
            int n = count_evasions(pos, &nondrop, &drop_squares);
            if (mode == DF_NODROP) n = nondrop;
            if (n == 0) {
                f->pn[i] = 0; f->dn[i] = INF; f->len[i] = 0;
                if (mode != DF_NODROP) interpose_correction(c, pos, f->ph[i]);
            }
            /* Not mated within 0: a non-drop defence is a refutation under every rule;
             * under the plain rule a drop refutes too, and says so (DF_DREF), or a
             * futile-rule query would borrow it where the drop is futile (mate in 1). */
            else if (cdepth == 0 && (nondrop || mode == DF_PLAIN)) {
                f->pn[i] = INF; f->dn[i] = 0;
                f->flg[i] = (uint8_t)(DF_DEPTH | (nondrop ? 0 : DF_DROPREF));
                if (nondrop) any_hand(f->ph[i]);  /* (a board defence needs no piece in hand) */
                else actual_hand(c, pos, f->ph[i]);
            }
            /* While finding a mate, interposition kinds count once per square, as the
             * aggregate chains them: all kinds counted, a distant check behind which
             * the defender can drop four kinds on four squares looked 12 evasions
             * worse than it is.  Zuko 1-70's first plain search: 1.8x fewer nodes
             * (geometric mean), Zuko 1 7.2 M (none in 24 M before), Zuko 8's first
             * mate ever (114 M).  Bounded queries keep n: the 余詰 analysis measured
             * 2 % more nodes with the per-square count. */
            else f->pn[i] = (uint64_t)(c->find && mode == DF_PLAIN ? nondrop + drop_squares : n);
        } else if (p.status == DF_UNKNOWN && !p.hit && child_or) {
            /* ... and its disproof side: a new OR child's dn = number of checks (each
             * must be refuted; count_checks counts them without a list), so an AND
             * node tries first the defence that leaves the attacker fewest checks.
             * Depth-bounded disproofs ("no mate within L-2") dominate exact lengths:
             * bench solve full verdicts -35 % time, Zuko 1-29 at 8 M nodes 18 exact
             * (was 17), most in half the nodes.  No check at all: no mate, whatever
             * the depth. */
            Nd lr;
            Move bm;
            if (cdepth == 1 && or_last_ply(c, pos, mode, &lr, &bm)) {
                /* one ply left: settled now, as part of this node's expansion like the
                 * check count it replaces (so node budgets keep their meaning).  Not
                 * stored: the parent usually settles on this visit (see mid), and
                 * storing measured slower (Zuko 21 within 15: 54 s against 43 s) */
                f->pn[i] = lr.pn; f->dn[i] = lr.dn; f->flg[i] = (uint8_t)lr.flags;
                if (lr.pn == 0) { f->len[i] = (int16_t)lr.len; memcpy(f->ph[i], lr.ph, 8); }
                else actual_hand(c, pos, f->ph[i]);
            } else {
                int n = count_checks(pos);
                if (n == 0) { f->pn[i] = INF; f->dn[i] = 0; no_check_hand(c, pos, f->ph[i]); }
                else f->dn[i] = (uint64_t)n;
            }
        }
    }
    if (f->dn[i] == 0 && !hands_generalise(c, mode)) actual_hand(c, pos, f->ph[i]);
    TG_ASSERT(numbers_consistent(f->pn[i], f->dn[i]));
    TG_ASSERT(f->dn[i] != 0 || hand_ge(f->ph[i], pos->hand[c->attacker]));
    pos_undo_move(pos, m, &u);
}

/* Interposition drops on one square are chained (NOTES_VERIFIER 6): only the first
 * unproven drop of each square counts towards the AND node's proof number and can
 * be chosen; the next kind joins when it is proven.  A disproved one always counts.
 * (Not under the futile rule: there the pending-drop logic orders drops, and
 * chaining measured worse on the ShogiBoardQ sets.) */
static void aggregate(const Frame *f, int n, int is_or, int delay, Nd *r, int *best, uint64_t *second, int *ref) {
    uint64_t sum = 0, mn = INF + 1, mn2 = INF, seen[2] = {0, 0};
    int b = -1, len = is_or ? NO_LEN : 0, flags = 0, frank = 99, any = 0, rep = MAXPLY + 4, brep = -2;
    int rep_hi = -1, brep_hi = -1, bref = -1;
    for (int i = 0; i < n; i++) {
        if (f->act[i] != 1) continue;
        any = 1;
        if (delay && !is_or && f->pn[i] != 0 && f->dn[i] != 0 && move_is_drop(f->ml.moves[i]) &&
            !first_drop_on_square(seen, f->ml.moves[i]))
            continue;  /* waits behind an earlier kind */
        uint64_t key = is_or ? f->pn[i] : f->dn[i], other = is_or ? f->dn[i] : f->pn[i];
        sum = sat_add(sum, other);
        if (key < mn || (key == mn && b >= 0 && f->len[i] < f->len[b])) { mn2 = mn < mn2 ? mn : mn2; mn = key; b = i; }
        else if (key < mn2) mn2 = key;
        if (is_or) {
            if (f->pn[i] == 0 && f->len[i] < len) len = f->len[i];
            if (f->dn[i] == 0) {
                flags |= f->flg[i];
                if ((f->flg[i] & DF_REP) && f->rl[i] < rep) rep = f->rl[i];
                if ((f->flg[i] & DF_REP) && f->rh[i] > rep_hi) rep_hi = f->rh[i];
            }
        } else {
            if (f->pn[i] == 0 && f->len[i] > len) len = f->len[i];
            if (f->dn[i] == 0) {
                /* the most general disproof: absolute, then depth-bound, then path-bound;
                 * among equals one whose refutations are no drops (see tt_probe), here
                 * and then below */
                int fl = f->flg[i] | (move_is_drop(f->ml.moves[i]) ? DF_DROPREF : 0);
                int rk = 4 * ((fl & DF_REP) ? 2 : (fl & DF_DEPTH) ? 1 : 0) + ((fl & DF_DREF) ? 2 : 0) +
                         ((fl & DF_DDEEP) ? 1 : 0);
                int rl = (fl & DF_REP) ? f->rl[i] : MAXPLY + 4;  /* among path-bound ones: the most local */
                if (rk < frank || (rk == frank && rl > brep)) {
                    frank = rk; flags = fl; brep = rl; bref = i;
                    brep_hi = (fl & DF_REP) ? f->rh[i] : -1;
                }
            }
        }
    }
    if (!any) {  /* AND node without defences left: mated */
        r->pn = is_or ? INF : 0; r->dn = is_or ? 0 : INF; r->len = 0; r->flags = 0; r->rep = MAXPLY + 4; r->rep_hi = -1;
        *best = -1; *second = INF; *ref = -1;
        return;
    }
    if (mn > INF) mn = INF;
    if (is_or) { r->pn = mn; r->dn = sum; } else { r->pn = sum; r->dn = mn; }
    r->len = 1 + len;
    r->flags = flags;
    r->rep = is_or ? rep : brep;
    r->rep_hi = is_or ? rep_hi : brep_hi;
    *best = b;
    *second = mn2;
    *ref = bref;
}

/* An OR node with one ply left is mated in one or not at all within its bound:
 * the screen's mate-in-1 scan (core/screen.c) answers that without a frame, and
 * without a table probe and a full evasion list per check, most of them skipped
 * unmade because the king keeps a free square.  Within such bounds these nodes
 * were a fifth of the nodes and most of the children (Zuko 21, "no mate within
 * 13": 5.4 M of 25 M child set-ups).  The answer is the one mid would give: the
 * first mating check in gen_checks order, its proof hand, and a disproof flagged
 * as depth-bound (drop-refuted under the plain rule where a check is answered by
 * drops only).  0 (mid searches instead): under the futile rule a check answered
 * by drops only before any mate (whether they are futile is the search's question),
 * or a forbidden set, whose positions the scan does not see. */
static int or_last_ply(DfCtx *c, Position *pos, int mode, Nd *r, Move *bm) {
    if (!c->last_ply || c->nforbid) return 0;
    ScScan s;
    Move m;
    int dref = 0;
    sc_scan_init(pos, &s);
    while ((m = sc_scan_next(pos, &s)) != MOVE_NONE) {
        int kind = sc_reply_kind(pos, m);  /* 0 mated, 1 a board defence, 2 drops only */
        if (kind == 2) {
            if (mode == DF_FUTILE) return 0;
            if (mode == DF_PLAIN) { dref = DF_DROPREF; continue; }
            kind = 0;  /* the no-drop rule: no defence */
        }
        if (kind) continue;
        uint8_t cph[8] = {0};
        if (mode != DF_NODROP) {
            Undo u;
            pos_do_move(pos, m, &u);
            interpose_correction(c, pos, cph);
            pos_undo_move(pos, m, &u);
        }
        r->pn = 0; r->dn = INF; r->len = 1; r->flags = 0;
        or_proof_hand(pos, m, cph, r->ph);
        *bm = m;
        return 1;
    }
    r->pn = INF; r->dn = 0; r->len = NO_LEN;
    r->flags = s.checks ? DF_DEPTH | dref : 0;  /* no check at all: no mate, whatever the depth */
    *bm = MOVE_NONE;
    return 1;
}

/* One more node: 0 (and aborted) when it is past a limit; the progress hook fires
 * at every multiple of its period. */
static int count_node(DfCtx *c) {
    c->nodes++;
    int check = (c->nodes & 1023) == 0;
    if (check && c->publish) atomic_store_explicit(c->publish, c->nodes, memory_order_relaxed);
    if (check && c->grow_max) tt_grow_point(c);
    if ((c->node_limit && c->nodes > c->node_limit) ||
        (check && ((c->deadline > 0 && df_now() > c->deadline) || df_stopped(c)))) {
        c->aborted = 1;
        return 0;
    }
    if (c->progress && (c->nodes & c->progress_mask) == 0)  /* (a sharing helper's nodes included) */
        c->progress(c->progress_arg, c->nodes + atomic_load_explicit(&c->helper_nodes, memory_order_relaxed));
    return 1;
}

/* An OR node three plies from the bound: mated in one (the scan), or by a check
 * after which every defence is mated in one, or not within its bound.  Settled
 * at once without frames or table entries for the plies below (a bounded query's
 * deepest AND and OR nodes were half of its expansions: Zuko 21 "within 13").
 * The answer is one mid could give: a proof of the shortest length with the
 * proof hands mid would compute, or a depth-bound disproof flagged as mid would
 * (DF_DREF where a drop refutes under the plain rule; absolute only without
 * checks).  0 (mid searches instead) where the futile rule asks a futility
 * question (a drop not mated in one, or a check answered by drops only), where a
 * defence repeats a position of the path, or with a forbidden set. */
static int or_three_ply(DfCtx *c, Position *pos, int mode, Nd *r, Move *bm) {
    if (c->last_ply < 2) return 0;
    if (!or_last_ply(c, pos, mode, r, bm)) return 0;
    if (r->pn == 0 || r->flags == 0) return 1;  /* mated in one, or no check at all */
    MoveList checks, ev;
    int nc = gen_checks(pos, &checks), flags = 0;
    for (int i = 0; i < nc; i++) {
        Move cm = checks.moves[i];
        Undo u;
        if (!count_node(c)) return 0;  /* (the AND node mid would have expanded) */
        pos_do_move(pos, cm, &u);
        int n = gen_defences(pos, mode, &ev), refuted = 0, rflags = 0, pending = 0;
        uint8_t aph[8] = {0};
        for (int k = 0; k < n; k++) {
            Move dm = ev.moves[k];
            Undo u2;
            Nd lr;
            Move lbm;
            pos_do_move(pos, dm, &u2);
            int ok = on_path(c, pos_key(pos)) < 0 && or_last_ply(c, pos, mode, &lr, &lbm);
            pos_undo_move(pos, dm, &u2);
            if (!ok) { pos_undo_move(pos, cm, &u); return 0; }
            if (lr.pn == 0) {
                for (int q = PAWN; q <= GOLD; q++)
                    if (lr.ph[q] > aph[q]) aph[q] = lr.ph[q];
                continue;
            }
            if (!move_is_drop(dm)) { refuted = 1; rflags = lr.flags; break; }
            if (mode == DF_FUTILE) pending = 1;  /* futile or not: mid's question */
            else if (!refuted) { refuted = 1; rflags = lr.flags | DF_DROPREF; }  /* (plain rule; a board refutation may follow) */
        }
        if (!refuted && pending) { pos_undo_move(pos, cm, &u); return 0; }
        if (!refuted) {
            if (mode != DF_NODROP) interpose_correction(c, pos, aph);
            pos_undo_move(pos, cm, &u);
            r->pn = 0; r->dn = INF; r->len = 3; r->flags = 0;
            or_proof_hand(pos, cm, aph, r->ph);
            *bm = cm;
            return 1;
        }
        pos_undo_move(pos, cm, &u);
        flags |= rflags;
    }
    r->pn = INF; r->dn = 0; r->len = NO_LEN; r->flags = flags;
    *bm = MOVE_NONE;
    return 1;
}

static void mid(DfCtx *c, Position *pos, int depth, int mode, uint64_t thpn, uint64_t thdn, int ply, Nd *out) {
    out->pn = out->dn = 1;
    out->len = NO_LEN;
    out->flags = 0;
    out->rep = out->rep_hi = REP_FORBID;
    actual_hand(c, pos, out->ph);  /* (a disproof's hand unless one is computed) */
    if (c->aborted || !count_node(c)) return;
    int is_or = pos->side == c->attacker;
    uint64_t pk = pos_key(pos);
    int cut = path_cut(c, pk, mode, is_or);
    if (cut != NO_CUT) {
        out->pn = INF; out->dn = 0; out->flags = DF_REP;
        out->rep = out->rep_hi = cut;
        return;
    }
    if (is_or && depth < 1) {
        out->pn = INF; out->dn = 0; out->flags = DF_DEPTH;
        if (hands_generalise(c, mode)) any_hand(out->ph);
        return;
    }
    uint64_t key = node_key(pos, mode);
    Probe p;
    if (rep_lookup(c, pos, mode, depth, out)) return;
    tt_probe(c, key, pos, mode, depth, &p);
    if (p.status == DF_PROVEN) { out->pn = 0; out->dn = INF; out->len = p.len; memcpy(out->ph, p.ph, 8); return; }
    if (p.status == DF_DISPROVEN) {
        out->pn = INF; out->dn = 0; out->flags = p.flags;
        if (hands_generalise(c, mode)) memcpy(out->ph, p.ph, 8);
        return;
    }
    if (is_or && (depth == 1 || depth == 3)) {  /* settled by the scan, or 0: searched below */
        Move bm;
        if (depth == 1 ? or_last_ply(c, pos, mode, out, &bm) : or_three_ply(c, pos, mode, out, &bm)) {
            tt_store(c, key, pos, mode, depth, out, bm, 1);
            return;
        }
        if (c->aborted) return;
    }
    Frame *f = frame(c, ply);
    if (!f) return;
    int n = is_or ? gen_checks(pos, &f->ml) : gen_defences(pos, mode, &f->ml);
    uint64_t start_nodes = c->nodes;
    Nd r;
    memset(r.ph, 0, 8);
    if (n == 0) {
        if (is_or) {
            r.pn = INF; r.dn = 0; r.flags = 0; r.len = NO_LEN;
            if (hands_generalise(c, mode)) no_check_hand(c, pos, r.ph);
            else actual_hand(c, pos, r.ph);
        }
        else {
            r.pn = 0; r.dn = INF; r.flags = 0; r.len = 0;
            if (mode != DF_NODROP) interpose_correction(c, pos, r.ph);
        }
        tt_store(c, key, pos, mode, depth, &r, MOVE_NONE, 1);
        *out = r;
        return;
    }
    /* Futile rule (lazy): drops known to be futile are left out; a drop that is not
     * mated within depth-1 becomes pending (act = 2) and its futility is decided once
     * every other defence is proven.  act: 0 out, 1 active, 2 pending. */
    int fut_and = mode == DF_FUTILE && !is_or;
    uint64_t fmask = 0, fknown = 0, nf_here = 0, tried_here = 0;
    if (fut_and) {
        FutEntry *fe = fut_probe(c, key);
        if (fe) { fmask = fe->mask; fknown = fe->known; }
    }
    for (int i = 0; i < n; i++) prefetch_child(c, pos, f->ml.moves[i], mode);
    /* Two plies from the bound the children are settled as they are set up (the
     * last-ply scan), and the first board defence not mated in one refutes the
     * node: the others are left unscanned, with neutral numbers.  Scanning them
     * all cost as much as it saved (Zuko 1-29, "mate within 15?": 0.99x the time
     * of no scan, and Zuko 21 after G*7b 6b7b within 21 1.5x); stopping here,
     * 0.87x of that and 0.92x.  (Stopping only at an absolute refutation: 1.04x.) */
    int refuted = 0;
    for (int i = 0, j = 0; i < n; i++) {
        f->act[i] = 1;
        if (fut_and && move_is_drop(f->ml.moves[i])) {
            if (j < 64 && (fknown >> j & 1) && (fmask >> j & 1)) f->act[i] = 0;
            j++;
        }
        if (!f->act[i]) continue;
        if (refuted) {
            f->pn[i] = f->dn[i] = 1;
            f->len[i] = NO_LEN;
            f->flg[i] = 0;
            continue;
        }
        init_child(c, pos, f, i, depth - 1, mode, !is_or);
        refuted = !is_or && depth == 2 && c->last_ply && f->dn[i] == 0 && !(f->flg[i] & DF_REP) &&
                  !move_is_drop(f->ml.moves[i]);
    }
    if (is_or) {
        c->prefix[c->path_n] = (c->path_n ? c->prefix[c->path_n - 1] * 0x9E3779B97F4A7C15ull : 0x51ED27ull) ^ pk;
        c->path[c->path_n++] = pk;
    }
    int best, ref;
    uint64_t second;
    for (;;) {
        if (fut_and) {
            /* drops not mated within depth-1 wait for the futility test (pending);
             * a drop known to be non-futile stays: its disproof disproves the node */
            for (int i = 0, j = -1; i < n; i++) {
                if (!move_is_drop(f->ml.moves[i])) continue;
                j++;
                if (f->act[i] == 1 && f->dn[i] == 0 && !(j < 64 && ((fknown | nf_here) >> j & 1))) f->act[i] = 2;
            }
        }
        aggregate(f, n, is_or, mode != DF_FUTILE, &r, &best, &second, &ref);
        if (fut_and && r.pn == 0) {
            /* one pending drop at a time: the first that is not futile disproves the
             * node (it is not mated within depth-1), so the others need no test */
            uint64_t which = 0;
            for (int i = 0, j = 0; i < n && !which; i++) {
                if (!move_is_drop(f->ml.moves[i])) continue;
                if (f->act[i] == 2 && j < 64) which = 1ull << j;
                j++;
            }
            if (which) {
                uint64_t known = 0;
                int rc = compute_futile(c, pos, f, key, ply, which, &fmask, &known);
                f = c->frames[ply];
                if (rc == -2 || c->aborted) break;
                if (rc == -1) { fmask = 0; known = which; }  /* table lost a proof: count the drop (never unsound) */
                fknown |= known | which;
                for (int i = 0, j = 0; i < n; i++) {
                    if (!move_is_drop(f->ml.moves[i])) continue;
                    if (f->act[i] == 2 && j < 64 && (fknown >> j & 1)) f->act[i] = (fmask >> j & 1) ? 0 : 1;
                    j++;
                }
                continue;
            }
        }
        if (r.pn == 0 || r.dn == 0 || r.pn >= thpn || r.dn >= thdn) break;
        if (fut_and) {
            /* Before proving the other defences for L(E): every L(E) that matters
             * here is at most depth (else a non-drop defence refutes the node), so a
             * pending drop that is not futile against depth is a real defence that
             * is not mated in time, and disproves the node now.  Valid for this
             * depth only, so it stays local (nf_here). */
            int pi = -1, pj = 0;
            for (int i = 0, j = 0; i < n && pi < 0; i++) {
                if (!move_is_drop(f->ml.moves[i])) continue;
                if (f->act[i] == 2 && j < 64 && !(tried_here >> j & 1)) { pi = i; pj = j; }
                j++;
            }
            if (pi >= 0) {
                tried_here |= 1ull << pj;
                int ft = drop_futile_upto(c, pos, f->ml.moves[pi], depth, ply);
                f = c->frames[ply];
                if (ft < 0 || c->aborted) break;
                if (!ft) { nf_here |= 1ull << pj; f->act[pi] = 1; }
                continue;
            }
        }
        uint64_t cpn, cdn;
        if (is_or) {
            cpn = thpn < eps_up(c, second) ? thpn : eps_up(c, second);
            cdn = thdn >= INF ? INF : thdn - (r.dn - f->dn[best]);
        } else {
            cdn = thdn < eps_up(c, second) ? thdn : eps_up(c, second);
            cpn = thpn >= INF ? INF : thpn - (r.pn - f->pn[best]);
        }
        Undo u;
        Move m = f->ml.moves[best];
        Nd cr;
        pos_do_move(pos, m, &u);
        mid(c, pos, depth - 1, mode, cpn, cdn, ply + 1, &cr);
        pos_undo_move(pos, m, &u);
        f = c->frames[ply];
        TG_ASSERT(c->aborted || numbers_consistent(cr.pn, cr.dn));
        f->pn[best] = cr.pn;
        f->dn[best] = cr.dn;
        f->len[best] = (int16_t)(cr.len < NO_LEN ? cr.len : NO_LEN);
        f->flg[best] = (uint8_t)cr.flags;
        f->rl[best] = (int16_t)cr.rep;
        f->rh[best] = (int16_t)cr.rep_hi;
        memcpy(f->ph[best], cr.ph, 8);
        if (c->aborted) break;
    }
    if (is_or) c->path_n--;
    if (c->aborted) return;
    /* A disproof that assumes only "coming back here fails" is path-free: a mate from
     * here, if any, has a shortest form that never returns here.  Then it is cached. */
    if (is_or && r.dn == 0 && (r.flags & DF_REP) && r.rep >= c->path_n) {
        r.flags &= ~DF_REP;
        r.rep = MAXPLY + 4;
    } else if (r.dn == 0 && (r.flags & DF_REP))
        rep_store(c, pos, mode, depth, &r);
    Move bm = MOVE_NONE;
    if (is_or && r.pn == 0) {
        for (int i = 0; i < n; i++)
            if (f->act[i] && f->pn[i] == 0 && 1 + f->len[i] == r.len) {
                bm = f->ml.moves[i];
                or_proof_hand(pos, bm, f->ph[i], r.ph);
                break;
            }
    } else if (best >= 0) bm = f->ml.moves[best];
    if (r.dn == 0) {
        if (!hands_generalise(c, mode)) actual_hand(c, pos, r.ph);
        else if (is_or) or_disproof_hand(c, pos, f, n, r.ph);
        else if (ref >= 0) and_disproof_hand(c, pos, f, ref, r.ph);
        else actual_hand(c, pos, r.ph);
        TG_ASSERT(hand_ge(r.ph, pos->hand[c->attacker]));
    }
    if (!is_or && r.pn == 0) {  /* every counted defence is proven: the union of their hands */
        memset(r.ph, 0, 8);
        for (int i = 0; i < n; i++)
            if (f->act[i] == 1)
                for (int k = PAWN; k <= GOLD; k++)
                    if (f->ph[i][k] > r.ph[k]) r.ph[k] = f->ph[i][k];
        if (mode != DF_NODROP) interpose_correction(c, pos, r.ph);
    }
    uint64_t w = c->nodes - start_nodes + 1;
    tt_store(c, key, pos, mode, depth, &r, bm, w > UINT32_MAX ? UINT32_MAX : (uint32_t)w);
    *out = r;
}

/* Does every piece kind have its full count (board + hands)?  Then the defender's
 * hand is determined by the board and the attacker's hand (captures keep it so). */
/* mid stays static: the recursion is the hot path, and the compiler optimises it
 * better when it sees every call (Zuko 21 within 15 ran 3-9 % slower otherwise). */
void mid_solve(DfCtx *c, Position *pos, int depth, int mode, int ply, Nd *out) {
    mid(c, pos, depth, mode, INF, INF, ply, out);
}

void set_conv(DfCtx *c, const Position *pos) {
    int cnt[8] = {0};
    for (int sq = 0; sq < SQ_NB; sq++) {
        int pt = piece_type(pos->board[sq]);
        if (pos->board[sq] && pt != KING) cnt[raw_type(pt)]++;
    }
    int conv = 1;
    for (int k = PAWN; k <= GOLD; k++) conv &= cnt[k] + pos->hand[0][k] + pos->hand[1][k] == hand_full[k];
    c->conv = conv;
}

DfResult df_search(DfCtx *c, Position *pos, int depth, int mode) {
    DfResult res = {DF_UNKNOWN, 0, 0, MOVE_NONE};
    if (c->aborted) return res;
    set_conv(c, pos);
    if (depth > DF_MAX_DEPTH) depth = DF_MAX_DEPTH;
    c->path_n = c->path_base = 0;
    Nd r;
    /* Deep bounded futile-rule queries (the main line of a long problem): the plain
     * rule first (plain_first), then the query itself with the repetition test on:
     * a shortest mate never repeats, so cutting repetitions keeps the answer exact for
     * this root, and it spares the cycle chase (Zuko 100's line stalled at ply 259). */
    int deep = mode == DF_FUTILE && depth >= PLAIN_FIRST_DEPTH && depth < DF_MAX_DEPTH;
    if (!deep || plain_first(c, pos, depth, 0, 1, &r) < 0) {
        int save = c->no_rep;
        if (deep) c->no_rep = 0;
        c->find = mode == DF_PLAIN && depth >= DF_MAX_DEPTH;
        mid(c, pos, depth, mode, INF, INF, 0, &r);
        c->no_rep = save;
        c->find = 0;
    }
    if (c->aborted) return res;
    if (r.pn == 0) { res.result = DF_PROVEN; res.len = r.len; }
    else if (r.dn == 0) { res.result = DF_DISPROVEN; res.flags = r.flags; }
    return res;
}

DfResult df_probe(DfCtx *c, const Position *pos, int depth, int mode) {
    DfResult res = {DF_UNKNOWN, 0, 0, MOVE_NONE};
    Probe p;
    set_conv(c, pos);
    tt_probe(c, node_key(pos, mode), pos, mode, depth, &p);
    res.result = p.status;
    res.len = p.status == DF_PROVEN ? p.len : 0;
    res.best = p.status == DF_PROVEN ? p.best : MOVE_NONE;
    res.flags = p.flags;
    return res;
}

void df_set_last_ply(DfCtx *c, int level) { c->last_ply = level; }

void df_set_epsilon(DfCtx *c, int div) { c->eps_div = div < 1 ? 1 : div; }
