/* exact_length.c - the exact length of a mated root under the futile rule (step 2
 * of tsume.c): bottom up ("mate within 1, 3, 5, ...?", df_exact_or) and, from
 * WALK_MIN_PLIES on, the walk along the main line (walk_exact), in turns on one
 * thread or side by side on two sharing the table (pair_run). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdlib.h>
#include <string.h>
#include "exact_length.h"
#include "split.h"
#include "sfen.h"

/* exact_length: the plain length from which the main-line walk takes turns with the
 * bottom-up search, and their first node cap (a walk step's first cap is a quarter) */
#define WALK_MIN_PLIES 19
#define EXACT_FIRST_CAP 4000000
/* a pair's owner settles the main line's other checks first (from this plain length
 * on), each search capped here */
#define SETTLE_AHEAD_MIN_PLIES 37
#define SETTLE_AHEAD_CAP 16000000
/* ... at the attacker nodes of the line's first this many plies (see settle_ahead) */
#define SETTLE_AHEAD_PLIES 6
/* a walk step's settling searches may take this many times the node cap of its
 * query's round (see walk_step) */
#define SETTLE_CAP_RATIO 16

/* the nodes that the walk's line may spend proving again the entries a table lost
 * (its own and those of the defences it weighs; see line_new) */
#define LINE_REPAIR_NODES 1000000

/* plain_line's budget for proving lost entries again: nodes left, and the deadline
 * (0: none) */
typedef struct {
    uint64_t left;
    double deadline;
} Repair;

static int plain_line(DfCtx *c, const Position *root, int U, Move *pv, int *len_at, int max, int weigh_drops,
                      Repair *repair);

/* Whether the n moves of pv from root end with the defender mated (a line read from
 * the table is not a proof: it may stop short, where an entry is missing). */
static int line_mates(const Position *root, const Move *pv, int n) {
    if (n % 2 == 0) return 0;
    Position pos = *root;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_do_move(&pos, pv[i], &u);
    }
    return in_check(&pos) && !has_legal_move(&pos);
}

/* A defence's weight on the walk's line: its length less two plies per defender
 * drop on its plain line from pos (an attacker node, plain length len).  The length
 * is that of the line itself where it ends in mate: a stored plain length is only
 * the bound of the proof that the search happened to find, and a loose one took
 * the walk into a short defence (Zuko 4 grown from 32 MB: 3d4c stored 41, 45 in a
 * fixed 256 MB table, its line mates in 21; the longest defence 4d3e, 39). */
static int line_weight(DfCtx *c, const Position *pos, int len, Repair *repair) {
    Move pv[TS_MAX_PV];
    int len_at[TS_MAX_PV], drops = 0;
    int n = plain_line(c, pos, len, pv, len_at, TS_MAX_PV, 0, repair);
    for (int i = 1; i < n; i += 2) drops += move_is_drop(pv[i]);
    if (n < len && line_mates(pos, pv, n)) len = n;
    return len - 2 * drops;
}

/* plain_line's repair: pos (a child on the line) proved again within depth by a
 * plain search of the nodes *left, which it spends.  Cheap entries are the first
 * the table replaces: after Zuko 8's first search (56 M nodes) the line stopped
 * at ply 7, where a defence was mated in one. */
static DfResult line_repair(DfCtx *c, Position *pos, int depth, Repair *repair) {
    DfResult r = {DF_UNKNOWN, 0, 0, MOVE_NONE};
    if (!repair->left || df_stopped(c) || (repair->deadline > 0 && df_now() >= repair->deadline)) return r;
    uint64_t n0 = df_nodes(c);
    df_set_limits(c, n0 + repair->left, repair->deadline);
    r = df_search(c, pos, depth, DF_PLAIN);
    uint64_t used = df_nodes(c) - n0;
    repair->left = used < repair->left ? repair->left - used : 0;
    return r;
}

/* The plain proof's main line from the table: the attacker's shortest proven check,
 * the defender's longest proven evasion.  Fills pv and len_at (the plain length
 * left before each move); stops where an entry is missing.  Returns its plies.
 * weigh_drops: the walk's line.  A defender's drop between king and checker is
 * often futile, and each adds two plies that the futile rule does not count, so
 * the longest plain defence can be a short one under the rule: Zuko 4's plain line
 * runs the king west behind four pawn drops (plain 40 after 3d4c) and the walk
 * stalled at ply 2.  So a defence scores its length less two plies per defender
 * drop (its own and those on its plain line: line_weight); measured: Zuko 4 exact
 * in 32-38 s on two threads, 62-115 s without.  repair (NULL: none): nodes left for
 * proving again, within the bound, a child whose proof the table lost (see
 * line_repair); at an attacker node, the check that its own proof entry names. */
static int plain_line(DfCtx *c, const Position *root, int U, Move *pv, int *len_at, int max, int weigh_drops,
                      Repair *repair) {
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
            if (r.result != DF_PROVEN && !is_or && repair) r = line_repair(c, &pos, len - 1, repair);
            int score = r.len;
            if (r.result == DF_PROVEN && !is_or && weigh_drops)
                score = line_weight(c, &pos, r.len, repair) - 2 * move_is_drop(ml->moves[i]);
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
        if (best == MOVE_NONE && is_or && repair) {
            DfResult here = df_probe(c, &pos, len, DF_PLAIN);
            for (int i = 0; i < ml->count && here.result == DF_PROVEN && best == MOVE_NONE; i++) {
                if (ml->moves[i] != here.best) continue;
                Undo u;
                pos_do_move(&pos, ml->moves[i], &u);
                DfResult r = line_repair(c, &pos, len - 1, repair);
                pos_undo_move(&pos, ml->moves[i], &u);
                if (r.result == DF_PROVEN) { best = ml->moves[i]; blen = r.len; }
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

int found_mate_line(DfCtx *c, const Position *root, int U, uint64_t repair_nodes, Move *pv, int max) {
    int len_at[TS_MAX_PV];
    Repair repair = {repair_nodes, 0};
    if (max > TS_MAX_PV) max = TS_MAX_PV;
    int n = plain_line(c, root, U, pv, len_at, max, 0, &repair);
    return line_mates(root, pv, n) ? n : 0;  /* (a line, not a proof) */
}

typedef struct {
    uint64_t nodes;      /* the problem's node limit (0 = none) */
    double deadline;     /* and its deadline (0 = none) */
    uint64_t first_cap;  /* exact_length's first round cap; a walk step's is a quarter */
    int trace;           /* solve --trace: the steps on stderr */
} Budget;

/* solve --trace: one line per step on stderr, written under the stream's lock so
 * that the lines of a pair's two threads do not mix.  Says where a long problem's
 * search goes: which walk step, and whether its nodes went into the query or the
 * settling. */
static void trace_step(const Budget *b, const char *fmt, ...) {
    if (!b->trace) return;
    va_list ap;
    va_start(ap, fmt);
    flockfile(stderr);
    fputs("trace: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    funlockfile(stderr);
    va_end(ap);
}

static double mega(uint64_t n) { return (double)n / 1e6; }

static int out_of_budget(DfCtx *c, const Budget *b) {
    return (b->nodes && df_nodes(c) >= b->nodes) || (b->deadline > 0 && df_now() >= b->deadline) || df_stopped(c);
}

/* The problem's budget or the walk's own share (walk_end, a node count; 0 = none) is spent. */
static int walk_spent(DfCtx *c, const Budget *b, uint64_t walk_end) {
    return out_of_budget(c, b) || (walk_end && df_nodes(c) >= walk_end);
}

/* The next searches may use cap more nodes (0: no cap), within the problem's limits
 * and up to `end` (the walk's share, 0: none; at least one node). */
static void cap_nodes(DfCtx *c, const Budget *b, uint64_t cap, uint64_t end) {
    if (end) {
        uint64_t left = end > df_nodes(c) ? end - df_nodes(c) : 1;
        if (!cap || cap > left) cap = left;
    }
    uint64_t n = cap ? df_nodes(c) + cap : 0;
    if (b->nodes && (!n || b->nodes < n)) n = b->nodes;
    df_set_limits(c, n, b->deadline);
}

/* Settles the checks at z (plain length ub) other than the main line's move with
 * plain searches of at most cap nodes each: many are no mate at all, and a plain
 * no-mate deep enough (df_plain_depth_for_futile: the futile rule's query there is
 * "within ub - 1") or a plain proof is taken by the futile-rule queries, where a
 * bounded disproof of a long checking sequence can cost far more (Zuko 6, ply 8:
 * 5a4a, 12-15 M nodes unbounded against 160 M for "no mate within 70").  Others are
 * cheap under the bound and endless unbounded (the same Zuko, ply 2: 3f2d, open
 * after 140 M nodes while the bounded query took 2 M), hence the cap.  Bounded at
 * 2(ub - 1) + 2h + 2 rather than unbounded (where 5a4a's no-mate came back bound by
 * the 1001-ply limit anyway): the walk alone 0.92x the nodes on Zuko 6, 0.90x on 4,
 * 0.87x on 24, 0.89x on 9, 1.03-1.05x on 3, 11 and 27, the same on 1, 15 and 20.
 * These searches run with epsilon 1 (df_set_epsilon): counted in Zuko 6's 5a4a
 * (16.6 M nodes), 2.5 M distinct positions were expanded 6.6 times each on
 * average, 3.4 M expansions at positions entered 1,024 times or more; with epsilon
 * 1 it took 11.0 M.  The walk alone: Zuko 4 0.58x the nodes, Zuko 24 0.73x, Zuko 6
 * 0.88x; Zuko 3 and 11 about 0.9x, the others the same.  (For the first plain
 * search, epsilon 1/2 changed Zuko 4's line to a mate of 47 and its walk failed.)
 * And with the repetition test on, although the walk's queries run without it: a
 * king that can run round a cycle is then refuted at the repeat instead of chased
 * to the bound, and the answers are still no mate at all or within d where the
 * refutation does not rest on the cut (those that do are not stored).  Zuko 6's
 * 5a4a: no mate at all in 9.7 M nodes at ply 8 and 8.6 M at ply 0 (against 8.2 M
 * and more than 16 M for "none within d" chasing cycles), 3f2d at ply 2 in 0.9 M.
 * Stops at `end` nodes (0: no end). */
static void settle_alternatives(DfCtx *c, const Budget *b, Position *z, Move pvm, int ub, uint64_t cap, uint64_t end) {
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) return;
    gen_checks(z, ml);
    for (int i = 0; i < ml->count && !walk_spent(c, b, end); i++) {
        if (ml->moves[i] == pvm) continue;
        Undo u;
        pos_do_move(z, ml->moves[i], &u);
        int d = df_plain_depth_for_futile(z, ub - 1);
        if (df_probe(c, z, d, DF_PLAIN).result == DF_UNKNOWN) {
            cap_nodes(c, b, cap, end);
            df_set_epsilon(c, 1);
            int no_rep = df_set_no_rep(c, 0);
            df_search(c, z, d, DF_PLAIN);
            df_set_no_rep(c, no_rep);
            df_set_epsilon(c, DF_EPSILON_DIV);
        }
        pos_undo_move(z, ml->moves[i], &u);
    }
    free(ml);
}

/* The exact value of the walk's attacker node z (plain length ub): the top-down
 * query and the settling of its other checks in turns, with a node cap that doubles
 * per round (quadrupling measured worse on Zuko 6: 83 M nodes against 53 M), up to
 * the walk's cap.  The settling gets SETTLE_CAP_RATIO times the query's cap: a
 * stopped query resumes badly (Zuko 6, ply 8: rounds of 1, 2, 4 and 8 M stopped
 * before the settling landed, then 5 nodes), a stopped settling search well (its
 * 5a4a: 10.8 M in capped rounds, 9.7 M in one).  The walk alone, ratio 1 to 16:
 * Zuko 6 47.9 to 23.2 M nodes, 4 27.0 to 17.6 M, 24 31.6 to 19.7 M (ratio 4: Zuko
 * 6 32.1 M, 4 19.4 M; 64: as 16).  -2 on a limit. */
static int walk_step(DfCtx *c, const Budget *b, uint64_t walk_end, Position *z, Move pvm, int ub) {
    for (uint64_t cap = b->first_cap / 4 + 1;; cap *= 2) {
        cap_nodes(c, b, cap, walk_end);
        uint64_t n0 = df_nodes(c);
        int e = df_exact_or(c, z, ub, NULL);
        trace_step(b, "walk   query, cap %.2f M: %s, %.2f M nodes", mega(cap), e > 0 ? "exact" : "stopped",
                   mega(df_nodes(c) - n0));
        if (e > 0) return e;
        if (e == -1 || walk_spent(c, b, walk_end)) return -2;  /* (-1: not mated within ub, cannot happen) */
        n0 = df_nodes(c);
        settle_alternatives(c, b, z, pvm, ub, cap * SETTLE_CAP_RATIO, walk_end);
        trace_step(b, "walk   settling the other checks, cap %.2f M each: %.2f M nodes", mega(cap * SETTLE_CAP_RATIO),
                   mega(df_nodes(c) - n0));
        if (walk_spent(c, b, walk_end)) return -2;
    }
}

/* The walk's main line (plain_line, drops weighed) with the position before each
 * move: at[k] is the position before pv[k], len_at[k] its plain length. */
typedef struct {
    int n;
    Move pv[TS_MAX_PV];
    int len_at[TS_MAX_PV];
    Position at[TS_MAX_PV];
} Line;

/* The main line of root from the table (plain length ub); NULL when out of memory.
 * Entries the table lost are proved again, LINE_REPAIR_NODES in all (within b):
 * a table that grew from 32 MB had lost most of the first plain proof, and the
 * walk then started from ply 2 of Zuko 6's 81 (stopped at 60 s) and weighed
 * Zuko 4's defences by lines cut short. */
static Line *line_new(DfCtx *c, const Budget *b, const Position *root, int ub) {
    Line *l = malloc(sizeof *l);
    if (!l) return NULL;
    Repair repair = {LINE_REPAIR_NODES, b->deadline};
    if (b->nodes) {
        uint64_t room = b->nodes > df_nodes(c) ? b->nodes - df_nodes(c) : 0;
        if (room < repair.left) repair.left = room;
    }
    uint64_t n0 = df_nodes(c);
    l->n = plain_line(c, root, ub, l->pv, l->len_at, TS_MAX_PV - 1, 1, &repair);
    trace_step(b, "line_new: %d plies, %.2f M nodes", l->n, mega(df_nodes(c) - n0));
    df_set_limits(c, b->nodes, b->deadline);  /* (the repair's were its own) */
    l->at[0] = *root;
    if (l->n == 0) {  /* no line in the table: the root alone */
        l->len_at[0] = ub;
        l->pv[0] = MOVE_NONE;
    }
    for (int i = 0; i < l->n; i++) {
        Undo u;
        l->at[i + 1] = l->at[i];
        pos_do_move(&l->at[i + 1], l->pv[i], &u);
    }
    return l;
}

/* Exact length by walking the plain main line from its end back to the root: at
 * each attacker node its exact value is searched top down (walk_step), which finds
 * the next node's "no mate within e-2" in the table and so only has to refute the
 * other checks.  Bottom up from the root, every deep subtree is disproved again for
 * each bound (2-5x more nodes per 2 plies), which no budget covers for Zuko 6's 81
 * plies; the walk proves it.  It is only as good as the line: where the plain line's
 * defences are futile drops or not the longest (Zuko 4, the records that are not the
 * longest defence) the top-down query has to find the longest defence itself.  At
 * most `nodes` more nodes (0: no cap).  walk_at (NULL: none) is told each attacker
 * ply the walk starts.  Returns the root's exact length, -2 when stopped. */
static int walk_line(DfCtx *c, const Budget *b, Line *l, uint64_t nodes, atomic_int *walk_at) {
    int e = -2;
    uint64_t walk_end = nodes ? df_nodes(c) + nodes : 0;
    if (b->trace) {
        char line[TS_MAX_PV * 7 + 1] = "";
        size_t at = 0;
        for (int i = 0; i < l->n; i++) {
            line[at++] = ' ';
            move_format(l->pv[i], line + at);
            at += strlen(line + at);
        }
        trace_step(b, "walk along the plain line (%d plies):%s", l->n, line);
    }
    for (int k = l->n ? (l->n - 1) & ~1 : 0; k >= 0; k -= 2) {  /* (the last attacker ply, backwards) */
        Position p = l->at[k];
        uint64_t n0 = df_nodes(c);
        double t0 = df_now();
        if (walk_at) atomic_store(walk_at, k);
        e = walk_step(c, b, walk_end, &p, l->pv[k], l->len_at[k]);
        char mv[8] = "-", val[24] = "stopped";
        if (l->n) move_format(l->pv[k], mv);
        if (e > 0) snprintf(val, sizeof val, "exact %d", e);
        trace_step(b, "walk ply %d (%s, plain %d): %s, %.2f M nodes, %.1f s", k, mv, l->len_at[k], val,
                   mega(df_nodes(c) - n0), df_now() - t0);
        if (e < 0) break;
    }
    return e;
}

/* walk_line along root's main line (plain length ub), found here */
static int walk_exact(DfCtx *c, const Budget *b, const Position *root, int ub, uint64_t nodes) {
    Line *l = line_new(c, b, root, ub);
    if (!l) return -2;
    int e = walk_line(c, b, l, nodes, NULL);
    free(l);
    return e;
}

/* The walk's settling (settle_alternatives) at every attacker node of the main line,
 * each search capped at cap nodes: run by the owner of a pair before bottom up, so
 * that the walking thread finds the long plain no-mates it needs in the table
 * instead of racing its own query against them (Zuko 6, ply 8: the query's stopped
 * rounds cost 15 M nodes before the settling of 5a4a, 8.2 M, landed).  From the root
 * forward, while the walk comes from the end back (walk_at: its attacker ply now),
 * never past it (Zuko 6 on two threads 30-33 s, against 55-56 s from the end back
 * with the settling that now finishes in the walk itself).  Only the first
 * SETTLE_AHEAD_PLIES plies, where the walk's queries carry the largest bounds:
 * deeper, the walk's own query mostly needs no settling, and bottom up waits on
 * this thread.  Zuko 1 with its whole 71-ply line: ply 28's settling took 12 M
 * nodes (26 s) where the walk's query took 0.44 M, and bottom up, whose exact 69
 * takes ~8 s, came too late (46 s in all, against 23 s with six plies; Zuko 6
 * settles plies 0 and 2 only in either case). */
static void settle_ahead(DfCtx *c, const Budget *b, Line *l, uint64_t cap, atomic_int *walk_at) {
    uint64_t n0 = df_nodes(c);
    double t0 = df_now();
    int k = 0;
    for (; k < l->n && k < SETTLE_AHEAD_PLIES && k <= atomic_load(walk_at) && !out_of_budget(c, b); k += 2) {
        Position z = l->at[k];  /* (the walk reads the line's positions meanwhile) */
        settle_alternatives(c, b, &z, l->pv[k], l->len_at[k], cap, 0);
    }
    trace_step(b, "settled ahead up to ply %d: %.2f M nodes, %.1f s", k, mega(df_nodes(c) - n0), df_now() - t0);
    df_set_limits(c, b->nodes, b->deadline);
}

/* Two threads on one table: the owner asks df_exact_or(pos, ub) bottom up (with
 * PAIR_WALK after settle_ahead) while the helper walks the main line (walk_line,
 * PAIR_WALK; the line found once, before both, so that they work on the same one)
 * or splits the last bound by root check (split_last_bound, PAIR_SPLIT); the
 * owner's end stops the helper, a walk's exact answer stops the owner.  Returns -3
 * when the runtime gave one thread only (or no memory for the line), else the
 * owner's df_exact_or (its *lb set); *walk_L the walk's. */
enum { PAIR_WALK, PAIR_SPLIT };
static int pair_run(DfCtx *c, DfCtx *h, int kind, Position *pos, int ub, int *lb, const Budget *b, int *walk_L) {
#ifdef _OPENMP
    atomic_int stop = 0, walk_at = INT_MAX;
    int L = -2, pair = 0;
    *walk_L = -2;
    Line *l = kind == PAIR_WALK ? line_new(c, b, pos, ub) : NULL;
    if (kind == PAIR_WALK && !l) return -3;
    Position hpos = *pos;
    df_share_begin(c, h, &stop);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_num_threads() == 2) {
            if (omp_get_thread_num() == 0) {
                pair = 1;
                if (kind == PAIR_WALK && ub >= SETTLE_AHEAD_MIN_PLIES) settle_ahead(c, b, l, SETTLE_AHEAD_CAP, &walk_at);
                L = df_stopped(c) ? -2 : df_exact_or(c, pos, ub, lb);
                atomic_store(&stop, 1);
            } else if (kind == PAIR_WALK) {
                *walk_L = walk_line(h, b, l, 0, &walk_at);
                if (*walk_L > 0) atomic_store(&stop, 1);
            } else {
                split_last_bound(h, &hpos, ub - 2, b->deadline);
            }
            df_share_leave(omp_get_thread_num() == 0 ? c : h);  /* (before the barrier: a growth waits on no one gone) */
        }
    }
    df_share_end(c, h, b->nodes, b->deadline);
    free(l);
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
    trace_step(b, "pair: bottom up %s %d, the walk %s", L_up > 0 ? "exact" : "at least", L_up > 0 ? L_up : lb,
               L_walk > 0 ? "exact" : "stopped");
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
int exact_length(DfCtx *c, Position *pos, int U, const TsOptions *o, double t0, TsAnswer *a) {
    Budget b = {o->node_limit, o->time_limit > 0 ? t0 + o->time_limit : 0, o->first_cap ? o->first_cap : EXACT_FIRST_CAP,
                o->trace};
    trace_step(&b, "plain mate %d after %.2f M nodes, %.1f s: now the exact length", U, mega(df_nodes(c)),
               df_now() - t0);
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
        cap_nodes(c, &b, cap, 0);
        int lb = 1, L = df_exact_or(c, pos, U, &lb);
        if (lb > best_lb) best_lb = lb;
        trace_step(&b, "bottom up, cap %.2f M: %s %d", mega(cap), L > 0 ? "exact" : "at least", L > 0 ? L : lb);
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

int exact_bounded(DfCtx *c, DfCtx *h, Position *pos, int ub, double deadline, int *lb) {
    int L = -3, walk_L;
    Budget b = {0, deadline, 0, 0};
    if (h) L = pair_run(c, h, PAIR_SPLIT, pos, ub, lb, &b, &walk_L);
    if (L == -3) L = df_exact_or(c, pos, ub, lb);
    return L;
}
