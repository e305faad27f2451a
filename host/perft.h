/* perft.h - legal move path counting, the movegen's ground truth. */
#ifndef TSUMEGEN_PERFT_H
#define TSUMEGEN_PERFT_H
#include "../core/position.h"

/* Leaf nodes at `depth` plies (bulk-counted at the last ply). */
uint64_t perft(Position *pos, int depth);

#endif
