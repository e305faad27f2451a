/* ga.h - the genetic algorithm of seeds/000 §4: genotype, decoding, selection,
 * crossover and mutation that keep the number of 1 bits fixed.
 *
 * Genotype encoding (GA_BITS = 81*26 + 7 = 2113 bits):
 *   bit sq*26 + owner*13 + k   for board square sq (0..80, see core/types.h),
 *                              owner 0 = attacker (the side to move), 1 = defender,
 *                              k = 0..12 indexes GA_KINDS (13 kinds: the 8 unpromoted
 *                              non-king kinds... and the 6 promoted ones; never a king)
 *   bit 81*26 + h              one more piece of hand kind h (0..6 = PAWN..GOLD) for
 *                              the attacker's hand.
 * A 1 bit means "put this piece here" on top of the initial problem. */
#ifndef TSUMEGEN_GA_H
#define TSUMEGEN_GA_H
#include <stdint.h>
#include "../core/position.h"

#define GA_KINDS_NB 13
#define GA_SQ_GENES (2 * GA_KINDS_NB)
#define GA_HAND_BASE (SQ_NB * GA_SQ_GENES)
#define GA_BITS (GA_HAND_BASE + 7)
#define GA_WORDS ((GA_BITS + 63) / 64)

typedef struct { uint64_t w[GA_WORDS]; } Genome;

extern const uint8_t GA_KINDS[GA_KINDS_NB];  /* piece types for k = 0..12 */

/* Small, fast, seedable RNG (xoshiro256**); state is plain data for checkpoints. */
typedef struct { uint64_t s[4]; } Rng;
void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
uint32_t rng_below(Rng *r, uint32_t n);  /* uniform in [0, n) */
double rng_unit(Rng *r);                 /* uniform in [0, 1) */

int genome_get(const Genome *g, int bit);
void genome_set(Genome *g, int bit, int v);
int genome_count(const Genome *g);
/* A genome with exactly `ones` random 1 bits. */
void genome_random(Genome *g, int ones, Rng *r);
/* Decodes g onto the initial problem (§4.1): overwrite non-king pieces, never a
 * king; several bits on one square -> one chosen at random; hand bits add pieces.
 * The result may be illegal (too many pieces, 二歩, dead pieces, check): the
 * caller validates it.  Returns 0, or -1 if it cannot even be represented. */
int genome_decode(const Genome *g, const Position *initial, Rng *r, Position *out);
/* The inverse of genome_decode for one board: a genome that decodes to `board`
 * with no random choice - one bit per square that differs from `initial`, one
 * per extra attacker hand piece - padded to exactly `ones` bits with bits on the
 * initial kings' squares, which decoding never applies.  The defender's hand is
 * not compared (normalizing gives the defender the rest).  Returns -1 when the
 * board cannot be written so: a square emptied or a king moved, two or more extra
 * pieces of one kind in hand, more than `ones` differences. */
int genome_encode(const Position *initial, const Position *board, int ones, Genome *g);
/* Uniform crossover exchanging equal numbers of 1s and 0s (§4.4): both children
 * keep their parents' 1-bit count. */
void genome_crossover(Genome *a, Genome *b, Rng *r);
/* Mutation (§4.5): each 0 bit turns 1 with probability rate, and as many random
 * 1 bits turn 0, so the count stays fixed. */
void genome_mutate(Genome *g, double rate, Rng *r);
/* Tournament selection: index of the fittest of `size` random picks. */
int ga_tournament(const double *fitness, int n, int size, Rng *r);

#endif
