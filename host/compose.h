/* compose.h - the GA composer pipeline (seeds/000): decode offspring, screen
 * them, verify the best exactly, keep an archive of perfect problems, write
 * every perfect problem found (redundant pieces removed, mirror-deduplicated). */
#ifndef TSUMEGEN_COMPOSE_H
#define TSUMEGEN_COMPOSE_H
#include <stddef.h>
#include <stdint.h>
#include "../core/position.h"
#include "../core/screen.h"

#define VERDICT_PV_MAX 1024

enum { VERDICT_NOMATE = 0, VERDICT_MATE = 1, VERDICT_UNKNOWN = 2 };

/* What the composer needs from the exact verifier. */
typedef struct {
    int result;        /* VERDICT_* */
    int length;        /* plies of the main line when mate (a proven lower bound when undecided) */
    int perfect;       /* mate, no 余詰, no 駒余り */
    int undecided;     /* mate, no flaw found, but a limit stopped a test: perhaps perfect */
    int length_exact;  /* the length is proved (else length..length_ub brackets it) */
    int length_ub;     /* length of the mate found (an upper bound) */
    int cook_ply;      /* a 余詰 found: main-line moves played before the alternative (-1: none) */
    Move cook_move;    /* ... and the alternative attacker move */
    /* length_exact: the main line (when the search got that far); else the mate
     * found, as solve's "mate_line" (not a proof of its length: it can be shorter
     * than length_ub), or none */
    int pv_len;
    Move pv[VERDICT_PV_MAX];
    uint64_t nodes;
} Verdict;

/* Exact verification of one position within node_limit (0 = the verifier's default). */
typedef int (*VerifyFn)(const Position *pos, uint64_t node_limit, Verdict *out);
/* An independent check of a perfect verdict before its problem is written:
 * 1 passed, 0 failed, 2 undecided; msg says why not. */
typedef int (*ProofFn)(const Position *pos, const Verdict *v, char *msg, size_t len);

/* METHOD_EXTEND: no GA; each generation is one round of backward extension on a
 * pool seeded from the perfect problems of o->from (`tsumegen compose extend`). */
enum { METHOD_GA_ARCHIVE = 0, METHOD_GA = 1, METHOD_RANDOM = 2, METHOD_EXTEND = 3 };

typedef struct {
    const char *init_sfen;
    int pop, gens, ones, tournament, oversample, threads, method, resume, quiet;
    int no_kif;  /* problems.jsonl only, no DIR/NNN.kif */
    double mutation, archive_rate;
    uint64_t seed, node_limit;
    /* second look: the `retry` longest undecided mates of a generation are verified
     * again with retry_nodes (0: 10 x node_limit) */
    int retry;
    uint64_t retry_nodes;
    /* cook removal (repair.h): the `repair` longest cooked mates of a generation get
     * up to repair_tries proposals each, verified like any child; repair_depth
     * rounds (the next round repairs the proposals still cooked) */
    int repair, repair_tries, repair_depth;
    /* backward extension (extend.h): each generation the `extend` longest perfect
     * problems not yet extended get up to extend_tries candidates each */
    int extend, extend_tries;
    /* --time: no new generation once the run (its resumed parts included) has taken
     * this many seconds (one at least per command); 0: none.  Not a run option: a
     * resume may give another. */
    double seconds;
    const char *out_dir;
    const char *from;  /* METHOD_EXTEND: problems to extend (JSON lines with "sfen", or SFEN lines) */
    /* screening engine: device spec as `tsumegen screen --device` (NULL: $TSUMEGEN_DEVICE
     * or auto), points weights file (NULL: built in), pocl threads (0: pocl's default) */
    const char *device, *points_file;
    int cl_threads;
    /* run on every problem before it is written (NULL: none); a problem the check
     * fails or leaves undecided is not written (stderr and summary.json say so) */
    ProofFn proof;
} ComposeOptions;

void compose_defaults(ComposeOptions *o);
/* --resume: the run's own options from out_dir's checkpoint as the words of a
 * command line ("--init", SFEN, "--pop", "200", ...; *n words), for the caller to
 * parse like typed ones, so that a damaged value meets the same checks.  --pop and
 * --method only for a GA run; a built-in --points not at all.  NULL when the
 * checkpoint cannot be read (load_checkpoint says why); free with compose_free_words. */
char **compose_saved_words(const char *out_dir, int *n);
void compose_free_words(char **words, int n);
/* Runs the whole composition; returns 0, 130 after Ctrl-C (every result kept, the
 * checkpoint at the last whole generation), or 2 after printing a message. */
int compose_run(const ComposeOptions *o, VerifyFn verify);

/* Helpers exposed for tests. */
/* The screening engine's input for a position (board, both hands, side to move). */
void compose_scboard(const Position *pos, ScBoard *b);
/* Rank of a legal child for verification (see compose.c); u in [0, 1). */
double compose_screen_score(const ScResult *res, double u);
int compose_fitness(const Verdict *v, const Verdict *initial);
int compose_sacrifices(const Position *pos, const Move *pv, int n);
/* Canonical text of a problem: the smaller SFEN of it and its left-right mirror. */
void compose_canonical(const Position *pos, char *buf, size_t len);
/* Applies the hand convention and every legality rule by a round trip through
 * the strict SFEN parser, so the composer accepts exactly what `solve` would.
 * Returns 0, or -1 for an illegal board. */
int compose_normalize(Position *pos);
/* Greedy removal of redundant board pieces (seeds/000 §5.4): a piece goes when the
 * verdict stays perfect with the same main line; undecided means "needed". */
void compose_remove_redundant(Position *pos, Verdict *v, VerifyFn verify, uint64_t node_limit);

#endif
