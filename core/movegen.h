/* movegen.h - move generators split by purpose.
 *
 * gen_legal: every legal move (non-promotions of bishop, rook and pawn included).
 * gen_checks: the side to move's legal checking moves (direct, discovered, drops,
 *   promotions and non-promotions) - the attacker's moves in tsume.
 * gen_evasions: legal replies when the side to move is in check (king moves,
 *   captures of the checker, interpositions by moves and by drops) - the defender.
 * All three exclude pawn-drop mate and respect nifu and dead-piece rules. */
#ifndef TSUMEGEN_MOVEGEN_H
#define TSUMEGEN_MOVEGEN_H
#include "position.h"

typedef struct {
    Bitboard checkers;                  /* enemy pieces checking our king */
    Bitboard pinned;                    /* our pieces pinned to our king */
    Bitboard discover;                  /* our pieces whose move can uncover a check */
    Bitboard check_sq[PIECE_TYPE_NB];   /* where our piece of type pt would give check */
    int ksq_us, ksq_them;
} CheckInfo;

/* Fills checkers, pinned and the king squares; checkinfo_init_checks adds
 * check_sq and discover (needed only to generate or detect checks). */
void checkinfo_init(const Position *pos, CheckInfo *ci);
void checkinfo_init_checks(const Position *pos, CheckInfo *ci);
/* Legality of a pseudo-legal move (own-king safety; pawn-drop mate excluded separately). */
int move_is_legal(const Position *pos, const CheckInfo *ci, Move m);
int move_gives_check(const Position *pos, const CheckInfo *ci, Move m);
/* Would a pawn dropped by the side to move on `to` (checking the enemy king) be mate? */
int is_pawn_drop_mate(const Position *pos, int to);
/* Squares of target where the side to move may drop pt: 二歩 and dead ranks
 * removed (pawn-drop mate is checked separately). */
Bitboard drop_targets(const Position *pos, int pt, Bitboard target);

int gen_legal(const Position *pos, MoveList *list);
int gen_checks(const Position *pos, MoveList *list);
/* gen_checks' count without listing the moves. */
int count_checks(const Position *pos);
int gen_evasions(const Position *pos, MoveList *list);
/* gen_evasions' count without listing the moves; *nondrop: the board moves among
 * them, *drop_squares: the squares with at least one legal drop. */
int count_evasions(const Position *pos, int *nondrop, int *drop_squares);
/* Whether m is among list's moves. */
int movelist_has(const MoveList *list, Move m);
/* Does the side to move have any legal move? (early exit; used by mate tests) */
int has_legal_move(const Position *pos);
/* Number of legal moves, without listing them (perft leaves); equals gen_legal's count. */
int count_legal(const Position *pos);

#endif
