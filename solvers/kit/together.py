"""Rules read together: a group of counts a person reads as one picture (a pearl with the cells beside it), by
the joint values of their keys that keep every one of them. What all those values agree on is decided, though
no count of the group decides it alone.

The group adds nothing to the puzzle (its counts are in the model too), so it encodes no clause and reports no
fault; it is a reading, which the levels and hints take as any rule's ``look``. Its ``clue`` may be several
clues (a frozenset, ``rules.shows``): the group reads each of them, so it stands only while all are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solvers.common import Cell
from solvers.kit.reading import group_reading
from solvers.kit.rules import Broken, Count, Key, Values
from solvers.sat import SatBackend


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
    _members: tuple[tuple[int, ...], ...] = field(init=False, repr=False)  # each count's keys as positions
    _seen: dict[tuple[int | None, ...], list[tuple[int, int]] | None] = field(
        init=False, default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        cells = tuple(dict.fromkeys(key for rule in self.rules for key in rule.cells))
        position = {key: p for p, key in enumerate(cells)}
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_members", tuple(tuple(position[key] for key in rule.cells) for rule in self.rules))

    def broken_by(self, values: Values) -> bool:
        return False  # its counts report their own faults

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """Nothing: its counts are the model's own, encoded there."""

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        memo = tuple(values)
        if memo not in self._seen:
            self._seen[memo] = self._read(list(values))
        forced = self._seen[memo]
        if forced is None:
            raise Broken("no way of drawing these lines keeps all of it")
        return forced

    def read(self, values: Sequence[int | None], candidates: bool = True) -> list[tuple[int, int]]:
        """As ``look`` (the keys hold no candidates beyond their values): for ``reading.group_reading``."""
        return self.look(values)

    def _read(self, values: list[int | None]) -> list[tuple[int, int]] | None:
        """The open keys every joint value that keeps the counts agrees on, by a search that stops as soon as
        each open key has been seen both ways; None when no joint value keeps them."""
        open_ = [p for p, v in enumerate(values) if v is None]
        at: list[list[int]] = [[] for _ in values]
        for k, members in enumerate(self._members):
            for p in members:
                at[p].append(k)
        ones = [sum(values[p] or 0 for p in members) for members in self._members]
        left = [sum(values[p] is None for p in members) for members in self._members]
        if any(not rule.feasible(ones[k], left[k]) for k, rule in enumerate(self.rules)):
            return None
        seen = [0] * len(values)  # bit 1: seen 0, bit 2: seen 1
        undecided = [len(open_)]  # open keys not yet seen both ways

        def search(depth: int) -> bool:
            """True once every open key is seen both ways (nothing to decide: stop)."""
            if depth == len(open_):
                for p in open_:
                    bit = 2 if values[p] else 1
                    if not seen[p] & bit:
                        seen[p] |= bit
                        undecided[0] -= seen[p] == 3
                return undecided[0] == 0
            p = open_[depth]
            for value in (0, 1):
                values[p] = value
                for k in at[p]:
                    ones[k] += value
                    left[k] -= 1
                fits = all(self.rules[k].feasible(ones[k], left[k]) for k in at[p])
                done = fits and search(depth + 1)
                for k in at[p]:
                    ones[k] -= value
                    left[k] += 1
                values[p] = None
                if done:
                    return True
            return False

        search(0)
        if not any(seen[p] for p in open_) and open_:
            return None
        if not open_:
            return []
        return [(p, 1 if seen[p] == 2 else 0) for p in open_ if seen[p] != 3]


def reading(name: str, description: str, phrase: Callable[[Any], str]) -> Any:
    """The technique that reads every group of rules read together (``Together``) as ``name``, and its
    reading for ``solvers.kit.propagation`` (``reading.group_reading``)."""
    return group_reading(Together, name, description, phrase, lambda rule: tuple(rule.where or ()))
