/* verify_adapter.c - runs ts_solve for the composer and keeps only what it needs.
 * A verdict counts as perfect only when every flaw test was decided and the
 * length is exact: an undecided check never makes a problem "perfect". */
#include "verify_adapter.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proofcheck.h"
#include "tsume.h"

size_t verify_hash_mb = 32;
static _Thread_local DfCtx *thread_ctx;

int verify_for_compose(const Position *pos, uint64_t node_limit, Verdict *out) {
    if (!thread_ctx && !(thread_ctx = df_new(verify_hash_mb))) return -1;
    TsAnswer *a = malloc(sizeof *a);
    if (!a) return -1;
    TsOptions o;
    memset(&o, 0, sizeof o);
    o.node_limit = node_limit;
    o.flaws = 1;
    o.yozume_extra = 6;  /* the same 余詰 bound as `tsumegen solve` by default */
    o.first_flaw = 1;    /* the composer needs "perfect or not", not every flaw and note */
    o.yozume_confirm = 1;  /* a perfect verdict must not rest on the bound */
    /* bottom up only: its lower bound is the GA's length for an undecided board, and
     * the Table 2 runs were measured with it (the walk is not measured in the GA) */
    o.length_search = TS_LEN_UP;
    o.found_line = 1;  /* an undecided mate's line for undecided.jsonl (costs only when not exact) */
    ts_solve(thread_ctx, pos, &o, a);
    memset(out, 0, offsetof(Verdict, pv));
    out->result = a->result == TS_MATE ? VERDICT_MATE : a->result == TS_NOMATE ? VERDICT_NOMATE : VERDICT_UNKNOWN;
    /* an unproven length counts as its proven lower bound: the GA must not reward
     * boards for being hard to verify (the upper bound is often far off) */
    out->length = a->exact_length ? a->length : a->length_lb;
    out->length_exact = a->exact_length;
    out->length_ub = a->length;
    out->perfect = a->result == TS_MATE && a->perfect && a->complete && a->exact_length;
    const Move *line = a->exact_length ? a->pv : a->line;
    int n = a->exact_length ? a->npv : a->nline;
    out->pv_len = n < VERDICT_PV_MAX ? n : VERDICT_PV_MAX;
    memcpy(out->pv, line, sizeof(Move) * (size_t)out->pv_len);
    out->cook_ply = a->nyozume > 0 ? a->yozume[0].ply - 1 : -1;
    out->cook_move = a->nyozume > 0 ? a->yozume[0].move : 0;
    out->nodes = a->nodes;
    /* mate with no flaw found, but a limit stopped the exact length or a flaw test */
    out->undecided = a->result == TS_MATE && !out->perfect && a->nyozume == 0 && a->leftover == 0 &&
                     (!a->exact_length || !a->complete);  /* leftover is only set with a main line */
    free(a);
    return 0;
}

/* Run on each problem before it is written, so that every problem the composer
 * prints was proved twice: by the verdict's search and by a walk that trusts
 * neither its move generators nor its table.  It starts a new table generation
 * (the last solve was usually of another board: a piece-removal variant). */
int proofcheck_for_compose(const Position *pos, const Verdict *v, char *msg, size_t len) {
    msg[0] = 0;
    if (v->pv_len != v->length) {  /* (a main line longer than VERDICT_PV_MAX) */
        snprintf(msg, len, "main line of %d plies not kept whole", v->length);
        return 2;
    }
    if (!thread_ctx && !(thread_ctx = df_new(verify_hash_mb))) return 2;
    TsAnswer *a = calloc(1, sizeof *a);
    if (!a) return 2;
    a->result = TS_MATE;
    a->length = v->length;
    a->npv = v->pv_len;
    memcpy(a->pv, v->pv, sizeof(Move) * (size_t)v->pv_len);
    Position p = *pos;
    df_begin(thread_ctx, p.side, 0, 0);
    int ok = pc_verify(thread_ctx, &p, a, 0, msg, len);  /* (plain_len 0: the walk's bound is the search's) */
    free(a);
    return ok;
}
