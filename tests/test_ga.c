/* test_ga.c - the GA operators keep their invariants (seeds/000 §4.1, 4.4, 4.5). */
#include <string.h>
#include "test.h"
#include "../host/ga.h"
#include "../host/sfen.h"

static Position initial(void) {
    Position pos;
    char err[ERR_MAX];
    if (sfen_parse("4k4/9/4P4/9/9/9/9/9/9 b G 1", &pos, 0, err, sizeof err)) test_failures_in_current++;
    return pos;
}

TEST(ga_crossover_and_mutation_keep_ones) {
    Rng r;
    rng_seed(&r, 1);
    for (int t = 0; t < 500; t++) {
        Genome a, b;
        genome_random(&a, 10, &r);
        genome_random(&b, 10, &r);
        CHECK(genome_count(&a) == 10 && genome_count(&b) == 10);
        Genome a0 = a, b0 = b;
        genome_crossover(&a, &b, &r);
        CHECK(genome_count(&a) == 10 && genome_count(&b) == 10);
        /* children take every bit from one parent or the other */
        for (int i = 0; i < GA_WORDS; i++) {
            CHECK((a.w[i] & ~(a0.w[i] | b0.w[i])) == 0);
            CHECK((a.w[i] ^ b.w[i]) == (a0.w[i] ^ b0.w[i]));
        }
        genome_mutate(&a, 0.01, &r);
        CHECK(genome_count(&a) == 10);
    }
}

TEST(ga_mutation_rate_changes_bits) {
    Rng r;
    rng_seed(&r, 2);
    int changed = 0;
    for (int t = 0; t < 200; t++) {
        Genome g;
        genome_random(&g, 10, &r);
        Genome g0 = g;
        genome_mutate(&g, 0.001, &r);
        changed += memcmp(&g, &g0, sizeof g) != 0;
    }
    /* expected about 1 - (1-0.001)^2103 = 88 % of genomes changed */
    CHECK(changed > 140 && changed < 200);
}

TEST(ga_decode_rules) {
    Position init = initial(), out;
    Rng r;
    rng_seed(&r, 3);
    Genome g;
    memset(&g, 0, sizeof g);
    int ksq = init.king_sq[WHITE];
    genome_set(&g, ksq * GA_SQ_GENES + 5, 1);                        /* a rook onto the king: ignored */
    genome_set(&g, make_sq(4, 2) * GA_SQ_GENES + GA_KINDS_NB + 6, 1); /* defender gold over the pawn on 5c */
    genome_set(&g, GA_HAND_BASE + 4, 1);                             /* one more bishop in hand */
    CHECK(genome_decode(&g, &init, &r, &out) == 0);
    CHECK(out.board[ksq] == make_piece(WHITE, KING));
    CHECK(out.board[make_sq(4, 2)] == make_piece(WHITE, GOLD));
    CHECK(out.hand[BLACK][BISHOP] == init.hand[BLACK][BISHOP] + 1);
    CHECK(pos_check(&out) == 0);
    /* two bits on one square: one of the two pieces, each seen over many decodes */
    memset(&g, 0, sizeof g);
    genome_set(&g, 10 * GA_SQ_GENES + 0, 1);
    genome_set(&g, 10 * GA_SQ_GENES + 12, 1);
    int seen[2] = {0, 0};
    for (int t = 0; t < 100; t++) {
        genome_decode(&g, &init, &r, &out);
        int pc = out.board[10];
        seen[0] += pc == make_piece(BLACK, PAWN);
        seen[1] += pc == make_piece(BLACK, DRAGON);
    }
    CHECK(seen[0] + seen[1] == 100 && seen[0] > 20 && seen[1] > 20);
}

TEST(ga_rng_reproducible) {
    Rng a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    for (int i = 0; i < 100; i++) CHECK(rng_next(&a) == rng_next(&b));
    for (int i = 0; i < 1000; i++) CHECK(rng_below(&a, 7) < 7);
}
