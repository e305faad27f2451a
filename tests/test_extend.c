/* test_extend.c - backward extension (host/extend.c), its pool, and the
 * composer's verdict cache (host/vcache.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "../host/compose.h"
#include "../host/extend.h"
#include "../host/tsume.h"
#include "../host/vcache.h"
#include "../host/verify_adapter.h"
#include "../core/mate1.h"

/* Every candidate is what extend.h promises: legal, the defender not in check,
 * no mate in one, the check legal, the king's reply legal, and the two moves
 * give the problem back (board and attacker hand); no candidate twice.  Every
 * kind of reply occurs: the king's step back (taking the checker, another piece
 * or nothing), another piece taking the checker, a board piece or a drop
 * blocking the check's line; so do checks that take a defender piece. */
TEST(extend_candidates_lead_back) {
    static const char *const problems[] = {
        "4k4/9/4P4/9/9/9/9/9/9 b G 1",                        /* 頭金, 1 ply */
        "4k4/5+s3/4P4/3+P1+B3/9/9/9/9/9 b G2rb3g3s4n4l16p 1",  /* 13 plies (GA, third session) */
        "2+n1k4/1L2g4/4P4/+S+R7/7+L1/9/9/9/9 b Gr2b2g3s3n2l17p 1", /* 23 plies (GA, fourth session) */
        "4k4/4g4/9/9/4R4/9/9/9/9 b - 1",                      /* a gold on the rook's line */
    };
    static ExtendCandidate cand[4096];
    int drops = 0, moves = 0, sacrifices = 0, takes = 0, king_takes_other = 0, blocks = 0,
        drop_blocks = 0, check_takes = 0;
    for (int t = 0; t < 4; t++) {
        Position p = test_load(problems[t]);
        Rng rng;
        rng_seed(&rng, 5);
        int n = extend_candidates(&p, &rng, cand, 4096);
        CHECK(n > 0);
        for (int i = 0; i < n; i++) {
            Position q = cand[i].pos, r;
            MoveList ml;
            Undo u;
            Move m = cand[i].check, reply = cand[i].reply;
            CHECK(q.side == p.side && !in_check(&q));
            r = q;
            CHECK(!compose_normalize(&r) && pos_key(&r) == pos_key(&q));
            r = q;
            CHECK(gen_mate1(&r, &ml) == 0);
            gen_checks(&q, &ml);
            CHECK(movelist_has(&ml, m));
            check_takes += !move_is_drop(m) && q.board[move_to(m)] != 0;
            pos_do_move(&r, m, &u);
            gen_evasions(&r, &ml);
            CHECK(movelist_has(&ml, reply));
            int king_back = !move_is_drop(reply) && move_to(reply) == p.king_sq[p.side ^ 1];
            int takes_checker = !move_is_drop(reply) && move_to(reply) == move_to(m);
            if (king_back && !takes_checker && r.board[move_to(reply)]) king_takes_other++;
            if (!king_back && takes_checker) takes++;
            if (!king_back && !takes_checker) {
                /* a block: the reply lands between the king and a checker on its line */
                int k = r.king_sq[r.side], blocked = 0;
                Bitboard ch = checkers_of(&r);
                while (bb_any(ch)) blocked |= bb_test(between_bb(k, bb_pop(&ch)), move_to(reply));
                CHECK(blocked && !r.board[move_to(reply)]);
                blocks += !move_is_drop(reply);
                drop_blocks += move_is_drop(reply);
            }
            pos_do_move(&r, reply, &u);
            CHECK(!memcmp(r.board, p.board, sizeof r.board) && !memcmp(r.hand[p.side], p.hand[p.side], sizeof r.hand[0]));
            for (int j = 0; j < i; j++) CHECK(pos_key(&cand[j].pos) != pos_key(&q));
            sacrifices += takes_checker;
            drops += !takes_checker && move_is_drop(m);
            moves += !takes_checker && !move_is_drop(m);
        }
        /* the cap holds */
        CHECK(extend_candidates(&p, &rng, cand, 3) == (n < 3 ? n : 3));
    }
    CHECK(drops > 0 && moves > 0 && sacrifices > 0 && takes > 0);
    CHECK(king_takes_other > 0 && blocks > 0 && drop_blocks > 0 && check_takes > 0);
}

/* The candidate of problem p that is the board want (-1 if none): its index in
 * cand, which holds all of p's candidates. */
static int find_candidate(const Position *p, const Position *want, ExtendCandidate *cand) {
    Rng rng;
    rng_seed(&rng, 1);
    int n = extend_candidates(p, &rng, cand, 4096);
    for (int i = 0; i < n; i++)
        if (pos_key(&cand[i].pos) == pos_key(want)) return i;
    return -1;
}

/* The point of it: a perfect 13-ply problem has a perfect 15-ply extension
 * among its candidates (king on 4a, a tokin on 6a: 6a5a, and the king takes it
 * back to the 13-ply problem), found by the composer's verifier. */
TEST(extend_finds_a_longer_perfect_problem) {
    Position p = test_load("4k4/5+s3/4P4/3+P1+B3/9/9/9/9/9 b G2rb3g3s4n4l16p 1");
    Position want = test_load("3+P1k3/5+s3/4P4/3+P1+B3/9/9/9/9/9 b G2rb3g3s4n4l15p 1");
    Verdict *v = malloc(sizeof *v);
    CHECK(!verify_for_compose(&p, 2000000, v) && v->perfect && v->length == 13);
    static ExtendCandidate cand[4096];
    int found = find_candidate(&p, &want, cand);
    CHECK(found >= 0);
    CHECK(!verify_for_compose(&want, 2000000, v) && v->result == VERDICT_MATE && v->perfect && v->length == 15);
    CHECK(v->pv_len == 15 && found >= 0 && v->pv[0] == cand[found].check && v->pv[1] == cand[found].reply);
    free(v);
}

/* The record: the GA's perfect 35-ply problem (the 500 x 50 run) has a perfect
 * 37 among its candidates, one the first generator could not make: the rook's
 * check 5a6a takes a gold (the attacker holds one in the 35) and the king takes
 * the rook back to the 35's square. */
TEST(extend_takes_the_35_to_a_perfect_37) {
    Position p = test_load("3k5/4Lg3/1LPsP4/1+R7/4+B4/9/7+b1/9/6L2 b Gr2g3s4nl16p 1");
    Position want = test_load("3gR4/3kLg3/1LPsP4/1+R7/4+B4/9/7+b1/9/6L2 b 2g3s4nl16p 1");
    static ExtendCandidate cand[4096];
    int found = find_candidate(&p, &want, cand);
    CHECK(found >= 0);
    if (found < 0) return;
    Move m = cand[found].check;
    CHECK(!move_is_drop(m) && piece_type(want.board[move_to(m)]) == GOLD);
#ifdef TG_DEBUG
    return;  /* make check: the candidate only (its verification takes 30 s there) */
#endif
    Verdict *v = malloc(sizeof *v);
    CHECK(!verify_for_compose(&want, 2000000, v) && v->result == VERDICT_MATE && v->perfect && v->length == 37);
    /* (5a6a+ mates too, 成不成: the line takes the first of the twins in generation order) */
    CHECK(v->pv_len == 37 && (v->pv[0] == m || ts_same_but_promo(v->pv[0], m)) && v->pv[1] == cand[found].reply);
    free(v);
}

TEST(extend_pool_longest_first_once) {
    ExtendPool pool;
    memset(&pool, 0, sizeof pool);
    Position a = test_load("4k4/9/4P4/9/9/9/9/9/9 b G 1"), b = test_load("4k4/5+s3/4P4/3+P1+B3/9/9/9/9/9 b G2rb3g3s4n4l16p 1");
    Position b_mirror = test_load("4k4/3+s5/4P4/3+B1+P3/9/9/9/9/9 b G2rb3g3s4n4l16p 1");
    CHECK(extend_pool_add(&pool, &a, 1, -1) == 1);
    CHECK(extend_pool_add(&pool, &b, 13, -1) == 1);
    CHECK(extend_pool_add(&pool, &b_mirror, 13, -1) == 0);  /* the same problem mirrored */
    CHECK(extend_pool_next(&pool, 1) == 1);
    CHECK(extend_pool_next(&pool, 15) == -1);
    extend_pool_take(&pool, 1);
    CHECK(extend_pool_next(&pool, 1) == 0);
    extend_pool_take(&pool, 0);
    CHECK(extend_pool_next(&pool, 1) == -1);
    extend_pool_free(&pool);
}

/* Twins: once EXTEND_SIBLING_STEP children of one entry have been extended, their
 * siblings rank two plies lower, behind the next family (a cousin one level up);
 * the discount follows the checkpoint's entries (extended flags, parents). */
TEST(extend_pool_discounts_siblings) {
    ExtendPool pool;
    memset(&pool, 0, sizeof pool);
    pool.sibling_step = EXTEND_SIBLING_STEP;
    char sfen[64];
    CHECK(extend_pool_add_sfen(&pool, "root", 13, 1, -1) == 1);   /* 0 */
    CHECK(extend_pool_add_sfen(&pool, "other", 15, 0, 0) == 1);   /* 1: a 15 from the root */
    CHECK(extend_pool_add_sfen(&pool, "family", 15, 1, 0) == 1);  /* 2: a 15, extended */
    for (int i = 0; i < EXTEND_SIBLING_STEP + 2; i++) {          /* 3..: the 17s of entry 2 */
        snprintf(sfen, sizeof sfen, "twin%d", i);
        CHECK(extend_pool_add_sfen(&pool, sfen, 17, 0, 2) == 1);
    }
    for (int i = 0; i < EXTEND_SIBLING_STEP; i++) {
        int next = extend_pool_next(&pool, 1);
        CHECK(next == 3 + i);  /* longest first, the earlier found among equals */
        extend_pool_take(&pool, next);
    }
    /* the twins now count as 15s: the root's other 15 was found earlier */
    CHECK(pool.kids_extended[2] == EXTEND_SIBLING_STEP);
    pool.sibling_step = 0;  /* (the GA's order: longest first) */
    CHECK(extend_pool_next(&pool, 1) == 3 + EXTEND_SIBLING_STEP);
    pool.sibling_step = EXTEND_SIBLING_STEP;
    CHECK(extend_pool_next(&pool, 1) == 1);
    extend_pool_take(&pool, 1);
    CHECK(extend_pool_next(&pool, 1) == 3 + EXTEND_SIBLING_STEP);
    CHECK(extend_pool_next(&pool, 17) == 3 + EXTEND_SIBLING_STEP);  /* min_length is on the length itself */
    CHECK(extend_pool_add_sfen(&pool, "orphan", 9, 0, 99) == 1);     /* a parent not before it: none */
    CHECK(pool.parent[pool.n - 1] == -1);
    extend_pool_free(&pool);
}

static Verdict *verdict(int length, int npv) {
    Verdict *v = calloc(1, sizeof *v);
    v->result = VERDICT_MATE, v->length = length, v->length_ub = length + 2, v->pv_len = npv, v->cook_ply = -1;
    v->nodes = 1000u * (unsigned)length;
    for (int i = 0; i < npv; i++) v->pv[i] = (Move)(100 + i);
    return v;
}

/* Lookups honour the budget, a larger budget replaces, and the file round trip
 * keeps everything, a record cut short by a crash included (dropped, and the
 * next append follows the last good record). */
TEST(vcache_budget_and_file_round_trip) {
    VCache *c = vcache_new();
    Verdict *v1 = verdict(7, 7), *v2 = verdict(9, 9), *out = calloc(1, sizeof *out);
    CHECK(vcache_get(c, "a", 1, out) == 0);
    CHECK(!vcache_put(c, "a", v1, 1000));
    CHECK(vcache_get(c, "a", 1000, out) == 1000 && out->length == 7 && out->pv_len == 7 && out->pv[6] == 106 &&
          out->nodes == 7000);
    CHECK(vcache_get(c, "a", 1001, out) == 0);  /* asked for more than it had */
    CHECK(!vcache_put(c, "a", v2, 500));        /* smaller budget: kept as it was */
    CHECK(vcache_get(c, "a", 1, out) == 1000 && out->length == 7);
    CHECK(!vcache_put(c, "a", v2, 5000));
    CHECK(vcache_get(c, "a", 1, out) == 5000 && out->length == 9 && out->pv[8] == 108);
    for (int i = 0; i < 3000; i++) {  /* past several table growths */
        char k[32];
        snprintf(k, sizeof k, "board %d", i);
        v1->length = i;
        CHECK(!vcache_put(c, k, v1, 77));
    }
    CHECK(vcache_size(c) == 3001);
    char path[] = "/tmp/tsumegen_vcache_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w+b");
    CHECK(f && !vcache_append(c, f));
    CHECK(!vcache_append(c, f));  /* nothing new: nothing written */
    long size = ftell(f);
    fclose(f);
    /* a crash in the middle of the last record */
    CHECK(truncate(path, size - 3) == 0);
    VCache *d = vcache_new();
    f = fopen(path, "a+b");
    CHECK(f && vcache_load(d, f) == 3000);
    CHECK(vcache_get(d, "a", 1, out) == 5000 && out->length == 9 && out->pv_len == 9 && out->nodes == 9000);
    CHECK(vcache_get(d, "board 2998", 77, out) == 77 && out->length == 2998);
    CHECK(vcache_get(d, "board 2999", 1, out) == 0);  /* the record cut short */
    CHECK(!vcache_put(d, "board 2999", v1, 77) && !vcache_append(d, f));
    fclose(f);
    VCache *e = vcache_new();
    f = fopen(path, "rb");
    CHECK(f && vcache_load(e, f) == 3001);  /* also read-only: nothing to cut */
    fclose(f);
    f = fopen(path, "w");
    fputs("something else\n", f);
    fclose(f);
    VCache *g = vcache_new();
    f = fopen(path, "rb");
    CHECK(f && vcache_load(g, f) == -1);
    fclose(f);
    remove(path);
    vcache_free(c); vcache_free(d); vcache_free(e); vcache_free(g);
    free(v1); free(v2); free(out);
}
