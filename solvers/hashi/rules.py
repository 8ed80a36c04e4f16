"""Hashi (Bridges, Hashiwokakero): join the islands with horizontal and vertical bridges, one or two between a
pair that see each other along a row or column, no bridge crossing another, each island with as many bridges as
its number, all islands one network.

The answer is a list of bridges, so the genre writes its own layout (``Bridges``): each pair of islands that see
each other has two 0/1 keys, ``(a, b, 1)`` "one bridge" and ``(a, b, 2)`` "two bridges". Its rules are counts over
those keys (a 2-key listed twice weighs two) and one ``Connected``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from solvers.common import Cell, InvalidInput, grid_shape_violations
from solvers.grid import lines
from solvers.kit.rules import Broken, Connected, Count, Model
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
    """The answer's ``bridges`` list as the kit's 0/1 keys: ``(a, b, n)`` is 1 when a and b have n bridges. Without
    a puzzle it only names the fields of a hint's partial answer."""

    fields = ("bridges",)

    def __init__(self, puzzle: HashiPuzzle | None = None):
        self.pairs = pairs(puzzle) if puzzle else []
        self.islands = set(islands(puzzle)) if puzzle else set()

    def keys(self) -> tuple[Key, ...]:
        return tuple((a, b, n) for a, b in self.pairs for n in (1, 2))

    def _entries(self, items: Any, counts: Sequence[int], once: bool = True) -> list[tuple[Pair, int]]:
        """Each listed bridge as (pair, count); raises InvalidInput on an unknown pair, a count not in ``counts`` or
        (``once``) a pair listed twice."""
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
        """A hint request's drawn bridges (count 0: a pair the player says has none) and the counts a hint ruled
        out (``excluded``); other keys undecided."""
        ruled = {(a, b, n): 0 for (a, b), n in self._entries(state.get("excluded"), (1, 2), once=False)}
        drawn = self._entries(state.get("bridges"), (0, 1, 2))
        return {**ruled, **{(a, b, n): int(count == n) for (a, b), count in drawn for n in (1, 2)}}

    def write(self, ones: set[Any]) -> dict[str, Any]:
        return {"bridges": [{"from": list(a), "to": list(b), "count": n} for a, b, n in sorted(ones)]}

    def cell(self, key: Key) -> Cell:
        return key[0]

    def say(self, keys: Sequence[Key], value: int) -> str:
        return "; ".join(f"{name((a, b))} {'has' if value else 'has not'} {'one bridge' if n == 1 else 'two bridges'}"
                         for a, b, n in keys)

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        a, b, n = key
        return {"cell": list(a), "from": list(a), "to": list(b), "count": n, "value": value}

    def state_fields(self, description: str) -> dict[str, Any]:
        return {"bridges": (list[Bridge] | None, Field(None, description=(
            f"{description}: the bridges drawn so far (count 1 or 2), count 0 for a pair known to have none; "
            "other pairs undecided."))),
                "excluded": (list[Bridge] | None, Field(None, description=(
                    "Counts ruled out so far: the pair has not `count` bridges (a hint's decision with value 0).")))}


@lru_cache(maxsize=1 << 16)
def agreed(number: int, values: tuple[int | None, ...]) -> tuple[tuple[int, int], ...] | str:
    """What every way of making ``number`` from an island's keys (``Island``) agrees on, as (position, value); a
    str when no way makes it (why not). Islands see few patterns, so each is worked out once."""
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
    """An island's number: each pair's one-bridge key, then its two-bridge key twice (it weighs two). A person
    reads it pair by pair (none, one or two bridges each), so it decides what every way of making the number
    agrees on: an 8 takes two bridges every way, a 3 with two pairs at least one each."""

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        found = agreed(self.low, tuple(values))
        if isinstance(found, str):
            raise Broken(found)
        return list(found)


class Network(Connected):
    """``Connected`` whose look reads each link once, on node numbers (not each group's links in turn): the look at
    a 15×15 board's network runs thousands of times in a level check."""

    def __post_init__(self) -> None:
        super().__post_init__()
        number = {node: i for i, node in enumerate(dict.fromkeys([*self.nodes, *(n for _, a, b in self.links for n in (a, b))]))}
        object.__setattr__(self, "ends", [(number[a], number[b]) for _, a, b in self.links])
        object.__setattr__(self, "required", [number[node] for node in self.nodes])
        object.__setattr__(self, "size", len(number))

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        parent = list(range(self.size))

        def root(x: int) -> int:
            while parent[x] != x:
                parent[x] = x = parent[parent[x]]
            return x

        present, ends = set(self.required), self.ends
        for i in [i for i, value in enumerate(values) if value == 1]:
            a, b = ends[i]
            parent[root(a)] = root(b)
            present.update((a, b))
        top = [root(x) for x in range(self.size)]
        members: dict[int, int] = {}
        for x in present:
            members[top[x]] = members.get(top[x], 0) + 1
        if len(members) < 2:
            return []
        ways: dict[int, list[int]] = {g: [] for g in members}
        for i in [i for i, value in enumerate(values) if value is None]:
            a, b = top[ends[i][0]], top[ends[i][1]]
            if a != b:
                if a in ways:
                    ways[a].append(i)
                if b in ways:
                    ways[b].append(i)
        for g, out in ways.items():
            if not out:
                raise Broken(f"a group of {members[g]} would be cut off from the rest")
        return [(out[0], 1) for out in ways.values() if len(out) == 1]


def model(puzzle: HashiPuzzle) -> Model:
    """Each pair has one count of bridges at most; an island's bridges make its number; crossing pairs are not
    both bridged; the bridged pairs join every island into one network."""
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
    rules.append(Network(links, "islands-connected", "every island is joined into one network",
                           nodes=tuple(sorted(layout.islands)), where=tuple(sorted(layout.islands))))
    return Model(layout, tuple(rules))
