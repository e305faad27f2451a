/* cmd_screen.c - `tsumegen screen`, `tsumegen devices` and `tsumegen bench screen`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "cli.h"
#include "ocl.h"
#include "screen.h"
#include "sfen.h"
#include "util.h"

const char USAGE_SCREEN[] =
    "usage: tsumegen screen [--device D] [--points FILE] [--threads N] [--cl-threads N]\n"
    "                       [--no-mate3] [--no-futile] [--strict-hands] [--batch N] [--verbose] < boards\n"
    "       tsumegen screen --verify N [--seed S] [--mate3-every K] [--device D] ...\n"
    "Reads one SFEN per line and writes one JSON line per board, in order:\n"
    "  {\"legal\":bool,\"reason\":\"..\",\"checks\":N,\"mate1\":[usi..],\"mate3\":bool,\"points\":x,\n"
    "   \"futile_mate1\":[usi..]}\n"
    "legal/reason: TSUME_RULES.md legality; reason is one of ok, sfen (malformed line),\n"
    "  two_kings, too_many_pieces, no_defender_king, dead_piece, nifu, defender_in_check.\n"
    "checks: the attacker's (side to move's) legal checking moves.\n"
    "mate1: every plain-rule mate-in-1 (no legal reply remains; pawn-drop mate excluded).\n"
    "mate3: mate within 3 plies under the plain rule (true when mate1 is not empty):\n"
    "  every legal drop counts as a defence, futile ones (無駄合) too, so mate3 can miss a\n"
    "  mate that needs a futile drop ignored but never claims a false one.  null with --no-mate3.\n"
    "futile_mate1: checks that are not in mate1 but mate under the tsume rule because every\n"
    "  reply left is a drop between king and checker that the attacker can capture with\n"
    "  mate (無駄合, 合い効かず; chains of such drops up to 7 deep, bounded work; may miss one,\n"
    "  never lists a non-mate).  null with --no-futile.\n"
    "points: tsume points (seeds/002), a linear function of the board around the\n"
    "  defender's king; weights from FILE (format in data/points_default.txt; default: the\n"
    "  built-in copy of that file, also named builtin:hand; builtin:learned is the built-in\n"
    "  data/points_learned.txt of `tsumegen points learn`).  Illegal boards give checks 0,\n"
    "  mate1 [], mate3 false, points 0.\n"
    "Device: D is auto (GPU, else an OpenCL CPU device such as pocl), gpu, cpu, a number\n"
    "  from `tsumegen devices`, part of a device name, or omp (no OpenCL); default\n"
    "  $TSUMEGEN_DEVICE or auto.  Without an OpenCL platform the OpenMP path runs (said once).\n"
    "  The kernel (embedded in the binary) is built once per device and driver and cached in\n"
    "  $TSUMEGEN_CACHE_DIR (default ~/.cache/tsumegen; 'off' disables); at start-up it is\n"
    "  checked against the CPU reference, and on any difference the OpenMP path is used.\n"
    "  GPUs of OpenCL 2.0+ get the tables in global memory (OpenCL C 1.2 with __constant\n"
    "  tables if that build fails); $TSUMEGEN_CL_OPTIONS adds build options (e.g.\n"
    "  -cl-nv-maxrregcount=128); $TSUMEGEN_GEN_SPLIT=0/1 picks one or two passes for\n"
    "  --generate (default: two on GPUs).\n"
    "--threads N: OpenMP threads; --cl-threads N: pocl's threads (sets POCL_MAX_PTHREAD_COUNT\n"
    "  for pocl 3 and POCL_CPU_MAX_CU_COUNT for pocl 4+).\n"
    "--verify N: screens N random tsume-like boards on the device and with the one-thread\n"
    "  CPU reference and counts results that differ in any bit (a second pass with mate3\n"
    "  and futile_mate1 on every K-th board, default 1); last line 'verify: N boards, M mismatches'.\n"
    "       tsumegen screen --generate N [--seed S] [--start K] [--min-points P] [--unique-mate1]\n"
    "                       [--max-kept M] [--device D] ...\n"
    "--generate N: candidates made where they are screened (no input): boards K .. K+N-1 of the\n"
    "  stream S (default S 1, K 0), each made from (S, index) alone by core/gen.c (tsume-like: a\n"
    "  defender king, 1-8 pieces near it, 0-5 attacker pieces in hand), screened on the device\n"
    "  (validity, checks, mate1, points; nothing but counters and indices crosses the bus),\n"
    "  and kept when legal, with points >= P (default: any) and a check, or with exactly one\n"
    "  mate-in-1 (--unique-mate1).  Prints one JSON line per kept board, in index order:\n"
    "  {\"index\":i,\"sfen\":..., then the fields above}, at most M lines (default 100000);\n"
    "  a summary on stderr.  The same S and index give the same board on every device.  Lines\n"
    "  are printed as each block of 2^26 boards ends; Ctrl-C stops after the block in flight and\n"
    "  says the --start to resume from (exit 130).\n";

const char USAGE_DEVICES[] =
    "usage: tsumegen devices\n"
    "Lists the OpenCL devices (index, type, platform: name, version, driver) that\n"
    "`tsumegen screen --device` can choose from.\n";

int cmd_devices(int argc, char **argv) {
    (void)argv;
    if (argc > 1) return cli_error("devices", "no arguments expected");
    ocl_list_devices(stdout);
    return EXIT_OK;
}

typedef struct {
    const char *device, *points;
    int threads, flags, verbose;
    long long batch, verify, mate3_every, gen_boards, generate, max_kept, start;
    int local_sweep, gen_only, unique_mate1;
    int32_t min_points;
    unsigned long long seed;
} ScreenArgs;

/* Options shared by screen and bench screen; returns 0, or EXIT_USAGE. */
static int parse_screen_args(const char *cmd, int argc, char **argv, ScreenArgs *a) {
    memset(a, 0, sizeof *a);
    a->flags = SC_DO_MATE3 | SC_DO_FUTILE;
    a->mate3_every = 1;
    a->seed = 1;
    a->min_points = INT32_MIN;
    a->max_kept = 100000;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x = 0;  /* (as in cmd_compose: quiets -O3's maybe-uninitialized) */
        if (!strcmp(s, "--device")) { if (!v) return cli_error(cmd, "--device needs a value"); a->device = v; i++; }
        else if (!strcmp(s, "--points")) { if (!v) return cli_error(cmd, "--points needs a file"); a->points = v; i++; }
        else if (!strcmp(s, "--threads")) { if (cli_parse_int(cmd, s, v, 1, 1024, &x)) return EXIT_USAGE; a->threads = (int)x; i++; }
        else if (!strcmp(s, "--cl-threads")) {
            if (cli_parse_int(cmd, s, v, 1, 1024, &x)) return EXIT_USAGE;
            ocl_set_cl_threads((int)x);
            i++;
        }
        else if (!strcmp(s, "--batch")) { if (cli_parse_int(cmd, s, v, 1, 1 << 22, &a->batch)) return EXIT_USAGE; i++; }
        else if (!strcmp(s, "--verify") || !strcmp(s, "--boards")) { if (cli_parse_int(cmd, s, v, 1, 100000000, &a->verify)) return EXIT_USAGE; i++; }
        else if (!strcmp(s, "--gen-boards")) { if (cli_parse_int(cmd, s, v, 1, 2000000000LL, &a->gen_boards)) return EXIT_USAGE; i++; }
        else if (!strcmp(s, "--generate")) { if (cli_parse_int(cmd, s, v, 1, 4000000000000LL, &a->generate)) return EXIT_USAGE; i++; }
        else if (!strcmp(s, "--start")) { if (cli_parse_int(cmd, s, v, 0, 0x7fffffffffffLL, &a->start)) return EXIT_USAGE; i++; }
        else if (!strcmp(s, "--max-kept")) { if (cli_parse_int(cmd, s, v, 1, 100000000LL, &a->max_kept)) return EXIT_USAGE; i++; }
        else if (!strcmp(s, "--min-points")) {
            double p = 0;
            if (cli_parse_real(cmd, s, v, -1e6, 1e6, &p)) return EXIT_USAGE;
            a->min_points = (int32_t)(p * 1000 + (p < 0 ? -0.5 : 0.5));
            i++;
        }
        else if (!strcmp(s, "--unique-mate1")) a->unique_mate1 = 1;
        else if (!strcmp(s, "--local-sweep")) a->local_sweep = 1;
        else if (!strcmp(s, "--gen-only")) a->gen_only = 1;
        else if (!strcmp(s, "--mate3-every")) { if (cli_parse_int(cmd, s, v, 1, 1000000, &a->mate3_every)) return EXIT_USAGE; i++; }
        else if (!strcmp(s, "--seed")) { if (cli_parse_int(cmd, s, v, 0, 0x7fffffffL, &x)) return EXIT_USAGE; a->seed = (unsigned long long)x; i++; }
        else if (!strcmp(s, "--no-mate3")) a->flags &= ~SC_DO_MATE3;
        else if (!strcmp(s, "--no-futile")) a->flags &= ~SC_DO_FUTILE;
        else if (!strcmp(s, "--strict-hands")) a->flags |= SC_STRICT_HANDS;
        else if (!strcmp(s, "--verbose")) a->verbose = 1;
        else return cli_error(cmd, "unknown option '%s' (see tsumegen %s --help)", s, cmd);
    }
    return 0;
}

/* Opens the device per a->device; NULL means the OpenMP path (said once on stderr
 * unless the user asked for omp).  *fatal is set when an explicit device failed. */
static OclScreen *open_device(const char *cmd, const ScreenArgs *a, const int32_t *w, size_t batch, int *fatal) {
    return ocl_screen_open_cmd(cmd, a->device, w, batch, a->threads,
                               OCL_SAY_FALLBACK | (a->verbose ? OCL_SAY_DEVICE : 0) | (a->gen_only ? OCL_GEN_ONLY : 0), fatal);
}

static int run_verify(const ScreenArgs *a, const int32_t *w) {
    size_t n = (size_t)a->verify;
    int fatal;
    ScBoard *b = malloc(n * sizeof *b);
    ScResult *r = malloc(n * sizeof *r), *ref = malloc(n * sizeof *ref);
    OclScreen *s = NULL;
    size_t mism = 0, legal = 0, mates = 0, m3 = 0;
    int status = EXIT_USAGE;
    if (!b || !r || !ref) { cli_error("screen", "out of memory for %zu boards", n); goto out; }
    screen_random_boards(b, n, a->seed);
    s = open_device("screen", a, w, a->batch ? (size_t)a->batch : 0, &fatal);
    if (fatal) goto out;
    const char *dev = s ? ocl_screen_device(s) : "OpenMP";
    double t_dev = 0, t_ref = 0;
    /* pass 1: every board without mate3; pass 2: every K-th board with mate3 */
    for (int pass = 0; pass < 2; pass++) {
        size_t step = pass ? (size_t)a->mate3_every : 1, m = (n + step - 1) / step;
        int flags = (a->flags & SC_STRICT_HANDS) | (pass ? a->flags & (SC_DO_MATE3 | SC_DO_FUTILE) : 0);
        if (pass && !(flags & (SC_DO_MATE3 | SC_DO_FUTILE))) break;
        if (pass && step > 1)
            for (size_t i = 0; i < m; i++) b[i] = b[i * step];
        double t0 = util_now();
        if (s ? ocl_screen_run(s, b, r, m, flags) : (screen_cpu(b, r, m, w, flags, a->threads), 0)) {
            cli_error("screen", "%s", ocl_screen_error(s));
            goto out;
        }
        double t1 = util_now();
        screen_cpu(b, ref, m, w, flags, 1);
        double t2 = util_now();
        t_dev += t1 - t0;
        t_ref += t2 - t1;
        for (size_t i = 0; i < m; i++) {
            if (memcmp(&r[i], &ref[i], sizeof *r)) {
                if (mism < 5) {
                    fprintf(stderr, "MISMATCH board %zu (pass %d): device reason %d checks %d mate1 %d mate3 %d points %d;"
                            " reference reason %d checks %d mate1 %d mate3 %d points %d\n", i * step, pass,
                            r[i].reason, r[i].checks, r[i].n_mate1, r[i].mate3, r[i].points,
                            ref[i].reason, ref[i].checks, ref[i].n_mate1, ref[i].mate3, ref[i].points);
                }
                mism++;
            }
            if (!pass) { legal += ref[i].reason == SC_OK; mates += ref[i].n_mate1 > 0; }
            else m3 += ref[i].mate3;
        }
        if (pass) printf("mate3 pass: %zu boards, %zu mate within 3\n", m, m3);
    }
    printf("device %s: %.2f s; reference (1 thread): %.2f s; %zu legal, %zu with mate-in-1\n", dev, t_dev, t_ref, legal, mates);
    printf("verify: %zu boards, %zu mismatches\n", n, mism);
    status = mism ? EXIT_FAIL : EXIT_OK;
out:
    ocl_screen_close(s);
    free(b); free(r); free(ref);
    return status;
}

/* Prints kept board `index` of stream seed: made again and screened on the CPU
 * with the full flags (the same core code as the device), with its SFEN. */
static void print_generated(uint64_t seed, uint64_t index, const int32_t *w, int flags) {
    ScBoard b;
    ScResult r;
    Position pos;
    char sfen[SFEN_MAX], *line = NULL;
    size_t len = 0;
    sc_gen_board(seed, index, &b);
    sc_screen(&b, &r, w, flags);
    sc_setup(&b, &pos, flags & SC_STRICT_HANDS);
    sfen_format(&pos, sfen, sizeof sfen);
    printf("{\"index\":%llu,\"sfen\":\"%s\",", (unsigned long long)index, sfen);
    /* the screen fields, as `screen` prints them, without their opening brace */
    FILE *m = open_memstream(&line, &len);
    screen_print_json(m, &b, &r, flags);
    fclose(m);
    fputs(line + 1, stdout);
    free(line);
}

static volatile sig_atomic_t gen_interrupted;
static void gen_on_sigint(int sig) { (void)sig; gen_interrupted = 1; }

/* --generate: a stream of candidates made and screened on the device (core/gen.h),
 * in blocks whose kept boards are printed as each block ends (index order), so
 * Ctrl-C loses at most the block in flight and the summary names the index to
 * resume from. */
static int run_generate(const ScreenArgs *a, const int32_t *w) {
    int fatal;
    ScreenArgs ga = *a;
    ga.gen_only = 1;
    OclScreen *s = open_device("screen", &ga, w, 0, &fatal);
    if (fatal) return EXIT_USAGE;
    size_t cap = (size_t)a->max_kept, printed = 0;
    uint64_t *kept = malloc(cap * sizeof *kept);
    if (!kept) {
        ocl_screen_close(s);
        return cli_error("screen", "out of memory for --max-kept %zu boards", cap);
    }
    ScGenStats tot = {0, 0, 0, 0};
    const uint64_t block = (uint64_t)1 << (s ? 26 : 22);
    uint64_t n = (uint64_t)a->generate, done = 0;
    int progress = isatty(2) && n > block, status = EXIT_OK;
    double t0 = util_now();
    gen_interrupted = 0;
    struct sigaction old;
    util_catch_sigint(gen_on_sigint, 1, &old);
    while (done < n && !gen_interrupted) {
        ScGenJob job = {a->seed, (uint64_t)a->start + done, (size_t)(n - done < block ? n - done : block), 0,
                        a->unique_mate1 ? SC_KEEP_UNIQUE_MATE1 : SC_KEEP_CHECK, a->min_points};
        ScGenStats st;
        size_t room = cap - printed;
        if (s) {
            if (ocl_screen_gen(s, &job, 0, NULL, kept, room, &st)) { status = cli_error("screen", "%s", ocl_screen_error(s)); break; }
        } else {
            screen_gen_cpu(&job, w, a->threads, NULL, kept, room, &st);
        }
        size_t got = st.kept < room ? (size_t)st.kept : room;
        for (size_t i = 0; i < got; i++) print_generated(a->seed, kept[i], w, a->flags);
        fflush(stdout);
        printed += got;
        tot.boards += st.boards; tot.legal += st.legal; tot.mate1 += st.mate1; tot.kept += st.kept;
        done += job.n;
        if (progress)
            fprintf(stderr, "\rscreen: %llu/%llu boards, %llu kept", (unsigned long long)done, (unsigned long long)n,
                    (unsigned long long)tot.kept);
    }
    util_restore_sigint(&old);
    double dt = util_now() - t0;
    if (progress) fputc('\n', stderr);
    fprintf(stderr, "screen: generated %llu boards (seed %llu, from %lld) on %s in %.2f s: %llu legal, %llu with mate-in-1, "
            "%llu kept%s\n", (unsigned long long)tot.boards, (unsigned long long)a->seed, a->start,
            s ? ocl_screen_device(s) : "OpenMP", dt, (unsigned long long)tot.legal, (unsigned long long)tot.mate1,
            (unsigned long long)tot.kept, tot.kept > printed ? " (only the first --max-kept printed)" : "");
    if (done < n)
        fprintf(stderr, "screen: %s before the end: resume with --start %llu --generate %llu\n",
                gen_interrupted ? "interrupted" : "stopped", (unsigned long long)a->start + done,
                (unsigned long long)(n - done));
    if (gen_interrupted && status == EXIT_OK) status = 130;
    ocl_screen_close(s);
    free(kept);
    return status;
}

static void print_batch(const ScBoard *b, ScResult *r, const unsigned char *bad, size_t n, int flags) {
    for (size_t i = 0; i < n; i++) {
        if (bad[i]) {
            memset(&r[i], 0, sizeof r[i]);
            r[i].reason = SC_SFEN;
            r[i].flags = (uint8_t)(((flags & SC_DO_MATE3) ? SC_FLAG_MATE3 : 0) | ((flags & SC_DO_FUTILE) ? SC_FLAG_FUTILE : 0));
        }
        screen_print_json(stdout, &b[i], &r[i], flags);
    }
}

int cmd_screen(int argc, char **argv) {
    ScreenArgs a;
    if (parse_screen_args("screen", argc, argv, &a)) return EXIT_USAGE;
    int32_t *w = malloc(SC_W_NB * sizeof *w);
    char err[ERR_MAX + 300];
    if (!w) return cli_error("screen", "out of memory");
    if (points_load(a.points, w, err, sizeof err)) { free(w); return cli_error("screen", "%s", err); }
#ifdef _OPENMP
    if (a.threads) omp_set_num_threads(a.threads);
#endif
    if (a.verify) { int rc = run_verify(&a, w); free(w); return rc; }
    if (a.generate) { int rc = run_generate(&a, w); free(w); return rc; }
    size_t batch = a.batch ? (size_t)a.batch : 16384;
    int fatal;
    OclScreen *s = open_device("screen", &a, w, batch, &fatal);
    ScBoard *b[2];
    ScResult *r[2];
    unsigned char *bad[2];
    int status = fatal ? EXIT_USAGE : EXIT_OK, eof = fatal;
    for (int i = 0; i < 2; i++) {
        b[i] = malloc(batch * sizeof(ScBoard));
        r[i] = malloc(batch * sizeof(ScResult));
        bad[i] = malloc(batch);
        if (!eof && (!b[i] || !r[i] || !bad[i])) {
            status = cli_error("screen", "out of memory for batches of %zu", batch);
            eof = 1;
        }
    }
    size_t cnt[2] = {0, 0};
    int slot = 0, pending[2] = {0, 0};
    char line[4096];
    while (!eof) {
        size_t n = 0;
        while (n < batch) {
            if (!cli_read_line(stdin, line, sizeof line)) { eof = 1; break; }
            bad[slot][n] = line[0] == '\x01' || screen_parse_sfen(line, &b[slot][n]) != 0;
            n++;
        }
        cnt[slot] = n;
        if (n) {
            if (s) {
                if (ocl_screen_submit(s, slot, b[slot], n, a.flags)) { status = cli_error("screen", "%s", ocl_screen_error(s)); break; }
                pending[slot] = 1;
            } else {
                screen_cpu(b[slot], r[slot], n, w, a.flags, 0);
            }
        }
        int other = slot ^ 1;
        if (pending[other]) {  /* the previous batch finished while this one was read */
            if (ocl_screen_wait(s, other, r[other])) { status = cli_error("screen", "%s", ocl_screen_error(s)); break; }
            pending[other] = 0;
            print_batch(b[other], r[other], bad[other], cnt[other], a.flags);
        }
        if (n && !s) print_batch(b[slot], r[slot], bad[slot], n, a.flags);
        slot = other;
    }
    for (int k = 0; k < 2 && status == EXIT_OK; k++) {
        int i = slot ^ k;  /* older first */
        if (!pending[i]) continue;
        if (ocl_screen_wait(s, i, r[i])) { status = cli_error("screen", "%s", ocl_screen_error(s)); break; }
        print_batch(b[i], r[i], bad[i], cnt[i], a.flags);
    }
    fflush(stdout);
    ocl_screen_close(s);
    for (int i = 0; i < 2; i++) { free(b[i]); free(r[i]); free(bad[i]); }
    free(w);
    return status;
}

/* ---- bench screen ------------------------------------------------------ */

/* CPU seconds of the whole process (every thread, pocl's included). */
static double cpu_sec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Median seconds of `repeat` timed runs after one warm-up; -1 on a device error. */
static double time_gen(OclScreen *s, const ScGenJob *job, const int32_t *w, int threads, size_t local,
                       uint32_t *digest, ScGenStats *st) {
    enum { REPEAT = 3 };
    double t[REPEAT];
    for (int k = 0; k <= REPEAT; k++) {
        double t0 = util_now();
        if (s) {
            if (ocl_screen_gen(s, job, local, digest, NULL, 0, st)) return -1;
        } else {
            screen_gen_cpu(job, w, threads, digest, NULL, 0, st);
        }
        if (k) t[k - 1] = util_now() - t0;
    }
    qsort(t, REPEAT, sizeof t[0], cmp_double);
    return t[REPEAT / 2];
}

/* Candidates generated where they are screened (core/gen.h): nothing crosses
 * the bus but 4-byte digests (the "digests" column, used to check every board
 * of the CPU runs bit for bit) or nothing but counters (the "kept" column, what
 * a composer streaming candidates needs).  The device runs gen_n boards, the CPU
 * paths n (the first n of the same stream). */
static int bench_gen(const ScreenArgs *a, OclScreen *s, const int32_t *w, size_t n, int nt) {
    size_t gn = s ? (a->gen_boards ? (size_t)a->gen_boards : 16 * n) : n;
    uint32_t *d[3];
    for (int i = 0; i < 3; i++) d[i] = malloc((i == 2 ? gn : n) * sizeof(uint32_t));
    printf("generated on the device: boards made from (seed, index) where they are screened; CPU paths %zu boards, "
           "device %zu\n", n, gn);
    static const char *const MODE[2] = {"gen+validity+mate1+pts", "gen + mate3"};
    static const int MODE_FLAGS[2] = {0, SC_DO_MATE3};
    int status = 0;
    for (int mode = 0; mode < ((a->flags & SC_DO_MATE3) ? 2 : 1); mode++) {  /* --no-mate3: the first row only */
        size_t m = mode ? n / 10 : n, gm = mode ? gn / 10 : gn;
        ScGenJob job = {a->seed, 0, m, MODE_FLAGS[mode], SC_KEEP_CHECK, 0};
        ScGenStats st[3];
        double t1 = time_gen(NULL, &job, w, 1, 0, d[0], &st[0]);
        double tb = time_gen(NULL, &job, w, nt, 0, d[1], &st[1]);
        double tc = 0, tk = 0, ra, rb, rc = 0, rk = 0;
        size_t mism = 0;
        if (s) {
            job.n = gm;
            tc = time_gen(s, &job, w, 0, 0, d[2], &st[2]);
            tk = tc < 0 ? -1 : time_gen(s, &job, w, 0, 0, NULL, &st[2]);
            if (tc < 0 || tk < 0) { fprintf(stderr, "tsumegen bench: %s\n", ocl_screen_error(s)); status = -1; break; }
            rc = gm / tc;
            rk = gm / tk;
        }
        ra = m / t1;
        rb = m / tb;
        int split = s ? ocl_screen_gen_split(s) : 0;
        double to = 0;
        if (s) {  /* the other pass structure, for the ratio (same results: the self-test checks both) */
            ocl_screen_gen_set_split(s, !split);
            to = time_gen(s, &job, w, 0, 0, NULL, &st[2]);
            ocl_screen_gen_set_split(s, split);
        }
        for (size_t i = 0; i < m; i++) mism += d[0][i] != d[1][i] || (s && d[0][i] != d[2][i]);
        printf("%-22s (a) %10.0f  (b) %10.0f  (c) %10.0f digests  %10.0f kept boards/s   b/a %.2f  c/b %.2f (kept %.2f)"
               "   mismatches %zu\n", MODE[mode], ra, rb, rc, rk, rb / ra, rc / rb, rk / rb, mism);
        printf("%-22s     legal %.3f, with mate-in-1 %.4f, with a check (kept) %.3f\n", "",
               (double)st[1].legal / m, (double)st[1].mate1 / m, (double)st[1].kept / m);
        if (s)
            printf("%-22s     device: %s (the default here) %.0f kept boards/s, %s %.0f (ratio %.2f); program built or"
                   " loaded in %.2f s\n", "", split ? "two passes" : "one pass", rk, split ? "one pass" : "two passes",
                   to > 0 ? gm / to : 0, to > 0 ? rk / (gm / to) : 0, ocl_screen_gen_build_seconds(s));
        if (mism) status = -1;
        /* work-group sizes, on the device only (no rebuild: the size is a launch parameter) */
        if (s && !mode && a->local_sweep) {
            printf("%-22s     kept boards/s by work-group size:", "");
            static const size_t LOCAL[] = {64, 128, 192, 256, 384};
            for (int k = 0; k < 5; k++) {
                double t = time_gen(s, &job, w, 0, LOCAL[k], NULL, &st[2]);
                if (t < 0) { printf(" %zu: %s", LOCAL[k], ocl_screen_error(s)); continue; }
                printf("  %zu: %.0f", LOCAL[k], gm / t);
            }
            printf("\n");
        }
    }
    for (int i = 0; i < 3; i++) free(d[i]);
    return status;
}

int bench_screen(int argc, char **argv) {
    ScreenArgs a;
    if (parse_screen_args("bench", argc, argv, &a)) return EXIT_USAGE;
    int repeat = 3;
    size_t n = a.verify ? (size_t)a.verify : 1000000, n3 = n / 10;
    int32_t *w = malloc(SC_W_NB * sizeof *w);
    char err[ERR_MAX + 300];
    ScBoard *b = malloc(n * sizeof *b);
    ScResult *r[3];
    for (int i = 0; i < 3; i++) r[i] = malloc(n * sizeof(ScResult));
    OclScreen *s = NULL;
    int status = EXIT_USAGE, fatal;
    if (!w || !b || !r[0] || !r[1] || !r[2]) { cli_error("bench", "out of memory for %zu boards", n); goto out; }
    if (points_load(a.points, w, err, sizeof err)) { cli_error("bench", "%s", err); goto out; }
    screen_random_boards(b, n, a.seed);
    s = open_device("bench", &a, w, a.batch ? (size_t)a.batch : 0, &fatal);
    if (fatal) goto out;
#ifdef _OPENMP
    int nt = a.threads ? a.threads : omp_get_max_threads();
#else
    int nt = 1;
#endif
    printf("bench screen: %zu random tsume-like boards (seed %llu); mate3 and futile_mate1 on the first %zu\n", n, a.seed, n3);
    printf("paths: (a) C reference, 1 thread; (b) OpenMP, %d threads; (c) OpenCL %s\n", nt, s ? ocl_screen_device(s) : "(none)");
    static const char *const MODE[3] = {"validity+mate1+points", "+ mate3", "+ futile_mate1"};
    static const int MODE_FLAGS[3] = {0, SC_DO_MATE3, SC_DO_FUTILE};
    status = EXIT_OK;
    for (int mode = 0; mode < (a.gen_only ? 0 : 3); mode++) {
        size_t m = mode ? n3 : n;
        int flags = (a.flags & SC_STRICT_HANDS) | MODE_FLAGS[mode];
        double rate[3] = {0, 0, 0}, cpu_rate[3] = {0, 0, 0};
        for (int path = 0; path < 3; path++) {
            if (path == 2 && !s) continue;
            double t[10], cpu = 0;
            for (int k = 0; k <= repeat; k++) {  /* k = 0 is the warm-up */
                double t0 = util_now(), c0 = cpu_sec();
                if (path == 2) {
                    if (ocl_screen_run(s, b, r[2], m, flags)) { status = cli_error("bench", "%s", ocl_screen_error(s)); goto out; }
                } else {
                    screen_cpu(b, r[path], m, w, flags, path == 0 ? 1 : nt);
                }
                if (k) t[k - 1] = util_now() - t0, cpu += cpu_sec() - c0;
            }
            qsort(t, (size_t)repeat, sizeof t[0], cmp_double);
            rate[path] = m / t[repeat / 2];
            cpu_rate[path] = cpu > 0 ? m * (double)repeat / cpu : 0;
        }
        size_t mism = 0;
        for (size_t i = 0; i < m; i++)
            for (int path = 1; path < 3; path++)
                if ((path < 2 || s) && memcmp(&r[0][i], &r[path][i], sizeof(ScResult))) { mism++; break; }
        printf("%-22s (a) %10.0f  (b) %10.0f  (c) %10.0f boards/s   b/a %.2f  c/b %.2f  c/a %.2f   mismatches %zu\n",
               MODE[mode], rate[0], rate[1], rate[2], rate[1] / rate[0], rate[2] / rate[1], rate[2] / rate[0], mism);
        printf("%-22s     %10.0f      %10.0f      %10.0f boards per process CPU-second\n", "",
               cpu_rate[0], cpu_rate[1], cpu_rate[2]);
        if (mism) status = EXIT_FAIL;
    }
    if (bench_gen(&a, s, w, n, nt)) status = EXIT_FAIL;
out:
    ocl_screen_close(s);
    for (int i = 0; i < 3; i++) free(r[i]);
    free(b); free(w);
    return status;
}
