/* test_main.c - runs every registered unit test.
 * Usage: unit_tests [--shard K/N] [FILTER]: FILTER, a part of the names to run (one
 * that matches no test is an error, not "0 passed"); --shard K/N, only the tests
 * whose index among those is K modulo N, so that tests/run_all.sh can run N processes
 * side by side.  A test that takes a second or more shows its time, so the slow ones
 * are found without a profiler.
 * Also the helpers that test.h declares for the test files.
 * Last line: "unit: N passed, N failed". */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "test.h"

#define MAX_TESTS 512
static struct { const char *name; TestFn fn; } tests[MAX_TESTS];
static int n_tests;
int test_failures_in_current;

Position test_load(const char *sfen) {
    Position pos;
    char err[ERR_MAX];
    if (sfen_parse(sfen, &pos, 0, err, sizeof err)) {
        fprintf(stderr, "  cannot parse %s: %s\n", sfen, err);
        test_failures_in_current++;
    }
    return pos;
}

void test_register(const char *name, TestFn fn) {
    if (n_tests == MAX_TESTS) { fputs("too many tests\n", stderr); exit(3); }
    tests[n_tests].name = name;
    tests[n_tests++].fn = fn;
}

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int passed = 0, failed = 0, shard = 0, shards = 1;
    const char *filter = NULL;
    for (int a = 1; a < argc; a++) {
        char extra;
        if (!strcmp(argv[a], "--shard")) {
            if (a + 1 == argc || sscanf(argv[a + 1], "%d/%d%c", &shard, &shards, &extra) != 2 ||
                shards < 1 || shard < 0 || shard >= shards) {
                fprintf(stderr, "unit_tests: --shard needs K/N with 0 <= K < N, got '%s'\n",
                        a + 1 < argc ? argv[a + 1] : "");
                return 2;
            }
            a++;
        } else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
            printf("usage: unit_tests [--shard K/N] [FILTER]\n");
            return 0;
        } else if (!filter) {
            filter = argv[a];
        } else {
            fprintf(stderr, "usage: unit_tests [--shard K/N] [FILTER]\n");
            return 2;
        }
    }
    int matched = 0;
    for (int i = 0; i < n_tests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        if (matched++ % shards != shard) continue;
        test_failures_in_current = 0;
        double t0 = seconds_now();
        tests[i].fn();
        double took = seconds_now() - t0;
        char when[32] = "";
        if (took >= 1.0) snprintf(when, sizeof when, " (%.1f s)", took);
        if (test_failures_in_current) { printf("FAIL %s%s\n", tests[i].name, when); failed++; }
        else { printf("ok   %s%s\n", tests[i].name, when); passed++; }
        fflush(stdout);
    }
    if (filter && matched == 0) {
        fprintf(stderr, "unit_tests: no test name contains \"%s\"\n", filter);
        return 2;
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
