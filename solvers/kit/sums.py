"""A sum rule over digit cells: the cells hold different digits that add up to ``total`` (a Kakuro run, later a
Killer Sudoku cage). Its keys are the ``Digits`` layout's one-hot ``(r, c, d)``: "the cell holds d".

``ways`` (the subsets of some digits that reach a sum) is shared with Number Sums, whose rule picks digits
rather than writes them; here it names the digit sets a run may use, which open every sentence of the rule.

It is not a count: the SAT encoding says each digit at most once and exactly one digit set that adds up to the
total is used. A person reads the cells by every filling with different digits that reaches the total
(``supports``): what they all agree on, either knowing only the digits placed in it (``placed_only``: the digit
sets the run may use, what a beginner reads) or also what is ruled out of its cells (``RUNS``, the run analysis).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from solvers.common import Cell
from solvers.kit.reading import group_reading
from solvers.kit.rules import Broken, Key, Values
from solvers.sat import SatBackend


def ways(digits: Sequence[int], need: int, limit: int) -> list[tuple[int, ...]]:
    """Up to ``limit`` subsets (positions into ``digits``) that sum to ``need``, in lexicographic order."""
    found: list[tuple[int, ...]] = []
    after = [sum(digits[j:]) for j in range(len(digits) + 1)]  # what the digits from j on add up to

    def extend(k: int, left: int, taken: tuple[int, ...]) -> None:
        if len(found) >= limit or left > after[k]:
            return
        if left == 0:
            found.append(taken)
            return
        for j in range(k, len(digits)):
            if digits[j] <= left:
                extend(j + 1, left - digits[j], (*taken, j))

    extend(0, need, ())
    return found


@lru_cache(maxsize=1024)
def digit_sets(total: int, length: int, digits: int = 9) -> tuple[tuple[int, ...], ...]:
    """The sets of ``length`` different digits 1..``digits`` that add up to ``total`` ("16 in two: 7+9")."""
    every = range(1, digits + 1)
    return tuple(tuple(every[j] for j in way) for way in ways(every, total, 1 << 12) if len(way) == length)


DIGIT_SUM = [sum(d for d in range(1, 10) if used >> d & 1) for used in range(1 << 10)]  # the digits of a bit set


@lru_cache(maxsize=1 << 16)
def supports(total: int | None, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """For each cell, the digits (bit ``d``) some filling puts there: different digits, each cell's from its
    ``allowed`` bits, adding up to ``total`` (any total when None); None when no filling does. Fillings are
    walked as sets of digits used, each set once (the cell to fill is the set's size), so a run of 9 cells
    visits at most 512 states."""
    n = len(allowed)
    support = [0] * n
    known: dict[int, bool] = {}

    def completes(used: int) -> bool:
        if used in known:
            return known[used]
        at, ok = used.bit_count(), False
        need = None if total is None else total - DIGIT_SUM[used]
        if at == n:
            ok = need is None or need == 0
        elif need is None or n - at <= need <= 9 * (n - at):
            options = allowed[at] & ~used
            while options:
                bit = options & -options
                options ^= bit
                if completes(used | bit):
                    support[at] |= bit
                    ok = True
        known[used] = ok
        return ok

    return tuple(support) if completes(0) else None


def _masks(digits: int, candidates: bool, values: tuple[int | None, ...]) -> tuple[int, ...]:
    """Each cell's possible digits as bits: its placed digit; else every digit (with ``candidates``: those not
    ruled out of it) but the ones placed elsewhere in the rule."""
    masks, taken = [], 0
    for i in range(0, len(values), digits):
        cell = values[i:i + digits]
        if 1 in cell:
            bit = 2 << cell.index(1)
            masks.append(-bit)  # placed: marked for the pass below
            taken |= bit
        else:
            masks.append(sum(2 << d for d, v in enumerate(cell) if v is None or not candidates))
    return tuple(-m if m < 0 else m & ~taken for m in masks)


@lru_cache(maxsize=1 << 17)
def _read(total: int | None, digits: int, candidates: bool,
          values: tuple[int | None, ...]) -> tuple[tuple[int, int], ...] | None:
    support = supports(total, _masks(digits, candidates, values))
    if support is None:
        return None
    forced = []
    for p, value in enumerate(values):
        if value is None:
            bits, d = support[p // digits], p % digits + 1
            if not bits >> d & 1:
                forced.append((p, 0))
            elif bits == 1 << d:
                forced.append((p, 1))
    return tuple(forced)


@dataclass(frozen=True)
class Sum:
    """The cells of ``line`` hold different digits 1..``digits`` adding up to ``total`` (only different when
    None). ``placed_only``: a person's look reads only the digits placed in the line (its digit sets), not what is
    ruled out of its cells (``RUNS`` reads both)."""

    line: tuple[Cell, ...]
    digits: int
    total: int | None
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

    def held(self, values: Values) -> list[int] | None:
        """The line's digits, or None while a cell holds no single digit (its own rule says so)."""
        held = [[d for d in range(1, self.digits + 1) if values[(r, c, d)]] for r, c in self.line]
        return [h[0] for h in held] if all(len(h) == 1 for h in held) else None

    def broken_by(self, values: Values) -> bool:
        held = self.held(values)
        return held is not None and (len(set(held)) < len(held) or self.total is not None and sum(held) != self.total)

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """Each digit at most once; then "digit d is used" per digit, and exactly one of the digit sets that add up
        to the total, each set saying which digits are used: a solver propagates through the sets as a person
        reads them, where one weighted sum over every key leaves it searching."""
        n, digits = len(self.line), self.digits
        off = [] if guard is None else [-guard]
        for d in range(digits):
            sat.add_at_most([lits[i * digits + d] for i in range(n)], 1)
        if self.total is None:
            return
        sets = digit_sets(self.total, n, digits)
        used = []
        for d in range(digits):
            held = [lits[i * digits + d] for i in range(n)]
            used.append(sat.new_var())
            sat.add_clause([-used[-1], *held])
            for lit in held:
                sat.add_clause([-lit, used[-1]])
        chosen = [sat.new_var() for _ in sets]
        sat.add_clause([*chosen, *off])
        for pick, digit_set in zip(chosen, sets, strict=True):
            for d in range(digits):
                sat.add_clause([-pick, used[d] if d + 1 in digit_set else -used[d]])
        sat.add_at_most(chosen, 1)

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        return self.read(values, not self.placed_only)

    def read(self, values: Sequence[int | None], candidates: bool) -> list[tuple[int, int]]:
        """The keys every filling of the line with different digits adding up to the total agrees on."""
        forced = _read(self.total, self.digits, candidates, tuple(values))
        if forced is None:
            raise Broken("no different digits in its cells reach it" if self.total is not None
                         else "two of its cells would hold the same digit")
        return list(forced)

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []



RUN_ANALYSIS = "run analysis"
RUNS, analysed = group_reading(
    Sum, RUN_ANALYSIS, "Every way to fill a sum's cells with different digits, each from what its cell may still hold: "
    "what they all agree on.",
    lambda rule: "with what its cells may still hold, every way to fill it has",
    lambda rule: rule.line)
