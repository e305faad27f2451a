/* test_regress_oracle.c - positions checked against cshogi by tests/test_oracle.py,
 * kept here so they run without the oracle: double check (king moves only, no
 * drops although the defender holds every spare piece), pawn-drop mate refused
 * when the only capturer is pinned, the same pawn drop allowed without the pin,
 * and a head-gold mate.  Expected sets are cshogi's answers (defender's hand
 * filled by the tsume convention). */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "../host/sfen.h"
#include "../core/mate1.h"

static int load_ok(const char *sfen, Position *pos) {
    char err[ERR_MAX];
    if (sfen_parse(sfen, pos, 0, err, sizeof err)) {
        fprintf(stderr, "  cannot parse %s: %s\n", sfen, err);
        return 0;
    }
    return 1;
}

static int cmp_str(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* The moves of l in USI, sorted (byte order, like Python's sorted), space-separated. */
static void sorted_usi(const MoveList *l, char *out, size_t len) {
    static char names[MAX_MOVES][8];
    for (int i = 0; i < l->count; i++) move_format(l->moves[i], names[i]);
    qsort(names, (size_t)l->count, sizeof names[0], cmp_str);
    out[0] = 0;
    for (int i = 0; i < l->count; i++) {
        if (strlen(out) + 8 >= len) break;
        if (i) strcat(out, " ");
        strcat(out, names[i]);
    }
}

static int same_set(const MoveList *l, const char *want, const char *what, const char *sfen) {
    char got[8192];
    sorted_usi(l, got, sizeof got);
    if (strcmp(got, want)) {
        fprintf(stderr, "  %s of %s:\n    got  [%s]\n    want [%s]\n", what, sfen, got, want);
        return 0;
    }
    return 1;
}

TEST(oracle_double_check_king_moves_only) {
    const char *sfen = "4k4/9/5N3/9/9/9/9/9/K3R4 w - 1";
    Position pos;
    MoveList l;
    if (!load_ok(sfen, &pos)) { CHECK(0); return; }
    CHECK(in_check(&pos));
    CHECK_EQ_U64(bb_count(checkers_of(&pos)), 2);
    gen_evasions(&pos, &l);
    CHECK(same_set(&l, "5a4a 5a4b 5a6a 5a6b", "evasions", sfen));
    gen_legal(&pos, &l);
    CHECK(same_set(&l, "5a4a 5a4b 5a6a 5a6b", "legal", sfen));
    gen_checks(&pos, &l);
    CHECK_EQ_U64(l.count, 0);
}

TEST(oracle_pawn_drop_mate_with_pinned_capturer) {
    /* P*1b: the king cannot take (gold 1c guards), gold 2b is pinned by bishop 4d. */
    const char *sfen = "7lk/7g1/8G/5B3/9/9/9/9/K8 b P 1";
    Position pos;
    MoveList l;
    if (!load_ok(sfen, &pos)) { CHECK(0); return; }
    gen_checks(&pos, &l);
    CHECK(same_set(&l, "1c1b 1c2b 4d2b 4d2b+", "checks", sfen));
    gen_legal(&pos, &l);
    CHECK_EQ_U64(l.count, 91);
    Move m = 0;
    char err[ERR_MAX];
    CHECK(move_parse(&pos, "P*1b", &m, err, sizeof err) != 0);
    CHECK(is_pawn_drop_mate(&pos, make_sq(0, 1)));
    gen_mate1(&pos, &l);
    CHECK_EQ_U64(l.count, 0);
}

TEST(oracle_pawn_drop_check_capturable) {
    /* Without the pin the gold takes the pawn: P*1b is a legal check, not mate. */
    const char *sfen = "7lk/7g1/8G/9/9/9/9/9/K8 b P 1";
    Position pos;
    MoveList l;
    if (!load_ok(sfen, &pos)) { CHECK(0); return; }
    gen_checks(&pos, &l);
    CHECK(same_set(&l, "1c1b 1c2b P*1b", "checks", sfen));
    gen_legal(&pos, &l);
    CHECK_EQ_U64(l.count, 76);
    CHECK(!is_pawn_drop_mate(&pos, make_sq(0, 1)));
    gen_mate1(&pos, &l);
    CHECK_EQ_U64(l.count, 0);
}

TEST(oracle_head_gold_mate) {
    const char *sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
    Position pos;
    MoveList l;
    if (!load_ok(sfen, &pos)) { CHECK(0); return; }
    gen_checks(&pos, &l);
    CHECK(same_set(&l, "5c5b 5c5b+ G*4a G*4b G*5b G*6a G*6b", "checks", sfen));
    gen_legal(&pos, &l);
    CHECK_EQ_U64(l.count, 81);
    gen_mate1(&pos, &l);
    CHECK(same_set(&l, "G*5b", "mate1", sfen));
}
