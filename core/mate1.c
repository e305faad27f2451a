/* mate1.c - mate-in-one by trying each checking move. */
#include "mate1.h"

int is_checkmated(const Position *pos) {
    MoveList l;
    return in_check(pos) && gen_evasions(pos, &l) == 0;
}

int gen_mate1(Position *pos, MoveList *out) {
    MoveList checks;
    gen_checks(pos, &checks);
    out->count = 0;
    for (int i = 0; i < checks.count; i++) {
        Undo u;
        MoveList ev;
        pos_do_move(pos, checks.moves[i], &u);
        if (gen_evasions(pos, &ev) == 0) out->moves[out->count++] = checks.moves[i];
        pos_undo_move(pos, checks.moves[i], &u);
    }
    return out->count;
}
