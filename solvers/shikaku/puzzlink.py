"""Shikaku as a puz.link URL: pzprjs's `shikaku` genre (`src/variety/shikaku.js`).

    https://puzz.link/p?shikaku/<cols>/<rows>/<numbers>

The numbers in row-major order as pzprjs's "number16" runs (hex digits, `-xx` for two hex digits, `g`-`z` 1-20
empty cells). pzprjs's `?` (a number left unsaid) has no equivalent here.
"""

from __future__ import annotations

from solvers.formats.puzzlink.codec import number_grid_url, read_number_grid
from solvers.shikaku.rules import MAX_SIDE, ShikakuPuzzle

GENRE = "shikaku"


def to_url(puzzle: ShikakuPuzzle) -> str:
    return number_grid_url(GENRE, puzzle.numbers)


def parse_url(address: str) -> ShikakuPuzzle:
    """The puzzle of a shikaku URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    rows, cols, numbers, _ = read_number_grid(address, GENRE, MAX_SIDE, "a number here is an area, 1 or more")
    return ShikakuPuzzle(rows=rows, cols=cols, numbers=numbers)
