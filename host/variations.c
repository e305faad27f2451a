/* variations.c - 変化 along a main line and, to a given depth, along the
 * variations' own lines (variations.h). */
#include "variations.h"
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
    vs->n++;
    vs->nodes += ans->nodes;
    return 0;
}

/* The variations of one line: moves[0..n) from from, moves[0] at 1-based ply
 * first, length plies to the mate from there.  The line is exact, so at each of
 * its defender nodes its defence is a longest one and length - k bounds that
 * node's mate length (what the futility test needs).  A variation's own defence,
 * its moves[0], is skipped: its siblings are its parent's variations. */
static int line_variations(DfCtx *c, const Position *from, const Move *moves, int n, int first, int length, int parent,
                           int level, const TsOptions *o, const TsOptions *vo, TsAnswer *ans, MoveList *ml,
                           TsVariations *out, Position **starts) {
    Position pos = *from;
    int rc = 0;
    for (int k = 0; k < n && !rc && out->cut < 2; k++) {
        if ((first + k) % 2 == 0 && (k > 0 || parent < 0)) {  /* a defender node: its other defences */
            double deadline = o->time_limit > 0 ? df_now() + o->time_limit : 0;
            df_begin(c, pos.side ^ 1, o->node_limit, deadline);
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
            }
        }
        Undo u;
        pos_do_move(&pos, moves[k], &u);
    }
    return rc;
}

int ts_variations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, int depth, TsVariations *out) {
    memset(out, 0, sizeof *out);
    if (a->result != TS_MATE || a->npv < 1) return 0;
    out->run = 1;
    double t0 = df_now();
    if (o->trace) fprintf(stderr, "trace: variations of the %d-ply main line\n", a->npv);
    /* each variation is a problem of its own: exact length and main line, no flaws */
    TsOptions vo = *o;
    vo.flaws = vo.verify = vo.first_flaw = vo.yozume_confirm = vo.max_length = 0;
    vo.split_bounded = vo.trace = vo.keep_table = 0;
    vo.helper = NULL;
    vo.found_line = 1;
    TsAnswer *ans = malloc(sizeof *ans);
    MoveList *ml = malloc(sizeof *ml);
    Position *starts = NULL;
    int rc = ans && ml ? 0 : -1;
    if (!rc) rc = line_variations(c, start, a->pv, a->npv, 1, a->length, -1, 1, o, &vo, ans, ml, out, &starts);
    /* then level by level (the list stays in that order, each one's own variations
     * together): the side lines of each exact variation not yet at the depth */
    for (int i = 0; i < out->n && !rc && out->cut < 2; i++) {
        TsVariation v = out->v[i];  /* (a copy: the list grows below) */
        if (v.level >= depth || v.result != TS_MATE || !v.exact) continue;
        out->v[i].listed = 1;
        rc = line_variations(c, &starts[i], v.moves, v.nmoves, v.ply, v.length, i, v.level + 1, o, &vo, ans, ml, out,
                             &starts);
    }
    out->ms = (df_now() - t0) * 1000;
    free(starts);
    free(ans);
    free(ml);
    if (rc) ts_variations_free(out);
    return rc;
}

void ts_variations_free(TsVariations *vs) {
    for (int i = 0; i < vs->n; i++) free(vs->v[i].moves);
    free(vs->v);
    memset(vs, 0, sizeof *vs);
}
