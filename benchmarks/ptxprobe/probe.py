"""probe.py - time clang-built PTX of kernels/screen_gen.cl through CuPy, so that
Nsight Compute (which does not see OpenCL launches) can profile the same code.

    python3 probe.py PTX [PTX ...]   (env: CHUNKS, default 8 chunks of 2^21 boards)

For each PTX (or cubin): the two-pass generated stream as tsumegen runs it on
a GPU (screen_gen_split, then the staged pass 2: screen_gen_scan, _mate,
_finish; STAGED=0: screen_gen_legal), seed 1 from board 0, one warm-up
then the median of 3 timed runs (CUDA events), boards/s, and the legal and
mate-in-1 counts, which must equal the CPU's (EXPECT_LEGAL, EXPECT_MATE1 for 8
chunks: `tsumegen screen --generate 16777216 --device omp --seed 1`)."""
import os, sys
import numpy as np
import cupy as cp

CH = 1 << 21
chunks = int(os.environ.get("CHUNKS", "8"))
expect = (int(os.environ.get("EXPECT_LEGAL", "6582917")), int(os.environ.get("EXPECT_MATE1", "297749")))
W_NB = 1 + 81 + 2 * 14 * 289 + 289 + 14 + 81
rs = np.random.RandomState(1)
w = cp.asarray(rs.randint(-500, 500, W_NB).astype(np.int32))
stats = cp.zeros(8, cp.uint32)
legal_list = cp.zeros(CH, cp.uint32)
pos = cp.zeros(CH * 64, cp.uint64)  # 512 bytes a slot
digest = cp.zeros(1, cp.uint32)
kept = cp.zeros(1 << 16, cp.uint64)
rec = cp.zeros(3 * CH, cp.uint32)
queue = cp.zeros(CH, cp.uint64)
mate = cp.zeros(CH, cp.uint8)
wg = int(os.environ.get("WG", "256"))
staged = os.environ.get("STAGED", "1") == "1"
grid, block = ((CH + wg - 1) // wg,), (wg,)
u32, u64, i32 = np.uint32, np.uint64, np.int32

def run(k):
    tot = np.zeros(8, np.int64)
    cap = u32(CH)
    for c in range(chunks):
        base = u64(c * CH)
        stats.fill(0)
        k["split"](grid, block, (u64(1), base, u32(CH), i32(0), digest, stats, legal_list, pos, cap))
        a2 = (base, w, i32(0), i32(-2**31), i32(0), digest, stats, legal_list, pos, cap, kept, u32(1 << 16))
        if staged:
            k["scan"](grid, block, (w, stats, pos, cap, rec, queue, cap))
            k["mate"](grid, block, (stats, pos, cap, queue, cap, mate))
            k["finish"](grid, block, (base, i32(0), i32(-2**31), i32(0), digest, stats, legal_list, cap, kept,
                                      u32(1 << 16), rec, queue, mate))
            k["rest"](grid, block, a2 + (rec,))
        else:
            k["legal"](grid, block, a2)
        tot += stats.get().astype(np.int64)
    return tot

for path in sys.argv[1:]:
    if path.endswith(".bin"):  # tsumegen's cache of an NVIDIA OpenCL build: PTX padded with NULs
        txt = open(path, "rb").read().replace(b"\0", b"")
        path = "/tmp/" + os.path.basename(path)[:-4] + ".ptx"
        open(path, "wb").write(txt)
    mod = cp.RawModule(path=path)
    k = {n: mod.get_function("screen_gen_" + n) for n in ("split", "legal", "scan", "mate", "finish", "rest")}
    tot = run(k)
    times = []
    for _ in range(3):
        e0, e1 = cp.cuda.Event(), cp.cuda.Event()
        e0.record(); run(k); e1.record(); e1.synchronize()
        times.append(cp.cuda.get_elapsed_time(e0, e1) / 1000)
    t = sorted(times)[1]
    ok = chunks != 8 or (int(tot[0]), int(tot[1])) == expect
    print(f"{os.path.basename(path):24s} {CH * chunks / t / 1e6:8.1f} M boards/s  legal {tot[0]} mate1 {tot[1]} queued {tot[4]}"
          f"  {'ok' if ok else 'MISMATCH'}  (runs {', '.join(f'{x:.3f}' for x in times)} s)", flush=True)
