"""Rules read together: a group of counts a person reads as one picture (a pearl with the cells beside it), by
the joint values of their keys that keep every one of them. What all those values agree on is decided, though
no count of the group decides it alone.

The group adds nothing to the puzzle (its counts are in the model too), so it encodes no clause and reports no
fault; it is a reading, which the levels and hints take as any rule's ``look``. Its ``clue`` may be several
(``rules.Clues``): the group reads each of them, so it stands only while they are shown as it reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import chain
from typing import Any, ClassVar

from solvers.common import Cell
from solvers.kit.counts_kernel import BROKEN, NOTHING, count_table
from solvers.kit.reading import group_reading
from solvers.kit.rules import Broken, Count, Key, Values, open_as_none
from solvers.sat import SatBackend


@cache
def _fits(low: int, high: int, allowed: frozenset[int] | None, size: int) -> tuple[tuple[bool, ...], ...]:
    """Whether a count may still hold, by [ones][open keys]."""
    rule = Count((), low, high, "", "", allowed=allowed)
    return tuple(tuple(bool(rule.feasible(ones, open_)) for open_ in range(size + 1)) for ones in range(size + 1))


@dataclass(frozen=True)
class Together:
    """The counts ``rules`` read as one over the union of their keys."""

    rules: tuple[Count, ...]
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False
    cells: tuple[Key, ...] = field(init=False)
    _shape: Shape = field(init=False, repr=False)  # each count's bounds and keys as positions: ``_joint``'s key
    _seen: dict[tuple[int | None, ...], list[tuple[int, int]] | None] = field(
        init=False, default_factory=dict, compare=False, hash=False, repr=False)
    takes_arrays: ClassVar[bool] = True

    def __post_init__(self) -> None:
        cells = tuple(dict.fromkeys(chain.from_iterable(rule.cells for rule in self.rules)))
        position = {key: p for p, key in enumerate(cells)}.__getitem__
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_shape", tuple((rule.low, rule.high, rule.allowed, tuple(map(position, rule.cells)))
                                                 for rule in self.rules))

    def broken_by(self, values: Values) -> bool:
        return False  # its counts report their own faults

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """Nothing: its counts are the model's own, encoded there."""

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        memo = tuple(values)
        if memo not in self._seen:
            self._seen[memo] = self._read(open_as_none(values))
        forced = self._seen[memo]
        if forced is None:
            raise Broken("no way of drawing these lines keeps all of it")
        return forced

    def read(self, values: Sequence[int | None], candidates: bool = True) -> list[tuple[int, int]]:
        """As ``look`` (the keys hold no candidates beyond their values): for ``reading.group_reading``."""
        return self.look(values)

    def _read(self, values: list[int | None]) -> list[tuple[int, int]] | None:
        """The open keys every joint value that keeps the counts agrees on; None when no joint value keeps them.
        Nothing while one of its counts decides something alone: a person reads that count first (its own step,
        the plainer hint), and the group once it has."""
        for low, high, allowed, members in self._shape:
            ones = open_ = 0
            for p in members:
                value = values[p]
                if value is None:
                    open_ += 1
                else:
                    ones += value
            action = count_table(low, high, allowed, len(members))[ones][open_]
            if action == BROKEN:
                return None
            if action != NOTHING:
                return []
        known = ones = 0
        for p, value in enumerate(values):
            if value is not None:
                known |= 1 << p
                ones |= value << p
        every, some, found = -1, 0, False
        for joint in _joint(self._shape):
            if joint & known == ones:
                every &= joint
                some |= joint
                found = True
        if not found:
            return None
        return [(p, 1 if every >> p & 1 else 0) for p, value in enumerate(values)
                if value is None and (every >> p & 1 or not some >> p & 1)]


Shape = tuple[tuple[int, int, frozenset[int] | None, tuple[int, ...]], ...]


@cache
def _joint(shape: Shape) -> tuple[int, ...]:
    """Every joint value (bit p: position p is 1) of the positions of ``shape``'s counts ((low, high, allowed,
    positions) each) that keeps all of them: a search that drops a branch as soon as a count cannot hold. Groups
    of one shape (a pearl by the same pearls, as far from the edge) share it."""
    size = 1 + max((p for *_, members in shape for p in members), default=-1)
    fits = [_fits(low, high, allowed, len(members)) for low, high, allowed, members in shape]
    at: list[list[int]] = [[] for _ in range(size)]
    for k, (*_, members) in enumerate(shape):
        for p in members:
            at[p].append(k)
    ones, left = [0] * len(shape), [len(members) for *_, members in shape]
    found: list[int] = []

    def search(p: int, joint: int) -> None:
        if p == size:
            found.append(joint)
            return
        for value in (0, 1):
            for k in at[p]:
                ones[k] += value
                left[k] -= 1
            if all(fits[k][ones[k]][left[k]] for k in at[p]):
                search(p + 1, joint | value << p)
            for k in at[p]:
                ones[k] -= value
                left[k] += 1

    search(0, 0)
    return tuple(found)


def reading(name: str, description: str, phrase: Callable[[Any], str]) -> Any:
    """The technique that reads every group of rules read together (``Together``) as ``name``, and its
    reading for ``solvers.kit.arrays`` (``reading.group_reading``)."""
    return group_reading(Together, name, description, phrase, lambda rule: tuple(rule.where or ()))
