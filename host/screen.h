/* screen.h - host side of the screening engine: lenient SFEN -> ScBoard, the
 * points weights file, the CPU reference (one thread or OpenMP), random
 * tsume-like boards for tests and benchmarks, JSON output. */
#ifndef TSUMEGEN_HOST_SCREEN_H
#define TSUMEGEN_HOST_SCREEN_H
#include <stddef.h>
#include <stdio.h>
#include "../core/screen.h"
#include "../core/gen.h"

extern const char *const SC_REASON_NAME[SC_REASON_NB];

/* Syntax-only SFEN parse ("sfen " prefix and "startpos" allowed): the board may
 * break any rule, sc_setup judges it.  Returns 0, or -1 (malformed) with b
 * zeroed. */
int screen_parse_sfen(const char *text, ScBoard *b);

/* Weights: loads FILE (NULL or POINTS_BUILTIN_HAND = the built-in copy of
 * data/points_default.txt, POINTS_BUILTIN_LEARNED = of data/points_learned.txt)
 * into w[SC_W_NB].  Returns 0, or -1 with a message naming the line. */
#define POINTS_BUILTIN_HAND "builtin:hand"
#define POINTS_BUILTIN_LEARNED "builtin:learned"
int points_load(const char *path, int32_t *w, char *err, size_t errlen);
/* The lower end of the band a learned file suggests ("# suggested: --band T:",
 * written by `points learn`), in milli-points: 1 with *lo set, else 0. */
int points_suggested_band(const char *path, int32_t *lo);
int points_parse(const char *text, const char *name, int32_t *w, char *err, size_t errlen);

/* CPU reference over n boards: threads = 1 is one plain loop; 0 = OpenMP with
 * its default thread count, N = OpenMP with N threads. */
void screen_cpu(const ScBoard *in, ScResult *out, size_t n, const int32_t *w, int flags, int threads);

/* Deterministic random tsume-like boards (seeds/002 style: a defender king,
 * 1-8 other pieces mostly near it, 0-5 attacker pieces in hand; about 1 in 10
 * has White attacking; some break a rule on purpose or by chance). */
void screen_random_boards(ScBoard *b, size_t n, uint64_t seed);

/* A stream of generated candidates (core/gen.h): boards base .. base+n-1 of
 * stream seed, screened with flags, kept by sc_gen_keep(keep_mode, min_points). */
typedef struct {
    uint64_t seed, base;
    size_t n;
    int flags, keep_mode;
    int32_t min_points;
} ScGenJob;
typedef struct { uint64_t boards, legal, mate1, kept; } ScGenStats;

/* The CPU side of a generated stream (threads as screen_cpu).  digest (NULL: not
 * wanted) gets n sc_result_digest values; kept (NULL: not wanted) the first
 * max_kept kept indices in increasing order; st the counts (kept counts every
 * board that passed, also those beyond max_kept). */
void screen_gen_cpu(const ScGenJob *job, const int32_t *w, int threads, uint32_t *digest, uint64_t *kept,
                    size_t max_kept, ScGenStats *st);

/* Writes one JSON line.  When r->n_mate1 exceeds the stored slots the full list
 * is recomputed on the CPU with the same core functions. */
void screen_print_json(FILE *f, const ScBoard *b, const ScResult *r, int flags);

/* Every mating move of b (futile = 0), or every futile-only mate (futile = 1),
 * by the same core functions as sc_screen; returns the count. */
int screen_mate1_all(const ScBoard *b, int flags, int futile, Move *out, int max);

#endif
