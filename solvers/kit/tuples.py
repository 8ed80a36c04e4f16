"""A rule over a group of digit cells: read in order, their digits form one of a list of tuples (a KenKen cage:
the fillings whose digits make its target; a Kakuro run or a Killer Sudoku cage likewise). The keys are the
layout's one-hot ``(r, c, d)``: "the cell holds d".

It is not a count: the SAT encoding gives each tuple a selector, asks for one, and ties each key to the selectors
that put its digit there; a person reads the group by the tuples that still fit, and what they all agree on or
rule out (``Tuples.read``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from solvers.common import Cell
from solvers.kit.reading import group_reading
from solvers.kit.rules import Broken, Key, Values
from solvers.sat import SatBackend

READINGS_KEPT = 4096  # a rule's remembered readings; past this it forgets them all (a rule may outlive its model)


def _allowed(digits: int, candidates: bool, values: Sequence[int | None]) -> list[int]:
    """Each cell's possible digits as bits: its placed digit; else every digit, or with ``candidates`` those
    not ruled out of it."""
    masks = []
    for i in range(0, len(values), digits):
        cell = values[i:i + digits]
        if 1 in cell:
            masks.append(1 << (list(cell).index(1) + 1))
        else:
            masks.append(sum(2 << d for d, v in enumerate(cell) if v is None or not candidates))
    return masks


def by_digit(tuples: Sequence[tuple[int, ...]], cells: int, digits: int) -> tuple[tuple[int, ...], ...]:
    """For each position and digit (1..digits; index 0 unused), the set of tuples with that digit there, as the bits
    of one integer: the tuples that fit a group's cells are then one AND per cell of ORs over its allowed digits,
    whatever their number (a six-cell cage has thousands)."""
    index = [[0] * (digits + 1) for _ in range(cells)]
    for t, digits_of in enumerate(tuples):
        for p, d in enumerate(digits_of):
            index[p][d] |= 1 << t
    return tuple(tuple(row) for row in index)


@dataclass(frozen=True)
class Tuples:
    """The digits of ``group`` (its cells, in order) form one of ``tuples``. ``placed_only``: a person's look
    reads only the digits already placed in the group, not what is ruled out of its cells (the quicker reading;
    the ``TUPLES`` technique reads both)."""

    group: tuple[Cell, ...]
    digits: int
    tuples: tuple[tuple[int, ...], ...]
    code: str
    says: str
    clue: Hashable | None = None
    given: bool = False
    placed_only: bool = False
    cells: tuple[Key, ...] = field(init=False)
    where: tuple[Cell, ...] = field(init=False)
    _seen: dict[tuple[bool, tuple[int | None, ...]], list[tuple[int, int]] | None] = field(
        init=False, default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple((r, c, d) for r, c in self.group for d in range(1, self.digits + 1)))
        object.__setattr__(self, "where", self.group)

    def held(self, values: Values) -> tuple[int, ...] | None:
        """The group's digits, or None while a cell holds no single digit (its own rule says so)."""
        held = [[d for d in range(1, self.digits + 1) if values[(r, c, d)]] for r, c in self.group]
        return tuple(h[0] for h in held) if all(len(h) == 1 for h in held) else None

    def broken_by(self, values: Values) -> bool:
        held = self.held(values)
        return held is not None and held not in set(self.tuples)

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """A selector per tuple, at least one chosen; a chosen tuple's digits are 1, and a key is 1 only with a
        chosen tuple that puts its digit there (so a digit no tuple has at a cell is ruled out at once)."""
        unless = [] if guard is None else [-guard]
        digits = self.digits
        chosen = [sat.new_var() for _ in self.tuples]
        if not chosen and guard is None:  # no tuple at all: no answer (an empty clause, as two that clash)
            never = sat.new_var()
            sat.add_clause([never])
            sat.add_clause([-never])
        else:
            sat.add_clause(chosen + unless)
        support: dict[int, list[int]] = {}
        for s, digits_of in zip(chosen, self.tuples, strict=True):
            for i, d in enumerate(digits_of):
                lit = lits[i * digits + d - 1]
                sat.add_clause([-s, lit])
                support.setdefault(lit, []).append(s)
        for lit in lits:
            sat.add_clause([-lit, *support.get(lit, [])] + unless)

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        return self.read(values, not self.placed_only)

    def read(self, values: Sequence[int | None], candidates: bool) -> list[tuple[int, int]]:
        """The keys every tuple that still fits agrees on (ruled out or placed), from what is decided."""
        memo = (candidates, tuple(values))
        if memo not in self._seen:
            if len(self._seen) >= READINGS_KEPT:
                self._seen.clear()
            self._seen[memo] = self._read(values, candidates)
        forced = self._seen[memo]
        if forced is None:
            raise Broken("no filling of its cells fits")
        return forced

    def _read(self, values: Sequence[int | None], candidates: bool) -> list[tuple[int, int]] | None:
        index, digits = self._by_digit, range(1, self.digits + 1)
        left = (1 << len(self.tuples)) - 1  # the tuples whose every digit is one its cell may still hold
        for at, mask in zip(index, _allowed(self.digits, candidates, values), strict=True):
            here = 0
            for d in digits:
                if mask >> d & 1:
                    here |= at[d]
            left &= here
            if not left:
                return None
        support = [sum(1 << d for d in digits if left & at[d]) for at in index]
        forced = []
        for p, value in enumerate(values):
            if value is None:
                bits, d = support[p // self.digits], p % self.digits + 1
                if not bits >> d & 1:
                    forced.append((p, 0))
                elif bits == 1 << d:
                    forced.append((p, 1))
        return forced

    @cached_property
    def _by_digit(self) -> tuple[tuple[int, ...], ...]:
        """``by_digit`` of the tuples, made at the first read (most rules of a generator's drafts are never read)."""
        return by_digit(self.tuples, len(self.group), self.digits)

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []



TUPLE_ANALYSIS = "filling analysis"
TUPLES, analysed = group_reading(
    Tuples, TUPLE_ANALYSIS, "The fillings of a group (a cage) that fit what each of its cells may still hold: what they all "
    "agree on.",
    lambda rule: "every filling that fits what its cells may still hold has",
    lambda rule: rule.group)
