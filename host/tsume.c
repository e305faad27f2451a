/* tsume.c - exact answers: verdict, exact length, main line, flaws, notes.
 *
 * 1. Plain df-pn (every evasion a defence) decides mate / no mate and gives a proof
 *    length U.  Mate/no-mate does not depend on the futile rule.
 * 2. Exact length under the futile rule: "mate within d?" for d = 1, 3, 5, ... until
 *    a proof (so "no mate in L-2" is proved); a limit leaves the bounds [d, U].
 *    (Against top down from U: 13 % fewer nodes for full verdicts on the ShogiBoardQ
 *    sets, 2.6x fewer for the 11-ply exact pass.)  From 19 plies on, in turns with
 *    the walk along the main line (exact_length, walk_exact).
 * 3. Main line: the attacker plays a move whose child is mated within n-1; the
 *    defender a real defence of exact value n-1, ties broken by the fewest attacker
 *    pieces in hand at the end (bounded tie exploration).
 * 4. Flaws along the main line: 余詰 (another check that mates while avoiding every
 *    later main-line position: detours are excluded), 駒余り; notes for final-move
 *    alternatives, 成不成, 変同. */
#include <limits.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tsume.h"
#include "proofcheck.h"
#include "sfen.h"
#include "split.h"
/* exact_length: the plain length from which the main-line walk takes turns with the
 * bottom-up search, and their first node cap (a walk step's first cap is a quarter) */
#define WALK_MIN_PLIES 19
#define EXACT_FIRST_CAP 4000000

static int hand_total(const Position *pos, int c) {
    int n = 0;
    for (int k = PAWN; k <= GOLD; k++) n += pos->hand[c][k];
    return n;
}

static void add_note(TsAnswer *a, const char *fmt, const char *s1, int i1) {
    if (a->nnotes >= TS_MAX_NOTES) return;
    snprintf(a->notes[a->nnotes++], TS_NOTE_LEN, fmt, i1, s1);
}

/* Ties (several moves keeping the exact value) are compared by following each
 * one's line to the end, so a comparison at n plies from the end costs n plies of
 * line: the budget counts those plies (a flat count of compared moves let Zuko 100's
 * 611-ply line walk 64 more lines of 600 plies). */
#define TIE_BUDGET_PLIES 4096
#define TIE_DEPTH 128

typedef struct {
    DfCtx *c;
    int attacker;
    int tie_budget;  /* plies of scratch lines left for comparing ties */
    int ties_cut;    /* a tie was left uncompared: a leftover of the line is not proved minimal */
} LineCtx;

static int line_from(LineCtx *lc, Position *pos, int n, Move *pv, int *np);

/* The moves cand[0..nc) all keep the exact value n.  With several, each is followed
 * (on a scratch line) while the tie budget lasts, n plies per candidate, and the one
 * whose line leaves the fewest attacker pieces in hand is kept; free_ties explores
 * them all without touching the budget.  Then the chosen move goes into pv at *np
 * and its line is followed.  Returns as line_from. */
static int pick_and_follow(LineCtx *lc, Position *pos, int n, const Move *cand, int nc, int free_ties,
                           Move *pv, int *np) {
    int choice = 0;
    if (nc > 1 && !free_ties && lc->tie_budget < n) lc->ties_cut = 1;
    if (nc > 1 && (free_ties || lc->tie_budget >= n)) {
        Move *tmp = malloc(sizeof(Move) * TS_MAX_PV);
        if (!tmp) return -2;
        int best_left = 1 << 30;
        for (int k = 0; k < nc; k++) {
            if (!free_ties) {
                if (lc->tie_budget < n) { lc->ties_cut = 1; break; }
                lc->tie_budget -= n;
            }
            int tn = *np + 1;
            Undo u;
            pos_do_move(pos, cand[k], &u);
            int left = line_from(lc, pos, n - 1, tmp, &tn);
            pos_undo_move(pos, cand[k], &u);
            if (left == -2) { free(tmp); return -2; }
            if (left >= 0 && left < best_left) { best_left = left; choice = k; }
        }
        free(tmp);
    }
    Undo u;
    pv[(*np)++] = cand[choice];
    pos_do_move(pos, cand[choice], &u);
    int rc = line_from(lc, pos, n - 1, pv, np);
    pos_undo_move(pos, cand[choice], &u);
    return rc;
}

/* The real defences at an AND node of exact value n whose own value is n-1 (not
 * mated within n-3), skip excepted: the main line's candidates, and 変同 beside
 * it.  Writes at most max of them to out and returns their count; -2 if a limit
 * stopped the futility test of the drops.  *unknown is set when a limit left a
 * defence undecided (it is left out). */
static int longest_defences(DfCtx *c, Position *pos, int n, Move skip, MoveList *ml, Move *out, int max,
                            int *unknown) {
    int nd = df_real_defences(c, pos, n, ml), nc = 0;
    if (nd < 0) return -2;
    if (n - 3 < 1) {
        for (int i = 0; i < nd && nc < max; i++)
            if (ml->moves[i] != skip) out[nc++] = ml->moves[i];
        return nc;
    }
    /* the table first (the length proof's disproofs are often there), then searches */
    uint8_t settled[MAX_MOVES] = {0};
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nd && nc < max; i++) {
            if (ml->moves[i] == skip || settled[i]) continue;
            Undo u;
            pos_do_move(pos, ml->moves[i], &u);
            DfResult r = pass == 0 ? df_probe(c, pos, n - 3, DF_FUTILE) : df_search(c, pos, n - 3, DF_FUTILE);
            pos_undo_move(pos, ml->moves[i], &u);
            if (r.result == DF_UNKNOWN) {
                if (pass == 1) *unknown = 1;
                continue;
            }
            settled[i] = 1;
            if (r.result == DF_DISPROVEN) out[nc++] = ml->moves[i];
        }
    return nc;
}

/* Exact value n >= 0 of pos is known.  Writes the main line into pv (room for
 * TS_MAX_PV - *np moves).  Returns the attacker's pieces in hand at the end,
 * -1 if the table answers are inconsistent, -2 on a limit. */
static int line_from(LineCtx *lc, Position *pos, int n, Move *pv, int *np) {
    DfCtx *c = lc->c;
    if (n == 0) return hand_total(pos, lc->attacker);
    if (*np >= TS_MAX_PV) return -1;
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) return -2;
    if (pos->side == lc->attacker) {
        /* the shortest mates; among them the one that leaves the fewest pieces in hand */
        gen_checks(pos, ml);
        Move cand[64];
        int nc = 0;
        /* Before a move, several shortest mates are a 余詰 or a detour (the same
         * leftover), so short of the last move the mates the table already proves
         * are enough: searching every other check ("mate within n-1?" is mostly a
         * disproof) cost 60 % of Zuko 16's time. */
        for (int pass = 0; n > 1 && nc == 0 && pass < 2; pass++) {
            /* None in the table (replaced, or the length came from a plain proof):
             * prove this node again, which finds a mating child without disproving
             * the wrong checks first as the child-by-child search below would in move
             * order (a deep query asks the plain rule first: see df_search). */
            if (pass == 1 && df_search(c, pos, n, DF_FUTILE).result != DF_PROVEN) break;
            for (int i = 0; i < ml->count && nc < 64; i++) {
                Undo u;
                pos_do_move(pos, ml->moves[i], &u);
                if (df_probe(c, pos, n - 1, DF_FUTILE).result == DF_PROVEN) cand[nc++] = ml->moves[i];
                pos_undo_move(pos, ml->moves[i], &u);
            }
        }
        if (df_aborted(c)) { free(ml); return -2; }
        for (int i = 0; i < ml->count && nc < 64 && (n == 1 || nc == 0); i++) {
            Undo u;
            pos_do_move(pos, ml->moves[i], &u);
            DfResult r = df_search(c, pos, n - 1, DF_FUTILE);
            pos_undo_move(pos, ml->moves[i], &u);
            if (r.result == DF_PROVEN) cand[nc++] = ml->moves[i];
            if (r.result == DF_UNKNOWN) { free(ml); return -2; }
        }
        free(ml);
        if (nc == 0) return -1;
        /* ties on the mating move are always compared: each is only a count of the hand left */
        return pick_and_follow(lc, pos, n, cand, nc, n == 1, pv, np);
    }
    /* Past the tie budget, or further than TIE_DEPTH plies from the end, only one
     * longest defence is followed: the first (a table answer when there is one), and
     * the leftover is no longer proved minimal.  Enumerating them all that deep means
     * deciding near-longest defences with deep futile-rule proofs (Zuko 100, ply 259:
     * a defence of plain length 351 against 349 asked, minutes). */
    Move cand[64];
    int want = lc->tie_budget >= n && n <= TIE_DEPTH ? 64 : 1;
    int unknown = 0, nc = longest_defences(c, pos, n, MOVE_NONE, ml, cand, want, &unknown);
    free(ml);
    if (nc == -2 || (unknown && nc == 0)) return -2;
    if (unknown || (want == 1 && nc == 1)) lc->ties_cut = 1;
    if (nc == 0) return -1;
    return pick_and_follow(lc, pos, n, cand, nc, 0, pv, np);
}

static int same_but_promo(Move a, Move b) {
    return !move_is_drop(a) && !move_is_drop(b) && (a & ~MOVE_PROMO) == (b & ~MOVE_PROMO) && a != b;
}

/* Flaws and notes at ply k of the main line (pos is the position before it).
 * confirm: only the 余詰 test of the attacker's alternatives (notes were taken). */
static void analyse_node(DfCtx *c, const TsOptions *o, TsAnswer *a, Position *pos, int k, const uint64_t *keys,
                         MoveList *ml, int attacker, int confirm) {
    int L = a->npv, n = L - k;
    char buf[TS_NOTE_LEN], mv[8];
    buf[0] = 0;
    if (confirm && (pos->side != attacker || n == 1)) return;
    if (pos->side == attacker) {
        gen_checks(pos, ml);
        for (int i = 0; i < ml->count; i++) {
            Move m = ml->moves[i];
            if (m == a->pv[k]) continue;
            if (n == 1 && o->first_flaw) break;  /* final-move alternatives are only notes */
            Undo u;
            pos_do_move(pos, m, &u);
            move_format(m, mv);
            if (n == 1) {
                DfResult r = df_search(c, pos, 0, DF_FUTILE);
                if (r.result == DF_PROVEN && strlen(buf) + 8 < sizeof buf) { strcat(buf, " "); strcat(buf, mv); }
                if (r.result == DF_UNKNOWN) a->notes_incomplete = 1;
            } else {
                int detour = 0;
                for (int j = k + 1; j <= L; j++) detour |= keys[j] == pos_key(pos);
                DfResult r = {DF_DISPROVEN, 0, 0};
                int dalt = o->yozume_extra < 0 ? DF_MAX_DEPTH : n + o->yozume_extra;
                df_set_no_rep(c, dalt < DF_MAX_DEPTH);
                if (!detour) r = df_search(c, pos, dalt, DF_PLAIN);
                if (r.result == DF_PROVEN) {  /* mates; does it need a later main-line position? */
                    df_set_forbidden(c, keys + k + 1, L - k);
                    r = df_search(c, pos, dalt, DF_PLAIN);
                    df_set_forbidden(c, NULL, 0);
                }
                df_set_no_rep(c, 1);  /* the analysis runs bounded futile-rule queries */
                if (r.result == DF_UNKNOWN || (r.result == DF_DISPROVEN && (r.flags & DF_DEPTH) && dalt >= DF_MAX_DEPTH))
                    a->complete = 0;  /* (no mate within the deepest bound is not "none at all") */
                else if (r.result == DF_PROVEN) {
                    if (same_but_promo(m, a->pv[k])) {
                        char note[64];  /* (the confirming pass finds it again: noted once) */
                        snprintf(note, sizeof note, "%s", mv);
                        if (!confirm) add_note(a, "promotion_optional: ply %d %s also mates", note, k + 1);
                    } else if (a->nyozume < TS_MAX_YOZUME) {
                        a->yozume[a->nyozume].ply = k + 1;
                        a->yozume[a->nyozume].move = m;
                        a->yozume[a->nyozume].length = 1 + r.len;
                        a->nyozume++;
                    } else a->nyozume++;
                }
            }
            pos_undo_move(pos, m, &u);
            if (a->nyozume && o->first_flaw) return;
        }
        if (buf[0]) add_note(a, "final_move_alternatives: ply %d%s", buf, k + 1);
        return;
    }
    if (o->first_flaw) return;  /* 変同 is a note, not a flaw */
    Move cand[MAX_MOVES];
    int unknown = 0, nc = longest_defences(c, pos, n, a->pv[k], ml, cand, MAX_MOVES, &unknown);
    if (nc < 0 || unknown) a->notes_incomplete = 1;
    for (int i = 0; i < nc; i++) {
        move_format(cand[i], mv);
        if (strlen(buf) + 8 < sizeof buf) { strcat(buf, " "); strcat(buf, mv); }
    }
    if (nc > 0) add_note(a, "henka_dou: ply %d%s", buf, k + 1);
}

/* Flaws and notes along the main line: every ply from the root, or with
 * first_flaw from the last ply back (the cheap, shallow searches first) until
 * the first flaw.  confirm: the 余詰 tests only (see analyse_node). */
static void analyse_line(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root, int confirm) {
    int L = a->npv;
    uint64_t *keys = malloc(sizeof(uint64_t) * (L + 1));
    Position *line = malloc(sizeof(Position) * (L + 1));
    MoveList *ml = malloc(sizeof *ml);
    if (!keys || !line || !ml) {
        a->complete = 0;
    } else {
        line[0] = *root;
        keys[0] = pos_key(root);
        for (int k = 0; k < L; k++) {
            Undo u;
            line[k + 1] = line[k];
            pos_do_move(&line[k + 1], a->pv[k], &u);
            keys[k + 1] = pos_key(&line[k + 1]);
        }
        for (int i = 0; i < L && !df_aborted(c) && !(o->first_flaw && a->nyozume); i++) {
            int k = o->first_flaw ? L - 1 - i : i;
            analyse_node(c, o, a, &line[k], k, keys, ml, root->side, confirm);
        }
        if (df_aborted(c)) a->complete = 0;
    }
    free(ml);
    free(line);
    free(keys);
}

/* The flaw analysis of a's line: bounded 余詰 tests, then (yozume_confirm) the same
 * tests again with no bound when the bounded ones found none. */
static void analyse_line_confirmed(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root) {
    analyse_line(c, o, a, root, 0);
    if (o->yozume_confirm && o->yozume_extra >= 0 && a->complete && !a->nyozume) {
        TsOptions unbounded = *o;  /* 余詰 is a mate of any length: the bound found the cheap ones */
        unbounded.yozume_extra = -1;
        analyse_line(c, &unbounded, a, root, 1);
    }
}

/* Tied main lines.  After the leftover tie-break, several longest defences can
 * remain (変同), and then the main line is whichever the composer declares; 余詰
 * on the other lines are 変化別詰, not flaws.  So which tied line the search
 * happened to follow must not decide the verdict (it did: a 25-ply problem was
 * perfect or cooked depending on the table's move order).  The rule, from
 * TsOptions.tied_all: "any" (default) = perfect when some tied line is free of
 * 余詰, and that line is the one reported; "all" = cooked when any tied line is.
 * Lines are enumerated by branching at the defender nodes of a line already
 * analysed (and at the attacker's ties: attacker_ties); TIED_LINES_MAX lines at
 * most, beyond that the analysis is incomplete. */
#define TIED_LINES_MAX 24

typedef struct {
    Move pv[TS_MAX_PV];
    int branch;  /* ply index where this line leaves the line it came from */
} TiedLine;

/* The attacker's ties at ply k (a node of exact value n) of line a: the same move
 * with the other promotion choice (成不成, a note, not 余詰), a 余詰 of a at this
 * ply that also mates within n - 1, and on the last move every other mate (allowed,
 * a note).  Each is a main line the composer may declare, and the verdict must not
 * rest on which one the table or the move order offered first: the promotion
 * twin's lines differed (a 19-ply position was perfect with a 1 MB table, cooked
 * with 64 MB), and whether a shortest mate is a 余詰 or a detour (迂回) depends on
 * the other line's later positions, its final one included (a 3-ply position was
 * cooked and its mirror image perfect).  Count in out; *unknown on a limit. */
static int attacker_ties(DfCtx *c, Position *pos, const TsAnswer *a, int k, int n, MoveList *ml, Move *out,
                         int *unknown) {
    int nc = 0;
    Move played = a->pv[k];
    gen_checks(pos, ml);
    for (int i = 0; i < ml->count && nc < 64; i++) {
        Move m = ml->moves[i];
        int tie = n == 1 || same_but_promo(m, played);  /* (n 1: a final-move alternative) */
        for (int j = 0; j < a->nyozume && j < TS_MAX_YOZUME && !tie; j++)
            tie = a->yozume[j].ply == k + 1 && a->yozume[j].move == m;
        if (!tie) continue;
        Undo u;
        pos_do_move(pos, m, &u);
        DfResult r = df_search(c, pos, n - 1, DF_FUTILE);
        pos_undo_move(pos, m, &u);
        if (r.result == DF_UNKNOWN) *unknown = 1;
        if (r.result == DF_PROVEN) out[nc++] = m;
    }
    return nc;
}

/* Appends to q (from *nq, room for TIED_LINES_MAX) the lines that leave pv at a
 * defender ply (another longest defence) or an attacker ply (attacker_ties) in
 * [from, upto) and end with the same leftover.  *cut is set when a limit or the
 * room left a line out. */
static void tied_branches(DfCtx *c, const TsOptions *o, const Position *root, const TsAnswer *a, int from, int upto,
                          TiedLine *q, int *nq, int *cut) {
    int L = a->npv, attacker = root->side;
    Position pos = *root;
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) { *cut = 1; return; }
    for (int k = 0; k < upto && k < L && !df_aborted(c); k++) {
        if (k >= from) {
            Move cand[64];
            int unknown = 0, nc = pos.side != attacker
                                      ? longest_defences(c, &pos, L - k, a->pv[k], ml, cand, 64, &unknown)
                                      : attacker_ties(c, &pos, a, k, L - k, ml, cand, &unknown);
            if (nc < 0 || unknown || nc == 64) *cut = 1;
            for (int i = 0; i < nc; i++) {
                if (*nq >= TIED_LINES_MAX) { *cut = 1; break; }
                TiedLine *t = &q[*nq];
                memcpy(t->pv, a->pv, sizeof(Move) * (size_t)k);
                t->pv[k] = cand[i];
                t->branch = k;
                int np = k + 1;
                Position p2 = pos;
                Undo u;
                pos_do_move(&p2, cand[i], &u);
                LineCtx lc = {c, attacker, o->tie_plies > 0 ? o->tie_plies : TIE_BUDGET_PLIES, 0};
                int left = line_from(&lc, &p2, L - k - 1, t->pv, &np);
                if (left < 0 || lc.ties_cut) *cut = 1;
                int seen = 0;  /* (a line reached from two branch points is analysed once) */
                for (int h = 0; h < *nq && !seen; h++) seen = !memcmp(q[h].pv, t->pv, sizeof(Move) * (size_t)L);
                if (left == a->leftover && np == L && !seen) (*nq)++;  /* (fewer left: the main line's tie was cut) */
            }
        }
        Undo u;
        pos_do_move(&pos, a->pv[k], &u);
    }
    free(ml);
}

static int first_yozume_index(const TsAnswer *a) {
    int m = a->npv;
    for (int i = 0; i < a->nyozume && i < TS_MAX_YOZUME; i++)
        if (a->yozume[i].ply - 1 < m) m = a->yozume[i].ply - 1;
    return m;
}

/* a's main line was analysed: settle the verdict over the lines tied with it. */
static void settle_tied_lines(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root) {
    if (o->tied_all ? a->nyozume || !a->complete : !a->nyozume) return;
    TiedLine *q = malloc(sizeof(TiedLine) * TIED_LINES_MAX);
    TsAnswer *b = malloc(sizeof *b);
    int nq = 0, cut = 0, incomplete = 0;
    if (!q || !b) { free(q); free(b); a->complete = 0; return; }
    /* Two phases.  First the lines that leave a before its first 余詰 (only they
     * can escape it as a 余詰), each followed the same way.  Then, if none was
     * clean, the lines that leave a after it: 迂回 (a mate that passes through a
     * later main-line position is no 余詰) is judged against each line's own later
     * positions, so a 余詰 of a can be a detour through another tied line (a 3-ply
     * position was cooked and its mirror image perfect).  Branching everywhere at
     * once filled the 24-line cap before the clean line of a 13-ply problem. */
    int phase = o->tied_all;  /* (all: every tied line at once) */
    tied_branches(c, o, root, a, 0, phase ? a->npv : first_yozume_index(a), q, &nq, &cut);
    for (int h = 0; !df_aborted(c); h++) {
        if (h >= nq) {
            if (phase) break;
            phase = 1;
            tied_branches(c, o, root, a, first_yozume_index(a), a->npv, q, &nq, &cut);
            if (h >= nq) break;
        }
        memset(b, 0, sizeof *b);
        b->result = a->result;
        b->length = a->length;
        b->exact_length = a->exact_length;
        b->length_lb = a->length_lb;
        memcpy(b->pv, q[h].pv, sizeof(Move) * (size_t)a->npv);
        b->npv = a->npv;
        b->leftover = a->leftover;
        b->complete = 1;
        b->plain_len = a->plain_len;
        analyse_line_confirmed(c, o, b, root);
        if (!b->complete && !b->nyozume) { incomplete = 1; continue; }
        if (o->tied_all ? b->nyozume > 0 : !b->nyozume) {
            /* adopt it: the reported line is the one the verdict rests on */
            char mv[8], was[TS_NOTE_LEN];
            int k = 0;  /* where the adopted line leaves a's (it may branch off another tied line) */
            while (k < a->npv - 1 && a->pv[k] == b->pv[k]) k++;
            move_format(a->pv[k], mv);
            if (o->tied_all)
                snprintf(was, sizeof was, "tied_lines: the line reported has 余詰; the tied line with %s at ply %d has none",
                         mv, k + 1);
            else
                snprintf(was, sizeof was, "henka_betsu: the tied line with %s at ply %d has 余詰 at ply %d", mv, k + 1,
                         first_yozume_index(a) + 1);
            memcpy(a->pv, b->pv, sizeof(Move) * (size_t)a->npv);
            memcpy(a->yozume, b->yozume, sizeof a->yozume);
            a->nyozume = b->nyozume;
            a->complete = b->complete;
            a->notes_incomplete |= b->notes_incomplete;
            a->nnotes = 0;
            add_note(a, "%.0d%s", was, 0);
            for (int i = 0; i < b->nnotes; i++) add_note(a, "%.0d%s", b->notes[i], 0);
            free(q);
            free(b);
            return;
        }
        if (nq < TIED_LINES_MAX)
            tied_branches(c, o, root, b, q[h].branch + 1, phase ? b->npv : first_yozume_index(b), q, &nq, &cut);
    }
    if (cut || incomplete || df_aborted(c)) {
        a->complete = 0;
        add_note(a, "tied_lines_incomplete: a limit or the %d-line cap left tied main lines (変同) unanalysed%s", "",
                 TIED_LINES_MAX);
    }
    free(q);
    free(b);
}

static int plain_line(DfCtx *c, const Position *root, int U, Move *pv, int *len_at, int max, int weigh_drops);

/* Defender drops on the plain line from pos (an attacker node, plain length len). */
static int line_drops(DfCtx *c, const Position *pos, int len) {
    Move pv[TS_MAX_PV];
    int len_at[TS_MAX_PV], drops = 0;
    int n = plain_line(c, pos, len, pv, len_at, TS_MAX_PV, 0);
    for (int i = 1; i < n; i += 2) drops += move_is_drop(pv[i]);
    return drops;
}

/* The plain proof's main line from the table: the attacker's shortest proven check,
 * the defender's longest proven evasion.  Fills pv and len_at (the plain length
 * left before each move); stops where an entry is missing.  Returns its plies.
 * weigh_drops: the walk's line.  A defender's drop between king and checker is
 * often futile, and each adds two plies that the futile rule does not count, so
 * the longest plain defence can be a short one under the rule: Zuko 4's plain line
 * runs the king west behind four pawn drops (plain 40 after 3d4c) and the walk
 * stalled at ply 2.  So a defence scores its plain length less two plies per
 * defender drop (its own and those on its plain line); measured: Zuko 4 exact in
 * 32-38 s on two threads, 62-115 s without. */
static int plain_line(DfCtx *c, const Position *root, int U, Move *pv, int *len_at, int max, int weigh_drops) {
    Position pos = *root;
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) return 0;
    int n = 0, len = U, attacker = root->side;
    while (len > 0 && n < max) {
        int is_or = pos.side == attacker;
        if (is_or) gen_checks(&pos, ml);
        else gen_evasions(&pos, ml);
        Move best = MOVE_NONE;
        int blen = is_or ? INT_MAX : -1, bscore = INT_MIN;
        for (int i = 0; i < ml->count; i++) {
            Undo u;
            pos_do_move(&pos, ml->moves[i], &u);
            DfResult r = df_probe(c, &pos, len - 1, DF_PLAIN);
            int score = r.len;
            if (r.result == DF_PROVEN && !is_or && weigh_drops)
                score -= 2 * (line_drops(c, &pos, r.len) + move_is_drop(ml->moves[i]));
            pos_undo_move(&pos, ml->moves[i], &u);
            if (r.result != DF_PROVEN) {
                if (!is_or) { best = MOVE_NONE; break; }
                continue;
            }
            if (is_or ? r.len < blen : score > bscore || (score == bscore && r.len > blen)) {
                best = ml->moves[i];
                blen = r.len;
                bscore = score;
            }
        }
        if (best == MOVE_NONE) break;
        len_at[n] = len;
        pv[n++] = best;
        Undo u;
        pos_do_move(&pos, best, &u);
        len = blen;
    }
    free(ml);
    return n;
}

typedef struct {
    uint64_t nodes;      /* the problem's node limit (0 = none) */
    double deadline;     /* and its deadline (0 = none) */
    uint64_t first_cap;  /* exact_length's first round cap; a walk step's is a quarter */
} Budget;

static int out_of_budget(DfCtx *c, const Budget *b) {
    return (b->nodes && df_nodes(c) >= b->nodes) || (b->deadline > 0 && df_now() >= b->deadline) || df_stopped(c);
}

/* The problem's budget or the walk's own share (walk_end, a node count; 0 = none) is spent. */
static int walk_spent(DfCtx *c, const Budget *b, uint64_t walk_end) {
    return out_of_budget(c, b) || (walk_end && df_nodes(c) >= walk_end);
}

/* The next searches may use cap more nodes (0: no cap), within the problem's limits. */
static void cap_nodes(DfCtx *c, const Budget *b, uint64_t cap) {
    uint64_t n = cap ? df_nodes(c) + cap : 0;
    if (b->nodes && (!n || b->nodes < n)) n = b->nodes;
    df_set_limits(c, n, b->deadline);
}

/* Settles the checks at z other than the main line's move with unbounded plain
 * searches of at most cap nodes each: many are no mate at all, and an absolute
 * plain no-mate (or a plain proof) is taken by the futile-rule queries, where a
 * bounded disproof of a long checking sequence can cost far more (Zuko 6, ply 8:
 * 5a4a, 12-15 M nodes unbounded against 160 M for "no mate within 70").  Others are
 * cheap under the bound and endless unbounded (the same Zuko, ply 2: 3f2d, open
 * after 140 M nodes while the bounded query took 2 M), hence the cap. */
static void settle_alternatives(DfCtx *c, const Budget *b, Position *z, Move pvm, uint64_t cap) {
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) return;
    gen_checks(z, ml);
    for (int i = 0; i < ml->count && !out_of_budget(c, b); i++) {
        if (ml->moves[i] == pvm) continue;
        Undo u;
        pos_do_move(z, ml->moves[i], &u);
        if (df_probe(c, z, DF_MAX_DEPTH, DF_PLAIN).result == DF_UNKNOWN) {
            cap_nodes(c, b, cap);
            df_search(c, z, DF_MAX_DEPTH, DF_PLAIN);
        }
        pos_undo_move(z, ml->moves[i], &u);
    }
    free(ml);
}

/* The exact value of the walk's attacker node z (plain length ub): the top-down
 * query and the settling of its other checks in turns, with a node cap that doubles
 * per round (df-pn resumes from the table, so a capped round is mostly not lost;
 * quadrupling measured worse on Zuko 6: 83 M nodes against 53 M), up to the walk's
 * cap.  -2 on a limit. */
static int walk_step(DfCtx *c, const Budget *b, uint64_t walk_end, Position *z, Move pvm, int ub) {
    for (uint64_t cap = b->first_cap / 4 + 1;; cap *= 2) {
        if (walk_end && df_nodes(c) + cap > walk_end) cap = walk_end > df_nodes(c) ? walk_end - df_nodes(c) : 1;
        cap_nodes(c, b, cap);
        int e = df_exact_or(c, z, ub, NULL);
        if (e > 0) return e;
        if (e == -1 || walk_spent(c, b, walk_end)) return -2;  /* (-1: not mated within ub, cannot happen) */
        settle_alternatives(c, b, z, pvm, cap);
        if (walk_spent(c, b, walk_end)) return -2;
    }
}

/* Exact length by walking the plain main line from its end back to the root: at
 * each attacker node its exact value is searched top down (walk_step), which finds
 * the next node's "no mate within e-2" in the table and so only has to refute the
 * other checks.  Bottom up from the root, every deep subtree is disproved again for
 * each bound (2-5x more nodes per 2 plies), which no budget covers for Zuko 6's 81
 * plies; the walk proves it.  It is only as good as the line: where the plain line's
 * defences are futile drops or not the longest (Zuko 4, the records that are not the
 * longest defence) the top-down query has to find the longest defence itself.  At
 * most `nodes` more nodes (0: no cap).  Returns the root's exact length, -2 when
 * stopped. */
static int walk_exact(DfCtx *c, const Budget *b, const Position *root, int ub, uint64_t nodes) {
    Move *pv = malloc(sizeof(Move) * TS_MAX_PV);
    int *len_at = malloc(sizeof(int) * TS_MAX_PV);
    Position *at = malloc(sizeof(Position) * TS_MAX_PV);
    int e = -2;
    uint64_t walk_end = nodes ? df_nodes(c) + nodes : 0;
    if (!pv || !len_at || !at) goto out;
    int n = plain_line(c, root, ub, pv, len_at, TS_MAX_PV - 1, 1);
    at[0] = *root;
    for (int i = 0; i < n; i++) {
        Undo u;
        at[i + 1] = at[i];
        pos_do_move(&at[i + 1], pv[i], &u);
    }
    if (n == 0) {  /* no line in the table: the root alone */
        len_at[0] = ub;
        pv[0] = MOVE_NONE;
    }
    for (int k = n ? (n - 1) & ~1 : 0; k >= 0; k -= 2) {  /* (the last attacker ply, backwards) */
        Position p = at[k];
        e = walk_step(c, b, walk_end, &p, pv[k], len_at[k]);
        if (e < 0) break;
    }
out:
    free(pv);
    free(len_at);
    free(at);
    return e;
}

/* Two threads on one table: the owner asks df_exact_or(pos, ub) bottom up while the
 * helper, on a copy of pos, walks the main line (walk_exact, PAIR_WALK) or splits
 * the last bound by root check (split_last_bound, PAIR_SPLIT); the owner's end stops the
 * helper, a walk's exact answer stops the owner.  Returns -3 when the runtime gave
 * one thread only, else the owner's df_exact_or (its *lb set); *walk_L the walk's. */
enum { PAIR_WALK, PAIR_SPLIT };
static int pair_run(DfCtx *c, DfCtx *h, int kind, Position *pos, int ub, int *lb, const Budget *b, int *walk_L) {
#ifdef _OPENMP
    atomic_int stop = 0;
    int L = -2, pair = 0;
    Position hpos = *pos;
    *walk_L = -2;
    df_share_begin(c, h, &stop);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_num_threads() == 2) {
            if (omp_get_thread_num() == 0) {
                pair = 1;
                L = df_exact_or(c, pos, ub, lb);
                atomic_store(&stop, 1);
            } else if (kind == PAIR_WALK) {
                *walk_L = walk_exact(h, b, &hpos, ub, 0);
                if (*walk_L > 0) atomic_store(&stop, 1);
            } else {
                split_last_bound(h, &hpos, ub - 2, b->deadline);
            }
        }
    }
    df_share_end(c, h, b->nodes, b->deadline);
    return pair ? L : -3;
#else
    (void)c; (void)h; (void)kind; (void)pos; (void)ub; (void)lb; (void)b; (void)walk_L;
    return -3;
#endif
}

/* exact_length on two threads sharing one table: bottom up on c, the walk on h,
 * each unlimited up to the deadline; the first exact answer stops the other.  The
 * turns of the one-thread schedule pay for the search that loses each round
 * (Zuko 6: 143 M nodes in turns, 53-57 M for the walk alone); here it runs on the
 * spare core, and each still reads the other's table entries.  -3 when the runtime
 * gave one thread only (the caller runs the turns instead). */
static int exact_length_pair(DfCtx *c, DfCtx *h, Position *pos, int U, const Budget *b, TsAnswer *a) {
    int lb = 1, L_walk, L_up = pair_run(c, h, PAIR_WALK, pos, U, &lb, b, &L_walk);
    if (L_up == -3) return -3;
    TG_ASSERT(L_up <= 0 || L_walk <= 0 || L_up == L_walk);
    int L = L_up > 0 ? L_up : L_walk > 0 ? L_walk : -2;
    a->length_lb = L > 0 ? L : lb;
    return L;
}

/* The exact length of a mated root (plain proof of length U).  Bottom up from the
 * root (df_exact_or) is the better search for most problems, the walk along the
 * main line for a few long ones (walk_exact); neither is known in advance, so from
 * WALK_MIN_PLIES on they take turns with node caps that double each round (each
 * resumes from the table).  Measured: Zuko 1-29 in a minute each, the same 25 exact
 * as bottom up alone, about as many nodes; Zuko 6 and 4 exact only this way.  Sets
 * a->length_lb from the bottom-up rounds; returns as df_exact_or. */
static int exact_length(DfCtx *c, Position *pos, int U, const TsOptions *o, double t0, TsAnswer *a) {
    Budget b = {o->node_limit, o->time_limit > 0 ? t0 + o->time_limit : 0, o->first_cap ? o->first_cap : EXACT_FIRST_CAP};
    if (o->length_search == TS_LEN_UP || (o->length_search == TS_LEN_AUTO && U < WALK_MIN_PLIES))
        return df_exact_or(c, pos, U, &a->length_lb);
    if (o->length_search == TS_LEN_WALK) {
        int L = walk_exact(c, &b, pos, U, 0);
        df_set_limits(c, b.nodes, b.deadline);
        if (L > 0) a->length_lb = L;
        /* (stopped: the budget is spent, but the shallow bounds still in the table give
         * bottom up a lower bound before its first limit check: Zuko 4, at least 7) */
        return L > 0 ? L : df_exact_or(c, pos, U, &a->length_lb);
    }
    if (o->helper && !o->node_limit) {
        int L = exact_length_pair(c, o->helper, pos, U, &b, a);
        if (L != -3) return L;
    }
    int best_lb = 1;
    for (uint64_t cap = b.first_cap;; cap *= 2) {
        cap_nodes(c, &b, cap);
        int lb = 1, L = df_exact_or(c, pos, U, &lb);
        if (lb > best_lb) best_lb = lb;
        a->length_lb = best_lb;
        if (L != -2 || out_of_budget(c, &b)) {  /* (-1, not mated within U, cannot happen) */
            df_set_limits(c, b.nodes, b.deadline);
            return L;
        }
        L = walk_exact(c, &b, pos, U, cap);
        df_set_limits(c, b.nodes, b.deadline);
        if (L > 0) {
            a->length_lb = L;
            return L;
        }
        if (out_of_budget(c, &b)) return -2;
    }
}

/* The answer once the exact length L of the mated root is known (a->length): main
 * line, 駒余り, 余詰 and notes, each as far as the options ask. */
static void analyse_mate(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root, int L) {
    Position pos = *root;
    a->length = a->length_lb = L;
    a->exact_length = 1;
    LineCtx lc = {c, root->side, o->tie_plies > 0 ? o->tie_plies : TIE_BUDGET_PLIES, 0};
    int left = line_from(&lc, &pos, L, a->pv, &a->npv);
    if (left >= 0 && a->npv == L) {
        a->leftover = left;
        a->complete = 1;
        if (left > 0 && lc.ties_cut) {  /* another longest defence might leave nothing */
            a->leftover_unproved = 1;
            a->complete = 0;
            add_note(a, "leftover_unproved: the main line leaves %d, the tie budget stopped the "
                        "search for a longest defence that leaves none%s", "", left);
        }
        if (!o->flaws) a->complete = 0;
        else if (!(o->first_flaw && left > 0)) {
            analyse_line_confirmed(c, o, a, root);
            settle_tied_lines(c, o, a, root);
        }
    } else {
        a->npv = 0;
        if (left == -1) snprintf(a->verify_msg, sizeof a->verify_msg, "main line extraction failed");
        else add_note(a, "main_line_incomplete: the length is exact (%d), a limit stopped the main line%s", "", L);
    }
}

/* --max-length N: only mates within N plies, asked bottom up ("mate within 1, 3,
 * ..., N?") with no unbounded search: the first proof is the exact length; none
 * is a proven "no mate within N" (result unknown: a longer mate may exist).  With
 * a helper (h) the spare thread splits the last bound by root check. */
static int solve_bounded(DfCtx *c, DfCtx *h, const TsOptions *o, TsAnswer *a, Position *pos, double deadline) {
    int ub = o->max_length | 1, lb = 1, L = -3, walk_L;  /* the deepest odd bound asked is ub - 2 <= N */
    if (ub == o->max_length) ub += 2;
    Budget b = {0, deadline, 0};
    if (h) L = pair_run(c, h, PAIR_SPLIT, pos, ub, &lb, &b, &walk_L);
    if (L == -3) L = df_exact_or(c, pos, ub, &lb);
    if (L > 0 && L < ub) return L;
    a->length_lb = L == ub ? ub : lb;
    if (L == ub) add_note(a, "no_mate_within: no mate of at most %d plies (proved)%s", "", ub - 2);
    return 0;
}

void ts_solve(DfCtx *c, const Position *root, const TsOptions *o, TsAnswer *a) {
    memset(a, 0, sizeof *a);
    a->verified = -1;
    double t0 = df_now();
    Position pos = *root;
    int attacker = pos.side;
    double deadline = o->time_limit > 0 ? t0 + o->time_limit : 0;
    df_begin(c, attacker, o->node_limit, deadline);
    if (o->max_length > 0) {
        df_set_no_rep(c, 1);  /* bounded queries only: every disproof is cacheable */
        DfCtx *h = o->helper && !o->node_limit && o->split_bounded ? o->helper : NULL;
        int L = solve_bounded(c, h, o, a, &pos, deadline);
        if (L > 0) {
            a->result = TS_MATE;
            analyse_mate(c, o, a, root, L);
        }
    } else {
        DfResult r = df_search(c, &pos, DF_MAX_DEPTH, DF_PLAIN);
        if (r.result == DF_DISPROVEN && !(r.flags & DF_DEPTH)) a->result = TS_NOMATE;
        else if (r.result == DF_PROVEN) {
            a->result = TS_MATE;
            a->plain_len = r.len;
            a->length = r.len;
            df_set_no_rep(c, 1);  /* bounded queries from here on: every disproof is cacheable */
            int L = exact_length(c, &pos, r.len, o, t0, a);
            if (L > 0) analyse_mate(c, o, a, root, L);
        }
    }
    df_set_no_rep(c, 0);  /* (the proof checker below searches with the repetition test) */
    if (a->result == TS_MATE) {
        a->perfect = a->exact_length && a->complete && a->npv == a->length && a->leftover == 0 && a->nyozume == 0;
        if (!a->exact_length) {
            char lb[32];
            snprintf(lb, sizeof lb, " (at least %d)", a->length_lb);
            add_note(a, "length_upper_bound: mate in %d found, limit hit before the shortest was proved%s", lb, a->length);
        }
        else if (!a->complete && o->flaws) add_note(a, "flaw_analysis_incomplete%.0d%s", "", 0);
        if (a->notes_incomplete) add_note(a, "notes_incomplete: a limit stopped a 変同 or final-move test%.0d%s", "", 0);
        if (o->verify) {
            Position p2 = *root;
            a->verified = pc_verify(c, &p2, a, o->time_limit > 0 ? df_now() + o->time_limit : 0, a->verify_msg,
                                    sizeof a->verify_msg);
        }
    }
    a->nodes = df_nodes(c);
    a->ms = (df_now() - t0) * 1000.0;
}
