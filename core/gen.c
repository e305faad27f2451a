/* gen.c - counter-based candidate boards and result digests (see gen.h). */
#include "gen.h"

/* splitmix64's output function: a bijective 64-bit mix */
TG_INLINE uint64_t sc_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* The draws of one board: a splitmix64 stream whose outputs are used 16 bits at
 * a time, four draws per mix (the mix's two 64-bit multiplies are most of the
 * generator's cost on a GPU). */
typedef struct {
    uint64_t state, bits;
    int left;
} ScGenRng;

/* A value in [0, n), n <= 256, by multiply-shift on 16 bits (no division on the
 * device; the bias, under n / 65536, does not matter for test boards). */
TG_INLINE int sc_gen_below(ScGenRng *g, int n) {
    if (!g->left) {
        g->state += 0x9E3779B97F4A7C15ull;
        g->bits = sc_mix64(g->state);
        g->left = 4;
    }
    uint32_t r = (uint32_t)(g->bits & 0xFFFFu);
    g->bits >>= 16;
    g->left--;
    return (int)((r * (uint32_t)n) >> 16);
}

/* kinds for board pieces, weighted toward what tsume diagrams hold */
static TG_CONST uint8_t SC_GEN_KINDS[25] = {PAWN, PAWN, PAWN, LANCE, LANCE, KNIGHT, KNIGHT, SILVER, SILVER, SILVER,
                                            GOLD, GOLD, GOLD, BISHOP, BISHOP, ROOK, ROOK, PRO_PAWN, PRO_SILVER,
                                            HORSE, HORSE, DRAGON, DRAGON, PRO_LANCE, PRO_KNIGHT};
static TG_CONST uint8_t SC_GEN_HAND[10] = {PAWN, LANCE, KNIGHT, SILVER, SILVER, GOLD, GOLD, GOLD, BISHOP, ROOK};

void sc_gen_board(uint64_t seed, uint64_t index, ScBoard *b) {
    /* two mixes: neighbouring indices and neighbouring seeds give unrelated streams */
    ScGenRng rng;
    ScGenRng *s = &rng;
    rng.state = sc_mix64(sc_mix64(seed ^ 0x7473756D6567656Eull) + index);
    rng.bits = 0;
    rng.left = 0;
    for (int i = 0; i < 81; i++) b->board[i] = 0;
    for (int i = 0; i < 7; i++) { b->hand[0][i] = 0; b->hand[1][i] = 0; }
    int kf = sc_gen_below(s, 9);
    int kr = sc_gen_below(s, 10) < 8 ? sc_gen_below(s, 3) : sc_gen_below(s, 9);
    b->board[make_sq(kf, kr)] = (uint8_t)make_piece(WHITE, KING);
    int npieces = 1 + sc_gen_below(s, 8);
    for (int p = 0; p < npieces; p++) {
        int sq = -1;
        for (int tries = 0; tries < 20 && (sq < 0 || b->board[sq]); tries++) {
            if (sc_gen_below(s, 4)) {  /* three in four near the king */
                int d = 1 + sc_gen_below(s, 3);
                int f = kf + sc_gen_below(s, 2 * d + 1) - d, r = kr + sc_gen_below(s, 2 * d + 1) - d;
                sq = (f >= 0 && f < 9 && r >= 0 && r < 9) ? make_sq(f, r) : -1;
            } else {
                sq = sc_gen_below(s, 81);
            }
        }
        if (sq < 0 || b->board[sq]) continue;
        int c = sc_gen_below(s, 100) < 55 ? BLACK : WHITE;
        int pt = SC_GEN_KINDS[sc_gen_below(s, 25)];
        if (sc_gen_below(s, 200) == 0) pt = KING;  /* the attacker's king, or a second defender king */
        b->board[sq] = (uint8_t)make_piece(c, pt);
    }
    int nhand = sc_gen_below(s, 6);
    for (int h = 0; h < nhand; h++) b->hand[BLACK][SC_GEN_HAND[sc_gen_below(s, 10)] - 1]++;
    if (sc_gen_below(s, 50) == 0) b->hand[WHITE][sc_gen_below(s, 7)] = (uint8_t)(1 + sc_gen_below(s, 3));
    b->side = BLACK;
    if (sc_gen_below(s, 10) == 0) {  /* rotate 180 degrees and swap colours: White attacks */
        for (int sq = 0; sq < 40; sq++) {
            uint8_t a = b->board[sq], z = b->board[80 - sq];
            b->board[sq] = (uint8_t)(z ? z ^ (1 << 4) : 0);
            b->board[80 - sq] = (uint8_t)(a ? a ^ (1 << 4) : 0);
        }
        if (b->board[40]) b->board[40] ^= (uint8_t)(1 << 4);
        for (int k = 0; k < 7; k++) { uint8_t t = b->hand[0][k]; b->hand[0][k] = b->hand[1][k]; b->hand[1][k] = t; }
        b->side = WHITE;
    }
}

int sc_gen_keep(const ScResult *r, int keep_mode, int32_t min_points) {
    if (r->reason != SC_OK || r->points < min_points) return 0;
    return keep_mode == SC_KEEP_UNIQUE_MATE1 ? r->n_mate1 == 1 : r->checks > 0;
}

uint32_t sc_result_digest(const ScResult *r) {
    /* every field in declaration order, so any differing bit changes the digest
     * with probability 1 - 2^-32 */
    uint64_t h = sc_mix64((uint64_t)r->reason | (uint64_t)r->mate3 << 8 | (uint64_t)r->flags << 16 |
                          (uint64_t)r->n_futile << 24 | (uint64_t)r->checks << 32 | (uint64_t)r->n_mate1 << 48);
    h = sc_mix64(h ^ (uint64_t)(uint32_t)r->points);
    for (int i = 0; i < SC_MATE1_SLOTS; i += 2)
        h = sc_mix64(h ^ ((uint64_t)r->mate1[i] | (uint64_t)r->mate1[i + 1] << 16));
    h = sc_mix64(h ^ ((uint64_t)r->futile[0] | (uint64_t)r->futile[1] << 16 | (uint64_t)r->futile[2] << 32 |
                      (uint64_t)r->futile[3] << 48));
    return (uint32_t)(h ^ (h >> 32));
}
