/* test_dfpn_table.c - what the df-pn table may hand over inside a futility test,
 * where a captured piece has vanished (dfpn_impl.h: DfCtx.vanished): a stored
 * disproof answers there only if it holds for a defender with fewer pieces, that is
 * if no drop refutes anywhere in its tree (DF_DDEEP clear, the entry strict) or its
 * attacker hand covers the vanished piece too. */
#include <string.h>
#include "test.h"
#include "../host/dfpn_impl.h"

static DfCtx *table(void) {
    static DfCtx *c;
    if (!c) c = df_new(16);
    return c;
}

/* Complete piece sets (the hand convention holds).  Corner: white king 1a behind its
 * lance 2a and knight 2b, black to drop its lance.  L*1c is answered only by a drop
 * on 1b (the knight cannot reach 1c); the other drops by the knight.  Open: a gold
 * checks from next to the king on 5a, which moves or captures: no drop is even legal,
 * so "no mate within 3" has no drop in its tree (df-pn keeps the first refutation it
 * proves, so a deeper search of a board where drops refute too may keep a drop). */
#define CORNER "7lk/7n1/9/9/9/9/9/9/4K4 b L2r2b4g4s3n2l18p 1"
#define OPEN "4k4/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1"

/* An absolute plain no-mate keeps its drop flag in the table: a table answer built
 * on it says a drop refutes below (before, absolute answers came back clean, and a
 * disproof resting on one claimed to hold whatever the defender held). */
TEST(dfpn_absolute_disproof_keeps_drop_flag) {
    DfCtx *c = table();
    Position corner = test_load(CORNER), open = test_load(OPEN);
    df_begin(c, BLACK, 2000000, 0);
    DfResult r = df_search(c, &corner, DF_MAX_DEPTH, DF_PLAIN);
    CHECK(r.result == DF_DISPROVEN && !(r.flags & (DF_DEPTH | DF_REP)));
    CHECK(r.flags & DF_DDEEP);
    DfResult p = df_probe(c, &corner, DF_MAX_DEPTH, DF_PLAIN);
    CHECK(p.result == DF_DISPROVEN && (p.flags & DF_DDEEP));
    df_begin(c, BLACK, 2000000, 0);
    r = df_search(c, &open, 3, DF_PLAIN);
    CHECK(r.result == DF_DISPROVEN && (r.flags & DF_DEPTH) && !(r.flags & (DF_REP | DF_DDEEP)));
    p = df_probe(c, &open, 3, DF_PLAIN);
    CHECK(p.result == DF_DISPROVEN && !(p.flags & DF_DDEEP));
}

/* With a pawn out of the game (as in a futility test that captured a dropped pawn)
 * the defender of the same board and attacker hand holds one pawn less than the
 * entry assumed: the corner's no-mate, which needs a drop, is not handed over (its
 * disproof hand holds no extra pawn), the open board's, which needs none, is. */
TEST(dfpn_vanished_piece_takes_strict_disproofs_only) {
    DfCtx *c = table();
    Position corner = test_load(CORNER), open = test_load(OPEN);
    df_begin(c, BLACK, 2000000, 0);
    CHECK(df_search(c, &corner, DF_MAX_DEPTH, DF_PLAIN).result == DF_DISPROVEN);
    CHECK(df_search(c, &open, 3, DF_PLAIN).result == DF_DISPROVEN);
    for (int mode = DF_PLAIN; mode <= DF_FUTILE; mode++) {
        CHECK(df_probe(c, &corner, 3, mode).result == DF_DISPROVEN);
        CHECK(df_probe(c, &open, 3, mode).result == DF_DISPROVEN);
    }
    c->vanished[PAWN] = 1;
    CHECK(df_probe(c, &open, 3, DF_PLAIN).result == DF_DISPROVEN);
    CHECK(df_probe(c, &open, 3, DF_FUTILE).result == DF_DISPROVEN);
    CHECK(df_probe(c, &corner, 3, DF_PLAIN).result == DF_UNKNOWN);
    CHECK(df_probe(c, &corner, 3, DF_FUTILE).result == DF_UNKNOWN);
    c->vanished[PAWN] = 0;
}

/* A futile-rule disproof whose tree refutes with no drop is a plain one as well,
 * and holds for any smaller attacker hand: the table keeps it where the plain rule
 * looks as well (dfpn_table.c, tt_store).  The open board's "no mate within 3" needs no
 * drop, so after a futile-rule search the plain rule has it, and so does the same
 * board with the gold back in the defender's hand; the corner's needs the drop on
 * 1b, so the plain rule must not see it. */
#define OPEN_NO_GOLD "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1"
TEST(dfpn_futile_disproof_without_drops_serves_plain) {
    DfCtx *c = table();
    Position corner = test_load(CORNER), open = test_load(OPEN), bare = test_load(OPEN_NO_GOLD);
    df_begin(c, BLACK, 2000000, 0);
    DfResult r = df_search(c, &open, 3, DF_FUTILE);
    CHECK(r.result == DF_DISPROVEN && (r.flags & DF_DEPTH) && !(r.flags & (DF_REP | DF_DROPREF)));
    CHECK(df_probe(c, &open, 3, DF_PLAIN).result == DF_DISPROVEN);
    CHECK(df_probe(c, &bare, 3, DF_PLAIN).result == DF_DISPROVEN);
    CHECK(df_probe(c, &bare, 3, DF_FUTILE).result == DF_DISPROVEN);
    CHECK(df_probe(c, &open, 5, DF_PLAIN).result == DF_UNKNOWN);  /* (within 3 only) */
    df_begin(c, BLACK, 2000000, 0);
    r = df_search(c, &corner, 3, DF_FUTILE);
    CHECK(r.result == DF_DISPROVEN && (r.flags & DF_DROPREF));
    CHECK(df_probe(c, &corner, 3, DF_FUTILE).result == DF_DISPROVEN);
    CHECK(df_probe(c, &corner, 3, DF_PLAIN).result == DF_UNKNOWN);
}
