/* compose_run.h - the GA composer's run state, shared by compose.c (the
 * generation loop and its operators), compose_batch.c (a batch's verification,
 * second look and recording) and compose_io.c (what the run writes and reads
 * back: problems, undecided mates, checkpoint, summary).  Private to the
 * composer; the public API is compose.h. */
#ifndef TSUMEGEN_COMPOSE_RUN_H
#define TSUMEGEN_COMPOSE_RUN_H
#include <signal.h>
#include <stdio.h>
#include "compose.h"
#include "extend.h"
#include "keyset.h"
#include "ga.h"
#include "ocl.h"
#include "vcache.h"

typedef struct {
    Genome g;
    double fitness;
} Individual;


typedef struct {
    const ComposeOptions *o;
    VerifyFn verify;
    Position initial;
    Verdict initial_verdict;
    Individual *pop;
    Genome *archive;
    int archive_n, archive_cap;
    Keys archived, written_keys;  /* canonical SFENs: boards archived, problems written */
    Keys undecided_keys;          /* ... and undecided mates written to undecided.jsonl */
    int generation, longest, written;
    Rng rng;
    FILE *problems, *undecided;
    int32_t *weights;  /* points weights for the screen */
    OclScreen *dev;    /* the OpenCL screening device; NULL: screen_cpu on OpenMP threads */
    char device[300];  /* what screens, for summary.json */
    VCache *vc;        /* every verdict of the run (vcache.h), kept in OUT/verdicts.bin */
    FILE *vcf;
    int gen_cached;    /* verifications this generation answered from the cache */
    ExtendPool pool;   /* perfect problems to extend backwards (extend.h) */
    /* totals over the whole run (kept in the checkpoint across --resume) */
    double screened, verified, t_decode, t_screen, t_verify, seconds0, t_start;
    /* the proof check before writing (o->proof): problems checked, failed, undecided, seconds */
    int proof_checked, proof_failed, proof_undecided;
    double t_proof;
} Run;

enum { ORIGIN_GA = 0, ORIGIN_REPAIR = 1, ORIGIN_EXTEND = 2 };  /* how a board was made */

/* One offspring (or repair proposal, or extension candidate) of a generation. */
typedef struct {
    Genome g;
    Position pos;
    int decoded;  /* decoded and through the strict SFEN round trip */
    int legal;    /* and the engine says legal with a check to play */
    int origin;   /* ORIGIN_*: how the board was made */
    int pool_parent;  /* ORIGIN_EXTEND: the pool entry extended (-1: an input of compose extend) */
    double u;     /* tie-break for the score */
    double score;
    double fitness;
    Verdict *v;
    uint64_t node_limit;  /* the budget that gave v (the retry budget after a second look) */
} Child;

void archive_add(Run *r, const Genome *g);
/* `"NAME":["7g7f",...],` : a verdict's line (pv) as a JSON field. */
void write_pv(FILE *f, const char *name, const Verdict *v);
/* OUT_DIR/NNN.kif (NNN = id): a written problem for people; skipped when the file
 * cannot be made (its JSON line holds the problem). */
void write_problem_kif(const char *out_dir, int id, const Position *pos, const Verdict *v, const char *comment);
/* One perfect problem (already reduced): a JSON line in problems.jsonl and a KIF file. */
void write_problem(Run *r, const Position *pos, const Verdict *v, int origin);
/* An undecided mate, once per board, in undecided.jsonl. */
void write_undecided(Run *r, const Child *c);
/* A perfect verdict held back by the proof check ("failed" or "undecided"), in undecided.jsonl. */
void write_unproved(Run *r, const Position *pos, const Verdict *v, const char *check, const char *msg);
/* Nodes a second look gets (0 in the options: 10 x the first budget). */
uint64_t retry_budget(const ComposeOptions *o);
/* OUT/checkpoint.txt, written atomically after every generation; 0 or -1. */
int save_checkpoint(const Run *r);
/* Reads it back for --resume (prints why not and returns -1). */
int load_checkpoint(Run *r);
/* The run's summary as a JSON line (stdout) and OUT/summary.json. */
void print_summary(FILE *f, const Run *r, double seconds, int interrupted);
int write_summary(const Run *r, double seconds, int interrupted);

/* ---- one batch through the verifier (compose_batch.c) ---- */
/* Set by Ctrl-C: the batch loops start no more searches, the run keeps what it
 * has and exits 130.  compose_cut: a second Ctrl-C cut the searches in flight
 * short (df_interrupt); a verdict returned after it is thrown away. */
extern volatile sig_atomic_t compose_interrupted, compose_cut;
/* Children 0..n-1 verified on the threads with the first budget, the run's verdict
 * cache first; 1 when interrupted (or out of memory), else 0. */
int verify_children(Run *r, Child *ch, int n);
/* The o->retry longest undecided mates verified again with budget: how many, -1
 * when interrupted; second_look is look_again at retry_budget. */
int look_again(Run *r, Child *ch, int n_eval, int *rescued, uint64_t budget);
int second_look(Run *r, Child *ch, int n_eval, int *rescued);
/* The perfect boards of three batches (a, b, c), new to the run, reduced and
 * written in batch order; 1 when out of memory, 2 when interrupted (nothing
 * written either way), else 0. */
int record_batch(Run *r, const Child *a, int na, const Child *b, int nb, const Child *c, int nc);

#endif
