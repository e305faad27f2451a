/* fuzz_input.c - one fuzz target over everything tsumegen reads: an SFEN line with
 * its moves, a KIF text or a CSA text (the first byte picks which).  Each position
 * that is accepted is then held to the invariants a bad reader would break first:
 * the debug consistency check, SFEN round trip, the move generators agreeing with
 * each other, do/undo restoring the keys, and a short solve whose mate verdicts the
 * proof checker must pass.  A broken invariant aborts, which the fuzzer reports.
 * Built two ways: with clang's libFuzzer (`make fuzz`), and with a plain main that
 * replays a corpus (replay.c, run by the tests under the sanitizers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "kif_read.h"
#include "mate1.h"
#include "screen.h"
#include "csa_read.h"
#include "movegen.h"
#include "sfen.h"
#include "kif.h"
#include "proofcheck.h"
#include "tsume.h"
#include "refutations.h"
#include "variations.h"

#define FUZZ_MAX_INPUT 65536
#define FUZZ_SOLVE_NODES 3000
#define FUZZ_VARIATION_NODES 1000
#define FUZZ_REFUTATION_NODES 100
#define FUZZ_REFUTATION_PLIES 9  /* (longer lines: most of the replay's time for few new paths) */

static void fail(const char *what, const Position *pos) {
    char buf[SFEN_MAX];
    sfen_format(pos, buf, sizeof buf);
    fprintf(stderr, "fuzz_input: %s at %s\n", what, buf);
    abort();
}

/* The generators against each other: checks and evasions are the legal moves
 * of their kind, counts equal lists, and every move's do/undo restores the keys. */
static void check_moves(Position *pos) {
    static MoveList legal, checks, evasions;
    int nl = gen_legal(pos, &legal), nc = gen_checks(pos, &checks);
    if (nl != count_legal(pos)) fail("count_legal differs from gen_legal", pos);
    if (nc != count_checks(pos)) fail("count_checks differs from gen_checks", pos);
    if (in_check(pos)) {
        int ne = gen_evasions(pos, &evasions), nd = 0, sq = 0;
        if (ne != nl) fail("evasions and legal moves differ in number", pos);
        if (ne != count_evasions(pos, &nd, &sq)) fail("count_evasions differs from gen_evasions", pos);
        for (int i = 0; i < ne; i++)
            if (!movelist_has(&legal, evasions.moves[i])) fail("an evasion is not a legal move", pos);
    }
    for (int i = 0; i < nc; i++)
        if (!movelist_has(&legal, checks.moves[i])) fail("a check is not a legal move", pos);
    uint64_t bk = pos->board_key, hk = pos->hand_key;
    int ncheck = 0;
    for (int i = 0; i < nl; i++) {
        Undo u;
        pos_do_move(pos, legal.moves[i], &u);
        if (pos_check(pos)) fail("pos_check fails after a legal move", pos);
        ncheck += in_check(pos);
        pos_undo_move(pos, legal.moves[i], &u);
        if (pos->board_key != bk || pos->hand_key != hk) fail("undo does not restore the keys", pos);
    }
    if (ncheck != nc) fail("gen_checks misses or adds a check", pos);
}

/* SFEN out and back in gives the same position. */
static void check_round_trip(const Position *pos) {
    char buf[SFEN_MAX], err[ERR_MAX];
    Position back;
    sfen_format(pos, buf, sizeof buf);
    if (sfen_parse(buf, &back, 1, err, sizeof err)) fail(err, pos);
    if (pos_key(&back) != pos_key(pos) || memcmp(back.board, pos->board, sizeof back.board) ||
        memcmp(back.hand, pos->hand, sizeof back.hand))
        fail("the SFEN round trip changes the position", pos);
}

/* solve --variations on a's main line from pos, two levels deep: each variation a
 * defence there other than its parent line's, its line legal with every attacker
 * move a check and mate at the end, no longer than its parent line from its ply;
 * and the KIF writer takes them as branches. */
static void check_variations(DfCtx *vctx, const Position *pos, const TsAnswer *a, const TsOptions *o) {
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w"))) abort();
    TsOptions vo = *o;
    vo.node_limit = FUZZ_VARIATION_NODES;
    vo.keep_table = 1;  /* (on the table that solved it, as solve lists them) */
    TsVariations vs;
    if (ts_variations(vctx, pos, a, &vo, 2, 1, &vs)) abort();
    if (!vs.run) fail("no variations listed for a mate with a main line", pos);
    static KifBranch br[TS_MAX_VARIATIONS];
    for (int i = 0; i < vs.n; i++) {
        const TsVariation *v = &vs.v[i];
        const TsVariation *p = v->parent >= 0 ? &vs.v[v->parent] : NULL;
        /* the parent line: its first ply, its moves, its length from there */
        int pply = p ? p->ply : 1, plen = p ? p->length : a->length, pn = p ? p->nmoves : a->npv;
        const Move *pmoves = p ? p->moves : a->pv;
        if (p && (v->parent >= i || p->result != TS_MATE || !p->exact || v->level != p->level + 1 || v->level > 2))
            fail("a variation's parent", pos);
        if (!p && v->level != 1) fail("a main-line variation's level", pos);
        if (v->ply % 2 || v->ply < pply + 1 || v->ply > pply + pn - 2) fail("a variation at an attacker's ply", pos);
        br[i] = (KifBranch){v->ply, v->moves, v->result == TS_MATE ? v->nmoves : 0, NULL, v->parent};
        Position q;
        int prev_to;
        kif_branch_position(pos, a->pv, br, i, &q, &prev_to);
        static MoveList legal;
        gen_legal(&q, &legal);
        if (v->moves[0] == pmoves[v->ply - pply] || !movelist_has(&legal, v->moves[0])) fail("a variation's defence", pos);
        Undo u;
        pos_do_move(&q, v->moves[0], &u);
        if (v->result == TS_MATE) {
            if (v->length != v->nmoves) fail("a variation's length is not its line's", pos);
            if (a->exact_length && v->exact && v->length > plen - (v->ply - pply))
                fail("a variation is longer than its parent line from its ply", pos);
            if (pc_replay_line(&q, v->moves + 1, v->nmoves - 1, NULL)) fail("a variation's line does not mate", pos);
            if (v->exact) {  /* its leftover: the attacker's pieces in hand at the mate */
                Position end = q;
                for (int t = 1; t < v->nmoves; t++) pos_do_move(&end, v->moves[t], &u);
                if (v->leftover != hand_total(&end, q.side)) fail("a variation's leftover", pos);
            }
            /* 変化別詰: at an attacker ply of the line but its last, a legal check other than the line's */
            if (v->betsu_run && (!v->exact || v->nmoves < 4)) fail("変化別詰 looked for in no exact line", pos);
            for (int b = 0; b < v->nbetsu && b < TS_MAX_YOZUME; b++) {
                int k = v->betsu[b].ply - v->ply;  /* (its index in moves) */
                if (k < 1 || k % 2 == 0 || k >= v->nmoves - 1 || v->betsu[b].length != v->nmoves - k)
                    fail("a 変化別詰's ply or length", pos);
                Position at = q;
                for (int t = 1; t < k; t++) pos_do_move(&at, v->moves[t], &u);
                static MoveList checks;
                gen_checks(&at, &checks);
                if (v->betsu[b].move == v->moves[k] || !movelist_has(&checks, v->betsu[b].move))
                    fail("a 変化別詰 that is no other check", pos);
            }
        } else if (v->nmoves != 1) {
            fail("an unknown variation with a line", pos);
        }
    }
    if (kif_write_branches(sink, pos, a->pv, a->npv, "fuzz", br, vs.n)) fail("kif_write_branches", pos);
    ts_variations_free(&vs);
}

/* solve --refutations on a's main line, on the solving table: at each attacker ply
 * exactly the legal checks but the line's move, its 余詰 and the mates in one, once
 * each in order; each reply a legal evasion after which a fresh table finds no mate
 * where the entry says none (within its bound, or unbounded for no_mate). */
static void check_refutations(DfCtx *ctx, const Position *pos, const TsAnswer *a, const TsOptions *o) {
    static DfCtx *fresh;
    static MoveList checks, evasions;
    if (!fresh && !(fresh = df_new(8))) abort();
    TsOptions ro = *o;
    ro.node_limit = FUZZ_REFUTATION_NODES;
    TsRefutations rs;
    if (ts_refutations(ctx, pos, a, &ro, 1, &rs)) abort();
    if (!rs.run) fail("no refutations listed for a mate with a main line", pos);
    Position p = *pos;
    int at = 0;
    for (int k = 0; k < a->npv; k += 2) {
        gen_checks(&p, &checks);
        for (int i = 0; i < checks.count; i++) {
            Move m = checks.moves[i];
            Position q = p;
            Undo u;
            pos_do_move(&q, m, &u);
            if (m == a->pv[k] || ts_yozume_listed(a, k + 1, m) || gen_evasions(&q, &evasions) == 0) continue;
            if (at >= rs.n || rs.r[at].ply != k + 1 || rs.r[at].move != m) fail("the refutations miss a check or add one", pos);
            const TsRefutation *r = &rs.r[at++];
            if (r->reply == MOVE_NONE) continue;
            if (!movelist_has(&evasions, r->reply)) fail("a refutation's reply is not legal", pos);
            pos_do_move(&q, r->reply, &u);
            df_begin(fresh, pos->side, 20000, 0);
            df_set_no_rep(fresh, r->within > 0);
            DfResult d = df_search(fresh, &q, r->within ? r->within - 2 : DF_MAX_DEPTH, r->within ? DF_FUTILE : DF_PLAIN);
            df_set_no_rep(fresh, 1);
            if (d.result == DF_PROVEN) fail("a fresh table mates after a refutation's reply", pos);
        }
        Undo u;
        pos_do_move(&p, a->pv[k], &u);
        if (k + 1 < a->npv) pos_do_move(&p, a->pv[k + 1], &u);
    }
    if (at != rs.n) fail("the refutations list checks that are not there", pos);
    ts_refutations_free(&rs);
}

/* A short solve, as `solve` would run it (its input checks first). */
static void check_solve(const Position *pos) {
    static DfCtx *ctx;
    static TsAnswer answer;
    if (pos->king_sq[pos->side ^ 1] == SQ_NONE) return;  /* (the attacker may be in check) */
    if (!ctx && !(ctx = df_new(8))) abort();
    TsOptions o = {0};
    o.node_limit = FUZZ_SOLVE_NODES;
    o.flaws = 1;
    o.verify = 1;
    ts_solve(ctx, pos, &o, &answer);
    if (answer.result == TS_MATE && answer.verified == 0) fail(answer.verify_msg, pos);
    /* (a limit may leave an exact length without its main line: npv 0 and a note) */
    if (answer.result == TS_MATE && answer.exact_length && answer.npv && answer.length != answer.npv)
        fail("the main line's length is not the length", pos);
    if (answer.result == TS_MATE && answer.length_lb > answer.length) fail("the lower bound is above the length", pos);
    if (answer.result == TS_MATE && answer.npv && answer.npv <= FUZZ_REFUTATION_PLIES) check_refutations(ctx, pos, &answer, &o);
    if (answer.result == TS_MATE && answer.npv) check_variations(ctx, pos, &answer, &o);
    /* core/mate1.c and core/screen.c, the screen's own mate tests, against the solver:
     * a plain mate in one is a mate in one under the futile rule too (no reply at all) */
    static MoveList mates;
    Position q = *pos;
    int bound = gen_mate1(&q, &mates) > 0 ? 1 : 0;
    /* the screen's futile mate in one (合い効かず: only drops left, each futile), and
     * its plain mate within 3, which bounds the futile rule's length too (its
     * defender has fewer defences) */
    if (!bound) {
        static MoveList checks;
        gen_checks(&q, &checks);
        for (int i = 0; i < checks.count && !bound; i++) {
            Undo u;
            pos_do_move(&q, checks.moves[i], &u);
            if (sc_evasion_kind(&q) == 2 && sc_futile_mate(&q)) bound = 1;
            pos_undo_move(&q, checks.moves[i], &u);
        }
    }
    if (!bound && sc_mate3(&q)) bound = 3;
    if (bound && answer.result == TS_NOMATE) fail("nomate where the screen finds a mate", pos);
    if (bound && answer.result == TS_MATE && answer.exact_length && answer.length > bound)
        fail("the screen finds a shorter mate than the solver's exact length", pos);
}

/* round_trip: pos came from the parser (after moves the side to move may be one
 * the parser refuses, as a defender to move with no attacker king). */
static void check_position(Position *pos, int round_trip) {
    if (pos_check(pos)) fail("pos_check fails on a parsed position", pos);
    if (round_trip) check_round_trip(pos);
    check_moves(pos);
    check_solve(pos);
}

static void fuzz_sfen(char *text, int strict) {
    char err[ERR_MAX];
    Position pos;
    char *nl = strchr(text, '\n');
    if (nl) *nl = 0;
    char *moves = cli_split_moves(text);
    if (sfen_parse(text, &pos, strict, err, sizeof err)) return;
    check_position(&pos, 1);
    int n = 0;
    if (moves && sfen_play_moves(&pos, moves, NULL, 0, &n, err, sizeof err) == 0) check_position(&pos, 0);
}

static void each_game(void *arg, const char *line, const char *err) {
    (void)arg;
    if (!line || err) return;
    char *copy = strdup(line);
    if (!copy) abort();
    fuzz_sfen(copy, 0);
    free(copy);
}

/* A board from bytes (first byte >= 0x80): the defender's king square, the
 * attacker's hand (bits: rook, bishop, gold, silver, knight, lance, then two bits
 * of pawns), then (square, piece) pairs; the rest goes to the defender by the hand
 * convention.  The fuzzer steers the solver through positions directly, where text
 * mutations mostly stop in the parser. */
static void fuzz_board(const unsigned char *d, size_t n) {
    /* piece codes 0-13 the defender's (13: its king, placed from d[0] only), 14-27 the attacker's */
    static const char *const NAMES[28] = {"p", "l", "n", "s", "g", "b", "r", "+p", "+l", "+n", "+s", "+b", "+r", "k",
                                          "P", "L", "N", "S", "G", "B", "R", "+P", "+L", "+N", "+S", "+B", "+R", "K"};
    const char *cell[81] = {0};
    if (n < 2) return;
    cell[d[0] % 81] = "k";
    for (size_t i = 2; i + 1 < n && i < 2 + 2 * 40; i += 2) {
        int sq = d[i] % 81, code = d[i + 1] % 28;
        if (!cell[sq] && code != 13) cell[sq] = NAMES[code];
    }
    char text[256];
    size_t len = 0;
    for (int rank = 0; rank < 9; rank++) {
        int empty = 0;
        for (int file = 0; file < 9; file++) {
            const char *c = cell[rank * 9 + file];
            if (!c) { empty++; continue; }
            if (empty) text[len++] = (char)('0' + empty), empty = 0;
            for (; *c; c++) text[len++] = *c;
        }
        if (empty) text[len++] = (char)('0' + empty);
        text[len++] = rank < 8 ? '/' : ' ';
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "b ");
    static const char HAND[6] = {'R', 'B', 'G', 'S', 'N', 'L'};
    int any = 0;
    for (int k = 0; k < 6; k++)
        if (d[1] >> k & 1) text[len++] = HAND[k], any = 1;
    if (d[1] >> 6) len += (size_t)snprintf(text + len, sizeof text - len, "%dP", d[1] >> 6), any = 1;
    snprintf(text + len, sizeof text - len, "%s 1", any ? "" : "-");
    fuzz_sfen(text, 0);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t n) {
    if (n < 1 || n > FUZZ_MAX_INPUT) return 0;
    char *text = malloc(n);
    if (!text) abort();
    memcpy(text, data + 1, n - 1);
    text[n - 1] = 0;  /* NUL-terminated, as every reader gets its text */
    if (data[0] & 0x80) {
        fuzz_board(data + 1, n - 1);
        free(text);
        return 0;
    }
    switch (data[0] % 3) {
    case 0: fuzz_sfen(text, data[0] & 1); break;
    case 1: kif_text_each("fuzz", text, strlen(text), data[0] & 4, each_game, NULL); break;
    default: {
        CsaReader *r = csa_reader_new(text, strlen(text));
        if (!r) break;
        static KifGame g;
        char err[ERR_MAX];
        int rc;
        while ((rc = csa_reader_next(r, data[0] & 4, &g, err, sizeof err)) != 0) {
            if (rc < 0) continue;
            for (int i = 0; i < g.n; i++) {  /* the reader's moves are legal ones */
                Undo u;
                if (pos_check(&g.pos)) fail("pos_check fails in a CSA game", &g.pos);
                pos_do_move(&g.pos, g.moves[i], &u);
            }
            if (pos_check(&g.pos)) fail("pos_check fails at a CSA game's end", &g.pos);
        }
        csa_reader_free(r);
    }
    }
    free(text);
    return 0;
}
