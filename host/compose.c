/* compose.c - GA composition loop, archive, output, checkpoint and resume. */
#include "compose.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "ga.h"
#include "repair.h"
#include "kif.h"
#include "ocl.h"
#include "screen.h"
#include "sfen.h"
#include "util.h"

#define CHECKPOINT_VERSION 1

void compose_defaults(ComposeOptions *o) {
    memset(o, 0, sizeof *o);
    o->pop = 200;            /* seeds/000 Table 1 */
    o->gens = 50;
    o->ones = 10;            /* 1 bits at initialisation (§5.1) */
    o->tournament = 8;
    o->mutation = 0.001;
    o->archive_rate = 0.05;
    o->oversample = 4;
    o->seed = 1;
    o->node_limit = 200000;
    o->retry = 8;
    o->repair = 8;
    o->repair_tries = 8;
    o->repair_depth = 3;
    o->method = METHOD_GA_ARCHIVE;
    o->out_dir = "out";
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig) { (void)sig; interrupted = 1; }

int compose_fitness(const Verdict *v, const Verdict *initial) {
    if (v->result != VERDICT_MATE) return 0;
    if (initial && v->pv_len == initial->pv_len && !memcmp(v->pv, initial->pv, sizeof(Move) * (size_t)v->pv_len))
        return 0;  /* the initial problem again */
    return v->length;  /* perfect: its length; else the shortest mate's length */
}

int compose_sacrifices(const Position *start, const Move *pv, int n) {
    int count = 0;
    for (int i = 0; i + 1 < n; i += 2)  /* attacker plies; the reply lands on the same square */
        if (!move_is_drop(pv[i + 1]) && move_to(pv[i + 1]) == move_to(pv[i])) count++;
    (void)start;
    return count;
}

static void mirror(const Position *pos, Position *out) {
    pos_clear(out);
    for (int sq = 0; sq < SQ_NB; sq++)
        if (pos->board[sq]) pos_put(out, make_sq(8 - sq_file(sq), sq_rank(sq)), pos->board[sq]);
    memcpy(out->hand, pos->hand, sizeof out->hand);
    out->side = pos->side;
    pos_compute_keys(out, &out->board_key, &out->hand_key);
}

void compose_canonical(const Position *pos, char *buf, size_t len) {
    char a[SFEN_MAX], b[SFEN_MAX];
    Position m;
    mirror(pos, &m);
    sfen_format(pos, a, sizeof a);
    sfen_format(&m, b, sizeof b);
    snprintf(buf, len, "%s", strcmp(a, b) <= 0 ? a : b);
}

/* The strict SFEN parser is the one judge of legality (see compose.h). */
int compose_normalize(Position *pos) {
    char text[SFEN_MAX], err[ERR_MAX];
    sfen_format(pos, text, sizeof text);
    return sfen_parse(text, pos, 0, err, sizeof err);
}

/* ---- screening ---------------------------------------------------------- */

void compose_scboard(const Position *pos, ScBoard *b) {
    memset(b, 0, sizeof *b);
    memcpy(b->board, pos->board, sizeof b->board);
    for (int c = 0; c < 2; c++)
        for (int pt = PAWN; pt <= GOLD; pt++) b->hand[c][pt - 1] = pos->hand[c][pt];
    b->side = pos->side;
}

/* The tsume-points band of seeds/002 (its case 4, the best time per problem):
 * below 100 more boards end in no mate or a time-out, above 100 more in 駒余り. */
#define BAND_LO 100000  /* milli-points */
#define BAND_HI 115000

/* Rank of a legal child (higher is verified first):
 *   score = 2 [n_mate1 <= 1] + 1 / (1 + d / 10) + u / 1000
 * n_mate1: the plain-rule mates-in-1; two or more mean 余詰 at the first move, so
 *   such a board can only give a cooked 1-move mate, and it ranks below every board
 *   with 0 or 1;
 * d: how far the points lie outside the band [100, 115], in points (0 inside), so
 *   the band term is 1 inside and 0.5 at 10 points out;
 * u: uniform in [0, 1) from the child's own RNG stream, a small tie-break that
 *   keeps the order reproducible for a seed (the engine's results do not depend on
 *   the device or the thread count). */
double compose_screen_score(const ScResult *res, double u) {
    int32_t p = res->points;
    double d = p < BAND_LO ? (BAND_LO - p) / 1000.0 : p > BAND_HI ? (p - BAND_HI) / 1000.0 : 0.0;
    return (res->n_mate1 <= 1 ? 2.0 : 0.0) + 1.0 / (1.0 + d / 10.0) + u / 1000.0;
}

/* Cheap screen: legality, checks, mates-in-1 and points; mate3 and the futile-drop
 * mates are not worth their cost here, the verifier decides.  Strict hands: the
 * normalized position already gives the defender the rest of the pieces. */
#define COMPOSE_SCREEN_FLAGS SC_STRICT_HANDS

static int same_pv(const Verdict *a, const Verdict *b) {
    return a->pv_len == b->pv_len && !memcmp(a->pv, b->pv, sizeof(Move) * (size_t)a->pv_len);
}

void compose_remove_redundant(Position *pos, Verdict *v, VerifyFn verify, uint64_t node_limit) {
    Verdict *t = malloc(sizeof *t);
    if (!t) return;
    for (int sq = 0; sq < SQ_NB; sq++) {
        int pc = pos->board[sq];
        if (!pc || piece_type(pc) == KING) continue;
        Position p = *pos;
        pos_remove(&p, sq);
        if (compose_normalize(&p)) continue;  /* the piece goes to the defender's hand */
        if (verify(&p, node_limit, t) || t->result != VERDICT_MATE || !t->perfect || !same_pv(t, v)) continue;
        *pos = p;
        *v = *t;
    }
    free(t);
}

/* ---- run state ---------------------------------------------------------- */

typedef struct {
    Genome g;
    double fitness;
} Individual;

typedef struct {
    char **s;
    int n, cap;
} Keys;

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
    /* totals over the whole run (kept in the checkpoint across --resume) */
    double screened, verified, t_decode, t_screen, t_verify, seconds0, t_start;
} Run;

static int keys_has(const Keys *k, const char *key) {
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->s[i], key)) return 1;
    return 0;
}

static void keys_add(Keys *k, const char *key) {
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 64;
        k->s = realloc(k->s, sizeof(char *) * (size_t)k->cap);
    }
    k->s[k->n++] = strdup(key);
}

static void keys_free(Keys *k) {
    for (int i = 0; i < k->n; i++) free(k->s[i]);
    free(k->s);
}

static void archive_add(Run *r, const Genome *g) {
    if (r->archive_n == r->archive_cap) {
        r->archive_cap = r->archive_cap ? 2 * r->archive_cap : 64;
        r->archive = realloc(r->archive, sizeof(Genome) * (size_t)r->archive_cap);
    }
    r->archive[r->archive_n++] = *g;
}

/* Writes one perfect problem (already reduced) as a JSON line and a KIF file. */
static void write_problem(Run *r, const Position *pos, const Verdict *v) {
    char sfen[SFEN_MAX], path[4096], mv[8];
    sfen_format(pos, sfen, sizeof sfen);
    r->written++;
    fprintf(r->problems, "{\"sfen\":\"%s\",\"length\":%d,\"pv\":[", sfen, v->length);
    for (int i = 0; i < v->pv_len; i++) {
        move_format(v->pv[i], mv);
        fprintf(r->problems, "%s\"%s\"", i ? "," : "", mv);
    }
    fprintf(r->problems, "],\"generation\":%d,\"seed\":%llu,\"sacrifices\":%d,\"id\":%d}\n", r->generation,
            (unsigned long long)r->o->seed, compose_sacrifices(pos, v->pv, v->pv_len), r->written);
    fflush(r->problems);
    snprintf(path, sizeof path, "%s/%03d.kif", r->o->out_dir, r->written);
    FILE *f = fopen(path, "w");
    if (f) {
        char comment[128];
        snprintf(comment, sizeof comment, "tsumegen GA: %d手詰 generation %d seed %llu", v->length, r->generation,
                 (unsigned long long)r->o->seed);
        kif_write(f, pos, v->pv, v->pv_len, comment);
        fclose(f);
    }
}

/* ---- checkpoint --------------------------------------------------------- */

static int save_checkpoint(const Run *r) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/checkpoint.txt", r->o->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    fprintf(f, "tsumegen-ga-checkpoint %d\ninit %s\npop %d method %d\ngeneration %d\nrng %llx %llx %llx %llx\n",
            CHECKPOINT_VERSION, r->o->init_sfen, r->o->pop, r->o->method, r->generation,
            (unsigned long long)r->rng.s[0], (unsigned long long)r->rng.s[1], (unsigned long long)r->rng.s[2],
            (unsigned long long)r->rng.s[3]);
    fprintf(f, "longest %d written %d\n", r->longest, r->written);
    fprintf(f, "stats %.17g %.17g %.6f %.6f %.6f %.3f\n", r->screened, r->verified, r->t_decode, r->t_screen, r->t_verify,
            r->seconds0 + util_now() - r->t_start);
    for (int i = 0; i < r->o->pop; i++) {
        fprintf(f, "ind %.17g", r->pop[i].fitness);
        for (int w = 0; w < GA_WORDS; w++) fprintf(f, " %llx", (unsigned long long)r->pop[i].g.w[w]);
        fputc('\n', f);
    }
    for (int i = 0; i < r->archive_n; i++) {
        fputs("arc", f);
        for (int w = 0; w < GA_WORDS; w++) fprintf(f, " %llx", (unsigned long long)r->archive[i].w[w]);
        fputc('\n', f);
    }
    for (int i = 0; i < r->archived.n; i++) fprintf(f, "seen %s\n", r->archived.s[i]);
    for (int i = 0; i < r->written_keys.n; i++) fprintf(f, "wrote %s\n", r->written_keys.s[i]);
    for (int i = 0; i < r->undecided_keys.n; i++) fprintf(f, "undecided %s\n", r->undecided_keys.s[i]);
    int bad = ferror(f);
    if (fclose(f) || bad) return -1;
    return rename(tmp, path);  /* atomic: a crash leaves the previous checkpoint */
}

static int read_genome(char *p, Genome *g) {
    for (int w = 0; w < GA_WORDS; w++) {
        char *end;
        g->w[w] = strtoull(p, &end, 16);
        if (end == p) return -1;
        p = end;
    }
    return 0;
}

static int load_checkpoint(Run *r) {
    char path[4096], line[8192];
    snprintf(path, sizeof path, "%s/checkpoint.txt", r->o->out_dir);
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "tsumegen compose: --resume: cannot open %s: %s\n", path, strerror(errno)); return -1; }
    int version = 0, n_ind = 0, pop = 0, method = -1, ok = 1;
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        unsigned long long s[4];
        if (sscanf(line, "tsumegen-ga-checkpoint %d", &version) == 1) continue;
        if (!strncmp(line, "init ", 5)) { ok = !strcmp(line + 5, r->o->init_sfen); continue; }
        if (sscanf(line, "pop %d method %d", &pop, &method) == 2) { ok = pop == r->o->pop && method == r->o->method; continue; }
        if (sscanf(line, "generation %d", &r->generation) == 1) continue;
        if (sscanf(line, "rng %llx %llx %llx %llx", &s[0], &s[1], &s[2], &s[3]) == 4) {
            for (int i = 0; i < 4; i++) r->rng.s[i] = s[i];
            continue;
        }
        if (sscanf(line, "longest %d written %d", &r->longest, &r->written) == 2) continue;
        /* optional (older checkpoints lack it): the totals for summary.json */
        if (sscanf(line, "stats %lf %lf %lf %lf %lf %lf", &r->screened, &r->verified, &r->t_decode, &r->t_screen,
                   &r->t_verify, &r->seconds0) == 6)
            continue;
        if (!strncmp(line, "ind ", 4) && n_ind < r->o->pop) {
            char *end;
            r->pop[n_ind].fitness = strtod(line + 4, &end);
            ok = !read_genome(end, &r->pop[n_ind].g);
            n_ind++;
        } else if (!strncmp(line, "arc ", 4)) {
            Genome g;
            ok = !read_genome(line + 4, &g);
            if (ok) archive_add(r, &g);
        } else if (!strncmp(line, "seen ", 5)) {
            keys_add(&r->archived, line + 5);
        } else if (!strncmp(line, "wrote ", 6)) {
            keys_add(&r->written_keys, line + 6);
        } else if (!strncmp(line, "undecided ", 10)) {
            keys_add(&r->undecided_keys, line + 10);
        } else ok = 0;
    }
    fclose(f);
    if (!ok || version != CHECKPOINT_VERSION || n_ind != r->o->pop) {
        fprintf(stderr, "tsumegen compose: --resume: %s does not match this run (other --init/--pop/--method, or damaged)\n", path);
        return -1;
    }
    return 0;
}

/* ---- one generation ----------------------------------------------------- */

typedef struct {
    Genome g;
    Position pos;
    int decoded;  /* decoded and through the strict SFEN round trip */
    int legal;    /* and the engine says legal with a check to play */
    double u;     /* tie-break for the score */
    double score;
    double fitness;
    Verdict *v;
    uint64_t node_limit;  /* the budget that gave v (the retry budget after a second look) */
} Child;

static int pick_parent(Run *r) {
    /* -1 - i names archive entry i */
    if (r->o->method == METHOD_GA_ARCHIVE && r->archive_n && rng_unit(&r->rng) < r->o->archive_rate)
        return -1 - (int)rng_below(&r->rng, (uint32_t)r->archive_n);
    int best = (int)rng_below(&r->rng, (uint32_t)r->o->pop);  /* tournament selection */
    for (int i = 1; i < r->o->tournament; i++) {
        int c = (int)rng_below(&r->rng, (uint32_t)r->o->pop);
        if (r->pop[c].fitness > r->pop[best].fitness) best = c;
    }
    return best;
}

static const Genome *parent_genome(const Run *r, int idx) { return idx < 0 ? &r->archive[-1 - idx] : &r->pop[idx].g; }

/* Decoding, and legality by the strict SFEN round trip, so the composer keeps
 * exactly what `solve` accepts; screen_batch does the rest for the whole batch. */
static void decode_child(const Run *r, Child *c, uint64_t child_seed) {
    Rng cr;
    rng_seed(&cr, child_seed);
    c->legal = 0;
    c->score = 0;
    c->decoded = !genome_decode(&c->g, &r->initial, &cr, &c->pos) && !compose_normalize(&c->pos);
    c->u = rng_unit(&cr);
}

/* Screens the decoded children at once on the engine: the OpenCL device opened by
 * compose_run, else screen_cpu on the OpenMP threads.  Both give bit-identical
 * results, so the ranking does not depend on the device.  Illegal and checkless
 * boards get legal = 0 and never reach the solver.  Returns the number of boards
 * screened, or -1 when out of memory. */
static int screen_batch(Run *r, Child *ch, int n) {
    ScBoard *b = malloc(sizeof *b * (size_t)n);
    ScResult *res = malloc(sizeof *res * (size_t)n);
    int *idx = malloc(sizeof *idx * (size_t)n), m = 0;
    if (!b || !res || !idx) { free(b); free(res); free(idx); return -1; }
    for (int i = 0; i < n; i++)
        if (ch[i].decoded) { compose_scboard(&ch[i].pos, &b[m]); idx[m++] = i; }
    int done = 0;
    if (r->dev) {
        done = !ocl_screen_run(r->dev, b, res, (size_t)m, COMPOSE_SCREEN_FLAGS);
        if (!done) {  /* same results on the CPU: carry on there */
            fprintf(stderr, "tsumegen compose: %s: %s; using the OpenMP path from now on\n", ocl_screen_device(r->dev),
                    ocl_screen_error(r->dev));
            ocl_screen_close(r->dev);
            r->dev = NULL;
            snprintf(r->device, sizeof r->device, "OpenMP");
        }
    }
    if (!done) screen_cpu(b, res, (size_t)m, r->weights, COMPOSE_SCREEN_FLAGS, r->o->threads);
    for (int k = 0; k < m; k++) {
        Child *c = &ch[idx[k]];
        c->legal = res[k].reason == SC_OK && res[k].checks > 0;
        if (c->legal) c->score = compose_screen_score(&res[k], c->u);
    }
    free(b); free(res); free(idx);
    return m;
}

static int by_score_desc(const void *a, const void *b) {
    const Child *x = a, *y = b;
    if (x->legal != y->legal) return y->legal - x->legal;
    return (x->score < y->score) - (x->score > y->score);
}

/* A perfect child: archive it (once per board), then write its reduced form
 * unless that problem was written before. */
static void consider_perfect(Run *r, const Child *c) {
    char key[SFEN_MAX];
    compose_canonical(&c->pos, key, sizeof key);
    if (keys_has(&r->archived, key)) return;
    keys_add(&r->archived, key);
    archive_add(r, &c->g);
    Position p = c->pos;
    Verdict *v = malloc(sizeof *v);
    if (!v) return;
    *v = *c->v;
    compose_remove_redundant(&p, v, r->verify, c->node_limit);
    compose_canonical(&p, key, sizeof key);
    if (!keys_has(&r->written_keys, key)) {
        keys_add(&r->written_keys, key);
        write_problem(r, &p, v);
        if (v->length > r->longest) r->longest = v->length;
    }
    free(v);
}

/* An undecided mate (no flaw found, a limit stopped the exact length or a 余詰
 * test) may be a perfect problem that needs more nodes: kept once per board in
 * undecided.jsonl, for a longer verification later (`tsumegen solve`). */
static void write_undecided(Run *r, const Child *c) {
    char key[SFEN_MAX], sfen[SFEN_MAX];
    compose_canonical(&c->pos, key, sizeof key);
    if (keys_has(&r->undecided_keys, key)) return;
    keys_add(&r->undecided_keys, key);
    sfen_format(&c->pos, sfen, sizeof sfen);
    const Verdict *v = c->v;
    fprintf(r->undecided, "{\"sfen\":\"%s\",\"length_lb\":%d,\"length_ub\":%d,\"length_exact\":%s,"
                          "\"nodes\":%llu,\"generation\":%d,\"seed\":%llu}\n",
            sfen, v->length, v->length_ub, v->length_exact ? "true" : "false", (unsigned long long)c->node_limit,
            r->generation, (unsigned long long)r->o->seed);
    fflush(r->undecided);
}

/* Nodes a second look gets (0 in the options: 10 x the first budget). */
static uint64_t retry_budget(const ComposeOptions *o) {
    return o->retry_nodes ? o->retry_nodes : 10 * o->node_limit;
}

/* Second look: a mate that the node limit left undecided (exact length or a
 * 余詰 test unfinished, no flaw found) may well be perfect, and the longest such
 * mates are the ones the GA is after, so the o->retry longest get retry_nodes
 * each (default 10 x the limit).  Returns how many were re-verified, -1 when
 * interrupted. */
static int second_look(Run *r, Child *ch, int n_eval, int *rescued) {
    const ComposeOptions *o = r->o;
    uint64_t budget = retry_budget(o);
    if (o->retry <= 0 || budget <= o->node_limit) return 0;
    int *idx = malloc(sizeof(int) * (size_t)(n_eval > 0 ? n_eval : 1)), k = 0;
    if (!idx) return 0;
    for (int i = 0; i < n_eval; i++) {
        if (ch[i].v->result != VERDICT_MATE || !ch[i].v->undecided) continue;
        int j = k++;  /* insertion sort: longest first, then rank order (reproducible) */
        for (; j > 0 && ch[idx[j - 1]].v->length < ch[i].v->length; j--) idx[j] = idx[j - 1];
        idx[j] = i;
    }
    int n = k < o->retry ? k : o->retry, stopped = 0;
#pragma omp parallel for schedule(dynamic, 1)
    for (int j = 0; j < n; j++) {
        Child *c = &ch[idx[j]];
        Verdict *v = malloc(sizeof *v);
        if (interrupted || !v) { stopped = 1; free(v); continue; }
        if (!r->verify(&c->pos, budget, v)) {
            if (v->result == VERDICT_MATE && v->perfect) {
#pragma omp atomic
                (*rescued)++;
            }
            memcpy(c->v, v, sizeof *v);
            c->node_limit = budget;
            c->fitness = compose_fitness(c->v, &r->initial_verdict);
        }
        free(v);
    }
    free(idx);
    return stopped ? -1 : n;
}

/* Verifies children 0..n-1 on the threads with the first budget; returns 1 when
 * interrupted (or out of memory), 0 otherwise. */
static int verify_children(Run *r, Child *ch, int n) {
    int stopped = 0;
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < n; i++) {
        Child *c = &ch[i];
        if (interrupted || !(c->v = malloc(sizeof(Verdict)))) { stopped = 1; continue; }
        c->node_limit = r->o->node_limit;
        if (r->verify(&c->pos, c->node_limit, c->v)) c->v->result = VERDICT_UNKNOWN;
        c->fitness = compose_fitness(c->v, &r->initial_verdict);
    }
    return stopped;
}

/* What a verified child leaves behind: a perfect problem, or an undecided mate. */
static void record_child(Run *r, const Child *c) {
    if (c->v->result == VERDICT_MATE && c->v->perfect && c->fitness > 0) consider_perfect(r, c);
    else if (c->v->result == VERDICT_MATE && c->v->undecided) write_undecided(r, c);
}

/* Cook removal (repair.h), o->repair_depth rounds: the o->repair longest cooked
 * mates (each board once) get up to o->repair_tries proposals each, verified on
 * the threads like any child; the next round repairs the longest proposals that
 * are still cooked (often the cook has moved to an earlier ply).  Proposals are
 * made serially from the generation's seed, so a run stays reproducible.
 * Returns the number of children in *out (the caller frees them and their
 * verdicts), -1 when interrupted. */
static int repair_round(Run *r, const Child *ch, int n_eval, uint64_t seed, Child **out) {
    const ComposeOptions *o = r->o;
    *out = NULL;
    if (o->repair <= 0 || o->repair_tries <= 0 || o->repair_depth <= 0 || n_eval <= 0) return 0;
    size_t per_round = (size_t)o->repair * (size_t)o->repair_tries, cap = per_round * (size_t)o->repair_depth;
    int *idx = malloc(sizeof(int) * (n_eval > (int)per_round ? (size_t)n_eval : per_round));
    Child *rc = calloc(cap, sizeof *rc);
    RepairCandidate *cand = malloc(sizeof *cand * (size_t)o->repair_tries);
    uint64_t *done = malloc(sizeof(uint64_t) * (size_t)o->repair * (size_t)o->repair_depth);
    int m = 0, nd = 0, stopped = 0;
    Rng rr;
    rng_seed(&rr, seed ^ 0xC0C0FEEDull);
    const Child *src = ch;
    int nsrc = n_eval;
    for (int round = 0; round < o->repair_depth && idx && rc && cand && done && !stopped; round++) {
        int k = 0, first = m;
        for (int i = 0; i < nsrc; i++) {
            const Verdict *v = src[i].v;
            if (v->result != VERDICT_MATE || v->perfect || v->cook_ply < 0 || src[i].fitness <= 0) continue;
            int j = k++;  /* longest first, then rank order */
            for (; j > 0 && src[idx[j - 1]].v->length < v->length; j--) idx[j] = idx[j - 1];
            idx[j] = i;
        }
        for (int j = 0, used = 0; j < k && used < o->repair; j++) {
            const Child *c = &src[idx[j]];
            uint64_t key = pos_key(&c->pos);
            int seen = 0;
            for (int i = 0; i < nd; i++) seen |= done[i] == key;
            if (seen) continue;
            done[nd++] = key, used++;
            int got = repair_candidates(&r->initial, &c->pos, c->v->pv, c->v->pv_len, c->v->cook_ply, c->v->cook_move,
                                        o->ones, &rr, cand, o->repair_tries);
            for (int i = 0; i < got; i++, m++) {
                rc[m].g = cand[i].g;
                rc[m].pos = cand[i].pos;
                rc[m].decoded = rc[m].legal = 1;
            }
        }
        if (m == first) break;
        stopped = verify_children(r, rc + first, m - first);
        src = rc + first, nsrc = m - first;
    }
    free(idx); free(cand); free(done);
    if (stopped) {
        for (int i = 0; i < m; i++) free(rc[i].v);
        free(rc);
        return -1;
    }
    *out = rc;
    return m;
}

static int run_generation(Run *r) {
    const ComposeOptions *o = r->o;
    int n = o->pop * (o->oversample < 1 ? 1 : o->oversample);
    Child *ch = calloc((size_t)n, sizeof *ch);
    if (!ch) return -1;
    for (int i = 0; i < n; i += 2) {  /* genomes: serial, so the RNG stream is reproducible */
        if (r->generation == 0 || o->method == METHOD_RANDOM) {
            genome_random(&ch[i].g, o->ones, &r->rng);
            if (i + 1 < n) genome_random(&ch[i + 1].g, o->ones, &r->rng);
            continue;
        }
        Genome a = *parent_genome(r, pick_parent(r)), b = *parent_genome(r, pick_parent(r));
        genome_crossover(&a, &b, &r->rng);
        genome_mutate(&a, o->mutation, &r->rng);
        genome_mutate(&b, o->mutation, &r->rng);
        ch[i].g = a;
        if (i + 1 < n) ch[i + 1].g = b;
    }
    uint64_t gen_seed = o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)r->generation * 0xD1B54A32D192ED03ull;
    double t0 = util_now();
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < n; i++) decode_child(r, &ch[i], gen_seed + (uint64_t)i);
    double td = util_now();
    int m = screen_batch(r, ch, n);  /* boards given to the engine */
    if (m < 0) { free(ch); return -1; }
    double t1 = util_now();
    int n_legal = 0;
    for (int i = 0; i < n; i++) n_legal += ch[i].legal;
    qsort(ch, (size_t)n, sizeof *ch, by_score_desc);
    int n_eval = 0;
    for (int i = 0; i < o->pop; i++)
        if (ch[i].legal) n_eval++;
    int stopped = verify_children(r, ch, n_eval);
    double t_look0 = util_now();
    int n_rescued = 0, n_retry = stopped ? 0 : second_look(r, ch, n_eval, &n_rescued);
    if (n_retry < 0) stopped = 1;
    double t2 = util_now(), t_look = t2 - t_look0;
    Child *rep = NULL;
    int n_rep = stopped ? 0 : repair_round(r, ch, n_eval, gen_seed, &rep), n_rep_perfect = 0;
    if (n_rep < 0) stopped = 1, n_rep = 0;
    if (n_rep > 0 && second_look(r, rep, n_rep, &n_rescued) < 0) stopped = 1;  /* undecided proposals too */
    double t3 = util_now();
    int n_mate = 0, n_perfect = 0, n_nomate = 0, n_unknown = 0, n_undecided = 0;  /* for generations.jsonl */
    for (int i = 0; i < n_eval && !stopped; i++) {
        int res = ch[i].v->result;
        n_undecided += res == VERDICT_MATE && ch[i].v->undecided;
        n_mate += res == VERDICT_MATE;
        n_perfect += res == VERDICT_MATE && ch[i].v->perfect;
        n_nomate += res == VERDICT_NOMATE;
        n_unknown += res == VERDICT_UNKNOWN;  /* a node limit (or an error) stopped it */
    }
    int n_rep_undecided = 0;
    for (int i = 0; i < n_rep; i++) {
        n_rep_perfect += rep[i].v->result == VERDICT_MATE && rep[i].v->perfect;
        n_rep_undecided += rep[i].v->result == VERDICT_MATE && rep[i].v->undecided;
    }
    r->screened += n;
    r->verified += n_eval + n_rep;
    r->t_decode += td - t0;
    r->t_screen += t1 - td;
    r->t_verify += t3 - t1;
    if (!stopped) {
        for (int i = 0; i < n_eval; i++) record_child(r, &ch[i]);  /* serial, in rank order: reproducible */
        for (int i = 0; i < n_rep; i++) record_child(r, &rep[i]);
        for (int i = 0; i < o->pop; i++) {
            r->pop[i].g = ch[i].g;
            r->pop[i].fitness = i < n_eval ? ch[i].fitness : 0;
        }
        for (int j = 0; j < n_rep; j++) {  /* perfect repaired children take the places of the least fit */
            if (!rep[j].v->perfect) continue;  /* (the others would crowd out the population's variety) */
            int worst = 0;
            for (int i = 1; i < o->pop; i++)
                if (r->pop[i].fitness < r->pop[worst].fitness) worst = i;
            if (rep[j].fitness <= r->pop[worst].fitness) continue;
            r->pop[worst].g = rep[j].g;
            r->pop[worst].fitness = rep[j].fitness;
        }
    }
    for (int i = 0; i < n_eval; i++) free(ch[i].v);
    for (int i = 0; i < n_rep; i++) free(rep[i].v);
    free(rep);
    free(ch);
    if (stopped) return 1;
    double best = 0, sum = 0;
    for (int i = 0; i < o->pop; i++) {
        sum += r->pop[i].fitness;
        if (r->pop[i].fitness > best) best = r->pop[i].fitness;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/generations.jsonl", o->out_dir);
    FILE *f = fopen(path, "a");
    /* boards_per_s: the engine alone (decoding and the SFEN round trip are decode_s) */
    double bps = (t1 > td) ? m / (t1 - td) : 0, vps = (t2 > t1) ? n_eval / (t2 - t1) : 0;
    if (f) {
        fprintf(f, "{\"generation\":%d,\"best\":%g,\"mean\":%.3f,\"archive\":%d,\"problems\":%d,\"longest\":%d,"
                   "\"screened\":%d,\"legal\":%d,\"verified\":%d,\"mate\":%d,\"perfect\":%d,\"nomate\":%d,\"unknown\":%d,"
                   "\"undecided\":%d,\"retried\":%d,\"rescued\":%d,\"retry_s\":%.3f,"
                   "\"repaired\":%d,\"repair_perfect\":%d,\"repair_undecided\":%d,\"repair_s\":%.3f,"
                   "\"boards_per_s\":%.0f,\"verifications_per_s\":%.1f,"
                   "\"decode_s\":%.4f,\"screen_s\":%.4f,\"verify_s\":%.3f}\n",
                r->generation, best, sum / o->pop, r->archive_n, r->written, r->longest, n, n_legal, n_eval, n_mate, n_perfect,
                n_nomate, n_unknown, n_undecided, n_retry, n_rescued,
                t_look, n_rep, n_rep_perfect, n_rep_undecided, t3 - t2, bps, vps,
                td - t0, t1 - td, t2 - t1);
        fclose(f);
    }
    if (!o->quiet)
        fprintf(stderr, "gen %3d  best %3g  mean %6.2f  archive %4d  problems %4d  longest %3d  screen %8.0f/s  verify %7.1f/s\n",
                r->generation, best, sum / o->pop, r->archive_n, r->written, r->longest, bps, vps);
    return 0;
}

static void free_run(Run *r) {
    keys_free(&r->archived);
    keys_free(&r->written_keys);
    keys_free(&r->undecided_keys);
    free(r->archive);
    free(r->pop);
    free(r->weights);
    ocl_screen_close(r->dev);
}

/* The run's summary: printed at the end and written to OUT/summary.json.  Counts
 * and seconds cover the whole run, earlier sessions of a --resume included. */
static void print_summary(FILE *f, const Run *r, double seconds) {
    static const char *const METHOD[] = {"ga-archive", "ga", "random"};
    const ComposeOptions *o = r->o;
    double best = 0, sum = 0;
    for (int i = 0; i < o->pop; i++) {
        sum += r->pop[i].fitness;
        if (r->pop[i].fitness > best) best = r->pop[i].fitness;
    }
    fprintf(f, "{\"generations\":%d,\"problems\":%d,\"archive\":%d,\"longest\":%d,\"best_fitness\":%g,"
               "\"mean_fitness\":%.3f,\"seconds\":%.1f,\"interrupted\":%s,\"out\":",
            r->generation, r->written, r->archive_n, r->longest, best, sum / o->pop, seconds,
            interrupted ? "true" : "false");
    util_json_str(f, o->out_dir);
    fprintf(f, ",\"seed\":%llu,\"pop\":%d,\"gens\":%d,\"method\":\"%s\",\"nodes\":%llu,\"retry\":%d,"
               "\"retry_nodes\":%llu,\"repair\":%d,\"repair_tries\":%d,\"repair_depth\":%d,\"device\":",
            (unsigned long long)o->seed, o->pop, o->gens, METHOD[o->method], (unsigned long long)o->node_limit, o->retry,
            (unsigned long long)retry_budget(o), o->repair, o->repair_tries, o->repair_depth);
    util_json_str(f, r->device);
    fprintf(f, ",\"screened\":%.0f,\"verified\":%.0f,\"decode_s\":%.3f,\"screen_s\":%.3f,\"verify_s\":%.3f}\n",
            r->screened, r->verified, r->t_decode, r->t_screen, r->t_verify);
}

static int write_summary(const Run *r, double seconds) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/summary.json", r->o->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    print_summary(f, r, seconds);
    int bad = ferror(f);
    if (fclose(f) || bad) return -1;
    return rename(tmp, path);
}

int compose_run(const ComposeOptions *o, VerifyFn verify) {
    Run r;
    char err[ERR_MAX + 300], path[4096];
    memset(&r, 0, sizeof r);
    r.o = o;
    r.verify = verify;
    r.t_start = util_now();
    if (sfen_parse(o->init_sfen, &r.initial, 0, err, sizeof err)) {
        fprintf(stderr, "tsumegen compose: --init: %s\n", err);
        return 2;
    }
    r.weights = malloc(SC_W_NB * sizeof *r.weights);
    if (!r.weights) return 2;
    if (points_load(o->points_file, r.weights, err, sizeof err)) {
        fprintf(stderr, "tsumegen compose: --points: %s\n", err);
        return free_run(&r), 2;
    }
    if (verify(&r.initial, o->node_limit, &r.initial_verdict) || r.initial_verdict.result != VERDICT_MATE) {
        fprintf(stderr, "tsumegen compose: --init: the initial problem is not a proven mate\n");
        return free_run(&r), 2;
    }
#ifdef _OPENMP
    if (o->threads > 0) omp_set_num_threads(o->threads);
#endif
    /* the screening device, once per run: building the program and its self-test
     * cost more than a generation's batch; a bad --device fails before anything
     * is written */
    if (o->cl_threads) ocl_set_cl_threads(o->cl_threads);
    int n = o->pop * (o->oversample < 1 ? 1 : o->oversample), fatal;
    r.dev = ocl_screen_open_cmd("compose", o->device, r.weights, n < 65536 ? (size_t)n : 65536, o->threads,
                                o->quiet ? 0 : OCL_SAY_FALLBACK | OCL_SAY_DEVICE | OCL_SAY_OMP, &fatal);
    if (fatal) return free_run(&r), 2;
    snprintf(r.device, sizeof r.device, "%s", r.dev ? ocl_screen_device(r.dev) : "OpenMP");
    if (mkdir(o->out_dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "tsumegen compose: cannot create %s: %s\n", o->out_dir, strerror(errno));
        return free_run(&r), 2;
    }
    r.pop = calloc((size_t)o->pop, sizeof *r.pop);
    if (!r.pop) return free_run(&r), 2;
    rng_seed(&r.rng, o->seed);
    if (o->resume && load_checkpoint(&r)) return free_run(&r), 2;
    snprintf(path, sizeof path, "%s/problems.jsonl", o->out_dir);
    struct stat st;
    if (!o->resume && stat(path, &st) == 0 && st.st_size > 0) {  /* never overwrite results */
        fprintf(stderr, "tsumegen compose: %s already holds problems: continue it with --resume or choose another --out\n", path);
        return free_run(&r), 2;
    }
    r.problems = fopen(path, o->resume ? "a" : "w");
    if (!r.problems) {
        fprintf(stderr, "tsumegen compose: cannot write %s: %s\n", path, strerror(errno));
        return free_run(&r), 2;
    }
    snprintf(path, sizeof path, "%s/undecided.jsonl", o->out_dir);
    r.undecided = fopen(path, o->resume ? "a" : "w");
    if (!r.undecided) {
        fprintf(stderr, "tsumegen compose: cannot write %s: %s\n", path, strerror(errno));
        fclose(r.problems);
        return free_run(&r), 2;
    }
    if (!o->resume) {
        snprintf(path, sizeof path, "%s/generations.jsonl", o->out_dir);
        remove(path);
    }
    void (*old)(int) = signal(SIGINT, on_sigint);
    while (r.generation < o->gens && !interrupted) {
        int rc = run_generation(&r);
        if (rc) break;  /* interrupted inside: the last checkpoint stands */
        r.generation++;
        if (save_checkpoint(&r)) fprintf(stderr, "tsumegen compose: warning: cannot write the checkpoint\n");
    }
    signal(SIGINT, old);
    double seconds = r.seconds0 + util_now() - r.t_start;  /* once: the file and stdout agree */
    print_summary(stdout, &r, seconds);
    fflush(stdout);
    if (write_summary(&r, seconds)) fprintf(stderr, "tsumegen compose: warning: cannot write %s/summary.json\n", o->out_dir);
    if (interrupted) fprintf(stderr, "tsumegen compose: interrupted; continue with --resume\n");
    fclose(r.problems);
    fclose(r.undecided);
    free_run(&r);
    return 0;
}
