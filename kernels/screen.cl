/* screen.cl - the screening kernel: one work-item per board (see core/screen.h).
 * host/ocl.c compiles this file with core/position.c, core/movegen.c,
 * core/screen.c and the generated tables inlined (build/gen/screen_src.inc made
 * by tools/embed_cl.c), so the binary needs no files at run time.
 * Build options (set by the host as -D flags): TG_DEVICE_GPU (0/1). */
#include "position.c"
#include "movegen.c"
#include "screen.c"

__kernel void screen(__global const ScBoard *in, __global ScResult *out,
                     __global const int *weights, int flags, int n) {
    int i = (int)get_global_id(0);
    if (i >= n) return;
    ScBoard b = in[i];
    ScResult r;
    sc_screen(&b, &r, weights, flags);
    out[i] = r;
}
