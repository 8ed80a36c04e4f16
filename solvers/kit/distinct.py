"""A rule over groups of keys of one length: no two groups hold the same values (Takuzu's "no two rows alike").

It is not a count: the SAT encoding gives each position of two groups a helper "they differ here" and asks for
one; a person reads it only when a group is decided and another agrees with it everywhere but one open key,
which must then differ. Combined with a line's count (two open keys, one 1 left) that is a short trial.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import ClassVar

from solvers.common import Cell
from solvers.kit.rules import Broken, Key, Values
from solvers.sat import SatBackend


@dataclass(frozen=True)
class Distinct:
    """No two of ``groups`` (sequences of keys, all of one length) hold the same values, position by position."""

    groups: tuple[tuple[Key, ...], ...]
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False
    cells: tuple[Key, ...] = field(init=False)
    parts: tuple[slice, ...] = field(init=False, repr=False, compare=False)  # each group's positions in ``cells``
    quiet_above = 1  # with more open keys it decides nothing and breaks nothing (``solvers.kit.arrays`` skips it)
    takes_arrays: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if len({len(group) for group in self.groups}) > 1:
            raise ValueError(f"{self.code}: the groups must be of one length")
        object.__setattr__(self, "cells", tuple(key for group in self.groups for key in group))
        size = len(self.groups[0]) if self.groups else 0
        object.__setattr__(self, "parts", tuple(slice(g * size, (g + 1) * size) for g in range(len(self.groups))))

    def broken_by(self, values: Values) -> bool:
        held = [tuple(values[key] for key in group) for group in self.groups]
        return len(set(held)) < len(held)

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """Per pair of groups, ``differ[i]`` implies the two keys at ``i`` differ, and one ``differ`` holds."""
        size = len(self.groups[0]) if self.groups else 0
        split = [lits[g * size:(g + 1) * size] for g in range(len(self.groups))]
        for a, b in combinations(split, 2):
            differ = sat.new_vars(size)
            for d, x, y in zip(differ, a, b, strict=True):
                sat.add_clause([-d, x, y])
                sat.add_clause([-d, -x, -y])
            sat.add_clause(differ + ([] if guard is None else [-guard]))

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """Two decided groups alike break it; a group alike to a decided one but for one open key decides it. An
        open key is None, or -1 in the arrays' form (``takes_arrays``), read by slices rather than key by key."""
        empty = -1 if -1 in values else None
        opened = values.count(empty)
        if opened > 1:  # then no pair is one decided group and one with a single open key
            return []
        whole = tuple(values)
        split = [whole[part] for part in self.parts]
        if not opened:
            if len(set(split)) < len(split):
                raise Broken("two of them would be the same")
            return []
        at = values.index(empty)
        size = len(split[0])
        g, i = divmod(at, size)
        group = split[g]
        for other in split[:g] + split[g + 1:]:
            if other[:i] == group[:i] and other[i + 1:] == group[i + 1:]:
                return [(at, 1 - other[i])]  # type: ignore[operator]
        return []

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []
