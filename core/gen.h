/* gen.h - candidate boards made where they are screened.
 *
 * sc_gen_board makes board `index` of the stream `seed` from those two numbers
 * alone (a counter-based generator: splitmix64 over seed and index), so a GPU
 * work-item, an OpenMP thread and a later re-check all make the same board
 * without a byte crossing the bus.  The boards are tsume-like in the manner of
 * seeds/002's random composition: a defender king mostly on the top three ranks,
 * 1-8 pieces mostly within three squares of it, 0-5 attacker pieces in hand,
 * about one board in ten with White attacking.  Nothing is redrawn: a board that
 * breaks a rule is screened as illegal like any input board.
 *
 * sc_gen_keep is the filter a composer asks for (legal, points at least a floor,
 * a check, optionally exactly one mate-in-1); sc_result_digest folds a whole
 * ScResult into 32 bits so device and CPU results can be compared bit for bit
 * while only 4 bytes per board leave the device. */
#ifndef TSUMEGEN_GEN_H
#define TSUMEGEN_GEN_H
#include "screen.h"

/* sc_gen_keep modes */
#define SC_KEEP_CHECK 0         /* legal, points >= floor, at least one check */
#define SC_KEEP_UNIQUE_MATE1 1  /* legal, points >= floor, exactly one plain-rule mate-in-1 */

void sc_gen_board(uint64_t seed, uint64_t index, ScBoard *b);
int sc_gen_keep(const ScResult *r, int keep_mode, int32_t min_points);
uint32_t sc_result_digest(const ScResult *r);

#endif
