/* perft.c - recursive perft; host only (kernels never recurse). */
#include "perft.h"
#include "../core/movegen.h"

uint64_t perft(Position *pos, int depth) {
    MoveList l;
    if (depth <= 1) return depth == 1 ? (uint64_t)count_legal(pos) : 1;  /* bulk count */
    gen_legal(pos, &l);
    uint64_t n = 0;
    for (int i = 0; i < l.count; i++) {
        Undo u;
        pos_do_move(pos, l.moves[i], &u);
        n += perft(pos, depth - 1);
        pos_undo_move(pos, l.moves[i], &u);
    }
    return n;
}
