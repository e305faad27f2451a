/* tsume.c - exact answers: verdict, exact length, main line, flaws, notes.
 *
 * 1. Plain df-pn (every evasion a defence) decides mate / no mate and gives a proof
 *    length U.  Mate/no-mate does not depend on the futile rule.
 * 2. Exact length under the futile rule: "mate within d?" for d = 1, 3, 5, ... until
 *    a proof (so "no mate in L-2" is proved); a limit leaves the bounds [d, U].
 *    (Against top down from U: 13 % fewer nodes for full verdicts on the ShogiBoardQ
 *    sets, 2.6x fewer for the 11-ply exact pass.)  From 19 plies on, in turns with
 *    the walk along the main line (exact_length.c).
 * 3. Main line: the attacker plays a move whose child is mated within n-1; the
 *    defender a real defence of exact value n-1, ties broken by the fewest attacker
 *    pieces in hand at the end (bounded tie exploration).
 * 4. Flaws along the main line: 余詰 (another check that mates while avoiding every
 *    later main-line position: detours are excluded), 駒余り; notes for final-move
 *    alternatives, 成不成, 変同. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tsume.h"
#include "proofcheck.h"
#include "sfen.h"
#include "exact_length.h"
#include "yozume_test.h"

void ts_add_note(TsAnswer *a, const char *note) {
    if (a->nnotes >= TS_MAX_NOTES) a->notes_cut++;
    else snprintf(a->notes[a->nnotes++], TS_NOTE_LEN, "%s", note);
}

/* A note from a printf format; the compiler checks the arguments against it. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void add_note(TsAnswer *a, const char *fmt, ...) {
    char note[TS_NOTE_LEN];
    va_list args;
    va_start(args, fmt);
    vsnprintf(note, sizeof note, fmt, args);
    va_end(args);
    ts_add_note(a, note);
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
    int attacker_ties;  /* TsOptions.attacker_ties */
} LineCtx;

static int line_from(LineCtx *lc, Position *pos, int n, Move *pv, int *np);

static void set_bit(uint64_t *bits, int i) { bits[i >> 6] |= 1ull << (i & 63); }
static int has_bit(const uint64_t *bits, int i) { return (int)(bits[i >> 6] >> (i & 63)) & 1; }

/* Whether a mating check of ml (its bit set in mates) is ml->moves[i] but for promotion. */
static int mated_twin(const MoveList *ml, const uint64_t *mates, int i) {
    for (int k = 0; k < ml->count; k++)
        if (has_bit(mates, k) && ts_same_but_promo(ml->moves[i], ml->moves[k])) return 1;
    return 0;
}

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
    uint8_t settled[MAX_MOVES] = {0}, longest[MAX_MOVES] = {0};
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
            if (r.result == DF_DISPROVEN) longest[i] = 1, nc++;
        }
    /* in generation order, not in the order the table happened to answer: the first
     * of equal ties is then the same whatever the table holds (its size, threads) */
    for (int i = 0, k = 0; i < nd && k < nc; i++)
        if (longest[i]) out[k++] = ml->moves[i];
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
        /* mating checks by generation index, a bit each (ties are taken in that order;
         * a bitset keeps this frame small: the line's recursion is as deep as the line) */
        uint64_t mates[(MAX_MOVES + 63) / 64] = {0};
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
            for (int i = 0; i < ml->count; i++) {
                Undo u;
                pos_do_move(pos, ml->moves[i], &u);
                if (df_probe(c, pos, n - 1, DF_FUTILE).result == DF_PROVEN) set_bit(mates, i), nc++;
                pos_undo_move(pos, ml->moves[i], &u);
            }
        }
        if (df_aborted(c)) { free(ml); return -2; }
        for (int i = 0; i < ml->count && (n == 1 || nc == 0); i++) {
            Undo u;
            pos_do_move(pos, ml->moves[i], &u);
            DfResult r = df_search(c, pos, n - 1, DF_FUTILE);
            pos_undo_move(pos, ml->moves[i], &u);
            if (r.result == DF_PROVEN) set_bit(mates, i), nc++;
            if (r.result == DF_UNKNOWN) { free(ml); return -2; }
        }
        /* Which mates the table proves depends on its size and threads: the promotion
         * twin of each (成不成, a tie in every way) is asked too, so the line is the
         * same whichever of the two the table held.  attacker_ties: every other
         * shortest mate too (where a tie is no 余詰, each leftover counts), within the
         * tie budget as the defender's ties. */
        /* (three plies from the end every check is asked anyway: the screen's
         * mate-in-one scan answers "mate within 2?" at once) */
        int every = (lc->attacker_ties || n == 3) && lc->tie_budget >= n && n <= TIE_DEPTH;
        if (lc->attacker_ties && n > 1 && nc > 0 && !every) lc->ties_cut = 1;
        for (int i = 0; n > 1 && nc > 0 && i < ml->count; i++) {
            if (has_bit(mates, i) || !(every || mated_twin(ml, mates, i))) continue;
            Undo u;
            pos_do_move(pos, ml->moves[i], &u);
            DfResult r = df_search(c, pos, n - 1, DF_FUTILE);
            pos_undo_move(pos, ml->moves[i], &u);
            if (r.result == DF_PROVEN) set_bit(mates, i), nc++;
            if (r.result == DF_UNKNOWN && lc->attacker_ties) lc->ties_cut = 1;
            if (df_aborted(c)) { free(ml); return -2; }
        }
        Move cand[64];
        nc = 0;
        for (int i = 0; i < ml->count && nc < 64; i++)
            if (has_bit(mates, i)) cand[nc++] = ml->moves[i];
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

int ts_same_but_promo(Move a, Move b) {
    return !move_is_drop(a) && !move_is_drop(b) && (a & ~MOVE_PROMO) == (b & ~MOVE_PROMO) && a != b;
}

int ts_yozume_listed(const TsAnswer *a, int ply, Move m) {
    for (int i = 0; i < a->nyozume && i < TS_MAX_YOZUME; i++)
        if (a->yozume[i].ply == ply && a->yozume[i].move == m) return 1;
    return 0;
}

/* What an analysis of a line takes: notes (変同, final-move alternatives) besides
 * 余詰; stop at the first 余詰; plies from the last back (the shallow tests first). */
enum { AL_NOTES = 1, AL_STOP = 2, AL_BACKWARD = 4 };

int ts_on_line(const Position *q, const uint64_t *later, int n) {
    int on = 0;
    for (int j = 0; j < n; j++) on |= later[j] == pos_key(q);
    return on;
}

/* With the repetition test even under a bound: a mate that avoids a set of
 * positions, if any, has a shortest one, and its lines repeat no position, so
 * cutting repeats loses none.  Without it the bounded test chased tokins round
 * cycles: yo116c's 2b3b at ply 3 (bound 75) gave no answer in 900 s; with it the
 * whole solve takes a second.  (Forbidden sets already keep their disproofs out
 * of the shared tables, so the path-bound ones stay local.) */
DfResult ts_mate_off_line(DfCtx *c, Position *q, const uint64_t *later, int n, int depth) {
    if (ts_on_line(q, later, n)) return (DfResult){DF_DISPROVEN, 0, 0, MOVE_NONE};
    df_set_forbidden(c, later, n);
    int no_rep = df_set_no_rep(c, 0);
    DfResult r = df_search(c, q, depth, DF_PLAIN);
    df_set_no_rep(c, no_rep);
    df_set_forbidden(c, NULL, 0);
    return r;
}

/* The tests yz_tests_pair ran ahead for a line, consumed in order (t[at]). */
typedef struct {
    YzTest *t;
    int n, at;
} YzAhead;

/* Flaws and notes at ply k of the main line (pos is the position before it).
 * confirm: only the 余詰 test of the attacker's alternatives (notes were taken).
 * ahead: that ply's 余詰 tests already run (NULL: run them here). */
static void analyse_node(DfCtx *c, const TsOptions *o, TsAnswer *a, Position *pos, int k, const uint64_t *keys,
                         MoveList *ml, int attacker, int confirm, int mode, YzAhead *ahead) {
    int L = a->npv, n = L - k;
    char buf[TS_NOTE_LEN], mv[8], phase[48];  /* (phase: the progress line's test, df_set_phase) */
    buf[0] = 0;
    if (confirm && (pos->side != attacker || n == 1)) return;
    if (pos->side == attacker) {
        gen_checks(pos, ml);
        for (int i = 0; i < ml->count; i++) {
            Move m = ml->moves[i];
            if (m == a->pv[k]) continue;
            if (n == 1 && !(mode & AL_NOTES)) break;  /* final-move alternatives are only notes */
            if (n == 1) {
                Undo u;
                pos_do_move(pos, m, &u);
                move_format(m, mv);
                snprintf(phase, sizeof phase, "final-move test, ply %d %s", k + 1, mv);
                df_set_phase(c, phase);
                DfResult r = df_search(c, pos, 0, DF_FUTILE);
                if (r.result == DF_PROVEN && strlen(buf) + 8 < sizeof buf) { strcat(buf, " "); strcat(buf, mv); }
                if (r.result == DF_UNKNOWN) a->notes_incomplete = 1;
                pos_undo_move(pos, m, &u);
                continue;
            }
            YzTest t;
            if (ahead) {
                TG_ASSERT(ahead->at < ahead->n && ahead->t[ahead->at].k == k && ahead->t[ahead->at].m == m);
                t = ahead->t[ahead->at++];
            } else t = yz_test(c, o, pos, k, L, m, keys);
            if (t.incomplete) a->complete = 0;
            else if (t.r.result == DF_PROVEN) {
                if (ts_same_but_promo(m, a->pv[k])) {
                    char note[64];  /* (the confirming pass finds it again: noted once) */
                    move_format(m, note);
                    if (!confirm) add_note(a, "promotion_optional: ply %d %s also mates", k + 1, note);
                } else if (a->nyozume < TS_MAX_YOZUME) {
                    a->yozume[a->nyozume].ply = k + 1;
                    a->yozume[a->nyozume].move = m;
                    a->yozume[a->nyozume].length = 1 + t.r.len;
                    a->nyozume++;
                } else a->nyozume++;
            }
            if (a->nyozume && (mode & AL_STOP)) return;
        }
        if (buf[0]) add_note(a, "final_move_alternatives: ply %d%s", k + 1, buf);
        return;
    }
    if (!(mode & AL_NOTES)) return;  /* 変同 is a note, not a flaw */
    snprintf(phase, sizeof phase, "変同 test, ply %d", k + 1);
    df_set_phase(c, phase);
    Move cand[MAX_MOVES];
    int unknown = 0, nc = longest_defences(c, pos, n, a->pv[k], ml, cand, MAX_MOVES, &unknown);
    if (nc < 0 || unknown) a->notes_incomplete = 1;
    for (int i = 0; i < nc; i++) {
        move_format(cand[i], mv);
        if (strlen(buf) + 8 < sizeof buf) { strcat(buf, " "); strcat(buf, mv); }
    }
    if (nc > 0) add_note(a, "henka_dou: ply %d%s", k + 1, buf);
}

/* Flaws (and with AL_NOTES notes) at plies [from, to) of a's line: from the first
 * forward, or (AL_BACKWARD) from the last back, the cheap, shallow searches first;
 * AL_STOP: until the first 余詰.  confirm: the 余詰 tests only (see analyse_node).
 * analyse_line: the whole line, every flaw and note, or with first_flaw from the
 * last ply back to the first 余詰. */
static void analyse_line_mode(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root, int confirm,
                              int mode, int from, int to) {
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
        /* with a spare thread, the line's 余詰 tests first, on both threads */
        YzAhead ahead = {NULL, -1, 0};
        const char *env = getenv("TSUMEGEN_YOZUME_PAIR");  /* (0: one thread, to compare) */
        int pair = o->helper && !o->node_limit && !(env && *env && atoi(env) == 0);
        int *order = pair ? malloc(sizeof(int) * (size_t)(to - from + 1)) : NULL, nk = 0;
        for (int i = 0; order && i < to - from; i++) {
            int k = (mode & AL_BACKWARD) ? to - 1 - i : from + i;
            if (line[k].side == root->side && L - k > 1) order[nk++] = k;
        }
        uint64_t n0 = df_nodes(c);
        double t0 = df_now();
        int threads = 1;
        if (order) ahead.n = yz_tests_pair(c, o, line, L, a->pv, keys, order, nk, (mode & AL_STOP) != 0, &ahead.t, &threads);
        free(order);
        if (o->trace && ahead.n >= 0) {
            int run = 0;
            for (int i = 0; i < ahead.n; i++) run += ahead.t[i].run;
            fprintf(stderr, "trace: %d of %d 余詰 tests%s on %s: %.2f M nodes, %.1f s\n", run, ahead.n,
                    mode & AL_STOP ? " (to the first 余詰)" : "", threads == 2 ? "two threads" : "one thread (the runtime gave one)",
                    (double)(df_nodes(c) - n0) / 1e6, df_now() - t0);
        }
        for (int i = 0; i < to - from && !df_aborted(c) && !((mode & AL_STOP) && a->nyozume); i++) {
            int k = (mode & AL_BACKWARD) ? to - 1 - i : from + i;
            analyse_node(c, o, a, &line[k], k, keys, ml, root->side, confirm, mode, ahead.n >= 0 ? &ahead : NULL);
        }
        if (df_aborted(c)) a->complete = 0;
        df_set_phase(c, NULL);
        free(ahead.t);
    }
    free(ml);
    free(line);
    free(keys);
}

static void analyse_line(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root, int confirm) {
    analyse_line_mode(c, o, a, root, confirm, o->first_flaw ? AL_STOP | AL_BACKWARD : AL_NOTES, 0, a->npv);
}

/* After the bounded 余詰 tests of a line: are they to be run again with no bound
 * (yozume_confirm, and the bounded ones found none)? */
static int confirm_due(const TsOptions *o, const TsAnswer *a) {
    return o->yozume_confirm && o->yozume_extra >= 0 && a->complete && !a->nyozume;
}

/* The flaw analysis of a's line: bounded 余詰 tests, then (yozume_confirm) the same
 * tests again with no bound when the bounded ones found none. */
static void analyse_line_confirmed(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root) {
    analyse_line(c, o, a, root, 0);
    if (confirm_due(o, a)) {
        TsOptions unbounded = *o;  /* 余詰 is a mate of any length: the bound found the cheap ones */
        unbounded.yozume_extra = -1;
        analyse_line(c, &unbounded, a, root, 1);
    }
}

/* A tied line's 余詰 without the notes (the full analysis is for the line adopted).
 * all_from < 0: only "is the line clean, and where is its first 余詰" (phase 0
 * branches before it): from the root forward to the first 余詰.  all_from >= 0:
 * every 余詰 from that ply on (attacker ties to branch at: plies before all_from
 * are not branched at again), and only when there is none, the plies before it up
 * to the first.  (A cooked 5-ply problem with 7 interposition kinds at plies 2 and
 * 4 analysed each of its 24 tied lines in full, notes and the 余詰 it shares with
 * the main line at ply 3 included, to throw them away.)  The composer's first_flaw
 * scan (backward, first 余詰 only) is kept as it was, and so are its verdicts. */
static void tied_line_yozume(DfCtx *c, const TsOptions *o, TsAnswer *b, const Position *root, int all_from) {
    TsOptions q = *o;
    for (int pass = 0; pass < 2; pass++) {  /* bounded 余詰 tests, then (yozume_confirm) unbounded */
        if (pass && !confirm_due(o, b)) break;
        if (pass) q.yozume_extra = -1;
        if (o->first_flaw) analyse_line_mode(c, &q, b, root, pass, AL_STOP | AL_BACKWARD, 0, b->npv);
        else if (all_from < 0) analyse_line_mode(c, &q, b, root, pass, AL_STOP, 0, b->npv);
        else {
            analyse_line_mode(c, &q, b, root, pass, 0, all_from, b->npv);
            if (!b->nyozume) analyse_line_mode(c, &q, b, root, pass, AL_STOP, 0, all_from);
        }
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
        /* (n 1: a final-move alternative) */
        int tie = n == 1 || ts_same_but_promo(m, played) || ts_yozume_listed(a, k + 1, m);
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
            if (pos.side == attacker && a->nyozume > TS_MAX_YOZUME) *cut = 1;  /* (ties among the 余詰 not kept) */
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
                LineCtx lc = {c, attacker, o->tie_plies > 0 ? o->tie_plies : TIE_BUDGET_PLIES, 0, o->attacker_ties};
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

/* Is check m at ply index k of a's line, a mate that avoids a's later positions (a
 * 余詰 of a), a 余詰 of every line tied with a too?  Such a line must pass through
 * the same position (leave a after k) and m must mate avoiding its own later
 * positions (迂回 is judged against each line's own, see settle_tied_lines).
 * Decided only where the tied lines are all known: a's analysis complete (its 余詰
 * list gives the attacker's ties), and each tied line leaving a at the last move
 * (one that leaves earlier has ties of its own, which only its own 余詰 analysis
 * would show: settle_tied_lines follows them, this does not).
 * 1: yes (no tied line escapes it), 0: one does, -1: not decided. */
int ts_yozume_on_tied_lines(DfCtx *c, const TsOptions *o, const TsAnswer *a, const Position *root, int k, Move m) {
    if (!a->complete) return -1;
    TiedLine *q = malloc(sizeof(TiedLine) * TIED_LINES_MAX);
    uint64_t *keys = malloc(sizeof *keys * (size_t)(a->npv + 1));
    if (!q || !keys) {
        free(q);
        free(keys);
        return -1;
    }
    int nq = 0, cut = 0, res = 1, save = df_set_no_rep(c, 0);
    tied_branches(c, o, root, a, 0, a->npv, q, &nq, &cut);
    for (int h = 0; h < nq && res != 0 && !df_aborted(c); h++) {
        const TiedLine *t = &q[h];
        if (!memcmp(t->pv, a->pv, sizeof(Move) * (size_t)a->npv)) continue;  /* (the last ply's ties: a's own move) */
        if (t->branch <= k) { res = 0; break; }  /* (it never meets the check) */
        if (t->branch < a->npv - 1) { res = -1; continue; }  /* (its own ties: not followed) */
        Position pos = *root, after;
        for (int j = 0; j <= a->npv; j++) {
            keys[j] = pos_key(&pos);
            if (j == k) after = pos;
            Undo u;
            if (j < a->npv) pos_do_move(&pos, t->pv[j], &u);
        }
        Undo u;
        pos_do_move(&after, m, &u);
        DfResult r = ts_mate_off_line(c, &after, keys + k + 1, a->npv - k, DF_MAX_DEPTH);
        if (r.result != DF_PROVEN) res = r.result == DF_DISPROVEN ? 0 : -1;
    }
    if (res == 1 && (cut || df_aborted(c))) res = -1;
    df_set_no_rep(c, save);
    free(q);
    free(keys);
    return res;
}

/* Does tied line b settle the verdict: clean under "any", cooked under "all"? */
static int adoptable(const TsOptions *o, const TsAnswer *b) { return o->tied_all ? b->nyozume > 0 : !b->nyozume; }

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
        tied_line_yozume(c, o, b, root, phase && !o->tied_all ? q[h].branch + 1 : -1);  /* (see the branching below) */
        if (!b->complete && !b->nyozume) { incomplete = 1; continue; }
        if (adoptable(o, b)) {
            /* adopted: its full analysis (every 余詰, the notes) is the answer; the
             * composer's first_flaw analysis is the one tied_line_yozume ran */
            if (!o->first_flaw) {
                b->nyozume = 0;
                b->nnotes = b->notes_cut = 0;
                b->notes_incomplete = 0;
                b->complete = 1;
                analyse_line_confirmed(c, o, b, root);
                /* (the same tests again, answered from the table; a limit can still differ) */
                if ((!b->complete && !b->nyozume) || !adoptable(o, b)) {
                    incomplete = 1;
                    continue;
                }
            }
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
            a->nnotes = a->notes_cut = 0;
            ts_add_note(a, was);
            for (int i = 0; i < b->nnotes; i++) ts_add_note(a, b->notes[i]);
            a->notes_cut += b->notes_cut;
            free(q);
            free(b);
            return;
        }
        /* (phase 1 branches at b's 余詰: one a limit left undecided may be a tie missed) */
        if (phase && !o->first_flaw && !b->complete) incomplete = 1;
        if (nq < TIED_LINES_MAX)
            tied_branches(c, o, root, b, q[h].branch + 1, phase ? b->npv : first_yozume_index(b), q, &nq, &cut);
    }
    if (cut || incomplete || df_aborted(c)) {
        a->complete = 0;
        add_note(a, "tied_lines_incomplete: a limit or the %d-line cap left tied main lines (変同) unanalysed",
                 TIED_LINES_MAX);
    }
    free(q);
    free(b);
}

/* The answer once the exact length L of the mated root is known (a->length): main
 * line, 駒余り, 余詰 and notes, each as far as the options ask. */
static void analyse_mate(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root, int L) {
    Position pos = *root;
    a->length = a->length_lb = L;
    a->exact_length = 1;
    LineCtx lc = {c, root->side, o->tie_plies > 0 ? o->tie_plies : TIE_BUDGET_PLIES, 0, o->attacker_ties};
    int left = line_from(&lc, &pos, L, a->pv, &a->npv);
    if (left >= 0 && a->npv == L) {
        a->leftover = left;
        a->complete = 1;
        if (left > 0 && lc.ties_cut) {  /* another longest defence might leave nothing */
            a->leftover_unproved = 1;
            a->complete = 0;
            add_note(a, "leftover_unproved: the main line leaves %d, the tie budget stopped the "
                        "search for a longest defence that leaves none", left);
        }
        if (!o->flaws) a->complete = 0;
        else if (!(o->first_flaw && left > 0)) {
            /* TSUME_RULES: a 余詰 is a mate of any length; the answer says when its
             * "none" rests on the bounded test alone */
            a->yozume_bound = o->yozume_extra >= 0 && !o->yozume_confirm ? o->yozume_extra : -1;
            analyse_line_confirmed(c, o, a, root);
            settle_tied_lines(c, o, a, root);
        }
    } else {
        a->npv = 0;
        if (left == -1) snprintf(a->verify_msg, sizeof a->verify_msg, "main line extraction failed");
        else add_note(a, "main_line_incomplete: the length is exact (%d), a limit stopped the main line", L);
    }
}

/* --max-length N: only mates within N plies, asked bottom up ("mate within 1, 3,
 * ..., N?") with no unbounded search: the first proof is the exact length; none
 * is a proven "no mate within N" (result unknown: a longer mate may exist).  With
 * a helper (h) the spare thread splits the last bound by root check. */
static int solve_bounded(DfCtx *c, DfCtx *h, const TsOptions *o, TsAnswer *a, Position *pos, double deadline) {
    int ub = o->max_length | 1, lb = 1;  /* the deepest odd bound asked is ub - 2 <= N */
    if (ub == o->max_length) ub += 2;
    int L = exact_bounded(c, h, pos, ub, deadline, &lb);
    if (L > 0 && L < ub) {
        df_note_bounds(c, L, L);
        return L;
    }
    a->length_lb = L == ub ? ub : lb;
    if (L == ub) add_note(a, "no_mate_within: no mate of at most %d pl%s (proved)", ub - 2, ub - 2 == 1 ? "y" : "ies");
    return 0;
}

/* An answer whose length stays an upper bound still shows the mate found: the
 * plain proof's line (found_mate_line), lost entries proved again with a sixteenth
 * of the nodes spent (at least LINE_REPAIR_MIN, at most LINE_REPAIR_MAX); the
 * problem's limits come back after.  The length stays the root's proof: the line
 * can be shorter, since its defences are the longest by the children's stored
 * bounds, some of them loose (Zuko 21 at 5.8 M nodes with a 1 MB table: a line of
 * 23 plies in a mate of 29, where 7c8b's bound said 17 and its line ran 11). */
#define LINE_REPAIR_MIN 10000
#define LINE_REPAIR_MAX 1000000
/* After an interrupt (usi's stop, solve's Ctrl-C) the repair still runs, with at
 * most this many nodes (a fraction of a second): the mate found is what was asked
 * for, and without it usi's stop answered "checkmate timeout" after a mate. */
#define LINE_REPAIR_INTERRUPTED 200000
static void found_line(DfCtx *c, const TsOptions *o, TsAnswer *a, const Position *root, double deadline) {
    uint64_t repair = df_nodes(c) / 16;
    repair = repair < LINE_REPAIR_MIN ? LINE_REPAIR_MIN : repair > LINE_REPAIR_MAX ? LINE_REPAIR_MAX : repair;
    if (df_interrupted() && repair > LINE_REPAIR_INTERRUPTED) repair = LINE_REPAIR_INTERRUPTED;
    uint64_t n0 = df_nodes(c);
    df_past_interrupt(c, 1);
    a->nline = found_mate_line(c, root, a->plain_len, repair, a->line, TS_MAX_PV);
    df_past_interrupt(c, 0);
    if (o->trace)
        fprintf(stderr, "trace: the mate found: %d plies (0: lost), %llu nodes to prove lost entries again\n", a->nline,
                (unsigned long long)(df_nodes(c) - n0));
    df_set_limits(c, o->node_limit, deadline);
    if (!a->nline) add_note(a, "mate_line_lost: the table no longer holds the found mate's line");
}

void ts_solve(DfCtx *c, const Position *root, const TsOptions *o, TsAnswer *a) {
    memset(a, 0, sizeof *a);
    a->verified = -1;
    a->yozume_bound = -1;
    double t0 = df_now();
    Position pos = *root;
    int attacker = pos.side;
    double deadline = o->time_limit > 0 ? t0 + o->time_limit : 0;
    if (o->keep_table) df_begin_keep(c, attacker, o->node_limit, deadline);
    else df_begin(c, attacker, o->node_limit, deadline);
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
            df_note_bounds(c, r.len, 0);
            int L = exact_length(c, &pos, r.len, o, t0, a);
            if (L > 0) {
                df_note_bounds(c, L, L);
                analyse_mate(c, o, a, root, L);
            }
        }
    }
    df_set_no_rep(c, 0);  /* (the proof checker below searches with the repetition test) */
    if (a->result == TS_MATE && !a->exact_length && o->found_line && a->plain_len > 0) found_line(c, o, a, root, deadline);
    if (a->result == TS_MATE) {
        a->perfect = a->exact_length && a->complete && a->npv == a->length && a->leftover == 0 && a->nyozume == 0;
        if (!a->exact_length) {
            char lb[32];
            snprintf(lb, sizeof lb, " (at least %d)", a->length_lb);
            add_note(a, "length_upper_bound: mate in %d found, limit hit before the shortest was proved%s", a->length, lb);
        }
        else if (!a->complete && o->flaws) add_note(a, "flaw_analysis_incomplete");
        if (a->notes_incomplete) add_note(a, "notes_incomplete: a limit stopped a 変同 or final-move test");
        if (o->verify) {
            Position p2 = *root;
            a->verified = pc_verify(c, &p2, a, o->time_limit > 0 ? df_now() + o->time_limit : 0, a->verify_msg,
                                    sizeof a->verify_msg);
        }
    }
    a->nodes = df_nodes(c);
    a->ms = (df_now() - t0) * 1000.0;
}
