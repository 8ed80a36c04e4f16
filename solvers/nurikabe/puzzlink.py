"""Nurikabe as a puz.link URL: pzprjs's `nurikabe` genre (`src/variety/nurikabe.js`, ``decodeNumber16``).

    https://puzz.link/p?nurikabe/<cols>/<rows>/<numbers>

The numbers in row-major order in pzprjs's number16 encoding (``solvers.formats.puzzlink.codec``); a "?" (an
island of unknown size) is refused.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import UNKNOWN, read_cell_numbers, split_url, url, write_numbers
from solvers.nurikabe.rules import MAX_SIDE, NurikabePuzzle

GENRE = "nurikabe"


def to_url(puzzle: NurikabePuzzle) -> str:
    values = [UNKNOWN if v is None else v for row in puzzle.numbers for v in row]
    return url(GENRE, puzzle.cols, puzzle.rows, write_numbers(values))


def parse_url(address: str) -> NurikabePuzzle:
    """The puzzle of a nurikabe URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    values, _ = read_cell_numbers(body, rows * cols)
    if any(v < UNKNOWN or v == 0 for v in values):
        raise InvalidInput("an island of unknown size (`?`) or of size 0 cannot be solved here")
    try:
        return NurikabePuzzle(rows=rows, cols=cols, numbers=[[None if v == UNKNOWN else v
                                                              for v in values[r * cols:(r + 1) * cols]]
                                                             for r in range(rows)])
    except ValueError as exc:
        raise InvalidInput(f"not a Nurikabe puzzle: {exc}") from exc
