/* exact_length.h - the exact length of a mated root (tsume.c's step 2).  Private
 * to tsume.c; the public API is tsume.h. */
#ifndef TSUMEGEN_EXACT_LENGTH_H
#define TSUMEGEN_EXACT_LENGTH_H
#include "tsume.h"

/* The exact length of a mated root whose plain proof has length U: bottom up, the
 * walk, or both (o->length_search, o->helper); sets a->length_lb.  Returns the
 * length, or -2 when a limit stopped it first. */
int exact_length(DfCtx *c, Position *pos, int U, const TsOptions *o, double t0, TsAnswer *a);
/* "Mate within 1, 3, ..., ub - 2?" bottom up (with a helper h: the spare thread
 * splits the last bound by root check).  The length when mated within ub - 2; ub
 * when proved not; else as df_exact_or (*lb: the lower bound proved so far). */
int exact_bounded(DfCtx *c, DfCtx *h, Position *pos, int ub, double deadline, int *lb);
/* The mate the first plain search found (plain length U), for an answer whose
 * length stays an upper bound: its line from the table (at each ply the shortest
 * proven check, the longest proven defence), proofs that later searches pushed out
 * of the table proved again with at most repair_nodes nodes in all (the caller
 * restores its limits).  Returns the plies of a line that ends in mate (at most
 * U: a defence's stored bound may be loose, so fewer is possible) and at most max;
 * 0 when the table no longer holds one. */
int found_mate_line(DfCtx *c, const Position *root, int U, uint64_t repair_nodes, Move *pv, int max);

#endif
