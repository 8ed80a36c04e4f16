"""Tents as a puz.link URL: pzprjs's `tents` genre (`src/variety/tents.js`).

    https://puzz.link/p?tents/<cols>/<rows>/<counts><trees>

The counts outside the grid, the columns' then the rows', in pzprjs's number16 (``read_outside_numbers``); then
the trees in its "1Cell" encoding: `0`-`h` a tree followed by that many empty cells, `i`-`z` a run of 1-18
empty cells.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import UNKNOWN, read_outside_numbers, split_url, url, write_numbers
from solvers.tents.rules import MAX_SIDE, TentsPuzzle

GENRE = "tents"
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
TREE_RUN = 18  # a character below this is a tree and the empty cells after it; from it, empty cells alone


def read_trees(body: str, count: int) -> list[int]:
    """pzprjs's decode1Cell: ``count`` cells, 1 for a tree."""
    cells, at = [0] * count, 0
    for char in body.lower():
        if at >= count:
            break
        value = BASE36.find(char)
        if value < 0:
            raise InvalidInput(f"`{char}` is not a character of pzprjs's tree encoding")
        if value < TREE_RUN:
            cells[at] = 1
            at += value + 1
        else:
            at += value - TREE_RUN + 1
    return cells


def write_trees(cells: list[int]) -> str:
    """pzprjs's encode1Cell: the inverse of ``read_trees``."""
    out, count, after_tree = [], -1, False
    for tree in cells:
        if tree:
            if count >= 0:
                out.append(BASE36[count if after_tree else count + TREE_RUN])
            after_tree, count = True, 0
            continue
        count += 1
        if count == 17:
            out.append(BASE36[count if after_tree else count + TREE_RUN])
            after_tree, count = False, -1
    if count >= 0:
        out.append(BASE36[count if after_tree else count + TREE_RUN])
    return "".join(out)


def to_url(puzzle: TentsPuzzle) -> str:
    counts = [UNKNOWN if n is None else n for n in [*puzzle.col_counts, *puzzle.row_counts]]
    return url(GENRE, puzzle.cols, puzzle.rows, write_numbers(counts) + write_trees(
        [v for row in puzzle.trees for v in row]))


def parse_url(address: str) -> TentsPuzzle:
    """The puzzle of a tents URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    counts, rest = read_outside_numbers(body, cols + rows)
    if any(n < UNKNOWN for n in counts):
        raise InvalidInput("a tents URL gives a count as a number, not `?`")
    cells = read_trees(rest, rows * cols)
    try:
        return TentsPuzzle(rows=rows, cols=cols, trees=[cells[r * cols:(r + 1) * cols] for r in range(rows)],
                           col_counts=[None if n == UNKNOWN else n for n in counts[:cols]],
                           row_counts=[None if n == UNKNOWN else n for n in counts[cols:]])
    except ValueError as exc:
        raise InvalidInput(f"not a Tents puzzle: {exc}") from exc
