/* yozume_test.h - the 余詰 test of an alternative check on a main line, one at a
 * time or a whole line's at once on two threads sharing one table.  Private to
 * tsume.c; the public API is tsume.h. */
#ifndef TSUMEGEN_YOZUME_TEST_H
#define TSUMEGEN_YOZUME_TEST_H
#include "tsume.h"

#define TRACE_MIN_NODES 100000  /* --trace names the 余詰 tests that cost at least this */

typedef struct {
    int k;          /* 0-based ply of the line */
    Move m;         /* the check played there instead of the line's move */
    DfResult r;     /* proven: m mates avoiding the line's later positions (r.len after m);
                       disproven: none within the bound; unknown: a limit */
    int incomplete; /* not settled: unknown, or "none within the deepest bound" (not "none at all") */
    int run;        /* 1: searched (yz_tests_pair may leave some unstarted) */
} YzTest;

/* The test of check m at ply k of a line of L plies: pos is the position before
 * it (restored on return), keys the line's L + 1 position keys (its 迂回 rule:
 * a mate through a later position of the line is not a 余詰). */
YzTest yz_test(DfCtx *c, const TsOptions *o, Position *pos, int k, int L, Move m, const uint64_t *keys);

/* Every test of the plies in order[0 .. nk) (the attacker's plies but the last;
 * line[k] the position at ply k, pv[k] the line's move there), each check but
 * pv[k], on c and o->helper at once; *out their results in that order (the caller
 * frees it), and their count (*threads: how many the runtime gave, 1 or 2); -1: no
 * spare thread, fewer than two tests, or no memory (the caller tests one at a
 * time).  stop_first: after the first 余詰 in that order (a mate by other than the
 * line's move's promotion twin) no later test is started; a later one left
 * unstarted is unknown. */
int yz_tests_pair(DfCtx *c, const TsOptions *o, const Position *line, int L, const Move *pv, const uint64_t *keys,
                  const int *order, int nk, int stop_first, YzTest **out, int *threads);

#endif
