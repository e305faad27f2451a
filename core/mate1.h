/* mate1.h - every mate-in-one of the side to move (plain rule: no legal reply). */
#ifndef TSUMEGEN_MATE1_H
#define TSUMEGEN_MATE1_H
#include "movegen.h"

/* Is the side to move checkmated (in check with no legal reply)? */
int is_checkmated(const Position *pos);
/* Fills `out` with every checking move after which the opponent is checkmated. */
int gen_mate1(Position *pos, MoveList *out);

#endif
