/* repair.c - proposals against a cook (see repair.h). */
#include "repair.h"
#include <string.h>
#include "../core/movegen.h"

/* Plays pv from start; each defender ply's number of evasions goes to
 * evasions[ply / 2] when evasions is not NULL.  Returns whether pv is a mating
 * line (see repair.h). */
static int play_line(const Position *start, const Move *pv, int n, int *evasions) {
    Position p = *start;
    MoveList ml;
    Undo u;
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0) gen_checks(&p, &ml);
        else gen_evasions(&p, &ml);
        if (!movelist_has(&ml, pv[i])) return 0;
        if (i % 2 && evasions) evasions[i / 2] = ml.count;
        pos_do_move(&p, pv[i], &u);
    }
    return n % 2 == 1 && in_check(&p) && !has_legal_move(&p);
}

int repair_line_mates(const Position *start, const Move *pv, int n) { return play_line(start, pv, n, NULL); }

/* The main line as the cooked board has it: a proposal must keep it a mating
 * line with the same number of evasions at every defender ply, so the new piece
 * neither moves nor opens a new escape anywhere on the line (a new defence there
 * turned most proposals into no mate at all). */
typedef struct {
    const Move *pv;
    int n;
    int evasions[VERDICT_PV_MAX / 2 + 1];
} Line;

/* Normalizes p (0 when illegal) and tells whether it keeps the line. */
static int line_kept(const Line *line, Position *p) {
    int ev[VERDICT_PV_MAX / 2 + 1];
    return !compose_normalize(p) && !in_check(p) && play_line(p, line->pv, line->n, ev) &&
           !memcmp(ev, line->evasions, sizeof(int) * (size_t)(line->n / 2));
}

/* One edit: put pc on sq (0: give sq back to the initial problem). */
typedef struct {
    uint8_t sq, pc, revert;
} Edit;

static void apply(Position *p, const Position *initial, Edit e) {
    if (p->board[e.sq]) pos_remove(p, e.sq);
    int pc = e.revert ? initial->board[e.sq] : e.pc;
    if (pc) pos_put(p, e.sq, pc);
}

static void shuffle(Edit *e, int n, Rng *rng) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1);
        Edit t = e[i];
        e[i] = e[j], e[j] = t;
    }
}

/* The board after e (and, when e alone needs one bit too many, after one other
 * changed square goes back to the initial problem): kept when it normalizes,
 * still mates along pv, and encodes into `ones` bits that decode back to it. */
static int try_edit(const Position *initial, const Position *board, Edit e, const Line *line, int ones, Rng *rng,
                    RepairCandidate *out) {
    Position p = *board;
    apply(&p, initial, e);
    if (!line_kept(line, &p)) return 0;
    Edit back[SQ_NB];
    int nb = 0;
    if (genome_encode(initial, &p, ones, &out->g)) {
        for (int sq = 0; sq < SQ_NB; sq++)
            if (sq != e.sq && p.board[sq] != initial->board[sq]) back[nb++] = (Edit){(uint8_t)sq, 0, 1};
        shuffle(back, nb, rng);
    } else {
        nb = -1;  /* encoded as it is */
    }
    for (int i = 0; i < nb; i++) {
        Position q = p;
        apply(&q, initial, back[i]);
        if (!line_kept(line, &q) || genome_encode(initial, &q, ones, &out->g))
            continue;
        p = q, nb = -1;
        break;
    }
    if (nb >= 0) return 0;
    /* the genome must give this very board back (decoding has no choice to make) */
    Position d;
    Rng any;
    rng_seed(&any, 0);
    if (genome_decode(&out->g, initial, &any, &d) || compose_normalize(&d) ||
        memcmp(d.board, p.board, sizeof d.board) || memcmp(d.hand, p.hand, sizeof d.hand))
        return 0;
    out->pos = p;
    return 1;
}

int repair_candidates(const Position *initial, const Position *board, const Move *pv, int npv, int cook_ply,
                      Move cook, int ones, Rng *rng, RepairCandidate *out, int max) {
    if (cook_ply < 0 || cook_ply >= npv || cook_ply % 2 || max <= 0 || npv > VERDICT_PV_MAX) return 0;
    static _Thread_local Line line;
    line.pv = pv, line.n = npv;
    if (!play_line(board, pv, npv, line.evasions)) return 0;
    Position pk = *board;  /* the position where the cook is played */
    Undo u;
    for (int i = 0; i < cook_ply; i++) pos_do_move(&pk, pv[i], &u);
    int them = board->side ^ 1, t = move_to(cook);
    Bitboard used = bb_empty();  /* squares the main line moves to: an edit there changes the line */
    for (int i = 0; i < npv; i++) used = bb_or(used, bb_sq(move_to(pv[i])));
    static _Thread_local Edit edits[SQ_NB * GA_KINDS_NB * 2 + 1];
    int n = 0;
    for (int sq = 0; sq < SQ_NB; sq++) {
        if (board->board[sq] || pk.board[sq] || bb_test(used, sq)) continue;
        /* a drop's square filled; a guard of the square; a block on the mover's line */
        int fill = sq == t && move_is_drop(cook);
        int block = !move_is_drop(cook) && bb_test(between_bb(move_from(cook), t), sq);
        for (int k = 0; k < GA_KINDS_NB; k++) {
            int pt = GA_KINDS[k];
            if (fill || block || (sq != t && bb_test(piece_attack(them, pt, sq, pk.occupied), t)))
                edits[n++] = (Edit){(uint8_t)sq, (uint8_t)make_piece(them, pt), 0};
        }
    }
    /* the cooking piece, if the genome put it there and it has not moved yet */
    int f = move_is_drop(cook) ? -1 : move_from(cook);
    if (f >= 0 && board->board[f] != initial->board[f] && pk.board[f] == board->board[f])
        edits[n++] = (Edit){(uint8_t)f, 0, 1};
    shuffle(edits, n, rng);
    int m = 0;
    for (int i = 0; i < n && m < max; i++) m += try_edit(initial, board, edits[i], &line, ones, rng, &out[m]);
    return m;
}
