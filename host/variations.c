/* variations.c - 変化 along a main line (variations.h). */
#include "variations.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends one variation: the defence d at 1-based ply, then ans's line. */
static int add_variation(TsVariations *vs, int ply, Move d, const TsAnswer *ans) {
    const Move *line = ans->npv ? ans->pv : ans->line;
    int nline = ans->result != TS_MATE ? 0 : ans->npv ? ans->npv : ans->nline;
    TsVariation *grown = realloc(vs->v, (size_t)(vs->n + 1) * sizeof *grown);
    if (!grown) return -1;
    vs->v = grown;
    TsVariation *v = &vs->v[vs->n];
    memset(v, 0, sizeof *v);
    if (!(v->moves = malloc((size_t)(nline + 1) * sizeof *v->moves))) return -1;
    v->moves[0] = d;
    memcpy(v->moves + 1, line, (size_t)nline * sizeof *line);
    v->nmoves = nline + 1;
    v->ply = ply;
    /* (a mate whose line is unknown is no help to a reader: it counts as unknown) */
    v->result = ans->result == TS_MATE && nline ? TS_MATE : TS_UNKNOWN;
    v->exact = v->result == TS_MATE && ans->exact_length && ans->npv;
    v->length = v->result == TS_MATE ? 1 + ans->length : 0;
    vs->n++;
    return 0;
}

int ts_variations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, TsVariations *out) {
    memset(out, 0, sizeof *out);
    if (a->result != TS_MATE || a->npv < 1) return 0;
    out->run = 1;
    if (o->trace) fprintf(stderr, "trace: variations of the %d-ply main line\n", a->npv);
    /* each variation is a problem of its own: exact length and main line, no flaws */
    TsOptions vo = *o;
    vo.flaws = vo.verify = vo.first_flaw = vo.yozume_confirm = vo.max_length = 0;
    vo.split_bounded = vo.trace = vo.keep_table = 0;
    vo.helper = NULL;
    vo.found_line = 1;
    TsAnswer *ans = malloc(sizeof *ans);
    MoveList *ml = malloc(sizeof *ml);
    int rc = ans && ml ? 0 : -1;
    Position pos = *start;
    for (int k = 0; k < a->npv && !rc; k++) {
        if (k % 2 == 1 && !out->cut) {  /* a defender node: its other defences */
            double deadline = o->time_limit > 0 ? df_now() + o->time_limit : 0;
            df_begin(c, start->side, o->node_limit, deadline);
            /* a->length - k bounds the node's mate length: the main line is its longest defence */
            int nd = df_real_defences(c, &pos, a->length - k, ml);
            if (nd < 0) out->cut = 1;
            for (int i = 0; i < nd && !rc; i++) {
                Move d = ml->moves[i];
                if (d == a->pv[k]) continue;
                if (out->n == TS_MAX_VARIATIONS || df_interrupted()) { out->cut = 1; break; }
                Position after = pos;
                Undo u;
                pos_do_move(&after, d, &u);
                ts_solve(c, &after, &vo, ans);
                rc = add_variation(out, k + 1, d, ans);
            }
        }
        Undo u;
        pos_do_move(&pos, a->pv[k], &u);
    }
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
