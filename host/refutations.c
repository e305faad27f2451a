/* refutations.c - 紛れ: a refuting defence for each other check along a main line
 * (refutations.h). */
#include "refutations.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bounded query's answer that holds for every length: a disproof that hit no
 * depth bound (a repetition cut alone is still exact for the node asked: a mate
 * never needs to repeat a position). */
static int absolute_nomate(DfResult r) { return r.result == DF_DISPROVEN && !(r.flags & DF_DEPTH); }

/* The first of the n defences at q after which the attacker has no mate within
 * depth (absolute: none at all), the table probed for each of them before any is
 * searched: the defence that refuted q's own search is usually there. */
static Move first_refuting(DfCtx *c, const Position *q, const Move *moves, int n, int depth, int mode, int absolute) {
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n && !df_aborted(c); i++) {
            Position after = *q;
            Undo u;
            pos_do_move(&after, moves[i], &u);
            DfResult r = pass ? df_search(c, &after, depth, mode) : df_probe(c, &after, depth, mode);
            if (absolute ? absolute_nomate(r) : r.result == DF_DISPROVEN) return moves[i];
        }
    return MOVE_NONE;
}

/* After the check (q, the defender to move): a defence after which the attacker
 * has no mate at all, searched plainly with no bound (mate or no mate is the same
 * under both rules).  Returns the defence, MOVE_NONE when none was decided;
 * *mates: the check mates. */
static Move reply_unbounded(DfCtx *c, const Position *q, MoveList *ml, int *mates) {
    Position p = *q;
    DfResult r = df_search(c, &p, DF_MAX_DEPTH, DF_PLAIN);
    if (r.result == DF_PROVEN) *mates = 1;
    if (!absolute_nomate(r)) return MOVE_NONE;
    gen_evasions(q, ml);
    return first_refuting(c, q, ml->moves, ml->count, DF_MAX_DEPTH, DF_PLAIN, 1);
}

/* The same within bound plies after the check, under the futile rule: a real
 * defence (futile drops are none) after which no mate within bound - 1. */
static Move reply_bounded(DfCtx *c, const Position *q, int bound, MoveList *ml, int *mates) {
    Position p = *q;
    DfResult r = df_search(c, &p, bound, DF_FUTILE);
    if (r.result == DF_PROVEN) *mates = 1;
    if (r.result != DF_DISPROVEN) return MOVE_NONE;
    p = *q;
    int nd = df_real_defences(c, &p, 0, ml);  /* (-2 at a limit: none tried) */
    return first_refuting(c, q, ml->moves, nd, bound - 1, DF_FUTILE, 0);
}

const char *const TS_REF_MATES_NAME[] = {"", "promotion", "last_move", "detour", "yozume", "mate"};

/* Why the check m (q the position after it) mates though the 余詰 test passed it by
 * (TS_REF_*): keys[j] is the main line's position after j plies, L of them, k the
 * check's 0-based ply.  A mate that needs a later main-line position is a detour, as
 * the 余詰 test judges it. */
static int mate_kind(DfCtx *c, const Position *q, Move m, const TsAnswer *a, int k, const uint64_t *keys, int *length) {
    if (ts_same_but_promo(m, a->pv[k])) return TS_REF_PROMOTION;
    if (k == a->npv - 1) return TS_REF_LAST_MOVE;
    Position p = *q;
    df_set_no_rep(c, 0);
    DfResult r = ts_mate_off_line(c, &p, keys + k + 1, a->npv - k, DF_MAX_DEPTH);
    if (r.result == DF_PROVEN) *length = 1 + r.len;
    return r.result == DF_PROVEN ? TS_REF_YOZUME : r.result == DF_DISPROVEN ? TS_REF_DETOUR : TS_REF_MATE;
}

/* One entry: the check m at 0-based ply k (q the position after it), its searches
 * on c, each with limit nodes and o's time; *nodes gets what they cost. */
static TsRefutation refute_check(DfCtx *c, const Position *q, Move m, int k, const TsAnswer *a, const TsOptions *o,
                                 const uint64_t *keys, uint64_t limit, MoveList *ml, uint64_t *nodes) {
    int attacker = q->side ^ 1, extra = o->yozume_extra >= 0 ? o->yozume_extra : 6;
    double deadline = o->time_limit > 0 ? df_now() + o->time_limit : 0;
    int mates = 0, within = 0, bound = a->npv - k - 1 + extra, length = 0;
    df_begin_keep(c, attacker, limit, deadline);
    df_set_no_rep(c, 0);
    Move reply = reply_unbounded(c, q, ml, &mates);
    *nodes += df_nodes(c);
    if (reply == MOVE_NONE && !mates) {
        if (bound > DF_MAX_DEPTH) bound = DF_MAX_DEPTH;
        df_begin_keep(c, attacker, limit, deadline);
        df_set_no_rep(c, 1);  /* (bounded: every disproof is a plain "no mate within") */
        reply = reply_bounded(c, q, bound, ml, &mates);
        *nodes += df_nodes(c);
        within = bound + 1;
    }
    if (mates) {
        reply = MOVE_NONE;
        df_begin_keep(c, attacker, limit, deadline);
        mates = mate_kind(c, q, m, a, k, keys, &length);
        *nodes += df_nodes(c);
    }
    return (TsRefutation){k + 1, m, reply, reply == MOVE_NONE ? 0 : within, mates, length};
}

/* A check to refute: the line's position before it and its result slot. */
typedef struct {
    int k;
    Move m;
    int run;  /* 1: searched (a Ctrl-C leaves the rest unstarted) */
    TsRefutation r;
} RefTask;

typedef struct {
    const Position *line;
    const TsAnswer *a;
    const TsOptions *o;
    const uint64_t *keys;
    uint64_t limit;
    RefTask *t;
    int n;
    TsRefutations *out;
    MoveList ml[2];
    uint64_t nodes[2];
    atomic_int next, done, cut;
} RefShare;

/* One thread of refute_all: the next check not taken, until none is left. */
static void refute_worker(void *arg, DfCtx *x, int me) {
    RefShare *s = arg;
    for (;;) {
        int i = atomic_fetch_add(&s->next, 1);
        if (i >= s->n) break;
        if (df_interrupted()) { atomic_store(&s->cut, 1); break; }  /* (a check left unstarted) */
        RefTask *t = &s->t[i];
        Position q = s->line[t->k];
        Undo u;
        pos_do_move(&q, t->m, &u);
        t->r = refute_check(x, &q, t->m, t->k, s->a, s->o, s->keys, s->limit, &s->ml[me], &s->nodes[me]);
        t->run = 1;
        int d = atomic_fetch_add(&s->done, 1) + 1;
        if (me == 0) s->out->progress = d;  /* (the progress hook runs on this thread) */
    }
}

/* The tasks t[0 .. n) on c and o->helper at once, each taking the next task not
 * taken: the checks are independent questions on one table, as the 余詰 tests are
 * (see yozume_test.c), and their costs as uneven.  A task's searches run to the same
 * per-search limits on either thread; what they find in the table depends on what
 * the other thread put there first.  Without a helper (or with fewer than two
 * checks) c takes them all, in order.  Returns 1 when a Ctrl-C left some unstarted,
 * -1 when out of memory. */
static int refute_all(DfCtx *c, const Position *line, const TsAnswer *a, const TsOptions *o, const uint64_t *keys,
                      uint64_t limit, RefTask *t, int n, TsRefutations *out) {
    RefShare *s = malloc(sizeof *s);
    if (!s) return -1;
    *s = (RefShare){.line = line, .a = a, .o = o, .keys = keys, .limit = limit, .t = t, .n = n, .out = out};
    atomic_init(&s->next, 0);
    atomic_init(&s->done, 0);
    atomic_init(&s->cut, 0);
    double t0 = df_now();
    int pair = o->helper && n >= 2, threads = pair ? df_share_run(c, o->helper, refute_worker, s) : 1;
    if (!pair) refute_worker(s, c, 0);
    out->nodes += s->nodes[0] + s->nodes[1];
    out->progress = atomic_load(&s->done);
    if (o->trace && pair)
        fprintf(stderr, "trace: %d of %d refutation checks on %s: %.2f M nodes, %.1f s\n", out->progress, n,
                threads == 2 ? "two threads" : "one thread (the runtime gave one)",
                (double)(s->nodes[0] + s->nodes[1]) / 1e6, df_now() - t0);
    int cut = atomic_load(&s->cut);
    free(s);
    return cut;
}

int ts_refutations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, int own,
                   TsRefutations *out) {
    memset(out, 0, sizeof *out);
    if (a->result != TS_MATE || a->npv < 1) return 0;
    out->run = 1;
    double t0 = df_now();
    uint64_t limit = o->node_limit ? o->node_limit : 1000000;
    if (!own) df_begin(c, start->side, limit, 0);
    MoveList *checks = malloc(sizeof *checks), *ml = malloc(sizeof *ml);
    uint64_t *keys = malloc(sizeof *keys * (size_t)(a->npv + 1));
    Position *line = malloc(sizeof *line * (size_t)(a->npv + 1));
    RefTask *t = NULL;
    int rc = checks && ml && keys && line ? 0 : -1, nt = 0, cap = 0;
    for (int j = 0; !rc && j <= a->npv; j++) {  /* (the line's positions, and their keys for the detour test) */
        line[j] = j ? line[j - 1] : *start;
        Undo u;
        if (j) pos_do_move(&line[j], a->pv[j - 1], &u);
        keys[j] = pos_key(&line[j]);
    }
    /* the tasks: at each attacker ply every check but the line's, a listed 余詰 and a mate at once */
    for (int k = 0; k < a->npv && !rc; k += 2) {
        gen_checks(&line[k], checks);
        for (int i = 0; i < checks->count && !rc; i++) {
            Move m = checks->moves[i];
            if (m == a->pv[k] || ts_yozume_listed(a, k + 1, m)) continue;
            Position q = line[k];
            Undo u;
            pos_do_move(&q, m, &u);
            if (gen_evasions(&q, ml) == 0) continue;
            if (nt == cap) {
                cap = cap ? 2 * cap : 64;
                RefTask *g = realloc(t, sizeof *t * (size_t)cap);
                if (!g) { rc = -1; break; }
                t = g;
            }
            t[nt++] = (RefTask){k, m, 0, {0}};
        }
    }
    int save = df_set_no_rep(c, 0);
    if (!rc) {
        TsOptions lo = *o;  /* (a helper shares the solving table only: not a fresh one) */
        if (!own) lo.helper = NULL;
        int cut = refute_all(c, line, a, &lo, keys, limit, t, nt, out);
        if (cut < 0) rc = -1;
        else out->cut = cut;
    }
    df_set_no_rep(c, save);
    int nrun = 0;
    for (int i = 0; !rc && i < nt; i++) nrun += t[i].run;
    if (!rc && nrun && !(out->r = malloc(sizeof *out->r * (size_t)nrun))) rc = -1;
    for (int i = 0; !rc && i < nt; i++) {
        if (!t[i].run) continue;
        TsRefutation *r = &out->r[out->n++];
        *r = t[i].r;
        out->mates += r->mates > 0;
        out->undecided += r->reply == MOVE_NONE && !r->mates;
    }
    out->ms = (df_now() - t0) * 1000;
    free(checks);
    free(ml);
    free(keys);
    free(line);
    free(t);
    if (rc) ts_refutations_free(out);
    return rc;
}

void ts_refutations_free(TsRefutations *rs) {
    free(rs->r);
    memset(rs, 0, sizeof *rs);
}
