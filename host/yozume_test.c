/* yozume_test.c - the 余詰 test of an alternative check (see yozume_test.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "sfen.h"
#include "yozume_test.h"

YzTest yz_test(DfCtx *c, const TsOptions *o, Position *pos, int k, int L, Move m, const uint64_t *keys) {
    int n = L - k;
    YzTest t = {k, m, {DF_DISPROVEN, 0, 0, MOVE_NONE}, 0, 1};
    char mv[8], phase[48];
    Undo u;
    pos_do_move(pos, m, &u);
    move_format(m, mv);
    snprintf(phase, sizeof phase, "余詰 test, ply %d %s", k + 1, mv);
    df_set_phase(c, phase);
    uint64_t n0 = df_nodes(c);
    double t0 = df_now();
    int detour = ts_on_line(pos, keys + k + 1, n);
    int dalt = o->yozume_extra < 0 ? DF_MAX_DEPTH : n + o->yozume_extra;
    df_set_no_rep(c, dalt < DF_MAX_DEPTH);
    /* most alternatives are no mate: epsilon 1 re-expands less on the way to a
     * disproof within the bound (bench solve full verdicts: 0.87x the nodes and the
     * time).  Not for the unbounded confirmation: its long searches (a king walking
     * off under two dragons' checks) settle more often with the default (the
     * composer's hardest 60: 55 against 50 within 2 M nodes, 0.83x the nodes; 200
     * undecided boards at 1 M nodes: 69 perfect, not 55) */
    if (dalt < DF_MAX_DEPTH) df_set_epsilon(c, 1);
    if (!detour) t.r = df_search(c, pos, dalt, DF_PLAIN);
    df_set_epsilon(c, DF_EPSILON_DIV);
    if (t.r.result == DF_PROVEN)  /* mates; does it need a later main-line position? */
        t.r = ts_mate_off_line(c, pos, keys + k + 1, n, dalt);
    df_set_no_rep(c, 1);  /* the analysis runs bounded futile-rule queries */
    t.incomplete = t.r.result == DF_UNKNOWN || (t.r.result == DF_DISPROVEN && (t.r.flags & DF_DEPTH) && dalt >= DF_MAX_DEPTH);
    if (o->trace && df_nodes(c) - n0 >= TRACE_MIN_NODES)
        fprintf(stderr, "trace: 余詰 test, ply %d %s (bound %d): %s, %.2f M nodes, %.1f s\n", k + 1, mv, dalt,
                t.r.result == DF_PROVEN ? "mates" : t.r.result == DF_DISPROVEN ? "none" : "undecided",
                (double)(df_nodes(c) - n0) / 1e6, df_now() - t0);
    pos_undo_move(pos, m, &u);
    return t;
}

typedef struct {
    const TsOptions *o;
    const Position *line;
    int L;
    const Move *pv;
    const uint64_t *keys;
    YzTest *t;
    int n, stop_first;
    atomic_int next, first_cook;  /* the next test not taken; the first 余詰 found (n: none) */
} YzShare;

/* One thread of yz_tests_pair: the next test not taken, until none is left (or,
 * with stop_first, none before the first 余詰 found). */
static void yz_worker(void *arg, DfCtx *x, int me) {
    YzShare *s = arg;
    (void)me;
    for (;;) {
        int i = atomic_fetch_add(&s->next, 1);
        if (i >= s->n || df_aborted(x) || (s->stop_first && i > atomic_load(&s->first_cook))) break;
        YzTest *t = &s->t[i];
        Position p = s->line[t->k];
        *t = yz_test(x, s->o, &p, t->k, s->L, t->m, s->keys);
        /* a 余詰 proper (not the line's move's promotion twin): later tests are not needed */
        if (s->stop_first && t->r.result == DF_PROVEN && !ts_same_but_promo(t->m, s->pv[t->k])) {
            int f = atomic_load(&s->first_cook);
            while (i < f && !atomic_compare_exchange_weak(&s->first_cook, &f, i)) {}
        }
    }
}

/* Two threads take the tests in list order, each the next one not taken: the
 * tests of one line are independent questions on one table, and their costs are
 * uneven (Zuko 7: 4.3 M nodes for S*6b at ply 1, under 0.1 M for most of its 79),
 * so a static split would leave a thread idle. */
int yz_tests_pair(DfCtx *c, const TsOptions *o, const Position *line, int L, const Move *pv, const uint64_t *keys,
                  const int *order, int nk, int stop_first, YzTest **out, int *threads) {
#ifdef _OPENMP
    DfCtx *h = o->helper;
    if (!h || o->node_limit) return -1;  /* (the helper runs without a node limit) */
    int cap = 0, n = 0;
    YzTest *t = NULL;
    MoveList *ml = malloc(sizeof *ml);
    for (int i = 0; ml && i < nk; i++) {
        int k = order[i];
        Position p = line[k];
        gen_checks(&p, ml);
        if (n + ml->count > cap) {
            cap = 2 * (n + ml->count);
            YzTest *g = realloc(t, sizeof *t * (size_t)cap);
            if (!g) { free(t); t = NULL; break; }
            t = g;
        }
        for (int j = 0; j < ml->count; j++)
            if (ml->moves[j] != pv[k]) t[n++] = (YzTest){k, ml->moves[j], {DF_UNKNOWN, 0, 0, MOVE_NONE}, 1, 0};
    }
    free(ml);
    if (!t || n < 2) {  /* (one test or none: nothing to share) */
        free(t);
        return -1;
    }
    YzShare sh = {.o = o, .line = line, .L = L, .pv = pv, .keys = keys, .t = t, .n = n, .stop_first = stop_first};
    atomic_init(&sh.next, 0);
    atomic_init(&sh.first_cook, n);
    *threads = df_share_run(c, h, yz_worker, &sh);
    df_set_phase(c, NULL);
    *out = t;
    return n;
#else
    (void)c; (void)o; (void)line; (void)L; (void)pv; (void)keys; (void)order; (void)nk; (void)stop_first; (void)out; (void)threads;
    return -1;
#endif
}
