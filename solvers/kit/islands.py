"""A rule over grid cells: the cells holding ``value`` form islands (orthogonally connected groups), each holding
exactly one numbered cell and as many cells as its number (Nurikabe's islands; Fillomino's regions, where every
cell is an island cell).

SAT: no clauses up front; each model that breaks it gets a cut naming the cells that would have to change: an
island with two numbers, one cell of the path between them leaves it; an island too large, one of the cells
nearest its number leaves it; one too small or without a number, a cell around it joins or one of its own leaves.
A person: a finished island's neighbours leave the value; an island still to grow with one way out takes it; an
open cell beside two numbered islands, or out of reach of every number still growing, leaves it; broken islands
break the rule.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from solvers.common import Cell
from solvers.kit.rules import Broken, Key


@dataclass(frozen=True)
class Islands:
    """The ``cells`` (keys ``(r, c)``) holding ``value`` form islands of one number each, of that many cells;
    ``numbers`` maps a numbered cell to its number (numbered cells hold ``value``: a rule of the genre's says so)."""

    cells: tuple[Key, ...]
    value: int
    numbers: Mapping[Cell, int]
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False
    adjacent: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    seeds: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)  # (position, number)

    def __post_init__(self) -> None:
        at = {cell: i for i, cell in enumerate(self.cells)}
        object.__setattr__(self, "adjacent", tuple(
            tuple(at[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if (r + dr, c + dc) in at)
            for r, c in self.cells))  # type: ignore[misc]
        object.__setattr__(self, "seeds", tuple((at[cell], n) for cell, n in self.numbers.items()))  # type: ignore[index]

    def _groups(self, values: Sequence[int | None]) -> list[list[int]]:
        seen = [False] * len(values)
        found = []
        for start, v in enumerate(values):
            if v != self.value or seen[start]:
                continue
            seen[start], group, queue = True, [], deque([start])
            while queue:
                i = queue.popleft()
                group.append(i)
                for j in self.adjacent[i]:
                    if not seen[j] and values[j] == self.value:
                        seen[j] = True
                        queue.append(j)
            found.append(group)
        return found

    def _faults(self, values: Sequence[int | None], closed: bool) -> list[tuple[str, list[int], list[int]]]:
        """Per broken island: what is wrong, cells one of which must leave it, cells one of which must join it
        (around it). With ``closed`` an island counts as too small or unnumbered only when nothing around it is open."""
        number = dict(self.seeds)
        faults = []
        for group in self._groups(values):
            inside = set(group)
            seeds = [i for i in group if i in number]
            around = sorted({j for i in group for j in self.adjacent[i] if j not in inside})
            open_around = any(values[j] is None for j in around)
            if len(seeds) > 1:
                faults.append(("holds two numbers", self._path(seeds[0], seeds[1], inside), []))
            elif seeds and len(group) > number[seeds[0]]:
                faults.append((f"is larger than its {number[seeds[0]]}", self._nearest(seeds[0], inside,
                                                                                        number[seeds[0]] + 1), []))
            elif (not seeds or len(group) < number[seeds[0]]) and not (closed and open_around):
                faults.append(("has no number" if not seeds else f"is smaller than its {number[seeds[0]]}",
                               group, around))
        return faults

    def _path(self, a: int, b: int, inside: set[int]) -> list[int]:
        came = {a: a}
        queue = deque([a])
        while queue:
            i = queue.popleft()
            for j in self.adjacent[i]:
                if j in inside and j not in came:
                    came[j] = i
                    queue.append(j)
        path = [b]
        while path[-1] != a:
            path.append(came[path[-1]])
        return path

    def _nearest(self, seed: int, inside: set[int], count: int) -> list[int]:
        """``count`` cells of the island joined to ``seed``: a breadth-first prefix, connected."""
        order, queue, seen = [], deque([seed]), {seed}
        while queue and len(order) < count:
            i = queue.popleft()
            order.append(i)
            for j in self.adjacent[i]:
                if j in inside and j not in seen:
                    seen.add(j)
                    queue.append(j)
        return order

    def broken_by(self, values: Mapping[Key, int]) -> bool:
        return bool(self._faults([values[key] for key in self.cells], closed=False))

    def encode(self, sat: object, lits: Sequence[int], guard: int | None) -> None:
        return None  # by cuts, as models come

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        holds = [lit if self.value else -lit for lit in lits]
        return [[-holds[i] for i in leave] + [holds[j] for j in join]
                for _, leave, join in self._faults(values, closed=False)]

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        values = list(values)
        for i, _ in self.seeds:  # a numbered cell holds the value, decided or not yet
            if values[i] == 1 - self.value:
                raise Broken("a numbered cell is not on an island")
            values[i] = self.value
        faults = self._faults(values, closed=True)
        if faults:
            raise Broken(f"an island {faults[0][0]}")
        other = 1 - self.value
        number = dict(self.seeds)
        groups = self._groups(values)
        owner: dict[int, int] = {}  # island cell -> its numbered cell
        for group in groups:
            seed = next((i for i in group if i in number), None)
            if seed is not None:
                owner.update(dict.fromkeys(group, seed))
        forced: dict[int, int] = {}
        for group in groups:
            seed = next((i for i in group if i in number), None)
            ways = sorted({j for i in group for j in self.adjacent[i] if values[j] is None})
            if seed is not None and len(group) == number[seed]:
                forced.update(dict.fromkeys(ways, other))
            elif len(ways) == 1:  # still to grow, with one way out: it takes it
                forced.setdefault(ways[0], self.value)
        for i, v in enumerate(values):
            if v is None and len({owner[j] for j in self.adjacent[i] if j in owner}) > 1:
                forced[i] = other
        reach = self._reach(values, groups, owner, number)
        forced.update({i: other for i, v in enumerate(values) if v is None and i not in reach})
        return sorted(forced.items())

    def _reach(self, values: Sequence[int | None], groups: list[list[int]], owner: dict[int, int],
               number: dict[int, int]) -> set[int]:
        """Open cells some numbered island could still grow to: through open cells and islands without a number,
        each counted, within its number, never beside another numbered island."""
        reached: set[int] = set()
        for group in groups:
            seed = next((i for i in group if i in number), None)
            if seed is None:
                continue
            left = number[seed] - len(group)
            inside = set(group)
            dist = {i: 0 for i in group}
            queue = deque(group)
            while queue:
                i = queue.popleft()
                if dist[i] == left:
                    continue
                for j in self.adjacent[i]:
                    passable = values[j] is None or (values[j] == self.value and j not in owner)
                    if j in dist or not passable or any(owner.get(k, seed) != seed for k in self.adjacent[j]):
                        continue
                    dist[j] = dist[i] + 1
                    queue.append(j)
            reached |= {i for i in dist if i not in inside}
        return reached
