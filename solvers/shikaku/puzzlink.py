"""Shikaku as a puz.link URL: pzprjs's `shikaku` genre (`src/variety/shikaku.js`).

    https://puzz.link/p?shikaku/<cols>/<rows>/<numbers>

The numbers in row-major order as pzprjs's "number16" runs (hex digits, `-xx` for two hex digits, `g`-`z` 1-20
empty cells). pzprjs's `?` (a number left unsaid) has no equivalent here.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import UNKNOWN, read_cell_numbers, split_url, url, write_numbers
from solvers.shikaku.rules import MAX_SIDE, ShikakuPuzzle

GENRE = "shikaku"


def to_url(puzzle: ShikakuPuzzle) -> str:
    return url(GENRE, puzzle.cols, puzzle.rows, write_numbers([UNKNOWN if v is None else v
                                                               for row in puzzle.numbers for v in row]))


def parse_url(address: str) -> ShikakuPuzzle:
    """The puzzle of a shikaku URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    values, _ = read_cell_numbers(body, rows * cols)
    for index, value in enumerate(values):
        if value != UNKNOWN and value < 1:
            raise InvalidInput(f"row {index // cols + 1}, column {index % cols + 1} holds "
                               f"{'a question mark' if value < 0 else value}: a number here is an area, 1 or more")
    cells = [None if v == UNKNOWN else v for v in values]
    return ShikakuPuzzle(rows=rows, cols=cols, numbers=[cells[r * cols:(r + 1) * cols] for r in range(rows)])
