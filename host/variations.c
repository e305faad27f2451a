/* variations.c - 変化 along a main line and, to a given depth, along the
 * variations' own lines (variations.h). */
#include "variations.h"
#include "sfen.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One variation into v: the defence d at 1-based ply, then ans's line.  -1 when
 * out of memory. */
static int fill_variation(TsVariation *v, int ply, int parent, int level, Move d, const TsAnswer *ans) {
    const Move *line = ans->npv ? ans->pv : ans->line;
    int nline = ans->result != TS_MATE ? 0 : ans->npv ? ans->npv : ans->nline;
    memset(v, 0, sizeof *v);
    if (!(v->moves = malloc((size_t)(nline + 1) * sizeof *v->moves))) return -1;
    v->moves[0] = d;
    memcpy(v->moves + 1, line, (size_t)nline * sizeof *line);
    v->nmoves = nline + 1;
    v->ply = ply;
    v->parent = parent;
    v->level = level;
    /* (a mate whose line is unknown is no help to a reader: it counts as unknown) */
    v->result = ans->result == TS_MATE && nline ? TS_MATE : TS_UNKNOWN;
    v->exact = v->result == TS_MATE && ans->exact_length && ans->npv;
    v->length = v->result == TS_MATE ? 1 + ans->length : 0;
    if (v->exact) {  /* (set with the main line ts_solve found) */
        v->leftover = ans->leftover;
        v->leftover_unproved = ans->leftover_unproved;
    }
    return 0;
}

/* Appends v (its arrays change hands) with the position before its defence. */
static int append_variation(TsVariations *vs, Position **starts, const Position *before, const TsVariation *v) {
    TsVariation *grown = realloc(vs->v, (size_t)(vs->n + 1) * sizeof *grown);
    if (grown) vs->v = grown;
    Position *sgrown = grown ? realloc(*starts, (size_t)(vs->n + 1) * sizeof *sgrown) : NULL;
    if (!sgrown) return -1;
    *starts = sgrown;
    (*starts)[vs->n] = *before;
    vs->v[vs->n++] = *v;
    return 0;
}

/* 変化別詰 of an exact variation v: at each of its attacker nodes but the last move,
 * the other checks after which the futile rule mates within the plies the line has
 * left after its own move.  The line is exact (the attacker's shortest at each node),
 * so such a mate is exactly as long as the line's.  Moves that differ from the
 * line's only in promotion are 成不成, not another mate; an alternative that
 * transposes into the line's later positions in the same plies is a 手順前後 and is
 * listed too (at the same length the 余詰 test's detours cannot arise).  The tests
 * run on the variation's own table entries, with o's limits for all of them. */
static int variation_betsu(DfCtx *c, const Position *after, TsVariation *v, const TsOptions *o) {
    if (!v->exact || v->nmoves < 4) return 0;  /* (a mate in 1 after the defence has no node but its last) */
    MoveList *ml = malloc(sizeof *ml);
    if (!ml || !(v->betsu = malloc(TS_MAX_YOZUME * sizeof *v->betsu))) {
        free(ml);
        return -1;
    }
    double deadline = o->time_limit > 0 ? df_now() + o->time_limit : 0;
    df_begin_keep(c, after->side, o->node_limit, deadline);
    int save = df_set_no_rep(c, 1);  /* (bounded queries, as the 余詰 analysis asks them) */
    Position pos = *after;
    const Move *line = v->moves + 1;
    int n = v->nmoves - 1;
    v->betsu_run = 1;
    for (int k = 0; k + 1 < n && v->betsu_run == 1; k += 2) {
        int left = n - k;  /* plies from this node to the mate, its own move included */
        gen_checks(&pos, ml);
        for (int i = 0; i < ml->count; i++) {
            Move m = ml->moves[i];
            if (m == line[k] || ts_same_but_promo(m, line[k])) continue;
            Position q = pos;
            Undo u;
            pos_do_move(&q, m, &u);
            DfResult r = df_search(c, &q, left - 1, DF_FUTILE);
            if (r.result == DF_UNKNOWN || df_aborted(c)) { v->betsu_run = 2; break; }
            if (r.result != DF_PROVEN) continue;
            if (v->nbetsu < TS_MAX_YOZUME) v->betsu[v->nbetsu] = (TsYozume){v->ply + 1 + k, m, left};
            v->nbetsu++;
        }
        Undo u;
        pos_do_move(&pos, line[k], &u);
        pos_do_move(&pos, line[k + 1], &u);
    }
    df_set_no_rep(c, save);
    free(ml);
    return 0;
}

/* The variation of defence d from before (at 1-based ply, under parent at level),
 * solved on x into v: its exact answer (ans: x's scratch) and, with betsu, its
 * 変化別詰; *nodes gets their cost.  -1 when out of memory (v holds nothing). */
static int solve_variation(DfCtx *x, const Position *before, Move d, int ply, int parent, int level,
                           const TsOptions *vo, int betsu, TsAnswer *ans, TsVariation *v, uint64_t *nodes) {
    Position after = *before;
    Undo u;
    pos_do_move(&after, d, &u);
    ts_solve(x, &after, vo, ans);
    if (fill_variation(v, ply, parent, level, d, ans)) return -1;
    *nodes += ans->nodes;
    if (betsu) {
        int rc = variation_betsu(x, &after, v, vo);
        *nodes += df_nodes(x);
        if (rc) {
            free(v->moves);
            free(v->betsu);
            return -1;
        }
    }
    return 0;
}

/* A defence to solve: the position before it and its result slot. */
typedef struct {
    Position before;
    int ply, parent, level;
    Move d;
    int run;  /* 1: solved into v */
    TsVariation v;
    uint64_t nodes;
} VarTask;

typedef struct {
    const TsOptions *vo;
    int betsu, n;
    VarTask *t;
    atomic_int next, cut, oom;
} VarShare;

/* One thread of solve_all: the next defence not taken, until none is left. */
static void variation_worker(void *arg, DfCtx *x, int me) {
    VarShare *s = arg;
    TsAnswer *ans = malloc(sizeof *ans);
    (void)me;
    if (!ans) atomic_store(&s->oom, 1);
    while (ans && !atomic_load(&s->oom)) {
        int i = atomic_fetch_add(&s->next, 1);
        if (i >= s->n) break;
        if (df_interrupted()) { atomic_store(&s->cut, 1); break; }  /* (a defence left unsolved) */
        VarTask *t = &s->t[i];
        if (solve_variation(x, &t->before, t->d, t->ply, t->parent, t->level, s->vo, s->betsu, ans, &t->v, &t->nodes))
            atomic_store(&s->oom, 1);
        else t->run = 1;
    }
    free(ans);
}

/* The tasks t[0 .. n) on c and o->helper at once, each thread taking the next one
 * not taken: the variations of a level are problems of their own on one table (as
 * the 余詰 tests are, yozume_test.c), and as uneven (Zuko 1's level 1: 126
 * variations, a few of them most of its minutes).  Without a helper (or with fewer
 * than two) c solves them all, in order.  Returns 1 when a Ctrl-C left some
 * unsolved, -1 when out of memory; *two: the second thread ran. */
static int solve_all(DfCtx *c, const TsOptions *o, const TsOptions *vo, int betsu, VarTask *t, int n, int *two) {
    VarShare *s = malloc(sizeof *s);
    if (!s) return -1;
    *s = (VarShare){.vo = vo, .betsu = betsu, .n = n, .t = t};
    atomic_init(&s->next, 0);
    atomic_init(&s->cut, 0);
    atomic_init(&s->oom, 0);
    int pair = o->helper && n >= 2;
    *two = pair && df_share_run(c, o->helper, variation_worker, s) == 2;
    if (!pair) variation_worker(s, c, 0);
    int rc = atomic_load(&s->oom) ? -1 : atomic_load(&s->cut);
    free(s);
    return rc;
}

/* Appends to *tasks (*nt of them, room for *cap) the defences to solve along one
 * line: moves[0..n) from from, moves[0] at 1-based ply first, length plies to the
 * mate from there.  The line is exact, so at each of its defender nodes its defence
 * is a longest one and length - k bounds that node's mate length (what the
 * futility test of its real defences, decided on c here, needs).  A variation's own
 * defence, its moves[0], is skipped: its siblings are its parent's variations.  At
 * most room in all (*capped: more).  -1 when out of memory. */
static int line_tasks(DfCtx *c, const Position *from, const Move *moves, int n, int first, int length, int parent,
                      int level, const TsOptions *o, MoveList *ml, TsVariations *out, int room, VarTask **tasks, int *nt,
                      int *cap, int *capped) {
    Position pos = *from;
    for (int k = 0; k < n && !*capped; k++) {
        if ((first + k) % 2 == 0 && (k > 0 || parent < 0)) {
            double deadline = o->time_limit > 0 ? df_now() + o->time_limit : 0;
            df_begin_keep(c, pos.side ^ 1, o->node_limit, deadline);
            int nd = df_real_defences(c, &pos, length - k, ml);
            out->nodes += df_nodes(c);
            if (nd < 0 && !out->cut) out->cut = 1;
            for (int i = 0; i < nd; i++) {
                if (ml->moves[i] == moves[k]) continue;
                if (*nt == room) { *capped = 1; break; }
                if (*nt == *cap) {
                    *cap = *cap ? 2 * *cap : 16;
                    VarTask *g = realloc(*tasks, sizeof **tasks * (size_t)*cap);
                    if (!g) return -1;
                    *tasks = g;
                }
                VarTask *tk = &(*tasks)[(*nt)++];
                memset(tk, 0, sizeof *tk);
                tk->before = pos;
                tk->ply = first + k;
                tk->parent = parent;
                tk->level = level;
                tk->d = ml->moves[i];
            }
        }
        Undo u;
        pos_do_move(&pos, moves[k], &u);
    }
    return 0;
}

/* The tasks t[0 .. nt) solved (solve_all) and appended in their order; t is freed.
 * capped: more were left out. */
static int solve_tasks(DfCtx *c, const TsOptions *o, const TsOptions *vo, int betsu, VarTask *t, int nt, int capped,
                       TsVariations *out, Position **starts) {
    int two = 0, cut = solve_all(c, o, vo, betsu, t, nt, &two), rc = cut < 0 ? -1 : 0;
    for (int i = 0; i < nt; i++) {
        if (!t[i].run) continue;
        if (!rc) rc = append_variation(out, starts, &t[i].before, &t[i].v);
        if (rc) {
            free(t[i].v.moves);
            free(t[i].v.betsu);
            continue;
        }
        out->nodes += t[i].nodes;
    }
    if (capped || cut == 1) out->cut = 2;
    for (int i = 0; two && i < nt; i++) out->paired += t[i].run;
    free(t);
    return rc;
}

/* The variations of one line (line_tasks), listed, then solved (solve_tasks). */
static int line_variations(DfCtx *c, const Position *from, const Move *moves, int n, int first, int length, int parent,
                           int level, const TsOptions *o, const TsOptions *vo, int betsu, MoveList *ml,
                           TsVariations *out, Position **starts) {
    VarTask *t = NULL;
    int nt = 0, cap = 0, capped = 0;
    if (line_tasks(c, from, moves, n, first, length, parent, level, o, ml, out, TS_MAX_VARIATIONS - out->n, &t, &nt,
                   &cap, &capped)) {
        free(t);
        return -1;
    }
    return solve_tasks(c, o, vo, betsu, t, nt, capped, out, starts);
}

int ts_variations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, int depth, int betsu,
                  TsVariations *out) {
    memset(out, 0, sizeof *out);
    if (a->result != TS_MATE || a->npv < 1) return 0;
    out->run = 1;
    double t0 = df_now();
    if (o->trace) fprintf(stderr, "trace: variations of the %d-ply main line\n", a->npv);
    /* each variation is a problem of its own: exact length and main line, no flaws */
    TsOptions vo = *o;
    vo.flaws = vo.verify = vo.first_flaw = vo.yozume_confirm = vo.max_length = 0;
    vo.split_bounded = vo.trace = 0;
    vo.attacker_ties = 1;  /* (a variation's tied mates are 変化別詰: its leftover is their least) */
    /* one table for the whole listing: the variations of one line share most of
     * their subtrees, and its entries are facts about positions with this attacker
     * (as solve --table's across runs).  Zuko 20's listing: 2.2 M nodes against 4.6 M
     * with a fresh table for each variation; Zuko 1's 160 M against 177 M, and 112
     * of its variations exact within their 10 M nodes against 108.  With
     * o->keep_table the problem's own search is in it too (see cmd_solve.c) */
    vo.keep_table = 1;  /* (each search below begins with df_begin_keep) */
    if (!o->keep_table) df_begin(c, start->side, o->node_limit, 0);
    vo.helper = NULL;
    TsOptions lo = *o;  /* (the listing's options: a helper on a table of its own is no help) */
    if (!o->keep_table) lo.helper = NULL;
    o = &lo;
    vo.found_line = 1;
    MoveList *ml = malloc(sizeof *ml);
    Position *starts = NULL;
    int rc = ml ? 0 : -1;
    if (!rc) rc = line_variations(c, start, a->pv, a->npv, 1, a->length, -1, 1, o, &vo, betsu, ml, out, &starts);
    /* then level by level (the list stays in that order, each one's own variations
     * together): the side lines of each exact variation not yet at the depth, a whole
     * level's defences listed, then solved (on two threads the lines below level 1,
     * which have few each, keep both busy) */
    for (int i = 0; i < out->n && !rc && out->cut < 2;) {
        int end = out->n, nt = 0, cap = 0, capped = 0;  /* ([i, end): one level; the next comes after them) */
        VarTask *t = NULL;
        for (int j = i; j < end && !rc && !capped; j++) {
            TsVariation *v = &out->v[j];
            if (v->level >= depth || v->result != TS_MATE || !v->exact) continue;
            v->listed = 1;
            rc = line_tasks(c, &starts[j], v->moves, v->nmoves, v->ply, v->length, j, v->level + 1, o, ml, out,
                            TS_MAX_VARIATIONS - out->n, &t, &nt, &cap, &capped);
        }
        if (rc) free(t);
        else rc = solve_tasks(c, o, &vo, betsu, t, nt, capped, out, &starts);
        i = end;
    }
    out->ms = (df_now() - t0) * 1000;
    if (o->trace && o->helper)
        fprintf(stderr, "trace: %d of %d variations on two threads: %.2f M nodes, %.1f s\n", out->paired, out->n,
                (double)out->nodes / 1e6, out->ms / 1000);
    free(starts);
    free(ml);
    if (rc) ts_variations_free(out);
    return rc;
}

void ts_variations_free(TsVariations *vs) {
    for (int i = 0; i < vs->n; i++) {
        free(vs->v[i].moves);
        free(vs->v[i].betsu);
    }
    free(vs->v);
    memset(vs, 0, sizeof *vs);
}

/* Where the traditional line turns off the main line: backwards along the main
 * line's defender plies, clean[k] is the longest line from ply k that ends with no
 * piece in hand, going on along the main line (2 + clean[k + 2]) or leaving it by an
 * exact level-1 variation that ends clean (its own lines chosen by TSUME_RULES, so
 * this is the one level the listing has); the earliest ply where a clean variation
 * is longer than the main line's own clean continuation is the turn. */
void ts_henka_chou_notes(const TsVariations *vs, TsAnswer *a) {
    int n = a->npv;
    if (!a->leftover || n != a->length || !a->exact_length || vs->cut) return;
    for (int i = 0; i < vs->n; i++)  /* (an open one might be the longer clean line: no guess) */
        if (vs->v[i].parent < 0 && (!vs->v[i].exact || vs->v[i].leftover_unproved)) return;
    int *clean = malloc((size_t)(n + 3) * sizeof *clean);   /* -1: none */
    const TsVariation **alt = calloc((size_t)(n + 3), sizeof *alt);  /* the longest clean variation at ply k */
    if (!clean || !alt) {
        free(clean);
        free(alt);
        return;
    }
    for (int i = 0; i < vs->n; i++) {
        const TsVariation *v = &vs->v[i];
        if (v->parent < 0 && v->exact && !v->leftover && v->ply <= n && (!alt[v->ply] || v->length > alt[v->ply]->length))
            alt[v->ply] = v;
    }
    clean[n + 1] = -1;  /* (after the last defence: the main line itself leaves pieces) */
    int turn = 0;       /* the earliest ply where a clean variation beats going on: the turn */
    for (int k = n - 1; k >= 2; k -= 2) {
        int on = clean[k + 2] >= 0 ? 2 + clean[k + 2] : -1;
        int off = alt[k] && alt[k]->length > on;  /* (the clean line leaves the main line here) */
        clean[k] = off ? alt[k]->length : on;
        if (off) turn = k;
    }
    if (turn) {
        char mv[8], dv[8];
        move_format(a->pv[turn - 1], mv);
        move_format(alt[turn]->moves[0], dv);
        char note[TS_NOTE_LEN];
        snprintf(note, sizeof note, "henka_chou: ply %d %s lasts %d plies and leaves %d in hand; %s lasts %d and leaves none",
                 turn, mv, n - turn + 1, a->leftover, dv, alt[turn]->length);
        ts_add_note(a, note);
    }
    free(clean);
    free(alt);
}
