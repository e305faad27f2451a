"""A tsume line replayed on cshogi (an implementation that shares no code with
tsumegen), for the test scripts that check the lines tsumegen prints."""
import cshogi


def play_checks(sfen, moves):
    """(board after the moves, None), or (None, why not): every move legal and every
    attacker move (the even plies) a check.  The caller judges the end position."""
    b = cshogi.Board(sfen)
    for i, m in enumerate(moves):
        mv = b.move_from_usi(m)
        if not mv or not b.is_legal(mv):
            return None, "move %d (%s) illegal" % (i + 1, m)
        b.push(mv)
        if i % 2 == 0 and not b.is_check():
            return None, "move %d (%s) is no check" % (i + 1, m)
    return b, None


def cshogi_finds_no_mate(board, depth, nodes):
    """cshogi's df-pn (every evasion a defence) ended without a mate within depth plies
    before its node limit.  A search stopped at the limit decided nothing, and search()
    answers False then too: that must not read as "no mate"."""
    dfpn = cshogi.DfPn(depth=depth, nodes=nodes)
    return not dfpn.search(board) and dfpn.searched_node < nodes


def cshogi_mates_after(board, usi, depth):
    """cshogi (plain rule, every evasion a defence): after the attacker's usi, every
    defender reply leaves a mate within depth plies.  The board is left as it was."""
    board.push_usi(usi)
    ok = True
    for m in list(board.legal_moves):
        board.push(m)
        ok = bool(cshogi.DfPn(depth=depth, nodes=300000).search(board))
        board.pop()
        if not ok:
            break
    board.pop()
    return ok
