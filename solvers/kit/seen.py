"""A visibility rule over a line of digit cells: seen from its near end, exactly ``count`` of the line's towers
show, a tower showing when it is taller than every one before it. The line holds each height 1..``digits``
once (the model's counts say so); its keys are the layout's one-hot ``(r, c, d)``: "the cell holds d".

It is not a count: the SAT encoding adds, per cell, "the tallest so far is at least d" and "this tower shows",
and counts the towers that show; a person reads the line by its orders of towers (``placements``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from solvers.common import Cell
from solvers.kit import seen_kernel
from solvers.kit.reading import group_reading
from solvers.kit.rules import Broken, Key, Values
from solvers.sat import SatBackend


def placements(count: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """For each position of a line (nearest first), the heights (bit ``h``) that some order of the heights
    1..len(allowed), each height ``h`` at a position whose ``allowed`` has bit ``h``, puts there while showing
    ``count`` towers; None when no order does (walked by ``seen_kernel.placements``)."""
    support = np.zeros(len(allowed), np.int64)
    if not seen_kernel.placements(count, np.array(allowed, np.int64), support, *seen_kernel.scratch(len(allowed))):
        return None
    return tuple(int(bits) for bits in support)


@lru_cache(maxsize=1 << 16)
def _read(count: int, digits: int, candidates: bool, values: tuple[int | None, ...]) -> tuple[tuple[int, int], ...] | None:
    """The line's reading (``seen_kernel.read``), once per line state: a generator's level checks read the same
    lines again and again."""
    forced = np.zeros(2 * len(values), np.int64)
    filled = seen_kernel.read(count, digits, candidates, np.array([-1 if v is None else v for v in values], np.int64),
                              forced)
    if filled < 0:
        return None
    pairs = forced[:filled].tolist()
    return tuple(zip(pairs[::2], pairs[1::2], strict=True))


def towers_seen(heights: Sequence[int]) -> int:
    count = tallest = 0
    for height in heights:
        if height > tallest:
            count, tallest = count + 1, height
    return count


@dataclass(frozen=True)
class Seen:
    """From the near end of ``line`` (its cells, nearest first) exactly ``count`` towers show. ``placed_only``:
    a person's look reads only the heights already placed in the line, not what is ruled out of its cells (the
    quicker reading; ``line_analysis`` reads both)."""

    line: tuple[Cell, ...]
    digits: int
    count: int
    code: str
    says: str
    clue: Hashable | None = None
    given: bool = False
    placed_only: bool = False
    cells: tuple[Key, ...] = field(init=False)
    where: tuple[Cell, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple((r, c, d) for r, c in self.line for d in range(1, self.digits + 1)))
        object.__setattr__(self, "where", self.line)

    def heights(self, values: Values) -> list[int] | None:
        """The line's heights, or None while a cell holds no single height (its own rule says so)."""
        held = [[d for d in range(1, self.digits + 1) if values[(r, c, d)]] for r, c in self.line]
        return [h[0] for h in held] if all(len(h) == 1 for h in held) else None

    def broken_by(self, values: Values) -> bool:
        heights = self.heights(values)
        return heights is not None and towers_seen(heights) != self.count

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """``tall[i][d]``: the tallest of cells 0..i is at least d; cell i shows when its height h is above the
        tallest before it (not ``tall[i-1][h]``); exactly ``count`` cells show. Only the count is guarded: the
        other clauses define the helper variables, whatever the clue."""
        n, digits = len(self.line), self.digits
        x = [lits[i * digits:(i + 1) * digits] for i in range(n)]
        tall = [[sat.new_var() for _ in range(digits)] for _ in range(n)]
        shows = [sat.new_var() for _ in range(n)]
        for i in range(n):
            for d in range(digits):
                causes = [x[i][d]] + ([tall[i][d + 1]] if d + 1 < digits else []) + ([tall[i - 1][d]] if i else [])
                for cause in causes:
                    sat.add_clause([-cause, tall[i][d]])
                sat.add_clause([-tall[i][d], *causes])
                if i == 0:
                    sat.add_clause([-x[i][d], shows[i]])
                else:
                    sat.add_clause([-x[i][d], tall[i - 1][d], shows[i]])
                    sat.add_clause([-x[i][d], -tall[i - 1][d], -shows[i]])
        sat.add_at_least(shows, self.count, guard)
        sat.add_at_most(shows, self.count, guard)

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        return self.read(values, not self.placed_only)

    def read(self, values: Sequence[int | None], candidates: bool) -> list[tuple[int, int]]:
        """The keys every order of the line's towers that shows ``count`` agrees on, from what is decided."""
        forced = _read(self.count, self.digits, candidates, tuple(values))
        if forced is None:
            raise Broken(f"no order of its towers shows {self.count}")
        return list(forced)

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []



LINE_ANALYSIS = "line analysis"
LINES, analysed = group_reading(
    Seen, LINE_ANALYSIS, "Every order of a line's towers that shows its clue, with what each of its cells may still hold: "
    "what they all agree on.",
    lambda rule: f"every order of its towers that shows {rule.count}, with what its cells may still hold, has",
    lambda rule: rule.line)
