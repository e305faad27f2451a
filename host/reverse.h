/* reverse.h - reverse construction of one-move problems (seeds/004).
 *
 * seeds/004 plays a game of random legal moves from the initial position until
 * one side is mated, turns the board so that Black gave the mate, takes away
 * every piece the mate does not need (into the defender's hand, the tsume hand
 * convention), and puts the mating piece back where it came from: a one-move
 * problem.  It never checked for a second mating move.
 *
 * Here game `index` of stream `seed` is a function of those two numbers alone,
 * so a run is reproducible and resumable by index; and every way the mate could
 * have been played is undone, not only the game's own move (any attacker piece
 * moved back to an empty square it could have come from, promoting on the way or
 * not, or an unpromoted piece back in hand).  Whether a candidate is a perfect
 * problem, with a single answer, is for the verifier to say. */
#ifndef TSUMEGEN_REVERSE_H
#define TSUMEGEN_REVERSE_H
#include <stdint.h>
#include "../core/position.h"

/* Plies after which a random game is abandoned (no mate: the index gives none). */
#define REVERSE_MAX_PLIES 2000
/* At most this many candidates from one mate position. */
#define REVERSE_MAX_CANDIDATES 96

typedef struct {
    Position pos;  /* the problem: Black to move, normalized (hand convention) */
    Move mate;     /* the move that gives the stripped mate position back */
    int game;      /* 1: mate is the game's own last move (seeds/004's candidate) */
} ReverseCandidate;

/* Plays game `index` of stream `seed` at random to a mate, turned so that White
 * is mated (White to move); *last is the mating move, turned likewise, *plies the
 * game's length.  1 when the game ended in mate, 0 when it reached
 * REVERSE_MAX_PLIES first. */
int reverse_game(uint64_t seed, uint64_t index, Position *mate, Move *last, int *plies);

/* Takes away every piece that the mate does not need, in an order drawn from
 * (seed, index): Black's hand and king first, then board pieces one at a time,
 * each kept off the board when White is still mated without it, in passes until
 * every piece left is needed; what goes, goes to White's hand.  0, or -1 when the
 * mate needs Black's king (not a problem). */
int reverse_strip(Position *mate, uint64_t seed, uint64_t index);

/* The one-move problems whose mate gives the stripped position back: legal,
 * White not in check, the move a legal check that mates.  Distinct positions,
 * at most max (REVERSE_MAX_CANDIDATES is enough for any mate), in square order;
 * returns how many.  last: the game's move (marks seeds/004's own candidate). */
int reverse_candidates(const Position *mate, Move last, ReverseCandidate *out, int max);

#endif
