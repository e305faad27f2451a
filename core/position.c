/* position.c - piece placement, do/undo, attack queries, consistency check. */
#include "position.h"

void pos_clear(Position *pos) {
    for (int c = 0; c < 2; c++) {
        pos->by_color[c] = bb_empty();
        pos->king_sq[c] = SQ_NONE;
        for (int pt = 0; pt < HAND_TYPE_NB; pt++) pos->hand[c][pt] = 0;
    }
    for (int pt = 0; pt < PIECE_TYPE_NB; pt++) pos->by_type[pt] = bb_empty();
    for (int sq = 0; sq < SQ_NB; sq++) pos->board[sq] = 0;
    pos->occupied = bb_empty();
    pos->side = BLACK;
    pos->pad = 0;
    pos->board_key = 0;
    pos->hand_key = 0;
}

/* put/remove keep bitboards, mailbox, king squares and the key in step. */
void pos_put(Position *pos, int sq, int pc) {
    Bitboard b = bb_sq(sq);
    int c = piece_color(pc), pt = piece_type(pc);
    pos->board[sq] = (uint8_t)pc;
    pos->by_color[c] = bb_or(pos->by_color[c], b);
    pos->by_type[pt] = bb_or(pos->by_type[pt], b);
    pos->occupied = bb_or(pos->occupied, b);
    if (pt == KING) pos->king_sq[c] = (uint8_t)sq;
    pos->board_key ^= ZOBRIST_PSQ[pc][sq];
}

void pos_remove(Position *pos, int sq) {
    Bitboard b = bb_sq(sq);
    int pc = pos->board[sq], c = piece_color(pc), pt = piece_type(pc);
    pos->board[sq] = 0;
    pos->by_color[c] = bb_xor(pos->by_color[c], b);
    pos->by_type[pt] = bb_xor(pos->by_type[pt], b);
    pos->occupied = bb_xor(pos->occupied, b);
    if (pt == KING) pos->king_sq[c] = SQ_NONE;
    pos->board_key ^= ZOBRIST_PSQ[pc][sq];
}

void pos_compute_keys(const Position *pos, uint64_t *board_key, uint64_t *hand_key) {
    uint64_t b = pos->side == WHITE ? ZOBRIST_SIDE : 0, h = 0;
    for (int sq = 0; sq < SQ_NB; sq++)
        if (pos->board[sq]) b ^= ZOBRIST_PSQ[pos->board[sq]][sq];
    for (int c = 0; c < 2; c++)
        for (int pt = PAWN; pt <= GOLD; pt++) h += ZOBRIST_HAND[c][pt] * pos->hand[c][pt];
    *board_key = b;
    *hand_key = h;
}

#ifdef TG_DEBUG
/* Debug builds (make check) verify one position in sixteen after a do or undo, chosen
 * by its key: a faulty update stays in the position for the moves after it, so the
 * sample still catches it, at a fraction of the cost (the unit tests' random games and
 * the fuzz target call pos_check after every move themselves). */
static int pos_check_sampled(const Position *pos) { return (pos->board_key & 15) != 0 || pos_check(pos) == 0; }
#endif

void pos_do_move(Position *pos, Move m, Undo *u) {
    int us = pos->side, to = move_to(m);
    u->board_key = pos->board_key;
    u->hand_key = pos->hand_key;
    u->captured = 0;
    if (move_is_drop(m)) {
        int pt = move_drop_type(m);
        pos->hand[us][pt]--;
        pos->hand_key -= ZOBRIST_HAND[us][pt];
        pos_put(pos, to, make_piece(us, pt));
    } else {
        int from = move_from(m), pc = pos->board[from];
        int cap = pos->board[to];
        if (cap) {
            int rt = raw_type(piece_type(cap));
            u->captured = (uint8_t)cap;
            pos_remove(pos, to);
            pos->hand[us][rt]++;
            pos->hand_key += ZOBRIST_HAND[us][rt];
        }
        pos_remove(pos, from);
        pos_put(pos, to, move_is_promo(m) ? pc + PROMOTE : pc);
    }
    pos->side = (uint8_t)(us ^ 1);
    pos->board_key ^= ZOBRIST_SIDE;
    TG_ASSERT(pos_check_sampled(pos));
}

/* The keys pos_do_move would give, without touching pos: a child's table slot can
 * then be prefetched before the child is visited. */
void pos_keys_after(const Position *pos, Move m, uint64_t *board_key, uint64_t *hand_key) {
    int us = pos->side, to = move_to(m);
    uint64_t b = pos->board_key ^ ZOBRIST_SIDE, h = pos->hand_key;
    if (move_is_drop(m)) {
        int pt = move_drop_type(m);
        h -= ZOBRIST_HAND[us][pt];
        b ^= ZOBRIST_PSQ[make_piece(us, pt)][to];
    } else {
        int from = move_from(m), pc = pos->board[from], cap = pos->board[to];
        if (cap) {
            h += ZOBRIST_HAND[us][raw_type(piece_type(cap))];
            b ^= ZOBRIST_PSQ[cap][to];
        }
        b ^= ZOBRIST_PSQ[pc][from] ^ ZOBRIST_PSQ[move_is_promo(m) ? pc + PROMOTE : pc][to];
    }
    *board_key = b;
    *hand_key = h;
}

void pos_undo_move(Position *pos, Move m, const Undo *u) {
    int us = pos->side ^ 1, to = move_to(m);
    pos->side = (uint8_t)us;
    if (move_is_drop(m)) {
        pos_remove(pos, to);
        pos->hand[us][move_drop_type(m)]++;
    } else {
        int from = move_from(m), pc = pos->board[to];
        pos_remove(pos, to);
        pos_put(pos, from, move_is_promo(m) ? pc - PROMOTE : pc);
        if (u->captured) {
            pos_put(pos, to, u->captured);
            pos->hand[us][raw_type(piece_type(u->captured))]--;
        }
    }
    pos->board_key = u->board_key;
    pos->hand_key = u->hand_key;
    TG_ASSERT(pos_check_sampled(pos));
}

/* The sliders' attacks are computed only for kinds that stand on one of sq's
 * lines (most squares a mate search asks about have none on them). */
Bitboard attackers_to(const Position *pos, int c, int sq, Bitboard occ) {
    int them = c ^ 1;
    Bitboard mine = pos->by_color[c];
    Bitboard a = step_attackers(pos, c, sq);
    Bitboard bishops = bb_and(bb_or(pos->by_type[BISHOP], pos->by_type[HORSE]), mine);
    Bitboard rooks = bb_and(bb_or(pos->by_type[ROOK], pos->by_type[DRAGON]), mine);
    Bitboard lances = bb_and(pos->by_type[LANCE], mine);
    if (bb_any(bb_and(bishops, bishop_lines(sq)))) a = bb_or(a, bb_and(bishop_attack(sq, occ), bishops));
    if (bb_any(bb_and(rooks, rook_lines(sq)))) a = bb_or(a, bb_and(rook_attack(sq, occ), rooks));
    if (bb_any(bb_and(lances, file_lines(sq)))) a = bb_or(a, bb_and(lance_attack(them, sq, occ), lances));
    return a;
}

int is_attacked(const Position *pos, int c, int sq, Bitboard occ) {
    int them = c ^ 1;
    Bitboard mine = pos->by_color[c];
    if (bb_any(step_attackers(pos, c, sq))) return 1;
    /* sliders: look at the occupancy only when one stands on an open-board line */
    Bitboard rooks = bb_and(bb_or(pos->by_type[ROOK], pos->by_type[DRAGON]), mine);
    Bitboard bishops = bb_and(bb_or(pos->by_type[BISHOP], pos->by_type[HORSE]), mine);
    Bitboard lances = bb_and(pos->by_type[LANCE], mine);
    Bitboard rl = bb_or(rooks, lances);
    if (bb_any(rl) && bb_any(bb_and(rl, rook_lines(sq)))) {
        if (bb_any(bb_and(rook_attack(sq, occ), rooks))) return 1;
        if (bb_any(bb_and(lance_attack(them, sq, occ), lances))) return 1;
    }
    if (bb_any(bishops) && bb_any(bb_and(bishops, bishop_lines(sq))))
        return bb_any(bb_and(bishop_attack(sq, occ), bishops));
    return 0;
}

Bitboard slider_blockers(const Position *pos, int slider_c, int sq) {
    Bitboard empty = bb_empty(), result = bb_empty();
    Bitboard snipers = bb_and(rook_attack(sq, empty), bb_or(pos->by_type[ROOK], pos->by_type[DRAGON]));
    snipers = bb_or(snipers, bb_and(bishop_attack(sq, empty), bb_or(pos->by_type[BISHOP], pos->by_type[HORSE])));
    /* a lance of slider_c attacks sq from the side slider_c moves away from */
    snipers = bb_or(snipers, bb_and(lance_attack(slider_c ^ 1, sq, empty), pos->by_type[LANCE]));
    snipers = bb_and(snipers, pos->by_color[slider_c]);
    while (bb_any(snipers)) {
        int s = bb_pop(&snipers);
        Bitboard b = bb_and(between_bb(sq, s), pos->occupied);
        if (bb_any(b) && !bb_more_than_one(b)) result = bb_or(result, b);
    }
    return result;
}

int pos_check(const Position *pos) {
    Bitboard occ = bb_empty();
    int kings[2] = {0, 0};
    if (bb_any(bb_and(pos->by_color[0], pos->by_color[1]))) return 1;
    if (bb_any(bb_andnot(pos->occupied, bb_all()))) return 2;
    for (int sq = 0; sq < SQ_NB; sq++) {
        int pc = pos->board[sq];
        if (!pc) continue;
        int c = piece_color(pc), pt = piece_type(pc);
        if (pt < PAWN || pt >= PIECE_TYPE_NB || c > 1) return 3;
        if (!bb_test(pos->by_color[c], sq) || !bb_test(pos->by_type[pt], sq)) return 4;
        if (pt == KING) { kings[c]++; if (pos->king_sq[c] != sq) return 5; }
        occ = bb_or(occ, bb_sq(sq));
    }
    if (occ.p[0] != pos->occupied.p[0] || occ.p[1] != pos->occupied.p[1]) return 6;
    for (int c = 0; c < 2; c++)
        if (kings[c] > 1 || (kings[c] == 0 && pos->king_sq[c] != SQ_NONE)) return 7;
    int total = 0;  /* with check 4, equal totals mean no stray bits in by_type */
    for (int pt = PAWN; pt < PIECE_TYPE_NB; pt++) total += bb_count(pos->by_type[pt]);
    if (total != bb_count(occ) || bb_count(pos->by_color[0]) + bb_count(pos->by_color[1]) != total) return 8;
    uint64_t bk, hk;
    pos_compute_keys(pos, &bk, &hk);
    if (bk != pos->board_key || hk != pos->hand_key) return 9;
    if (pos->side > 1) return 10;
    return 0;
}
