/* cmd_bench.c - speed figures.  Timings are for benchmarks/RESULTS.md, never
 * asserted in tests; the node counts double as a signature that CI checks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "dfpn.h"
#include "perft.h"
#include "util.h"

const char USAGE_BENCH[] =
    "usage: tsumegen bench [perft] [--repeat N]\n"
    "perft: single-thread perft 5 from the initial position and perft 3 from a\n"
    "207-move middle-game position; prints seconds and nodes/s (best of N runs,\n"
    "default 3) and a final 'signature' line (total nodes) that must not change.\n"
    "usage: tsumegen bench screen [--boards N] [--device D] [--threads N] [--cl-threads N] [--seed S]\n"
    "                             [--gen-boards N] [--gen-only] [--local-sweep] [--no-mate3] [--verbose]\n"
    "screen: boards/s of `tsumegen screen` on N (default 1,000,000) random tsume-like boards\n"
    "for (a) the C reference on one thread, (b) OpenMP on --threads (default all), (c) the\n"
    "OpenCL device, with their ratios and a bit-for-bit mismatch count; rows: validity+\n"
    "mate1+points, + mate3 and + futile_mate1 (these two on N/10 boards).  Median of 3 runs\n"
    "after a warm-up.  --cl-threads N caps pocl's threads (POCL_MAX_PTHREAD_COUNT, pocl 4+: POCL_CPU_MAX_CU_COUNT).\n"
    "Then the generated streams (`screen --generate`: boards made on the device): --gen-boards\n"
    "on the device per row (default 16 x --boards; the CPU paths run the first --boards of\n"
    "the same stream), one and two passes, digests and kept indices, checked\n"
    "against the CPU; --gen-only skips the upload rows, --local-sweep adds work-group sizes,\n"
    "--no-mate3 the first row only.\n"
    "usage: tsumegen bench solve [--count N] [--threads N] [--peer CMD] [--variations]\n"
    "solve: the exact solver on the first N (default 1000) ShogiBoardQ problems of each set\n"
    "(data/third_party/shogiboardq), one thread and all threads, without and with the flaw analysis.\n"
    "--peer CMD: also runs the shell command CMD on the same problems (their lines on its stdin;\n"
    "it prints one JSON line each with \"result\", \"nodes\" and \"ms\", as\n"
    "benchmarks/peers/osl_dfpn does) and prints its row and the one-thread ratios\n"
    "exact/peer and full/peer of the search times each reports (benchmarks/peer_solve.sh).\n"
    "--variations: a row more per set, one thread: full + solve --variations (the wall time\n"
    "includes them; ms/problem and nodes are the problems' own searches).\n"
    "usage: tsumegen bench confirm [--count N] [--nodes N]\n"
    "confirm: the composer's unbounded 余詰 confirmation (\"any mate at all?\", plain rule) on\n"
    "the first N (default 60) of data/composer/hard_alternatives.txt, one thread, --nodes\n"
    "per search (default 2,000,000), with epsilon 1/4 (what the composer runs) and 1 (what\n"
    "it ran before): settled, nodes, seconds and the ratios.\n";

static const struct { const char *name, *sfen; int depth; } PERFT_BENCH[] = {
    {"startpos", SFEN_STARTPOS, 5},
    {"middle207", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 3},
};

static int bench_perft(int repeat) {
    uint64_t signature = 0;
    for (size_t i = 0; i < sizeof PERFT_BENCH / sizeof PERFT_BENCH[0]; i++) {
        Position pos;
        char err[ERR_MAX];
        if (sfen_parse(PERFT_BENCH[i].sfen, &pos, 0, err, sizeof err)) return cli_error("bench", "%s", err);
        double best = 1e30;
        uint64_t nodes = 0;
        for (int r = 0; r < repeat; r++) {
            double t0 = util_now();
            nodes = perft(&pos, PERFT_BENCH[i].depth);
            double t = util_now() - t0;
            if (t < best) best = t;
        }
        printf("perft %-10s depth %d  nodes %10llu  %.3f s  %.1f Mnodes/s\n", PERFT_BENCH[i].name,
               PERFT_BENCH[i].depth, (unsigned long long)nodes, best, nodes / best / 1e6);
        signature += nodes;
    }
    printf("signature %llu\n", (unsigned long long)signature);
    return EXIT_OK;
}

#define HARD_ALTERNATIVES "data/composer/hard_alternatives.txt"

/* One pass of bench confirm over the positions (after their alternative check). */
static void confirm_pass(DfCtx *c, const Position *pos, int n, uint64_t nodes, int eps_div, double *secs,
                         uint64_t *total) {
    int nomate = 0, mate = 0, unknown = 0;
    *total = 0;
    double t0 = util_now();
    for (int i = 0; i < n; i++) {
        Position p = pos[i];
        df_begin(c, p.side ^ 1, nodes, 0);
        df_set_no_rep(c, 0);
        df_set_epsilon(c, eps_div);
        DfResult r = df_search(c, &p, DF_MAX_DEPTH, DF_PLAIN);
        nomate += r.result == DF_DISPROVEN;
        mate += r.result == DF_PROVEN;
        unknown += r.result == DF_UNKNOWN;
        *total += df_nodes(c);
    }
    *secs = util_now() - t0;
    df_set_epsilon(c, DF_EPSILON_DIV);
    printf("epsilon 1/%d  n=%3d  no mate %3d  mate %3d  unknown %3d  nodes %11llu  %7.2f s\n", eps_div, n, nomate,
           mate, unknown, (unsigned long long)*total, *secs);
    fflush(stdout);
}

static int bench_confirm(int count, uint64_t nodes) {
    FILE *f = fopen(HARD_ALTERNATIVES, "r");
    if (!f) return cli_error("bench", "cannot open %s (run from the repository root)", HARD_ALTERNATIVES);
    Position *pos = malloc(sizeof *pos * (size_t)count);
    DfCtx *c = df_new(32);
    if (!pos || !c) { fclose(f); free(pos); if (c) df_free(c); return cli_error("bench", "out of memory"); }
    char buf[4096], err[ERR_MAX];
    int n = 0, line = 0, bad = 0;
    while (n < count && cli_read_line(f, buf, sizeof buf)) {
        line++;
        char *s = buf;
        while (*s == ' ') s++;
        if (!*s || *s == '#') continue;
        char *mv = cli_split_moves(s);
        int played = 0;
        if (!sfen_parse(s, &pos[n], 0, err, sizeof err) && !sfen_play_moves(&pos[n], mv, NULL, 0, &played, err, sizeof err) &&
            played != 1)
            snprintf(err, sizeof err, "expected one move (the alternative check), got %d", played);
        if (played != 1) {
            bad = cli_error("bench", "%s line %d: %s", HARD_ALTERNATIVES, line, err);
            break;
        }
        n++;
    }
    fclose(f);
    if (!bad) {
        printf("bench confirm: first %d of %s, unbounded plain df-pn, --hash 32, %llu nodes each, one thread\n", n,
               HARD_ALTERNATIVES, (unsigned long long)nodes);
        double s4, s1;
        uint64_t n4, n1;
        confirm_pass(c, pos, n, nodes, DF_EPSILON_DIV, &s4, &n4);
        confirm_pass(c, pos, n, nodes, 1, &s1, &n1);
        printf("ratio epsilon 1/%d : 1  nodes %.2f  time %.2f\n", DF_EPSILON_DIV, n1 ? (double)n4 / n1 : 0, s1 > 0 ? s4 / s1 : 0);
    }
    df_free(c);
    free(pos);
    return bad ? EXIT_USAGE : EXIT_OK;
}

/* The value after `"name":` in a JSON line, spaces skipped (NULL if absent). */
static const char *json_field(const char *line, const char *name) {
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":", name);
    const char *p = strstr(line, pat);
    if (!p) return NULL;
    for (p += strlen(pat); *p == ' '; p++) {}
    return p;
}

int bench_peer_run(const char *cmd, char *const *lines, int n, PeerTotals *t, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/tsumegen-peer-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    FILE *in = fd < 0 ? NULL : fdopen(fd, "w");
    if (!in) {
        snprintf(err, errlen, "cannot create the peer's input file %s: %s", path, strerror(errno));
        if (fd >= 0) { close(fd); unlink(path); }
        return -1;
    }
    for (int i = 0; i < n; i++) fprintf(in, "%s\n", lines[i]);
    int werr = ferror(in);
    if (fclose(in) || werr) {
        unlink(path);
        snprintf(err, errlen, "cannot write the peer's input to %s", path);
        return -1;
    }
    size_t clen = strlen(cmd) + strlen(path) + 8;
    char *full = malloc(clen);
    if (!full) { unlink(path); snprintf(err, errlen, "out of memory"); return -1; }
    snprintf(full, clen, "%s < %s", cmd, path);
    fflush(stdout);
    double t0 = df_now();
    FILE *out = popen(full, "r");
    free(full);
    if (!out) { unlink(path); snprintf(err, errlen, "cannot start the peer '%s'", cmd); return -1; }
    char *line = NULL;
    size_t cap = 0;
    int bad_line = 0;
    while (getline(&line, &cap, out) >= 0) {
        const char *r = json_field(line, "result"), *nd = json_field(line, "nodes"), *ms = json_field(line, "ms");
        t->lines++;
        if (!r || !nd || !ms) {
            if (!bad_line) bad_line = t->lines;
            continue;
        }
        t->mate += !strncmp(r, "\"mate\"", 6);
        t->nomate += !strncmp(r, "\"nomate\"", 8);
        t->unknown += !strncmp(r, "\"unknown\"", 9);
        t->nodes += strtoull(nd, NULL, 10);
        t->ms += strtod(ms, NULL);
    }
    free(line);
    int status = pclose(out);
    t->wall_s = df_now() - t0;
    unlink(path);
    if (status != 0) {
        if (status > 0 && WIFEXITED(status))
            snprintf(err, errlen, "the peer '%s' failed (exit status %d; a shell's 127: not found)", cmd, WEXITSTATUS(status));
        else snprintf(err, errlen, "the peer '%s' failed (wait status %d)", cmd, status);
        return -1;
    }
    if (bad_line) {
        snprintf(err, errlen, "the peer '%s': its answer %d lacks \"result\", \"nodes\" or \"ms\"", cmd, bad_line);
        return -1;
    }
    if (t->lines != n) {
        snprintf(err, errlen, "the peer '%s' printed %d answers for %d problems", cmd, t->lines, n);
        return -1;
    }
    return 0;
}

int cmd_bench(int argc, char **argv) {
    int repeat = 3, count = -1, threads = 0, variations = 0;
    unsigned long long nodes = 2000000;
    const char *what = "perft", *peer = NULL;
    if (argc > 1 && !strcmp(argv[1], "screen")) return bench_screen(argc - 1, argv + 1);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x = 0;
        if (!strcmp(o, "--repeat")) {
            if (cli_parse_int("bench", o, v, 1, 100, &x)) return EXIT_USAGE;
            repeat = (int)x;
            i++;
        } else if (!strcmp(o, "--count")) {
            if (cli_parse_int("bench", o, v, 1, 100000000, &x)) return EXIT_USAGE;
            count = (int)x;
            i++;
        } else if (!strcmp(o, "--nodes")) {
            if (cli_parse_int("bench", o, v, 1, 1000000000000000LL, &x)) return EXIT_USAGE;
            nodes = (unsigned long long)x;
            i++;
        } else if (!strcmp(o, "--threads")) {
            if (cli_parse_int("bench", o, v, 1, 1024, &x)) return EXIT_USAGE;
            threads = (int)x;
            i++;
        } else if (!strcmp(o, "--variations")) {
            variations = 1;
        } else if (!strcmp(argv[i], "--peer") && i + 1 < argc) {
            peer = argv[++i];
            if (!*peer) return cli_error("bench", "--peer needs a command");
        } else if (argv[i][0] != '-') what = argv[i];
        else return cli_error("bench", "unknown option '%s'", argv[i]);
    }
    if (peer && strcmp(what, "solve")) return cli_error("bench", "--peer is for bench solve");
    if (variations && strcmp(what, "solve")) return cli_error("bench", "--variations is for bench solve");
    if (!strcmp(what, "perft")) return bench_perft(repeat);
    if (!strcmp(what, "solve")) return bench_solve(count > 0 ? count : 1000, threads, peer, variations);
    if (!strcmp(what, "confirm")) return bench_confirm(count > 0 ? count : 60, nodes);
    return cli_error("bench", "unknown benchmark '%s' (available: perft, screen, solve, confirm)", what);
}
