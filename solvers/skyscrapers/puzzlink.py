"""Skyscrapers as a puz.link URL: pzprjs's `skyscrapers` genre (`src/variety/skyscrapers.js`).

    https://puzz.link/p?skyscrapers/<cols>/<rows>/<clues><givens>

The 4N clues outside the grid (top, bottom, left, right, as ``SIDES``) in pzprjs's number16 run encoding, then,
only when the grid gives digits, the N×N cells the same way (``solvers.formats.puzzlink.codec``).
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import UNKNOWN, read_cell_numbers, read_outside_numbers, split_url, url, write_numbers
from solvers.skyscrapers.rules import MAX_SIDE, SIDES, SkyscrapersPuzzle

GENRE = "skyscrapers"


def to_url(puzzle: SkyscrapersPuzzle) -> str:
    clues = [UNKNOWN if v is None else v for side in SIDES for v in getattr(puzzle, side)]
    cells = [UNKNOWN if v is None else v for row in puzzle.givens for v in row]
    body = write_numbers(clues) + (write_numbers(cells) if any(v != UNKNOWN for v in cells) else "")
    return url(GENRE, puzzle.size, puzzle.size, body)


def parse_url(address: str) -> SkyscrapersPuzzle:
    """The puzzle of a skyscrapers URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    if cols != rows:
        raise InvalidInput(f"a Skyscrapers grid is square, this URL's is {cols}×{rows}")
    n = cols
    clues, rest = read_outside_numbers(body, 4 * n)
    cells, _ = read_cell_numbers(rest, n * n)
    if min(clues + cells) < UNKNOWN:
        raise InvalidInput("a `?` clue (a clue of unknown value) is not supported")
    lists = {side: [None if v == UNKNOWN else v for v in clues[k * n:(k + 1) * n]] for k, side in enumerate(SIDES)}
    givens = [[None if v == UNKNOWN else v for v in cells[r * n:(r + 1) * n]] for r in range(n)]
    try:
        return SkyscrapersPuzzle(size=n, givens=givens, **lists)
    except ValueError as exc:
        raise InvalidInput(f"not a Skyscrapers puzzle: {exc}") from exc
