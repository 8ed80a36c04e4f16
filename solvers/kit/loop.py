"""One closed loop (``Loop``): a ``Connected`` over a loop's links whose look also keeps the loop from closing
early, as a person does ("that edge would close a loop with other lines left outside it: cross it").

The vertices' 0-or-2 counts keep the lines to paths and loops; this rule joins them into one. Its look works
on the links' integer ends, one pass over them, since it runs after every change a technique makes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from solvers.kit.rules import Broken, Connected, Values
from solvers.sat import SatBackend


@dataclass(frozen=True)
class Loop(Connected):
    """The ``links`` that are 1 form a single closed loop (there is one), given counts that hold every node to 0 or
    2 links."""

    early: bool = True  # a person reads a link that would close the loop early as 0 (False: a trial shows it)
    ends: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        number: dict[object, int] = {}
        object.__setattr__(self, "ends", tuple((number.setdefault(a, len(number)), number.setdefault(b, len(number)))
                                               for _, a, b in self.links))

    def broken_by(self, values: Values) -> bool:
        return not any(values[key] for key in self.cells) or super().broken_by(values)

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        sat.add_clause(list(lits))  # some link is 1; the rest by cuts, as models come

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """No loop at all, or a loop closed while other lines exist, is broken; a link whose ends are the two ends
        of one path would close it early while other lines exist, so it is 0 (unless not ``early``); once the loop
        is closed, every other link is 0."""
        parent = list(range(2 * len(self.ends) + 1))

        def root(node: int) -> int:
            while parent[node] != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        on = [i for i, value in enumerate(values) if value == 1]
        if not on and None not in values:
            raise Broken("there would be no loop")
        for i in on:
            a, b = self.ends[i]
            parent[root(a)] = root(b)
        links = Counter(root(self.ends[i][0]) for i in on)
        nodes = Counter(root(node) for node in {n for i in on for n in self.ends[i]})
        closed = any(links[group] == nodes[group] for group in links)
        if len(links) < 2:  # one loop closed: no other line anywhere
            return [(i, 0) for i, value in enumerate(values) if value is None] if closed else []
        if closed:
            raise Broken("a loop would be closed with other lines outside it")
        if not self.early:
            return []
        return [(i, 0) for i, value in enumerate(values)
                if value is None and root(self.ends[i][0]) == root(self.ends[i][1])]
