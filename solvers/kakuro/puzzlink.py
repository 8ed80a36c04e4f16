"""Kakuro as a puz.link URL: pzprjs's `kakuro` genre (`src/variety/kakuro.js`, ``encodeKakuro``).

    https://puzz.link/p?kakuro/<cols>/<rows>/<cells><outer sums>

The R×C cells in row-major order: a black cell as its down sum then its across sum, one character each (`0`-`9`,
`a`-`j` 0-19, `A`-`Z` 20-45, `-` none), or `.` when it has neither; `k`-`z` 1-16 white cells. Then one character
per column whose top cell is white (the sum in the outer row above it), then one per row whose left cell is white
(the sum in the outer column). pzprjs reads a sum of 0 as none.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import shown, split_url, url
from solvers.kakuro.rules import MAX_SIDE, KakuroPuzzle

GENRE = "kakuro"


def _value(ch: str) -> int | None:
    """pzprjs's decval: None for no sum (its -1, or 0)."""
    value = int(ch, 36) + 10 if "A" <= ch <= "Z" else int(ch, 36) if ch.isascii() and ch.isalnum() else -1
    return value if value > 0 else None


def _char(value: int | None) -> str:
    """pzprjs's encval; a missing sum is written 0, as its editor writes one."""
    value = value or 0
    return "0123456789abcdefghij"[value] if value <= 19 else "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value - 10]


def to_url(puzzle: KakuroPuzzle) -> str:
    out, white = [], 0
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if not puzzle.black[r][c]:
                white += 1
                if white == 16:
                    out.append("z")
                    white = 0
                continue
            if white:
                out.append("0123456789abcdefghijklmnopqrstuvwxyz"[white + 19])
                white = 0
            down, across = puzzle.down[r][c], puzzle.across[r][c]
            out.append("." if down is None and across is None else _char(down) + _char(across))
    if white:
        out.append("0123456789abcdefghijklmnopqrstuvwxyz"[white + 19])
    out += [_char(puzzle.top[c]) for c in range(puzzle.cols) if not puzzle.black[0][c]]
    out += [_char(puzzle.left[r]) for r in range(puzzle.rows) if not puzzle.black[r][0]]
    return url(GENRE, puzzle.cols, puzzle.rows, "".join(out))


def parse_url(address: str) -> KakuroPuzzle:
    """The puzzle of a kakuro URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    black = [[0] * cols for _ in range(rows)]
    down: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    across: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    at = i = 0
    while i < len(body) and at < rows * cols:
        ch, (r, c) = body[i], divmod(at, cols)
        if "k" <= ch <= "z":
            at += int(ch, 36) - 19
        else:
            black[r][c] = 1
            if ch != ".":
                if i + 1 >= len(body):
                    raise InvalidInput(f"the URL ends inside the sums of {shown(body[-8:])}")
                down[r][c], across[r][c] = _value(ch), _value(body[i + 1])
                i += 1
            at += 1
        i += 1
    outer = body[i:]
    columns = [c for c in range(cols) if not black[0][c]]
    lines = [r for r in range(rows) if not black[r][0]]
    if len(outer) < len(columns) + len(lines):
        raise InvalidInput(f"the URL has {len(outer)} sums outside the board, its board needs {len(columns) + len(lines)}")
    top: list[int | None] = [None] * cols
    left: list[int | None] = [None] * rows
    for k, c in enumerate(columns):
        top[c] = _value(outer[k])
    for k, r in enumerate(lines):
        left[r] = _value(outer[len(columns) + k])
    try:
        return KakuroPuzzle(rows=rows, cols=cols, black=black, across=across, down=down, left=left, top=top)
    except ValueError as exc:
        raise InvalidInput(f"not a Kakuro puzzle: {exc}") from exc
