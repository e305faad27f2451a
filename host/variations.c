/* variations.c - 変化 along a main line and, to a given depth, along the
 * variations' own lines (variations.h). */
#include "variations.h"
#include "sfen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends one variation: the defence d at 1-based ply from position before (the
 * position d is played in), then ans's line. */
static int add_variation(TsVariations *vs, Position **starts, const Position *before, int ply, int parent, int level,
                         Move d, const TsAnswer *ans) {
    const Move *line = ans->npv ? ans->pv : ans->line;
    int nline = ans->result != TS_MATE ? 0 : ans->npv ? ans->npv : ans->nline;
    TsVariation *grown = realloc(vs->v, (size_t)(vs->n + 1) * sizeof *grown);
    if (grown) vs->v = grown;
    Position *sgrown = grown ? realloc(*starts, (size_t)(vs->n + 1) * sizeof *sgrown) : NULL;
    if (!sgrown) return -1;
    *starts = sgrown;
    (*starts)[vs->n] = *before;
    TsVariation *v = &vs->v[vs->n];
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
    if (v->exact) v->leftover = ans->leftover;  /* (set with the main line ts_solve found) */
    vs->n++;
    vs->nodes += ans->nodes;
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

/* The variations of one line: moves[0..n) from from, moves[0] at 1-based ply
 * first, length plies to the mate from there.  The line is exact, so at each of
 * its defender nodes its defence is a longest one and length - k bounds that
 * node's mate length (what the futility test needs).  A variation's own defence,
 * its moves[0], is skipped: its siblings are its parent's variations. */
static int line_variations(DfCtx *c, const Position *from, const Move *moves, int n, int first, int length, int parent,
                           int level, const TsOptions *o, const TsOptions *vo, int betsu, TsAnswer *ans, MoveList *ml,
                           TsVariations *out, Position **starts) {
    Position pos = *from;
    int rc = 0;
    for (int k = 0; k < n && !rc && out->cut < 2; k++) {
        if ((first + k) % 2 == 0 && (k > 0 || parent < 0)) {  /* a defender node: its other defences */
            double deadline = o->time_limit > 0 ? df_now() + o->time_limit : 0;
            df_begin_keep(c, pos.side ^ 1, o->node_limit, deadline);
            int nd = df_real_defences(c, &pos, length - k, ml);
            out->nodes += df_nodes(c);  /* (the futility tests of the node's drops) */
            if (nd < 0 && !out->cut) out->cut = 1;  /* (and on to the next node) */
            for (int i = 0; i < nd && !rc; i++) {
                Move d = ml->moves[i];
                if (d == moves[k]) continue;
                if (out->n == TS_MAX_VARIATIONS || df_interrupted()) { out->cut = 2; break; }
                Position after = pos;
                Undo u;
                pos_do_move(&after, d, &u);
                ts_solve(c, &after, vo, ans);
                rc = add_variation(out, starts, &pos, first + k, parent, level, d, ans);
                if (!rc && betsu) {
                    TsVariation *v = &out->v[out->n - 1];
                    rc = variation_betsu(c, &after, v, vo);
                    out->nodes += df_nodes(c);
                }
            }
        }
        Undo u;
        pos_do_move(&pos, moves[k], &u);
    }
    return rc;
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
    /* one table for the whole listing: the variations of one line share most of
     * their subtrees, and its entries are facts about positions with this attacker
     * (as solve --table's across runs).  Zuko 20's listing: 2.2 M nodes against 4.6 M
     * with a fresh table for each variation; Zuko 1's 160 M against 177 M, and 112
     * of its variations exact within their 10 M nodes against 108.  With
     * o->keep_table the problem's own search is in it too (see cmd_solve.c) */
    vo.keep_table = 1;  /* (each search below begins with df_begin_keep) */
    if (!o->keep_table) df_begin(c, start->side, o->node_limit, 0);
    vo.helper = NULL;
    vo.found_line = 1;
    TsAnswer *ans = malloc(sizeof *ans);
    MoveList *ml = malloc(sizeof *ml);
    Position *starts = NULL;
    int rc = ans && ml ? 0 : -1;
    if (!rc) rc = line_variations(c, start, a->pv, a->npv, 1, a->length, -1, 1, o, &vo, betsu, ans, ml, out, &starts);
    /* then level by level (the list stays in that order, each one's own variations
     * together): the side lines of each exact variation not yet at the depth */
    for (int i = 0; i < out->n && !rc && out->cut < 2; i++) {
        TsVariation v = out->v[i];  /* (a copy: the list grows below) */
        if (v.level >= depth || v.result != TS_MATE || !v.exact) continue;
        out->v[i].listed = 1;
        rc = line_variations(c, &starts[i], v.moves, v.nmoves, v.ply, v.length, i, v.level + 1, o, &vo, betsu, ans, ml,
                             out, &starts);
    }
    out->ms = (df_now() - t0) * 1000;
    free(starts);
    free(ans);
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
    if (!a->leftover || n != a->length || !a->exact_length || a->nnotes >= TS_MAX_NOTES || vs->cut) return;
    for (int i = 0; i < vs->n; i++)  /* (an open one might be the longer clean line: no guess) */
        if (vs->v[i].parent < 0 && !vs->v[i].exact) return;
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
        snprintf(a->notes[a->nnotes++], TS_NOTE_LEN,
                 "henka_chou: ply %d %s lasts %d plies and leaves %d in hand; %s lasts %d and leaves none", turn, mv,
                 n - turn + 1, a->leftover, dv, alt[turn]->length);
    }
    free(clean);
    free(alt);
}
