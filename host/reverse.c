/* reverse.c - reverse construction of one-move problems (see reverse.h). */
#include "reverse.h"
#include <string.h>
#include "../core/movegen.h"
#include "compose.h"
#include "extend.h"
#include "ga.h"
#include "sfen.h"

/* The game's random stream: (seed, index) mixed so that neighbouring indices and
 * seeds give unrelated streams; salt separates the game from its strip order. */
static void game_rng(Rng *r, uint64_t seed, uint64_t index, uint64_t salt) {
    rng_seed(r, (seed + 1) * 0x9E3779B97F4A7C15ull ^ index * 0xD1B54A32D192ED03ull ^ salt * 0x8CB92BA72F3D8DD7ull);
}

/* The position turned 180 degrees with the colours swapped: what White's mate
 * looks like as Black's (square s -> 80 - s). */
static void turn_board(Position *p) {
    Position t;
    pos_clear(&t);
    for (int sq = 0; sq < SQ_NB; sq++)
        if (p->board[sq]) pos_put(&t, SQ_NB - 1 - sq, make_piece(piece_color(p->board[sq]) ^ 1, piece_type(p->board[sq])));
    for (int pt = PAWN; pt <= GOLD; pt++) t.hand[BLACK][pt] = p->hand[WHITE][pt], t.hand[WHITE][pt] = p->hand[BLACK][pt];
    t.side = (uint8_t)(p->side ^ 1);
    pos_compute_keys(&t, &t.board_key, &t.hand_key);
    *p = t;
}

static Move turn_move(Move m) {
    int to = SQ_NB - 1 - move_to(m);
    return move_is_drop(m) ? make_drop(move_drop_type(m), to) : make_move(SQ_NB - 1 - move_from(m), to, (m & MOVE_PROMO) != 0);
}

int reverse_game(uint64_t seed, uint64_t index, Position *mate, Move *last, int *plies) {
    Rng rng;
    game_rng(&rng, seed, index, 0);
    char err[ERR_MAX];
    if (sfen_parse(SFEN_STARTPOS, mate, 1, err, sizeof err)) return 0;
    MoveList ml;
    Move m = MOVE_NONE;
    for (int ply = 0; ply <= REVERSE_MAX_PLIES; ply++) {
        if (!gen_legal(mate, &ml)) {
            /* no legal move: mated (a position without moves and without check
             * cannot arise from the initial one in practice; it is no mate here) */
            if (!in_check(mate) || m == MOVE_NONE) return 0;
            if (mate->side == BLACK) turn_board(mate), m = turn_move(m);
            *last = m;
            *plies = ply;
            return 1;
        }
        if (ply == REVERSE_MAX_PLIES) break;
        Undo u;
        m = ml.moves[rng_below(&rng, (uint32_t)ml.count)];
        pos_do_move(mate, m, &u);
    }
    return 0;
}

/* White (to move) is mated: in check with no legal move. */
static int white_mated(const Position *p) { return in_check(p) && !has_legal_move(p); }

int reverse_strip(Position *mate, uint64_t seed, uint64_t index) {
    /* the attacker's hand goes to the defender (seeds/004), then its king */
    for (int pt = PAWN; pt <= GOLD; pt++) mate->hand[WHITE][pt] += mate->hand[BLACK][pt], mate->hand[BLACK][pt] = 0;
    if (mate->king_sq[BLACK] != SQ_NONE) pos_remove(mate, mate->king_sq[BLACK]);
    if (!white_mated(mate)) return -1;
    int order[SQ_NB];
    for (int sq = 0; sq < SQ_NB; sq++) order[sq] = sq;
    Rng rng;
    game_rng(&rng, seed, index, 1);
    for (int i = SQ_NB - 1; i > 0; i--) {
        int j = (int)rng_below(&rng, (uint32_t)i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    /* passes until none goes: a piece needed early can become removable once
     * others have gone (a White piece in hand instead of on the board opens a line) */
    for (int removed = 1; removed;) {
        removed = 0;
        for (int i = 0; i < SQ_NB; i++) {
            int sq = order[i], pc = mate->board[sq];
            if (!pc || pc == make_piece(WHITE, KING)) continue;
            int raw = raw_type(piece_type(pc));
            pos_remove(mate, sq);
            mate->hand[WHITE][raw]++;
            if (white_mated(mate)) { removed = 1; continue; }
            mate->hand[WHITE][raw]--;
            pos_put(mate, sq, pc);
        }
    }
    pos_compute_keys(mate, &mate->board_key, &mate->hand_key);
    return 0;
}

/* q (Black to move) as a candidate when it is legal, White is not in check, m is
 * a legal check there and mates, and q is new; 1 when added. */
static int accept(Position *q, Move m, Move last, ReverseCandidate *out, int n) {
    q->side = BLACK;
    Position r;
    if (!extend_check_from(q, m, &r) || has_legal_move(&r)) return 0;
    uint64_t key = pos_key(q);
    for (int i = 0; i < n; i++)
        if (pos_key(&out[i].pos) == key) return 0;
    out[n].pos = *q, out[n].mate = m, out[n].game = m == last;
    return 1;
}

int reverse_candidates(const Position *mate, Move last, ReverseCandidate *out, int max) {
    int n = 0;
    for (int s = 0; s < SQ_NB && n < max; s++) {
        int pc = mate->board[s];
        if (!pc || piece_color(pc) != BLACK) continue;
        int pt = piece_type(pc);
        Position base = *mate;
        pos_remove(&base, s);
        if (pt <= GOLD) {  /* dropped: the piece back in Black's hand */
            Position q = base;
            if (q.hand[WHITE][pt]) q.hand[WHITE][pt]--;  /* (normalize gives White the rest) */
            q.hand[BLACK][pt]++;
            n += accept(&q, make_drop(pt, s), last, out, n);
        }
        for (int from = 0; from < SQ_NB && n < max; from++) {
            if (base.board[from] || from == s) continue;
            int kinds[2], nk = extend_pre_kinds(BLACK, pt, from, s, kinds);
            for (int i = 0; i < nk && n < max; i++) {
                if (!bb_test(piece_attack(BLACK, kinds[i], from, base.occupied), s)) continue;
                Position q = base;
                pos_put(&q, from, make_piece(BLACK, kinds[i]));
                n += accept(&q, make_move(from, s, kinds[i] != pt), last, out, n);
            }
        }
    }
    return n;
}
