"""Masyu as a puz.link URL: pzprjs's `mashu` genre (`src/variety/mashu.js`).

    https://puzz.link/p?mashu/<cols>/<rows>/<pearls>

The pearls in row-major order, three cells to a base-27 character (``solvers.formats.puzzlink.triples``):
0 none, 1 white, 2 black.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import split_url, url
from solvers.formats.puzzlink.triples import read_triples, write_triples
from solvers.masyu.rules import BLACK, MAX_SIDE, WHITE, MasyuPuzzle

GENRE = "mashu"
PEARLS = (None, WHITE, BLACK)


def to_url(puzzle: MasyuPuzzle) -> str:
    return url(GENRE, puzzle.cols, puzzle.rows, write_triples([PEARLS.index(v) for row in puzzle.pearls for v in row]))


def parse_url(address: str) -> MasyuPuzzle:
    """The puzzle of a mashu URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    values = [PEARLS[v] for v in read_triples(body, rows * cols)]
    try:
        return MasyuPuzzle(rows=rows, cols=cols, pearls=[values[r * cols:(r + 1) * cols] for r in range(rows)])
    except ValueError as exc:
        raise InvalidInput(f"not a Masyu puzzle: {exc}") from exc
