"""A line's count when its 1s never stand side by side: exactly ``count`` of the line's keys are 1, and a person
reads the line knowing no two 1s may be next to each other (tents that may not touch, stars apart in a row).

Only the count is the rule's own (the checker reports it, the SAT encoding counts it): that two 1s never touch
is another rule of the model. The look walks every spacing of the line's 1s that fits what is decided, and
keeps what they all agree on: "4 tents in 7 cells, none side by side" decides cells a plain count cannot.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from solvers.common import Cell
from solvers.kit.rules import Broken, Key, Values
from solvers.sat import SatBackend


@lru_cache(maxsize=1 << 16)
def spacings(count: int, at: tuple[int, ...], values: tuple[int | None, ...]) -> tuple[int, ...] | None:
    """For each key (bit 0: it can be 0, bit 1: it can be 1), what some placement of ``count`` 1s agrees with:
    no two 1s at neighbouring places ``at``, every decided key kept. None when no placement fits."""
    n = len(values)
    known: dict[tuple[int, int, bool], bool] = {}
    support = [0] * n

    def fits(i: int, left: int, after_one: bool) -> bool:
        """Keys i.. can take ``left`` more 1s; ``after_one``: key i-1 is 1 and stands right before key i."""
        if (i, left, after_one) in known:
            return known[(i, left, after_one)]
        ok = False
        if i == n:
            ok = left == 0
        else:
            touching = after_one and at[i] == at[i - 1] + 1
            for value in (0, 1):
                if values[i] not in (None, value) or (value and (touching or not left)):
                    continue
                if fits(i + 1, left - value, bool(value)):
                    support[i] |= 1 << value
                    ok = True
        known[(i, left, after_one)] = ok
        return ok

    return tuple(support) if fits(0, count, False) else None


@dataclass(frozen=True)
class Spaced:
    """Exactly ``count`` of ``cells`` are 1; ``at`` is each key's place along its line (keys at neighbouring
    places touch, so a person never puts 1s on both)."""

    cells: tuple[Key, ...]
    at: tuple[int, ...]
    count: int
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False

    @property
    def low(self) -> int:  # as a count's bounds, for the kit's rule tables
        return self.count

    @property
    def high(self) -> int:
        return self.count

    def broken_by(self, values: Values) -> bool:
        return sum(values[key] for key in self.cells) != self.count

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        sat.add_at_least(list(lits), self.count, guard)
        sat.add_at_most(list(lits), self.count, guard)

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        support = spacings(self.count, self.at, tuple(values))
        if support is None:
            raise Broken(f"no way to place {self.count} apart fits")
        return [(i, 1 if bits == 2 else 0) for i, (bits, value) in enumerate(zip(support, values, strict=True))
                if value is None and bits in (1, 2)]

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []
