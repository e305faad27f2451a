/* variations.h - 変化: the defender's other replies along a solved problem's main
 * line, each with its own exact answer (solve --variations: the KIF's 変化 branches
 * and the JSON's "variations").  One level: a variation's own side lines are not
 * listed. */
#ifndef TSUMEGEN_VARIATIONS_H
#define TSUMEGEN_VARIATIONS_H
#include "tsume.h"

#define TS_MAX_VARIATIONS 256

typedef struct {
    int ply;      /* 1-based ply of the main line whose defence this one replaces */
    int result;   /* TS_MATE, or TS_UNKNOWN when a limit stopped its search */
    int exact;    /* the length is exact; else an upper bound and the line one mate */
    int length;   /* plies from the defence to the mate, the defence included */
    int nmoves;   /* moves: the defence, then the mate after it (0 plies after it when unknown) */
    Move *moves;
} TsVariation;

typedef struct {
    TsVariation *v;  /* in main-line order, each ply's defences in generation order */
    int n;
    int cut;         /* a limit left a ply's defences unlisted, or more than TS_MAX_VARIATIONS */
    int run;         /* listed: the answer is a mate with a main line (n may be 0: all forced) */
} TsVariations;

/* The variations of a's main line from start (nothing unless a is a mate with a
 * main line).  Each defence that counts under the futile rule (futile drops are no
 * defence) other than the main line's is solved on c (reset for it) with o's
 * limits, no flaw analysis; c must not be the context whose table a caller still
 * needs.  Returns 0, -1 when out of memory. */
int ts_variations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, TsVariations *out);
void ts_variations_free(TsVariations *vs);

#endif
