"""pzprjs's border encoding (``encodeBorder`` in its `src/variety-common/Encode.js`), for every genre whose
puzzle is a map of regions: one bit per inner edge, 1 where the edge is a region's border, five bits to a
base-32 digit. First the edges between horizontal neighbours (row by row), then those between vertical ones.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import shown
from solvers.kit.partition import Regions

BITS = 5


def _edges(rows: int, cols: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    across = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    down = [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    return across + down


def _digits(bits: list[int]) -> str:
    chunks = [bits[i:i + BITS] + [0] * (BITS - len(bits[i:i + BITS])) for i in range(0, len(bits), BITS)]
    return "".join("0123456789abcdefghijklmnopqrstuv"[int("".join(map(str, chunk)), 2)] for chunk in chunks)


def write_borders(regions: Regions) -> str:
    rows, cols = len(regions), len(regions[0])
    across, down = (cols - 1) * rows, cols * (rows - 1)
    bits = [int(regions[a[0]][a[1]] != regions[b[0]][b[1]]) for a, b in _edges(rows, cols)]
    return _digits(bits[:across]) + _digits(bits[across:across + down])


def read_borders(body: str, rows: int, cols: int) -> tuple[Regions, str]:
    """The regions the borders at the start of ``body`` enclose (numbered in reading order of their first
    cell) and the rest of the body."""
    across, down = (cols - 1) * rows, cols * (rows - 1)
    length = -(-across // BITS) + -(-down // BITS)
    part = body[:length]
    try:
        values = [int(char, 32) for char in part]
    except ValueError:
        raise InvalidInput(f"the region borders are base-32 digits 0-9a-v, got {shown(part)}") from None
    if len(values) < length:
        raise InvalidInput(f"the region borders of a {cols}×{rows} grid take {length} characters, got {len(part)}")
    split = -(-across // BITS)
    bits = [int(b) for v in values[:split] for b in f"{v:05b}"][:across] + \
        [int(b) for v in values[split:] for b in f"{v:05b}"][:down]
    walls = {edge for edge, bit in zip(_edges(rows, cols), bits, strict=True) if bit}
    joined = [[0] * cols for _ in range(rows)]
    found = _groups_between(rows, cols, walls)
    for number, cells in enumerate(found):
        for r, c in cells:
            joined[r][c] = number
    return joined, body[length:]


def _groups_between(rows: int, cols: int, walls: set) -> list[list[tuple[int, int]]]:
    """The cells joined without crossing a wall, each group in reading order, groups by their first cell."""
    seen, found = set(), []
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in seen:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            r, c = stack.pop()
            group.append((r, c))
            for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                edge = (min((r, c), near), max((r, c), near))
                if 0 <= near[0] < rows and 0 <= near[1] < cols and near not in seen and edge not in walls:
                    seen.add(near)
                    stack.append(near)
        found.append(sorted(group))
    return found
