#!/usr/bin/env python3
"""tsume_ref.py - an independent, exhaustive reference for TSUME_RULES.md's exact length.

The verifier's own rule (the futile-interposition rule, 無駄合, recursive and for drops
only) has no independent implementation anywhere else: cshogi and python-shogi know only
the plain rule (every legal evasion a defence).  This module decides "can the attacker
(the side to move) mate within d plies?" under TSUME_RULES.md by brute force on cshogi's
move generator, written from the rule text and sharing no code with tsumegen:

- an attacker node: some legal check after which the defender is mated within d - 1;
- a defender node X (in check): every real defence is followed by a mate within d - 1.
  Every move other than a drop is real.  A drop is real unless it is futile: after it
  the attacker can capture the dropped piece with a checking move and, with the captured
  piece taken out of the game (it leaves the attacker's hand and goes nowhere), mate
  within L(E) plies, L(E) being the exact mate length against the best non-drop defence
  of X (0 if there is none).  The drop and its capture are not counted.  With no real
  defence X is mated, even where drops are legal (合い効かず).

Memoised by position (cshogi's Zobrist key: board, hands, side to move) and bound; no
repetition cut: the bound ends every line, and a shortest mate never repeats a position.
Exponential: meant for bounds up to about 7-9 plies.  A node budget turns a too-large
question into `Undecided`, never into an answer.

Command line: tsume_ref.py SFEN [MAX_PLIES] prints the exact length up to MAX_PLIES
(default 7) or "none within MAX_PLIES".
"""
import sys

import cshogi

HAND_LETTERS = "PLNSGBR"  # cshogi's hand order (pieces_in_hand, move_drop_hand_piece)


class Undecided(Exception):
    """The node budget ran out before the question was answered."""


def _hand_sfen(hands):
    """SFEN's hand field for cshogi's pieces_in_hand ((black, white), each in HAND_LETTERS
    order): R B G S N L P, black's first, a count before a letter only above one."""
    out = []
    for c, letters in ((0, HAND_LETTERS), (1, HAND_LETTERS.lower())):
        h = hands[c]
        for k in (6, 5, 4, 3, 2, 1, 0):
            n = h[k]
            if n:
                out.append(letters[k] if n == 1 else "%d%s" % (n, letters[k]))
    return "".join(out) or "-"


def _without_hand_piece(board, colour, hp):
    """The board's SFEN with one piece of hand kind hp (cshogi order) taken from colour's
    hand.  (Rebuilt from pieces_in_hand, not parsed from the SFEN's hand: the defender
    holds most of the box, and this runs for every capture of every drop.)"""
    placement, side, _, num = board.sfen().split(" ")
    hands = [list(h) for h in board.pieces_in_hand]
    assert hands[colour][hp] > 0
    hands[colour][hp] -= 1
    return " ".join((placement, side, _hand_sfen(hands), num))


def legal_checks(board):
    """The side to move's legal checks: cshogi's check generator, each move asked
    is_legal (the generator can yield moves legal_moves does not), drops first as in
    legal_moves (a node that finds a mate stops there: the order moves the cost).
    Twenty times faster than pushing every legal move to ask is_check; test_tsume_ref
    compares the two on thousands of positions each run."""
    checks = [m for m in board.check_moves if board.is_legal(m)]
    return sorted(checks, key=lambda m: not cshogi.move_is_drop(m))


class _Search:
    """What both searches share: the node budget, the memo of bounds per position, and
    the attacker's side ("some check after which the defender is mated within d - 1")."""

    def __init__(self, node_limit):
        self.node_limit = node_limit
        self.nodes = 0
        self.mate, self.nomate = {}, {}        # attacker to move: smallest bound known to mate / largest not
        self.and_mated, self.and_not = {}, {}  # defender to move: the same

    def _tick(self):
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Undecided()

    def _cut(self, key):
        """Is reaching this position the attacker's failure (whatever the bound)?"""
        return False

    def _known(self, key, d, is_or):
        """True / False from the memo, or None."""
        yes, no = (self.mate, self.nomate) if is_or else (self.and_mated, self.and_not)
        if yes.get(key, 1 << 30) <= d:
            return True
        if no.get(key, -1) >= d:
            return False
        return None

    def _remember(self, key, d, is_or, result):
        yes, no = (self.mate, self.nomate) if is_or else (self.and_mated, self.and_not)
        if result:
            yes[key] = min(d, yes.get(key, 1 << 30))
        else:
            no[key] = max(d, no.get(key, -1))
        return result

    def or_within(self, board, d):
        """Attacker to move: mate within d plies?"""
        k = board.zobrist_hash()
        if d < 1 or self._cut(k):
            return False
        known = self._known(k, d, True)
        if known is not None:
            return known
        self._tick()
        found = False
        for m in legal_checks(board):
            board.push(m)
            found = self.and_within(board, d - 1)
            board.pop()
            if found:
                break
        return self._remember(k, d, True, found)

    def and_within(self, board, d):
        raise NotImplementedError


class TsumeRef(_Search):
    """The futile rule.  One solver's memo tables serve every question asked of it (all
    about positions with the same attacker)."""

    def __init__(self, node_limit=2_000_000):
        super().__init__(node_limit)
        self.futile_found = 0      # drops found futile (so a test can show the rule was exercised)
        self.le = {}               # defender-to-move key -> L(E)
        self.futile = {}           # (defender-to-move key, drop) -> futile?

    def exact_or(self, board, ub):
        """Attacker to move: the shortest mate of at most ub plies, or None."""
        for d in range(1, ub + 1, 2):
            if self.or_within(board, d):
                return d
        return None

    def and_within(self, board, d):
        """Defender to move, in check: mated within d plies (d >= 0)?"""
        k = board.zobrist_hash()
        known = self._known(k, d, False)
        if known is not None:
            return known
        self._tick()
        moves = list(board.legal_moves)
        drops = [m for m in moves if cshogi.move_is_drop(m)]
        others = [m for m in moves if not cshogi.move_is_drop(m)]
        held = True
        for m in others:  # every non-drop defence is real
            board.push(m)
            held = d >= 2 and self.or_within(board, d - 1)
            board.pop()
            if not held:
                break
        if held:
            for m in drops:
                board.push(m)
                covered = d >= 2 and self.or_within(board, d - 1)
                board.pop()
                if not covered and not self._drop_futile(board, k, m, others):
                    held = False
                    break
        return self._remember(k, d, False, held)

    def _le(self, board, k, others):
        """L(E): the exact mate length against the best non-drop defence (each known to
        be mated: and_within checks them before it asks about a drop)."""
        if k not in self.le:
            le = 0
            for m in others:
                board.push(m)
                ex = self.exact_or(board, 1 << 10)
                board.pop()
                assert ex is not None
                le = max(le, 1 + ex)
            self.le[k] = le
        return self.le[k]

    def _drop_futile(self, board, k, drop, others):
        if (k, drop) in self.futile:
            return self.futile[(k, drop)]
        le = self._le(board, k, others)
        attacker = board.turn ^ 1
        to = cshogi.move_to(drop)
        hp = cshogi.move_drop_hand_piece(drop)
        futile = False
        board.push(drop)
        # the captures of the dropped piece (a drop cannot land on it; cshogi's move
        # keeps its destination in the low 7 bits)
        for c in [c for c in board.legal_moves if c & 0x7f == to]:
            board.push(c)
            sfen = _without_hand_piece(board, attacker, hp) if board.is_check() else None
            board.pop()
            if sfen is None:
                continue
            vanished = cshogi.Board(sfen)
            if self.and_within(vanished, le):
                futile = True
                break
        board.pop()
        self.futile[(k, drop)] = futile
        self.futile_found += futile
        return futile


class PlainForbidden(_Search):
    """The 余詰 side: "is the defender (to move, in check) mated within d plies under the
    plain rule (every legal move a defence), where reaching any position of `forbidden`
    (Zobrist keys) is the attacker's failure?"  TSUME_RULES.md's 迂回: an alternative
    mate that needs a later main-line position is a detour, not a 余詰.  (Mate and no mate
    are the same under both rules; the plain rule's lengths are never shorter, so a plain
    mate within d is a mate.)  Iterative deepening orders each defender node's moves by
    the one that refuted it at a smaller bound."""

    def __init__(self, forbidden, node_limit=200_000):
        super().__init__(node_limit)
        self.forbidden = set(forbidden)
        self.refuter = {}

    def _cut(self, key):
        return key in self.forbidden

    def and_within(self, board, d):
        k = board.zobrist_hash()
        if self._cut(k):
            return False
        known = self._known(k, d, False)
        if known is not None:
            return known
        self._tick()
        moves = list(board.legal_moves)
        first = self.refuter.get(k)
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        held = True
        for m in moves:
            board.push(m)
            held = d >= 2 and self.or_within(board, d - 1)
            board.pop()
            if not held:
                self.refuter[k] = m
                break
        return self._remember(k, d, False, held)

    def mated_within(self, board, d):
        for b in range(d % 2, d + 1, 2):  # shallow bounds first: their refutations order the deep ones
            if self.and_within(board, b):
                return True
        return False


def exact_length(sfen, max_plies=7, node_limit=2_000_000):
    """The exact tsume length of sfen if at most max_plies, None if there is no mate
    within max_plies; raises Undecided when the node budget runs out."""
    return TsumeRef(node_limit).exact_or(cshogi.Board(sfen), max_plies)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: tsume_ref.py SFEN [MAX_PLIES]")
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    ref = TsumeRef()
    n = ref.exact_or(cshogi.Board(sys.argv[1]), top)
    print(n if n is not None else "none within %d" % top, "(%d nodes, %d futile drops)" % (ref.nodes, ref.futile_found))
