/* test_reverse.c - reverse construction (host/reverse.c): random games to a
 * mate, the mate stripped, the mating move undone every way it could have been
 * played.  (tests/test_compose_reverse.sh checks the composer's verdicts on
 * these candidates against cshogi.) */
#include <string.h>
#include "test.h"
#include "../host/compose.h"
#include "../host/reverse.h"

static int white_mated(const Position *p) { return p->side == WHITE && in_check(p) && !has_legal_move(p); }

/* A game is a function of (seed, index); it ends with White mated (the board
 * turned when Black was), and the last move gave the mate. */
TEST(reverse_game_ends_in_mate) {
    int mates = 0, turned_differs = 0;
    for (uint64_t g = 0; g < 40; g++) {
        Position a, b;
        Move la, lb;
        int pa, pb;
        int ra = reverse_game(7, g, &a, &la, &pa), rb = reverse_game(7, g, &b, &lb, &pb);
        CHECK(ra == rb);
        if (!ra) continue;
        mates++;
        CHECK(pos_key(&a) == pos_key(&b) && la == lb && pa == pb && !memcmp(a.board, b.board, sizeof a.board));
        CHECK(white_mated(&a));
        CHECK(pa > 0 && pa <= REVERSE_MAX_PLIES);
        /* the last move's piece is Black's and stands on its destination */
        int to = move_to(la);
        CHECK(a.board[to] && piece_color(a.board[to]) == BLACK);
        /* the keys were recomputed after the turn */
        uint64_t bk, hk;
        pos_compute_keys(&a, &bk, &hk);
        CHECK(bk == a.board_key && hk == a.hand_key);
        Position c;
        Move lc;
        int pc;
        if (reverse_game(8, g, &c, &lc, &pc)) turned_differs += pos_key(&c) != pos_key(&a);
    }
    CHECK(mates >= 30);           /* most random games end in mate within the cap */
    CHECK(turned_differs >= 25);  /* another seed, other games */
}

/* The stripped mate keeps White mated, has no Black king or hand, and needs every
 * piece left: each one taken away (to White's hand) breaks the mate. */
TEST(reverse_strip_is_minimal) {
    int stripped = 0;
    for (uint64_t g = 0; g < 40; g++) {
        Position p;
        Move last;
        int plies;
        if (!reverse_game(3, g, &p, &last, &plies)) continue;
        int pieces_before = bb_count(p.occupied);
        if (reverse_strip(&p, 3, g)) continue;
        stripped++;
        CHECK(white_mated(&p));
        CHECK(p.king_sq[BLACK] == SQ_NONE && hand_total(&p, BLACK) == 0);
        CHECK(bb_count(p.occupied) < pieces_before);
        for (int sq = 0; sq < SQ_NB; sq++) {
            int pc = p.board[sq];
            if (!pc || piece_type(pc) == KING) continue;
            Position q = p;
            pos_remove(&q, sq);
            q.hand[WHITE][raw_type(piece_type(pc))]++;
            CHECK(!white_mated(&q));
        }
    }
    CHECK(stripped >= 25);
}

/* Every candidate: Black to move, legal (normalize leaves it as is), White not in
 * check, its move a legal check that mates and gives the stripped board back; no
 * candidate twice; the game's own move among them at most once, and in most games;
 * drops and board moves both occur. */
TEST(reverse_candidates_mate_and_lead_back) {
    static ReverseCandidate c[REVERSE_MAX_CANDIDATES];
    int games = 0, own = 0, drops = 0, moves = 0;
    for (uint64_t g = 0; g < 40; g++) {
        Position p;
        Move last;
        int plies;
        if (!reverse_game(5, g, &p, &last, &plies) || reverse_strip(&p, 5, g)) continue;
        games++;
        int n = reverse_candidates(&p, last, c, REVERSE_MAX_CANDIDATES), game = 0;
        CHECK(n < REVERSE_MAX_CANDIDATES);  /* the cap is not what ends the list */
        for (int i = 0; i < n; i++) {
            Position q = c[i].pos, r = q;
            CHECK(q.side == BLACK && !in_check(&q));
            CHECK(!compose_normalize(&r) && pos_key(&r) == pos_key(&q));
            MoveList ml;
            gen_checks(&q, &ml);
            int listed = 0;
            for (int k = 0; k < ml.count; k++) listed |= ml.moves[k] == c[i].mate;
            CHECK(listed);
            Undo u;
            pos_do_move(&r, c[i].mate, &u);
            CHECK(white_mated(&r));
            CHECK(!memcmp(r.board, p.board, sizeof r.board));
            for (int j = 0; j < i; j++) CHECK(pos_key(&c[j].pos) != pos_key(&q));
            game += c[i].game;
            CHECK(!c[i].game || c[i].mate == last);
            drops += move_is_drop(c[i].mate);
            moves += !move_is_drop(c[i].mate);
        }
        CHECK(game <= 1);
        own += game;
    }
    CHECK(games >= 25 && own * 10 >= games * 7 && drops > 0 && moves > 0);
    /* the cap holds */
    Position p;
    Move last;
    int plies, g = 0;
    while (!reverse_game(5, (uint64_t)g, &p, &last, &plies) || reverse_strip(&p, 5, (uint64_t)g)) g++;
    int n = reverse_candidates(&p, last, c, REVERSE_MAX_CANDIDATES);
    CHECK(reverse_candidates(&p, last, c, 1) == (n < 1 ? n : 1));
}
