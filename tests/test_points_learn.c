/* test_points_learn.c - the learned points filter: its features are the ones
 * sc_points sums, its file reads back to the same weights, and the fit finds a
 * planted rule. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../core/gen.h"
#include "../core/screen.h"
#include "../host/points_learn.h"
#include "../host/screen.h"

static uint64_t next_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Random weights written as a points file read back identically, and every
 * generated legal board scores the same by its features as by sc_points. */
TEST(points_learn_file_and_features) {
    int32_t *w = calloc(SC_W_NB, sizeof *w), *back = calloc(SC_W_NB, sizeof *back);
    uint64_t rs = 42;
    for (int j = 0; j < SC_W_EMPTYSUM; j++)
        if (next_rand(&rs) % 3) w[j] = (int32_t)(next_rand(&rs) % 2000001) - 1000000;  /* +-1000 points, 3 decimals */
    w[SC_W_PIECE + 5] = -7;  /* small negatives keep their sign: "-0.007" */
    char *text = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(pl_write_points(f, w) == 0);
    fclose(f);
    CHECK(points_parse(text, "learned", back, err, sizeof err) == 0);
    int same = 1;
    for (int j = 0; j < SC_W_EMPTYSUM; j++) same &= w[j] == back[j];
    CHECK(same);
    int idx[PL_MAX_FEATURES], cnt[PL_MAX_FEATURES], legal = 0, white = 0, mismatches = 0;
    for (uint64_t i = 0; i < 3000; i++) {
        ScBoard b;
        ScResult r;
        Position p;
        sc_gen_board(7, i, &b);
        sc_screen(&b, &r, back, 0);
        if (sc_setup(&b, &p, 0) != SC_OK) continue;
        legal++;
        white += p.side == WHITE;
        int n = pl_features(&p, idx, cnt);
        long long s = 0;
        for (int k = 0; k < n; k++) s += (long long)back[idx[k]] * cnt[k];
        mismatches += s != r.points;
    }
    CHECK(legal > 500 && white > 20);  /* (both orientations are covered) */
    CHECK_EQ_U64(mismatches, 0);
    free(text);
    free(w);
    free(back);
}

/* A planted rule (good = the attacker holds a gold) is found: its weight rises
 * above the defender's, the held-out ROC area is high, and the same inputs give
 * the same weights.  (A board rule next to the king would be a poor plant: most
 * attacker pieces there give check, which makes the board illegal.) */
TEST(points_learn_fit_finds_a_planted_rule) {
    size_t n = 0;
    PlSample *s = malloc(sizeof(PlSample) * 8000);
    for (uint64_t i = 0; n < 8000; i++) {
        ScBoard b;
        Position p;
        sc_gen_board(11, i, &b);
        if (sc_setup(&b, &p, 0) != SC_OK) continue;
        s[n++] = (PlSample){11, i, p.hand[p.side][GOLD] > 0, 10.0};
    }
    PlOptions o = {100, 0.0003, 0.05, 0.2, 0};
    int32_t *w = calloc(SC_W_NB, sizeof *w), *w2 = calloc(SC_W_NB, sizeof *w2);
    char *rep = NULL;
    size_t len = 0;
    double best = 0, best2 = 0;
    FILE *f = open_memstream(&rep, &len);
    CHECK(pl_fit(s, n, &o, w, f, &best) == 0);
    fclose(f);
    CHECK(pl_fit(s, n, &o, w2, NULL, &best2) == 0);
    CHECK(!memcmp(w, w2, sizeof(int32_t) * SC_W_NB));
    const char *roc = strstr(rep, "ROC area ");
    CHECK(roc && atof(roc + 9) > 0.95);
    int top = 1;  /* the highest weight past the bias: a gold in the attacker's hand, over 5 points */
    for (int j = 2; j < SC_W_EMPTYSUM; j++)
        if (w[j] > w[top]) top = j;
    CHECK_EQ_U64(top, SC_W_HAND + GOLD - 1);
    CHECK(w[SC_W_HAND + GOLD - 1] > 5000);
    free(rep);
    free(w);
    free(w2);
    free(s);
}
