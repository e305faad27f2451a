/* tables.h - precomputed attack, ray and Zobrist tables.
 *
 * The data is generated at build time by tools/gen_tables.c into
 * build/gen/tables.inc (definitions qualified TG_CONST).  The host compiles it
 * once in core/tables.c; an OpenCL program includes the definitions directly. */
#ifndef TSUMEGEN_TABLES_H
#define TSUMEGEN_TABLES_H

#ifdef __OPENCL_C_VERSION__
#include "tables.inc"
#else
extern const Bitboard RAY[DIR_NB][81];
extern const uint8_t DIRECTION[81][81];  /* ray index from a toward b, DIR_NB if none */
extern const Bitboard PAWN_ATK[2][81], KNIGHT_ATK[2][81], SILVER_ATK[2][81], GOLD_ATK[2][81];
extern const Bitboard KING_ATK[81];
extern const Bitboard BB_RANKS[2][9][9];  /* [c][lo][hi]: relative ranks lo..hi of colour c */
extern const Bitboard BB_FILE[9];
extern const uint64_t ZOBRIST_PSQ[32][81];
extern const uint64_t ZOBRIST_HAND[2][8];  /* added once per piece held */
extern const uint64_t ZOBRIST_SIDE;
#endif

#endif
