/* types.h - colours, squares, pieces, hands and moves.
 *
 * Squares: sq = file * 9 + rank, file 0..8 = 1筋..9筋, rank 0..8 = 一..九段
 * (so 1a = 0, 9i = 80, USI "7g" = file 6, rank 6 = 60).  Black (sente, 'b') moves
 * toward rank 0.  Piece types follow the usual shogi-engine order so that
 * "promoted = base + 8" and hand types are 1..7. */
#ifndef TSUMEGEN_TYPES_H
#define TSUMEGEN_TYPES_H
#include "platform.h"

enum { BLACK = 0, WHITE = 1, COLOR_NB = 2 };

enum {
    NO_PIECE_TYPE = 0,
    PAWN = 1, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING,
    PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON,
    PIECE_TYPE_NB,
    HAND_TYPE_NB = 8,  /* hands index 1..7 = PAWN..GOLD */
    PROMOTE = 8
};

/* A shogi set's count of each hand kind, index NO_PIECE_TYPE, PAWN..GOLD (a list
 * for initialisers: the kernels want it in their constant space, sfen.c adds kings) */
#define SET_COUNT_LIST 0, 18, 4, 4, 4, 2, 2, 4

#define SQ_NB 81
#define SQ_NONE 81
#define MAX_MOVES 600  /* 593 is the known maximum number of legal moves */

/* A piece is type | colour << 4; 0 is an empty square. */
TG_INLINE int make_piece(int c, int pt) { return pt | (c << 4); }
TG_INLINE int piece_type(int pc) { return pc & 15; }
TG_INLINE int piece_color(int pc) { return pc >> 4; }
TG_INLINE int sq_file(int sq) { return sq / 9; }
TG_INLINE int sq_rank(int sq) { return sq % 9; }
TG_INLINE int make_sq(int file, int rank) { return file * 9 + rank; }
/* Rank as seen by colour c: 0 is the farthest rank (c's promotion edge). */
TG_INLINE int rel_rank(int c, int sq) { return c == BLACK ? sq_rank(sq) : 8 - sq_rank(sq); }
TG_INLINE int in_zone(int c, int sq) { return rel_rank(c, sq) < 3; }
/* The unpromoted kind: what a captured piece becomes in hand. */
TG_INLINE int raw_type(int pt) { return pt > KING ? pt - PROMOTE : pt; }
TG_INLINE int can_promote_type(int pt) { return pt >= PAWN && pt <= ROOK; }
TG_INLINE int is_gold_like(int pt) { return pt == GOLD || (pt >= PRO_PAWN && pt <= PRO_SILVER); }

/* Move (32 bits): to in bits 0-6, from in 7-13 (the piece type when a drop),
 * bit 14 = drop, bit 15 = promotion.  0 is "no move". */
typedef uint32_t Move;
#define MOVE_NONE 0u
#define MOVE_DROP (1u << 14)
#define MOVE_PROMO (1u << 15)
TG_INLINE Move make_move(int from, int to, int promo) {
    return (Move)to | ((Move)from << 7) | (promo ? MOVE_PROMO : 0u);
}
TG_INLINE Move make_drop(int pt, int to) { return (Move)to | ((Move)pt << 7) | MOVE_DROP; }
TG_INLINE int move_to(Move m) { return (int)(m & 127u); }
TG_INLINE int move_from(Move m) { return (int)((m >> 7) & 127u); }
TG_INLINE int move_is_drop(Move m) { return (m & MOVE_DROP) != 0; }
TG_INLINE int move_is_promo(Move m) { return (m & MOVE_PROMO) != 0; }
TG_INLINE int move_drop_type(Move m) { return move_from(m); }

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

#endif
