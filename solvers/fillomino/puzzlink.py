"""Fillomino as a puz.link URL: pzprjs's `fillomino` genre (`src/variety/fillomino.js`).

    https://puzz.link/p?fillomino/<cols>/<rows>/<numbers>

The givens in row-major order as pzprjs's "number16" runs (``solvers.formats.puzzlink.codec``). pzprjs may add
given region borders after them, or the flag `t` (regions of at most 3): variants refused here, as is a `?`.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.fillomino.rules import MAX_SIDE, FillominoPuzzle
from solvers.formats.puzzlink.codec import number_grid_url, read_number_grid

GENRE = "fillomino"


def to_url(puzzle: FillominoPuzzle) -> str:
    return number_grid_url(GENRE, puzzle.givens)


def parse_url(address: str) -> FillominoPuzzle:
    """The puzzle of a fillomino URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    rows, cols, givens, rest = read_number_grid(address, GENRE, MAX_SIDE, "a given here is its region's size, "
                                                "1 or more", {"t": "Fillomino with regions of at most 3"})
    if rest.strip("0/"):
        raise InvalidInput("this URL gives region borders too: a Fillomino variant that is not played here")
    try:
        return FillominoPuzzle(rows=rows, cols=cols, givens=givens)
    except ValueError as exc:
        raise InvalidInput(f"not a Fillomino puzzle: {exc}") from exc
