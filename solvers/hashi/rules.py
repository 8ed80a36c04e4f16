"""Hashi (Bridges, Hashiwokakero): join the islands with horizontal and vertical bridges, one or two between a
pair that see each other along a row or column, no bridge crossing another, each island with as many bridges as
its number, all islands one network.

The answer is a list of bridges, so the genre writes its own layout (``Bridges``): each pair of islands that see
each other has two 0/1 keys, ``(a, b, 1)`` "one bridge" and ``(a, b, 2)`` "two bridges". Its rules are counts over
those keys (a 2-key listed twice weighs two) and one ``Connected``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from solvers.common import Cell, InvalidInput, grid_shape_violations
from solvers.grid import lines
from solvers.kit.rules import Connected, Count, Model
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
        cells = [[0 if v is None else v for v in row] if isinstance(row, list) else row for row in self.islands]
        problems = grid_shape_violations(cells, self.rows, self.cols, "islands", range(9))
        if problems:
            raise ValueError("; ".join(p.message.replace("0..8", "null, 1..8") for p in problems))
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


def between(pair: Pair) -> list[Cell]:
    """The water cells a bridge of ``pair`` passes over."""
    (r0, c0), (r1, c1) = pair
    return [(r, c0) for r in range(r0 + 1, r1)] if c0 == c1 else [(r0, c) for c in range(c0 + 1, c1)]


def crossings(found: Iterable[Pair]) -> list[tuple[Pair, Pair]]:
    """The pairs whose bridges would cross: a row's bridge and a column's over the same water cell."""
    over: dict[Cell, list[Pair]] = {}
    for pair in found:
        for cell in between(pair):
            over.setdefault(cell, []).append(pair)
    return [(a, b) for crossing in over.values() for a, b in combinations(crossing, 2)]


def name(pair: Pair) -> str:
    return f"{cell_name(pair[0])}–{cell_name(pair[1])}"


class Bridges:
    """The answer's ``bridges`` list as the kit's 0/1 keys: ``(a, b, n)`` is 1 when a and b have n bridges."""

    fields = ("bridges",)

    def __init__(self, puzzle: HashiPuzzle):
        self.pairs = pairs(puzzle)
        self.islands = set(islands(puzzle))

    def keys(self) -> tuple[Key, ...]:
        return tuple((a, b, n) for a, b in self.pairs for n in (1, 2))

    def _pair(self, start: Any, to: Any) -> Pair:
        a, b = sorted((tuple(start), tuple(to)))
        if a not in self.islands or b not in self.islands:
            raise InvalidInput(f"a bridge joins two islands: {cell_name(a)}–{cell_name(b)} is not a pair of islands")
        if (a, b) not in self.pairs:
            raise InvalidInput(f"{name((a, b))}: a bridge runs along a row or column to the next island")
        return a, b

    def _entries(self, answer: Mapping[str, Any], counts: Iterable[int]) -> dict[Pair, int]:
        seen: dict[Pair, int] = {}
        for item in answer.get("bridges") or []:
            bridge = item if isinstance(item, Bridge) else Bridge.model_validate(item)
            pair = self._pair(bridge.start, bridge.to)
            if bridge.count not in counts:
                raise InvalidInput(f"{name(pair)} has {bridge.count} bridges: a pair has {' or '.join(map(str, counts))}")
            if pair in seen:
                raise InvalidInput(f"{name(pair)} is listed twice: list each pair once with its count")
            seen[pair] = bridge.count
        return seen

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        drawn = self._entries(answer, (1, 2))
        return {(a, b, n): int(drawn.get((a, b)) == n) for a, b in self.pairs for n in (1, 2)}

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        """A hint request's drawn bridges, count 0 for a pair the player says has none; other pairs undecided."""
        drawn = self._entries(state, (0, 1, 2))
        return {(a, b, n): int(count == n) for (a, b), count in drawn.items() for n in (1, 2)}

    def write(self, ones: set[Any]) -> dict[str, Any]:
        return {"bridges": [{"from": list(a), "to": list(b), "count": n} for a, b, n in sorted(ones)]}

    def cell(self, key: Key) -> Cell:
        return key[0]

    def say(self, keys: Iterable[Key], value: int) -> str:
        told = [f"{name((a, b))} {'has' if value else 'has not'} {'one bridge' if n == 1 else 'two bridges'}"
                for a, b, n in keys]
        return " and ".join(told)

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        a, b, n = key
        return {"cell": list(a), "from": list(a), "to": list(b), "count": n, "value": value}

    def state_fields(self) -> dict[str, Any]:
        return {"bridges": (list[Bridge] | None, Field(None, description=(
            "The bridges drawn so far (count 1 or 2), and count 0 for a pair known to have none; other pairs "
            "are undecided.")))}


def model(puzzle: HashiPuzzle) -> Model:
    """Each pair has one or two bridges or none; an island's bridges sum to its number; crossing pairs are not both
    bridged; the bridged pairs join every island into one network."""
    layout = Bridges(puzzle)
    rules: list[Any] = [Count(((a, b, 1), (a, b, 2)), 0, 1, "one-count-per-pair",
                              f"{name((a, b))} has one count of bridges", where=(a, b)) for a, b in layout.pairs]
    for island in sorted(layout.islands):
        number = puzzle.islands[island[0]][island[1]]
        keys = tuple(k for a, b in layout.pairs if island in (a, b) for k in ((a, b, 1), (a, b, 2), (a, b, 2)))
        rules.append(Count(keys, number, number, "island-number",
                           f"the {number} at {cell_name(island)} counts its bridges", where=(island,), clue=island))
    for p, q in crossings(layout.pairs):
        rules.append(Count(tuple((*pair, n) for pair in (p, q) for n in (1, 2)), 0, 1, "bridges-cross",
                           f"{name(p)} and {name(q)} cross (one of them at most)", where=(*p, *q)))
    links = tuple(((a, b, n), a, b) for a, b in layout.pairs for n in (1, 2))
    rules.append(Connected(links, "islands-connected", "every island is joined into one network",
                           nodes=tuple(sorted(layout.islands)), where=tuple(sorted(layout.islands))))
    return Model(layout, tuple(rules))
