"""A random Latin square, for every genre whose answer is one (Tatham's collection shares its latin.c likewise)."""

from __future__ import annotations

import random


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
