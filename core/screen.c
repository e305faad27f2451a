/* screen.c - legality, checks, mate-in-1, mate-in-3 and points for one board
 * (see screen.h).  Compiled by gcc for the CPU reference and by the OpenCL
 * compiler inside kernels/screen.cl: same code, same answers. */
#include "screen.h"

static TG_CONST uint8_t SC_SET_COUNT[HAND_TYPE_NB] = {SET_COUNT_LIST};

/* Bytes 8i..8i+7 of p as one little-endian word (gcc turns this into one load). */
TG_INLINE uint64_t sc_load8(const uint8_t *p, int i) {
    p += 8 * i;
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}
/* Bit k set iff byte k of x is not zero. */
TG_INLINE uint64_t sc_nonzero_mask(uint64_t x) {
    uint64_t t = (((x & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | x) & 0x8080808080808080ull;
    uint64_t m = t >> 7;  /* bits 8k -> bit k by folding (pocl 3.1 miscompiles the multiply trick) */
    m |= m >> 7;
    m |= m >> 14;
    m |= m >> 28;
    return m & 0xFF;
}

/* attackers_to(pos, c, sq, occ) computed with the slider rays looked at only
 * where a slider of c stands on an open-board line through sq (same result). */
static Bitboard sc_attackers(const Position *pos, int c, int sq, Bitboard occ) {
    int them = c ^ 1;
    Bitboard mine = pos->by_color[c];
    Bitboard a = step_attackers(pos, c, sq);
    Bitboard rooks = bb_and(bb_or(pos->by_type[ROOK], pos->by_type[DRAGON]), mine);
    Bitboard bishops = bb_and(bb_or(pos->by_type[BISHOP], pos->by_type[HORSE]), mine);
    Bitboard lances = bb_and(pos->by_type[LANCE], mine);
    for (int d = 0; d < DIR_NB; d++) {
        Bitboard sl = d < DIR_NR ? rooks : bishops;
        if (d == (them == BLACK ? DIR_N : DIR_S)) sl = bb_or(sl, lances);
        if (bb_any(bb_and(sl, RAY[d][sq]))) a = bb_or(a, bb_and(ray_attack(d, sq, occ), sl));
    }
    return a;
}

/* ---- legality ---------------------------------------------------------- */

/* pos_put without the Zobrist key: the screen never reads keys (see sc_do), and
 * on a GPU the key table is one more lookup per piece at a per-item address. */
TG_INLINE void sc_put(Position *pos, int sq, int pc) {
    Bitboard b = bb_sq(sq);
    int c = piece_color(pc), pt = piece_type(pc);
    pos->board[sq] = (uint8_t)pc;
    pos->by_color[c] = bb_or(pos->by_color[c], b);
    pos->by_type[pt] = bb_or(pos->by_type[pt], b);
    pos->occupied = bb_or(pos->occupied, b);
    if (pt == KING) pos->king_sq[c] = (uint8_t)sq;
}

/* sc_setup without the keys (board_key and hand_key stay 0). */
static int sc_setup_board(const ScBoard *b, Position *pos, int strict_hands) {
    int kings[2] = {0, 0}, total[8];
    pos_clear(pos);
    /* find the pieces eight squares at a time, without a branch per square */
    uint64_t lo = 0, hi = 0;
    for (int i = 0; i < 8; i++) lo |= sc_nonzero_mask(sc_load8(b->board, i)) << (8 * i);
    hi = sc_nonzero_mask(sc_load8(b->board, 8)) | sc_nonzero_mask(sc_load8(b->board, 9)) << 8 |
         (uint64_t)(b->board[80] != 0) << 16;
    Bitboard pieces = bb_make(lo & 0x7FFFFFFFFFFFFFFFull, (lo >> 63) | (hi << 1));
    while (bb_any(pieces)) {
        int sq = bb_pop(&pieces), pc = b->board[sq];
        int pt = piece_type(pc), c = piece_color(pc);
        if (pt < PAWN || pt >= PIECE_TYPE_NB || c > 1) return SC_BAD_CODE;
        if (pt == KING && ++kings[c] > 1) return SC_TWO_KINGS;
        sc_put(pos, sq, pc);
    }
    pos->side = (uint8_t)(b->side & 1);
    int us = pos->side, them = us ^ 1;
    for (int c = 0; c < 2; c++)
        for (int pt = PAWN; pt <= GOLD; pt++) {
            pos->hand[c][pt] = b->hand[c][pt - 1];
            if (pos->hand[c][pt] > SC_SET_COUNT[pt]) return SC_TOO_MANY;
        }
    total[0] = 0;
    for (int pt = PAWN; pt <= GOLD; pt++)
        total[pt] = bb_count(pt == GOLD ? pos->by_type[GOLD] : bb_or(pos->by_type[pt], pos->by_type[pt + PROMOTE]));
    if (!strict_hands)  /* hand convention: the defender holds every remaining piece */
        for (int pt = PAWN; pt <= GOLD; pt++) {
            int rest = SC_SET_COUNT[pt] - total[pt] - pos->hand[us][pt];
            pos->hand[them][pt] = (uint8_t)(rest > 0 ? rest : 0);
        }
    for (int pt = PAWN; pt <= GOLD; pt++)
        if (total[pt] + pos->hand[0][pt] + pos->hand[1][pt] > SC_SET_COUNT[pt]) return SC_TOO_MANY;
    if (pos->king_sq[them] == SQ_NONE) return SC_NO_DEFENDER_KING;
    for (int c = 0; c < 2; c++) {
        Bitboard last = bb_ranks(c, 0, 0), last2 = bb_ranks(c, 0, 1);
        Bitboard pl = bb_or(pieces_ct(pos, c, PAWN), pieces_ct(pos, c, LANCE));
        if (bb_any(bb_and(pl, last)) || bb_any(bb_and(pieces_ct(pos, c, KNIGHT), last2))) return SC_DEAD_PIECE;
    }
    for (int c = 0; c < 2; c++) {
        Bitboard pawns = pieces_ct(pos, c, PAWN);
        int files = 0;
        while (bb_any(pawns)) {
            int f = sq_file(bb_pop(&pawns));
            if (files & (1 << f)) return SC_NIFU;
            files |= 1 << f;
        }
    }
    if (is_attacked(pos, us, pos->king_sq[them], pos->occupied)) return SC_DEFENDER_IN_CHECK;
    return SC_OK;
}

int sc_setup(const ScBoard *b, Position *pos, int strict_hands) {
    int r = sc_setup_board(b, pos, strict_hands);
    if (r == SC_OK) pos_compute_keys(pos, &pos->board_key, &pos->hand_key);
    return r;
}

/* ---- move helpers (the same rules as core/movegen.c) -------------------- */

TG_INLINE int sc_must_promote(int c, int pt, int to) {
    int r = rel_rank(c, to);
    return ((pt == PAWN || pt == LANCE) && r == 0) || (pt == KNIGHT && r <= 1);
}

/* Promotion first, then non-promotion (as movegen.c's board_move_variants). */
TG_INLINE int sc_variants(int us, int pt, int from, int to, Move *v0, Move *v1) {
    if (can_promote_type(pt) && (in_zone(us, from) || in_zone(us, to))) {
        *v0 = make_move(from, to, 1);
        if (sc_must_promote(us, pt, to)) return 1;
        *v1 = make_move(from, to, 0);
        return 2;
    }
    *v0 = make_move(from, to, 0);
    return 1;
}

/* ---- lean do/undo: like pos_do_move/pos_undo_move without the Zobrist keys,
 * which the screen never reads (they stay those of the root position) ---- */

/* Toggles piece pc (colour c, type pt) on the squares of b (one square, or two
 * for a move of the same piece), keeping the bitboards in step. */
TG_INLINE void sc_toggle(Position *pos, int c, int pt, Bitboard b) {
    pos->by_color[c] = bb_xor(pos->by_color[c], b);
    pos->by_type[pt] = bb_xor(pos->by_type[pt], b);
}

/* Returns the captured piece code (0 if none) for sc_undo. */
static int sc_do(Position *pos, Move m) {
    int us = pos->side, to = move_to(m), cap = 0;
    Bitboard bto = bb_sq(to);
    if (move_is_drop(m)) {
        int pt = move_drop_type(m);
        pos->hand[us][pt]--;
        pos->board[to] = (uint8_t)make_piece(us, pt);
        sc_toggle(pos, us, pt, bto);
        pos->occupied = bb_xor(pos->occupied, bto);
    } else {
        int from = move_from(m), pc = pos->board[from], pt = piece_type(pc);
        int npt = move_is_promo(m) ? pt + PROMOTE : pt;
        Bitboard bfrom = bb_sq(from);
        cap = pos->board[to];
        if (cap) {
            sc_toggle(pos, us ^ 1, piece_type(cap), bto);
            pos->hand[us][raw_type(piece_type(cap))]++;
            pos->occupied = bb_xor(pos->occupied, bto);
        }
        pos->board[from] = 0;
        pos->board[to] = (uint8_t)(pc + npt - pt);
        pos->by_color[us] = bb_xor(pos->by_color[us], bb_or(bfrom, bto));
        pos->by_type[pt] = bb_xor(pos->by_type[pt], bfrom);
        pos->by_type[npt] = bb_xor(pos->by_type[npt], bto);
        pos->occupied = bb_xor(pos->occupied, bb_or(bfrom, bto));
        if (pt == KING) pos->king_sq[us] = (uint8_t)to;
    }
    pos->side = (uint8_t)(us ^ 1);
    return cap;
}

static void sc_undo(Position *pos, Move m, int cap) {
    int us = pos->side ^ 1, to = move_to(m);
    Bitboard bto = bb_sq(to);
    pos->side = (uint8_t)us;
    if (move_is_drop(m)) {
        int pt = move_drop_type(m);
        pos->hand[us][pt]++;
        pos->board[to] = 0;
        sc_toggle(pos, us, pt, bto);
        pos->occupied = bb_xor(pos->occupied, bto);
    } else {
        int from = move_from(m), npc = pos->board[to], npt = piece_type(npc);
        int pt = move_is_promo(m) ? npt - PROMOTE : npt;
        Bitboard bfrom = bb_sq(from);
        pos->board[from] = (uint8_t)(npc + pt - npt);
        pos->board[to] = (uint8_t)cap;
        pos->by_color[us] = bb_xor(pos->by_color[us], bb_or(bfrom, bto));
        pos->by_type[pt] = bb_xor(pos->by_type[pt], bfrom);
        pos->by_type[npt] = bb_xor(pos->by_type[npt], bto);
        pos->occupied = bb_xor(pos->occupied, bb_or(bfrom, bto));
        if (pt == KING) pos->king_sq[us] = (uint8_t)from;
        if (cap) {
            sc_toggle(pos, us ^ 1, piece_type(cap), bto);
            pos->hand[us][raw_type(piece_type(cap))]--;
            pos->occupied = bb_xor(pos->occupied, bto);
        }
    }
}

/* ---- checks ------------------------------------------------------------ */

void sc_checks_init(const Position *pos, const CheckInfo *ci, ScCheckIter *it) {
    it->att = bb_empty();
    it->drop_t = bb_empty();
    it->from = 0;
    it->pt = 0;
    it->pend = MOVE_NONE;
    if (ci->ksq_them == SQ_NONE) {
        it->ours = bb_empty();
        it->drop_pt = GOLD;
    } else {
        it->ours = pos->by_color[pos->side];
        it->drop_pt = 0;
    }
}

Move sc_checks_next(const Position *pos, const CheckInfo *ci, ScCheckIter *it) {
    int us = pos->side;
    for (;;) {
        if (it->pend) {
            Move m = it->pend;
            it->pend = MOVE_NONE;
            if (move_gives_check(pos, ci, m) && move_is_legal(pos, ci, m)) return m;
            continue;
        }
        if (bb_any(it->att)) {
            int to = bb_pop(&it->att);
            Move v0, v1 = MOVE_NONE;
            if (sc_variants(us, it->pt, it->from, to, &v0, &v1) == 2) it->pend = v1;
            if (move_gives_check(pos, ci, v0) && move_is_legal(pos, ci, v0)) return v0;
            continue;
        }
        if (bb_any(it->ours)) {
            int from = bb_pop(&it->ours), pt = piece_type(pos->board[from]);
            Bitboard att = bb_andnot(piece_attack(us, pt, from, pos->occupied), pos->by_color[us]);
            if (!bb_test(ci->discover, from)) {
                Bitboard direct = ci->check_sq[pt];
                if (can_promote_type(pt)) direct = bb_or(direct, ci->check_sq[pt + PROMOTE]);
                att = bb_and(att, direct);
            }
            it->from = from;
            it->pt = pt;
            it->att = att;
            continue;
        }
        if (bb_any(it->drop_t)) {
            int to = bb_pop(&it->drop_t);
            Move m = make_drop(it->drop_pt, to);
            if (it->drop_pt == PAWN && is_pawn_drop_mate(pos, to)) continue;
            if (move_is_legal(pos, ci, m)) return m;
            continue;
        }
        if (it->drop_pt >= GOLD) return MOVE_NONE;
        it->drop_pt++;
        if (pos->hand[us][it->drop_pt]) {
            Bitboard empty = bb_andnot(bb_all(), pos->occupied);
            it->drop_t = drop_targets(pos, it->drop_pt, bb_and(empty, ci->check_sq[it->drop_pt]));
        }
    }
}

/* ---- evasions ---------------------------------------------------------- */

int sc_evasion_kind(const Position *pos) {
    int us = pos->side, them = us ^ 1, ksq = pos->king_sq[us];
    if (ksq == SQ_NONE) return 0;
    /* king moves first: the cheapest and most frequent escape (the caller
     * guarantees the check, so the checkers are needed only after them) */
    Bitboard occk = bb_xor(pos->occupied, bb_sq(ksq));
    Bitboard k = bb_andnot(KING_ATK[ksq], pos->by_color[us]);
    while (bb_any(k))
        if (!is_attacked(pos, them, bb_pop(&k), occk)) return 1;
    Bitboard checkers = sc_attackers(pos, them, ksq, pos->occupied);
    if (!bb_any(checkers) || bb_more_than_one(checkers)) return 0;
    int c = bb_lsb(checkers);
    Bitboard between = between_bb(ksq, c);
    /* captures of the checker and interpositions by board pieces (not the king) */
    Bitboard targets = bb_or(between, checkers), notking = bb_andnot(pos->by_color[us], bb_sq(ksq));
    Bitboard pinned = bb_empty();
    int pinned_known = 0;
    while (bb_any(targets)) {
        int to = bb_pop(&targets);
        Bitboard cand = bb_and(sc_attackers(pos, us, to, pos->occupied), notking);
        if (!bb_any(cand)) continue;
        if (!pinned_known) {
            pinned = bb_and(slider_blockers(pos, them, ksq), pos->by_color[us]);
            pinned_known = 1;
        }
        while (bb_any(cand)) {
            int from = bb_pop(&cand);
            if (!bb_test(pinned, from) || aligned(ksq, from, to)) return 1;
        }
    }
    if (!bb_any(between)) return 0;
    int eksq = pos->king_sq[them];
    for (int pt = PAWN; pt <= GOLD; pt++) {
        if (!pos->hand[us][pt]) continue;
        Bitboard t = drop_targets(pos, pt, between);
        if (pt != PAWN || eksq == SQ_NONE) {
            if (bb_any(t)) return 2;
            continue;
        }
        while (bb_any(t)) {
            int to = bb_pop(&t);
            if (!(bb_test(PAWN_ATK[us][to], eksq) && is_pawn_drop_mate(pos, to))) return 2;
        }
    }
    return 0;
}

int sc_has_evasion(const Position *pos) { return sc_evasion_kind(pos) != 0; }

void sc_evasions_init(const Position *pos, ScEvIter *it) {
    int us = pos->side, them = us ^ 1, ksq = pos->king_sq[us];
    Bitboard e = bb_empty();
    it->kmoves = e; it->targets = e; it->cand = e; it->between = e; it->drop_t = e; it->pinned = e;
    it->ksq = ksq;
    it->to = 0;
    it->drop_pt = GOLD;
    it->pend = MOVE_NONE;
    if (ksq == SQ_NONE) return;
    Bitboard checkers = sc_attackers(pos, them, ksq, pos->occupied);
    if (!bb_any(checkers)) return;
    it->kmoves = bb_andnot(KING_ATK[ksq], pos->by_color[us]);
    if (bb_more_than_one(checkers)) return;
    it->between = between_bb(ksq, bb_lsb(checkers));
    it->targets = bb_or(it->between, checkers);
    it->pinned = bb_and(slider_blockers(pos, them, ksq), pos->by_color[us]);
    it->drop_pt = 0;
}

Move sc_evasions_next(const Position *pos, ScEvIter *it) {
    int us = pos->side, them = us ^ 1, ksq = it->ksq;
    for (;;) {
        if (it->pend) {
            Move m = it->pend;
            it->pend = MOVE_NONE;
            return m;
        }
        if (bb_any(it->kmoves)) {
            int to = bb_pop(&it->kmoves);
            Bitboard occk = bb_xor(pos->occupied, bb_sq(ksq));
            if (!is_attacked(pos, them, to, occk)) return make_move(ksq, to, 0);
            continue;
        }
        if (bb_any(it->cand)) {
            int from = bb_pop(&it->cand), to = it->to;
            if (bb_test(it->pinned, from) && !aligned(ksq, from, to)) continue;
            Move v0, v1 = MOVE_NONE;
            if (sc_variants(us, piece_type(pos->board[from]), from, to, &v0, &v1) == 2) it->pend = v1;
            return v0;
        }
        if (bb_any(it->targets)) {
            it->to = bb_pop(&it->targets);
            it->cand = bb_andnot(sc_attackers(pos, us, it->to, pos->occupied), bb_sq(ksq));
            continue;
        }
        if (bb_any(it->drop_t)) {
            int to = bb_pop(&it->drop_t), eksq = pos->king_sq[them];
            if (it->drop_pt == PAWN && eksq != SQ_NONE && bb_test(PAWN_ATK[us][to], eksq) && is_pawn_drop_mate(pos, to))
                continue;
            return make_drop(it->drop_pt, to);
        }
        if (it->drop_pt >= GOLD) return MOVE_NONE;
        it->drop_pt++;
        if (pos->hand[us][it->drop_pt]) it->drop_t = drop_targets(pos, it->drop_pt, it->between);
    }
}

/* ---- quick non-mate test ---------------------------------------------------
 * Escape squares of the opponent's king that the side to move does not attack
 * now.  Such a square stays free after a check unless the check lands on it,
 * the moved piece attacks it, or the move vacates a square on a line through it
 * (a slider may be uncovered); adding a piece elsewhere only blocks lines.  So
 * when some free square is untouched in that sense the king can step there and
 * the check is not mate: no need to make the move. */

static Bitboard sc_free_escapes(const Position *pos) {
    int us = pos->side, k = pos->king_sq[us ^ 1];
    Bitboard free = bb_empty();
    if (k == SQ_NONE) return free;
    Bitboard occk = bb_xor(pos->occupied, bb_sq(k));
    Bitboard cand = bb_andnot(KING_ATK[k], pos->by_color[us ^ 1]);
    while (bb_any(cand)) {
        int e = bb_pop(&cand);
        if (!is_attacked(pos, us, e, occk)) free = bb_or(free, bb_sq(e));
    }
    return free;
}

static int sc_escape_survives(const Position *pos, Move m, Bitboard free) {
    if (!bb_any(free)) return 0;
    int us = pos->side, to = move_to(m), k = pos->king_sq[us ^ 1], npt;
    Bitboard f = bb_andnot(free, bb_sq(to)), occ = bb_or(pos->occupied, bb_sq(to));
    if (move_is_drop(m)) {
        npt = move_drop_type(m);
    } else {
        int from = move_from(m), pt = piece_type(pos->board[from]);
        npt = move_is_promo(m) ? pt + PROMOTE : pt;
        occ = bb_xor(occ, bb_sq(from));
        for (int d = 0; d < DIR_NB; d++) f = bb_andnot(f, RAY[d][from]);
    }
    if (!bb_any(f)) return 0;
    f = bb_andnot(f, piece_attack(us, npt, to, bb_xor(occ, bb_sq(k))));
    return bb_any(f);
}

/* ---- mates ------------------------------------------------------------- */

int sc_has_mate1(Position *pos) {
    CheckInfo ci;
    ScCheckIter it;
    Move m;
    checkinfo_init(pos, &ci);
    sc_checks_init(pos, &ci, &it);
    Bitboard free = sc_free_escapes(pos);
    while ((m = sc_checks_next(pos, &ci, &it)) != MOVE_NONE) {
        if (sc_escape_survives(pos, m, free)) continue;
        int cap = sc_do(pos, m);
        int mate = !sc_has_evasion(pos);
        sc_undo(pos, m, cap);
        if (mate) return 1;
    }
    return 0;
}

int sc_mate3(Position *pos) {
    CheckInfo ci;
    ScCheckIter it;
    Move m;
    checkinfo_init(pos, &ci);
    sc_checks_init(pos, &ci, &it);
    while ((m = sc_checks_next(pos, &ci, &it)) != MOVE_NONE) {
        ScEvIter ev;
        Move e;
        int all = 1;
        int cap = sc_do(pos, m);
        sc_evasions_init(pos, &ev);
        while ((e = sc_evasions_next(pos, &ev)) != MOVE_NONE) {
            int cap2 = sc_do(pos, e);
            int mated = sc_has_mate1(pos);
            sc_undo(pos, e, cap2);
            if (!mated) { all = 0; break; }
        }
        sc_undo(pos, m, cap);
        if (all) return 1;  /* no evasion at all is a mate-in-1 */
    }
    return 0;
}

/* The futility test.  OpenCL C has no recursion, so the levels are separate
 * functions made by one macro: level L accepts, after the capture of a dropped
 * piece, a plain-rule mate or a position where the defender again has only drops
 * and level L-1 finds them all futile; level 1 accepts a plain-rule mate only.
 * Seven levels cover the longest line (seven squares between king and slider).
 * A shared budget of capture tries bounds the work; when it runs out the answer
 * is "not futile" (never a false mate). */
#define SC_FUTILE_BUDGET 1024
#define SC_FUTILE_FN(NAME, DEEPER)                                                                    \
static int NAME(Position *pos, int *budget) {                                                        \
    int us = pos->side, them = us ^ 1, ksq = pos->king_sq[us], eksq = pos->king_sq[them];           \
    if (ksq == SQ_NONE) return 0;                                                                     \
    Bitboard checkers = sc_attackers(pos, them, ksq, pos->occupied);                                  \
    if (!bb_any(checkers) || bb_more_than_one(checkers)) return 0;                                    \
    Bitboard between = between_bb(ksq, bb_lsb(checkers));                                            \
    int any = 0;                                                                                      \
    for (int pt = PAWN; pt <= GOLD; pt++) {                                                           \
        if (!pos->hand[us][pt]) continue;                                                             \
        Bitboard t = drop_targets(pos, pt, between);                                               \
        while (bb_any(t)) {                                                                           \
            int to = bb_pop(&t);                                                                      \
            if (pt == PAWN && eksq != SQ_NONE && bb_test(PAWN_ATK[us][to], eksq) && is_pawn_drop_mate(pos, to)) \
                continue;                                                                             \
            Move d = make_drop(pt, to);                                                               \
            int cap = sc_do(pos, d), futile = 0;                                                      \
            CheckInfo ci;                                                                             \
            ScCheckIter it;                                                                           \
            Move m;                                                                                   \
            checkinfo_init(pos, &ci);                                                                 \
            sc_checks_init(pos, &ci, &it);                                                            \
            while (!futile && (m = sc_checks_next(pos, &ci, &it)) != MOVE_NONE) {                     \
                if (move_is_drop(m) || move_to(m) != to) continue; /* captures of the dropped piece */ \
                if (--*budget < 0) break;                                                             \
                int cap2 = sc_do(pos, m);                                                             \
                int kind = sc_evasion_kind(pos);                                                      \
                futile = kind == 0 || (kind == 2 && DEEPER);                                          \
                sc_undo(pos, m, cap2);                                                                \
            }                                                                                         \
            sc_undo(pos, d, cap);                                                                     \
            if (!futile) return 0;                                                                    \
            any = 1;                                                                                  \
        }                                                                                             \
    }                                                                                                 \
    return any;                                                                                       \
}

SC_FUTILE_FN(sc_futile_l1, 0)
SC_FUTILE_FN(sc_futile_l2, sc_futile_l1(pos, budget))
SC_FUTILE_FN(sc_futile_l3, sc_futile_l2(pos, budget))
SC_FUTILE_FN(sc_futile_l4, sc_futile_l3(pos, budget))
SC_FUTILE_FN(sc_futile_l5, sc_futile_l4(pos, budget))
SC_FUTILE_FN(sc_futile_l6, sc_futile_l5(pos, budget))
SC_FUTILE_FN(sc_futile_l7, sc_futile_l6(pos, budget))

int sc_futile_mate(Position *pos) {
    int budget = SC_FUTILE_BUDGET;
    return sc_futile_l7(pos, &budget);
}

/* ---- points ------------------------------------------------------------ */

int32_t sc_points(const Position *pos, TG_GLOBAL const int32_t *w) {
    int att = pos->side, def = att ^ 1;
    int ksq = pos->king_sq[def];
    int rot = att == WHITE;  /* canonical: the attacker plays toward rank a */
    int k = rot ? 80 - ksq : ksq;
    int kf = sq_file(k), kr = sq_rank(k);
    /* every square but the king's counted as empty, then corrected for the pieces */
    int32_t s = w[SC_W_BIAS] + w[SC_W_KING + k] + w[SC_W_EMPTYSUM + k];
    Bitboard occ = bb_xor(pos->occupied, bb_sq(ksq));
    while (bb_any(occ)) {
        int sq = bb_pop(&occ), pc = pos->board[sq];
        int cs = rot ? 80 - sq : sq;
        int off = sc_off_index(sq_file(cs) - kf, sq_rank(cs) - kr);
        int owner = piece_color(pc) == att ? 0 : 1;
        s += w[SC_W_PIECE + (owner * 14 + piece_type(pc) - 1) * SC_OFF_NB + off] - w[SC_W_EMPTY + off];
    }
    for (int pt = PAWN; pt <= GOLD; pt++)
        s += w[SC_W_HAND + pt - 1] * pos->hand[att][pt] + w[SC_W_HAND + 7 + pt - 1] * pos->hand[def][pt];
    return s;
}

void sc_weights_finish(int32_t *w) {
    for (int k = 0; k < SQ_NB; k++) {
        int32_t e = 0;
        for (int sq = 0; sq < SQ_NB; sq++)
            if (sq != k) e += w[SC_W_EMPTY + sc_off_index(sq_file(sq) - sq_file(k), sq_rank(sq) - sq_rank(k))];
        w[SC_W_EMPTYSUM + k] = e;
    }
}

/* ---- everything -------------------------------------------------------- */

void sc_result_init(ScResult *r, int flags) {
    r->reason = 0; r->mate3 = 0; r->flags = 0;
    r->checks = 0; r->n_mate1 = 0; r->points = 0; r->n_futile = 0;
    for (int i = 0; i < SC_MATE1_SLOTS; i++) r->mate1[i] = 0;
    for (int i = 0; i < SC_FUTILE_SLOTS; i++) r->futile[i] = 0;
    /* what was asked for is flagged even for an illegal board (mate3 = 0 then) */
    r->flags = (uint8_t)(((flags & SC_DO_MATE3) ? SC_FLAG_MATE3 : 0) | ((flags & SC_DO_FUTILE) ? SC_FLAG_FUTILE : 0));
}

int sc_screen_setup(const ScBoard *b, Position *pos, ScResult *r, int flags) {
    sc_result_init(r, flags);
    r->reason = (uint8_t)sc_setup_board(b, pos, flags & SC_STRICT_HANDS);
    return r->reason;
}

/* ---- the mate-in-1 scan in stages --------------------------------------
 * sc_screen_legal's loop, cut where a GPU splits it into kernels: the scan
 * (every check counted, the few the king cannot simply step away from handed
 * out for the mate test) and the test itself, one move at a time. */

void sc_scan_init(const Position *pos, ScScan *s) {
    checkinfo_init(pos, &s->ci);
    sc_checks_init(pos, &s->ci, &s->it);
    s->free = sc_free_escapes(pos);
    s->checks = 0;
}

Move sc_scan_next(const Position *pos, ScScan *s) {
    Move m;
    while ((m = sc_checks_next(pos, &s->ci, &s->it)) != MOVE_NONE) {
        s->checks++;
        if (!sc_escape_survives(pos, m, s->free)) return m;  /* else the king steps away: not mate */
    }
    return MOVE_NONE;
}

int sc_reply_kind(Position *pos, Move m) {
    int cap = sc_do(pos, m);
    int kind = sc_evasion_kind(pos);
    sc_undo(pos, m, cap);
    return kind;
}

void sc_result_mate(ScResult *r, Move m) {
    if (r->n_mate1 < SC_MATE1_SLOTS) r->mate1[r->n_mate1] = (uint16_t)m;
    r->n_mate1++;
}

void sc_screen_legal(Position *pos, ScResult *r, TG_GLOBAL const int32_t *w, int flags) {
    ScScan s;
    Move m;
    int nf = 0;
    sc_scan_init(pos, &s);
    while ((m = sc_scan_next(pos, &s)) != MOVE_NONE) {
        int cap = sc_do(pos, m);
        int kind = sc_evasion_kind(pos);
        int futile = kind == 2 && (flags & SC_DO_FUTILE) && sc_futile_mate(pos);
        sc_undo(pos, m, cap);
        if (!kind) {
            sc_result_mate(r, m);
        } else if (futile) {
            if (nf < SC_FUTILE_SLOTS) r->futile[nf] = (uint16_t)m;
            nf++;
        }
    }
    r->checks = (uint16_t)s.checks;
    r->n_futile = (uint8_t)(nf > 255 ? 255 : nf);
    if (w) r->points = sc_points(pos, w);
    if (flags & SC_DO_MATE3) {
        r->mate3 = (uint8_t)(r->n_mate1 > 0 || sc_mate3(pos));
    }
}

void sc_screen(const ScBoard *b, ScResult *r, TG_GLOBAL const int32_t *w, int flags) {
    Position pos;
    if (sc_screen_setup(b, &pos, r, flags) == SC_OK) sc_screen_legal(&pos, r, w, flags);
}
