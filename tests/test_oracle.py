#!/usr/bin/env python3
"""test_oracle.py - differential test of the rules core against cshogi (PyPI).

Generates reproducible random tsume-like positions (fixed seed) and compares,
as exact sets of USI strings, what `tsumegen moves`, `moves --checks`,
`moves --evasions` and `mate1` print (batch mode, one process per command)
with what cshogi computes.  Also compared: the positions reached by up to 3
checking moves of each root (the defender is then in check: evasions; an
attacker king is added far away when missing, since the SFEN rules want the
side not to move to have one), one random evasion of each of those (attacker
to move again), and every 4th position of a few random games from the
initial position.  Candidates that break the SFEN rules (nifu, dead pieces,
side not to move in check, two kings, no defender king, too many pieces)
must be rejected by tsumegen with an `error:` line.

Mismatches print `MISMATCH ...` lines (the first 20).  ORACLE_SEED and
ORACLE_ROOTS override the seed and the number of roots for longer runs.

A KIF check writes short random sequences with `tsumegen kif` and reads them
back: cshogi's KIF parser does not read BOD diagrams (it only knows 手合割), so
the diagram and hands are read by the small parser below, and each move line
is read both by that parser and by cshogi.KIF.Parser.parse_move_str.

Last line: "oracle: N passed, N failed" (one count per compared item).
"""
import os
import random
import re
import subprocess
import sys
import time

from sfen_grid import EMPTY, board_rows, board_text
from tally import check, summary

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("BIN", "bin")
EXE = os.path.join(ROOT, BIN, "tsumegen")

# ORACLE_SEED / ORACLE_ROOTS override these for longer exploratory runs
SEED = int(os.environ.get("ORACLE_SEED", "20240613"))
N_ROOTS = int(os.environ.get("ORACLE_ROOTS", "10000"))
CHILDREN_PER_ROOT = 3
N_KIF = 200
N_GAMES = 40


def fail(msg):
    check(False, msg)


def finish():
    sys.exit(summary("oracle"))


try:
    import cshogi
    import cshogi.KIF
except ImportError:
    ok = False
    for extra in ([], ["--break-system-packages"]):
        r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "cshogi"] + extra,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode == 0:
            ok = True
            break
    try:
        if not ok:
            raise ImportError("pip failed")
        import cshogi  # noqa: F811
        import cshogi.KIF  # noqa: F811
    except ImportError:
        fail("oracle cshogi not installable (python3 -m pip install cshogi did not make it importable)")
        finish()

if not os.access(EXE, os.X_OK):
    fail("oracle %s not built (run make)" % EXE)
    finish()

import tsume_ref  # noqa: E402  (on cshogi: the futile rule's final-position test)

# ---------------------------------------------------------------- pieces
# Our piece types: 1..7 = P L N S B R G, 8 = K, promoted = base + 8.
# Squares: sq = file*9 + rank (file 0 = 1筋, rank 0 = 一段), as in USI and cshogi.
P, L, N, S, B, R, G, K = range(1, 9)
LETTER = ".PLNSBRGK"
SET_COUNT = {P: 18, L: 4, N: 4, S: 4, B: 2, R: 2, G: 4, K: 2}
HAND_ORDER = [R, B, G, S, N, L, P]
BLACK, WHITE = 0, 1


def raw(pt):
    return pt - 8 if pt > K else pt


def rel_rank(c, sq):
    r = sq % 9
    return r if c == BLACK else 8 - r


def cheb(a, b):
    return max(abs(a // 9 - b // 9), abs(a % 9 - b % 9))


def to_sfen(board, side, hands):
    """board: list of 81 (colour, type) or None; hands[c][pt] counts."""
    rows = []
    for rank in range(9):
        row, empty = "", 0
        for file in range(8, -1, -1):
            pc = board[file * 9 + rank]
            if pc is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            c, pt = pc
            s = ("+" if pt > K else "") + LETTER[raw(pt)]
            row += s.lower() if c == WHITE else s
        if empty:
            row += str(empty)
        rows.append(row)
    hand = ""
    for c in (BLACK, WHITE):
        for pt in HAND_ORDER:
            k = hands[c].get(pt, 0)
            if k:
                ch = LETTER[pt] if c == BLACK else LETTER[pt].lower()
                hand += (str(k) if k > 1 else "") + ch
    return "%s %s %s 1" % ("/".join(rows), "b" if side == BLACK else "w", hand or "-")


def rule_violation(board, hands):
    """Our own checks: piece counts (kept by construction), dead pieces, nifu."""
    for pt, n in SET_COUNT.items():
        on_board = sum(1 for pc in board if pc is not None and raw(pc[1]) == pt)
        if on_board + hands[0].get(pt, 0) + hands[1].get(pt, 0) > n:
            return "too many pieces"
    for sq, pc in enumerate(board):
        if pc is None:
            continue
        c, pt = pc
        rr = rel_rank(c, sq)
        if pt in (P, L) and rr == 0:
            return "dead piece"
        if pt == N and rr <= 1:
            return "dead knight"
    for c in (BLACK, WHITE):
        for f in range(9):
            if sum(1 for r in range(9) if board[f * 9 + r] == (c, P)) > 1:
                return "nifu"
    return None


def flip_side(sfen):
    parts = sfen.split()
    parts[1] = "w" if parts[1] == "b" else "b"
    return " ".join(parts)


def not_to_move_in_check(sfen):
    """Is the side NOT to move in check?  Asked to cshogi with the side flipped."""
    return cshogi.Board(flip_side(sfen)).is_check()


PIECE_WEIGHTS = [(P, 3), (L, 1.5), (N, 1.5), (S, 2), (G, 2), (B, 1.5), (R, 1.5)]


def pick_type(rng, avail):
    choices = [(pt, w) for pt, w in PIECE_WEIGHTS if avail[pt] > 0]
    tot = sum(w for _, w in choices)
    x = rng.random() * tot
    for pt, w in choices:
        x -= w
        if x <= 0:
            return pt
    return choices[-1][0]


def near_square(rng, centre, d):
    while True:
        f = centre // 9 + rng.randint(-d, d)
        r = centre % 9 + rng.randint(-d, d)
        if 0 <= f < 9 and 0 <= r < 9 and f * 9 + r != centre:
            return f * 9 + r


def gen_candidate(rng):
    """Returns (full SFEN, sfen given to tsumegen, reason-invalid or None)."""
    board = [None] * 81
    avail = dict(SET_COUNT)
    # defender (White) king, biased to ranks 1-3
    rank = rng.choice([0, 0, 0, 1, 1, 1, 2, 2]) if rng.random() < 0.75 else rng.randint(3, 8)
    dk = rng.randint(0, 8) * 9 + rank
    board[dk] = (WHITE, K)
    avail[K] -= 1

    def place(colour, pt, near, dist, p_near, p_promo):
        for _ in range(30):
            sq = near_square(rng, near, dist) if rng.random() < p_near else rng.randrange(81)
            if board[sq] is None:
                break
        else:
            return
        if raw(pt) in (P, L, N, S, B, R) and rng.random() < p_promo:
            pt = raw(pt) + 8
        board[sq] = (colour, pt)
        avail[raw(pt)] -= 1

    for _ in range(rng.randint(2, 8)):
        place(BLACK, pick_type(rng, avail), dk, 3, 0.8, 0.2)
    for _ in range(rng.randint(1, 6)):
        place(WHITE, pick_type(rng, avail), dk, rng.choice([2, 3]), 0.85, 0.15)
    if rng.random() < 0.3:  # attacker king present: sometimes close (may be in check)
        for _ in range(30):
            sq = near_square(rng, dk, 4) if rng.random() < 0.5 else rng.randrange(81)
            if board[sq] is None and cheb(sq, dk) >= 2:
                board[sq] = (BLACK, K)
                break
    hands = [{}, {}]
    if rng.random() >= 0.25:
        kinds = [pt for pt in HAND_ORDER if avail[pt] > 0]
        for pt in rng.sample(kinds, min(len(kinds), rng.choice([1, 1, 2, 2, 3, 4]))):
            hands[BLACK][pt] = rng.randint(1, min(avail[pt], 3 if pt == P else 2))
            avail[pt] -= hands[BLACK][pt]
    for pt in HAND_ORDER:  # hand convention: the defender holds the rest
        if avail[pt]:
            hands[WHITE][pt] = avail[pt]
    side = BLACK
    if rng.random() < 0.2:  # colours swapped: White attacks
        board = [None if pc is None else (1 - pc[0], pc[1]) for pc in reversed(board)]
        hands = [hands[WHITE], hands[BLACK]]
        side = WHITE
    full = to_sfen(board, side, hands)
    # tsumegen gets the defender's hand omitted half of the time (its convention refills it)
    given = full
    if rng.random() < 0.5:
        h2 = [dict(hands[0]), dict(hands[1])]
        h2[1 - side] = {}
        given = to_sfen(board, side, h2)
    bad = rule_violation(board, hands)
    if bad is None and not_to_move_in_check(full):
        bad = "side not to move in check"
    return full, given, bad


def mutations(rng, sfens):
    """Valid positions broken on purpose: a second king, no defender king, one
    piece more than the set holds (in the attacker's hand or on the board)."""
    out = []
    for i, sfen in enumerate(sfens):
        b = cshogi.Board(sfen)
        parts = sfen.split()
        us = b.turn
        empties = [sq for sq in range(81) if not b.piece(sq)]
        kind = i % 4
        if kind == 0 or kind == 2:
            # a second king: of the defender (kind 0), or of the attacker when it has one
            colour = 1 - us if kind == 0 or b.king_square(us) >= 81 else us
            sq = rng.choice(empties)
            board = parse_board(parts[0])
            board[sq] = (colour, K)
            out.append((to_sfen(board, us, parse_hands(parts[2])), "two kings"))
        elif kind == 1:
            board = parse_board(parts[0])
            board[b.king_square(1 - us)] = None
            out.append((to_sfen(board, us, parse_hands(parts[2])), "no defender king"))
        else:
            pass
        # one piece too many of some kind, in the attacker's hand
        board = parse_board(parts[0])
        hands = parse_hands(parts[2])
        pt = rng.choice(HAND_ORDER)
        on_board = sum(1 for pc in board if pc is not None and raw(pc[1]) == pt)
        hands[us][pt] = SET_COUNT[pt] - on_board + 1
        hands[1 - us] = {}
        if hands[us][pt] <= SET_COUNT[pt]:
            out.append((to_sfen(board, us, hands), "too many pieces"))
        elif empties:
            # the whole set is on the board or in hand: add one more on the board instead
            sq = rng.choice([e for e in empties if 1 < e % 9 < 7] or empties)
            board[sq] = (us, pt + 8 if pt != G else G)
            hands[us][pt] = SET_COUNT[pt] - on_board
            out.append((to_sfen(board, us, hands), "too many pieces"))
    return out


def parse_board(text):
    board = [None] * 81
    for rank, row in enumerate(text.split("/")):
        file, promo = 8, False
        for ch in row:
            if ch.isdigit():
                file -= int(ch)
            elif ch == "+":
                promo = True
            else:
                pt = LETTER.index(ch.upper()) + (8 if promo else 0)
                board[file * 9 + rank] = (WHITE if ch.islower() else BLACK, pt)
                file -= 1
                promo = False
    return board


def parse_hands(text):
    hands = [{}, {}]
    n = 0
    for ch in "" if text == "-" else text:
        if ch.isdigit():
            n = n * 10 + int(ch)
            continue
        hands[WHITE if ch.islower() else BLACK][LETTER.index(ch.upper())] = n or 1
        n = 0
    return hands


# ---------------------------------------------------------------- oracle
def usi(m):
    return cshogi.move_to_usi(m)


def oracle(sfen):
    """cshogi's answers: (legal, checks, in_check, mates, check moves as ints)."""
    b = cshogi.Board(sfen)
    legal_m = list(b.legal_moves)
    checks_m = []
    mates = []
    for m in legal_m:
        b.push(m)
        if b.is_check():
            checks_m.append(m)
            if b.is_game_over():
                mates.append(usi(m))
        b.pop()
    return (sorted(usi(m) for m in legal_m), sorted(usi(m) for m in checks_m),
            b.is_check(), sorted(mates), checks_m, uchifuzume(b, legal_m))


def uchifuzume(b, legal_m):
    """Does the side to move (not in check) hold a pawn whose drop in front of the
    enemy king is refused by cshogi (a pawn-drop mate)?"""
    us = b.turn
    if b.is_check() or not b.pieces_in_hand[us][0]:
        return False
    ksq = b.king_square(1 - us)
    if ksq >= 81:
        return False
    to = ksq + (1 if us == cshogi.BLACK else -1)
    if to // 9 != ksq // 9 or b.piece(to):
        return False
    own_pawn = cshogi.BPAWN if us == cshogi.BLACK else cshogi.WPAWN
    if any(b.piece((to // 9) * 9 + r) == own_pawn for r in range(9)):
        return False
    drop = "P*%d%s" % (to // 9 + 1, "abcdefghi"[to % 9])
    return drop not in {usi(m) for m in legal_m}


def run_batch(args, lines):
    r = subprocess.run([EXE] + args, input="".join(s + "\n" for s in lines),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = r.stdout.split("\n")
    if out and out[-1] == "":
        out.pop()
    if len(out) != len(lines):
        fail("MISMATCH batch %s: %d input lines, %d output lines (exit %d) %s"
             % (" ".join(args), len(lines), len(out), r.returncode, r.stderr[-300:]))
        out = (out + ["error: missing output"] * len(lines))[:len(lines)]
    return out


def compare(cat, sfen, got_line, want):
    if got_line.startswith("error:"):
        fail("MISMATCH %s %s: tsumegen %s" % (cat, sfen, got_line))
        return
    got = got_line.split()
    if len(got) != len(set(got)):
        dup = sorted({m for m in got if got.count(m) > 1})
        fail("MISMATCH %s %s: duplicate moves %s" % (cat, sfen, " ".join(dup)))
        return
    if " ".join(sorted(got)) != want:  # want: cshogi's sorted moves, space-joined
        extra = sorted(set(got) - set(want.split()))
        missing = sorted(set(want.split()) - set(got))
        fail("MISMATCH %s %s: tsumegen extra [%s] missing [%s]"
             % (cat, sfen, " ".join(extra), " ".join(missing)))
        return
    check(True, "")


def add_attacker_king(rng, sfen):
    """A child position's side not to move (the attacker) must have a king for the
    SFEN rules: put one on an empty square far from the action, not in check."""
    b = cshogi.Board(sfen)
    stm = b.turn  # the defender, to move
    if b.king_square(1 - stm) is not None and b.king_square(1 - stm) < 81:
        return sfen
    dk = b.king_square(stm)
    parts = sfen.split()
    grid = board_rows(parts[0])  # grid[rank][9 - file]
    kch = "K" if stm == cshogi.WHITE else "k"
    for _ in range(200):
        sq = rng.randrange(81)
        f, r = sq // 9, sq % 9
        if cheb(sq, dk) < 3 or grid[r][8 - f] != EMPTY:
            continue
        grid[r][8 - f] = kch
        cand = " ".join([board_text(grid)] + parts[1:])
        if not not_to_move_in_check(cand):
            return cand
        grid[r][8 - f] = EMPTY
    return None


def main():
    t0 = time.time()
    rng = random.Random(SEED)
    roots, given, rejects = [], [], []
    while len(roots) < N_ROOTS:
        full, g, bad = gen_candidate(rng)
        if bad is None:
            roots.append(full)
            given.append(g)
        elif len(rejects) < 2000:
            rejects.append((g, bad))

    rejects += mutations(rng, roots[:600])

    # roots, then children reached by a few checking moves of each root (the
    # defender in check), then grandchildren reached by one evasion of each child
    positions, inputs, data = [], [], []
    stats = {lvl: dict(n=0, checks=0, incheck=0, mate=0, uchifu=0)
             for lvl in ("roots", "children", "grandchildren", "games")}
    n_white = sum(1 for s in roots if s.split()[1] == "w")

    def add(level, sfen, given_sfen):
        o = oracle(sfen)
        positions.append(sfen)
        inputs.append(given_sfen)
        data.append((" ".join(o[0]), " ".join(o[1]), o[2], " ".join(o[3])))  # compact
        st = stats[level]
        st["n"] += 1
        st["checks"] += bool(o[1])
        st["incheck"] += o[2]
        st["mate"] += bool(o[3])
        st["uchifu"] += o[5]
        return o

    children = []
    for full, g in zip(roots, given):
        o = add("roots", full, g)
        if o[4]:
            b = cshogi.Board(full)
            for m in rng.sample(o[4], min(CHILDREN_PER_ROOT, len(o[4]))):
                b.push(m)
                children.append(b.sfen())
                b.pop()
    grandchildren = []
    for s in children:
        c = add_attacker_king(rng, s)
        if c is None:
            continue
        add("children", c, c)
        b = cshogi.Board(c)
        legal = list(b.legal_moves)
        if legal:
            b.push(rng.choice(legal))
            grandchildren.append(b.sfen())
    for s in grandchildren:
        add("grandchildren", s, s)
    # and some positions of random games from the initial position (both kings,
    # full armies, hands of every kind), every 4th ply
    for _ in range(N_GAMES):
        b = cshogi.Board()
        for ply in range(rng.randint(40, 200)):
            legal = list(b.legal_moves)
            if not legal:
                break
            b.push(rng.choice(legal))
            if ply % 4 == 3:
                add("games", b.sfen(), b.sfen())
    t_oracle = time.time() - t0

    legal_out = run_batch(["moves"], inputs)
    checks_out = run_batch(["moves", "--checks"], inputs)
    mate_out = run_batch(["mate1"], inputs)
    ev_idx = [i for i, d in enumerate(data) if d[2]]
    ev_out = run_batch(["moves", "--evasions"], [inputs[i] for i in ev_idx])
    for i, sfen in enumerate(positions):
        legal, checks, _, mates = data[i]
        compare("legal", sfen, legal_out[i], legal)
        compare("checks", sfen, checks_out[i], checks)
        compare("mate1", sfen, mate_out[i], mates)
    for j, i in enumerate(ev_idx):
        compare("evasions", positions[i], ev_out[j], data[i][0])

    # candidates breaking the rules must be refused, one error line each
    rej_out = run_batch(["moves"], [g for g, _ in rejects])
    kinds = {}
    for (g, why), line in zip(rejects, rej_out):
        kinds[why] = kinds.get(why, 0) + 1
        if line.startswith("error:"):
            check(True, "")
        else:
            fail("MISMATCH reject %s (%s): tsumegen accepted it" % (g, why))

    t_kif = time.time()
    kif_stats = kif_check(rng, roots)
    print("positions: %d (%d roots, %d of them White to move)" % (len(positions), len(roots), n_white))
    for lvl, st in stats.items():
        print("  %-13s %6d positions: %6d with checks, %6d in check, %5d with >=1 mate1, "
              "%4d with a refused pawn-drop mate" % (lvl, st["n"], st["checks"], st["incheck"],
                                                     st["mate"], st["uchifu"]))
    print("evasion positions compared: %d; rejected candidates checked: %d %s"
          % (len(ev_idx), len(rejects), sorted(kinds.items())))
    print("kif: %d records, %d moves, %d ending in 詰み, %s"
          % kif_stats)
    print("time: oracle %.1fs, kif %.1fs, total %.1fs"
          % (t_oracle, time.time() - t_kif, time.time() - t0))
    finish()


# ---------------------------------------------------------------- KIF
KANJI_NUM = {k: i for i, k in enumerate(cshogi.NUMBER_JAPANESE_KANJI_SYMBOLS) if k}
# independent spelling tables (not cshogi's)
GLYPH = {"歩": "P", "香": "L", "桂": "N", "銀": "S", "角": "B", "飛": "R", "金": "G", "玉": "K",
         "王": "K", "と": "+P", "杏": "+L", "圭": "+N", "全": "+S", "馬": "+B", "龍": "+R", "竜": "+R"}
MOVE_PIECE = dict(GLYPH, **{"成香": "+L", "成桂": "+N", "成銀": "+S"})
FW = "１２３４５６７８９"
RANKS = "一二三四五六七八九"
MOVE_LINE = re.compile(r"^ *(\d+) (?:(同　)|([１-９])([一二三四五六七八九]))"
                       r"(成香|成桂|成銀|歩|香|桂|銀|金|角|飛|玉|と|馬|龍)(打|成|不成)?(?:\((\d)(\d)\))?$")
END_LINE = re.compile(r"^ *(\d+) 詰み$")


def parse_hand(text):
    out = {}
    if text == "なし":
        return out
    for item in text.split("　"):
        if not item:
            continue
        letter = GLYPH.get(item[0])
        if not letter or letter.startswith("+") or letter == "K":
            raise ValueError("bad hand item %r" % item)
        n = 1
        if len(item) > 1:
            if item[1:] not in KANJI_NUM or KANJI_NUM[item[1:]] < 2:
                raise ValueError("bad hand count %r" % item)
            n = KANJI_NUM[item[1:]]
        out[letter] = n
    return out


def parse_kif(text):
    """Independent KIF reader: returns (start SFEN, [move-line match], mate flag)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    hands = {}
    rows = []
    side = "b"
    moves = []
    mate = False
    state = "header"
    for ln in lines:
        if state == "header":
            if ln.startswith("#") or ln.startswith("*"):
                continue
            m = re.match(r"^(先手|後手)の持駒：(.*)$", ln)
            if m:
                hands[m.group(1)] = parse_hand(m.group(2).rstrip("　"))
                continue
            if ln == "  ９ ８ ７ ６ ５ ４ ３ ２ １" or ln == "+---------------------------+":
                continue
            if ln.startswith("|"):
                m = re.match(r"^\|(.{18})\|([一二三四五六七八九])$", ln)
                if not m or RANKS.index(m.group(2)) != len(rows):
                    raise ValueError("bad board line %r" % ln)
                cells = []
                for i in range(9):
                    mark, g = m.group(1)[2 * i], m.group(1)[2 * i + 1]
                    if g == "・" and mark == " ":
                        cells.append(None)
                    elif mark in " v" and g in GLYPH:
                        cells.append(GLYPH[g].lower() if mark == "v" else GLYPH[g])
                    else:
                        raise ValueError("bad board cell %r" % (mark + g))
                rows.append(cells)
                continue
            if ln == "後手番":
                side = "w"
                continue
            if ln == "先手番":
                continue
            if ln.startswith("手数----指手"):
                state = "moves"
                continue
            raise ValueError("unexpected header line %r" % ln)
        else:
            if mate:
                raise ValueError("line after 詰み: %r" % ln)
            m = MOVE_LINE.match(ln)
            if m:
                if int(m.group(1)) != len(moves) + 1:
                    raise ValueError("move number %s out of sequence" % m.group(1))
                moves.append(m)
                continue
            m = END_LINE.match(ln)
            if m and int(m.group(1)) == len(moves) + 1:
                mate = True
                continue
            raise ValueError("bad move line %r" % ln)
    if len(rows) != 9:
        raise ValueError("board has %d ranks" % len(rows))
    hand = ""
    for who, lower in (("先手", False), ("後手", True)):
        for letter, n in hands.get(who, {}).items():
            hand += (str(n) if n > 1 else "") + (letter.lower() if lower else letter)
    return "%s %s %s 1" % (board_text(rows), side, hand or "-"), moves, mate


def strip_number(sfen):
    return " ".join(sfen.split()[:3])


def kif_check(rng, roots):
    """Random short sequences -> tsumegen kif -> read back -> same start and moves."""
    n_rec = n_moves = n_mate = 0
    cshogi_reads_bod = None
    sample = rng.sample(roots, min(N_KIF, len(roots)))
    for start in sample:
        b = cshogi.Board(start)
        seq = []
        for _ in range(rng.randint(3, 7)):
            legal = list(b.legal_moves)
            if not legal:
                break
            checks, mates = [], []
            for m in legal:
                b.push(m)
                if b.is_check():
                    checks.append(m)
                    if b.is_game_over():
                        mates.append(m)
                b.pop()
            if mates and rng.random() < 0.5:
                m = rng.choice(mates)
            elif checks and rng.random() < 0.5:
                m = rng.choice(checks)
            else:
                m = rng.choice(legal)
            seq.append(m)
            b.push(m)
        seq_usi = [usi(m) for m in seq]
        r = subprocess.run([EXE, "kif", start] + seq_usi, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        n_rec += 1
        if r.returncode != 0:
            fail("MISMATCH kif %s %s: exit %d %s" % (start, " ".join(seq_usi), r.returncode,
                                                     r.stderr.decode(errors="replace").strip()))
            continue
        try:
            text = r.stdout.decode("utf-8")
        except UnicodeDecodeError:
            fail("MISMATCH kif %s: output is not UTF-8" % start)
            continue
        # cshogi's own reader: does it take the start position from the diagram?
        if cshogi_reads_bod is None:
            try:
                cp = cshogi.KIF.Parser.parse_str(text)
                cshogi_reads_bod = strip_number(cshogi.Board(cp.sfen).sfen()) == \
                    strip_number(cshogi.Board(start).sfen())
            except Exception:  # noqa: BLE001 - any failure means "cannot read it"
                cshogi_reads_bod = False
            if not cshogi_reads_bod:
                print("note: cshogi.KIF.Parser ignores BOD diagrams (start = 手合割 only); "
                      "diagram read by the test's own parser, moves by both")
        try:
            kif_sfen, lines, mate = parse_kif(text)
        except ValueError as e:
            fail("MISMATCH kif %s %s: unreadable KIF (%s)\n%s" % (start, " ".join(seq_usi), e, text))
            continue
        want_start = strip_number(cshogi.Board(start).sfen())
        try:
            got_start = strip_number(cshogi.Board(kif_sfen).sfen())
        except Exception:  # noqa: BLE001
            got_start = "unreadable " + kif_sfen
        if got_start != want_start:
            fail("MISMATCH kif-start %s: KIF diagram gives %s" % (start, got_start))
            continue
        errors = []
        b = cshogi.Board(kif_sfen)
        got_usi = []
        prev_to = None
        for i, m in enumerate(lines):
            _, same, fwf, rk, piece, kind, ff, fr = m.groups()
            to = prev_to if same else (FW.index(fwf), RANKS.index(rk))
            if same and prev_to is None:
                errors.append("同 on the first move")
                break
            want_m = seq[i] if i < len(seq) else None
            want_to = None if want_m is None else (cshogi.move_to(want_m) // 9, cshogi.move_to(want_m) % 9)
            if same is None and want_to == prev_to:
                errors.append("move %d: destination repeated without 同" % (i + 1))
            if kind == "打":
                if ff is not None or MOVE_PIECE[piece].startswith("+"):
                    errors.append("move %d: bad drop %r" % (i + 1, m.group(0)))
                    break
                u = "%s*%d%s" % (MOVE_PIECE[piece], to[0] + 1, "abcdefghi"[to[1]])
            else:
                if ff is None or not ("1" <= ff <= "9" and "1" <= fr <= "9"):
                    errors.append("move %d: missing origin %r" % (i + 1, m.group(0)))
                    break
                frm = (int(ff) - 1) * 9 + int(fr) - 1
                pc = b.piece(frm)
                letter = "+" * (cshogi.piece_to_piece_type(pc) > 8) + \
                    LETTER[(cshogi.piece_to_piece_type(pc) - 1) % 8 + 1] if pc else "?"
                if letter != MOVE_PIECE[piece]:
                    errors.append("move %d: names %s but %s is on %s%s" % (i + 1, piece, letter, ff, fr))
                u = "%s%s%d%s%s" % (ff, "abcdefghi"[int(fr) - 1], to[0] + 1, "abcdefghi"[to[1]],
                                    "+" if kind == "成" else "")
                could_promote = (u[:4] + "+") in {usi(x) for x in b.legal_moves}
                if (kind == "不成") != (kind != "成" and could_promote):
                    errors.append("move %d: 不成 %s" % (i + 1, "missing" if could_promote else "where no promotion was possible"))
            # cshogi's reading of the same line (it does not know 不成)
            cm, _, _ = cshogi.KIF.Parser.parse_move_str(m.group(0).replace("不成", ""), b)
            if cm is None or usi(cm) != u:
                errors.append("move %d: cshogi reads %r as %s, the test as %s"
                              % (i + 1, m.group(0), None if cm is None else usi(cm), u))
            mv = b.move_from_usi(u)
            if not b.is_legal(mv):
                errors.append("move %d: %s illegal" % (i + 1, u))
                break
            got_usi.append(u)
            b.push(mv)
            prev_to = to
        if not errors and got_usi != seq_usi:
            errors.append("moves read back as %s" % " ".join(got_usi))
        if not errors:
            # mate: no legal move, or (TSUME_RULES.md) only futile drops left, which
            # the independent reference decides (the writer's test is proofcheck.c's)
            checkmated = b.is_check() and (b.is_game_over() or tsume_ref.TsumeRef().and_within(b, 0))
            if checkmated != mate:
                errors.append("詰み line %s" % ("missing" if checkmated else "on a non-mate"))
        if errors:
            fail("MISMATCH kif %s moves %s: %s" % (start, " ".join(seq_usi), "; ".join(errors)))
            continue
        check(True, "")
        n_moves += len(seq)
        n_mate += mate
    return n_rec, n_moves, n_mate, ("cshogi reads BOD" if cshogi_reads_bod else "cshogi KIF reader ignores BOD")


if __name__ == "__main__":
    main()
