#!/usr/bin/env python3
"""tsume_ref_fuzz.py - longer differential runs of tests/test_tsume_ref.py (not in the suite).

  python3 benchmarks/tsume_ref_fuzz.py random SEED COUNT [BOUND] [NODES]
      COUNT random tsume-like positions (test_oracle's generator, SEED): lengths up to
      BOUND (default 7), then 余詰 and main lines of the mates found, and the
      variations (solve --variation-depth 2, with their 変化別詰) and the refutations
      (solve --refutations) of those of at most 9 plies
  python3 benchmarks/tsume_ref_fuzz.py incheck SEED COUNT [BOUND] [NODES]
      the same with the attacker (side to move) in check: about 45 s of generation
      a thousand positions
  python3 benchmarks/tsume_ref_fuzz.py shogiboardq [NODES]
      every ShogiBoardQ problem spoiled (near misses), five times the suite's replies,
      and the gifts of all 3-, 5-, 7-ply and 500 11-ply problems (余詰, main lines)

NODES: the reference's budget per question (default 40000).  Prints each group's
counts and the running "passed, failed" totals; any disagreement prints a FAIL line.
Uses BIN like the tests (default bin).  The runs in benchmarks/RESULTS.md ("solve,
twentieth session") were made this way.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import tally  # noqa: E402
import test_tsume_ref as T  # noqa: E402
import test_solve_refutations as R  # noqa: E402
import test_solve_variations as V  # noqa: E402


def run(label, fn, *args):
    """fn's tuple printed (a list in it as its length), with the running totals."""
    t = time.time()
    got = fn(*args)
    shown = tuple(len(x) if isinstance(x, list) else x for x in got)
    print("%s: %s; totals %d passed, %d failed; %.0f s" % (label, shown, tally.passed, tally.failed, time.time() - t), flush=True)
    return got


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("random", "incheck", "shogiboardq"):
        sys.exit(__doc__)
    T.MAIN_LINES = 1 << 30
    if sys.argv[1] in ("random", "incheck"):
        if len(sys.argv) < 4:
            sys.exit(__doc__)
        seed, count = int(sys.argv[2]), int(sys.argv[3])
        bound = int(sys.argv[4]) if len(sys.argv) > 4 else 7
        T.NODE_LIMIT = int(sys.argv[5]) if len(sys.argv) > 5 else 40000
        n, mates, futile, undecided = run("lengths (decided, mates, futile drops, undecided)",
                                          T.compare, T.random_candidates(count, seed, bound, sys.argv[1] == "incheck"))
        run("余詰 (mates analysed, alternatives, decided, 余詰)", T.yozume, mates)
        run("変化 (answers of 9 plies or fewer, variations, 変化別詰, decided, undecided)", V.random_variations, mates)
        run("紛れ (answers of 9 plies or fewer, refutations, decided, undecided)", R.random_refutations, mates)
    else:
        T.NODE_LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else 40000
        run("near misses (decided, mates, futile drops, undecided)", T.compare, T.near_misses(1000 / 150))
        run("replies (decided, mates, futile drops, undecided)", T.compare, T.shogiboardq_replies(5))
        run("余詰 of gifts (mates analysed, alternatives, decided, 余詰)", T.yozume, T.gifts(1000))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
