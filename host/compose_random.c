/* compose_random.c - `tsumegen compose random` (seeds/002): generated boards,
 * screened on the device, those in the points band verified exactly.
 *
 * The stream is walked in index order, a block at a time; a block's candidates
 * are verified in chunks on the OpenMP threads and recorded in index order, so a
 * run is reproducible for a fixed --nodes whatever the thread count, and the
 * checkpoint (the next index not recorded) loses at most one chunk on Ctrl-C. */
#include "compose_random.h"
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../core/mate1.h"
#include "cli.h"
#include "compose_run.h"
#include "ocl.h"
#include "reverse.h"
#include "screen.h"
#include "sfen.h"
#include "util.h"

const char *const RANDOM_CLASS_NAME[RC_NB] = {"nomate", "unknown", "short", "leftover", "cooked", "undecided", "final-alt", "perfect"};

void random_defaults(RandomOptions *o) {
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->boards = 1000000;
    o->node_limit = 2000;  /* the most perfect problems per second of 9 plies or more (RESULTS, forty-seventh session) */
    o->points_file = POINTS_BUILTIN_LEARNED;
    o->band_lo = 100000;  /* seeds/002's best band, 100-115 points (case 4), for a file without a suggestion */
    o->band_hi = 115000;
    o->min_length = 5;
    o->out_dir = "out/random";
}

void reverse_defaults(RandomOptions *o) {
    random_defaults(o);
    o->reverse = 1;
    o->boards = 100000;
    o->points_file = NULL;
    o->band_lo = BAND_OPEN_LO, o->band_hi = BAND_OPEN_HI;
    o->min_length = 1;
    o->out_dir = "out/reverse";
}

int random_class_named(const char *name) {
    for (int c = 0; c < RC_NB; c++)
        if (!strcmp(name, RANDOM_CLASS_NAME[c])) return c;
    return -1;
}

int distinct_mates_in_one(const Position *pos) {
    Position p = *pos;
    MoveList ml;
    int n = gen_mate1(&p, &ml), distinct = 0;
    for (int i = 0; i < n; i++) {
        int twin = 0;  /* the same move with the other promotion choice, listed before */
        for (int j = 0; j < i && !twin; j++) twin = (ml.moves[j] & ~MOVE_PROMO) == (ml.moves[i] & ~MOVE_PROMO);
        distinct += !twin;
    }
    return distinct;
}

int random_class(const Position *pos, const Verdict *v, int min_length) {
    if (v->result == VERDICT_NOMATE) return RC_NOMATE;
    if (v->result != VERDICT_MATE) return RC_UNKNOWN;
    if ((v->length_exact ? v->length : v->length_ub) < min_length) return RC_SHORT;
    if (v->perfect) return v->length == 1 && distinct_mates_in_one(pos) > 1 ? RC_ALT : RC_PERFECT;
    if (v->cook_ply >= 0) return RC_COOKED;
    if (v->undecided) return RC_UNDECIDED;
    return RC_LEFTOVER;  /* (with first_flaw a leftover is found before any 余詰 test) */
}

/* One candidate: its index in the stream, points, and what the verifier said. */
typedef struct {
    uint64_t index;
    int32_t points;
    int game;  /* compose reverse: the candidate undoes the game's own last move */
    Position pos;
    Verdict *v;
    double ms;
    int cls;      /* the verdict's RC_* class */
    int proof;    /* a perfect one after prepare_problem: the proof check's answer (ProofFn) */
    char *proof_msg;
} Cand;

typedef struct {
    const RandomOptions *o;
    VerifyFn verify;
    int32_t *w;
    OclScreen *dev;
    FILE *problems, *verdicts;
    Keys written_keys;
    /* totals, kept in the checkpoint */
    uint64_t next, kept, bare, cls[RC_NB];  /* next: the first index not recorded */
    uint64_t game_cands, game_perfect;      /* compose reverse: seeds/004's own candidates, and the perfect ones */
    int written, longest;
    double seconds0, t_start, t_verify, t_record;  /* t_record: reduction, proof check, writing */
} RRun;

static volatile sig_atomic_t random_interrupted;
static void on_sigint(int sig) { (void)sig; random_interrupted = 1; }

static double run_seconds(const RRun *r) { return r->seconds0 + util_now() - r->t_start; }

static uint64_t good_count(const RRun *r) {
    uint64_t good = 0;
    for (int c = 0; c < RC_NB; c++)
        if (RC_IS_GOOD(c)) good += r->cls[c];
    return good;
}

/* The options that change what a run writes, as one line: a resume must match it. */
static void options_line(const RandomOptions *o, char *buf, size_t len) {
    if (o->reverse) {
        snprintf(buf, len, "--seed %" PRIu64 " --start %" PRIu64 " --nodes %" PRIu64, o->seed, o->start, o->node_limit);
        return;
    }
    char lo[32] = "", hi[32] = "";
    if (o->band_lo != BAND_OPEN_LO) snprintf(lo, sizeof lo, "%.3f", o->band_lo / 1000.0);
    if (o->band_hi != BAND_OPEN_HI) snprintf(hi, sizeof hi, "%.3f", o->band_hi / 1000.0);
    snprintf(buf, len, "--seed %" PRIu64 " --start %" PRIu64 " --nodes %" PRIu64 " --band %s:%s --min-length %d --points %s", o->seed,
             o->start, o->node_limit, lo, hi, o->min_length, o->points_file ? o->points_file : "(built in)");
}

static void counts_line(const RRun *r, FILE *f) {
    fprintf(f, "next %" PRIu64 "\nkept %" PRIu64 "\nbare %" PRIu64 "\nwritten %d\nlongest %d\nseconds %.3f\nverify %.3f\nrecord %.3f\n",
            r->next, r->kept, r->bare, r->written, r->longest, run_seconds(r), r->t_verify, r->t_record);
    for (int c = 0; c < RC_NB; c++) fprintf(f, "class %s %" PRIu64 "\n", RANDOM_CLASS_NAME[c], r->cls[c]);
    if (r->o->reverse) fprintf(f, "game %" PRIu64 " %" PRIu64 "\n", r->game_cands, r->game_perfect);
}

static const char *method_name(const RandomOptions *o) { return o->reverse ? "reverse" : "random"; }

/* OUT/checkpoint.txt, written to a temporary file and renamed into place. */
static int save_random_checkpoint(const RRun *r) {
    char path[4096], opt[512], *text = NULL;
    size_t n = 0;
    snprintf(path, sizeof path, "%s/checkpoint.txt", r->o->out_dir);
    FILE *f = open_memstream(&text, &n);
    if (!f) return -1;
    options_line(r->o, opt, sizeof opt);
    fprintf(f, "tsumegen compose %s checkpoint 2\noptions %s\n", method_name(r->o), opt);
    counts_line(r, f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    bad = bad || util_save_checked(path, text, n);  /* (a last line "sum HEX") */
    free(text);
    return bad ? -1 : 0;
}

/* The index a line of verdicts.tsv (leading number) or problems.jsonl ("index")
 * records; UINT64_MAX for a comment or a line without one. */
static uint64_t line_index(const char *line, int jsonl) {
    if (line[0] == '#') return UINT64_MAX;
    const char *p = jsonl ? strstr(line, "\"index\":") : line;
    if (!p) return UINT64_MAX;
    return strtoull(p + (jsonl ? 8 : 0), NULL, 10);
}

/* --resume: what a killed run wrote past its checkpoint (lines of indices from
 * next on) is dropped, so those boards are recorded once, when verified again.
 * Comments stay.  0, or -1 when the file cannot be rewritten. */
static int trim_past(const char *path, uint64_t next, int jsonl) {
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT ? 0 : -1;
    size_t n;
    char *text = util_slurp(f, &n), tmp[4200];
    fclose(f);
    if (!text) return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    int bad = !out;
    for (char *line = text; !bad && *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        uint64_t ix = line_index(line, jsonl);
        if (line[0] == '#' || ix < next) bad = fwrite(line, 1, len, out) != len;
        line += len;
    }
    if (out) bad |= fclose(out) != 0;
    free(text);
    return bad || rename(tmp, path) ? -1 : 0;
}

/* --resume: the totals and the next index back from the checkpoint, whose options
 * must be this run's; the problems already written are keys again.  0 or 2. */
static int load_random_checkpoint(RRun *r) {
    char path[4096], line[1024], opt[512];
    snprintf(path, sizeof path, "%s/checkpoint.txt", r->o->out_dir);
    size_t text_n;
    int sum_state;
    char *text = util_load_checked(path, &text_n, &sum_state);
    if (!text) return cli_error("compose", "--resume: cannot read %s: %s", path, strerror(errno));
    FILE *f = fmemopen(text, text_n ? text_n : 1, "r");
    if (!f) { free(text); return cli_error("compose", "--resume: cannot read %s: %s", path, strerror(errno)); }
    options_line(r->o, opt, sizeof opt);
    /* "... checkpoint 2" ends in a checksum line; a checkpoint from before 2026-12-04
     * has neither */
    char head[64], head_v2[64];
    snprintf(head, sizeof head, "tsumegen compose %s checkpoint\n", method_name(r->o));
    snprintf(head_v2, sizeof head_v2, "tsumegen compose %s checkpoint 2\n", method_name(r->o));
    int ok = fgets(line, sizeof line, f) && (!strcmp(line, head_v2) ? sum_state > 0 : !strcmp(line, head) && sum_state == 0);
    int seen_next = 0;
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char name[32];
        unsigned long long x, y;
        double d;
        int k;
        if (!strncmp(line, "options ", 8)) {
            if (strcmp(line + 8, opt)) {
                fclose(f);
                free(text);
                return cli_error("compose", "--resume: %s was made with other options:\n  was: %s\n  now: %s", path, line + 8, opt);
            }
        } else if (sscanf(line, "class %31s %llu", name, &x) == 2) {
            if ((k = random_class_named(name)) < 0) ok = 0;
            else r->cls[k] = x;
        } else if (sscanf(line, "next %llu", &x) == 1) r->next = x, seen_next = 1;
        else if (r->o->reverse && sscanf(line, "game %llu %llu", &x, &y) == 2) r->game_cands = x, r->game_perfect = y;
        else if (sscanf(line, "kept %llu", &x) == 1) r->kept = x;
        else if (sscanf(line, "bare %llu", &x) == 1) r->bare = x;
        else if (sscanf(line, "written %d", &k) == 1) r->written = k;
        else if (sscanf(line, "longest %d", &k) == 1) r->longest = k;
        else if (sscanf(line, "seconds %lf", &d) == 1) r->seconds0 = d;
        else if (sscanf(line, "verify %lf", &d) == 1) r->t_verify = d;
        else if (sscanf(line, "record %lf", &d) == 1) r->t_record = d;
        else ok = 0;
    }
    fclose(f);
    free(text);
    if (sum_state < 0) return cli_error("compose", "--resume: %s is damaged (its checksum does not match its text)", path);
    if (!ok || !seen_next) return cli_error("compose", "--resume: %s is damaged", path);
    snprintf(path, sizeof path, "%s/verdicts.tsv", r->o->out_dir);
    if (trim_past(path, r->next, 0)) return cli_error("compose", "--resume: cannot rewrite %s", path);
    snprintf(path, sizeof path, "%s/problems.jsonl", r->o->out_dir);
    if (trim_past(path, r->next, 1)) return cli_error("compose", "--resume: cannot rewrite %s", path);
    if ((f = fopen(path, "r"))) {
        char buf[8192], sfen[SFEN_MAX], key[SFEN_MAX], err[256];
        Position p;
        while (fgets(buf, sizeof buf, f))
            if (!sfen_parse(util_json_sfen(buf, sfen, sizeof sfen), &p, 0, err, sizeof err)) {
                compose_canonical(&p, key, sizeof key);
                keys_add(&r->written_keys, key);
            }
        fclose(f);
    }
    return 0;
}

/* A perfect candidate made ready on a thread: its redundant pieces removed (pos
 * and v change) and the independent proof check run (0 when out of memory). */
static int prepare_problem(const RRun *r, Cand *c) {
    compose_remove_redundant(&c->pos, c->v, r->verify, r->o->node_limit);
    if (!(c->proof_msg = malloc(512))) return 0;
    c->proof_msg[0] = 0;
    c->proof = r->o->proof ? r->o->proof(&c->pos, c->v, c->proof_msg, 512) : 1;
    return 1;
}

/* A prepared problem, written once (mirror included) when the proof check passed. */
static void record_problem(RRun *r, const Cand *c) {
    const Position *p = &c->pos;
    const Verdict *v = c->v;
    char key[SFEN_MAX], sfen[SFEN_MAX];
    compose_canonical(p, key, sizeof key);
    if (keys_has(&r->written_keys, key)) return;
    keys_add(&r->written_keys, key);
    sfen_format(p, sfen, sizeof sfen);
    if (c->proof != 1) {  /* (a failure means the verdict's search is wrong somewhere: loud) */
        fprintf(stderr, "tsumegen compose: %sthe proof checker %s the perfect verdict of %s (%s); not written\n",
                c->proof == 0 ? "BUG: " : "", c->proof == 0 ? "rejects" : "leaves undecided", sfen, c->proof_msg);
        return;
    }
    r->written++;
    if (v->length > r->longest) r->longest = v->length;
    fprintf(r->problems, "{\"sfen\":\"%s\",\"length\":%d,", sfen, v->length);
    write_pv(r->problems, "pv", v);
    fprintf(r->problems, "\"seed\":%" PRIu64 ",\"index\":%" PRIu64 ",", r->o->seed, c->index);
    if (r->o->reverse) fprintf(r->problems, "\"game_move\":%s,", c->game ? "true" : "false");
    else fprintf(r->problems, "\"points\":%.3f,", c->points / 1000.0);
    fprintf(r->problems, "\"sacrifices\":%d,\"origin\":\"%s\",%s\"id\":%d}\n", compose_sacrifices(p, v->pv, v->pv_len),
            method_name(r->o), r->o->proof ? "\"verified\":true," : "", r->written);
    fflush(r->problems);
    char comment[160];
    snprintf(comment, sizeof comment, "tsumegen %s: %d手詰 seed %" PRIu64 " %s %" PRIu64, method_name(r->o), v->length, r->o->seed,
             r->o->reverse ? "game" : "index", c->index);
    if (!r->o->no_kif) write_problem_kif(r->o->out_dir, r->written, p, v, comment);
}

/* Candidates [0, n) verified on the threads, then recorded in index order. */
static int verify_chunk(RRun *r, Cand *c, int n) {
    double t0 = util_now();
    int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(r->o->threads) reduction(| : failed)
    for (int i = 0; i < n; i++) {
        double t = util_now();
        if (!(c[i].v = malloc(sizeof(Verdict))) || r->verify(&c[i].pos, r->o->node_limit, c[i].v)) failed = 1;
        else c[i].cls = random_class(&c[i].pos, c[i].v, r->o->min_length);
        c[i].ms = 1000 * (util_now() - t);
    }
    double t1 = util_now();
    r->t_verify += t1 - t0;
    if (failed) return cli_error("compose", "out of memory in the verifier");
    /* the perfect ones reduced and proof-checked on the threads too, the log
     * written first (the class and verdict as verified) */
    for (int i = 0; i < n; i++) {
        int cls = c[i].cls;
        r->cls[cls]++;
        r->game_cands += c[i].game;
        r->game_perfect += c[i].game && cls == RC_PERFECT;
        fprintf(r->verdicts, "%" PRIu64 "\t", c[i].index);
        if (r->o->reverse) fprintf(r->verdicts, "%d\t", c[i].game);
        else fprintf(r->verdicts, "%.3f\t", c[i].points / 1000.0);
        fprintf(r->verdicts, "%s\t%d\t%" PRIu64 "\t%.2f", RANDOM_CLASS_NAME[cls], c[i].v->result == VERDICT_MATE ? c[i].v->length : 0,
                c[i].v->nodes, c[i].ms);
        if (r->o->reverse) {  /* (a random board is its index; a reverse one needs its SFEN) */
            char sfen[SFEN_MAX];
            sfen_format(&c[i].pos, sfen, sizeof sfen);
            fprintf(r->verdicts, "\t%s", sfen);
        }
        fputc('\n', r->verdicts);
    }
    fflush(r->verdicts);
#pragma omp parallel for schedule(dynamic, 1) num_threads(r->o->threads) reduction(| : failed)
    for (int i = 0; i < n; i++)
        if (c[i].cls == RC_PERFECT && !prepare_problem(r, &c[i])) failed = 1;
    if (failed) return cli_error("compose", "out of memory");
    for (int i = 0; i < n; i++)
        if (c[i].cls == RC_PERFECT) record_problem(r, &c[i]);
    r->t_record += util_now() - t1;
    return 0;
}

static void free_chunk(Cand *c, int n) {
    for (int i = 0; i < n; i++) free(c[i].v), c[i].v = NULL, free(c[i].proof_msg), c[i].proof_msg = NULL;
}

static void progress(const RRun *r, int final) {
    uint64_t good = good_count(r);
    fprintf(stderr, "%scompose %s: %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " good, %" PRIu64
            " perfect (%d written, longest %d), %.0f s%s", final ? "" : "\r", method_name(r->o), r->next - r->o->start,
            r->o->reverse ? "games" : "boards", r->kept, r->o->reverse ? "candidates" : "kept", good, r->cls[RC_PERFECT],
            r->written, r->longest, run_seconds(r), final ? "\n" : "   ");
}

/* The summary: a JSON line on stdout and in OUT/summary.json. */
static void summary(const RRun *r, const char *device, int interrupted) {
    char path[4096], opt[512];
    double s = run_seconds(r);
    uint64_t good = good_count(r), verified = 0;
    for (int c = 0; c < RC_NB; c++) verified += r->cls[c];
    options_line(r->o, opt, sizeof opt);
    snprintf(path, sizeof path, "%s/summary.json", r->o->out_dir);
    FILE *files[2] = {stdout, fopen(path, "w")};
    for (int k = 0; k < 2; k++) {
        FILE *f = files[k];
        if (!f) continue;
        fprintf(f, "{\"method\":\"%s\",\"options\":", method_name(r->o));
        util_json_str(f, opt);
        fprintf(f, ",\"device\":");
        util_json_str(f, device);
        if (r->o->reverse)  /* bare: games without a mate, or whose mate needs Black's king */
            fprintf(f, ",\"games\":%" PRIu64 ",\"mates\":%" PRIu64 ",\"candidates\":%" PRIu64 ",\"game_candidates\":%" PRIu64
                    ",\"game_perfect\":%" PRIu64, r->next - r->o->start, r->next - r->o->start - r->bare, r->kept, r->game_cands,
                    r->game_perfect);
        else
            fprintf(f, ",\"boards\":%" PRIu64 ",\"kept\":%" PRIu64 ",\"bare\":%" PRIu64, r->next - r->o->start, r->kept, r->bare);
        fprintf(f, ",\"verified\":%" PRIu64, verified);
        for (int c = 0; c < RC_NB; c++) fprintf(f, ",\"%s\":%" PRIu64, RANDOM_CLASS_NAME[c], r->cls[c]);
        fprintf(f, ",\"good\":%" PRIu64 ",\"written\":%d,\"longest\":%d,\"seconds\":%.2f,\"verify_seconds\":%.2f"
                ",\"record_seconds\":%.2f", good, r->written, r->longest, s, r->t_verify, r->t_record);
        if (good) fprintf(f, ",\"s_per_good\":%.3f", s / (double)good);
        if (r->cls[RC_PERFECT]) fprintf(f, ",\"s_per_perfect\":%.3f", s / (double)r->cls[RC_PERFECT]);
        fprintf(f, ",\"next_index\":%" PRIu64 ",\"interrupted\":%s}\n", r->next, interrupted ? "true" : "false");
        if (k) fclose(f);
    }
    fflush(stdout);
}

/* Whether the attacker has a piece on the board besides its king: seeds/002 (d)
 * skips "bare" diagrams (無仕掛け), which are almost never perfect. */
static int has_board_piece(const Position *p) {
    for (int sq = 0; sq < SQ_NB; sq++)
        if (p->board[sq] && piece_color(p->board[sq]) == p->side && piece_type(p->board[sq]) != KING) return 1;
    return 0;
}

/* After each chunk: the checkpoint (the next index not recorded), a stop on
 * Ctrl-C or --time, progress.  1 when the run should stop. */
static int chunk_done(RRun *r) {
    if (save_random_checkpoint(r)) fprintf(stderr, "tsumegen compose: warning: cannot write the checkpoint\n");
    if (random_interrupted || (r->o->seconds > 0 && run_seconds(r) >= r->o->seconds)) return 1;
    if (!r->o->quiet && isatty(2)) progress(r, 0);
    return 0;
}

/* One block of the stream from r->next: screened, filtered, verified in chunks.
 * Returns 1 when the run should stop (interrupt, time, an error: *rc), else 0. */
static int run_block(RRun *r, uint64_t n, uint64_t *kept_idx, Cand *chunk, int chunk_cap, int *rc) {
    const RandomOptions *o = r->o;
    ScGenJob job = {o->seed, r->next, (size_t)n, 0, SC_KEEP_CHECK, o->band_lo};
    ScGenStats st;
    if (r->dev) {
        if (ocl_screen_gen(r->dev, &job, 0, NULL, kept_idx, (size_t)n, &st)) {
            *rc = cli_error("compose", "%s", ocl_screen_error(r->dev));
            return 1;
        }
    } else {
        screen_gen_cpu(&job, r->w, o->threads, NULL, kept_idx, (size_t)n, &st);
    }
    int m = 0;
    for (uint64_t k = 0; k <= st.kept; k++) {
        if (k < st.kept) {
            /* the screen passed it with its points and a check; its position again, for
             * the band's upper end, the log and the verifier */
            ScBoard b;
            Cand *c = &chunk[m];
            sc_gen_board(o->seed, kept_idx[k], &b);
            if (sc_setup(&b, &c->pos, 0) != SC_OK) continue;
            c->points = sc_points(&c->pos, r->w);
            if (c->points > o->band_hi) continue;
            if (compose_normalize(&c->pos)) continue;  /* (the strict rules) */
            if (!has_board_piece(&c->pos)) { r->bare++; continue; }
            c->index = kept_idx[k];
            c->v = NULL;
            c->ms = 0;
            r->kept++;
            if (++m < chunk_cap) continue;
        }
        if (!m) break;
        int bad = verify_chunk(r, chunk, m);
        r->next = chunk[m - 1].index + 1;
        free_chunk(chunk, m);
        m = 0;
        if (bad) { *rc = bad; return 1; }
        if (k < st.kept && chunk_done(r)) return 1;
    }
    r->next = job.base + n;
    return chunk_done(r);
}

/* compose reverse: games [r->next, end) in batches of `batch`, each batch's games
 * played and undone on the threads (reverse.h), their candidates verified as one
 * chunk in game order.  Returns 1 when the run should stop (*rc on an error). */
static int run_games(RRun *r, uint64_t end, int batch, ReverseCandidate *rcand, int *ncand, Cand *chunk, int *rc) {
    const RandomOptions *o = r->o;
    while (r->next < end) {
        int g = end - r->next < (uint64_t)batch ? (int)(end - r->next) : batch;
#pragma omp parallel for schedule(dynamic, 1) num_threads(o->threads)
        for (int k = 0; k < g; k++) {
            Position mate;
            Move last;
            int plies;
            uint64_t ix = r->next + (uint64_t)k;
            ncand[k] = -1;
            if (reverse_game(o->seed, ix, &mate, &last, &plies) && !reverse_strip(&mate, o->seed, ix))
                ncand[k] = reverse_candidates(&mate, last, rcand + (size_t)k * REVERSE_MAX_CANDIDATES, REVERSE_MAX_CANDIDATES);
        }
        int m = 0;
        for (int k = 0; k < g; k++) {
            if (ncand[k] < 0) { r->bare++; continue; }
            for (int i = 0; i < ncand[k]; i++, m++) {
                const ReverseCandidate *rc1 = &rcand[(size_t)k * REVERSE_MAX_CANDIDATES + i];
                chunk[m].index = r->next + (uint64_t)k;
                chunk[m].pos = rc1->pos;
                chunk[m].game = rc1->game;
                chunk[m].points = 0;
                chunk[m].v = NULL;
                chunk[m].ms = 0;
            }
        }
        r->kept += (uint64_t)m;
        int bad = m ? verify_chunk(r, chunk, m) : 0;
        free_chunk(chunk, m);
        if (bad) { *rc = bad; return 1; }
        r->next += (uint64_t)g;
        if (chunk_done(r)) return 1;
    }
    return 0;
}

int compose_random_run(const RandomOptions *o, VerifyFn verify) {
    RRun r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.verify = verify;
    r.next = o->start;
    char err[512], path[4096];
    if (!(r.w = malloc(sizeof(int32_t) * SC_W_NB))) return cli_error("compose", "out of memory");
    if (!o->reverse && points_load(o->points_file, r.w, err, sizeof err)) { free(r.w); return cli_error("compose", "%s", err); }
    if (mkdir(o->out_dir, 0777) && errno != EEXIST) {
        free(r.w);
        return cli_error("compose", "cannot create %s: %s", o->out_dir, strerror(errno));
    }
    int rc = o->resume ? load_random_checkpoint(&r) : 0;
    if (rc) { free(r.w); keys_free(&r.written_keys); return rc; }
    int fatal = 0;
    if (o->cl_threads) ocl_set_cl_threads(o->cl_threads);
    if (!o->reverse)  /* (reverse construction screens nothing) */
        r.dev = ocl_screen_open_cmd("compose", o->device, r.w, 0, o->threads,
                                    (o->quiet ? 0 : OCL_SAY_FALLBACK | OCL_SAY_DEVICE | OCL_SAY_OMP) | OCL_GEN_ONLY, &fatal);
    if (fatal) { free(r.w); keys_free(&r.written_keys); return EXIT_USAGE; }
    char device[300];
    snprintf(device, sizeof device, "%s", r.dev ? ocl_screen_device(r.dev) : "OpenMP");
    /* compose reverse: a batch of games per chunk, with room for all their candidates */
    const int batch = 8 * (o->threads > 0 ? o->threads : 1);
    snprintf(path, sizeof path, "%s/problems.jsonl", o->out_dir);
    r.problems = fopen(path, o->resume ? "a" : "w");
    snprintf(path, sizeof path, "%s/verdicts.tsv", o->out_dir);
    r.verdicts = fopen(path, o->resume ? "a" : "w");
    const uint64_t block = 65536;
    const int chunk_cap = o->reverse ? batch * REVERSE_MAX_CANDIDATES : 16 * (o->threads > 0 ? o->threads : 1);
    uint64_t *kept_idx = malloc(sizeof(uint64_t) * block);
    Cand *chunk = calloc((size_t)chunk_cap, sizeof *chunk);
    ReverseCandidate *rcand = o->reverse ? malloc(sizeof *rcand * (size_t)chunk_cap) : NULL;
    int *ncand = o->reverse ? malloc(sizeof(int) * (size_t)batch) : NULL;
    if (!r.problems || !r.verdicts || !kept_idx || !chunk || (o->reverse && (!rcand || !ncand))) {
        rc = cli_error("compose", "cannot write in %s: %s", o->out_dir, strerror(errno));
    } else {
        if (!o->resume)
            fprintf(r.verdicts, "# tsumegen compose %s verdicts: seed %" PRIu64 "\n# %s\tclass\tlength\tnodes\tms%s\n", method_name(o), o->seed,
                    o->reverse ? "game\tgame_move" : "index\tpoints", o->reverse ? "\tsfen" : "");
        r.t_start = util_now();
        random_interrupted = 0;
        struct sigaction old;
        util_catch_sigint(on_sigint, 1, &old);
        uint64_t end = o->start + o->boards;
        if (o->reverse) run_games(&r, end, batch, rcand, ncand, chunk, &rc);
        else
            while (r.next < end && !rc)
                if (run_block(&r, end - r.next < block ? end - r.next : block, kept_idx, chunk, chunk_cap, &rc)) break;
        util_restore_sigint(&old);
        if (!o->quiet) progress(&r, 1);
        summary(&r, device, random_interrupted);
        if (random_interrupted) {
            fprintf(stderr, "tsumegen compose: interrupted; continue with the same options and --resume\n");
            if (!rc) rc = EXIT_INTERRUPTED;
        }
    }
    if (r.problems) fclose(r.problems);
    if (r.verdicts) fclose(r.verdicts);
    ocl_screen_close(r.dev);
    free(kept_idx);
    free(chunk);
    free(rcand);
    free(ncand);
    free(r.w);
    keys_free(&r.written_keys);
    return rc;
}
