#!/usr/bin/env python3
"""Is an Edo record's diagram misread?  Screens every one-square edit of it.

usage: edit_screen.py ID [NODES1 [NODES2 [DEV_MOVES DEV_BOUND]]]

For problem ID of data/edo/zukou.tsv or musou.tsv (recorded length L), every
distinct one-square edit of the diagram: a board piece removed (to the
defender's hand, or for a droppable kind to the attacker's), a square's content
replaced by any piece of either side, a piece moved to any empty square, one
attacker hand piece more or less.  Hands follow the tsume convention (the
defender holds the rest).  python-shogi keeps the edits under which the record
still plays as a mate: every move legal, every attacker move a check, mate at
the end (EDITS_MAX=N: of the first N edits only).  tsumegen then screens them,
two problems at a time:
  1. `--max-length L-2 --nodes NODES1` (default 300000): a mate found is shorter
     than the record, so the edit is not the diagram;
  2. optional, DEV_MOVES (USI, a deviation from the record: its first moves and
     then another defence) and DEV_BOUND: the position after them must be mated
     within DEV_BOUND plies (found in NODES1), else the edit is dropped, unless
     DEV_MOVES is illegal under it (the deviation is gone);
  3. `--max-length L --nodes NODES2` (default 1000000) on the rest: a mate found
     has at most L plies; it is printed with its length (L: a candidate diagram).
Node budgets make every drop a hint, not a proof.  Needs TSUMEGEN (default
bin/tsumegen) and python-shogi.
"""
import json, os, subprocess, sys

import shogi

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tests"))
from data_rows import data_rows  # noqa: E402
from sfen_grid import EMPTY, board_rows, board_text  # noqa: E402  (SFEN board field <-> 9 ranks of cells)
TOTAL = {"p": 18, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2}
ORDER = "rbgsnlp"
KINDS = ["p", "l", "n", "s", "g", "b", "r", "+p", "+l", "+n", "+s", "+b", "+r"]


def record(pid):
    for path in ("data/edo/zukou.tsv", "data/edo/musou.tsv"):
        for row in data_rows(path):
            if row[0] == pid:
                return row[2], row[3].split()
    sys.exit("edit_screen.py: %s not found in data/edo/zukou.tsv or musou.tsv" % pid)


def attacker_hand(sfen):
    """{kind: count} of the attacker's (upper-case) pieces in hand."""
    hand, num = {}, ""
    for c in sfen.split()[2]:
        if c.isdigit():
            num += c
            continue
        if c.isupper():
            hand[c.lower()] = hand.get(c.lower(), 0) + int(num or 1)
        num = ""
    return hand


def fmt(board, hand):
    """SFEN with the defender holding every other piece; None if a kind runs out."""
    used = dict.fromkeys(TOTAL, 0)
    for p in (p for row in board for p in row if p != EMPTY and p[-1].lower() != "k"):
        used[p[-1].lower()] += 1
    for k, v in hand.items():
        used[k] += v
    if any(used[k] > TOTAL[k] for k in TOTAL):
        return None
    hs = "".join((str(hand[k]) if hand[k] > 1 else "") + k.upper() for k in ORDER if hand.get(k))
    hs += "".join((str(TOTAL[k] - used[k]) if TOTAL[k] - used[k] > 1 else "") + k
                  for k in ORDER if TOTAL[k] - used[k])
    return board_text(board) + " b " + (hs or "-") + " 1"


def edits(sfen):
    """{SFEN: description} of the one-square edits."""
    b0, h0 = board_rows(sfen.split()[0]), attacker_hand(sfen)
    orig, out = fmt(b0, h0), {}
    name = lambda r, f: "%d%s" % (9 - f, "abcdefghi"[r])

    def add(desc, board, hand):
        s = fmt(board, {k: v for k, v in hand.items() if v})
        if s and s != orig and s not in out:
            out[s] = desc
    pieces = [k.upper() if len(k) == 1 else "+" + k[1].upper() for k in KINDS] + KINDS
    for r in range(9):
        for f in range(9):
            p = b0[r][f]
            king = p.lower() == "k"
            if p != EMPTY and not king:
                b = [row[:] for row in b0]
                b[r][f] = EMPTY
                add("remove %s %s" % (p, name(r, f)), b, dict(h0))
                h = dict(h0)
                h[p[-1].lower()] = h.get(p[-1].lower(), 0) + 1
                add("remove %s %s to the attacker's hand" % (p, name(r, f)), b, h)
            if p != EMPTY:  # (a king too)
                for r2 in range(9):
                    for f2 in range(9):
                        if b0[r2][f2] == EMPTY:
                            b = [row[:] for row in b0]
                            b[r][f], b[r2][f2] = EMPTY, p
                            add("move %s %s -> %s" % (p, name(r, f), name(r2, f2)), b, dict(h0))
            for q in pieces:
                if q != p and not king:
                    b = [row[:] for row in b0]
                    b[r][f] = q
                    add("%s %s -> %s" % (name(r, f), p, q), b, dict(h0))
    for k in ORDER:
        add("hand +%s" % k, b0, dict(h0, **{k: h0.get(k, 0) + 1}))
        if h0.get(k):
            add("hand -%s" % k, b0, dict(h0, **{k: h0[k] - 1}))
    return out


def plays_as_mate(sfen, moves):
    try:
        b = shogi.Board(sfen)
        for i, u in enumerate(moves):
            m = shogi.Move.from_usi(u)
            if m not in b.legal_moves:
                return False
            b.push(m)
            if i % 2 == 0 and not b.is_check():
                return False
        return b.is_checkmate()
    except Exception:  # python-shogi's own refusals of a malformed board
        return False


def solve(lines, *opts):
    """One answer per line, in order; a solve that does not give them all ends the run."""
    tsumegen = os.environ.get("TSUMEGEN", os.path.join(ROOT, "bin", "tsumegen"))
    try:
        p = subprocess.run([tsumegen, "solve", "--no-flaws", "--threads", "2", "--hash", "128", *opts],
                           input="".join(l + "\n" for l in lines), capture_output=True, text=True)
    except OSError as e:
        sys.exit("edit_screen.py: cannot run %s: %s (build it with make, or set TSUMEGEN)" % (tsumegen, e))
    out = [json.loads(l) for l in p.stdout.splitlines()]
    if len(out) != len(lines):
        sys.exit("edit_screen.py: %s solve gave %d answers for %d inputs (exit %d): %s"
                 % (tsumegen, len(out), len(lines), p.returncode, p.stderr.strip().splitlines()[-1:]))
    return out


def main():
    sys.stdout.reconfigure(line_buffering=True)  # (each stage as it ends: the screens take minutes)
    if len(sys.argv) not in (2, 3, 4, 6):
        sys.exit(__doc__)
    pid = sys.argv[1]
    nodes1 = sys.argv[2] if len(sys.argv) > 2 else "300000"
    nodes2 = sys.argv[3] if len(sys.argv) > 3 else "1000000"
    sfen, moves = record(pid)
    n = len(moves)
    all_edits = edits(sfen)
    cap = int(os.environ.get("EDITS_MAX", "0"))  # (the tests' toy size: the first edits only)
    kept = [s for s in list(all_edits)[:cap or None] if plays_as_mate(s, moves)]
    print("%s: recorded %d plies; %d one-square edits, %d keep the record a mate" % (pid, n, len(all_edits), len(kept)))
    res = solve(kept, "--max-length", str(n - 2), "--nodes", nodes1)
    bad = sum(r["result"] == "error" for r in res)
    short = sum(r["result"] == "mate" for r in res)
    kept = [s for s, r in zip(kept, res) if r["result"] not in ("error", "mate")]
    print("1. mate within %d: %d (shorter), refused as positions: %d, left: %d" % (n - 2, short, bad, len(kept)))
    if len(sys.argv) == 6:
        dev, bound = sys.argv[4], sys.argv[5]
        res = solve([s + " moves " + dev for s in kept], "--apply-moves", "--max-length", bound, "--nodes", nodes1)
        gone = sum(r["result"] == "error" and "illegal move" in r.get("error", "") for r in res)
        mated = sum(r["result"] == "mate" for r in res)
        kept = [s for s, r in zip(kept, res) if r["result"] == "mate" or
                (r["result"] == "error" and "illegal move" in r.get("error", ""))]
        print("2. after %s: mate within %s %d, the deviation illegal %d, left: %d" % (dev, bound, mated, gone, len(kept)))
    res = solve(kept, "--max-length", str(n), "--nodes", nodes2)
    by_len = {}
    for s, r in zip(kept, res):
        if r["result"] == "mate":
            by_len[r["length"]] = by_len.get(r["length"], 0) + 1
            if r["length"] == n:
                print("candidate: %s (%s) mate %d: %s" % (all_edits[s], s, n, " ".join(r["pv"])))
    print("3. mate within %d: %s; open: %d" % (n, ", ".join("%d of %d plies" % (v, k) for k, v in sorted(by_len.items()))
                                                or "none", len(kept) - sum(by_len.values())))


if __name__ == "__main__":
    main()
