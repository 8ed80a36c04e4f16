"""Slitherlink as a puz.link URL: pzprjs's `slither` genre (`src/variety/slither.js`).

    https://puzz.link/p?slither/<cols>/<rows>/<clues>

The clues in row-major order in pzprjs's 4Cell encoding (``solvers.formats.puzzlink.codec.read_4cell``); a `.`
(pzprjs's "?", a cell whose number is hidden) reads as no number.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import UNKNOWN, read_4cell, split_url, url, write_4cell
from solvers.slitherlink.rules import MAX_SIDE, SlitherlinkPuzzle

GENRE = "slither"


def to_url(puzzle: SlitherlinkPuzzle) -> str:
    return url(GENRE, puzzle.cols, puzzle.rows, write_4cell([UNKNOWN if v is None else v for row in puzzle.clues for v in row]))


def parse_url(address: str) -> SlitherlinkPuzzle:
    """The puzzle of a slither URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    values = [v if v >= 0 else None for v in read_4cell(body, rows * cols)]
    try:
        return SlitherlinkPuzzle(rows=rows, cols=cols, clues=[values[r * cols:(r + 1) * cols] for r in range(rows)])
    except ValueError as exc:
        raise InvalidInput(f"not a Slitherlink puzzle: {exc}") from exc
