/* test_solve.c - unit tests of the df-pn engine, the exact tsume answer and the
 * proof checker on small positions with known answers. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../host/tsume.h"
#include "../host/proofcheck.h"
#include "../host/variations.h"

static DfCtx *ctx(void) {
    static DfCtx *c;
    if (!c) c = df_new(16);
    return c;
}

static int pv_is(const TsAnswer *a, const char *usi) {
    char buf[1024] = "", mv[8];
    for (int i = 0; i < a->npv; i++) {
        move_format(a->pv[i], mv);
        if (i) strcat(buf, " ");
        strcat(buf, mv);
    }
    if (strcmp(buf, usi)) fprintf(stderr, "  pv '%s', expected '%s'\n", buf, usi);
    return !strcmp(buf, usi);
}

static void solve(const char *sfen, TsAnswer *a) {
    Position pos = test_load(sfen);
    TsOptions o = {5000000, 20, 1, 1, 4, 0, 0, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
    ts_solve(ctx(), &pos, &o, a);
}

/* Solves sfen and checks a mate of the given exact length that passes the proof
 * checker, with the main line pv (space-separated USI) unless pv is NULL. */
static void solve_mate(const char *sfen, int length, const char *pv, TsAnswer *a) {
    solve(sfen, a);
    CHECK(a->result == TS_MATE);
    CHECK_EQ_U64(a->length, length);
    CHECK(a->exact_length);
    if (pv) CHECK(pv_is(a, pv));
    CHECK_EQ_U64(a->verified, 1);
}

static void count_progress(void *arg, uint64_t nodes) {
    uint64_t *calls = arg;
    calls[0]++;
    calls[1] = nodes;
}

/* The progress hook (`solve` on a terminal) fires at every multiple of its period
 * of the node count, from inside the search: a whole answer's worth of calls. */
TEST(solve_progress_hook) {
    TsAnswer *a = malloc(sizeof *a);
    uint64_t calls[2] = {0, 0};
    df_set_progress(ctx(), count_progress, calls, 64);
    solve("+Ngkr5/1g7/3+S5/+S1B6/9/9/9/9/9 b rb2g2s3n4l18p 1", a);  /* ShogiBoardQ 11-ply */
    df_set_progress(ctx(), NULL, NULL, 0);
    CHECK(a->result == TS_MATE && a->nodes >= 256);
    CHECK_EQ_U64(calls[0], a->nodes / 64);
    CHECK_EQ_U64(calls[1], a->nodes / 64 * 64);
    free(a);
}

TEST(solve_mate1_head_gold) {
    TsAnswer a;
    solve_mate("4k4/9/4P4/9/9/9/9/9/9 b G 1", 1, "G*5b", &a);
    CHECK(a.perfect);
}

/* A node limit inside the length search leaves proven bounds around the true 11. */
TEST(solve_length_bounds_at_a_limit) {
    TsAnswer *a = malloc(sizeof *a);
    Position pos = test_load("+Ngkr5/1g7/3+S5/+S1B6/9/9/9/9/9 b rb2g2s3n4l18p 1");  /* ShogiBoardQ 11-ply */
    for (uint64_t n = 400; n <= 550; n += 50) {  /* (the plain proof takes ~350 nodes, the exact 11 ~600) */
        TsOptions o = {n, 0, 0, 0, 6, 0, 0, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
        ts_solve(ctx(), &pos, &o, a);
        CHECK(a->result == TS_MATE && !a->exact_length);
        CHECK(a->length_lb >= 1 && a->length_lb <= 11 && a->length >= 11);
    }
    TsOptions full = {0, 0, 0, 0, 6, 0, 0, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
    ts_solve(ctx(), &pos, &full, a);
    CHECK(a->exact_length && a->length == 11 && a->length_lb == 11);
    free(a);
}

/* sug20: the final position still allows (futile) drops: mate 3, not 11 */
TEST(solve_futile_drops_sug20) {
    TsAnswer a;
    solve_mate("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1", 3, "G*3i 2h1i 3g1g", &a);
}

/* sug1: mate 5 with a futile-drop ending (a 7-ply line exists) */
TEST(solve_futile_drops_sug1) {
    TsAnswer a;
    solve_mate("9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1", 5, "2d1c 1b1c N*2e 1c1b 4d1d", &a);
}

/* yo257b needs non-promotions */
TEST(solve_non_promotion_yo257b) {
    TsAnswer a;
    solve_mate("7nk/9/7Gp/6+RP1/9/9/1+p7/9/K8 b Pr2b3g4s3n4l14p 1", 9, NULL, &a);
}

/* A lone pawn cannot mate: an absolute disproof (no repetition, no depth bound). */
TEST(solve_nomate_pawn_only) {
    TsAnswer a;
    solve("4k4/9/9/9/9/9/9/9/9 b P 1", &a);
    CHECK(a.result == TS_NOMATE);
}

/* 駒余り: an extra gold in hand, every line leaves it over. */
TEST(solve_leftover_flag) {
    TsAnswer a;
    solve_mate("4k4/9/4P4/9/9/9/9/9/9 b 2G 1", 1, "G*5b", &a);
    CHECK_EQ_U64(a.leftover, 1);
    CHECK(!a.perfect);
}

/* Limits give unknown, never nomate. */
TEST(solve_limit_gives_unknown) {
    Position pos = test_load("7k1/9/9/9/9/9/9/9/9 b B2G2SL2P2rb2g2s4n3l16p 1");
    TsOptions o = {20000, 0, 1, 0, 4, 0, 0, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
    TsAnswer a;
    ts_solve(ctx(), &pos, &o, &a);
    CHECK(a.result == TS_UNKNOWN);
}

/* Depth-limited queries: "mate within 1" fails for a 3-ply problem, "within 3" holds,
 * and the futile-rule length is never longer than the plain one. */
TEST(dfpn_depth_bounds) {
    DfCtx *c = ctx();
    Position pos = test_load("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1");
    df_begin(c, BLACK, 2000000, 0);
    DfResult r1 = df_search(c, &pos, 1, DF_FUTILE);
    DfResult r3 = df_search(c, &pos, 3, DF_FUTILE);
    DfResult p = df_search(c, &pos, DF_MAX_DEPTH, DF_PLAIN);
    CHECK(r1.result == DF_DISPROVEN && (r1.flags & DF_DEPTH));
    CHECK(r3.result == DF_PROVEN && r3.len == 3);
    CHECK(p.result == DF_PROVEN && p.len >= 3);
    CHECK_EQ_U64(df_exact_or(c, &pos, p.len, NULL), 3);
    int lb = 0;  /* bottom up: the same length */
    CHECK_EQ_U64(df_exact_or(c, &pos, p.len, &lb), 3);
    df_begin(c, BLACK, 1, 0);  /* a limit before the proof: a lower bound, never above 3 */
    CHECK_EQ_U64(df_exact_or(c, &pos, 11, &lb), (uint64_t)-2);
    CHECK(lb >= 1 && lb <= 3 && lb % 2 == 1);
}

/* Depth-limited answers under the futile rule where interposition drops decide the
 * length: Zuko 7 after its first four moves (exact 11; cshogi's df-pn agrees).  Every
 * "mate within d" for d < 11 is a disproof, with a warm table (bottom up) and with a
 * cold one (the drops' futility tests then run against the query depth first). */
TEST(dfpn_futile_depth_answers) {
    DfCtx *c = ctx();
    Position pos = test_load("1n1g5/2s6/1k1rp4/1BN6/r8/1PN6/9/9/9 b BG2S2gsn4l16p 1");
    df_begin(c, BLACK, 5000000, 0);
    df_set_no_rep(c, 1);
    for (int d = 1; d <= 9; d += 2) CHECK(df_search(c, &pos, d, DF_FUTILE).result == DF_DISPROVEN);
    DfResult r = df_search(c, &pos, 11, DF_FUTILE);
    CHECK(r.result == DF_PROVEN && r.len == 11);
    for (int d = 9; d <= 11; d += 2) {
        df_begin(c, BLACK, 5000000, 0);
        df_set_no_rep(c, 1);
        r = df_search(c, &pos, d, DF_FUTILE);
        CHECK(r.result == (d == 9 ? DF_DISPROVEN : DF_PROVEN));
    }
    df_set_no_rep(c, 0);
}

/* A plain-rule depth cut whose defender has only drops left is a drop refutation:
 * a futile-rule query must not borrow it.  R5e-5a+ mates at once under the futile
 * rule (every interposition on 4a-2a is captured with mate: the knight guards 2a),
 * while under the plain rule the defender's drops last, so "no mate within 1" holds
 * there only because of drops.  The plain query runs first and fills the table. */
TEST(dfpn_plain_depth_cut_by_drops_not_borrowed) {
    DfCtx *c = ctx();
    Position pos = test_load("8k/9/6N1G/9/4R4/9/9/9/9 b - 1");
    df_begin(c, BLACK, 2000000, 0);
    df_set_no_rep(c, 1);
    CHECK(df_search(c, &pos, 1, DF_PLAIN).result == DF_DISPROVEN);
    DfResult r = df_search(c, &pos, 1, DF_FUTILE);
    CHECK(r.result == DF_PROVEN && r.len == 1);
    df_begin(c, BLACK, 2000000, 0);  /* and cold: the same answer */
    r = df_search(c, &pos, 1, DF_FUTILE);
    CHECK(r.result == DF_PROVEN && r.len == 1);
    df_set_no_rep(c, 0);
}

/* The final-position test of the checker: a plain mate, and sug20's end (drops left, all futile). */
TEST(proofcheck_final_mate) {
    Position pos = test_load("4k4/9/4P4/9/9/9/9/9/9 b G 1");
    Move m;
    char err[ERR_MAX];
    Undo u;
    CHECK(move_parse(&pos, "G*5b", &m, err, sizeof err) == 0);
    pos_do_move(&pos, m, &u);
    CHECK(pc_final_mate(&pos, BLACK, 0));
    Position q = test_load("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1");
    const char *line[] = {"G*3i", "2h1i", "3g1g"};
    for (int i = 0; i < 3; i++) {
        CHECK(move_parse(&q, line[i], &m, err, sizeof err) == 0);
        pos_do_move(&q, m, &u);
    }
    MoveList ev;
    CHECK(gen_evasions(&q, &ev) > 0);  /* drops are still legal ... */
    CHECK(pc_final_mate(&q, BLACK, 0)); /* ... but all futile */
}

/* The proof checker rejects false claims, each with its own reason: a proof bound
 * too short for the mate, a main line that stops early or whose attacker move does
 * not check, and a "mate" where none exists (every check disproved). */
TEST(proofcheck_rejects_false_claims) {
    const char *sfen = "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1";  /* mate in 3 */
    static TsAnswer a, bad;
    solve_mate(sfen, 3, NULL, &a);
    char msg[512];
    struct { const char *why; int plain_len, npv, pv0_quiet; } cases[] = {
        {"no mating check", 1, 0, 0},  /* bound 1: no check mates within 0 more plies */
        {"main line does not end in mate", 3, 1, 0},
        {"main-line attacker move does not check", 3, 3, 1},
    };
    for (int k = 0; k < 3; k++) {
        bad = a;
        bad.plain_len = cases[k].plain_len;
        bad.npv = cases[k].npv;
        if (cases[k].pv0_quiet) {
            Position q = test_load(sfen);
            char err[ERR_MAX];
            CHECK(move_parse(&q, "5e4d", &bad.pv[0], err, sizeof err) == 0);  /* a quiet bishop move */
        }
        Position pos = test_load(sfen);
        CHECK_EQ_U64(pc_verify(ctx(), &pos, &bad, 0, msg, sizeof msg), 0);
        if (!strstr(msg, cases[k].why)) fprintf(stderr, "  case %d: '%s'\n", k, msg), test_failures_in_current++;
    }
    /* no mate at all: a lone pawn in hand */
    Position pos = test_load("4k4/9/9/9/9/9/9/9/9 b P 1");
    solve("4k4/9/9/9/9/9/9/9/9 b P 1", &a);
    CHECK(a.result == TS_NOMATE);
    bad = a;
    bad.plain_len = 7;
    bad.npv = 0;
    CHECK_EQ_U64(pc_verify(ctx(), &pos, &bad, 0, msg, sizeof msg), 0);
    if (!strstr(msg, "no mating check")) fprintf(stderr, "  nomate: '%s'\n", msg), test_failures_in_current++;
}

/* Proof-hand superiority with the drop correction: A is mate in 1 only because the
 * defender holds nothing to interpose; B (same board, one pawn fewer in the
 * attacker's hand, so the defender holds a pawn) is not.  A's proof, cached first,
 * must not be reused for B. */
TEST(dfpn_proof_hand_interpose_correction) {
    DfCtx *c = ctx();
    Position a = test_load("8k/6G2/9/9/9/9/bnnnn4/bggg5/ssss5 b 2R4L18P 1");
    Position b = test_load("8k/6G2/9/9/9/9/bnnnn4/bggg5/ssss5 b 2R4L17P 1");
    df_begin(c, BLACK, 2000000, 0);
    DfResult ra = df_search(c, &a, 1, DF_PLAIN);
    DfResult rb = df_search(c, &b, 1, DF_PLAIN);
    CHECK(ra.result == DF_PROVEN && ra.len == 1);
    CHECK(rb.result == DF_DISPROVEN);
    /* and the other way round: a proof found with fewer pieces holds with more (the
     * table answers with that proof's length, an upper bound) */
    Position d = test_load("8k/6G2/9/9/9/9/bnnnn4/bggg5/ssss5 b 2R4L17P 1");
    df_begin(c, BLACK, 2000000, 0);
    DfResult rd = df_search(c, &d, 3, DF_PLAIN);
    CHECK(rd.result == DF_PROVEN);
    uint64_t n0 = df_nodes(c);
    DfResult ra2 = df_search(c, &a, 3, DF_PLAIN);
    CHECK(ra2.result == DF_PROVEN && ra2.len <= 3);
    CHECK_EQ_U64(df_nodes(c) - n0, 1);  /* straight from the table */
}

/* Disproof hands: a no-mate holds for more pieces of a kind whose extra copies give
 * no new check.  King on 5a walled in by its own silvers and golds, the attacker's
 * pawn on file 5 (so no pawn drop checks), gold and pawn in hand: the one check is
 * G*5b, taken by the king or a gold, after which the attacker has no check.  The
 * disproof is stored for any number of pawns and one gold: three pawns are answered
 * from the table, two golds are not. */
TEST(dfpn_disproof_hand_superiority) {
    DfCtx *c = ctx();
    Position a = test_load("3sks3/3g1g3/9/9/9/9/9/9/4P4 b GP 1");
    Position more_pawns = test_load("3sks3/3g1g3/9/9/9/9/9/9/4P4 b G3P 1");
    Position more_golds = test_load("3sks3/3g1g3/9/9/9/9/9/9/4P4 b 2GP 1");
    df_begin(c, BLACK, 200000, 0);
    DfResult r = df_search(c, &a, DF_MAX_DEPTH, DF_PLAIN);
    CHECK(r.result == DF_DISPROVEN && !(r.flags & (DF_DEPTH | DF_REP)));
    CHECK(df_probe(c, &more_pawns, DF_MAX_DEPTH, DF_PLAIN).result == DF_DISPROVEN);
    CHECK(df_probe(c, &more_golds, DF_MAX_DEPTH, DF_PLAIN).result == DF_UNKNOWN);
    /* and a search of its own agrees with the table */
    df_begin(c, BLACK, 200000, 0);
    CHECK(df_search(c, &more_pawns, DF_MAX_DEPTH, DF_PLAIN).result == DF_DISPROVEN);
}

/* A plain "no mate within D" whose refutations use drops holds under the futile
 * rule as "no mate within (D - 2h - 2) / 2", h the defender's pieces in hand
 * (futile_depth_of_plain).  ShogiBoardQ 13-ply board with the defender's hand cut to
 * one pawn (strict hands): not mated within 11 under the plain rule, a drop among
 * the refutations, so the table answers the futile rule within 3 but not within 5;
 * a futile-rule search of its own agrees. */
TEST(dfpn_futile_borrows_deep_plain_disproof) {
    DfCtx *c = ctx();
    Position pos;
    char err[ERR_MAX];
    CHECK(sfen_parse("+Pg7/9/9/3R5/1Rg+P5/k1L6/9/2L6/9 b p 1", &pos, 1, err, sizeof err) == 0);
    df_begin(c, BLACK, 2000000, 0);
    DfResult r = df_search(c, &pos, 11, DF_PLAIN);
    CHECK(r.result == DF_DISPROVEN && (r.flags & DF_DEPTH));
    CHECK(df_probe(c, &pos, 11, DF_FUTILE).result == DF_UNKNOWN);  /* (a drop refutes: not borrowed as is) */
    CHECK(df_probe(c, &pos, 3, DF_FUTILE).result == DF_DISPROVEN);
    CHECK(df_probe(c, &pos, 5, DF_FUTILE).result == DF_UNKNOWN);
    df_begin(c, BLACK, 2000000, 0);
    CHECK(df_search(c, &pos, 3, DF_FUTILE).result == DF_DISPROVEN);
}

/* Unbounded no-mate with endless checks (bare king on 5e, rook and bishop in hand):
 * every line ends in a repetition.  Disproofs bound to the current path are cached
 * per path prefix and a disproof that only assumes "coming back here fails" is
 * path-free, so this finishes quickly; without them df-pn re-searched the same
 * repetition-bound subtrees forever (unknown after 3M nodes). */
TEST(dfpn_repetition_nomate_finishes) {
    DfCtx *c = ctx();
    Position pos = test_load("9/9/9/9/4k4/9/9/9/9 b RB 1");
    df_begin(c, BLACK, 500000, 0);
    DfResult r = df_search(c, &pos, DF_MAX_DEPTH, DF_PLAIN);
    CHECK(r.result == DF_DISPROVEN && !(r.flags & (DF_DEPTH | DF_REP)));
    TsOptions o = {500000, 0, 1, 1, 6, 0, 0, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
    TsAnswer *a = malloc(sizeof *a);
    ts_solve(c, &pos, &o, a);
    CHECK(a->result == TS_NOMATE);
    free(a);
}

/* The unbounded 余詰 pass re-walks the attacker's alternatives after the bounded
 * one; a promotion/non-promotion alternative is still noted once (it was twice). */
TEST(solve_confirm_notes_promotion_once) {
    TsAnswer *a = malloc(sizeof *a);
    Position pos = test_load("3k5/2+s6/4P4/3+B1+P3/8B/9/9/9/9 b GP2r3g3s4n4l15p 1");  /* compose extend, 17 plies */
    TsOptions o = {5000000, 20, 1, 0, 6, 0, 1, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
    ts_solve(ctx(), &pos, &o, a);
    CHECK(a->result == TS_MATE && a->length == 17 && a->perfect && a->complete);
    int promo = 0;
    for (int i = 0; i < a->nnotes; i++) promo += !strncmp(a->notes[i], "promotion_optional", 18);
    CHECK_EQ_U64(promo, 1);
    free(a);
}

/* 駒余り is claimed only when every tie among longest defences was compared: with a
 * tie budget of one ply the line's leftover is "unproved" (not a flaw, analysis
 * incomplete), with the default budget it is the flaw.  (A ShogiBoardQ 5-ply
 * problem with one pawn moved into the attacker's hand: every line leaves it.) */
TEST(solve_leftover_needs_every_tie_compared) {
    TsAnswer *a = malloc(sizeof *a);
    Position pos = test_load("+B8/2R6/k8/9/l8/9/9/9/9 b Prb4g4s4n3l17p 1");
    TsOptions o = {5000000, 20, 1, 0, 6, 0, 0, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
    ts_solve(ctx(), &pos, &o, a);
    CHECK(a->result == TS_MATE && a->exact_length && a->leftover == 1 && !a->leftover_unproved && !a->perfect);
    o.tie_plies = 1;
    ts_solve(ctx(), &pos, &o, a);
    CHECK(a->result == TS_MATE && a->exact_length && a->leftover == 1 && a->leftover_unproved);
    CHECK(!a->perfect && !a->complete);
    int noted = 0;
    for (int i = 0; i < a->nnotes; i++) noted += !strncmp(a->notes[i], "leftover_unproved", 17);
    CHECK_EQ_U64(noted, 1);
    free(a);
}

/* The exact length three ways (--length-search): bottom up, the walk along the main
 * line alone, and the two in turns; with small first caps every kind of round runs
 * (capped top-down queries, the settling of other checks, bottom up resumed after a
 * walk round).  The answers must not depend on the search. */
TEST(solve_length_search_variants_agree) {
    static const struct { const char *sfen; int len; } probs[] = {
        {"9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1", 21},  /* Zuko 2 */
        {"n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1", 21},      /* Zuko 5 */
        {"7n1/5+B+P1r/7k1/7+p1/6P2/7N1/7N1/8B/9 b N2Pr4g4s4l13p 1", 23},       /* Zuko 18 */
    };
    static const struct { int search; uint64_t cap; } ways[] = {
        {TS_LEN_UP, 0}, {TS_LEN_WALK, 0}, {TS_LEN_WALK, 40}, {TS_LEN_AUTO, 0}, {TS_LEN_AUTO, 200}, {TS_LEN_AUTO, 3000},
    };
    static TsAnswer a, first;
    for (size_t i = 0; i < sizeof probs / sizeof probs[0]; i++)
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
            Position pos = test_load(probs[i].sfen);
            TsOptions o = {20000000, 60, 1, 1, 4, 0, 0, 0, 0, ways[w].search, ways[w].cap, NULL, 0, 0, 0, 0, 0, 0};
            ts_solve(ctx(), &pos, &o, &a);
            CHECK(a.result == TS_MATE && a.exact_length);
            CHECK_EQ_U64(a.length, probs[i].len);
            CHECK_EQ_U64(a.npv, probs[i].len);
            CHECK_EQ_U64(a.verified, 1);
            if (w == 0) first = a;
            CHECK_EQ_U64(a.perfect, first.perfect);
            CHECK_EQ_U64(a.nyozume, first.nyozume);
            CHECK_EQ_U64(a.leftover, first.leftover);
        }
}

/* The same with a second thread on the table (solve's lone problem): bottom up and
 * the walk at once, the first exact answer stopping the other.  Repeated, since
 * which one wins (and what each finds in the table) varies from run to run; the
 * answer may not.  Zuko 22 (51 plies) is long enough for the owner to settle the
 * main line ahead of the walk first (SETTLE_AHEAD_MIN_PLIES). */
#ifdef TG_DEBUG
#define PAIR_REPEATS 1  /* make check: the pair's code under the sanitizers once (3x: 90 s) */
#else
#define PAIR_REPEATS 3
#endif
TEST(solve_pair_threads_agree) {
    static const struct { const char *sfen; int len; } probs[] = {
        {"9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1", 21},  /* Zuko 2 */
        {"n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1", 21},      /* Zuko 5 */
        {"7n1/5+B+P1r/7k1/7+p1/6P2/7N1/7N1/8B/9 b N2Pr4g4s4l13p 1", 23},       /* Zuko 18 */
        {"3g1+P1g1/3S2Ps1/2PpPkL2/4L4/4p2G1/4S4/1B1N1N3/1NN6/B6+r1 b Lrgsl12p 1", 51},  /* Zuko 22 */
    };
    static TsAnswer a, one;
    DfCtx *helper = df_new_helper(ctx());
    CHECK(helper != NULL);
    for (size_t i = 0; helper && i < sizeof probs / sizeof probs[0]; i++) {
        Position pos = test_load(probs[i].sfen);
        TsOptions o = {0, 60, 1, 1, 4, 0, 0, 0, 0, TS_LEN_AUTO, 0, NULL, 0, 0, 0, 0, 0, 0};
        ts_solve(ctx(), &pos, &o, &one);
        o.helper = helper;
        for (int rep = 0; rep < PAIR_REPEATS; rep++) {
            ts_solve(ctx(), &pos, &o, &a);
            CHECK(a.result == TS_MATE && a.exact_length);
            CHECK_EQ_U64(a.length, probs[i].len);
            CHECK_EQ_U64(a.length_lb, probs[i].len);
            CHECK_EQ_U64(a.npv, probs[i].len);
            CHECK_EQ_U64(a.verified, 1);
            CHECK_EQ_U64(a.perfect, one.perfect);
            CHECK_EQ_U64(a.nyozume, one.nyozume);
            CHECK_EQ_U64(a.leftover, one.leftover);
        }
    }
    df_free(helper);
}

/* The first `max` problems of a ShogiBoardQ set as positions; how many were read.
 * two_in (or NULL): each problem's position after the first two moves of its
 * solution (then problems without moves are passed over). */
static int boardq_positions(int plies, int max, Position *out, Position *two_in) {
    char path[128], line[4096];
    snprintf(path, sizeof path, "data/third_party/shogiboardq/tsume_%dply_1000_20261001.txt", plies);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *mv = strstr(line, " moves ");
        if (!mv && two_in) continue;
        if (mv) *mv = 0;
        out[n] = test_load(line);
        if (two_in) {
            Position p = out[n];
            char *tok = strtok(mv + 7, " \n");
            for (int k = 0; k < 2 && tok; k++, tok = strtok(NULL, " \n")) {
                Move m = MOVE_NONE;
                char err[128];
                CHECK(move_parse(&p, tok, &m, err, sizeof err) == 0);
                Undo u;
                pos_do_move(&p, m, &u);
            }
            two_in[n] = p;
        }
        n++;
    }
    fclose(f);
    return n;
}

/* OR nodes one ply from the bound are settled by the mate-in-1 scan (or_last_ply),
 * those three plies from it by or_three_ply (level 2); the search must answer
 * exactly as when it expands them.  Every "mate within d?" (d = 1, 3, ..., L), and
 * the exact length, under both rules, on ShogiBoardQ problems of 5-13 plies and on
 * the positions two plies in, at every level with and without the repetition test,
 * cold tables each time. */
TEST(dfpn_last_ply_scan_same_answers) {
    static const struct { int plies, count; } sets[] = {{5, 40}, {7, 40}, {11, 20}, {13, 20}};
    static Position probs[40], two_in[40];
    DfCtx *c = ctx();
    int compared = 0;
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        int n = boardq_positions(sets[s].plies, sets[s].count, probs, two_in);
        CHECK_EQ_U64(n, sets[s].count);
        for (int i = 0; i < n; i++) {
            for (int in = 0; in < 2; in++) {  /* the problem, then two plies in */
                Position pos = in ? two_in[i] : probs[i];
                int len = sets[s].plies - 2 * in;
                for (int mode = DF_PLAIN; mode <= DF_FUTILE; mode++)
                    for (int d = 1; d <= len; d += 2) {
                        for (int v = 0; v < 6; v++) {  /* level v % 3, no_rep v / 3 */
                            df_begin(c, BLACK, 2000000, 0);
                            df_set_last_ply(c, v % 3);
                            df_set_no_rep(c, v / 3);
                            DfResult r = df_search(c, &pos, d, mode);
                            CHECK_EQ_U64(r.result, d < len ? DF_DISPROVEN : DF_PROVEN);
                        }
                        compared++;
                    }
                for (int v = 0; v < 6; v++) {
                    df_begin(c, BLACK, 2000000, 0);
                    df_set_last_ply(c, v % 3);
                    df_set_no_rep(c, v / 3);
                    CHECK_EQ_U64(df_exact_or(c, &pos, len, NULL), len);
                }
                df_set_no_rep(c, 0);
            }
        }
    }
    df_set_last_ply(c, 2);
    CHECK(compared > 300);
}

/* The 1+epsilon trick's epsilon only orders the search (the walk's settling
 * searches and the 余詰 tests run with epsilon 1): every answer is the same under
 * epsilon 1, 1/2 and 1/4 (and a divisor below 1 is taken as 1), cold tables each
 * time: the plain unbounded search proves each problem, "mate within L-2?" is no
 * under both rules, the exact length is L. */
TEST(dfpn_epsilon_same_answers) {
    static const int plies[] = {7, 11, 13};
    static Position pos[30];
    DfCtx *c = ctx();
    int compared = 0;
    for (size_t s = 0; s < sizeof plies / sizeof plies[0]; s++) {
        int n = boardq_positions(plies[s], 30, pos, NULL), L = plies[s];
        CHECK_EQ_U64(n, 30);
        for (int i = 0; i < n; i++)
            for (int div = 0; div <= 4; div += 2) {  /* (0: clamped to 1) */
                df_begin(c, BLACK, 2000000, 0);
                df_set_epsilon(c, div);
                CHECK_EQ_U64(df_search(c, &pos[i], DF_MAX_DEPTH, DF_PLAIN).result, DF_PROVEN);
                for (int mode = DF_PLAIN; mode <= DF_FUTILE; mode++)
                    CHECK_EQ_U64(df_search(c, &pos[i], L - 2, mode).result, DF_DISPROVEN);
                CHECK_EQ_U64(df_exact_or(c, &pos[i], L, NULL), L);
                compared++;
            }
    }
    df_set_epsilon(c, DF_EPSILON_DIV);
    CHECK(compared == 270);
}

/* ts_henka_chou_notes on a hand-made answer: an 11-ply main line that leaves a
 * piece, clean variations at plies 2 and 6 (shorter than the main line from there,
 * as the tie-break demands).  Backwards, the clean line through the main line's
 * moves is 2 plies from ply 6 (its variation), 4 from ply 4, 6 from ply 2; a
 * variation at ply 2 of 8 clean plies is longer, so the turn is ply 2, not the
 * latest clean alternative (ply 6); of 6 plies it ties, and the turn is ply 6.  A
 * variation whose leftover is unproved keeps the note back. */
TEST(solve_henka_chou_turn) {
    for (int len2 = 6; len2 <= 8; len2 += 2) {
        TsAnswer *a = calloc(1, sizeof *a);
        CHECK(a != NULL);
        if (!a) return;
        a->result = TS_MATE;
        a->length = a->npv = 11;
        a->exact_length = 1;
        a->leftover = 1;
        for (int i = 0; i < 11; i++) a->pv[i] = make_move(i, i + 9, 0);
        Move m2[8] = {make_move(40, 41, 0)}, m6[2] = {make_move(50, 51, 0)};
        TsVariation v[2] = {{.ply = 2, .parent = -1, .level = 1, .result = TS_MATE, .exact = 1, .length = len2,
                             .nmoves = len2, .moves = m2},
                            {.ply = 6, .parent = -1, .level = 1, .result = TS_MATE, .exact = 1, .length = 2,
                             .nmoves = 2, .moves = m6}};
        TsVariations vs = {.v = v, .n = 2};
        ts_henka_chou_notes(&vs, a);
        CHECK_EQ_U64(a->nnotes, 1);
        const char *want = len2 == 8 ? "henka_chou: ply 2 " : "henka_chou: ply 6 ";
        CHECK(a->nnotes == 1 && strncmp(a->notes[0], want, strlen(want)) == 0);
        a->leftover = 0;  /* a main line that leaves nothing: no note */
        a->nnotes = 0;
        ts_henka_chou_notes(&vs, a);
        CHECK_EQ_U64(a->nnotes, 0);
        /* a variation at ply 4 that leaves a piece, but whose ties were not all compared:
         * it might end clean and be the longer line, so no note; proved, the same note */
        a->leftover = 1;
        TsVariation w[3] = {v[0], v[1],
                            {.ply = 4, .parent = -1, .level = 1, .result = TS_MATE, .exact = 1, .length = 6,
                             .nmoves = 2, .moves = m6, .leftover = 1, .leftover_unproved = 1}};
        TsVariations ws = {.v = w, .n = 3};
        ts_henka_chou_notes(&ws, a);
        CHECK_EQ_U64(a->nnotes, 0);
        w[2].leftover_unproved = 0;
        ts_henka_chou_notes(&ws, a);
        CHECK(a->nnotes == 1 && strncmp(a->notes[0], want, strlen(want)) == 0);
        /* with the notes full, the note is counted, not dropped in silence */
        a->nnotes = TS_MAX_NOTES;
        ts_henka_chou_notes(&ws, a);
        CHECK(a->nnotes == TS_MAX_NOTES && a->notes_cut == 1);
        free(a);
    }
}

/* ts_add_note keeps TS_MAX_NOTES notes and counts the rest (solve's JSON and the USI
 * engine print the count as a last note). */
TEST(solve_notes_cap) {
    TsAnswer *a = calloc(1, sizeof *a);
    CHECK(a != NULL);
    if (!a) return;
    char note[32];
    for (int i = 0; i < TS_MAX_NOTES + 3; i++) {
        snprintf(note, sizeof note, "note %d", i);
        ts_add_note(a, note);
    }
    CHECK_EQ_U64(a->nnotes, TS_MAX_NOTES);
    CHECK_EQ_U64(a->notes_cut, 3);
    CHECK(strcmp(a->notes[TS_MAX_NOTES - 1], "note 15") == 0);
    free(a);
}
