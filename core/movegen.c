/* movegen.c - legal, checking and evading move generation. */
#include "movegen.h"

/* The part of CheckInfo that legality needs: king squares, checkers, pins. */
static void init_pins(const Position *pos, CheckInfo *ci) {
    int us = pos->side, them = us ^ 1;
    ci->ksq_us = pos->king_sq[us];
    ci->ksq_them = pos->king_sq[them];
    ci->checkers = checkers_of(pos);
    ci->pinned = ci->ksq_us == SQ_NONE ? bb_empty()
                 : bb_and(slider_blockers(pos, them, ci->ksq_us), pos->by_color[us]);
}

void checkinfo_init(const Position *pos, CheckInfo *ci) {
    init_pins(pos, ci);
    checkinfo_init_checks(pos, ci);
}

void checkinfo_init_checks(const Position *pos, CheckInfo *ci) {
    int us = pos->side, them = us ^ 1;
    for (int pt = 0; pt < PIECE_TYPE_NB; pt++) ci->check_sq[pt] = bb_empty();
    ci->discover = bb_empty();
    if (ci->ksq_them == SQ_NONE) return;
    int k = ci->ksq_them;
    Bitboard occ = pos->occupied;
    /* a piece of ours checks from s iff the same piece of theirs on k would attack s */
    Bitboard gold = GOLD_ATK[them][k], bishop = bishop_attack(k, occ), rook = rook_attack(k, occ);
    ci->check_sq[PAWN] = PAWN_ATK[them][k];
    ci->check_sq[LANCE] = lance_attack(them, k, occ);
    ci->check_sq[KNIGHT] = KNIGHT_ATK[them][k];
    ci->check_sq[SILVER] = SILVER_ATK[them][k];
    ci->check_sq[BISHOP] = bishop;
    ci->check_sq[ROOK] = rook;
    ci->check_sq[GOLD] = gold;
    ci->check_sq[PRO_PAWN] = gold;
    ci->check_sq[PRO_LANCE] = gold;
    ci->check_sq[PRO_KNIGHT] = gold;
    ci->check_sq[PRO_SILVER] = gold;
    ci->check_sq[HORSE] = bb_or(bishop, KING_ATK[k]);
    ci->check_sq[DRAGON] = bb_or(rook, KING_ATK[k]);
    ci->discover = bb_and(slider_blockers(pos, us, k), pos->by_color[us]);
}

int move_is_legal(const Position *pos, const CheckInfo *ci, Move m) {
    int ksq = ci->ksq_us, to = move_to(m);
    if (ksq == SQ_NONE) return 1;
    if (move_is_drop(m)) {
        if (!bb_any(ci->checkers)) return 1;
        if (bb_more_than_one(ci->checkers)) return 0;
        return bb_test(between_bb(ksq, bb_lsb(ci->checkers)), to);
    }
    int from = move_from(m);
    if (from == ksq) {
        return !is_attacked(pos, pos->side ^ 1, to, bb_xor(pos->occupied, bb_sq(ksq)));
    }
    if (bb_any(ci->checkers)) {
        if (bb_more_than_one(ci->checkers)) return 0;
        int c = bb_lsb(ci->checkers);
        if (to != c && !bb_test(between_bb(ksq, c), to)) return 0;
    }
    if (bb_test(ci->pinned, from)) return aligned(ksq, from, to);
    return 1;
}

int move_gives_check(const Position *pos, const CheckInfo *ci, Move m) {
    int to = move_to(m);
    if (ci->ksq_them == SQ_NONE) return 0;
    if (move_is_drop(m)) return bb_test(ci->check_sq[move_drop_type(m)], to);
    int from = move_from(m), pt = piece_type(pos->board[from]);
    if (move_is_promo(m)) pt += PROMOTE;
    /* Direct check.  check_sq uses the current occupancy; that is exact because a
     * slider whose own square blocked the line to the king would already give check. */
    if (bb_test(ci->check_sq[pt], to)) return 1;
    return bb_test(ci->discover, from) && !aligned(ci->ksq_them, from, to);
}

int is_pawn_drop_mate(const Position *pos, int to) {
    int us = pos->side, them = us ^ 1, ksq = pos->king_sq[them];
    Bitboard occ = bb_or(pos->occupied, bb_sq(to));
    /* capture of the pawn by a piece other than the king */
    Bitboard cap = bb_andnot(attackers_to(pos, them, to, occ), pos->by_type[KING]);
    if (bb_any(cap)) {
        Bitboard pinned = bb_and(slider_blockers(pos, us, ksq), pos->by_color[them]);
        while (bb_any(cap)) {
            int s = bb_pop(&cap);
            if (!bb_test(pinned, s) || aligned(ksq, s, to)) return 0;
        }
    }
    /* king moves, the pawn itself included (it is defended or not) */
    Bitboard esc = bb_andnot(KING_ATK[ksq], pos->by_color[them]);
    Bitboard occk = bb_xor(occ, bb_sq(ksq));
    while (bb_any(esc)) {
        int e = bb_pop(&esc);
        if (!is_attacked(pos, us, e, occk)) return 0;
    }
    return 1;
}

TG_INLINE int must_promote(int c, int pt, int to) {
    int r = rel_rank(c, to);
    return ((pt == PAWN || pt == LANCE) && r == 0) || (pt == KNIGHT && r <= 1);
}

/* The promotion and/or non-promotion of a board move; returns how many (1 or 2). */
TG_INLINE int board_move_variants(int us, int pt, int from, int to, Move out[2]) {
    if (can_promote_type(pt) && (in_zone(us, from) || in_zone(us, to))) {
        out[0] = make_move(from, to, 1);
        if (must_promote(us, pt, to)) return 1;
        out[1] = make_move(from, to, 0);
        return 2;
    }
    out[0] = make_move(from, to, 0);
    return 1;
}

TG_INLINE void add_board_move(MoveList *l, int us, int pt, int from, int to) {
    Move v[2];
    int n = board_move_variants(us, pt, from, to, v);
    for (int i = 0; i < n; i++) l->moves[l->count++] = v[i];
}

/* Board moves of `pieces` (none of them the king) to target. */
static void gen_piece_moves(const Position *pos, MoveList *l, Bitboard pieces, Bitboard target) {
    int us = pos->side;
    while (bb_any(pieces)) {
        int from = bb_pop(&pieces), pt = piece_type(pos->board[from]);
        Bitboard att = bb_and(piece_attack(us, pt, from, pos->occupied), target);
        while (bb_any(att)) add_board_move(l, us, pt, from, bb_pop(&att));
    }
}

/* The whole line through a and b (both on it); they must be aligned. */
TG_INLINE Bitboard line_bb(int a, int b) {
    int d = DIRECTION[a][b];
    return bb_or(bb_or(RAY[d][a], RAY[d ^ 1][a]), bb_sq(a));
}

/* Squares of `target` where colour us may drop a piece of type pt. */
Bitboard drop_targets(const Position *pos, int pt, Bitboard target) {
    int us = pos->side;
    if (pt == PAWN) {
        target = bb_andnot(target, bb_ranks(us, 0, 0));
        Bitboard pawns = pieces_ct(pos, us, PAWN);
        while (bb_any(pawns)) target = bb_andnot(target, bb_file(sq_file(bb_pop(&pawns))));
    } else if (pt == LANCE) {
        target = bb_andnot(target, bb_ranks(us, 0, 0));
    } else if (pt == KNIGHT) {
        target = bb_andnot(target, bb_ranks(us, 0, 1));
    }
    return target;
}

/* The square where a pawn of `us` would check the king on ksq, or -1. */
TG_INLINE int pawn_check_square(int us, int ksq) {
    if (ksq == SQ_NONE) return -1;
    int r = sq_rank(ksq);
    if (us == BLACK) return r < 8 ? ksq + 1 : -1;
    return r > 0 ? ksq - 1 : -1;
}

/* Drops onto the empty squares of target, pawn-drop mate excluded. */
static void gen_drops(const Position *pos, MoveList *l, Bitboard target) {
    int us = pos->side, pcs = pawn_check_square(us, pos->king_sq[us ^ 1]);
    for (int pt = PAWN; pt <= GOLD; pt++) {
        if (!pos->hand[us][pt]) continue;
        Bitboard t = drop_targets(pos, pt, target);
        while (bb_any(t)) {
            int to = bb_pop(&t);
            if (pt == PAWN && to == pcs && is_pawn_drop_mate(pos, to)) continue;
            l->moves[l->count++] = make_drop(pt, to);
        }
    }
}

/* Squares the side to move's king on ksq can step to without being attacked (the
 * king itself removed from the occupancy so it cannot hide behind its own
 * square): is_attacked's test, with the enemy's piece sets formed once for all
 * (up to) eight squares instead of once a square. */
static Bitboard king_escapes(const Position *pos, int ksq) {
    int us = pos->side;
    Bitboard theirs = pos->by_color[us ^ 1], occk = bb_xor(pos->occupied, bb_sq(ksq));
    Bitboard hdk = bb_or(bb_or(pos->by_type[KING], pos->by_type[HORSE]), pos->by_type[DRAGON]);
    Bitboard pawns = bb_and(pos->by_type[PAWN], theirs), knights = bb_and(pos->by_type[KNIGHT], theirs);
    Bitboard silvers = bb_and(bb_or(pos->by_type[SILVER], hdk), theirs);
    Bitboard golds = bb_and(bb_or(golds_bb(pos), hdk), theirs);
    Bitboard rooks = bb_and(bb_or(pos->by_type[ROOK], pos->by_type[DRAGON]), theirs);
    Bitboard bishops = bb_and(bb_or(pos->by_type[BISHOP], pos->by_type[HORSE]), theirs);
    Bitboard lances = bb_and(pos->by_type[LANCE], theirs);
    Bitboard k = bb_andnot(KING_ATK[ksq], pos->by_color[us]), safe = bb_empty();
    while (bb_any(k)) {
        int to = bb_pop(&k);
        /* an enemy step piece attacks `to` iff ours of that kind on `to` would attack it */
        Bitboard step = bb_or(bb_or(bb_and(PAWN_ATK[us][to], pawns), bb_and(KNIGHT_ATK[us][to], knights)),
                              bb_or(bb_and(SILVER_ATK[us][to], silvers), bb_and(GOLD_ATK[us][to], golds)));
        if (bb_any(step)) continue;
        if (bb_any(bb_and(rooks, rook_lines(to))) && bb_any(bb_and(rook_attack(to, occk), rooks))) continue;
        if (bb_any(bb_and(lances, file_lines(to))) && bb_any(bb_and(lance_attack(us, to, occk), lances))) continue;
        if (bb_any(bb_and(bishops, bishop_lines(to))) && bb_any(bb_and(bishop_attack(to, occk), bishops))) continue;
        safe = bb_or(safe, bb_sq(to));
    }
    return safe;
}

static void gen_king_moves(const Position *pos, MoveList *l, int ksq) {
    Bitboard k = king_escapes(pos, ksq);
    while (bb_any(k)) l->moves[l->count++] = make_move(ksq, bb_pop(&k), 0);
}

/* Evasions given the checkers.  Pinned pieces never evade: a pinned piece's
 * line and the check line meet only at the king. */
static int gen_evasions_ci(const Position *pos, const CheckInfo *ci, MoveList *l) {
    int us = pos->side, ksq = ci->ksq_us;
    l->count = 0;
    gen_king_moves(pos, l, ksq);
    if (bb_more_than_one(ci->checkers)) return l->count;
    int c = bb_lsb(ci->checkers);
    Bitboard between = between_bb(ksq, c);
    Bitboard movers = bb_andnot(bb_andnot(pos->by_color[us], ci->pinned), bb_sq(ksq));
    gen_piece_moves(pos, l, movers, bb_or(between, bb_sq(c)));
    gen_drops(pos, l, between);
    return l->count;
}

/* How many moves board_move_variants gives (1 or 2), without making them. */
TG_INLINE int board_move_count(int us, int pt, int from, int to) {
    if (can_promote_type(pt) && (in_zone(us, from) || in_zone(us, to))) return must_promote(us, pt, to) ? 1 : 2;
    return 1;
}

/* gen_evasions' count without the list.  The captures and interpositions are
 * found from their target squares (attackers_to of each), which are few (the
 * checker and the squares between), and the pins only when some piece reaches
 * one: most new defender nodes of a mate search are counted and never expanded.
 * checkers: the pieces checking the side to move (count_legal has them already). */
static int count_evasions_given(const Position *pos, Bitboard checkers, int *nondrop, int *drop_squares) {
    int us = pos->side, them = us ^ 1, ksq = pos->king_sq[us], n;
    *nondrop = *drop_squares = 0;
    if (ksq == SQ_NONE || !bb_any(checkers)) return 0;
    n = bb_count(king_escapes(pos, ksq));
    if (bb_more_than_one(checkers)) { *nondrop = n; return n; }
    int c = bb_lsb(checkers);
    Bitboard between = between_bb(ksq, c), target = bb_or(between, bb_sq(c));
    Bitboard movers = bb_andnot(pos->by_color[us], bb_sq(ksq)), pinned = bb_empty();
    int pins_known = 0;
    while (bb_any(target)) {
        int to = bb_pop(&target);
        Bitboard a = bb_and(attackers_to(pos, us, to, pos->occupied), movers);
        if (!bb_any(a)) continue;
        if (!pins_known) {
            pinned = bb_and(slider_blockers(pos, them, ksq), pos->by_color[us]);
            pins_known = 1;
        }
        a = bb_andnot(a, pinned);
        while (bb_any(a)) {
            int from = bb_pop(&a);
            n += board_move_count(us, piece_type(pos->board[from]), from, to);
        }
    }
    *nondrop = n;
    if (!bb_any(between)) return n;
    int pcs = pawn_check_square(us, pos->king_sq[them]);
    Bitboard any = bb_empty();
    for (int pt = PAWN; pt <= GOLD; pt++) {
        if (!pos->hand[us][pt]) continue;
        Bitboard t = drop_targets(pos, pt, between);
        if (pt == PAWN && pcs >= 0 && bb_test(t, pcs) && is_pawn_drop_mate(pos, pcs)) t = bb_xor(t, bb_sq(pcs));
        n += bb_count(t);
        any = bb_or(any, t);
    }
    *drop_squares = bb_count(any);
    return n;
}

int count_evasions(const Position *pos, int *nondrop, int *drop_squares) {
    return count_evasions_given(pos, checkers_of(pos), nondrop, drop_squares);
}

int gen_evasions(const Position *pos, MoveList *l) {
    CheckInfo ci;
    init_pins(pos, &ci);
    l->count = 0;
    if (ci.ksq_us == SQ_NONE || !bb_any(ci.checkers)) return 0;
    return gen_evasions_ci(pos, &ci, l);
}

int gen_legal(const Position *pos, MoveList *l) {
    CheckInfo ci;
    int us = pos->side, ksq;
    init_pins(pos, &ci);
    if (bb_any(ci.checkers)) return gen_evasions_ci(pos, &ci, l);
    ksq = ci.ksq_us;
    l->count = 0;
    Bitboard notours = bb_andnot(bb_all(), pos->by_color[us]);
    Bitboard free = bb_andnot(pos->by_color[us], ci.pinned);
    if (ksq != SQ_NONE) {
        free = bb_xor(free, bb_sq(ksq));
        gen_king_moves(pos, l, ksq);
        Bitboard pinned = ci.pinned;
        while (bb_any(pinned)) {  /* a pinned piece may slide along its pin line */
            int p = bb_pop(&pinned);
            gen_piece_moves(pos, l, bb_sq(p), bb_and(notours, line_bb(ksq, p)));
        }
    }
    gen_piece_moves(pos, l, free, notours);
    gen_drops(pos, l, bb_andnot(bb_all(), pos->occupied));
    return l->count;
}

/* Number of board moves of a piece of type pt from `from` to the squares T,
 * promotion and non-promotion counted separately. */
TG_INLINE int count_targets(int us, int pt, int from, Bitboard t) {
    if (!can_promote_type(pt)) return bb_count(t);
    Bitboard promo = in_zone(us, from) ? t : bb_and(t, bb_ranks(us, 0, 2));
    Bitboard must = pt == KNIGHT ? bb_ranks(us, 0, 1) : (pt == PAWN || pt == LANCE) ? bb_ranks(us, 0, 0) : bb_empty();
    return bb_count(promo) + bb_count(bb_andnot(t, must));
}

int count_legal(const Position *pos) {
    CheckInfo ci;
    int us = pos->side, n = 0;
    init_pins(pos, &ci);
    if (bb_any(ci.checkers)) {
        int nondrop, drop_squares;
        return count_evasions_given(pos, ci.checkers, &nondrop, &drop_squares);
    }
    int ksq = ci.ksq_us;
    Bitboard notours = bb_andnot(bb_all(), pos->by_color[us]);
    Bitboard pieces = bb_and(pos->by_color[us], bb_all());
    if (ksq != SQ_NONE) {
        Bitboard occk = bb_xor(pos->occupied, bb_sq(ksq));
        Bitboard k = bb_and(KING_ATK[ksq], notours);
        while (bb_any(k)) n += !is_attacked(pos, us ^ 1, bb_pop(&k), occk);
        pieces = bb_xor(pieces, bb_sq(ksq));
    }
    while (bb_any(pieces)) {
        int from = bb_pop(&pieces), pt = piece_type(pos->board[from]);
        Bitboard t = bb_and(piece_attack(us, pt, from, pos->occupied), notours);
        if (bb_test(ci.pinned, from)) t = bb_and(t, line_bb(ksq, from));
        n += count_targets(us, pt, from, t);
    }
    Bitboard empty = bb_andnot(bb_all(), pos->occupied);
    int pcs = pawn_check_square(us, pos->king_sq[us ^ 1]);
    for (int pt = PAWN; pt <= GOLD; pt++) {
        if (!pos->hand[us][pt]) continue;
        Bitboard t = drop_targets(pos, pt, empty);
        n += bb_count(t);
        if (pt == PAWN && pcs >= 0 && bb_test(t, pcs) && is_pawn_drop_mate(pos, pcs)) n--;
    }
    return n;
}

int gen_checks(const Position *pos, MoveList *l) {
    CheckInfo ci;
    int us = pos->side;
    checkinfo_init(pos, &ci);
    l->count = 0;
    if (ci.ksq_them == SQ_NONE) return 0;
    Bitboard empty = bb_andnot(bb_all(), pos->occupied);
    Bitboard notours = bb_andnot(bb_all(), pos->by_color[us]);
    Bitboard ours = pos->by_color[us];
    while (bb_any(ours)) {
        int from = bb_pop(&ours), pt = piece_type(pos->board[from]);
        Bitboard att = bb_and(piece_attack(us, pt, from, pos->occupied), notours);
        if (!bb_test(ci.discover, from)) {
            Bitboard direct = ci.check_sq[pt];
            if (can_promote_type(pt)) direct = bb_or(direct, ci.check_sq[pt + PROMOTE]);
            att = bb_and(att, direct);
        }
        while (bb_any(att)) {
            int to = bb_pop(&att);
            Move v[2];
            int n = board_move_variants(us, pt, from, to, v);
            for (int i = 0; i < n; i++) {
                Move m = v[i];
                if (move_gives_check(pos, &ci, m) && move_is_legal(pos, &ci, m)) l->moves[l->count++] = m;
            }
        }
    }
    for (int pt = PAWN; pt <= GOLD; pt++) {
        if (!pos->hand[us][pt]) continue;
        Bitboard t = drop_targets(pos, pt, bb_and(empty, ci.check_sq[pt]));
        while (bb_any(t)) {
            int to = bb_pop(&t);
            Move m = make_drop(pt, to);
            if (pt == PAWN && is_pawn_drop_mate(pos, to)) continue;
            if (move_is_legal(pos, &ci, m)) l->moves[l->count++] = m;
        }
    }
    return l->count;
}

/* gen_checks' count without the list (df-pn+'s initial disproof number of a new
 * attacker node).  A piece that can only give direct check, and whose moves are
 * all legal (no own king, or the piece not pinned and no check on our king), is
 * counted by popcount: its targets on the squares that check as it stands after
 * the move, promoted or not.  Discoverers, pinned pieces and the king go move by
 * move as in gen_checks. */
int count_checks(const Position *pos) {
    CheckInfo ci;
    int us = pos->side, n = 0;
    checkinfo_init(pos, &ci);
    if (ci.ksq_them == SQ_NONE) return 0;
    Bitboard notours = bb_andnot(bb_all(), pos->by_color[us]), ours = pos->by_color[us];
    Bitboard per_move = bb_or(ci.discover, ci.pinned);
    if (ci.ksq_us != SQ_NONE) per_move = bb_or(per_move, bb_sq(ci.ksq_us));
    if (bb_any(ci.checkers)) per_move = ours;
    while (bb_any(ours)) {
        int from = bb_pop(&ours), pt = piece_type(pos->board[from]);
        Bitboard att = bb_and(piece_attack(us, pt, from, pos->occupied), notours);
        if (bb_test(per_move, from)) {
            if (!bb_test(ci.discover, from)) {
                Bitboard direct = ci.check_sq[pt];
                if (can_promote_type(pt)) direct = bb_or(direct, ci.check_sq[pt + PROMOTE]);
                att = bb_and(att, direct);
            }
            while (bb_any(att)) {
                Move v[2];
                int to = bb_pop(&att), nv = board_move_variants(us, pt, from, to, v);
                for (int i = 0; i < nv; i++) n += move_gives_check(pos, &ci, v[i]) && move_is_legal(pos, &ci, v[i]);
            }
        } else {
            /* (an unpromoted piece on a square it may not stay on attacks nothing, so
             * check_sq already leaves out the non-promotions that must promote) */
            n += bb_count(bb_and(att, ci.check_sq[pt]));
            if (can_promote_type(pt)) {
                Bitboard promo = in_zone(us, from) ? att : bb_and(att, bb_ranks(us, 0, 2));
                n += bb_count(bb_and(promo, ci.check_sq[pt + PROMOTE]));
            }
        }
    }
    Bitboard empty = bb_andnot(bb_all(), pos->occupied);
    for (int pt = PAWN; pt <= GOLD; pt++) {
        if (!pos->hand[us][pt]) continue;
        Bitboard t = drop_targets(pos, pt, bb_and(empty, ci.check_sq[pt]));
        if (bb_any(ci.checkers)) {
            while (bb_any(t)) {
                int to = bb_pop(&t);
                n += !(pt == PAWN && is_pawn_drop_mate(pos, to)) && move_is_legal(pos, &ci, make_drop(pt, to));
            }
            continue;
        }
        n += bb_count(t);
        if (pt == PAWN && bb_any(t) && is_pawn_drop_mate(pos, bb_lsb(t))) n--;
    }
    return n;
}

int movelist_has(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m) return 1;
    return 0;
}

int has_legal_move(const Position *pos) {
    MoveList l;
    if (in_check(pos)) return gen_evasions(pos, &l) > 0;
    return gen_legal(pos, &l) > 0;
}
