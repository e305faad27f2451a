#!/usr/bin/env python3
"""test_csa.py - CSA records as input (`tsumegen sfen FILE.csa`, `tsumegen solve FILE.csa`).

1. Written by cshogi (CSA.Exporter, an independent writer): every Zuko problem with its
   recorded moves, ShogiBoardQ problems with their solutions, and random games from the
   initial position (PI, captures, promotions, drops, times after moves), all in one file
   apart by "/" lines.  `tsumegen sfen --strict-hands` must give each game's position
   (cshogi's Zobrist key: board, hands, side) and moves back, and cshogi's own CSA parser
   must read the same moves from the same text.
2. Hand-written forms: 00AL (the rest to one side, with strict hands too), PI with
   removals (駒落ち), several statements on one line, comments, a short P row.
3. `solve` takes .csa files and CSA on stdin, answering as for the SFEN.
4. Bad records: each is named by line in a message on stderr and exit 2, and the good
   games around it are still printed.
Last line: "csa: N passed, N failed".
"""
import os
import random
import subprocess
import sys
import tempfile

import cshogi
from cshogi import CSA
from data_rows import record_problems
from tally import check, summary

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("BIN", "bin")
EXE = os.path.join(ROOT, BIN, "tsumegen")
SAN = "san" in BIN


def data_lines(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def export(sfen, moves, path, rng):
    """One game written by cshogi's exporter (times after some moves)."""
    b = cshogi.Board(sfen)
    e = CSA.Exporter(path)
    e.info(b)
    for u in moves:
        m = b.move_from_usi(u)
        e.move(m, time=rng.choice([None, 0, 7]), sep=rng.choice(["\n", ","]))
        b.push(m)
    e.endgame("%TSUMI" if moves else "%CHUDAN")
    e.close()
    with open(path, encoding="utf-8") as f:
        return f.read()


def random_game(rng, plies):
    b = cshogi.Board()
    moves = []
    for _ in range(plies):
        legal = list(b.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(cshogi.move_to_usi(m))
        b.push(m)
    return cshogi.Board().sfen(), moves


def key(sfen):
    b = cshogi.Board(sfen)
    return b.zobrist_hash(), b.turn


def sfen_of(text, *opts):
    with tempfile.NamedTemporaryFile("w", suffix=".csa", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        return subprocess.run([EXE, "sfen", *opts, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)


def exported():
    rng = random.Random(20261129)
    games = [(s, m) for s, m in record_problems()]
    for ply in (5, 13):
        for l in data_lines("data/third_party/shogiboardq/tsume_%dply_1000_20261001.txt" % ply)[:40]:
            s, m = l.split(" moves ")
            games.append((s, m.split()))
    games += [random_game(rng, rng.randrange(1, 120)) for _ in range(10 if SAN else 60)]
    texts = []
    with tempfile.TemporaryDirectory() as d:
        for i, (s, m) in enumerate(games):
            texts.append(export(s, m, os.path.join(d, "%d.csa" % i), rng))
    whole = "\n/\n".join(texts)
    p = sfen_of(whole, "--strict-hands")
    out = p.stdout.splitlines()
    check(p.returncode == 0 and len(out) == len(games), "exported: exit %d, %d lines for %d games: %s" %
          (p.returncode, len(out), len(games), p.stderr[:300]))
    theirs = CSA.Parser.parse_str(whole)
    check(len(theirs) == len(games), "cshogi's parser read %d games of %d" % (len(theirs), len(games)))
    for (s, m), line, text, t in zip(games, out, texts, theirs):
        got_sfen, _, got_moves = line.partition(" moves ")
        check(key(got_sfen) == key(s), "exported game: position %s back as %s\n%s" % (s, got_sfen, text[:400]))
        check(got_moves.split() == m, "exported game %s: moves %s back as %s" % (s, m, got_moves.split()))
        check([cshogi.move_to_usi(x) for x in t.moves] == m, "cshogi's parser: %s gives other moves" % s)
    print("exported by cshogi: %d games" % len(games))


BOARD = """P1 *  *  *  *  *  * -KE * -KY
P2 *  *  *  *  *  *  * -OU *
P3 *  *  *  *  *  * -FU-FU *
P4 *  *  *  *  *  *  *  * -FU
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7 *  *  *  *  *  *  *  *  *
P8 *  *  *  *  *  *  *  *  *
P9 *  *  *  *  *  *  *  *  *
"""


def hand_written():
    # 00AL: every piece left to white, with strict hands as well
    text = "\ufeff'a tsume problem (a byte order mark first)\nV2.2\n" + BOARD + "P+00KI00GI\nP-00AL\n+\n+0021GI,T3\n-2221OU\n+0032KI\n%TSUMI\n"
    for opts in ((), ("--strict-hands",)):
        p = sfen_of(text, *opts)
        check(p.returncode == 0 and p.stdout.strip() ==
              "6n1l/7k1/6pp1/8p/9/9/9/9/9 b GS2r2b3g3s3n3l15p 1 moves S*2a 2b2a G*3b",
              "00AL %s: %s %s" % (opts, p.stdout, p.stderr))
    # PI with removals (a handicap game: white without rook and bishop), moves on one line;
    # strict hands, since the convention would give the removed pieces to black (not to move)
    p = sfen_of("PI82HI22KA\n-\n-5142OU,+7776FU,-4232OU\n", "--strict-hands")
    check(p.returncode == 0 and p.stdout.split(" moves ")[1].split() == ["5a4b", "7g7f", "4b3b"] and
          p.stdout.startswith("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves"),
          "PI with removals: %s %s" % (p.stdout, p.stderr))
    b = CSA.Parser.parse_str("PI82HI22KA\n-\n-5142OU\n+7776FU\n-4232OU\n")[0]
    check(p.stdout.split()[0] == b.sfen.split()[0], "PI with removals: cshogi reads %s" % b.sfen)
    # a short last row (trailing spaces trimmed) and P+/P- pieces on the board
    p = sfen_of("P1 *  *  *  * -OU\nP+53KI54KI00GI\nP-00AL\n+\n")
    check(p.returncode == 0 and p.stdout.startswith("4k4/9/4G4/4G4/9/9/9/9/9 b S"), "P+ on the board: %s %s" % (p.stdout, p.stderr))
    # solve reads .csa files and CSA on stdin
    with tempfile.NamedTemporaryFile("w", suffix=".csa", delete=False) as f:
        f.write("'yo162a\nP1 *  *  *  * -FU * -KE-OU *\n" + "\n".join(["P%d *  *  *  *  *  *  *  *  * " % r for r in range(2, 10)])
                + "\n+\n")
    sfen_line = subprocess.run([EXE, "sfen", f.name], capture_output=True, text=True).stdout.strip()
    a = subprocess.run([EXE, "solve", "--no-flaws", f.name], capture_output=True, text=True).stdout
    with open(f.name) as fh:
        b = subprocess.run([EXE, "solve", "--no-flaws"], stdin=fh, capture_output=True, text=True).stdout
    c = subprocess.run([EXE, "solve", "--no-flaws", sfen_line], capture_output=True, text=True).stdout
    os.unlink(f.name)
    strip = lambda s: s.split(',"nodes"')[0]
    check(a and strip(a) == strip(b) == strip(c), "solve FILE.csa / < FILE.csa / SFEN: %s | %s | %s" % (a[:200], b[:200], c[:200]))


def bad():
    cases = [
        # (line numbers count the good game and the "/" before each case: 4 lines)
        ("P1 *  * XYZ *  *  *  *  *  *\n+\n", "line 5: P1: cell 3 is 'XYZ'"),
        (BOARD + "P+00KI\n+\n+0032FU\n", "line 16: move 1 (+0032FU): illegal move 'P*3b': no pawn"),
        (BOARD + "P+00KI\n+\n+0032KI\n-2232GI\n", "line 17: move 2 (-2232GI): the piece on 22 is OU, not GI"),
        (BOARD + "P+00KI\n+\n-0032KI\n", "it is black (+)'s turn"),
        (BOARD + "P+00KI\n+\n+3334FU\n", "no piece of the side to move on 33"),
        ("PI\n+\n+7776KA\n", "the piece on 77 is FU, not KA"),
        ("PI\n+\n+7775FU\n", "line 7: move 1 (+7775FU)"),
        (BOARD + "P+00KI\n", "no side-to-move line"),
        (BOARD + "+\nP+00KI\n", "a position statement after the side to move"),
        (BOARD + "P-00ALKI\n+\n", "00AL must end its line"),
        (BOARD + "P+22KI\n+\n", "square 22 is taken twice"),
        ("P+00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU\nP-51OU\n+\n", "more pawns than"),
        ("P-51OU\nP+00KE\n+\n+0012KE\n", "line 8: move 1 (+0012KE)"),
        ("".join("P%d%s\n" % (r, "+FU" * 9) for r in range(1, 10)) + "+\n", "position: more pawns than a set has (18)"),
        ("P-51OU\nP+11OU\nP+99OU\n+\n", "more kings than a set has (2)"),
        (BOARD + "+\nfoo\n", "'foo' is not a CSA statement"),
        ("PI99KA\n+\n", "PI: '99KA' does not name a piece"),
    ]
    for text, want in cases:
        good = "PI\n+\n+7776FU\n"
        p = sfen_of(good + "/\n" + text + "/\n" + good)
        check(p.returncode == 2 and want in p.stderr and ".csa: " in p.stderr and
              p.stdout.count("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f") == 2,
              "bad record %r: exit %d, stderr %r, stdout %r (want %r)" % (text[-40:], p.returncode, p.stderr[:300], p.stdout[:200], want))


def damaged():
    """Damaged records (bytes changed, cut, doubled; lines swapped): exit 0 or 2, a message
    for each bad game, valid SFEN lines for the rest, and no sanitizer report."""
    rng = random.Random(3701)
    games = [(s, m) for s, m in record_problems()[:30]] + [random_game(rng, 40) for _ in range(10)]
    texts = []
    with tempfile.TemporaryDirectory() as d:
        for i, (s, m) in enumerate(games):
            texts.append(export(s, m, os.path.join(d, "%d.csa" % i), rng))
    alphabet = "+-*0123456789PIVNT%',/\n FUKYKEGIKIKAHIOUTONYNKNGUMRYAL\x00\xff"
    for i in range(60 if SAN else 300):
        t = list(rng.choice(texts))
        for _ in range(rng.randrange(1, 6)):
            k = rng.randrange(len(t))
            op = rng.randrange(4)
            if op == 0:
                t[k] = rng.choice(alphabet)
            elif op == 1:
                del t[k:k + rng.randrange(1, 12)]
            elif op == 2:
                t[k:k] = t[k:k + rng.randrange(1, 30)]
            else:
                lines = "".join(t).split("\n")
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
                t = list("\n".join(lines))
        text = "".join(t)
        p = sfen_of(text)
        ok = p.returncode in (0, 2) and not any(w in p.stderr for w in ("runtime error", "Sanitizer"))
        ok = ok and (p.returncode == 0 or "tsumegen sfen: " in p.stderr)
        for line in p.stdout.splitlines():
            try:
                cshogi.Board(line.split(" moves ")[0])
            except Exception:
                ok = False
        check(ok, "damaged record %d: exit %d, %r\n%r" % (i, p.returncode, p.stderr[-300:], text[:300]))


def main():
    exported()
    damaged()
    hand_written()
    bad()
    return summary("csa")


if __name__ == "__main__":
    sys.exit(main())
