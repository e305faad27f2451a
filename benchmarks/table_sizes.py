#!/usr/bin/env python3
"""table_sizes.py - the verifier's verdicts must not depend on its table size.

Makes near-miss variants of known problems (one attacker board piece removed, one
defender piece added, one defender piece removed, one more attacker piece in hand,
one piece's promotion toggled), solves them all with `tsumegen solve` at two table
sizes, and lists every position whose verdict (result, length, perfect, flaws)
differs, unless a limit explains it (unknown, or an incomplete analysis on one side).
--symmetry: also the left-right mirror and the colour flip (White attacking) of each
variant, solved at the second size: the same problem, so the same verdict.
df-pn keeps different entries in different tables, so a verdict that changes with
the table is a bug in what an entry is trusted for.

    python3 benchmarks/table_sizes.py [SOURCE ...] [--hash A B] [--nodes N] [--threads T]
                                      [--per-file N] [--seed S] [--solve-options='...'] [--symmetry]
                                      [--versus='...']

SOURCE: files of SFENs (`SFEN` or `SFEN moves ...` lines, '#' comments) or compose
problems.jsonl; default: the first 300 problems of each ShogiBoardQ set in data/.
--versus='OPTIONS': the second run also gets these solve options, so a search variant
(e.g. --versus='--length-search walk') must give the same verdicts as the default.
Exit status 1 when a real difference is found.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tests"))
from test_solve import board_rows, board_text  # noqa: E402  (SFEN board field <-> 9 ranks of cells, "." empty)


def read_sources(paths, per_file):
    out = []
    for p in paths:
        n = 0
        for line in open(p, encoding="utf-8"):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            sfen = json.loads(line)["sfen"] if line.startswith("{") else " ".join(line.split(" moves ")[0].split()[:4])
            out.append(sfen)
            n += 1
            if per_file and n >= per_file:
                break
    return out


def attacker_hand(hand):
    """The attacker's (upper-case) part of a hand field; the defender's follows by convention."""
    out, num = "", ""
    for ch in hand:
        if ch.isdigit():
            num += ch
        else:
            if ch.isupper():
                out += num + ch
            num = ""
    return out


def variants(sfen, rnd):
    board, side, hand, num = sfen.split()
    rows, ah = board_rows(board), attacker_hand(hand)
    cells = lambda pred: [(i, j) for i in range(9) for j in range(9) if rows[i][j] != "." and pred(rows[i][j])]
    out = []

    def with_cell(i, j, piece):
        r = [row[:] for row in rows]
        r[i][j] = piece
        out.append(" ".join([board_text(r), side, ah or "-", num]))

    atk = cells(lambda p: p[-1].isupper() and p[-1] != "K")
    if atk:
        with_cell(*rnd.choice(atk), ".")
    dfd = cells(lambda p: p[-1].islower() and p[-1] != "k")
    if dfd:
        with_cell(*rnd.choice(dfd), ".")
    empty = [(i, j) for i in range(9) for j in range(9) if rows[i][j] == "." and i < 8]
    with_cell(*rnd.choice(empty), rnd.choice("pslgn"))
    out.append(" ".join([board, side, ah + rnd.choice("PLNSGBR"), num]))
    prom = cells(lambda p: p[-1].upper() in "PLNSBR")
    if prom:
        i, j = rnd.choice(prom)
        p = rows[i][j]
        with_cell(i, j, p[1:] if p.startswith("+") else "+" + p)
    return out


def mirror(sfen):
    """The left-right mirror: the same problem."""
    board, side, hand, num = sfen.split()
    return " ".join([board_text([r[::-1] for r in board_rows(board)]), side, hand, num])


def colour_flip(sfen):
    """The board turned round with the colours swapped: the same problem, White attacking."""
    board, side, hand, num = sfen.split()
    swap = lambda c: c.lower() if c.isupper() else c.upper()
    rows = [[p[:-1] + swap(p[-1]) if p != "." else p for p in r[::-1]] for r in board_rows(board)[::-1]]
    return " ".join([board_text(rows), "w" if side == "b" else "b", "".join(map(swap, hand)) if hand != "-" else "-", num])


def solve(exe, sfens, mb, nodes, threads, extra):
    """One answer per position, in order; a run that prints fewer (a crash) stops the check."""
    p = subprocess.run([exe, "solve", "--hash", str(mb), "--nodes", str(nodes), "--threads", str(threads)] + extra,
                       input="".join(x + "\n" for x in sfens), capture_output=True, text=True)
    out = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if len(out) != len(sfens):
        print("solve --hash %d printed %d answers for %d positions (exit %d): %s"
              % (mb, len(out), len(sfens), p.returncode, p.stderr[-300:]))
        print("table_sizes: 0 passed, 1 failed")
        sys.exit(1)
    return out


def verdict(d):
    return (d["result"], d.get("length"), d.get("perfect"), tuple(sorted(d.get("flaws", []))))


def same_verdict(x, y):
    """Equal verdicts, or a difference a limit explains, or one in a cooked problem's
    leftover flag alone (its main line follows whichever shortest mate the table or
    the move order offered first; not perfect either way)."""
    if verdict(x) == verdict(y) or limited(x) or limited(y):
        return True
    return not x.get("perfect") and not y.get("perfect") and "yozume" in x.get("flaws", []) + y.get("flaws", []) \
        and x["length"] == y["length"] and set(x["flaws"]) ^ set(y["flaws"]) <= {"leftover"}


def limited(d):
    notes = d.get("notes", [])
    return d["result"] == "unknown" or any("incomplete" in n or "upper_bound" in n for n in notes)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sources", nargs="*")
    ap.add_argument("--hash", nargs=2, type=int, default=[1, 256])
    ap.add_argument("--nodes", type=int, default=2000000)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--per-file", type=int, default=0, help="at most this many problems per source file")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--symmetry", action="store_true", help="also solve each variant's mirror and colour flip")
    ap.add_argument("--solve-options", default="", help="more solve options, as one argument: --solve-options=--yozume-confirm")
    ap.add_argument("--versus", default="", help="solve options for the second run only: --versus='--length-search walk'")
    a = ap.parse_args()
    srcs = a.sources or sorted(glob.glob(os.path.join(ROOT, "data/third_party/shogiboardq/*.txt")))
    per_file = a.per_file or (300 if not a.sources else 0)
    rnd = random.Random(a.seed)
    pos = [v for s in read_sources(srcs, per_file) for v in variants(s, rnd)]
    exe = os.environ.get("TSUMEGEN", os.path.join(ROOT, "bin/tsumegen"))
    res = [solve(exe, pos, mb, a.nodes, a.threads, a.solve_options.split() + (a.versus.split() if i else []))
           for i, mb in enumerate(a.hash)]
    real = 0
    for x, y in zip(*res):
        if x.get("result") == "error" or same_verdict(x, y):
            continue
        real += 1
        print("DIFFERENT %s: %s MB %s, %s MB%s %s" % (x["sfen"], a.hash[0], verdict(x), a.hash[1],
                                                   " " + a.versus if a.versus else "", verdict(y)))
    valid = sum(r.get("result") != "error" for r in res[1])
    print("%d variants (%d valid), tables %d and %d MB%s: %d real differences" %
          (len(pos), valid, a.hash[0], a.hash[1], " (" + a.versus + ")" if a.versus else "", real))
    if a.symmetry:  # the mirror and the colour flip of each variant give the same verdict
        asym = 0
        for name, f in (("mirror", mirror), ("colour flip", colour_flip)):
            res2 = solve(exe, [f(p) for p in pos], a.hash[1], a.nodes, a.threads, a.solve_options.split())
            for x, y in zip(res[1], res2):
                if x.get("result") == "error" or same_verdict(x, y):
                    continue
                asym += 1
                print("ASYMMETRIC (%s) %s: %s, %s" % (name, x["sfen"], verdict(x), verdict(y)))
        print("mirror and colour flip at %d MB: %d differences" % (a.hash[1], asym))
        real += asym
    print("table_sizes: %d passed, %d failed" % (valid - real, real))
    return 1 if real else 0


if __name__ == "__main__":
    sys.exit(main())
