/* compose_random.h - `tsumegen compose random`: seeds/002's random composition.
 * Candidate boards come from the generated stream of core/gen.h (the same boards
 * on every device), the screen keeps the legal ones with a check whose tsume
 * points fall in a band, and the exact verifier judges them; each verdict is
 * logged (OUT/verdicts.tsv) so that `tsumegen points learn` can fit a filter.
 * `tsumegen compose reverse` runs the same loop on seeds/004's candidates
 * instead (reverse.h): the one-move problems undone from random games' mates. */
#ifndef TSUMEGEN_COMPOSE_RANDOM_H
#define TSUMEGEN_COMPOSE_RANDOM_H
#include <stdint.h>
#include "compose.h"

/* An open end of the points band. */
#define BAND_OPEN_LO INT32_MIN
#define BAND_OPEN_HI INT32_MAX

typedef struct {
    uint64_t seed, start, boards, node_limit;
    double seconds;            /* stop after this much run time (0: no limit) */
    int32_t band_lo, band_hi;  /* milli-points, both ends kept */
    int min_length;            /* shorter mates are not problems (seeds/002: 5 plies) */
    int threads, cl_threads, quiet, resume;
    int no_kif;                /* problems.jsonl only, no DIR/NNN.kif */
    int reverse;               /* compose reverse: `boards` counts games, no screen */
    const char *device, *points_file, *out_dir;
    ProofFn proof;             /* run on each problem before it is written (NULL: none) */
} RandomOptions;

/* The verdict classes of verdicts.tsv, in the order of the summary. */
/* RC_ALT: perfect under TSUME_RULES.md, but a one-move problem whose mate can be
 * given by another move too (最終手余詰 is allowed on a last move; on the only one
 * it leaves the problem with two answers: seeds/004's flaw). */
enum { RC_NOMATE, RC_UNKNOWN, RC_SHORT, RC_LEFTOVER, RC_COOKED, RC_UNDECIDED, RC_ALT, RC_PERFECT, RC_NB };
extern const char *const RANDOM_CLASS_NAME[RC_NB];
/* A class counted as "good" by seeds/002's measure: a mate of at least the minimum
 * length without pieces left over (cooked, undecided or perfect). */
#define RC_IS_GOOD(c) ((c) >= RC_COOKED)
/* The RC_* class of that name, or -1. */
int random_class_named(const char *name);
/* The class of position pos's verdict v ("short": a mate under min_length plies). */
int random_class(const Position *pos, const Verdict *v, int min_length);
/* The distinct mates in one of pos (a promotion and a non-promotion of the same
 * move count once). */
int distinct_mates_in_one(const Position *pos);

void random_defaults(RandomOptions *o);
/* compose reverse's defaults (out/reverse, one-move problems). */
void reverse_defaults(RandomOptions *o);
/* Runs the composition; 0, 130 after Ctrl-C (results kept, resumable), or 2 after
 * a message. */
int compose_random_run(const RandomOptions *o, VerifyFn verify);

#endif
