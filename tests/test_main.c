/* test_main.c - runs every registered unit test; optional argument = name filter.
 * Also the helpers that test.h declares for the test files.
 * Last line: "unit: N passed, N failed". */
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    for (int i = 0; i < n_tests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        test_failures_in_current = 0;
        tests[i].fn();
        if (test_failures_in_current) { printf("FAIL %s\n", tests[i].name); failed++; }
        else { printf("ok   %s\n", tests[i].name); passed++; }
        fflush(stdout);
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
