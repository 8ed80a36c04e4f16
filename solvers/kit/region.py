"""A rule over grid cells: the cells holding ``value`` form one orthogonally connected group (unshaded cells
that stay joined, a sea of shaded cells). It sits beside ``Connected`` rather than on it: ``Connected`` joins
1-links, while here the nodes themselves come and go with their value.

SAT: no clauses up front; each model with two groups apart gets a cut (``cuts``). A person: the cells that hold
``value`` or are still open are where the group can run; cells of ``value`` that no such path joins break the
rule, and an open cell that every path between two of them crosses takes ``value`` (``look``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from solvers.common import Cell
from solvers.kit.rules import Broken, Key


@dataclass(frozen=True)
class OneGroup:
    """The ``cells`` (keys ``(r, c)``) whose value is ``value`` touch orthogonally into one group."""

    cells: tuple[Key, ...]
    value: int
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False
    adjacent: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    lazy: ClassVar[bool] = True

    def __post_init__(self) -> None:
        at = {cell: i for i, cell in enumerate(self.cells)}
        object.__setattr__(self, "adjacent", tuple(
            tuple(at[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if (r + dr, c + dc) in at)
            for r, c in self.cells))  # type: ignore[misc]

    def groups(self, values: Sequence[int | None], passable: tuple[int | None, ...] | None = None) -> list[list[int]]:
        """Groups of the positions whose value is in ``passable`` (default: ``value``), largest first."""
        through = (self.value,) if passable is None else passable
        seen = [False] * len(values)
        found = []
        for start, v in enumerate(values):
            if v not in through or seen[start]:
                continue
            seen[start], stack, group = True, [start], []
            while stack:
                i = stack.pop()
                group.append(i)
                for j in self.adjacent[i]:
                    if not seen[j] and values[j] in through:
                        seen[j] = True
                        stack.append(j)
            found.append(group)
        return sorted(found, key=len, reverse=True)

    def broken_by(self, values: Mapping[Key, int]) -> bool:
        return len(self.groups([values[key] for key in self.cells])) > 1

    def encode(self, sat: object, lits: Sequence[int], guard: int | None) -> None:
        return None  # by cuts, as models come

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        """For each group but the largest: a cell around it takes ``value``, or it or the largest one loses a
        cell (with its border kept from ``value`` a cell of it can reach only cells of it)."""
        groups = self.groups(values)
        if len(groups) < 2:
            return []
        holds = [lit if self.value else -lit for lit in lits]  # "the cell holds value"
        anchor = groups[0][0]
        clauses = []
        for group in groups[1:]:
            inside = set(group)
            border = sorted({j for i in group for j in self.adjacent[i] if j not in inside})
            clauses.append([holds[j] for j in border] + [-holds[group[0]], -holds[anchor]])
        return clauses

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """Cells of ``value`` no open path joins break the rule; an open cell every path between two of them
        crosses (a cut vertex of the open-or-``value`` cells with ``value`` cells on two sides) takes ``value``."""
        members = [i for i, v in enumerate(values) if v == self.value]
        if len(members) < 2:
            return []
        passable = (self.value, None)
        reach = next(g for g in self.groups(values, passable) if members[0] in g)
        cut_off = len(set(members) - set(reach))
        if cut_off:
            raise Broken(f"{cut_off} of its cells cannot reach the others")
        return [(i, self.value) for i in self._cut_cells(values, reach[0])]

    def _cut_cells(self, values: Sequence[int | None], root: int) -> list[int]:
        """Open cells whose loss would leave cells of ``value`` on two sides (Tarjan's low-links, iterative)."""
        size, open_or_value = len(values), (self.value, None)
        order, low, below = [-1] * size, [0] * size, [0] * size  # discovery, low-link, value cells in subtree
        total = sum(v == self.value for v in values)
        order[root] = low[root] = 0
        clock, found = 1, set()
        stack = [(root, -1, iter(self.adjacent[root]))]
        while stack:
            v, parent, around = stack[-1]
            advanced = False
            for w in around:
                if values[w] not in open_or_value or w == parent:
                    continue
                if order[w] == -1:
                    order[w] = low[w] = clock
                    clock += 1
                    stack.append((w, v, iter(self.adjacent[w])))
                    advanced = True
                    break
                low[v] = min(low[v], order[w])
            if advanced:
                continue
            stack.pop()
            below[v] += values[v] == self.value
            if parent != -1:
                low[parent] = min(low[parent], low[v])
                below[parent] += below[v]
                if (low[v] >= order[parent] and values[parent] is None and below[v]
                        and total - below[v] > 0):
                    found.add(parent)
        return sorted(found)
