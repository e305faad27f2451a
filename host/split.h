/* split.h - the last bound of a bounded mate question split by root check, for a
 * second thread that shares the owner's table (tsume.c's --max-length pair). */
#ifndef TSUMEGEN_SPLIT_H
#define TSUMEGEN_SPLIT_H
#include "dfpn.h"

/* Works on "mate within B at root?" one (root check, defence) pair at a time,
 * asking "mate within B - 2 after them?" with node caps that double per round,
 * until every root check is settled, h is stopped (df_stopped) or the deadline
 * (seconds of df_now, 0 = none) passes.  Its answers only enter the table. */
void split_last_bound(DfCtx *h, const Position *root, int B, double deadline);

#endif
