"""A one-to-one pairing rule: each owner takes exactly one of its keys that is 1, and
every key that is 1 is taken by exactly one owner. The 1-keys and the owners are then in bijection.

It is not a count: which owner takes which key is hidden. The SAT encoding adds one pairing variable per (owner,
key) edge; a person links an owner with one key left to it, and a 1-key with one owner left to it, and empties the
keys no owner can still take.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from solvers.common import Cell
from solvers.kit.rules import Broken, Key, Values
from solvers.sat import SatBackend
from solvers.techniques.human import cell_name


def perfect(options: Sequence[Sequence[int]], ones: set[int]) -> bool:
    """Whether every owner (its options by key position) takes a distinct key of ``ones`` and every one is taken:
    Kuhn's augmenting paths, which the few owners of a puzzle afford."""
    if len(options) != len(ones):
        return False
    taken: dict[int, int] = {}

    def place(owner: int, seen: set[int]) -> bool:
        for key in options[owner]:
            if key in ones and key not in seen:
                seen.add(key)
                if key not in taken or place(taken[key], seen):
                    taken[key] = owner
                    return True
        return False

    return all(place(owner, set()) for owner in range(len(options)))


@dataclass(frozen=True)
class Matching:
    """Each of ``owners`` (its cell, its keys) takes one of its keys that is 1, every 1-key of ``cells`` one owner."""

    owners: tuple[tuple[Cell, tuple[Key, ...]], ...]
    code: str
    says: str
    names: tuple[str, str] = ("owner", "key")  # what an owner and a key are, for the sentences
    clue: Hashable | None = None
    given: bool = False
    cells: tuple[Key, ...] = field(init=False)
    where: tuple[Cell, ...] = field(init=False)
    options: tuple[tuple[int, ...], ...] = field(init=False)  # each owner's keys, as positions in ``cells``

    def __post_init__(self) -> None:
        cells = tuple(dict.fromkeys(key for _, keys in self.owners for key in keys))
        position = {key: i for i, key in enumerate(cells)}
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "where", tuple(name for name, _ in self.owners))
        object.__setattr__(self, "options", tuple(tuple(position[key] for key in keys) for _, keys in self.owners))

    def broken_by(self, values: Values) -> bool:
        return not perfect(self.options, {i for i, key in enumerate(self.cells) if values[key]})

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """``pair[o, i]``: owner o takes key i. Each owner takes exactly one key; a key is 1 exactly when some
        owner takes it, and at most one does; a pair needs its key at 1."""
        extra = [] if guard is None else [-guard]
        taking: list[list[int]] = [[] for _ in self.cells]
        for keys in self.options:
            pairs = [sat.new_var() for _ in keys]
            for i, pair in zip(keys, pairs, strict=True):
                taking[i].append(pair)
                sat.add_clause([-pair, lits[i], *extra])
            sat.add_at_least(pairs, 1, guard)
            sat.add_at_most(pairs, 1, guard)
        for i, pairs in enumerate(taking):
            sat.add_clause([-lits[i], *pairs, *extra])
            sat.add_at_most(pairs, 1, guard)

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """Link an owner with one key left (the key is 1) and a 1-key with one owner left, round after round;
        then a key no free owner can take is 0. Broken when an owner or a 1-key has nobody left, or when
        everything is decided and no pairing fits."""
        edges = [{i for i in keys if values[i] != 0} for keys in self.options]
        owners_of: list[set[int]] = [set() for _ in values]
        for o, keys in enumerate(edges):
            for i in keys:
                owners_of[i].add(o)
        linked_owner: set[int] = set()
        linked_key: set[int] = set()
        owners, ones = list(range(len(edges))), [i for i, value in enumerate(values) if value == 1]

        def link(o: int, i: int) -> None:
            linked_owner.add(o)
            linked_key.add(i)
            for other in owners_of[i] - {o}:
                edges[other].discard(i)
                owners.append(other)
            for other in edges[o] - {i}:
                owners_of[other].discard(o)
                ones.append(other)
            owners_of[i], edges[o] = {o}, {i}

        while owners or ones:
            if owners:
                o = owners.pop()
                if not edges[o]:
                    raise Broken(f"the {self.names[0]} at {cell_name(self.where[o])} has no {self.names[1]} left")
                if o not in linked_owner and len(edges[o]) == 1:
                    link(o, next(iter(edges[o])))
                continue
            i = ones.pop()
            if values[i] == 1 and i not in linked_key:
                if not owners_of[i]:
                    raise Broken(f"a {self.names[1]} has no {self.names[0]} left to pair with")
                if len(owners_of[i]) == 1:
                    link(next(iter(owners_of[i])), i)
        forced = [(i, 1) for i in linked_key if values[i] is None]
        forced += [(i, 0) for i, value in enumerate(values) if value is None and not owners_of[i]]
        if not forced and None not in values and not perfect(self.options, {i for i, v in enumerate(values) if v}):
            raise Broken(f"no pairing of {self.names[0]}s and {self.names[1]}s fits")
        return forced

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []
