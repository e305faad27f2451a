/* test_reverse.c - reverse construction (host/reverse.c): random games to a
 * mate, the mate stripped, the mating move undone every way it could have been
 * played.  (tests/test_compose_reverse.sh checks the composer's verdicts on
 * these candidates against cshogi.) */
#include <string.h>
#include "test.h"
#include "../host/compose.h"
#include "../host/proofcheck.h"
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

/* The proof checker's final-position test as first written, without its memo:
 * every defence a drop, each captured with check and still mate (level <= 12). */
static long final_mate_plain_calls;
static int final_mate_plain(Position *pos, int attacker, int level) {
    final_mate_plain_calls++;
    if (level > 12 || !in_check(pos)) return 0;
    MoveList ml, caps;
    gen_legal(pos, &ml);
    for (int i = 0; i < ml.count; i++) {
        Move d = ml.moves[i];
        if (!move_is_drop(d)) return 0;
        int s = move_to(d), k = move_drop_type(d), futile = 0;
        Undo u1;
        pos_do_move(pos, d, &u1);
        gen_legal(pos, &caps);
        for (int j = 0; j < caps.count && !futile; j++) {
            if (move_is_drop(caps.moves[j]) || move_to(caps.moves[j]) != s) continue;
            Undo u2;
            pos_do_move(pos, caps.moves[j], &u2);
            if (in_check(pos)) {
                pos->hand[attacker][k]--;
                pos->hand_key -= ZOBRIST_HAND[attacker][k];
                futile = final_mate_plain(pos, attacker, level + 1);
                pos->hand[attacker][k]++;
            }
            pos_undo_move(pos, caps.moves[j], &u2);
        }
        pos_undo_move(pos, d, &u1);
        if (!futile) return 0;
    }
    return 1;
}

/* pc_final_mate memoizes positions reached by drops in another order; it must
 * answer as the plain recursion does.  The boards are those the redundant-piece
 * pass replays on reverse problems: every check of a problem, and of the problem
 * with one attacker piece taken away, each also with the defender's hand thinned.
 * A line check against a full defender hand recurses deepest (the plain
 * recursion: 766,628 calls on one of them).  The memo's repeat visits are all
 * mates in practice: keys without the hands or the board gave the same answers
 * on these and on 1.47 M checks of generated boards, so this guards the answers
 * and the gross faults (a hit read wrong), not each use of the key. */
#ifdef TG_DEBUG
#define FINAL_MATE_GAMES 100  /* make check: 1.8 s under the sanitizers */
#else
#define FINAL_MATE_GAMES 300
#endif
TEST(proofcheck_final_mate_memo_same_answers) {
    static ReverseCandidate c[REVERSE_MAX_CANDIDATES];
    int tested = 0, recursed = 0, recursed_mate = 0, deep = 0;
    uint64_t rng = 1;
    for (uint64_t g = 0; g < FINAL_MATE_GAMES; g++) {
        Position p;
        Move last;
        int plies;
        if (!reverse_game(2, g, &p, &last, &plies) || reverse_strip(&p, 2, g)) continue;
        int n = reverse_candidates(&p, last, c, REVERSE_MAX_CANDIDATES);
        for (int i = 0; i < n; i++)
            for (int sq = -1; sq < SQ_NB; sq++) {
                Position q = c[i].pos;
                if (sq >= 0) {  /* -1: the problem itself */
                    if (!q.board[sq] || piece_type(q.board[sq]) == KING) continue;
                    pos_remove(&q, sq);
                    if (compose_normalize(&q)) continue;
                }
                MoveList checks, ml;
                gen_checks(&q, &checks);
                for (int k = 0; k < checks.count; k++)
                    for (int thin = 0; thin < 2; thin++) {
                        Position a = q;
                        Undo u;
                        pos_do_move(&a, checks.moves[k], &u);
                        if (thin) {  /* the defender's hand thinned at random: drops run out */
                            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                            for (int t = PAWN; t <= GOLD; t++)
                                a.hand[WHITE][t] = (uint8_t)((rng >> (33 + 3 * t)) % (a.hand[WHITE][t] + 1u));
                            pos_compute_keys(&a, &a.board_key, &a.hand_key);
                        }
                        Position b = a;
                        uint64_t key = pos_key(&a);
                        long calls0 = final_mate_plain_calls;
                        int want = final_mate_plain(&a, BLACK, 0), got = pc_final_mate(&b, BLACK, 0);
                        CHECK_EQ_U64(got, want);
                        CHECK(pos_key(&a) == key && pos_key(&b) == key);
                        tested++;
                        int only_drops = gen_legal(&a, &ml) > 0;
                        for (int j = 0; only_drops && j < ml.count; j++) only_drops = move_is_drop(ml.moves[j]);
                        recursed += only_drops;
                        recursed_mate += only_drops && want;
                        deep += final_mate_plain_calls - calls0 >= 1000;
                    }
            }
    }
    /* (300 games: 118,386 tested, 9,561 with drops alone, 5,923 of them mate, 24
     * of 1,000 plain calls or more; 100 games: 39,588, 2,722, 1,816, 15) */
    CHECK(tested > 100 * FINAL_MATE_GAMES && recursed >= 20 * FINAL_MATE_GAMES && recursed_mate >= 15 * FINAL_MATE_GAMES && deep >= 10);
    /* game 2218 of seed 2: the dragon's check along the third rank (the plain
     * recursion makes 766,628 calls here, 0.5 s), and the same with two squares
     * between them fewer */
    const char *problem[2][2] = {{"1+P7/1+P7/k8/2R4+R1/9/9/9/9/9 b 2b4g4s4n4l16p 1", "2d1c"},
                                 {"1+P7/1+P7/k8/2R2+R3/9/9/9/9/9 b 2b4g4s4n4l16p 1", "4d3c"}};
    Position q[2];
    for (int i = 0; i < 2; i++) {
        q[i] = test_load(problem[i][0]);
        Move m;
        char err[ERR_MAX];
        Undo u;
        CHECK(move_parse(&q[i], problem[i][1], &m, err, sizeof err) == 0);
        pos_do_move(&q[i], m, &u);
    }
    CHECK(pc_final_mate(&q[0], BLACK, 0));
    Position a = q[1];
    CHECK(pc_final_mate(&q[1], BLACK, 0) && final_mate_plain(&a, BLACK, 0));
}
