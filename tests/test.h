/* test.h - a tiny self-registering unit-test harness.
 *   TEST(name) { CHECK(cond); CHECK_EQ_U64(a, b); }
 * Each tests/test_*.c file registers its own tests (no central list to edit). */
#ifndef TSUMEGEN_TEST_H
#define TSUMEGEN_TEST_H
#include <stdint.h>
#include <stdio.h>
#include "../host/sfen.h"

typedef void (*TestFn)(void);
void test_register(const char *name, TestFn fn);
extern int test_failures_in_current;
/* Parses sfen (tsume hand convention); if it does not parse, says so and counts a failure. */
Position test_load(const char *sfen);
/* count_evasions against the list gen_evasions made for pos (test_rules.c):
 * the total, the board moves and the squares with a drop must agree. */
void check_evasion_count(const Position *pos, const MoveList *evasions);

#define TEST(name)                                                              \
    static void name(void);                                                     \
    __attribute__((constructor)) static void reg_##name(void) { test_register(#name, name); } \
    static void name(void)

#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            test_failures_in_current++;                                         \
        }                                                                       \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                      \
    do {                                                                        \
        unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
        if (va_ != vb_) {                                                       \
            fprintf(stderr, "  %s:%d: %s == %llu, expected %llu\n", __FILE__, __LINE__, #a, va_, vb_); \
            test_failures_in_current++;                                         \
        }                                                                       \
    } while (0)

#endif
