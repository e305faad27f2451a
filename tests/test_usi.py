#!/usr/bin/env python3
"""test_usi.py - `tsumegen usi`, the USI tsume engine a shogi GUI talks to.

A client here speaks the protocol over pipes, as a GUI does, and checks:
1. the handshake (usi -> id, options, usiok; isready -> readyok) and setoption;
2. go mate on ShogiBoardQ problems and the futile-drop regressions: `checkmate` with the
   published length, the same line as `tsumegen solve` gives, and (cshogi, independent)
   every move legal, every attacker move a check, mate at the end; `position ... moves`
   two plies into a line answers the rest of it;
3. near-miss negatives (an attacker's hand piece given to the defender) that solve proves
   no mate: `checkmate nomate`, and cshogi's df-pn finds no mate either;
4. limits: go mate with a short time on Zuko 8 (no mate found in minutes) answers
   `checkmate timeout`, never nomate, soon after the time; go mate infinite answers
   isready while it searches, prints progress, and answers timeout soon after stop (the
   found mate's line when the progress had shown one);
5. bad input: an unreadable position or an illegal move is named in `info string error`,
   and go mate on it answers timeout; unknown commands and options are named; go without
   mate answers bestmove resign; quit and the end of input end the engine (exit 0);
6. damaged commands (mutated SFENs, stray tokens, a 100 kB line): every go mate still gets
   one checkmate line, isready still answers, and no sanitizer report on stderr.
Last line: "usi: N passed, N failed".
"""
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

import cshogi
from cshogi_lines import cshogi_finds_no_mate, play_checks
from data_rows import record_sfen
from sfen_grid import board_rows, board_text
from tally import check, summary

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("BIN", "bin")
EXE = os.path.join(ROOT, BIN, "tsumegen")
SAN = "san" in BIN
SLACK = 6.0 if SAN else 2.0  # seconds an answer may come after its time limit


class Engine:
    """One `tsumegen usi` process; lines read on a thread so that waits can time out."""

    def __init__(self):
        self.p = subprocess.Popen([EXE, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *cmds):
        for c in cmds:
            self.p.stdin.write(c + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout):
        """Lines up to and including the first for which pred holds (None: timed out or EOF)."""
        got, end = [], time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                return got, None
            if line is None:
                return got, None
            got.append(line)
            if pred(line):
                return got, line

    def go_mate(self, position, limit="60000", timeout=70):
        self.send("position " + position, "go mate " + limit)
        return self.until(lambda l: l.startswith("checkmate"), timeout)

    def close(self):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        try:
            return self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None
        finally:
            err = self.p.stderr.read()
            check(not re.search("runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer", err),
                  "sanitizer report: %s" % err[:500])


def data_lines(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def solve_pv(sfens, ms="60000"):
    inp = "".join(s + "\n" for s in sfens)
    p = subprocess.run([EXE, "solve", "--no-flaws", "--threads", "2", "--time", ms], input=inp,
                       capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def replay_mates(sfen, moves):
    """cshogi: every move legal, the attacker's moves give check, and at the end the king
    is in check and every legal reply is a drop between (futile under TSUME_RULES: the
    solver's judgement, which cshogi cannot make), usually none at all."""
    b, why = play_checks(sfen, moves)
    if why:
        return why
    if not b.is_check() or any(not cshogi.move_is_drop(m) for m in b.legal_moves):
        return "no mate at the end"
    return None


def handshake(e):
    e.send("usi")
    got, last = e.until(lambda l: l == "usiok", 10)
    check(last == "usiok", "usi: no usiok (%s)" % got)
    check(any(l == "id name tsumegen" for l in got), "usi: no id name (%s)" % got)
    for opt in ("USI_Hash type spin", "Threads type spin", "StrictHands type check", "Flaws type check"):
        check(any(l.startswith("option name " + opt) for l in got), "usi: option %s missing (%s)" % (opt, got))
    e.send("setoption name USI_Hash value 64", "setoption name USI_Ponder value false", "isready")
    got, last = e.until(lambda l: l == "readyok", 30)
    check(last == "readyok" and not any("error" in l for l in got), "isready after setoption: %s" % got)


def mates(e):
    """go mate on problems with a known length against solve's line and cshogi's replay."""
    count = 4 if SAN else 12
    cases = []
    for ply in (3, 7, 13):
        for l in data_lines("data/third_party/shogiboardq/tsume_%dply_1000_20261001.txt" % ply)[:count]:
            sfen, moves = l.split(" moves ")
            cases.append((sfen, ply, None))  # (the record is one of the tied main lines)
    # futile interpositions: engines that count them as defences answer 13 and 7 (YaneuraOu#162)
    cases.append(("5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1", 3, None))
    cases.append(("9/5g1s1/8k/6+R2/9/6R1S/5B3/9/9 b b3g2s4n4l18p 1", 3, None))
    cases.append(("9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1", 5, "2d1c 1b1c N*2e 1c1b 4d1d".split()))
    ref = solve_pv([c[0] for c in cases])
    for (sfen, n, record), r in zip(cases, ref):
        got, last = e.go_mate("sfen " + sfen)
        moves = last.split()[1:] if last else []
        check(last is not None and len(moves) == n, "go mate %s: %s (expected %d plies)" % (sfen, got[-3:], n))
        check(moves == r.get("pv"), "go mate %s: %s, solve's pv %s" % (sfen, moves, r.get("pv")))
        if record:
            check(moves == record, "go mate %s: %s, the record %s" % (sfen, moves, record))
        bad = replay_mates(sfen, moves) if moves else "no moves"
        check(bad is None, "go mate %s: cshogi: %s in %s" % (sfen, bad, moves))
        check(any(l.startswith("info string mate in %d, shortest proved" % n) for l in got), "go mate %s: %s" % (sfen, got))
    # two plies into a 13-ply line: the rest of it
    sfen, n, _ = cases[2 * count]
    line = ref[2 * count]["pv"]
    got, last = e.go_mate("sfen %s moves %s %s" % (sfen, line[0], line[1]))
    check(last is not None and last.split()[1:] == line[2:], "position with moves: %s, expected %s" % (last, line[2:]))
    # startpos with moves is read too (no check for the side to move: no mate here)
    got, last = e.go_mate("startpos moves 7g7f 3c3d", "3000", 3 + SLACK)
    check(last in ("checkmate nomate", "checkmate timeout"), "startpos moves: %s" % got)


def nomates(e):
    """Near-miss negatives: 5-ply problems with one attacker board piece removed (it goes to
    the defender by the hand convention); those solve proves no mate."""
    cands = []
    for l in data_lines("data/third_party/shogiboardq/tsume_5ply_1000_20261001.txt")[:12]:
        f = l.split(" moves ")[0].split()
        rows = board_rows(f[0])
        # the attacker's hand; the rest is the defender's
        hand = "".join(n + k for n, k in re.findall(r"(\d*)([A-Za-z])", f[2]) if k.isupper())
        for r in range(9):
            for c in range(9):
                if rows[r][c].isupper() and rows[r][c] not in ("K", "+K"):
                    gone = [row[:] for row in rows]
                    gone[r][c] = "."
                    cands.append(" ".join([board_text(gone), f[1], hand or "-", "1"]))
    ref = solve_pv(cands, "3000")
    shown = 0
    for sfen, r in zip(cands, ref):
        if r.get("result") != "nomate" or shown >= (3 if SAN else 8):
            continue
        shown += 1
        check(cshogi_finds_no_mate(cshogi.Board(sfen), 31, 300000), "nomate %s: cshogi finds a mate or stops undecided" % sfen)
        got, last = e.go_mate("sfen " + sfen)
        check(last == "checkmate nomate", "go mate %s: %s (solve: nomate)" % (sfen, got[-3:]))
    check(shown >= 2, "only %d near-miss negatives proved nomate by solve" % shown)


def limits(e):
    zuko8 = record_sfen("zukou-008")
    t = time.time()
    got, last = e.go_mate("sfen " + zuko8, "400", 0.4 + SLACK + 3)
    took = time.time() - t
    check(last == "checkmate timeout", "Zuko 8 in 400 ms: %s" % got[-3:])
    check(took < 0.4 + SLACK + 2, "Zuko 8 in 400 ms answered after %.1f s" % took)
    e.send("position sfen " + zuko8, "go mate infinite")
    time.sleep(2.5)
    t = time.time()
    e.send("isready")
    got, last = e.until(lambda l: l == "readyok" or l.startswith("checkmate"), 5)
    check(last == "readyok", "isready during a search: %s" % got)
    check(time.time() - t < 2, "readyok during a search came after %.1f s" % (time.time() - t))
    check(any(l.startswith("info time ") and " nodes " in l for l in got), "no progress info in 2.5 s: %s" % got)
    t = time.time()
    e.send("stop")
    got, last = e.until(lambda l: l.startswith("checkmate"), 5 + SLACK)
    check(last == "checkmate timeout", "stop: %s" % got[-3:])
    check(time.time() - t < SLACK, "stop answered after %.1f s" % (time.time() - t))
    # a mate found but not proved shortest in the time (Zuko 21: mate 27 within a
    # second or two, exact 25 out of reach): its line, which must mate (cshogi), and
    # an info string saying so; a slow build may find none in the time (timeout)
    zuko21 = record_sfen("zukou-021")
    got, last = e.go_mate("sfen " + zuko21, "4000", 4 + SLACK + 3)
    if last and last != "checkmate timeout":
        moves = last.split()[1:]
        bad = replay_mates(zuko21, moves)
        # (one variation: its defences need not be the longest, so it may be shorter than 25)
        check(bad is None and len(moves) % 2 == 1, "Zuko 21 in 4 s: cshogi: %s in %s" % (bad, moves))
        check(any("not proved shortest" in l for l in got), "Zuko 21 in 4 s: no info string: %s" % got[-3:])
    else:
        check(last == "checkmate timeout", "Zuko 21 in 4 s: no answer: %s" % got[-3:])
        print("Zuko 21 in 4 s: no mate found in the time")
    # stop after the progress says a mate was found: the answer is that mate's line
    # (it once was "checkmate timeout": the stop cut the line's repair searches too)
    e.send("position sfen " + zuko21, "go mate infinite")
    got, last = e.until(lambda l: re.search(r"string mate \d+ found", l) or l.startswith("checkmate"), 20 + SLACK)
    if last and not last.startswith("checkmate"):
        t = time.time()
        e.send("stop")
        got, last = e.until(lambda l: l.startswith("checkmate"), 5 + SLACK)
        check(time.time() - t < SLACK, "stop after a mate answered after %.1f s" % (time.time() - t))
        moves = last.split()[1:] if last else []
        bad = replay_mates(zuko21, moves) if moves and moves[0] != "timeout" else "no line"
        check(bad is None and len(moves) % 2 == 1, "Zuko 21, stop after a mate: %s: %s" % (bad, got[-3:]))
    else:
        print("Zuko 21 infinite: no mate found in %d s" % (20 + SLACK))
        if last is None:  # (still searching: stopped here, so that its answer is not the next one's)
            e.send("stop")
            got, last = e.until(lambda l: l.startswith("checkmate"), 5 + SLACK)
            check(last is not None, "Zuko 21 infinite: no answer after stop: %s" % got[-3:])
    # a stop with no search running must not cut the next one short
    e.send("stop")
    got, last = e.go_mate("sfen 5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1")
    check(last is not None and len(last.split()) == 4, "go mate after a stray stop: %s" % got[-3:])


def bad_input(e):
    e.send("position sfen 9/9/9 b - 1", "go mate 1000")
    got, last = e.until(lambda l: l.startswith("checkmate"), 10)
    check(any(l.startswith("info string error: position:") for l in got), "bad sfen not named: %s" % got)
    check(last == "checkmate timeout", "go mate on a bad sfen: %s" % got)
    e.send("position sfen 5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1 moves 1a1b", "go mate 1000")
    got, last = e.until(lambda l: l.startswith("checkmate"), 10)
    check(any("move 1 (1a1b)" in l for l in got), "illegal move not named: %s" % got)
    check(last == "checkmate timeout", "go mate after an illegal move: %s" % got)
    # the attacker (side to move) in check is a position like any other (TSUME_RULES.md
    # rejects only the side not to move in check): no checking reply here, a mate there
    e.send("position sfen 4k4/9/9/9/9/9/9/4r4/4K4 b G 1", "go mate 1000")
    got, last = e.until(lambda l: l.startswith("checkmate"), 10)
    check(not any("error" in l for l in got) and last == "checkmate nomate", "attacker in check, no mate: %s" % got)
    e.send("position sfen 2kBR4/b2pRP3/2Ggsg3/n8/3K5/9/9/9/9 b g3s3n4l16p 1", "go mate 1000")
    got, last = e.until(lambda l: l.startswith("checkmate"), 10)
    check(last == "checkmate 6a8c+", "attacker in check, mate in 1: %s" % got)
    e.send("go mate soon")
    got, last = e.until(lambda l: l.startswith("checkmate"), 10)
    check(any("go mate needs a time" in l for l in got) and last == "checkmate timeout", "go mate soon: %s" % got)
    e.send("setoption name Bogus value 1", "setoption name Threads value 9", "setoption name Flaws value maybe",
           "frobnicate", "isready")
    got, last = e.until(lambda l: l == "readyok", 10)
    for what in ("unknown option 'Bogus'", "Threads must be", "Flaws must be", "unknown command 'frobnicate'"):
        check(any(what in l for l in got), "%s not said: %s" % (what, got))
    e.send("position startpos", "go btime 0 wtime 0")
    got, last = e.until(lambda l: l.startswith("bestmove"), 10)
    check(last == "bestmove resign", "plain go: %s" % got)


def flaws(e):
    """Flaws=true: a perfect problem says so; 7-ply problems with a gold added to the
    attacker's hand, where solve reports 余詰 (or 駒余り), report the same in info strings."""
    lines = data_lines("data/third_party/shogiboardq/tsume_7ply_1000_20261001.txt")[:30]
    e.send("setoption name Flaws value true")
    sfen = lines[0].split(" moves ")[0]
    got, last = e.go_mate("sfen " + sfen)
    check(any(l.startswith("info string perfect:") for l in got), "Flaws on a perfect problem: %s" % got)
    cands = []
    for l in lines:
        f = l.split(" moves ")[0].split()
        hand = "".join(n + k for n, k in re.findall(r"(\d*)([A-Za-z])", f[2]) if k.isupper())
        cands.append(" ".join([f[0], f[1], "G" + hand if "G" not in hand else hand, "1"]))
    p = subprocess.run([EXE, "solve", "--threads", "2", "--time", "20000"], input="".join(c + "\n" for c in cands),
                       capture_output=True, text=True)
    shown = 0
    for sfen, r in zip(cands, [json.loads(l) for l in p.stdout.splitlines() if l.strip()]):
        if r.get("result") != "mate" or not r.get("flaws") or "length_exact" in r or shown >= (2 if SAN else 5):
            continue
        shown += 1
        got, last = e.go_mate("sfen " + sfen)
        said = [l for l in got if l.startswith("info string flaw: ")]
        want = ["info string flaw: yozume (余詰) at ply %d: %s mates too, in %d" % (y["ply"], y["move"], y["length"])
                for y in r["yozume"]]
        if "leftover" in r["flaws"]:
            want.append("info string flaw: leftover (駒余り): %d piece%s in hand at the end" %
                        (r["leftover"], "s" if r["leftover"] > 1 else ""))
        check(said == want and last and last.split()[1:] == r["pv"], "Flaws %s: said %s, solve %s" % (sfen, got, want))
        check(not any(l.startswith("info string perfect") for l in got), "Flaws %s: perfect said: %s" % (sfen, got))
    check(shown >= 2, "only %d boards with a gold added have a flaw" % shown)
    e.send("setoption name Flaws value false")


def damaged(e):
    """Damaged commands, as a fuzzer would send them: each go mate still gets exactly one
    checkmate line, the engine keeps answering, and (sanitizer build) reports nothing."""
    rng = random.Random(20261129)
    sfens = [row.split(" moves ")[0] for row in data_lines("data/third_party/shogiboardq/tsume_7ply_1000_20261001.txt")[:20]]
    tokens = ["sfen", "startpos", "moves", "7g7f", "P*5e", "8h2b+", "G*", "1a", "+", "-", "0", "99999999999999999999",
              "infinite", "mate", "name", "value", "USI_Hash", "Threads", "Flaws", "true", "\u738b", "\x01", ""]
    cmds = ["position", "go", "setoption", "setoption name", "isready", "usinewgame", "stop", "ponderhit", "gameover"]
    answered = asked = 0
    for i in range(40 if SAN else 150):
        sfen = list(rng.choice(sfens))
        for _ in range(rng.randrange(3)):  # damage a few characters of a good SFEN
            sfen[rng.randrange(len(sfen))] = rng.choice("0123456789/+-kKpPbBrR gsnlGSNL*")
        words = [rng.choice(cmds)]
        if words[0] == "position":
            words += ["sfen", "".join(sfen)] + [rng.choice(tokens) for _ in range(rng.randrange(6))]
        else:  # (a go is never followed by mate here: one go mate at a time, the next line's)
            words += [t for t in (rng.choice(tokens) for _ in range(rng.randrange(4))) if t != "mate" or words[0] != "go"]
        e.send(" ".join(words).replace("\n", " "))
        e.send("go mate %d" % rng.choice([1, 20, 50]))
        asked += 1
        got, last = e.until(lambda l: l.startswith("checkmate"), 20)
        answered += last is not None
    e.send("x" * 100000, "go mate 10")
    got, last = e.until(lambda l: l.startswith("checkmate"), 20)
    check(any("unknown command" in l for l in got) and last is not None, "a 100 kB line: %s" % got[-2:])
    check(answered == asked, "damaged commands: %d of %d go mate answered" % (answered, asked))
    e.send("isready")
    got, last = e.until(lambda l: l == "readyok", 20)
    check(last == "readyok", "isready after the damaged commands: %s" % got[-3:])


def session(part, handshake_first=False):
    """part on an engine of its own (a part that breaks one, e.g. a stop not obeyed,
    cannot hold up the others beyond its own waits); quit must end it with exit 0."""
    e = Engine()
    if handshake_first:
        handshake(e)
    else:
        e.send("setoption name USI_Hash value 64", "isready")
        e.until(lambda l: l == "readyok", 30)
    part(e)
    rc = e.close()
    check(rc == 0, "%s: quit: exit %s" % (part.__name__, rc))


def main():
    session(mates, handshake_first=True)
    session(nomates)
    session(limits)
    session(bad_input)
    session(flaws)
    session(damaged)
    # the end of input ends the engine too, even in a search
    e = Engine()
    e.send("position sfen " + record_sfen("zukou-008"), "go mate infinite")
    e.p.stdin.close()
    try:
        rc = e.p.wait(timeout=10 + SLACK)
    except subprocess.TimeoutExpired:
        e.p.kill()
        rc = None
    got, last = e.until(lambda l: l.startswith("checkmate"), 2)
    check(rc == 0 and last == "checkmate timeout", "end of input in a search: exit %s, %s" % (rc, got[-2:]))
    return summary("usi")


if __name__ == "__main__":
    sys.exit(main())
