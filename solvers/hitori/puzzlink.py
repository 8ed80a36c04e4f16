"""Hitori as a puz.link URL: pzprjs's `hitori` genre (`src/variety/hitori.js`, ``decodeHitori``).

    https://puzz.link/p?hitori/<cols>/<rows>/<numbers>

One base-36 digit per cell in row-major order (`-` and two digits for 36 and more, never needed up to 30);
pzprjs also writes `.` for runs of empty cells and `@`/`%` for a "?", which a Hitori to solve never has.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import base36, shown, split_url, url
from solvers.hitori.rules import MAX_SIZE, HitoriPuzzle

GENRE = "hitori"


def to_url(puzzle: HitoriPuzzle) -> str:
    return url(GENRE, puzzle.size, puzzle.size, "".join(base36(v) for row in puzzle.numbers for v in row))


def parse_url(address: str) -> HitoriPuzzle:
    """The puzzle of a hitori URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIZE)
    if cols != rows:
        raise InvalidInput(f"a Hitori here is square, the URL's grid is {cols}×{rows}")
    values, at = [], 0
    while at < len(body) and len(values) < rows * cols:
        if body[at] == "-":
            digits, at = body[at + 1:at + 3], at + 3
        else:
            digits, at = body[at], at + 1
        if not digits.isascii() or not digits.isalnum():
            raise InvalidInput(f"every cell of a Hitori needs its number; the URL has {shown(digits)} at cell "
                               f"{len(values) + 1}")
        values.append(int(digits, 36))
    if len(values) != rows * cols:
        raise InvalidInput(f"the URL gives {len(values)} numbers, a {cols}×{rows} grid has {rows * cols}")
    try:
        return HitoriPuzzle(size=rows, numbers=[values[r * cols:(r + 1) * cols] for r in range(rows)])
    except ValueError as exc:
        raise InvalidInput(f"not a Hitori puzzle: {exc}") from exc
