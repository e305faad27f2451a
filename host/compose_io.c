/* compose_io.c - what a GA run writes and reads back (see compose_run.h). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compose_run.h"
#include "kif.h"
#include "sfen.h"
#include "util.h"

/* 2: a last line "sum HEX" (util_save_checked); 1 (before 2026-12-04) had none */
#define CHECKPOINT_VERSION 2


void archive_add(Run *r, const Genome *g) {
    if (r->archive_n == r->archive_cap) {
        r->archive_cap = r->archive_cap ? 2 * r->archive_cap : 64;
        r->archive = realloc(r->archive, sizeof(Genome) * (size_t)r->archive_cap);
    }
    r->archive[r->archive_n++] = *g;
}

static const char *const ORIGIN_NAME[] = {"ga", "repair", "extend"};

void write_pv(FILE *f, const char *name, const Verdict *v) {
    char mv[8];
    fprintf(f, "\"%s\":[", name);
    for (int i = 0; i < v->pv_len; i++) {
        move_format(v->pv[i], mv);
        fprintf(f, "%s\"%s\"", i ? "," : "", mv);
    }
    fputs("],", f);
}

/* Writes one perfect problem (already reduced) as a JSON line and a KIF file. */
void write_problem(Run *r, const Position *pos, const Verdict *v, int origin) {
    char sfen[SFEN_MAX];
    sfen_format(pos, sfen, sizeof sfen);
    r->written++;
    fprintf(r->problems, "{\"sfen\":\"%s\",\"length\":%d,", sfen, v->length);
    write_pv(r->problems, "pv", v);
    fprintf(r->problems, "\"generation\":%d,\"seed\":%llu,\"sacrifices\":%d,\"origin\":\"%s\",%s\"id\":%d}\n",
            r->generation, (unsigned long long)r->o->seed, compose_sacrifices(pos, v->pv, v->pv_len), ORIGIN_NAME[origin],
            r->o->proof ? "\"verified\":true," : "", r->written);
    fflush(r->problems);
    char comment[128];
    snprintf(comment, sizeof comment, "tsumegen GA: %d手詰 generation %d seed %llu", v->length, r->generation,
             (unsigned long long)r->o->seed);
    if (!r->o->no_kif) write_problem_kif(r->o->out_dir, r->written, pos, v, comment);
}

/* A KIF file that cannot be written is said once on stderr (the problem is in
 * problems.jsonl already, and the run goes on); the composers call it from one
 * thread. */
void write_problem_kif(const char *out_dir, int id, const Position *pos, const Verdict *v, const char *comment) {
    static int warned;
    char path[4096];
    snprintf(path, sizeof path, "%s/%03d.kif", out_dir, id);
    FILE *f = fopen(path, "w");
    int err = f ? 0 : errno;
    if (f) {
        kif_write(f, pos, v->pv, v->pv_len, comment);
        if (ferror(f)) err = errno ? errno : EIO;
        if (fclose(f) && !err) err = errno ? errno : EIO;
    }
    if (err && !warned) {
        warned = 1;
        fprintf(stderr, "tsumegen compose: cannot write %s: %s; problems.jsonl keeps every problem "
                        "(KIF failures after this one are not reported)\n", path, strerror(err));
    }
}

/* ---- checkpoint --------------------------------------------------------- */

/* The options that change what a run writes, in the command's own spelling.  One
 * table writes the checkpoint's "options" line ("--name value" pairs in this order,
 * --points last since a path may hold spaces), compares it on --resume, and gives
 * a resume the run's own values for the options its command leaves out.  --gens,
 * --threads, --device, --cl-threads and --quiet are not here: a resumed run may go
 * on for more generations, and the screen and the verifier give the same answers on
 * every device and thread count. */
typedef struct {
    const char *name;
    char type;  /* 'u' uint64_t, 'i' int, 'd' double, 's' const char * (NULL: built-in) */
    size_t off;
} SavedOption;
#define SAVED(name, type, field) {name, type, offsetof(ComposeOptions, field)}
static const SavedOption SAVED_OPTIONS[] = {
    SAVED("--seed", 'u', seed),          SAVED("--nodes", 'u', node_limit),      SAVED("--retry", 'i', retry),
    SAVED("--retry-nodes", 'u', retry_nodes), SAVED("--repair", 'i', repair), SAVED("--repair-tries", 'i', repair_tries),
    SAVED("--repair-depth", 'i', repair_depth), SAVED("--extend", 'i', extend), SAVED("--extend-tries", 'i', extend_tries),
    SAVED("--ones", 'i', ones),          SAVED("--tournament", 'i', tournament), SAVED("--oversample", 'i', oversample),
    SAVED("--mutation", 'd', mutation),  SAVED("--archive-rate", 'd', archive_rate), SAVED("--points", 's', points_file)};
#define N_SAVED (sizeof SAVED_OPTIONS / sizeof *SAVED_OPTIONS)

/* One option's value as the checkpoint writes it. */
static void saved_value(const ComposeOptions *o, const SavedOption *so, char *buf, size_t len) {
    const char *field = (const char *)o + so->off;
    if (so->type == 'u') snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
    else if (so->type == 'i') snprintf(buf, len, "%d", *(const int *)field);
    else if (so->type == 'd') snprintf(buf, len, "%.17g", *(const double *)field);
    else snprintf(buf, len, "%s", *(const char *const *)field ? *(const char *const *)field : "built-in");
}

/* Splits a saved "options" line into its values (vals[i] points into line, which is
 * cut); -1 when it is not this table's line. */
static int split_saved(char *line, char *vals[N_SAVED]) {
    char *p = line;
    for (size_t i = 0; i < N_SAVED; i++) {
        size_t n = strlen(SAVED_OPTIONS[i].name);
        if (strncmp(p, SAVED_OPTIONS[i].name, n) || p[n] != ' ') return -1;
        vals[i] = p += n + 1;
        if (i + 1 == N_SAVED) break;  /* (the last takes the rest of the line) */
        if (!(p = strchr(p, ' '))) return -1;
        *p++ = 0;
    }
    return 0;
}

/* A method's name as --method spells it (and summary.json, and compose extend). */
static const char *method_name(int method) {
    static const char *const NAME[] = {"ga-archive", "ga", "random", "extend"};
    return method >= 0 && method < 4 ? NAME[method] : "?";
}

/* Says that the run in path was started with option was, where this command gives
 * now (option "": was and now name the commands); closes f (if any) and returns -1. */
static int differs(FILE *f, const char *path, const char *option, const char *was, const char *now) {
    if (f) fclose(f);
    const char *sep = *option ? " " : "";
    fprintf(stderr,
            "tsumegen compose: --resume: the run in %s was started with %s%s%s; this command gives %s%s%s "
            "(leave it out to resume with the run's own, or choose another --out)\n",
            path, option, sep, was, option, sep, now);
    return -1;
}

/* 0 when the checkpoint's "options" line (saved) equals this run's; else -1 after
 * naming the first option that differs. */
static int same_options(const char *path, char *saved, const ComposeOptions *o) {
    char *vals[N_SAVED], now[4096];
    if (split_saved(saved, vals)) {
        fprintf(stderr, "tsumegen compose: --resume: %s: damaged options line\n", path);
        return -1;
    }
    for (size_t i = 0; i < N_SAVED; i++) {
        saved_value(o, &SAVED_OPTIONS[i], now, sizeof now);
        if (strcmp(vals[i], now)) return differs(NULL, path, SAVED_OPTIONS[i].name, vals[i], now);
    }
    return 0;
}

static int add_word(char ***words, int *n, const char *w) {
    char **grown = realloc(*words, sizeof(char *) * (size_t)(*n + 2));
    if (!grown) return -1;
    *words = grown;
    if (!(grown[*n] = strdup(w))) return -1;
    grown[++*n] = NULL;
    return 0;
}

/* The text of OUT/checkpoint.txt (path) with its checksum line checked: a
 * version-2 file must end in a matching sum, a version-1 file has none.  NULL with
 * errno when it cannot be read, or with *damaged set to why it is refused. */
static char *checkpoint_text(const char *path, size_t *n, const char **damaged) {
    int sum_state, version = 0;
    char *text = util_load_checked(path, n, &sum_state);
    *damaged = NULL;
    if (!text) return NULL;
    sscanf(text, "tsumegen-ga-checkpoint %d", &version);
    if (sum_state < 0) *damaged = "its checksum does not match its text";
    else if (sum_state == 0 && version >= 2) *damaged = "its last line, the checksum, is missing";
    if (*damaged) { free(text); return NULL; }
    return text;
}

char **compose_saved_words(const char *out_dir, int *n) {
    char path[4096], line[8192], num[32];
    snprintf(path, sizeof path, "%s/checkpoint.txt", out_dir);
    size_t text_n;
    const char *damaged;
    char **words = NULL, *text = checkpoint_text(path, &text_n, &damaged);
    int fail = 0;
    *n = 0;
    if (!text) return NULL;  /* (load_checkpoint says why) */
    FILE *f = fmemopen(text, text_n ? text_n : 1, "r");
    if (!f) { free(text); return NULL; }
    while (!fail && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        int pop, method, gens;
        if (!strncmp(line, "init ", 5)) {
            fail = add_word(&words, n, "--init") || add_word(&words, n, line + 5);
        } else if (sscanf(line, "pop %d method %d", &pop, &method) == 2) {
            if (method < METHOD_GA_ARCHIVE || method > METHOD_RANDOM) continue;  /* (extend: neither is its option) */
            snprintf(num, sizeof num, "%d", pop);
            fail = add_word(&words, n, "--pop") || add_word(&words, n, num) || add_word(&words, n, "--method") ||
                   add_word(&words, n, method_name(method));
        } else if (sscanf(line, "gens %d", &gens) == 1) {
            snprintf(num, sizeof num, "%d", gens);
            fail = add_word(&words, n, "--gens") || add_word(&words, n, num);
        } else if (!strncmp(line, "options ", 8)) {
            char *vals[N_SAVED];
            if (split_saved(line + 8, vals)) continue;  /* (load_checkpoint names it) */
            for (size_t i = 0; i < N_SAVED && !fail; i++)
                if (SAVED_OPTIONS[i].type != 's' || strcmp(vals[i], "built-in"))
                    fail = add_word(&words, n, SAVED_OPTIONS[i].name) || add_word(&words, n, vals[i]);
        }
    }
    fclose(f);
    free(text);
    if (fail) {
        compose_free_words(words, *n);
        *n = 0;
        return NULL;
    }
    return words ? words : calloc(1, sizeof(char *));
}

void compose_free_words(char **words, int n) {
    for (int i = 0; words && i < n; i++) free(words[i]);
    free(words);
}

int save_checkpoint(const Run *r) {
    char path[4096], *text = NULL;
    size_t n = 0;
    snprintf(path, sizeof path, "%s/checkpoint.txt", r->o->out_dir);
    FILE *f = open_memstream(&text, &n);
    if (!f) return -1;
    fprintf(f, "tsumegen-ga-checkpoint %d\ninit %s\npop %d method %d\ngeneration %d\nrng %llx %llx %llx %llx\n",
            CHECKPOINT_VERSION, r->o->init_sfen, r->o->pop, r->o->method, r->generation,
            (unsigned long long)r->rng.s[0], (unsigned long long)r->rng.s[1], (unsigned long long)r->rng.s[2],
            (unsigned long long)r->rng.s[3]);
    fprintf(f, "gens %d\noptions", r->o->gens);
    for (size_t i = 0; i < N_SAVED; i++) {
        char v[4096];
        saved_value(r->o, &SAVED_OPTIONS[i], v, sizeof v);
        fprintf(f, " %s %s", SAVED_OPTIONS[i].name, v);
    }
    fputc('\n', f);
    fprintf(f, "longest %d written %d\n", r->longest, r->written);
    fprintf(f, "proof %d %d %d %.3f\n", r->proof_checked, r->proof_failed, r->proof_undecided, r->t_proof);
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
    for (int i = 0; i < r->pool.n; i++)
        fprintf(f, "pool_entry %d %d %d %s\n", r->pool.length[i], r->pool.extended[i], r->pool.parent[i], r->pool.sfen.s[i]);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    bad = bad || util_save_checked(path, text, n);  /* (atomic: a crash leaves the previous one) */
    free(text);
    return bad ? -1 : 0;
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

/* The checkpoint's lines (f: its text, checksum checked) into r; 0 or -1 said. */
static int parse_checkpoint(Run *r, FILE *f, const char *path) {
    char line[8192];
    int version = 0, n_ind = 0, pop = 0, method = -1, ok = 1, line_no = 0;
    while (ok && fgets(line, sizeof line, f)) {
        line_no++;
        line[strcspn(line, "\n")] = 0;
        unsigned long long s[4];
        if (sscanf(line, "tsumegen-ga-checkpoint %d", &version) == 1) continue;
        if (!strncmp(line, "init ", 5)) {
            if (strcmp(line + 5, r->o->init_sfen)) return differs(NULL, path, "--init", line + 5, r->o->init_sfen);
            continue;
        }
        if (sscanf(line, "pop %d method %d", &pop, &method) == 2) {
            char was[32], now[32];
            snprintf(was, sizeof was, "%d", pop);
            snprintf(now, sizeof now, "%d", r->o->pop);
            if ((method == METHOD_EXTEND) != (r->o->method == METHOD_EXTEND))
                return differs(NULL, path, "", method == METHOD_EXTEND ? "compose extend" : "compose ga",
                               r->o->method == METHOD_EXTEND ? "compose extend" : "compose ga");
            if (method != r->o->method)
                return differs(NULL, path, "--method", method_name(method), method_name(r->o->method));
            if (pop != r->o->pop) return differs(NULL, path, "--pop", was, now);
            continue;
        }
        if (sscanf(line, "generation %d", &r->generation) == 1) continue;
        int gens;
        if (sscanf(line, "gens %d", &gens) == 1) continue;  /* (for compose_saved_words) */
        /* optional (checkpoints before 2026-11-28 lack it) */
        if (!strncmp(line, "options ", 8)) {
            if (same_options(path, line + 8, r->o)) return -1;
            continue;
        }
        if (sscanf(line, "rng %llx %llx %llx %llx", &s[0], &s[1], &s[2], &s[3]) == 4) {
            for (int i = 0; i < 4; i++) r->rng.s[i] = s[i];
            continue;
        }
        if (sscanf(line, "longest %d written %d", &r->longest, &r->written) == 2) continue;
        /* optional (older checkpoints lack it): the totals for summary.json */
        if (sscanf(line, "stats %lf %lf %lf %lf %lf %lf", &r->screened, &r->verified, &r->t_decode, &r->t_screen,
                   &r->t_verify, &r->seconds0) == 6)
            continue;
        if (sscanf(line, "proof %d %d %d %lf", &r->proof_checked, &r->proof_failed, &r->proof_undecided, &r->t_proof) == 4)
            continue;  /* (optional too) */
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
        } else if (!strncmp(line, "pool_entry ", 11)) {
            int len, ext, parent, at = 0;
            ok = sscanf(line + 11, "%d %d %d %n", &len, &ext, &parent, &at) == 3 && at > 0 && parent < r->pool.n &&
                 extend_pool_add_sfen(&r->pool, line + 11 + at, len, ext, parent) >= 0;
        } else if (!strncmp(line, "pool ", 5)) {  /* (before the fifty-first session: no parents) */
            int len, ext, at = 0;
            ok = sscanf(line + 5, "%d %d %n", &len, &ext, &at) == 2 && at > 0 &&
                 extend_pool_add_sfen(&r->pool, line + 5 + at, len, ext, -1) >= 0;
        } else ok = 0;
    }
    int known = version == CHECKPOINT_VERSION || version == 1;  /* (1: the same lines, no checksum) */
    if (!ok || !known || n_ind != r->o->pop) {
        if (!ok) fprintf(stderr, "tsumegen compose: --resume: %s is damaged (line %d)\n", path, line_no);
        else if (!known)
            fprintf(stderr, "tsumegen compose: --resume: %s is not a checkpoint of version %d\n", path, CHECKPOINT_VERSION);
        else fprintf(stderr, "tsumegen compose: --resume: %s is damaged (%d individuals for --pop %d)\n", path, n_ind, r->o->pop);
        return -1;
    }
    return 0;
}

int load_checkpoint(Run *r) {
    char path[4096];
    snprintf(path, sizeof path, "%s/checkpoint.txt", r->o->out_dir);
    size_t text_n;
    const char *damaged;
    char *text = checkpoint_text(path, &text_n, &damaged);
    if (damaged) {
        fprintf(stderr, "tsumegen compose: --resume: %s is damaged (%s): start the run again or restore a copy\n", path, damaged);
        return -1;
    }
    if (!text) { fprintf(stderr, "tsumegen compose: --resume: cannot open %s: %s\n", path, strerror(errno)); return -1; }
    FILE *f = fmemopen(text, text_n ? text_n : 1, "r");
    if (!f) { free(text); return -1; }
    int rc = parse_checkpoint(r, f, path);
    fclose(f);
    free(text);
    return rc;
}

/* An undecided mate (no flaw found, a limit stopped the exact length or a 余詰
 * test) may be a perfect problem that needs more nodes: kept once per board in
 * undecided.jsonl, for a longer verification later (`tsumegen solve`). */
void write_undecided(Run *r, const Child *c) {
    char key[SFEN_MAX], sfen[SFEN_MAX];
    compose_canonical(&c->pos, key, sizeof key);
    if (keys_has(&r->undecided_keys, key)) return;
    keys_add(&r->undecided_keys, key);
    sfen_format(&c->pos, sfen, sizeof sfen);
    const Verdict *v = c->v;
    fprintf(r->undecided, "{\"sfen\":\"%s\",\"length_lb\":%d,\"length_ub\":%d,\"length_exact\":%s,",
            sfen, v->length, v->length_ub, v->length_exact ? "true" : "false");
    if (v->length_exact && v->pv_len == v->length) /* the main line is known: a 余詰 test was left open */
        write_pv(r->undecided, "pv", v);
    else if (!v->length_exact && v->pv_len > 0)  /* a mate found, the shortest not proved */
        write_pv(r->undecided, "mate_line", v);
    fprintf(r->undecided, "\"nodes\":%llu,\"generation\":%d,\"seed\":%llu}\n", (unsigned long long)c->node_limit,
            r->generation, (unsigned long long)r->o->seed);
    fflush(r->undecided);
}

/* A perfect verdict the proof check did not pass (held back from problems.jsonl):
 * kept in undecided.jsonl with the check's result and message, so that nothing
 * found is lost (`tsumegen solve --verify` reads the line back). */
void write_unproved(Run *r, const Position *pos, const Verdict *v, const char *check, const char *msg) {
    char sfen[SFEN_MAX];
    sfen_format(pos, sfen, sizeof sfen);
    fprintf(r->undecided, "{\"sfen\":\"%s\",\"length_lb\":%d,\"length_ub\":%d,\"length_exact\":%s,"
                          "\"generation\":%d,\"seed\":%llu,\"proof_check\":\"%s\",\"proof_msg\":",
            sfen, v->length, v->length_ub, v->length_exact ? "true" : "false", r->generation,
            (unsigned long long)r->o->seed, check);
    util_json_str(r->undecided, msg);
    fputs("}\n", r->undecided);
    fflush(r->undecided);
}

uint64_t retry_budget(const ComposeOptions *o) {
    return o->retry_nodes ? o->retry_nodes : 10 * o->node_limit;
}

/* The run's summary: printed at the end and written to OUT/summary.json.  Counts
 * and seconds cover the whole run, earlier sessions of a --resume included. */
void print_summary(FILE *f, const Run *r, double seconds, int interrupted) {
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
               "\"retry_nodes\":%llu,\"repair\":%d,\"repair_tries\":%d,\"repair_depth\":%d,\"extend\":%d,"
               "\"extend_tries\":%d,\"device\":",
            (unsigned long long)o->seed, o->pop, o->gens, method_name(o->method), (unsigned long long)o->node_limit, o->retry,
            (unsigned long long)retry_budget(o), o->repair, o->repair_tries, o->repair_depth, o->extend, o->extend_tries);
    util_json_str(f, r->device);
    fprintf(f, ",\"screened\":%.0f,\"verified\":%.0f,\"decode_s\":%.3f,\"screen_s\":%.3f,\"verify_s\":%.3f,"
               "\"proof_checked\":%d,\"proof_failed\":%d,\"proof_undecided\":%d,\"proof_s\":%.3f}\n",
            r->screened, r->verified, r->t_decode, r->t_screen, r->t_verify, r->proof_checked, r->proof_failed,
            r->proof_undecided, r->t_proof);
}

int write_summary(const Run *r, double seconds, int interrupted) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/summary.json", r->o->out_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    print_summary(f, r, seconds, interrupted);
    int bad = ferror(f);
    if (fclose(f) || bad) return -1;
    return rename(tmp, path);
}
