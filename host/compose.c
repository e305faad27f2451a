/* compose.c - the GA composition loop and its operators (cook removal, backward
 * extension); a batch's verification, second look and recording are in
 * compose_batch.c, what the run writes in compose_io.c. */
#include "compose_run.h"
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "dfpn.h"
#include "proofcheck.h"
#include "repair.h"
#include "screen.h"
#include "sfen.h"
#include "util.h"

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
    o->extend = 3;
    o->extend_tries = 48;
    o->method = METHOD_GA_ARCHIVE;
    o->out_dir = "out";
}

volatile sig_atomic_t compose_interrupted, compose_cut;
/* Ctrl-C: the run stops after the searches under way, keeping what they find (a
 * third look or a round's reductions can take a minute); a second Ctrl-C cuts
 * them short too (df_interrupt), what they were doing is thrown away and done
 * again by --resume, and a third ends the process.  The flags are set before the
 * searches learn of it, so a search that returns after compose_cut is set may
 * have been cut short. */
static void on_sigint(int sig) {
    (void)sig;
    if (!compose_interrupted) {
        static const char msg[] = "\ntsumegen compose: stopping after the searches under way (Ctrl-C again: at once)\n";
        compose_interrupted = 1;
        ssize_t said = write(STDERR_FILENO, msg, sizeof msg - 1);  /* (async-signal-safe, unlike stdio) */
        (void)said;
        return;
    }
    compose_cut = 1;
    df_interrupt();
    signal(SIGINT, SIG_DFL);
}

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
        /* needed when the main line no longer plays without it (the proof checker's
         * replay): no verdict on p can have that line, so the verifier is not asked
         * (a line not kept whole is left to the verifier) */
        if (v->pv_len == v->length && pc_replay_line(&p, v->pv, v->pv_len, NULL)) continue;
        if (verify(&p, node_limit, t) || t->result != VERDICT_MATE || !t->perfect || !same_pv(t, v)) continue;
        *pos = p;
        *v = *t;
    }
    free(t);
}

/* ---- one generation ----------------------------------------------------- */


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
                rc[m].origin = ORIGIN_REPAIR;
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

/* Backward extension (extend.h): the o->extend longest perfect problems not yet
 * extended get up to o->extend_tries candidates each, one check and one reply
 * before them, verified like any child (the cache, then the second look for
 * the undecided); the perfect ones are written and join the pool, so a chain
 * L -> L+2 -> L+4 grows over the generations.  They do not join the population:
 * no genome writes a moved king or a piece taken off the initial problem.  Returns the candidates in *out as repair_round
 * does, -1 when interrupted. */
static int extend_round(Run *r, uint64_t seed, Child **out) {
    const ComposeOptions *o = r->o;
    *out = NULL;
    if (o->extend <= 0 || o->extend_tries <= 0) return 0;
    enum { EXTEND_MAX = 4096 };
    ExtendCandidate *cand = malloc(sizeof *cand * EXTEND_MAX);
    int record = extend_pool_next(&r->pool, 1), cap = o->extend * o->extend_tries;
    record = record >= 0 && r->pool.length[record] >= r->longest;  /* the run's longest is next */
    if (record) cap += 3 * o->extend_tries;
    Child *ec = calloc((size_t)cap, sizeof *ec);
    if (!cand || !ec) { free(cand); free(ec); return 0; }
    Rng rng;
    rng_seed(&rng, seed ^ 0xE87E4D5EEDull);
    int m = 0;
    for (int j = 0; j < o->extend; j++) {
        int i = extend_pool_next(&r->pool, 1);
        if (i < 0) break;
        extend_pool_take(&r->pool, i);
        Position base;
        char err[ERR_MAX];
        if (sfen_parse(r->pool.sfen.s[i], &base, 0, err, sizeof err)) continue;
        int got = extend_candidates(&base, &rng, cand, EXTEND_MAX);
        /* the run's longest problem gets 4x the candidates (all of them, mostly): it is
         * the one that can set a record */
        int tries = record && j == 0 ? 4 * o->extend_tries : o->extend_tries;
        for (int k = 0; k < got && k < tries; k++, m++) {
            ec[m].pos = cand[k].pos;
            ec[m].decoded = ec[m].legal = 1;
            ec[m].origin = ORIGIN_EXTEND;
            ec[m].pool_parent = i;
        }
    }
    free(cand);
    int rescued = 0;
    /* extension candidates are few and each may be the next record: the undecided
     * ones get a third look at 4x the second look's budget */
    if (verify_children(r, ec, m) || second_look(r, ec, m, &rescued) < 0 ||
        look_again(r, ec, m, &rescued, 4 * retry_budget(o)) < 0) {
        for (int i = 0; i < m; i++) free(ec[i].v);
        free(ec);
        return -1;
    }
    *out = ec;
    return m;
}

static uint64_t generation_seed(const Run *r) {
    return r->o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)r->generation * 0xD1B54A32D192ED03ull;
}

/* Appends one line to OUT/generations.jsonl (fmt: the fields after "generation"). */
static void log_generation(const Run *r, const char *fmt, ...) {
    char path[4096];
    snprintf(path, sizeof path, "%s/generations.jsonl", r->o->out_dir);
    FILE *f = fopen(path, "a");
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(f, "{\"generation\":%d,", r->generation);
    vfprintf(f, fmt, ap);
    fputs("}\n", f);
    va_end(ap);
    fclose(f);
}

/* `compose extend`: one round of backward extension, no GA. */
static int extend_generation(Run *r) {
    r->gen_cached = 0;
    double t0 = util_now();
    Child *ext = NULL;
    int n_ext = extend_round(r, generation_seed(r), &ext), n_perfect = 0, n_undecided = 0;
    if (n_ext < 0) return 1;
    for (int i = 0; i < n_ext; i++) {
        n_perfect += ext[i].v->result == VERDICT_MATE && ext[i].v->perfect;
        n_undecided += ext[i].v->result == VERDICT_MATE && ext[i].v->undecided;
    }
    int stopped = record_batch(r, ext, n_ext, NULL, 0, NULL, 0);  /* (out of memory, or Ctrl-C) */
    for (int i = 0; i < n_ext; i++) free(ext[i].v);
    free(ext);
    if (stopped) return 1;
    if (vcache_append(r->vc, r->vcf)) fprintf(stderr, "tsumegen compose: warning: cannot write %s/verdicts.bin\n", r->o->out_dir);
    double t1 = util_now();
    r->verified += n_ext;
    r->t_verify += t1 - t0;
    int left = 0;
    for (int i = 0; i < r->pool.n; i++) left += !r->pool.extended[i];
    log_generation(r, "\"problems\":%d,\"longest\":%d,\"pool\":%d,\"pool_left\":%d,\"extended\":%d,"
                      "\"extend_perfect\":%d,\"extend_undecided\":%d,\"cached\":%d,\"extend_s\":%.3f",
                   r->written, r->longest, r->pool.n, left, n_ext, n_perfect, n_undecided, r->gen_cached, t1 - t0);
    if (!r->o->quiet)
        fprintf(stderr, "round %3d  candidates %4d  perfect %3d  problems %4d  longest %3d  pool %4d (%d to extend)  %.1f s\n",
                r->generation, n_ext, n_perfect, r->written, r->longest, r->pool.n, left, t1 - t0);
    return 0;
}

/* Seeds the pool of `compose extend` from o->from: every line a JSON object with
 * an "sfen" field or an SFEN; each is verified, and the perfect ones join the
 * pool (they are inputs, not written again).  Returns 0, or 2 after a message
 * (130 when interrupted). */
static int seed_pool(Run *r) {
    const ComposeOptions *o = r->o;
    FILE *f = fopen(o->from, "r");
    if (!f) { fprintf(stderr, "tsumegen compose: --from %s: %s\n", o->from, strerror(errno)); return 2; }
    char line[8192], err[ERR_MAX];
    int n = 0, cap = 0, lineno = 0, bad = 0;
    Child *ch = NULL;
    while (!bad && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line + strspn(line, " \t"), *q;
        s[strcspn(s, "\r\n")] = 0;
        if (!*s || *s == '#') continue;
        char buf[SFEN_MAX + 64];
        if (*s == '{') {  /* a JSON line: its "sfen" string (problems.jsonl, undecided.jsonl) */
            const char *j = util_json_sfen(s, buf, sizeof buf);
            if (j == s) {
                fprintf(stderr, "tsumegen compose: --from %s:%d: a JSON line without an \"sfen\" string\n", o->from, lineno);
                bad = 1;
                break;
            }
            s = buf;
        } else if ((q = strstr(s, " moves"))) {
            *q = 0;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            Child *t = realloc(ch, sizeof *ch * (size_t)cap);
            if (!t) { bad = 1; break; }
            ch = t;
        }
        memset(&ch[n], 0, sizeof ch[n]);
        if (sfen_parse(s, &ch[n].pos, 0, err, sizeof err)) {
            fprintf(stderr, "tsumegen compose: --from %s:%d: %s\n", o->from, lineno, err);
            bad = 1;
            break;
        }
        ch[n].decoded = ch[n].legal = 1;
        ch[n].origin = ORIGIN_EXTEND;
        ch[n].pool_parent = -1;
        n++;
    }
    fclose(f);
    int rescued = 0, perfect = 0;
    if (!bad && (verify_children(r, ch, n) || second_look(r, ch, n, &rescued) < 0)) bad = 1;
    for (int i = 0; i < n && !bad; i++)
        if (ch[i].v->result == VERDICT_MATE && ch[i].v->perfect) perfect += extend_pool_add(&r->pool, &ch[i].pos, ch[i].v->length, -1) > 0;
    for (int i = 0; i < n; i++) free(ch[i].v);
    free(ch);
    if (bad && compose_interrupted) {  /* (no round has run: there is nothing to resume) */
        fprintf(stderr, "tsumegen compose: interrupted while verifying the problems of %s; nothing was written\n", o->from);
        return 130;
    }
    if (bad) return 2;
    if (!o->quiet) fprintf(stderr, "tsumegen compose: %d of %d problems in %s are perfect: the pool to extend\n", perfect, n, o->from);
    if (!perfect) { fprintf(stderr, "tsumegen compose: --from %s: no perfect problem to extend\n", o->from); return 2; }
    return 0;
}

static int run_generation(Run *r) {
    const ComposeOptions *o = r->o;
    if (o->method == METHOD_EXTEND) return extend_generation(r);
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
    r->gen_cached = 0;
    uint64_t gen_seed = generation_seed(r);
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
    Child *ext = NULL;  /* extensions of the problems of earlier generations */
    int n_ext = stopped ? 0 : extend_round(r, gen_seed, &ext), n_ext_perfect = 0, n_ext_undecided = 0;
    if (n_ext < 0) stopped = 1, n_ext = 0;
    for (int i = 0; i < n_ext; i++) {
        n_ext_perfect += ext[i].v->result == VERDICT_MATE && ext[i].v->perfect;
        n_ext_undecided += ext[i].v->result == VERDICT_MATE && ext[i].v->undecided;
    }
    double t4 = util_now(), t_record = 0;
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
    r->verified += n_eval + n_rep + n_ext;
    r->t_decode += td - t0;
    r->t_screen += t1 - td;
    r->t_verify += t4 - t1;
    if (!stopped) {
        stopped = record_batch(r, ch, n_eval, rep, n_rep, ext, n_ext);  /* in rank order: reproducible */
        t_record = util_now() - t4;
        if (vcache_append(r->vc, r->vcf)) fprintf(stderr, "tsumegen compose: warning: cannot write %s/verdicts.bin\n", o->out_dir);
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
    for (int i = 0; i < n_ext; i++) free(ext[i].v);
    free(ext);
    free(ch);
    if (stopped) return 1;
    double best = 0, sum = 0;
    for (int i = 0; i < o->pop; i++) {
        sum += r->pop[i].fitness;
        if (r->pop[i].fitness > best) best = r->pop[i].fitness;
    }
    /* boards_per_s: the engine alone (decoding and the SFEN round trip are decode_s) */
    double bps = (t1 > td) ? m / (t1 - td) : 0, vps = (t2 > t1) ? n_eval / (t2 - t1) : 0;
    log_generation(r, "\"best\":%g,\"mean\":%.3f,\"archive\":%d,\"problems\":%d,\"longest\":%d,"
                      "\"screened\":%d,\"legal\":%d,\"verified\":%d,\"mate\":%d,\"perfect\":%d,\"nomate\":%d,\"unknown\":%d,"
                      "\"undecided\":%d,\"cached\":%d,\"retried\":%d,\"rescued\":%d,\"retry_s\":%.3f,"
                      "\"repaired\":%d,\"repair_perfect\":%d,\"repair_undecided\":%d,\"repair_s\":%.3f,"
                      "\"extended\":%d,\"extend_perfect\":%d,\"extend_undecided\":%d,\"extend_s\":%.3f,"
                      "\"boards_per_s\":%.0f,\"verifications_per_s\":%.1f,"
                      "\"decode_s\":%.4f,\"screen_s\":%.4f,\"verify_s\":%.3f,\"record_s\":%.3f",
                   best, sum / o->pop, r->archive_n, r->written, r->longest, n, n_legal, n_eval, n_mate, n_perfect,
                   n_nomate, n_unknown, n_undecided, r->gen_cached, n_retry, n_rescued,
                   t_look, n_rep, n_rep_perfect, n_rep_undecided, t3 - t2, n_ext, n_ext_perfect, n_ext_undecided, t4 - t3, bps, vps,
                   td - t0, t1 - td, t2 - t1, t_record);
    if (!o->quiet)
        fprintf(stderr, "gen %3d  best %3g  mean %6.2f  archive %4d  problems %4d  longest %3d  screen %8.0f/s  verify %7.1f/s\n",
                r->generation, best, sum / o->pop, r->archive_n, r->written, r->longest, bps, vps);
    return 0;
}

static void free_run(Run *r) {
    keys_free(&r->archived);
    keys_free(&r->written_keys);
    keys_free(&r->undecided_keys);
    vcache_free(r->vc);
    extend_pool_free(&r->pool);
    if (r->vcf) fclose(r->vcf);
    free(r->archive);
    free(r->pop);
    free(r->weights);
    ocl_screen_close(r->dev);
}

/* --time: has the run (its resumed parts included) taken its seconds?  Asked after
 * each generation, so that every command makes one at least. */
static int time_up(const Run *r) { return r->o->seconds > 0 && r->seconds0 + util_now() - r->t_start >= r->o->seconds; }

int compose_run(const ComposeOptions *o, VerifyFn verify) {
    Run r;
    char err[ERR_MAX + 300], path[4096];
    memset(&r, 0, sizeof r);
    r.o = o;
    r.verify = verify;
    /* (the GA keeps its pool longest first, as its main job was measured) */
    r.pool.sibling_step = o->method == METHOD_EXTEND ? EXTEND_SIBLING_STEP : 0;
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
    /* the screening device, once per run: building the program and its self-test
     * cost more than a generation's batch.  Opened after the checks of the
     * checkpoint and of earlier results, which answer at once (pocl builds for
     * seconds), and before anything is made or written, so that a bad --device
     * leaves no trace */
    if (o->cl_threads) ocl_set_cl_threads(o->cl_threads);
    int n = o->pop * (o->oversample < 1 ? 1 : o->oversample), fatal = 0;
    if (o->method != METHOD_EXTEND)  /* compose extend screens nothing */
        r.dev = ocl_screen_open_cmd("compose", o->device, r.weights, n < 65536 ? (size_t)n : 65536, o->threads,
                                    o->quiet ? 0 : OCL_SAY_FALLBACK | OCL_SAY_DEVICE | OCL_SAY_OMP, &fatal);
    if (fatal) return free_run(&r), 2;
    snprintf(r.device, sizeof r.device, "%s", r.dev ? ocl_screen_device(r.dev) : o->method == METHOD_EXTEND ? "none" : "OpenMP");
    if (mkdir(o->out_dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "tsumegen compose: cannot create %s: %s\n", o->out_dir, strerror(errno));
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
    /* the verdict cache: a straight run starts it empty; --resume reloads it, so the
     * continued run answers from the same verdicts as an uninterrupted one */
    snprintf(path, sizeof path, "%s/verdicts.bin", o->out_dir);
    long nv = 0;
    if (!(r.vc = vcache_new()) || !(r.vcf = fopen(path, o->resume ? "a+b" : "w+b")) || (nv = vcache_load(r.vc, r.vcf)) < 0) {
        fprintf(stderr, "tsumegen compose: %s: %s\n", path, nv < 0 ? "not a verdict cache, or damaged (moved away, the run resumes without it; its verdicts are searched again, so the rest of the run may differ from an uninterrupted one)" : strerror(errno));
        fclose(r.problems);
        fclose(r.undecided);
        return free_run(&r), 2;
    }
    struct sigaction old;
    util_catch_sigint(on_sigint, 0, &old);  /* (on_sigint hands the third Ctrl-C to the default) */
    if (o->method == METHOD_EXTEND && !o->resume && (fatal = seed_pool(&r))) {
        util_restore_sigint(&old);
        fclose(r.problems);
        fclose(r.undecided);
        return free_run(&r), fatal;
    }
    /* a checkpoint before the first generation too: Ctrl-C inside it (a compose
     * extend round can take minutes) leaves a run that --resume continues */
    if (!o->resume && save_checkpoint(&r)) fprintf(stderr, "tsumegen compose: warning: cannot write the checkpoint\n");
    int timed_out = 0;
    while (r.generation < o->gens && !compose_interrupted && (o->method != METHOD_EXTEND || extend_pool_next(&r.pool, 1) >= 0)) {
        int rc = run_generation(&r);
        if (rc) {  /* interrupted inside: the last checkpoint stands, and the verdicts found so far are kept */
            if (vcache_append(r.vc, r.vcf)) fprintf(stderr, "tsumegen compose: warning: cannot write %s/verdicts.bin\n", o->out_dir);
            break;
        }
        r.generation++;
        if (save_checkpoint(&r)) fprintf(stderr, "tsumegen compose: warning: cannot write the checkpoint\n");
        if (r.generation < o->gens && (timed_out = time_up(&r))) break;  /* (one generation at least) */
    }
    double seconds = r.seconds0 + util_now() - r.t_start;  /* once: the file and stdout agree */
    print_summary(stdout, &r, seconds, compose_interrupted);
    fflush(stdout);
    if (write_summary(&r, seconds, compose_interrupted)) fprintf(stderr, "tsumegen compose: warning: cannot write %s/summary.json\n", o->out_dir);
    if (compose_interrupted)
        fprintf(stderr, "tsumegen compose: interrupted; continue with: tsumegen compose %s --out %s --resume\n",
                o->method == METHOD_EXTEND ? "extend" : "ga", o->out_dir);
    else if (timed_out)
        fprintf(stderr, "tsumegen compose: --time %g s reached after %s %d of %d; continue with: tsumegen compose %s --out %s --resume\n",
                o->seconds, o->method == METHOD_EXTEND ? "round" : "generation", r.generation, o->gens,
                o->method == METHOD_EXTEND ? "extend" : "ga", o->out_dir);
    fclose(r.problems);
    fclose(r.undecided);
    free_run(&r);
    util_restore_sigint(&old);  /* (only now: a second Ctrl-C while the summary is written must not end the process) */
    return compose_interrupted ? 130 : 0;  /* (as solve and screen after Ctrl-C) */
}
