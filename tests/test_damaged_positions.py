#!/usr/bin/env python3
"""Damaged positions never crash tsumegen.  Zuko problems (SFEN and recorded
moves) are edited at random, with a fixed seed: pieces put, removed and swapped
on the board (second kings, pawns on the last rank, doubled pawns, the side not
to move in check), hands rewritten, sides flipped, moves cut or replaced, and
bytes changed.  Each damaged text goes to `solve` (a batch on stdin), `moves`,
`mate1`, `perft` and `kif`.  Every run must exit 0 or 2, explain an exit 2 on
stderr, print no sanitizer report and end within its time; `solve` must print
one JSON answer per input line, and `moves` one line per input line.  (test_kif
damages KIF files the same way; test_cli_errors checks chosen messages.)
FUZZ_CASES sets the number of damaged texts (default 250), FUZZ_SEED the seed.
Last line: "damaged-positions: N passed, N failed"."""
import json
import os
import random
import subprocess
import sys

from data_rows import record_problems
from sfen_grid import EMPTY, board_rows, board_text
from tally import check, summary

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
EXE = os.path.join(ROOT, os.environ.get("BIN", "bin"), "tsumegen")
PIECES = [p for b in "PLNSGBRK" for p in (b, b.lower())] + \
         [("+" + b) if u else ("+" + b.lower()) for b in "PLNSBR" for u in (0, 1)]
RESULTS = {"mate", "nomate", "unknown", "error"}
SANITIZER = ("runtime error", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer")


def damage_position(rng, sfen, moves):
    """One to three edits of the position and its moves; the text of `SFEN [moves ...]`."""
    board, side, hand, num = sfen.split()
    rows = board_rows(board)
    moves = list(moves[:rng.randint(0, 6)])
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(7)
        r, f = rng.randrange(9), rng.randrange(9)
        if op == 0:
            rows[r][f] = rng.choice(PIECES)
        elif op == 1:
            rows[r][f] = EMPTY
        elif op == 2:
            r2, f2 = rng.randrange(9), rng.randrange(9)
            rows[r][f], rows[r2][f2] = rows[r2][f2], rows[r][f]
        elif op == 3:
            side = "w" if side == "b" else "b"
        elif op == 4:
            hand = rng.choice(["-", "G", "2P", "R2B4G4S4N4L18P", "99P", "P2", "Gg", "rb", "0G",
                               "".join(rng.choice("123PLNSGBRplnsgbr") for _ in range(rng.randint(1, 8)))])
        elif op == 5 and moves:
            moves[rng.randrange(len(moves))] = rng.choice(
                ["7g7f", "P*5e", "1a1b+", "5e5e", "K*5e", "9i9a", "0a0b", "5e", "G*9i+", "3c3d="])
        else:
            moves = moves[:rng.randrange(len(moves) + 1)]
    text = " ".join([board_text(rows), side, hand, num])
    return text + (" moves " + " ".join(moves) if moves else "")


def damage_bytes(rng, text):
    data = bytearray(text.encode())
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data))
        op = rng.randrange(3)
        if op == 0:
            data[i] = rng.randrange(1, 256)
        elif op == 1:
            del data[i]
        else:
            data.insert(i, rng.choice(b"+-/0123456789 bwPLNSGBRKplnsgbrk*"))
    return bytes(data).replace(b"\0", b"")


def run(args, stdin=b""):
    """(exit status, stdout, stderr); status None when the run took too long."""
    try:
        r = subprocess.run([EXE] + args, input=stdin, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, b"", b""
    return r.returncode, r.stdout, r.stderr


def sound(name, rc, out, err):
    """The common rules: a clean exit 0 or 2, an exit 2 explained, no sanitizer report."""
    text = err.decode("utf-8", "replace")
    why = None
    if rc is None:
        why = "no answer within 120 s"
    elif rc not in (0, 2):
        why = "exit status %d" % rc
    elif rc == 2 and not text.strip():
        why = "exit 2 without a message"
    elif any(s in text for s in SANITIZER):
        why = "sanitizer report"
    if why:
        print("FAIL %s: %s\n%s" % (name, why, text[-1500:]))
    return why is None


def answers_lines(out, inputs):
    """solve: one JSON answer per input line that is not blank or a comment."""
    want = [l for l in inputs if l.strip() and not l.strip().startswith(b"#")]
    lines = out.decode("utf-8", "replace").splitlines()
    if len(lines) != len(want):
        return "%d answers for %d inputs" % (len(lines), len(want))
    for l in lines:
        try:
            a = json.loads(l)
        except ValueError:
            return "not JSON: " + l[:200]
        if a.get("result") not in RESULTS or "sfen" not in a:
            return "no sfen or result: " + l[:200]
    return None


def main():
    cases = int(os.environ.get("FUZZ_CASES", "250"))
    rng = random.Random(int(os.environ.get("FUZZ_SEED", "20261128")))
    base = record_problems("data/edo/zukou.tsv")
    bad = 0
    for k in range(cases):
        texts = []
        for _ in range(rng.randint(1, 3)):
            sfen, moves = rng.choice(base)
            t = damage_position(rng, sfen, moves)
            texts.append(damage_bytes(rng, t) if rng.random() < 0.25 else t.encode())
        lines = b"\n".join(texts).split(b"\n")
        first = texts[0].decode("utf-8", "replace")
        opts = ["--threads", "1", "--hash", "1", "--nodes", str(rng.choice([300, 3000])), "--verify"]
        if rng.random() < 0.3:
            opts.append("--strict-hands")
        rc, out, err = run(["solve"] + opts, b"\n".join(texts) + b"\n")
        ok = sound("solve %r" % texts, rc, out, err)
        why = answers_lines(out, lines) if ok else None
        if why:
            print("FAIL solve %r: %s" % (texts, why))
            ok = False
        positions = [l.split(b" moves ")[0] for l in lines]
        rc, out, err = run(["moves"] + (["--evasions"] if k % 2 else ["--checks"]), b"\n".join(positions) + b"\n")
        ok &= sound("moves %r" % positions, rc, out, err)
        if ok and len(out.splitlines()) != len([l for l in positions if l.strip()]):
            print("FAIL moves %r: %d lines for %d inputs" % (positions, len(out.splitlines()), len(positions)))
            ok = False
        position = first.split(" moves ")[0]
        for args in (["mate1", position], ["perft", "2", position], ["kif"] + first.split()):
            rc, out, err = run(args)
            ok &= sound("%s %r" % (args[0], first), rc, out, err)
        bad += not ok
        if bad >= 5:
            print("stopping after 5 failing cases")
            break
    check(bad == 0, "%d of %d damaged position texts broke a command" % (bad, cases))
    print("    %d damaged texts through solve, moves, mate1, perft and kif" % cases)
    return summary("damaged-positions")


if __name__ == "__main__":
    sys.exit(main())
