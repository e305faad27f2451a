/* cl_core.cl - compiles all of core/ as OpenCL C 1.2 (tests/test_opencl_core.sh).
 * A trivial kernel calls the generators so nothing is optimised away unchecked. */
#include "position.c"
#include "movegen.c"
#include "mate1.c"

__kernel void core_smoke(__global const uchar *boards, __global int *out) {
    Position pos;
    pos_clear(&pos);
    size_t id = get_global_id(0);
    for (int sq = 0; sq < SQ_NB; sq++)
        if (boards[id * 81 + sq]) pos_put(&pos, sq, boards[id * 81 + sq]);
    MoveList l;
    out[id] = gen_checks(&pos, &l) + gen_legal(&pos, &l) + (int)(pos.board_key & 1);
}
