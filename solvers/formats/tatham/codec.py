"""What several of Simon Tatham's game descriptions share: a grid in row-major order where a letter `a`-`z`
stands for a run of 1-26 empty cells and any other character is one cell (Light Up's walls, Bridges' islands)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solvers.common import InvalidInput


def read_runs(body: str, count: int, cell: Callable[[str], object]) -> list[object]:
    """``count`` cells: None for each empty one, ``cell(char)`` for any other; raises InvalidInput on a wrong count."""
    cells: list[object] = []
    for char in body:
        cells.extend([None] * (ord(char) - ord("a") + 1) if "a" <= char <= "z" else [cell(char)])
    if len(cells) != count:
        raise InvalidInput(f"the game ID describes {len(cells)} cells, the grid has {count}")
    return cells


def write_runs(cells: Iterable[object], char: Callable[[object], str]) -> str:
    """The inverse of ``read_runs``: runs of None as letters (at most 26 a letter), ``char(value)`` for the rest."""
    out, run = [], 0
    for value in cells:
        if value is None:
            run += 1
            if run == 26:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("a") + run - 1))
            run = 0
        out.append(char(value))
    if run:
        out.append(chr(ord("a") + run - 1))
    return "".join(out)
