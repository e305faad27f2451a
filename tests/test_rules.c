/* test_rules.c - perft against published counts, move-count records,
 * do/undo consistency and the generators' agreement with each other. */
#include <string.h>
#include "test.h"
#include "../host/perft.h"
#include "../core/mate1.h"

TEST(perft_startpos_1_to_5) {
    static const uint64_t expect[] = {30, 900, 25470, 719731, 19861490};
    Position pos = test_load("startpos");
    for (int d = 1; d <= 5; d++) CHECK_EQ_U64(perft(&pos, d), expect[d - 1]);
}

TEST(perft_middle_207) {
    static const uint64_t expect[] = {207, 28684, 4809015};
    Position pos = test_load("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    for (int d = 1; d <= 3; d++) CHECK_EQ_U64(perft(&pos, d), expect[d - 1]);
}

TEST(max_legal_moves_593) {
    MoveList l;
    Position pos = test_load("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    CHECK_EQ_U64(gen_legal(&pos, &l), 593);
}

/* Walks random legal games; at every node the position must stay consistent,
 * undo must restore it exactly, and checks/evasions must equal the filtered
 * legal list. */
static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

void check_evasion_count(const Position *pos, const MoveList *ev) {
    int nondrop = 0, squares = 0, nd, ds;
    uint64_t seen[2] = {0, 0};
    for (int i = 0; i < ev->count; i++) {
        Move m = ev->moves[i];
        if (!move_is_drop(m)) { nondrop++; continue; }
        int s = move_to(m);
        squares += !(seen[s >> 6] >> (s & 63) & 1);
        seen[s >> 6] |= 1ull << (s & 63);
    }
    int n = count_evasions(pos, &nd, &ds);
    if (n != ev->count || nd != nondrop || ds != squares) {
        char sfen[256];
        sfen_format(pos, sfen, sizeof sfen);
        fprintf(stderr, "  count_evasions %d (%d board, %d drop squares), the list %d (%d, %d): %s\n", n, nd, ds,
                ev->count, nondrop, squares, sfen);
        test_failures_in_current++;
    }
}

static int contains(const MoveList *l, Move m) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m) return 1;
    return 0;
}

TEST(random_games_consistency) {
    for (int game = 0; game < 200; game++) {
        Position pos = test_load("startpos");
        for (int ply = 0; ply < 150; ply++) {
            MoveList legal, checks, ev;
            CheckInfo ci;
            CHECK_EQ_U64(pos_check(&pos), 0);
            gen_legal(&pos, &legal);
            CHECK_EQ_U64(count_legal(&pos), legal.count);
            if (!legal.count) break;
            checkinfo_init(&pos, &ci);
            gen_checks(&pos, &checks);
            int n_checks = 0;
            for (int i = 0; i < legal.count; i++) {
                Undo u;
                Move m = legal.moves[i];
                int gc = move_gives_check(&pos, &ci, m);
                uint64_t bk, hk;
                pos_keys_after(&pos, m, &bk, &hk);
                pos_do_move(&pos, m, &u);
                CHECK(gc == in_check(&pos));
                CHECK(bk == pos.board_key && hk == pos.hand_key);  /* the prefetch keys */
                pos_undo_move(&pos, m, &u);
                if (gc) { n_checks++; CHECK(contains(&checks, m)); }
            }
            CHECK(n_checks == checks.count);
            CHECK_EQ_U64(count_checks(&pos), checks.count);
            if (in_check(&pos)) {
                gen_evasions(&pos, &ev);
                CHECK(ev.count == legal.count);
                check_evasion_count(&pos, &ev);
            }
            Position before = pos;
            Undo u;
            Move m = legal.moves[next_rand() % (uint64_t)legal.count];
            pos_do_move(&pos, m, &u);
            Position after = pos;
            pos_undo_move(&pos, m, &u);
            CHECK(memcmp(&before, &pos, sizeof pos) == 0);
            pos = after;
        }
    }
}

TEST(mate1_simple) {
    MoveList l;
    /* head gold: G*5b is the only mate (the king on 5a, a pawn on 5c guards 5b) */
    Position pos = test_load("4k4/9/4P4/9/9/9/9/9/9 b G 1");
    gen_mate1(&pos, &l);
    CHECK(l.count == 1);
    CHECK(l.count == 1 && l.moves[0] == make_drop(GOLD, make_sq(4, 1)));
}

TEST(pawn_drop_mate_is_illegal) {
    MoveList l;
    /* P*1b would mate: the gold on 3b guards 2a and 2b, the knight on 2d the pawn */
    Position pos = test_load("8k/6G2/9/7N1/9/9/9/9/9 b P 1");
    CHECK(pos.hand[BLACK][PAWN] == 1 && !pawn_on_file(&pos, BLACK, 0));
    gen_legal(&pos, &l);
    CHECK(!contains(&l, make_drop(PAWN, make_sq(0, 1))));
    CHECK(contains(&l, make_drop(PAWN, make_sq(0, 2))));  /* the same pawn elsewhere is legal */
}
