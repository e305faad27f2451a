/* position.h - the board: bitboards plus a mailbox, hands, Zobrist key.
 *
 * Tsume positions often have no attacker king: king_sq[c] is SQ_NONE then and
 * every king-related test treats the missing king as "cannot be attacked". */
#ifndef TSUMEGEN_POSITION_H
#define TSUMEGEN_POSITION_H
#include "bitboard.h"

typedef struct {
    Bitboard by_color[2];
    Bitboard by_type[PIECE_TYPE_NB];  /* both colours; index 0 unused */
    Bitboard occupied;
    uint64_t board_key;               /* Zobrist XOR of pieces on squares; bit 0 = side to move */
    uint64_t hand_key;                /* sum of ZOBRIST_HAND over pieces held (bit 0 stays 0) */
    uint8_t board[81];                /* piece code or 0 */
    uint8_t hand[2][HAND_TYPE_NB];    /* counts, index PAWN..GOLD */
    uint8_t king_sq[2];               /* SQ_NONE when absent */
    uint8_t side;                     /* side to move */
    uint8_t pad;
} Position;

typedef struct {
    uint64_t board_key, hand_key;
    uint8_t captured;  /* piece code taken by the move, 0 if none */
} Undo;

void pos_clear(Position *pos);
void pos_put(Position *pos, int sq, int pc);
void pos_remove(Position *pos, int sq);
/* Recomputes board_key and hand_key from scratch (setup and consistency check). */
void pos_compute_keys(const Position *pos, uint64_t *board_key, uint64_t *hand_key);
/* Full position key: board, side to move and both hands. */
TG_INLINE uint64_t pos_key(const Position *pos) { return pos->board_key ^ pos->hand_key; }
void pos_do_move(Position *pos, Move m, Undo *u);
/* The board and hand keys of the position after m (pos is unchanged). */
void pos_keys_after(const Position *pos, Move m, uint64_t *board_key, uint64_t *hand_key);
void pos_undo_move(Position *pos, Move m, const Undo *u);

TG_INLINE Bitboard pieces_ct(const Position *pos, int c, int pt) { return bb_and(pos->by_color[c], pos->by_type[pt]); }
/* Pieces that move like a gold: gold and the promoted minors. */
TG_INLINE Bitboard golds_bb(const Position *pos) {
    return bb_or(bb_or(pos->by_type[GOLD], pos->by_type[PRO_PAWN]),
                 bb_or(bb_or(pos->by_type[PRO_LANCE], pos->by_type[PRO_KNIGHT]), pos->by_type[PRO_SILVER]));
}
/* Non-sliding attackers of colour c on sq (sliders' step moves included): a
 * c-piece attacks sq iff the same piece of the other colour on sq would attack it. */
TG_INLINE Bitboard step_attackers(const Position *pos, int c, int sq) {
    int them = c ^ 1;
    Bitboard hdk = bb_or(bb_or(pos->by_type[KING], pos->by_type[HORSE]), pos->by_type[DRAGON]);
    Bitboard a = bb_and(PAWN_ATK[them][sq], pos->by_type[PAWN]);
    a = bb_or(a, bb_and(KNIGHT_ATK[them][sq], pos->by_type[KNIGHT]));
    a = bb_or(a, bb_and(SILVER_ATK[them][sq], bb_or(pos->by_type[SILVER], hdk)));
    a = bb_or(a, bb_and(GOLD_ATK[them][sq], bb_or(golds_bb(pos), hdk)));
    return bb_and(a, pos->by_color[c]);
}
/* Pieces of colour c attacking sq, with occupancy occ for the sliders. */
Bitboard attackers_to(const Position *pos, int c, int sq, Bitboard occ);
/* Is sq attacked by colour c?  Early-exit form of attackers_to for king safety. */
int is_attacked(const Position *pos, int c, int sq, Bitboard occ);
/* Pieces of colour `slider_c` that would attack sq if exactly the pieces in the
 * returned blockers were absent: blockers of both colours lying alone between. */
Bitboard slider_blockers(const Position *pos, int slider_c, int sq);
TG_INLINE Bitboard checkers_of(const Position *pos) {
    int us = pos->side;
    if (pos->king_sq[us] == SQ_NONE) return bb_empty();
    return attackers_to(pos, us ^ 1, pos->king_sq[us], pos->occupied);
}
TG_INLINE int in_check(const Position *pos) { return bb_any(checkers_of(pos)); }
/* Does colour c have an unpromoted pawn on this file? (二歩) */
TG_INLINE int pawn_on_file(const Position *pos, int c, int file) {
    return bb_any(bb_and(pieces_ct(pos, c, PAWN), bb_file(file)));
}
/* Colour c's pieces in hand, all kinds together. */
TG_INLINE int hand_total(const Position *pos, int c) {
    int n = 0;
    for (int k = PAWN; k <= GOLD; k++) n += pos->hand[c][k];
    return n;
}
/* Debug consistency check: mailbox, bitboards, kings and key agree. 0 = ok,
 * else a code naming the first broken invariant. */
int pos_check(const Position *pos);

#endif
