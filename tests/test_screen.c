/* test_screen.c - core/screen.c (the code the OpenCL kernel runs) against the
 * MoveList generators of core/movegen.c and core/mate1.c, host/sfen.c's
 * legality, an independent mate-in-3, and hand-made boards for every legality
 * reason and the mate edge cases.  Kernel == reference is tests/test_screen.sh. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../host/screen.h"
#include "../host/sfen.h"
#include "../core/mate1.h"

static int sorted_equal(const Move *a, int na, const Move *b, int nb) {
    Move x[MAX_MOVES], y[MAX_MOVES];
    if (na != nb) return 0;
    memcpy(x, a, (size_t)na * sizeof *a);
    memcpy(y, b, (size_t)nb * sizeof *b);
    for (int i = 1; i < na; i++)
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) { Move t = x[j]; x[j] = x[j - 1]; x[j - 1] = t; }
    for (int i = 1; i < nb; i++)
        for (int j = i; j > 0 && y[j - 1] > y[j]; j--) { Move t = y[j]; y[j] = y[j - 1]; y[j - 1] = t; }
    return !memcmp(x, y, (size_t)na * sizeof *x);
}

/* Independent mate-in-3 with full move lists (core/movegen.c, core/mate1.c). */
static int ref_mate3(Position *pos) {
    MoveList checks, m1;
    if (gen_mate1(pos, &m1)) return 1;
    gen_checks(pos, &checks);
    for (int i = 0; i < checks.count; i++) {
        Undo u;
        MoveList ev;
        int all = 1;
        pos_do_move(pos, checks.moves[i], &u);
        gen_evasions(pos, &ev);
        for (int j = 0; j < ev.count && all; j++) {
            Undo u2;
            MoveList mm;
            pos_do_move(pos, ev.moves[j], &u2);
            all = gen_mate1(pos, &mm) > 0;
            pos_undo_move(pos, ev.moves[j], &u2);
        }
        pos_undo_move(pos, checks.moves[i], &u);
        if (all) return 1;
    }
    return 0;
}

/* ScBoard -> SFEN text without judging it (for sfen_parse). */
static void board_sfen(const ScBoard *b, char *out) {
    static const char L[] = ".PLNSBRGK";
    int n = 0;
    for (int rank = 0; rank < 9; rank++) {
        int empty = 0;
        for (int file = 8; file >= 0; file--) {
            int pc = b->board[make_sq(file, rank)];
            if (!pc) { empty++; continue; }
            if (empty) out[n++] = (char)('0' + empty), empty = 0;
            int pt = piece_type(pc);
            if (pt > KING) out[n++] = '+', pt -= PROMOTE;
            out[n++] = (char)(L[pt] + (piece_color(pc) ? 32 : 0));
        }
        if (empty) out[n++] = (char)('0' + empty);
        if (rank < 8) out[n++] = '/';
    }
    n += sprintf(out + n, " %c ", b->side ? 'w' : 'b');
    int any = 0;
    for (int c = 0; c < 2; c++)
        for (int pt = 1; pt <= 7; pt++) {
            int k = b->hand[c][pt - 1];
            if (!k) continue;
            if (k > 1) n += sprintf(out + n, "%d", k);
            out[n++] = (char)(L[pt] + (c ? 32 : 0));
            any = 1;
        }
    if (!any) out[n++] = '-';
    strcpy(out + n, " 1");
}

/* Every legal board: iterators and mate lists equal the MoveList generators. */
TEST(screen_core_matches_movegen) {
    enum { N = 60000 };
    ScBoard *b = malloc(N * sizeof *b);
    screen_random_boards(b, N, 12345);
    int legal = 0, mates = 0, m3 = 0, reasons[SC_REASON_NB] = {0};
    for (int i = 0; i < N; i++) {
        Position pos, p2;
        char sfen[256], err[ERR_MAX];
        int reason = sc_setup(&b[i], &pos, 0);
        reasons[reason]++;
        /* legality agrees with host/sfen.c */
        board_sfen(&b[i], sfen);
        int ok = sfen_parse(sfen, &p2, 0, err, sizeof err) == 0;
        if (ok != (reason == SC_OK)) {
            fprintf(stderr, "  legality differs on %s: screen %s, sfen_parse %s\n", sfen, SC_REASON_NAME[reason], ok ? "ok" : err);
            test_failures_in_current++;
        }
        if (reason != SC_OK) continue;
        legal++;
        CHECK(!memcmp(&pos, &p2, offsetof(Position, pad)));  /* fields only: tail padding is unset */
        /* checks in gen_checks order */
        MoveList checks, m1;
        CheckInfo ci;
        ScCheckIter it;
        Move m;
        int nc = 0, nm = 0;
        Move mine[MAX_MOVES];
        gen_checks(&pos, &checks);
        gen_mate1(&pos, &m1);
        checkinfo_init(&pos, &ci);
        sc_checks_init(&pos, &ci, &it);
        while ((m = sc_checks_next(&pos, &ci, &it)) != MOVE_NONE) {
            if (nc >= checks.count || checks.moves[nc] != m) { test_failures_in_current++; break; }
            nc++;
            Undo u;
            MoveList ev;
            ScEvIter ei;
            Move e, evs[MAX_MOVES];
            int ne = 0;
            pos_do_move(&pos, m, &u);
            gen_evasions(&pos, &ev);
            check_evasion_count(&pos, &ev);
            CHECK(sc_has_evasion(&pos) == (ev.count > 0));
            sc_evasions_init(&pos, &ei);
            while ((e = sc_evasions_next(&pos, &ei)) != MOVE_NONE && ne < MAX_MOVES) evs[ne++] = e;
            CHECK(sorted_equal(evs, ne, ev.moves, ev.count));
            pos_undo_move(&pos, m, &u);
            if (!ev.count) mine[nm++] = m;
        }
        CHECK(nc == checks.count);
        CHECK_EQ_U64(count_checks(&pos), checks.count);
        CHECK(nm == m1.count && !memcmp(mine, m1.moves, (size_t)nm * sizeof(Move)));
        CHECK(sc_has_mate1(&pos) == (m1.count > 0));
        ScResult r;
        sc_screen(&b[i], &r, NULL, (i % 8) ? 0 : SC_DO_MATE3);
        CHECK(r.reason == SC_OK && r.checks == checks.count && r.n_mate1 == m1.count);
        for (int k = 0; k < m1.count && k < SC_MATE1_SLOTS; k++) CHECK(r.mate1[k] == (uint16_t)m1.moves[k]);
        if (i % 8 == 0) {
            CHECK(r.mate3 == ref_mate3(&pos));
            m3 += r.mate3;
        }
        mates += m1.count > 0;
        CHECK(pos_check(&pos) == 0);
    }
    printf("  %d boards: %d legal, %d with mate-in-1, %d mate3 of the 1/8 tested; reasons:", N, legal, mates, m3);
    for (int k = 0; k < SC_REASON_NB; k++) printf(" %s %d", SC_REASON_NAME[k], reasons[k]);
    printf("\n");
    CHECK(legal > N / 3 && mates > N / 100 && m3 > mates / 8);
    free(b);
}

static ScResult screen_sfen(const char *sfen, int flags) {
    ScBoard b;
    ScResult r;
    static int32_t w[SC_W_NB];
    memset(&r, 0, sizeof r);
    if (screen_parse_sfen(sfen, &b)) { r.reason = SC_SFEN; return r; }
    sc_screen(&b, &r, w, flags | SC_DO_MATE3 | SC_DO_FUTILE);
    return r;
}

/* Whether usi is among the first min(n, slots) moves of a result's move array. */
static int usi_in(const uint16_t *moves, int n, int slots, const char *usi) {
    for (int i = 0; i < n && i < slots; i++) {
        char buf[8];
        move_format(moves[i], buf);
        if (!strcmp(buf, usi)) return 1;
    }
    return 0;
}

static int has_mate(const ScResult *r, const char *usi) { return usi_in(r->mate1, r->n_mate1, SC_MATE1_SLOTS, usi); }

TEST(screen_legality_reasons) {
    static const struct { const char *sfen; int reason; } CASES[] = {
        {"4k4/9/4P4/9/9/9/9/9/9 b G 1", SC_OK},
        {"4k4/9/4P4/9/9/9/9/9 b G 1", SC_SFEN},
        {"4k4/9/4P4/9/9/9/9/9/9 x G 1", SC_SFEN},
        {"4k4/9/4X4/9/9/9/9/9/9 b G 1", SC_SFEN},
        {"4k3k/9/4P4/9/9/9/9/9/9 b G 1", SC_TWO_KINGS},
        {"4k4/9/4P4/9/9/9/9/9/K3K4 b G 1", SC_TWO_KINGS},
        {"4k4/9/4P4/9/9/9/9/9/9 b 3R 1", SC_TOO_MANY},
        {"4k4/9/4P4/9/9/9/9/9/9 b 5G 1", SC_TOO_MANY},
        {"4k4/9/4P4/9/9/9/9/9/9 b 4Gg 1", SC_OK},  /* the defender's hand is refilled */
        {"RRR1k4/9/9/9/9/9/9/9/9 b - 1", SC_TOO_MANY},
        {"4K4/9/4P4/9/9/9/9/9/9 b G 1", SC_NO_DEFENDER_KING},
        {"9/9/4P4/9/9/9/9/9/4k4 w G 1", SC_NO_DEFENDER_KING},
        {"P3k4/9/9/9/9/9/9/9/9 b G 1", SC_DEAD_PIECE},
        {"4k4/N8/9/9/9/9/9/9/9 b G 1", SC_DEAD_PIECE},
        {"4k4/9/9/9/9/9/9/9/l8 b G 1", SC_DEAD_PIECE},
        {"4k4/9/4p4/9/9/9/4p4/9/9 b G 1", SC_NIFU},
        {"4k4/9/9/4P4/9/4P4/9/9/9 b G 1", SC_NIFU},
        {"4k4/9/9/4P4/9/4+P4/9/9/9 b G 1", SC_OK},  /* a tokin is not a pawn */
        {"4k4/4P4/9/9/9/9/9/9/9 b G 1", SC_DEFENDER_IN_CHECK},
        {"4k4/9/9/9/9/9/9/9/4R4 b G 1", SC_DEFENDER_IN_CHECK},
        {"4k4/9/9/9/9/9/9/4p4/4K4 b G 1", SC_OK},  /* the attacker may be in check */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        ScResult r = screen_sfen(CASES[i].sfen, 0);
        if (r.reason != CASES[i].reason) {
            fprintf(stderr, "  %s: reason %s, expected %s\n", CASES[i].sfen, SC_REASON_NAME[r.reason], SC_REASON_NAME[CASES[i].reason]);
            test_failures_in_current++;
        }
        if (r.reason != SC_OK) CHECK(r.checks == 0 && r.n_mate1 == 0 && r.mate3 == 0 && r.points == 0);
    }
    /* --strict-hands keeps a short defender hand as given */
    ScResult r = screen_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1", SC_STRICT_HANDS);
    CHECK(r.reason == SC_OK);
    r = screen_sfen("4k4/9/4P4/9/9/9/9/9/9 b 4Gg 1", SC_STRICT_HANDS);
    CHECK(r.reason == SC_TOO_MANY);
}

/* mate1 of the screen equals core's gen_mate1 on sfen, in order */
static int same_as_gen_mate1(const char *sfen, const ScResult *r) {
    Position pos;
    MoveList l;
    char err[ERR_MAX];
    if (sfen_parse(sfen, &pos, 0, err, sizeof err)) return 0;
    gen_mate1(&pos, &l);
    if (l.count != r->n_mate1) return 0;
    for (int i = 0; i < l.count && i < SC_MATE1_SLOTS; i++)
        if ((uint16_t)l.moves[i] != r->mate1[i]) return 0;
    return 1;
}

TEST(screen_mate_edge_cases) {
    static const struct {
        const char *sfen, *has, *hasnt;
        int n_mate1, mate3;  /* -1: not asserted */
    } CASES[] = {
        /* head gold: the only mate */
        {"4k4/9/4P4/9/9/9/9/9/9 b G 1", "G*5b", NULL, 1, 1},
        /* pawn-drop mate: P*1b would mate (2a own lance, 2b and 1b guarded by the gold);
         * it is neither a check move nor a mate; G*1b mates */
        {"7lk/9/7G1/9/9/9/9/9/9 b P 1", NULL, "P*1b", 0, -1},
        {"7lk/9/7G1/9/9/9/9/9/9 b G 1", "G*1b", NULL, -1, 1},
        /* the same pawn drop with an escape (no lance on 2a) is a legal, non-mating check */
        {"8k/9/7G1/9/9/9/9/9/9 b P 1", NULL, "P*1b", 0, -1},
        /* discovered (double) check: the silver leaves the rook's file and mates */
        {"8k/9/6G1S/9/9/9/9/9/8R b - 1", "1c2b", NULL, -1, 1},
        {"8k/9/6G1S/9/9/9/9/9/8R b - 1", "1c2b+", NULL, -1, 1},
        /* pinned defender: the gold on 5b cannot take the gold on 4b (rook on 5i) */
        {"3sk4/4g4/2S2P3/9/9/9/9/9/4R4 b G 1", "G*4b", NULL, -1, 1},
        /* ... without the rook it can: no mate */
        {"3sk4/4g4/2S2P3/9/9/9/9/9/9 b G 1", NULL, "G*4b", 0, -1},
        /* promotion-only mate: 2c2b+ mates, 2c2b (a pawn on 2b) does not */
        {"7k1/9/7P1/9/9/9/9/9/7L1 b - 1", "2c2b+", "2c2b", 1, 1},
        /* ShogiBoardQ 3-ply problem 1: mate in 3, none in 1 */
        {"+B8/9/2r6/9/k8/2+B6/9/9/9 b r4g4s4n4l18p 1", NULL, NULL, 0, 1},
        /* ShogiBoardQ 5-ply problem 1: no mate within 3 */
        {"+BS7/9/k8/3+P5/9/2B6/9/9/9 b 2r4g3s4n4l17p 1", NULL, NULL, 0, 0},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        ScResult r = screen_sfen(CASES[i].sfen, 0);
        int ok = r.reason == SC_OK && same_as_gen_mate1(CASES[i].sfen, &r);
        if (CASES[i].has) ok &= has_mate(&r, CASES[i].has);
        if (CASES[i].hasnt) ok &= !has_mate(&r, CASES[i].hasnt);
        if (CASES[i].n_mate1 >= 0) ok &= r.n_mate1 == CASES[i].n_mate1;
        if (CASES[i].mate3 >= 0) ok &= r.mate3 == CASES[i].mate3;
        if (!ok) {
            fprintf(stderr, "  %s: reason %s, %d mate1, mate3 %d\n", CASES[i].sfen, SC_REASON_NAME[r.reason], r.n_mate1, r.mate3);
            test_failures_in_current++;
        }
    }
    /* pawn-drop mate is not even a check move */
    ScResult r1 = screen_sfen("7lk/9/7G1/9/9/9/9/9/9 b P 1", 0), r2 = screen_sfen("8k/9/7G1/9/9/9/9/9/9 b P 1", 0);
    CHECK(r2.checks == r1.checks + 1);
}

TEST(screen_points_file) {
    int32_t *w = malloc(SC_W_NB * sizeof *w);
    char err[300];
    CHECK(points_load(NULL, w, err, sizeof err) == 0);
    CHECK(points_parse("bias 1.5\npiece att G 0 1 2.25 # head gold\nempty * * -0.001\nhand def * 3\nking 1 1 7\n", "t", w, err, sizeof err) == 0);
    CHECK(w[SC_W_BIAS] == 1500);
    CHECK(w[SC_W_PIECE + (0 * 14 + GOLD - 1) * SC_OFF_NB + sc_off_index(0, 1)] == 2250);
    CHECK(w[SC_W_EMPTY + sc_off_index(-8, 8)] == -1 && w[SC_W_HAND + 7 + 6] == 3000 && w[SC_W_KING + 0] == 7000);
    CHECK(points_parse("piece att Q 0 1 2\n", "t", w, err, sizeof err) == -1 && strstr(err, "t:1:"));
    CHECK(points_parse("bias 1.2345\n", "t", w, err, sizeof err) == -1);
    CHECK(points_parse("\n\nempty 0 9 1\n", "t", w, err, sizeof err) == -1 && strstr(err, "t:3:"));
    /* the score: bias + head gold + the 80 squares' emptiness + the king square */
    points_parse("bias 100\npiece att G 0 2 6\nempty * * -0.5\nempty 0 0 99\nking 5 1 1\n", "t", w, err, sizeof err);
    ScBoard b;
    ScResult r;
    CHECK(screen_parse_sfen("4k4/4G4/9/9/9/9/9/9/9 w - 1", &b) == 0);  /* White to move: Black's king missing */
    sc_screen(&b, &r, w, 0);
    CHECK(r.reason == SC_NO_DEFENDER_KING);
    CHECK(screen_parse_sfen("4k4/9/4G4/9/9/9/9/9/9 b - 1", &b) == 0);
    sc_screen(&b, &r, w, 0);
    CHECK_EQ_U64(r.points, 100000 + 6000 - 79 * 500 + 1000);  /* the gold on 5c is at DF 0, DR 2 */
    CHECK(screen_parse_sfen("9/9/9/9/9/9/4g4/9/4K4 w - 1", &b) == 0);  /* the same seen from White */
    sc_screen(&b, &r, w, 0);
    CHECK_EQ_U64(r.points, 100000 + 6000 - 79 * 500 + 1000);
    free(w);
}

/* Published answers that end where only futile drops remain (EXCEPTIONS.tsv in data/edo, data/regressions):
 * before the last move, that move must be flagged a futile-only mate, not a plain one. */
static int replay_to_last(const char *sfen, char *moves, char *out_sfen, char *last) {
    Position pos;
    char err[ERR_MAX], *tok[1024];
    int n = 0;
    if (sfen_parse(sfen, &pos, 0, err, sizeof err)) return -1;
    for (char *t = strtok(moves, " \t\r\n"); t && n < 1024; t = strtok(NULL, " \t\r\n")) tok[n++] = t;
    if (!n) return -1;
    for (int i = 0; i < n - 1; i++) {
        Move m;
        Undo u;
        if (move_parse(&pos, tok[i], &m, err, sizeof err)) return -1;
        pos_do_move(&pos, m, &u);
    }
    sfen_format(&pos, out_sfen, 256);
    strcpy(last, tok[n - 1]);
    return 0;
}

static int has_futile(const ScResult *r, const char *usi) { return usi_in(r->futile, r->n_futile, SC_FUTILE_SLOTS, usi); }

TEST(screen_futile_final_positions) {
    static const char *const FILES[][2] = {
        {"data/edo/zukou.tsv", "zukou-026 zukou-073 zukou-093"},
        {"data/edo/musou.tsv", "musou-028 musou-031 musou-037 musou-043"},
        {"data/regressions/positions.tsv", "sug1 sug20"},
    };
    int found = 0;
    for (int f = 0; f < 3; f++) {
        FILE *fp = fopen(FILES[f][0], "r");
        if (!fp) { fprintf(stderr, "  cannot open %s\n", FILES[f][0]); test_failures_in_current++; continue; }
        char line[8192];
        while (fgets(line, sizeof line, fp)) {
            char *cols[6] = {0};  /* (an edo line of three columns has no cols[3]) */
            int nc = 0;
            for (char *p = line; nc < 6;) {
                cols[nc++] = p;
                p = strchr(p, '\t');
                if (!p) break;
                *p++ = 0;
            }
            if (nc < 3 || line[0] == '#') continue;
            char want[32];
            if (snprintf(want, sizeof want, " %s ", cols[0]) >= (int)sizeof want) continue;  /* (longer than any id wanted) */
            char ids[128];
            snprintf(ids, sizeof ids, " %s ", FILES[f][1]);
            if (!strstr(ids, want)) continue;
            /* edo: id, n, sfen, moves; regressions: id, sfen, "mate N: moves" */
            const char *sfen = f < 2 ? cols[2] : cols[1];
            char *moves = f < 2 ? cols[3] : strchr(cols[2], ':');
            if (!moves) continue;
            if (f == 2) moves++;
            char pos_sfen[256], last[16];
            if (replay_to_last(sfen, moves, pos_sfen, last)) {
                fprintf(stderr, "  %s: cannot replay\n", cols[0]);
                test_failures_in_current++;
                continue;
            }
            ScResult r = screen_sfen(pos_sfen, 0);
            found++;
            if (!has_futile(&r, last) || has_mate(&r, last)) {
                fprintf(stderr, "  %s: %s before %s: futile %d, plain mates %d\n", cols[0], pos_sfen, last, r.n_futile, r.n_mate1);
                test_failures_in_current++;
            }
        }
        fclose(fp);
    }
    CHECK(found == 9);
}

/* core/gen.c: a board depends on (seed, index) alone; the one-thread and OpenMP
 * streams agree on every digest, counter and kept index; the filter keeps
 * exactly the boards it describes; the digest sees a one-bit change. */
TEST(screen_generated_streams) {
    enum { N = 20000 };
    ScBoard a, b;
    sc_gen_board(7, 12345, &a);
    sc_gen_board(3, 999, &b);
    sc_gen_board(7, 12345, &b);
    CHECK(!memcmp(&a, &b, sizeof a));
    sc_gen_board(8, 12345, &b);
    CHECK(memcmp(&a, &b, sizeof a) != 0);
    int32_t *w = malloc(SC_W_NB * sizeof *w);
    char err[256];
    CHECK(points_load(NULL, w, err, sizeof err) == 0);
    uint32_t *d1 = malloc(N * sizeof *d1), *d2 = malloc(N * sizeof *d2);
    uint64_t *k1 = malloc(N * sizeof *k1), *k2 = malloc(N * sizeof *k2);
    for (int mode = 0; mode < 2; mode++) {
        ScGenJob job = {5, 1000000, N, 0, mode ? SC_KEEP_UNIQUE_MATE1 : SC_KEEP_CHECK, mode ? 90000 : INT32_MIN};
        ScGenStats s1, s2;
        screen_gen_cpu(&job, w, 1, d1, k1, N, &s1);
        screen_gen_cpu(&job, w, 2, d2, k2, N, &s2);
        CHECK(!memcmp(d1, d2, N * sizeof *d1));
        CHECK(!memcmp(&s1, &s2, sizeof s1));
        CHECK(!memcmp(k1, k2, s1.kept * sizeof *k1));
        CHECK_EQ_U64(s1.boards, N);
        /* the filter by hand, board by board */
        uint64_t legal = 0, mate1 = 0, kept = 0;
        int kept_ok = 1;
        for (int i = 0; i < N; i++) {
            ScResult r;
            sc_gen_board(job.seed, job.base + (uint64_t)i, &a);
            sc_screen(&a, &r, w, 0);
            legal += r.reason == SC_OK;
            mate1 += r.n_mate1 > 0;
            int keep = r.reason == SC_OK && r.points >= job.min_points && (mode ? r.n_mate1 == 1 : r.checks > 0);
            if (keep) kept_ok &= k1[kept++] == job.base + (uint64_t)i;
            CHECK_EQ_U64(d1[i], sc_result_digest(&r));
        }
        CHECK_EQ_U64(s1.legal, legal);
        CHECK_EQ_U64(s1.mate1, mate1);
        CHECK_EQ_U64(s1.kept, kept);
        CHECK(kept_ok);
        CHECK(legal > N / 4 && kept > 0 && kept < legal);
        /* max_kept truncates the list, not the count: the first ones in index order */
        screen_gen_cpu(&job, w, 2, NULL, k2, 3, &s2);
        CHECK_EQ_U64(s2.kept, s1.kept);
        CHECK(!memcmp(k1, k2, 3 * sizeof *k1));
    }
    ScResult r;
    sc_gen_board(5, 77, &a);
    sc_screen(&a, &r, w, 0);
    uint32_t h = sc_result_digest(&r);
    r.mate1[SC_MATE1_SLOTS - 1] ^= 1;
    CHECK(sc_result_digest(&r) != h);
    r.mate1[SC_MATE1_SLOTS - 1] ^= 1;
    r.futile[3] ^= 0x100;
    CHECK(sc_result_digest(&r) != h);
    free(w); free(d1); free(d2); free(k1); free(k2);
}
