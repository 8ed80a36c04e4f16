"""Latin squares for every genre whose answer is one (Tatham's collection shares its latin.c likewise): a random
square, and the rules that make a grid one."""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from solvers.kit.rules import Count
from solvers.techniques.human import cell_name

MAX_SIDE = 9


def latin_square(n: int, rng: random.Random) -> list[list[int]]:
    """A random N×N Latin square, row by row: each row a random matching of the columns to the digits they still
    lack (a Latin rectangle always extends, so it never fails)."""
    lacking = [set(range(1, n + 1)) for _ in range(n)]
    rows = []
    for _ in range(n):
        row = _matching(lacking, rng)
        rows.append(row)
        for c, h in enumerate(row):
            lacking[c].discard(h)
    return rows


def _matching(lacking: list[set[int]], rng: random.Random) -> list[int]:
    """A perfect matching of the columns to digits each lacks, by random augmenting paths (Kuhn's)."""
    col_of: dict[int, int] = {}

    def place(c: int, tried: set[int]) -> bool:
        for h in rng.sample(sorted(lacking[c]), len(lacking[c])):
            if h not in tried:
                tried.add(h)
                if h not in col_of or place(col_of[h], tried):
                    col_of[h] = c
                    return True
        return False

    for c in rng.sample(range(len(lacking)), len(lacking)):
        place(c, set())
    row = [0] * len(lacking)
    for h, c in col_of.items():
        row[c] = h
    return row


@lru_cache(maxsize=3 * MAX_SIDE)
def latin_rules(n: int, code: str, noun: str, box: int = 0) -> tuple[tuple[Count, ...], tuple[Count, ...]]:
    """An N×N's Latin counts over one-hot keys ``(r, c, d)``, alike in every puzzle of its size (a generator builds
    a model per draw): each cell's one ``noun`` (rule ``code``), cell by cell; then for each line and digit, the
    row's, the column's and, with ``box`` (a side of a square box), the box's one of it."""
    digits = range(1, n + 1)
    cells = tuple(Count(tuple((r, c, d) for d in digits), 1, 1, code, f"{cell_name((r, c))} holds one {noun}")
                  for r, c in itertools.product(range(n), repeat=2))
    units: list[Count] = []
    for i, d in itertools.product(range(n), digits):
        units.append(Count(tuple((i, c, d) for c in range(n)), 1, 1, "row-repeats", f"row {i + 1} holds one {d}"))
        units.append(Count(tuple((r, i, d) for r in range(n)), 1, 1, "column-repeats", f"column {i + 1} holds one {d}"))
        if box:
            at = [(i // box * box + k // box, i % box * box + k % box) for k in range(n)]
            units.append(Count(tuple((r, c, d) for r, c in at), 1, 1, "box-repeats", f"box {i + 1} holds one {d}"))
    return cells, tuple(units)
