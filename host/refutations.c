/* refutations.c - 紛れ: a refuting defence for each other check along a main line
 * (refutations.h). */
#include "refutations.h"
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

int ts_refutations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, int own,
                   TsRefutations *out) {
    memset(out, 0, sizeof *out);
    if (a->result != TS_MATE || a->npv < 1) return 0;
    out->run = 1;
    double t0 = df_now();
    uint64_t limit = o->node_limit ? o->node_limit : 1000000;
    int extra = o->yozume_extra >= 0 ? o->yozume_extra : 6;
    if (!own) df_begin(c, start->side, limit, 0);
    MoveList *checks = malloc(sizeof *checks), *ml = malloc(sizeof *ml);
    uint64_t *keys = malloc(sizeof *keys * (size_t)(a->npv + 1));
    int rc = checks && ml && keys ? 0 : -1;
    Position pos = *start;
    for (int j = 0; !rc && j <= a->npv; j++) {  /* (the line's positions, for the detour test) */
        keys[j] = pos_key(&pos);
        Undo u;
        if (j < a->npv) pos_do_move(&pos, a->pv[j], &u);
    }
    pos = *start;
    int save = df_set_no_rep(c, 0);
    for (int k = 0; k < a->npv && !rc && !out->cut; k += 2) {
        int n = a->npv - k;  /* plies from this node to the mate, its own move included */
        gen_checks(&pos, checks);
        for (int i = 0; i < checks->count && !rc; i++) {
            Move m = checks->moves[i];
            if (m == a->pv[k] || ts_yozume_listed(a, k + 1, m)) continue;
            if (df_interrupted()) { out->cut = 1; break; }
            Position q = pos;
            Undo u;
            pos_do_move(&q, m, &u);
            if (gen_evasions(&q, ml) == 0) continue;  /* (mate at once) */
            double deadline = o->time_limit > 0 ? df_now() + o->time_limit : 0;
            int mates = 0, within = 0, bound = n - 1 + extra, length = 0;
            df_begin_keep(c, start->side, limit, deadline);
            df_set_no_rep(c, 0);
            Move reply = reply_unbounded(c, &q, ml, &mates);
            out->nodes += df_nodes(c);
            if (reply == MOVE_NONE && !mates) {
                if (bound > DF_MAX_DEPTH) bound = DF_MAX_DEPTH;
                df_begin_keep(c, start->side, limit, deadline);
                df_set_no_rep(c, 1);  /* (bounded: every disproof is a plain "no mate within") */
                reply = reply_bounded(c, &q, bound, ml, &mates);
                out->nodes += df_nodes(c);
                within = bound + 1;
            }
            TsRefutation *grown = realloc(out->r, (size_t)(out->n + 1) * sizeof *grown);
            if (!grown) { rc = -1; break; }
            out->r = grown;
            if (mates) {
                reply = MOVE_NONE;
                df_begin_keep(c, start->side, limit, deadline);
                mates = mate_kind(c, &q, m, a, k, keys, &length);
                out->nodes += df_nodes(c);
            }
            out->r[out->n++] = (TsRefutation){k + 1, m, reply, reply == MOVE_NONE ? 0 : within, mates, length};
            out->mates += mates > 0;
            out->undecided += reply == MOVE_NONE && !mates;
        }
        Undo u;
        pos_do_move(&pos, a->pv[k], &u);
        if (k + 1 < a->npv) pos_do_move(&pos, a->pv[k + 1], &u);
    }
    df_set_no_rep(c, save);
    out->ms = (df_now() - t0) * 1000;
    free(checks);
    free(ml);
    free(keys);
    if (rc) ts_refutations_free(out);
    return rc;
}

void ts_refutations_free(TsRefutations *rs) {
    free(rs->r);
    memset(rs, 0, sizeof *rs);
}
