/* solve_jobs.h - the jobs of `tsumegen solve` (one input line each) and their run,
 * shared with `tsumegen bench solve` (bench_solve.c). */
#ifndef TSUMEGEN_SOLVE_JOBS_H
#define TSUMEGEN_SOLVE_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include "cli.h"
#include "tsume.h"
#include "refutations.h"
#include "variations.h"

typedef struct {
    char *text;           /* the input line (SFEN part) */
    char *moves;          /* recorded moves, or NULL */
    Position pos;
    char err[ERR_MAX];
    int ok;
    Move rec[TS_MAX_PV];
    int nrec;
    TsAnswer ans;
    TsVariations vars;    /* --variations: the main line's side lines */
    TsRefutations refs;   /* --refutations: the attacker's other checks, refuted */
    char *json;
    int done;
    int interrupted;      /* Ctrl-C came before its search ended (or began) */
    int searched;         /* ts_solve ran on it */
    char *given_err;      /* known bad before parsing (a KIF game that could not be read) */
} Job;

typedef struct {
    size_t hash_mb;
    size_t hash_max;  /* --hash-max: a lone problem's table grows up to this (when not given: half the memory) */
    int hash_given, hash_max_given;
    uint64_t nodes;
    uint64_t variation_nodes;  /* --variation-nodes (0: --nodes, or 10 M) */
    uint64_t refutation_nodes; /* --refutation-nodes (0: --nodes, or 1 M) */
    double time_s;
    int threads, verify, flaws, apply_moves, strict, yozume_extra, yozume_confirm, tied_all, length_search,
        max_length, trace, variations, refutations;
    int variation_depth;  /* --variation-depth (with --variations: 1 unless given) */
    const char *kif_dir;
    const char *out_path;  /* --out FILE: answers there, resumed when it holds some */
    const char *table_path;  /* --table FILE: a lone problem's table, read first and written after */
    double table_every;      /* --table-every S: also written this often during the search (0: never) */
    int progress;  /* stderr is a terminal: problems done, or a lone problem's nodes and seconds */
} SolveOpts;

/* The input line read: position, recorded moves (applied with --moves), or j->err. */
void job_prepare(Job *j, const SolveOpts *o);
/* Solves every job; JSON lines to out in input order (out may be NULL); -1 when the
 * tables could not be allocated (said on stderr). */
int jobs_run(Job *jobs, int n, const SolveOpts *o, FILE *out, int base);
/* One more job from an input line (SFEN [moves ...]); -1 when out of memory. */
int job_add(Job **jobs, int *n, int *cap, const char *line);
void jobs_free(Job *jobs, int n);
/* After j's verdict, on c that solved it (or vc, when given: a table of their own):
 * its refutations (--refutations), variations (--variations) or henka_chou note
 * alone; show: a progress line on stderr (solve_side.c). */
void solve_side_lines(DfCtx *c, DfCtx *vc, Job *j, const TsOptions *to, const SolveOpts *o, int idx, int show);
/* j's answer as its JSON line in j->json (NULL when out of memory; solve_json.c). */
void solve_render(Job *j);
/* An answer's opening, `{"sfen":"..."`, as solve_render writes it. */
void solve_write_sfen_field(FILE *f, const Job *j);
/* --kif: job idx's mate as DIR/NNNN.kif (idx + 1), when it has a line (solve_kif.c). */
void solve_write_kif(const Job *j, int idx, const SolveOpts *o);

#endif
