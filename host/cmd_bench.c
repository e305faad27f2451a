/* cmd_bench.c - speed figures.  Timings are for benchmarks/RESULTS.md, never
 * asserted in tests; the node counts double as a signature that CI checks. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
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
    "usage: tsumegen bench solve [--count N] [--threads N]\n"
    "solve: the exact solver on the first N (default 1000) ShogiBoardQ problems of each set\n"
    "(data/third_party/shogiboardq), one thread and all threads, without and with the flaw analysis.\n";

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

int cmd_bench(int argc, char **argv) {
    int repeat = 3, count = 1000, threads = 0;
    const char *what = "perft";
    if (argc > 1 && !strcmp(argv[1], "screen")) return bench_screen(argc - 1, argv + 1);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            if (sscanf(argv[++i], "%d", &repeat) != 1 || repeat < 1 || repeat > 100)
                return cli_error("bench", "--repeat must be 1..100");
        } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
            if (sscanf(argv[++i], "%d", &count) != 1 || count < 1) return cli_error("bench", "--count must be >= 1");
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (sscanf(argv[++i], "%d", &threads) != 1 || threads < 1) return cli_error("bench", "--threads must be >= 1");
        } else if (argv[i][0] != '-') what = argv[i];
        else return cli_error("bench", "unknown option '%s'", argv[i]);
    }
    if (!strcmp(what, "perft")) return bench_perft(repeat);
    if (!strcmp(what, "solve")) return bench_solve(count, threads);
    return cli_error("bench", "unknown benchmark '%s' (available: perft, solve)", what);
}
