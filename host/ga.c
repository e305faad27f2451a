/* ga.c - genome operators for the GA composer (seeds/000 §4). */
#include "ga.h"
#include <string.h>

const uint8_t GA_KINDS[GA_KINDS_NB] = {PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD,
                                       PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON};

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(Rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) {  /* splitmix64 expands the seed */
        uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        r->s[i] = z ^ (z >> 31);
    }
}

uint64_t rng_next(Rng *r) {
    uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

uint32_t rng_below(Rng *r, uint32_t n) { return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32); }
double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

int genome_get(const Genome *g, int bit) { return (int)((g->w[bit >> 6] >> (bit & 63)) & 1); }
void genome_set(Genome *g, int bit, int v) {
    uint64_t m = 1ull << (bit & 63);
    if (v) g->w[bit >> 6] |= m; else g->w[bit >> 6] &= ~m;
}
int genome_count(const Genome *g) {
    int n = 0;
    for (int i = 0; i < GA_WORDS; i++) n += __builtin_popcountll(g->w[i]);
    return n;
}

void genome_random(Genome *g, int ones, Rng *r) {
    memset(g, 0, sizeof *g);
    for (int n = 0; n < ones;) {
        int b = (int)rng_below(r, GA_BITS);
        if (!genome_get(g, b)) genome_set(g, b, 1), n++;
    }
}

int genome_decode(const Genome *g, const Position *initial, Rng *r, Position *out) {
    *out = *initial;
    int us = initial->side;
    for (int sq = 0; sq < SQ_NB; sq++) {
        int base = sq * GA_SQ_GENES, n = 0, pick = -1;
        for (int k = 0; k < GA_SQ_GENES; k++)  /* reservoir choice among the set bits */
            if (genome_get(g, base + k) && rng_below(r, (uint32_t)++n) == 0) pick = k;
        if (pick < 0) continue;
        int cur = out->board[sq];
        if (cur && piece_type(cur) == KING) continue;
        int owner = pick / GA_KINDS_NB ? us ^ 1 : us;
        if (cur) pos_remove(out, sq);
        pos_put(out, sq, make_piece(owner, GA_KINDS[pick % GA_KINDS_NB]));
    }
    for (int h = 0; h < 7; h++)
        if (genome_get(g, GA_HAND_BASE + h)) {
            if (out->hand[us][PAWN + h] >= 18) return -1;
            out->hand[us][PAWN + h]++;
        }
    pos_compute_keys(out, &out->board_key, &out->hand_key);
    return 0;
}

int genome_encode(const Position *initial, const Position *board, int ones, Genome *g) {
    int us = initial->side, n = 0;
    memset(g, 0, sizeof *g);
    for (int sq = 0; sq < SQ_NB; sq++) {
        int want = board->board[sq], was = initial->board[sq];
        if (want == was) continue;
        if (!want || piece_type(want) == KING || (was && piece_type(was) == KING)) return -1;
        int k = 0;
        while (k < GA_KINDS_NB && GA_KINDS[k] != piece_type(want)) k++;
        genome_set(g, sq * GA_SQ_GENES + (piece_color(want) == us ? 0 : GA_KINDS_NB) + k, 1);
        n++;
    }
    for (int h = 0; h < 7; h++) {
        int extra = board->hand[us][PAWN + h] - initial->hand[us][PAWN + h];
        if (extra < 0 || extra > 1) return -1;
        if (extra) genome_set(g, GA_HAND_BASE + h, 1), n++;
    }
    for (int sq = 0; sq < SQ_NB && n < ones; sq++)  /* padding: bits a king square ignores */
        if (initial->board[sq] && piece_type(initial->board[sq]) == KING)
            for (int k = 0; k < GA_SQ_GENES && n < ones; k++) genome_set(g, sq * GA_SQ_GENES + k, 1), n++;
    return n == ones ? 0 : -1;
}

void genome_crossover(Genome *a, Genome *b, Rng *r) {
    /* positions where a has 1 and b 0, and the reverse: equally many of each */
    static _Thread_local int only_a[GA_BITS], only_b[GA_BITS];
    int na = 0, nb = 0;
    for (int i = 0; i < GA_BITS; i++) {
        int x = genome_get(a, i), y = genome_get(b, i);
        if (x && !y) only_a[na++] = i;
        else if (!x && y) only_b[nb++] = i;
    }
    /* shuffle only_b, then pair them up; swap each pair with probability 1/2 */
    for (int i = nb - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1), t = only_b[i];
        only_b[i] = only_b[j], only_b[j] = t;
    }
    for (int i = 0; i < na && i < nb; i++) {
        if (rng_next(r) & 1) continue;
        genome_set(a, only_a[i], 0), genome_set(b, only_a[i], 1);
        genome_set(b, only_b[i], 0), genome_set(a, only_b[i], 1);
    }
}

void genome_mutate(Genome *g, double rate, Rng *r) {
    static _Thread_local int ones[GA_BITS];
    int n1 = 0, flips[GA_BITS], nf = 0;
    for (int i = 0; i < GA_BITS; i++) {
        if (genome_get(g, i)) ones[n1++] = i;
        else if (rng_unit(r) < rate) flips[nf++] = i;
    }
    for (int i = 0; i < nf && n1 > 0; i++) {  /* each 0->1 pairs with one 1->0 */
        int j = (int)rng_below(r, (uint32_t)n1);
        genome_set(g, ones[j], 0);
        ones[j] = ones[--n1];
        genome_set(g, flips[i], 1);
    }
}

int ga_tournament(const double *fitness, int n, int size, Rng *r) {
    int best = (int)rng_below(r, (uint32_t)n);
    for (int i = 1; i < size; i++) {
        int c = (int)rng_below(r, (uint32_t)n);
        if (fitness[c] > fitness[best]) best = c;
    }
    return best;
}
