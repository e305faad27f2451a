/* repair.h - cook removal (余詰消し) as a GA operator.
 *
 * seeds/000 §3: an expert lengthens problems by taking a long mate that has 余詰
 * and changing it until the cook is gone.  The GA does that only by chance (one
 * bit in a thousand mutates); this operator does it on purpose.  For a mate whose
 * verdict names a cook - an attacker alternative at ply k of the main line - it
 * proposes boards with one defender piece more that guards the alternative's
 * square, blocks its line, or fills the square of a cooking drop, or with the
 * cooking piece put back as the initial problem had it.  Each proposal still
 * plays the old main line as a mate (every move legal, every attacker move a
 * check, the last position mate, and as many evasions as before at every
 * defender ply) and comes with the genome that decodes to it;
 * the verifier then judges it like any other child. */
#ifndef TSUMEGEN_REPAIR_H
#define TSUMEGEN_REPAIR_H
#include "compose.h"
#include "ga.h"

typedef struct {
    Position pos;  /* normalized */
    Genome g;      /* decodes to pos from the initial problem */
} RepairCandidate;

/* Does pv, played from start, stay a mating line: each attacker move a legal
 * check, each defender move a legal evasion, and the last position mate? */
int repair_line_mates(const Position *start, const Move *pv, int n);

/* Up to max proposals against the cook (cook_ply, cook) of board's main line pv,
 * in an order shuffled by rng; genomes have exactly `ones` bits (when the edit
 * would make one too many, another changed square goes back to the initial
 * problem).  Returns how many were written to out. */
int repair_candidates(const Position *initial, const Position *board, const Move *pv, int npv, int cook_ply,
                      Move cook, int ones, Rng *rng, RepairCandidate *out, int max);

#endif
