"""sfen_grid.py - an SFEN board field as a grid of cells and back, for the tests
that edit positions (test_solve's near misses, test_tsume_ref's variants,
test_oracle's attacker kings and KIF diagrams)."""

EMPTY = "."


def board_rows(board):
    """rows[rank][9 - file]: a piece's SFEN letters ("P", "+r", ...) or EMPTY."""
    rows = []
    for text in board.split("/"):
        row, i = [], 0
        while i < len(text):
            ch = text[i]
            if ch.isdigit():
                row += [EMPTY] * int(ch)
            elif ch == "+":
                row.append(text[i:i + 2])
                i += 1
            else:
                row.append(ch)
            i += 1
        rows.append(row)
    return rows


def board_text(rows):
    """The SFEN board field of such rows; an empty cell is EMPTY, "" or None."""
    out = []
    for row in rows:
        text, run = "", 0
        for cell in row:
            if not cell or cell == EMPTY:
                run += 1
                continue
            text += (str(run) if run else "") + cell
            run = 0
        out.append(text + (str(run) if run else ""))
    return "/".join(out)
