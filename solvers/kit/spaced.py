"""A line's count when its 1s never stand side by side: exactly ``count`` of the line's keys are 1, and a person
reads the line knowing no two 1s may be next to each other (tents that may not touch, stars apart in a row).

Only the count is the rule's own (the checker reports it, the SAT encoding counts it): that two 1s never touch
is another rule of the model. The look keeps what every spacing of the line's 1s that fits what is decided
agrees on: "4 tents in 7 cells, none side by side" decides cells a plain count cannot.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from solvers.common import Cell
from solvers.kit.rules import Broken, Key, Values
from solvers.sat import SatBackend


def spaced(count: int, at: tuple[int, ...], values: Sequence[int | None]) -> list[tuple[int, int]]:
    """What every placement of ``count`` 1s, none at neighbouring places ``at``, agrees on from ``values``: an
    open key beside a 1 is 0; the other open keys make runs of neighbouring places, a run of L holding at most
    (L + 1) // 2. When the runs can hold just the 1s still needed, each run of odd length holds its 1s at its
    first, third, ... key; when none are needed, every open key is 0; otherwise each open key can be either
    (any run can give up one 1, and any key can be a run's 1 at the cost of at most one)."""
    ones = {at[i] for i, value in enumerate(values) if value == 1}
    if any(place + 1 in ones for place in ones):
        raise Broken("two of its 1s would stand side by side")
    forced = [(i, 0) for i, value in enumerate(values) if value is None and (at[i] - 1 in ones or at[i] + 1 in ones)]
    runs: list[list[int]] = []
    for i, value in enumerate(values):
        if value is None and at[i] - 1 not in ones and at[i] + 1 not in ones:
            if runs and at[runs[-1][-1]] == at[i] - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    needed, room = count - len(ones), sum((len(run) + 1) // 2 for run in runs)
    if not 0 <= needed <= room:
        raise Broken(f"it would have {len(ones)}" if needed < 0 else f"room for only {len(ones) + room} apart")
    if needed == 0:
        forced += [(i, 0) for run in runs for i in run]
    elif needed == room:
        forced += [(i, 1 - k % 2) for run in runs if len(run) % 2 for k, i in enumerate(run)]
    return forced


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
        return spaced(self.count, self.at, values)

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []
