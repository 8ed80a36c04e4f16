"""Hashi (Bridges): join the islands by one or two bridges between pairs that see each other along a row or
column, no bridge crossing another, each island with as many bridges as its number, all islands one network.

The answer is a list of bridges, laid out (``Bridges``) as two keys per pair, ``(a, b, 1)`` and ``(a, b, 2)``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from solvers.common import Cell, InvalidInput, grid_shape_violations
from solvers.grid import lines
from solvers.kit.network import Deferred
from solvers.kit.rules import Broken, Count, Model
from solvers.sat import SatBackend
from solvers.techniques.human import cell_name

MAX_SIDE = 30
Pair = tuple[Cell, Cell]
Key = tuple[Cell, Cell, int]


class HashiPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE)
    cols: int = Field(ge=1, le=MAX_SIDE)
    islands: list[list[int | None]] = Field(description="R×C: null for water, 1–8 for an island and its number.")

    @model_validator(mode="after")
    def _islands_fit(self) -> HashiPuzzle:
        cells = [[1 if v is None else v for v in row] if isinstance(row, list) else row for row in self.islands]
        problems = grid_shape_violations(cells, self.rows, self.cols, "islands", range(1, 9))
        if problems:
            raise ValueError("; ".join(p.message.replace("1..8", "null, 1..8") for p in problems))
        return self


class Bridge(BaseModel):
    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)
    start: tuple[int, int] = Field(alias="from", description="One island's cell [r, c].")
    to: tuple[int, int] = Field(description="The other island's cell, in the same row or column.")
    count: int = Field(description="1 or 2 bridges.")


class HashiAnswer(BaseModel):
    bridges: list[Bridge] = Field(description="Every pair of islands joined, with its number of bridges.")


def islands(puzzle: HashiPuzzle) -> list[Cell]:
    return [(r, c) for r, row in enumerate(puzzle.islands) for c, v in enumerate(row) if v is not None]


def pairs(puzzle: HashiPuzzle) -> list[Pair]:
    """The pairs of islands that see each other: neighbours along a row or column with only water between."""
    found = []
    for line in lines(puzzle.rows, puzzle.cols):
        on = [cell for cell in line if puzzle.islands[cell[0]][cell[1]] is not None]
        found.extend(zip(on, on[1:], strict=False))
    return found


def crossings(found: Iterable[Pair]) -> list[tuple[Pair, Pair]]:
    """The pairs whose bridges would cross: a row's bridge and a column's over the same water cell."""
    over: dict[Cell, list[Pair]] = {}
    for (r0, c0), (r1, c1) in found:
        for cell in [(r, c0) for r in range(r0 + 1, r1)] if c0 == c1 else [(r0, c) for c in range(c0 + 1, c1)]:
            over.setdefault(cell, []).append(((r0, c0), (r1, c1)))
    return [(a, b) for crossing in over.values() for a, b in combinations(crossing, 2)]


def name(pair: Pair) -> str:
    return f"{cell_name(pair[0])}–{cell_name(pair[1])}"


class Bridges:
    """The ``bridges`` list as 0/1 keys: ``(a, b, n)`` is 1 when a and b have n bridges. A hint's partial answer
    lists a pair known to have none with count 0, and counts ruled out one by one as ``excluded``."""

    fields = ("bridges",)

    def __init__(self, puzzle: HashiPuzzle | None = None):
        self.pairs = pairs(puzzle) if puzzle else []
        self.islands = set(islands(puzzle)) if puzzle else set()

    def keys(self) -> tuple[Key, ...]:
        return tuple((a, b, n) for a, b in self.pairs for n in (1, 2))

    def _entries(self, items: Any, counts: Sequence[int], once: bool = True) -> list[tuple[Pair, int]]:
        found: list[tuple[Pair, int]] = []
        for item in items or []:
            bridge = item if isinstance(item, Bridge) else Bridge.model_validate(item)
            a, b = sorted((tuple(bridge.start), tuple(bridge.to)))
            if a not in self.islands or b not in self.islands:
                raise InvalidInput(f"a bridge joins two islands: {name((a, b))} does not")
            if (a, b) not in self.pairs:
                raise InvalidInput(f"{name((a, b))}: a bridge runs along a row or column to the next island")
            if bridge.count not in counts:
                raise InvalidInput(f"{name((a, b))} has {bridge.count} bridges: a pair has "
                                   f"{' or '.join(map(str, counts))}")
            if once and any(pair == (a, b) for pair, _ in found):
                raise InvalidInput(f"{name((a, b))} is listed twice: list each pair once with its count")
            found.append(((a, b), bridge.count))
        return found

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        drawn = dict(self._entries(answer.get("bridges"), (1, 2)))
        return {(a, b, n): int(drawn.get((a, b)) == n) for a, b in self.pairs for n in (1, 2)}

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        ruled = {(a, b, n): 0 for (a, b), n in self._entries(state.get("excluded"), (1, 2), once=False)}
        drawn = self._entries(state.get("bridges"), (0, 1, 2))
        return {**ruled, **{(a, b, n): int(count == n) for (a, b), count in drawn for n in (1, 2)}}

    def state_of(self, decided: Mapping[Key, int]) -> dict[str, Any]:
        state: dict[str, list[dict[str, Any]]] = {"bridges": [], "excluded": []}
        for a, b in self.pairs:
            told = {n: decided[(a, b, n)] for n in (1, 2) if (a, b, n) in decided}
            count = next((n for n, value in told.items() if value), 0 if len(told) == 2 else None)
            for field, n in [("bridges", count)] if count is not None else [("excluded", n) for n in told]:
                state[field].append({"from": list(a), "to": list(b), "count": n})
        return state

    def decision(self, entry: Mapping[str, Any]) -> tuple[Key, int]:
        return (tuple(entry["from"]), tuple(entry["to"]), entry["count"]), entry["value"]

    def write(self, ones: set[Any]) -> dict[str, Any]:
        return {"bridges": [{"from": list(a), "to": list(b), "count": n} for a, b, n in sorted(ones)]}

    def cell(self, key: Key) -> Cell:
        return key[0]

    def say(self, keys: Sequence[Key], value: int) -> str:
        return "; ".join(f"{name((a, b))} {'has' if value else 'does not have'} {'one bridge' if n == 1 else 'two bridges'}"
                         for a, b, n in keys)

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        a, b, n = key
        return {"cell": list(a), "from": list(a), "to": list(b), "count": n, "value": value}

    def state_fields(self, description: str) -> dict[str, Any]:
        return {"bridges": (list[Bridge] | None, Field(None, description=f"{description}: drawn so far, count 0 for "
                                                       "a pair known to have none; other pairs undecided.")),
                "excluded": (list[Bridge] | None, Field(None, description="Counts a pair is known not to have."))}


@lru_cache(maxsize=1 << 16)
def agreed(number: int, values: tuple[int | None, ...]) -> tuple[tuple[int, int], ...] | str:
    """What every way of making ``number`` from an island's keys agrees on, as (position, value); a str when no
    way makes it (why not). Islands see few patterns: each is worked out once."""
    options = [[n for n in (0, 1, 2) if values[j] in (None, int(n == 1)) and values[j + 1] in (None, int(n == 2))]
               for j in range(0, len(values), 3)]
    ways = [way for way in product(*options) if sum(way) == number]
    if not ways:
        least, most = sum(min(o, default=0) for o in options), sum(max(o, default=0) for o in options)
        return f"it would have {least}" if least > number else f"room for only {most}"
    forced: list[tuple[int, int]] = []
    for p in range(len(options)):
        for n, at in ((1, (3 * p,)), (2, (3 * p + 1, 3 * p + 2))):
            told = {int(way[p] == n) for way in ways}
            if len(told) == 1 and values[at[0]] is None:
                forced += [(j, *told) for j in at]
    return tuple(forced)


@dataclass(frozen=True)
class Island(Count):
    """An island's number over each pair's keys, the two-bridge key twice (it weighs two). A person reads it pair by
    pair (none, one or two bridges), so it decides what every way agrees on: a 3 with two pairs has one each."""

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """Each way the pairs' counts miss the number ruled out by one clause (a few dozen per island)."""
        pairs = [(lits[j], lits[j + 1]) for j in range(0, len(lits), 3)]
        for way in product((0, 1, 2), repeat=len(pairs)) if pairs else ():
            if sum(way) != self.low:
                sat.add_clause([lit for (one, two), n in zip(pairs, way, strict=True)
                                for lit in (-one if n == 1 else one, -two if n == 2 else two)])
        if not pairs:
            super().encode(sat, lits, guard)

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        found = agreed(self.low, tuple(values))
        if isinstance(found, str):
            raise Broken(found)
        return list(found)


def model(puzzle: HashiPuzzle) -> Model:
    """A pair has one count at most; an island's bridges make its number; of two crossing pairs one at most is
    bridged; the bridges join every island into one network."""
    layout = Bridges(puzzle)
    rules: list[Any] = [Count(((a, b, 1), (a, b, 2)), 0, 1, "one-count-per-pair",
                              f"{name((a, b))} has one count of bridges", where=(a, b)) for a, b in layout.pairs]
    for island in sorted(layout.islands):
        number = puzzle.islands[island[0]][island[1]]
        keys = tuple(k for a, b in layout.pairs if island in (a, b) for k in ((a, b, 1), (a, b, 2), (a, b, 2)))
        rules.append(Island(keys, number, number, "island-number",
                            f"the {number} at {cell_name(island)} counts its bridges", where=(island,)))
    for p, q in crossings(layout.pairs):
        rules.append(Count(tuple((*pair, n) for pair in (p, q) for n in (1, 2)), 0, 1, "bridges-cross",
                           f"{name(p)} and {name(q)} cross (one of them at most)", where=(*p, *q)))
    links = tuple(((a, b, n), a, b) for a, b in layout.pairs for n in (1, 2))
    every = tuple(sorted(layout.islands))
    rules.append(Deferred(links, "islands-connected", "every island is joined into one network", every, every))
    return Model(layout, tuple(rules))

