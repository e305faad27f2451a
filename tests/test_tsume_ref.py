#!/usr/bin/env python3
"""test_tsume_ref.py - `tsumegen solve` against tsume_ref.py, an independent brute-force
implementation of TSUME_RULES.md (the futile-interposition rule included) on cshogi.

1. The reference itself on the regression positions whose answers are documented upstream
   (futile drops in every one but two): it must give those lengths.
2. Four groups of positions, each with a bound B (7 to 13 plies): near the end of the
   Edo classics (data/edo: Zuko and Muso records with 1, 3, 5, 7, 9 plies left); the
   ShogiBoardQ 5- to 13-ply problems after the first check and every legal reply (futile
   drops included); ShogiBoardQ 3- to 13-ply problems spoiled one way each (near misses:
   mostly no mate, the disproof side of the rule); random tsume-like positions
   (test_oracle's generator, fixed seed).  Wherever the reference decides "exact length
   L <= B" or "no mate within B" within NODE_LIMIT nodes, tsumegen (`solve --max-length
   B`) must agree: a mate of length L, proven exact; or no mate of
   at most B plies.  Each group's count of decided positions, and of drops the reference
   found futile, must reach a floor, so the comparison cannot pass by skipping.
   (With the reference's futility test switched off, i.e. the plain rule, 73 positions of
   the first three groups disagree: the comparison sees the rule.)
3. 余詰 (tsume_ref.PlainForbidden): on ShogiBoardQ problems (perfect upstream), on the
   same problems with a defender hand piece given to the attacker (often cooked), and on
   the mates of the Edo tails and random positions above, `solve --yozume-depth 2`
   lists an alternative check at a main-line attacker node (not the last) exactly when
   the reference finds a mate after it within the plies left + 2 that never reaches a
   later main-line position (迂回 excluded).  (With no forbidden positions, 5 detours of
   the gift group are counted as 余詰: the comparison sees 迂回.)  And the first
   MAIN_LINES main lines of each group under the reference (mainline_check): exact
   values along it, the attacker's moves shortest, the defender's longest and real.
Last line: "tsume-ref: N passed, N failed" (one count per position or alternative compared).
"""
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time

import cshogi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data_rows import data_rows  # noqa: E402
from sfen_grid import board_rows, board_text  # noqa: E402
from tally import check, summary  # noqa: E402
from tsume_ref import PlainForbidden, TsumeRef, Undecided, legal_checks  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("BIN", "bin")
EXE = os.path.join(ROOT, BIN, "tsumegen")
SAN = "san" in BIN
NODE_LIMIT = 25_000


DOCUMENTED = {"yo162a": 3, "yo162b": 3, "sug20": 3, "sug1": 5, "sug10": 3, "sug7": 7, "yo257a": 5, "fsf644": 1}


def documented():
    for row in data_rows("data/regressions/positions.tsv"):
        if row[0] in DOCUMENTED:
            ref = TsumeRef(2_000_000)
            got = ref.exact_or(cshogi.Board(row[1]), 9)
            check(got == DOCUMENTED[row[0]], "reference on %s: %s, documented %d" % (row[0], got, DOCUMENTED[row[0]]))


def check_generator(cases, steps=10):
    """tsume_ref.legal_checks (cshogi's check generator kept to the legal moves) gives
    the same moves as pushing every legal move and asking is_check:
    the reference and the suite's exhaustive search rest on it.  On each case and the
    positions of a random walk from it where the side not to move has a king (the
    random candidates: White attacks a fifth of the time, the attacker's king sometimes
    on the board)."""
    rng, positions, differ = random.Random(7), 0, []
    for name, sfen, _ in cases:
        b = cshogi.Board(sfen)
        for _ in range(steps):
            if "kK"[b.turn] in b.sfen().split(" ")[0]:
                want = []
                for m in list(b.legal_moves):
                    b.push(m)
                    if b.is_check():
                        want.append(m)
                    b.pop()
                positions += 1
                if sorted(legal_checks(b)) != sorted(want):
                    differ.append("%s: %s" % (name, b.sfen()))
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
    check(not differ and positions >= 3 * len(cases),
          "legal_checks against every legal move with is_check: %d of %d positions differ: %s" %
          (len(differ), positions, differ[:3]))
    return positions


def edo_tails(scale):
    """Attacker-to-move positions of the Edo records with 1, 3, 5, 7, 9 record plies left
    (bound 7, and 9 for the last)."""
    out = []
    for path in ("data/edo/zukou.tsv", "data/edo/musou.tsv"):
        rows = data_rows(path)
        for row in rows[:int(len(rows) * scale)]:
            moves = row[3].split()
            for left in (1, 3, 5, 7, 9):
                if left > len(moves):
                    continue
                b = cshogi.Board(row[2])
                for m in moves[:len(moves) - left]:
                    b.push_usi(m)
                out.append(("%s-%d" % (row[0], left), b.sfen(), max(7, left)))
    return out


def shogiboardq(ply, count):
    path = "data/third_party/shogiboardq/tsume_%dply_1000_20261001.txt" % ply
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")][:count]


def shogiboardq_replies(scale):
    """After the first check of ShogiBoardQ 5- to 13-ply problems, every legal reply
    (bound: the plies left on the main line, at least 7)."""
    out = []
    for ply, count in ((5, 200), (7, 200), (11, 200), (13, 100)):
        for i, line in enumerate(shogiboardq(ply, int(count * scale))):
            sfen, _, usi = line.partition(" moves ")
            b = cshogi.Board(sfen)
            b.push_usi(usi.split()[0])
            for m in list(b.legal_moves):
                b.push(m)
                out.append(("sbq%d-%d-%s" % (ply, i, cshogi.move_to_usi(m)), b.sfen(), max(7, ply - 2)))
                b.pop()
    return out


def legal_for_tsume(sfen):
    """Attacker to move, defender not in check, defender king present, and cshogi calls
    the position sound."""
    b = cshogi.Board(sfen)
    if not b.is_ok():
        return False
    side, rest = sfen.split(" ")[1], sfen.split(" ")[2:]
    other = cshogi.Board(" ".join([sfen.split(" ")[0], "w" if side == "b" else "b"] + rest))
    return not other.is_check()


def near_misses(scale):
    """ShogiBoardQ 3-, 5- and 7-ply problems spoiled one way each: an attacker hand piece
    handed to the defender; an attacker board piece taken off (to the defender's hand);
    a defender gold dropped on a free square next to its king.  Mostly no mate, or a
    longer one, or one with other futile drops: the disproof side of the rule."""
    out = []
    for ply, count in ((3, 150), (5, 150), (7, 150), (11, 50), (13, 30)):
        for i, line in enumerate(shogiboardq(ply, int(count * scale))):
            sfen = line.partition(" moves ")[0]
            board, side, hand, num = sfen.split(" ")
            b = cshogi.Board(sfen)
            variants = []
            bh, wh = b.pieces_in_hand
            for k in range(7):  # an attacker hand piece to the defender
                if bh[k]:
                    hs = _hand_str([h - (j == k) for j, h in enumerate(bh)], [h + (j == k) for j, h in enumerate(wh)])
                    variants.append(("hand%d" % k, " ".join((board, side, hs, num))))
                    break
            rows = board_rows(board)
            for sq in range(81):  # the first attacker board piece that is no king, off the board
                f, r = sq // 9, sq % 9
                ch = rows[r][8 - f]
                if ch.isupper() and ch != "K":
                    kind = ch[-1]
                    rows2 = [list(x) for x in rows]
                    rows2[r][8 - f] = "."
                    wk = [h for h in wh]
                    wk["PLNSGBR".index(kind)] += 1
                    variants.append(("off%d" % sq, " ".join((board_text(rows2), side, _hand_str(bh, wk), num))))
                    break
            ksq = b.king_square(cshogi.WHITE)
            if wh[4]:  # a defender gold next to its king
                kf, kr = ksq // 9, ksq % 9
                for df, dr in ((0, 1), (1, 0), (-1, 0), (1, 1), (-1, 1), (0, -1)):
                    f, r = kf + df, kr + dr
                    if 0 <= f < 9 and 0 <= r < 9 and rows[r][8 - f] == ".":
                        rows2 = [list(x) for x in rows]
                        rows2[r][8 - f] = "g"
                        wk = [h for h in wh]
                        wk[4] -= 1
                        variants.append(("gold%d" % (f * 9 + r), " ".join((board_text(rows2), side, _hand_str(bh, wk), num))))
                        break
            for tag, v in variants:
                if legal_for_tsume(v):
                    out.append(("sbq%d-%d-%s" % (ply, i, tag), v, max(7, ply)))
    return out


def _hand_str(bh, wh):
    out = ""
    for c, counts in ((0, bh), (1, wh)):
        for k in (6, 5, 4, 3, 2, 1, 0):
            n = counts[k]
            if n:
                letter = "PLNSGBR"[k]
                out += (str(n) if n > 1 else "") + (letter if c == 0 else letter.lower())
    return out or "-"


def random_candidates(count, seed=20261127, bound=7, attacker_in_check=False):
    """Random tsume-like positions (test_oracle's generator: attacker king sometimes
    present, White attacking a fifth of the time) that are legal and have a check;
    with the attacker (side to move) in check or not, as asked.  One generated
    position in about 500 has the attacker in check with a check to answer it
    (legal under TSUME_RULES.md, which rejects only the side not to move in check)."""
    from test_oracle import gen_candidate
    rng, out = random.Random(seed), []
    while len(out) < count:
        full, _, bad = gen_candidate(rng)
        if bad:
            continue
        b = cshogi.Board(full)
        if b.is_check() != attacker_in_check:
            continue
        checks = 0
        for m in list(b.legal_moves):
            b.push(m)
            checks += b.is_check()
            b.pop()
        if checks:
            out.append(("%s%d-%d" % ("incheck" if attacker_in_check else "random", seed, len(out)), full, bound))
    return out


def reference(case):
    """(decided, exact length or None, drops found futile) for one (name, sfen, bound)."""
    ref = TsumeRef(NODE_LIMIT)
    try:
        return True, ref.exact_or(cshogi.Board(case[1]), case[2]), ref.futile_found
    except Undecided:
        return False, None, ref.futile_found


def compare(cases):
    """cases: (name, sfen, bound).  The reference first (each position its own solver,
    NODE_LIMIT nodes); then tsumegen on the decided ones, one batch per bound."""
    decided, futile, undecided = [], 0, 0
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        answers = pool.map(reference, cases, chunksize=8)
    for (name, sfen, bound), (ok, n, fut) in zip(cases, answers):
        if not ok:
            undecided += 1
            continue
        futile += fut
        decided.append((name, sfen, bound, n))
    for bound in sorted({c[2] for c in decided}):
        batch = [c for c in decided if c[2] == bound]
        inp = "".join(c[1] + "\n" for c in batch)
        p = subprocess.run([EXE, "solve", "--no-flaws", "--threads", "2", "--time", "20000", "--max-length", str(bound)],
                           input=inp, capture_output=True, text=True)
        res = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        check(len(res) == len(batch), "solve printed %d lines for %d inputs: %s" % (len(res), len(batch), p.stderr[:300]))
        for (name, sfen, _, n), r in zip(batch, res):
            if n is None:  # no mate within the bound: ours must prove the same
                ok = r["result"] == "nomate" or (r["result"] == "unknown" and r.get("length_lb", 0) > bound)
                check(ok, "%s %s: reference none within %d, tsumegen %s" % (name, sfen, bound, json.dumps(r)[:300]))
            else:
                ok = r["result"] == "mate" and r["length"] == n and "length_exact" not in r
                check(ok, "%s %s: reference exact %d, tsumegen %s" % (name, sfen, n, json.dumps(r)[:300]))
    mates = [c[:2] for c in decided if c[3] is not None]
    return len(decided), mates, futile, undecided


def gifts(count):
    """ShogiBoardQ 3- to 11-ply problems with one defender hand piece (the first kind
    held) given to the attacker: extra material, so often a 余詰."""
    out = []
    for ply, n in ((3, count), (5, count), (7, count), (11, count // 2)):
        for i, line in enumerate(shogiboardq(ply, n)):
            sfen = line.partition(" moves ")[0]
            board, side, _, num = sfen.split(" ")
            bh, wh = cshogi.Board(sfen).pieces_in_hand
            for k in (4, 3, 5, 6, 2, 1, 0):  # gold, silver, bishop, rook, knight, lance, pawn
                if wh[k]:
                    v = " ".join((board, side, _hand_str([h + (j == k) for j, h in enumerate(bh)],
                                                         [h - (j == k) for j, h in enumerate(wh)]), num))
                    if legal_for_tsume(v):
                        out.append(("gift%d-%d" % (ply, i), v))
                    break
    return out


YOZUME_EXTRA = 2
MAIN_LINES = 15 if SAN else 150  # main lines checked per group


def yozume_questions(name, r):
    """For a mate tsumegen answered with a complete analysis: every (ply, alternative
    check) its 余詰 test asks about, with the forbidden later main-line positions."""
    b = cshogi.Board(r["sfen"])
    keys = [b.zobrist_hash()]
    for mv in r["pv"]:
        b.push_usi(mv)
        keys.append(b.zobrist_hash())
    L = len(r["pv"])
    b = cshogi.Board(r["sfen"])
    out = []
    for k in range(0, L - 1, 2):
        if k > 0:
            b.push_usi(r["pv"][k - 2])
            b.push_usi(r["pv"][k - 1])
        for m in list(b.legal_moves):
            u = cshogi.move_to_usi(m)
            if u == r["pv"][k] or u.rstrip("+") == r["pv"][k].rstrip("+") and not cshogi.move_is_drop(m):
                continue  # the main line's move, or it with the other promotion choice (a note)
            b.push(m)
            if b.is_check() and b.zobrist_hash() not in keys[k + 1:]:  # (a detour at once)
                out.append((name, b.sfen(), k + 1, u, keys[k + 1:], L - k + YOZUME_EXTRA))
            b.pop()
    return out


def yozume_question(q):
    """(decided, mated?) for one question of yozume_questions."""
    ref = PlainForbidden(q[4], NODE_LIMIT)
    try:
        return True, ref.mated_within(cshogi.Board(q[1]), q[5])
    except Undecided:
        return False, False


def mainline_check(item):
    """(decided, None or what is wrong) for tsumegen's main line (name, sfen, pv) under the
    reference: every attacker node on it is mated in exactly the plies left and its move
    keeps that (a shortest mate); every defender node is mated in exactly the plies left
    and its move, if a drop, is a real defence (so with the next attacker node's exact
    value, a longest one); the line ends in mate."""
    name, sfen, pv = item
    ref = TsumeRef(4 * NODE_LIMIT)
    b = cshogi.Board(sfen)
    try:
        for j, mv in enumerate(pv):
            left = len(pv) - j
            if j % 2 == 0:
                if ref.exact_or(b, left) != left:
                    return True, "ply %d: the attacker is not mated in exactly %d" % (j + 1, left)
            else:
                if not ref.and_within(b, left) or ref.and_within(b, left - 2):
                    return True, "ply %d: the defender is not mated in exactly %d" % (j + 1, left)
                m = b.move_from_usi(mv)
                if cshogi.move_is_drop(m):
                    others = [x for x in b.legal_moves if not cshogi.move_is_drop(x)]
                    if ref._drop_futile(b, b.zobrist_hash(), m, others):
                        return True, "ply %d: %s is a futile drop" % (j + 1, mv)
            b.push_usi(mv)
        if not ref.and_within(b, 0):
            return True, "the last position is no mate"
    except Undecided:
        return False, None
    return True, None


def yozume(cases):
    """tsumegen's 余詰 list (solve --yozume-depth YOZUME_EXTRA) against the reference:
    an alternative check at an attacker node of the main line (not its last) is listed
    exactly when it mates within the plies left + YOZUME_EXTRA without passing through a
    later main-line position."""
    inp = "".join(c[1] + "\n" for c in cases)
    p = subprocess.run([EXE, "solve", "--threads", "2", "--time", "20000", "--yozume-depth", str(YOZUME_EXTRA)],
                       input=inp, capture_output=True, text=True)
    res = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    check(len(res) == len(cases), "solve printed %d lines for %d inputs: %s" % (len(res), len(cases), p.stderr[:300]))
    questions, listed, solved, lines = [], {}, 0, []
    for (name, _), r in zip(cases, res):
        if r["result"] != "mate" or "length_exact" in r or len(r["pv"]) > 11 or len(r["yozume"]) >= 32 or \
                any("incomplete" in n for n in r["notes"]):
            continue
        solved += 1
        listed[name] = {(y["ply"], y["move"]) for y in r["yozume"]}
        questions += yozume_questions(name, r)
        if len(lines) < MAIN_LINES:
            lines.append((name, r["sfen"], r["pv"]))
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        answers = pool.map(yozume_question, questions, chunksize=8)
        line_answers = pool.map(mainline_check, lines, chunksize=4)
    lines_decided = 0
    for (name, sfen, pv), (ok, wrong) in zip(lines, line_answers):
        lines_decided += ok
        if ok:
            check(wrong is None, "%s %s: main line %s: %s" % (name, sfen, " ".join(pv), wrong))
    decided = cooks = 0
    for q, (ok, mated) in zip(questions, answers):
        if not ok:
            continue
        decided += 1
        cooks += mated
        got = (q[2], q[3]) in listed[q[0]]
        check(got == mated, "%s %s: ply %d %s %s within %d by the reference, tsumegen %s" %
              (q[0], q[1], q[2], q[3], "mates" if mated else "does not mate", q[5], "lists it" if got else "does not"))
    check(lines_decided >= len(lines) // 2, "only %d of %d main lines decided by the reference" % (lines_decided, len(lines)))
    return solved, len(questions), decided, cooks


def main():
    t0 = time.time()
    documented()
    tails = edo_tails(0.2 if SAN else 1)
    replies = shogiboardq_replies(0.1 if SAN else 1)
    spoiled = near_misses(0.1 if SAN else 1)
    candidates, in_check = random_candidates(60 if SAN else 300), random_candidates(15 if SAN else 60, 20261205, 9, True)
    print("legal_checks: %d positions compared" % check_generator(tails + candidates + in_check))
    mated = {}
    for label, cases, floor in (("Edo record tails", tails, 100 if SAN else 600), ("ShogiBoardQ replies", replies, 80 if SAN else 800),
                                ("ShogiBoardQ near misses", spoiled, 100 if SAN else 700),
                                ("random candidates", candidates, 40 if SAN else 220),
                                ("attacker in check", in_check, 8 if SAN else 40)):
        t = time.time()
        n, mates, futile, undecided = compare(cases)
        mated[label] = mates
        print("%s: %d positions, %d decided by the reference (%d mates, %d futile drops), %d over %d nodes, %.1f s" %
              (label, len(cases), n, len(mates), futile, undecided, NODE_LIMIT, time.time() - t))
        check(n >= floor and futile > 0, "%s: only %d decided (floor %d), %d futile drops" % (label, n, floor, futile))
    for label, cases, floor in (("ShogiBoardQ problems", [("sbq%d-%d" % (ply, i), l.partition(" moves ")[0])
                                                          for ply in (3, 5, 7, 11)
                                                          for i, l in enumerate(shogiboardq(ply, 10 if SAN else 150))], 20),
                                ("ShogiBoardQ gifts", gifts(10 if SAN else 200), 20),
                                ("Edo record tails", mated["Edo record tails"], 100 if SAN else 500),
                                ("random candidates", mated["random candidates"], 20),
                                # (the sanitizer build's 15 starts give 5 mates with no alternative check)
                                ("attacker in check", mated["attacker in check"], 0 if SAN else 20)):
        t = time.time()
        solved, nq, decided, cooks = yozume(cases)
        print("余詰, %s: %d mates analysed, %d alternative checks, %d decided by the reference (%d mate), %.1f s" %
              (label, solved, nq, decided, cooks, time.time() - t))
        check(decided >= floor, "余詰, %s: only %d alternatives decided (floor %d)" % (label, decided, floor))
    print("%.1f s" % (time.time() - t0))
    return summary("tsume-ref")


if __name__ == "__main__":
    sys.exit(main())
