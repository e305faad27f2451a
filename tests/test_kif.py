#!/usr/bin/env python3
"""tsumegen sfen: KIF in, SFEN lines out.  Checked three ways:
- round trip: every Zuko problem and 200 ShogiBoardQ problems with their solutions,
  written by `tsumegen kif` into one multi-game file and read back, give the same
  position (compared by cshogi) and moves;
- against python-shogi's KIF reader on those files (cshogi's reads no diagrams),
  and against KIF that cshogi writes (Shift_JIS, time columns, player headers) for
  the same problems;
- hand-written dialects (王, 竜, 成銀, 残り全部, moves without their origin square,
  variations, a 平手 game) and bad input (a clear FILE:LINE message, exit 2);
  damaged files (bytes changed, cut, lines dropped) never crash it.
Last line: "kif: N passed, N failed"."""
import json
import os
import random
import subprocess
import sys
import tempfile

import cshogi
import cshogi.KIF
import shogi.KIF  # python-shogi

from data_rows import record_problems
from tally import check, summary

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
EXE = os.path.join(ROOT, os.environ.get("BIN", "bin"), "tsumegen")


def problems():
    """(sfen, [usi]) of Zuko 1-100 and the first 200 of the 13-ply ShogiBoardQ set."""
    out = record_problems("data/edo/zukou.tsv")
    path = os.path.join(ROOT, "data/third_party/shogiboardq/tsume_13ply_1000_20261001.txt")
    for l in open(path, encoding="utf-8").read().splitlines()[:200]:
        if l and not l.startswith("#"):
            sfen, _, moves = l.partition(" moves ")
            out.append((sfen, moves.split()))
    return out


def sfen_cmd(args, data=None):
    return subprocess.run([EXE, "sfen", *args], input=data, capture_output=True)


def same_position(a, b):
    return cshogi.Board(a).sfen() == cshogi.Board(b).sfen()


def same_board_and_hands(a, b):
    """python-shogi's KIF reader gives the side after the moves: compare the rest."""
    def norm(x):
        f = x.split()
        return cshogi.Board("%s b %s 1" % (f[0], f[2])).sfen()
    return norm(a) == norm(b)


def parse_lines(text):
    out = []
    for l in text.decode().splitlines():
        sfen, _, moves = l.partition(" moves ")
        out.append((sfen, moves.split()))
    return out


def round_trip(probs, tmp):
    """Our writer, our reader, cshogi's reader."""
    paths = []
    for i, (sfen, moves) in enumerate(probs):
        p = subprocess.run([EXE, "kif", sfen, "moves", *moves], capture_output=True)
        path = os.path.join(tmp, "p%04d.kif" % i)
        open(path, "wb").write(p.stdout)
        paths.append(path)
    together = os.path.join(tmp, "all.kif")
    with open(together, "wb") as f:
        for path in paths:
            f.write(open(path, "rb").read())
    p = sfen_cmd([together])
    got = parse_lines(p.stdout)
    check(p.returncode == 0 and len(got) == len(probs), "round trip: rc %d, %d games of %d: %s" %
          (p.returncode, len(got), len(probs), p.stderr[:300]))
    for (sfen, moves), (gs, gm) in zip(probs, got):
        check(same_position(sfen, gs) and gm == moves, "round trip: %s -> %s %s" % (sfen, gs, gm[:6]))
    for (sfen, moves), path, (gs, gm) in zip(probs[::5], paths[::5], got[::5]):
        k = shogi.KIF.Parser.parse_str(open(path, encoding="utf-8").read())[0]
        check(same_board_and_hands(k["sfen"], gs) and k["moves"] == gm,
              "python-shogi reads our KIF of %s the same: %s" % (sfen, k["sfen"]))


def cshogi_written(probs, tmp):
    """KIF that cshogi writes (Shift_JIS, headers, time columns) reads as the problem."""
    for i, (sfen, moves) in enumerate(probs):
        path = os.path.join(tmp, "c%04d.kif" % i)
        b = cshogi.Board(sfen)
        ex = cshogi.KIF.Exporter(path)
        ex.header(["attacker", "defender"], handicap=cshogi.Board(sfen))
        for u in moves:
            m = b.move_from_usi(u)
            ex.move(m)
            b.push(m)
        ex.end("resign")
        ex.close()
        p = sfen_cmd([path])
        got = parse_lines(p.stdout)
        check(p.returncode == 0 and len(got) == 1 and same_position(sfen, got[0][0]) and got[0][1] == moves,
              "cshogi's KIF of %s: rc %d %s %s" % (sfen, p.returncode, p.stdout[:200], p.stderr[:200]))


BOARD = """後手の持駒：{white}
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v桂v香|一
| ・ ・ ・ ・ ・ ・ ・ ・v王|二
| ・ ・ ・ ・ ・ ・ ・v歩 ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ 竜 ・ 成銀|九
+---------------------------+
先手の持駒：{black}
"""


def dialects(tmp):
    """Hand-written KIF: names and forms that other writers use."""
    # 王, 竜, 成銀 on the board; 残り全部; a move without origin; a variation skipped
    kif = BOARD.format(white="残り全部", black="金") + """手数----指手---------消費時間--
   1 ２二金打
   2 同　王(12)
   3 ２九竜
   まで3手で中断
変化：3手
   3 ３二金打
"""
    path = os.path.join(tmp, "d1.kif")
    open(path, "w", encoding="utf-8").write(kif)
    p = sfen_cmd([path])
    want = "7nl/8k/7p1/9/9/9/9/9/6+R1+S b Gr2b3g3s3n3l17p 1 moves G*2b 1b2b 3i2i"
    # (the variation's 3 ３二金打 is not read: only the main line)
    got = parse_lines(p.stdout)
    check(p.returncode == 0 and len(got) == 1 and same_position(got[0][0], want.split(" moves ")[0]) and
          got[0][1] == want.split(" moves ")[1].split(), "dialects: %s %s" % (p.stdout[:300], p.stderr[:300]))
    # Shift_JIS with CRLF, through stdin, with --strict-hands and an explicit defender hand
    kif2 = BOARD.format(white="なし", black="金") + "手数----指手---------消費時間--\n   1 ２二金打\nまで1手で詰み\n"
    p = sfen_cmd(["--strict-hands"], kif2.replace("\n", "\r\n").encode("cp932"))  # (Windows line ends too)
    got = parse_lines(p.stdout)
    check(p.returncode == 0 and got and got[0][0].split()[2] == "G" and got[0][1] == ["G*2b"],
          "Shift_JIS on stdin, strict hands: %s %s" % (p.stdout[:200], p.stderr[:200]))
    # a game from 平手 with no diagram
    p = sfen_cmd([], "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n".encode())
    check(p.stdout.decode().strip() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d",
          "平手: %s %s" % (p.stdout[:200], p.stderr[:200]))
    # the same without the 手数---- header: the numbered lines are still the moves
    # (they were once passed over as header lines, leaving the start position alone)
    p = sfen_cmd([], "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n".encode())
    check(p.returncode == 0 and p.stdout.decode().strip() ==
          "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d",
          "no 手数 header: %s %s" % (p.stdout[:200], p.stderr[:200]))
    p = sfen_cmd([], "手合割：平手\n1 ７六歩(77)\n2 bogus\n".encode())
    check(p.returncode == 2 and "not a move: 'bogus'" in p.stderr.decode(),
          "no 手数 header, a bad move: %s %s" % (p.stdout[:200], p.stderr[:200]))


def bad_input(tmp):
    """Each bad game: FILE:LINE on stderr, skipped, exit 2; the good ones still come out."""
    good = BOARD.format(white="残り全部", black="金") + "手数----指手---------消費時間--\n   1 ２二金打\n"
    cases = [
        ("illegal move", BOARD.format(white="残り全部", black="金") + "手数----\n   1 ５五金打\n   2 ５四王(12)\n", "line 17"),
        ("bad piece", BOARD.format(white="残り全部", black="金").replace("v桂", "v猫"), "line 4"),
        ("move number", BOARD.format(white="残り全部", black="金") + "手数----\n   2 ２二金打\n", "move number 2"),
        # (the number is read whole: 21 digits once overflowed an int, found by the fuzzer)
        ("huge move number", BOARD.format(white="残り全部", black="金") + "手数----\n   888888888888888888888 ２二金打\n",
         "move number 888888888888888888888, expected 1"),
        ("short board", "\n".join(BOARD.format(white="", black="").splitlines()[:8]) + "\n+---------------------------+\n", "not complete"),
        ("no diagram", "手数----指手\n   1 ７六歩(77)\n", "no board diagram"),
        ("handicap", "手合割：香落ち\n手数----指手\n   1 ３四歩(33)\n", "a handicap without a board diagram"),
        ("hand count", BOARD.format(white="残り全部", black="歩十八　歩"), "more than 18"),
        ("full of dragons", BOARD.format(white="", black="").replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四", "| 龍 龍 龍 龍 龍 龍 龍 龍 龍|四").replace(
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五", "| 龍 龍 龍 龍 龍 龍 龍 龍 龍|五"), "line 1: "),
        ("two kings", BOARD.format(white="残り全部", black="").replace("| ・ ・ ・ ・ ・ ・ ・ ・ ・|五", "| ・ ・ ・ ・v玉 ・ ・ ・ ・|五"), "line"),
    ]
    for what, text, needle in cases:
        path = os.path.join(tmp, "bad.kif")
        open(path, "w", encoding="utf-8").write(text + good)
        p = sfen_cmd([path])
        err = p.stderr.decode()  # (valid UTF-8: a message never cuts a character)
        check(p.returncode == 2 and ("bad.kif: " in err) and needle in err and
              len(parse_lines(p.stdout)) == 1, "bad input (%s): rc %d, %s / %s" % (what, p.returncode, err[:300], p.stdout[:200]))
    p = sfen_cmd([], b"\x80\x80\xff\n")
    check(p.returncode == 2 and b"neither UTF-8 nor Shift_JIS" in p.stderr, "undecodable: %s" % p.stderr[:200])
    p = sfen_cmd(["--bogus"])
    check(p.returncode == 2 and b"unknown option" in p.stderr, "unknown option: %s" % p.stderr[:200])
    p = sfen_cmd([os.path.join(tmp, "missing.kif")])
    check(p.returncode == 2 and b"cannot open" in p.stderr, "missing file: %s" % p.stderr[:200])


def solve_kif_files(probs, tmp):
    """solve FILE.kif: one answer per game, the record compared; a bad game answers
    "error" in its place (exit 2); SFENs and KIF files together are refused."""
    path = os.path.join(tmp, "three.kif")
    with open(path, "wb") as f:
        for sfen, moves in (probs[1], probs[4]):
            f.write(subprocess.run([EXE, "kif", sfen, "moves", *moves], capture_output=True).stdout)
            if sfen == probs[1][0]:
                f.write("手合割：香落ち\n手数----\n   1 ３四歩(33)\n".encode())
    # (with the flaw analysis: the second problem's tied defences at ply 14 (変同) are
    # settled on the clean line, the record's; --no-flaws takes the first in
    # generation order, whose line has 余詰)
    p = subprocess.run([EXE, "solve", "--threads", "1", path], capture_output=True, text=True)
    got = [json.loads(l) for l in p.stdout.splitlines()]
    check(p.returncode == 2 and len(got) == 3 and
          got[0]["result"] == "mate" and got[0]["length"] == len(probs[1][1]) and got[0].get("record_match") is True and
          got[1]["result"] == "error" and "three.kif: line " in got[1]["error"] and
          got[2]["result"] == "mate" and got[2]["length"] == len(probs[4][1]) and got[2].get("record_match") is True,
          "solve FILE.kif: rc %d %s %s" % (p.returncode, p.stdout[:400], p.stderr[:200]))
    # the same book on stdin, in Shift_JIS: read as KIF, not as SFEN lines
    sjis = open(path, encoding="utf-8").read().encode("cp932")
    p = subprocess.run([EXE, "solve", "--threads", "1"], input=sjis, capture_output=True)
    again = [json.loads(l) for l in p.stdout.decode().splitlines()]
    check(p.returncode == 2 and [a["result"] for a in again] == ["mate", "error", "mate"] and
          "stdin: line " in again[1]["error"], "solve < book (Shift_JIS): %s %s" % (p.stdout[:300], p.stderr[:200]))
    p = subprocess.run([EXE, "solve", path, probs[1][0]], capture_output=True, text=True)
    check(p.returncode == 2 and "not both" in p.stderr, "solve with SFEN and KIF: %s" % p.stderr[:200])


def mutations(probs, tmp, count=300):
    """Damaged KIF (bytes changed, cut, lines dropped or repeated, seeded): never a
    crash or a sanitizer report, only answers or FILE:LINE messages (exit 0 or 2)."""
    rng = random.Random(20261128)
    bases = []
    for sfen, moves in probs[:20]:
        bases.append(subprocess.run([EXE, "kif", sfen, "moves", *moves], capture_output=True).stdout)
    bad = 0
    for i in range(count):
        data = bytearray(rng.choice(bases))
        kind = i % 4
        if kind == 0:
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif kind == 1:
            data = data[:rng.randrange(len(data))]
        else:
            lines = data.split(b"\n")
            j = rng.randrange(len(lines))
            if kind == 2:
                del lines[j]
            else:
                lines.insert(j, lines[rng.randrange(len(lines))])
            data = bytearray(b"\n".join(lines))
        p = sfen_cmd([], bytes(data))
        if p.returncode not in (0, 2) or b"Sanitizer" in p.stderr or b"runtime error" in p.stderr:
            bad += 1
            if bad <= 3:
                print("mutation %d: rc %d %s" % (i, p.returncode, p.stderr[-300:]))
    check(bad == 0, "%d of %d damaged KIF texts crashed the reader" % (bad, count))


def main():
    probs = problems()
    with tempfile.TemporaryDirectory() as tmp:
        round_trip(probs, tmp)
        cshogi_written(probs[:60], tmp)
        dialects(tmp)
        bad_input(tmp)
        solve_kif_files(probs, tmp)
        mutations(probs, tmp)
    return summary("kif")


if __name__ == "__main__":
    sys.exit(main())
