"""Nurikabe as a puz.link URL: pzprjs's `nurikabe` genre (`src/variety/nurikabe.js`, ``decodeNumber16``).

    https://puzz.link/p?nurikabe/<cols>/<rows>/<numbers>

The numbers in row-major order in pzprjs's number16 encoding (``solvers.formats.puzzlink.codec``); a "?" (an
island of unknown size) is refused.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import number_grid_url, read_number_grid
from solvers.nurikabe.rules import MAX_SIDE, NurikabePuzzle

GENRE = "nurikabe"


def to_url(puzzle: NurikabePuzzle) -> str:
    return number_grid_url(GENRE, puzzle.numbers)


def parse_url(address: str) -> NurikabePuzzle:
    """The puzzle of a nurikabe URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    rows, cols, numbers, _ = read_number_grid(address, GENRE, MAX_SIDE, "an island of unknown size (`?`) or of "
                                              "size 0 cannot be solved here")
    try:
        return NurikabePuzzle(rows=rows, cols=cols, numbers=numbers)
    except ValueError as exc:
        raise InvalidInput(f"not a Nurikabe puzzle: {exc}") from exc
