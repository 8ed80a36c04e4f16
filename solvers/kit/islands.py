"""A rule over grid cells: the cells holding ``value`` form islands (orthogonally connected groups) of a given size.
Two kinds: each island holds exactly one numbered cell and as many cells as its number (Nurikabe's islands); or,
with ``size``, every island has ``size`` cells (``at_least``: that many or more) whatever givens it holds, none or
several (Fillomino's regions of one number: a rule per number, over the cells' keys for that number).

SAT: each model that breaks it gets a cut naming the cells that would have to change: an island with two numbers,
one cell of the path between them leaves it; an island too large, one of ``size + 1`` (or its number's + 1) joined
cells leaves it; one too small or without a number, a cell around it joins or one of its own leaves. With ``size``
a few local clauses go in up front (an island of 1 touches none; a larger one's cells each touch another).
A person, numbered islands: a finished island's neighbours leave the value; an island still to grow with one way
out takes it; an open cell beside two numbered islands, or out of reach of every number still growing, leaves it.
With ``size`` the same four readings (``reading``): a complete island's neighbours leave; an island with one way
out takes it; a cell that would join islands into too many cells leaves; a cell no island can grow to, with no
room for a new island around it, leaves.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from solvers.common import Cell
from solvers.kit.rules import Broken, Key, Model, Rule, open_as_none
from solvers.techniques.human import Contradiction, GridState, Step, Technique, cell_name, cells_named

COMPLETE, EXIT, JOIN, REACH, CRITICAL = "complete", "exit", "join", "reach", "critical"  # an island of a size's readings
MEMO = 4096  # readings an Islands rule remembers (by the state of its cells) before it forgets them all


@dataclass(frozen=True)
class Islands:
    """The ``cells`` (keys whose first two items are the grid cell: ``(r, c)`` or ``(r, c, d)``) holding ``value``
    form islands of one number each, of that many cells, ``numbers`` mapping a numbered cell to its number
    (numbered cells hold ``value``: a rule of the genre's says so); or, with ``size`` and no ``numbers``, islands of
    ``size`` cells (``at_least``: of at least ``size``). ``each``, where given, words a violation per broken island
    (``{cell}``: its first cell, ``{cells}``: how many cells, "5 cells")."""

    cells: tuple[Key, ...]
    value: int
    numbers: Mapping[Cell, int]
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False
    size: int | None = None
    at_least: bool = False
    each: str | None = None
    adjacent: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    seeds: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)  # (position, number)
    plane: _Plane = field(init=False, repr=False, compare=False)
    memo: dict[tuple[int, int, bool], dict[int, tuple[int, str, int]] | Broken] = field(
        init=False, repr=False, compare=False, default_factory=dict)  # readings by state: trials meet one again and again
    lazy: ClassVar[bool] = True
    takes_arrays: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.size is not None and self.numbers:
            raise ValueError("islands of one size hold no numbers: their givens are the genre's own rules")
        at = {self._cell(i): i for i in range(len(self.cells))}
        object.__setattr__(self, "adjacent", tuple(
            tuple(at[(r + dr, c + dc)] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if (r + dr, c + dc) in at)
            for r, c in map(self._cell, range(len(self.cells)))))  # type: ignore[misc]
        object.__setattr__(self, "seeds", tuple((at[cell], n) for cell, n in self.numbers.items()))  # type: ignore[index]
        object.__setattr__(self, "plane", _Plane.of([self._cell(i) for i in range(len(self.cells))]))

    def _cell(self, i: int) -> Cell:
        key = self.cells[i]
        return key[0], key[1]  # type: ignore[index]

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

    def _faults(self, values: Sequence[int | None], closed: bool) -> list[tuple[str, list[int], list[int], list[int]]]:
        """Per broken island: what is wrong, its cells, cells one of which must leave it, cells one of which must
        join it (around it). With ``closed`` an island counts as too small or unnumbered only when nothing around
        it is open."""
        number = dict(self.seeds)
        faults = []
        for group in self._groups(values):
            inside = set(group)
            seeds = [i for i in group if i in number]
            around = sorted({j for i in group for j in self.adjacent[i] if j not in inside})
            open_around = any(values[j] is None for j in around)
            target = self.size if self.size is not None else number[seeds[0]] if seeds else None
            if len(seeds) > 1:
                faults.append(("holds two numbers", group, self._path(seeds[0], seeds[1], inside), []))
            elif target is not None and len(group) > target and not self.at_least:
                start = seeds[0] if seeds else group[0]
                faults.append((f"is larger than its {target}", group, self._nearest(start, inside, target + 1), []))
            elif (target is None or len(group) < target) and not (closed and open_around):
                faults.append(("has no number" if target is None else f"is smaller than its {target}",
                               group, group, around))
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

    def _whole(self, values: Sequence[int]) -> bool:
        """Whether every island of a size in the complete ``values`` has its size: read on bit masks, before any
        fault is listed (most models the SAT solver offers break only a few of a genre's sizes)."""
        size, parts = self.size or 0, self.plane.parts(self.plane.masks(values, self.value)[0])
        return all(part.bit_count() == size or self.at_least and part.bit_count() > size for part in parts)

    def broken_by(self, values: Mapping[Key, int]) -> bool:
        return bool(self._faults([values[key] for key in self.cells], closed=False))

    def told(self, values: Mapping[Key, int]) -> list[tuple[str, list[Cell]]] | None:
        """A violation per broken island, worded by ``each`` (None without it: the checker words the rule)."""
        if self.each is None:
            return None
        return [(self.each.format(cell=cell_name(self._cell(group[0])), cells=f"{len(group)} cell{'s' * (len(group) > 1)}"),
                 [self._cell(i) for i in sorted(group)])
                for _, group, _, _ in self._faults([values[key] for key in self.cells], closed=False)]

    def encode(self, sat: object, lits: Sequence[int], guard: int | None) -> None:
        """Nothing up front for numbered islands (cuts, as models come); for islands of a size, each cell holding
        the value touches another (size 2 and more: at most one other at size 2), or none (size 1)."""
        if self.size is None:
            return
        holds = [lit if self.value else -lit for lit in lits]
        for i, near in enumerate(self.adjacent):
            if self.size == 1 and not self.at_least:
                for j in near:
                    if j > i:
                        sat.add_clause([-holds[i], -holds[j]])  # type: ignore[attr-defined]
                continue
            if self.size >= 2:
                sat.add_clause([-holds[i], *(holds[j] for j in near)])  # type: ignore[attr-defined]
            if self.size == 2 and not self.at_least:
                for a, j in enumerate(near):
                    for k in near[a + 1:]:
                        sat.add_clause([-holds[i], -holds[j], -holds[k]])  # type: ignore[attr-defined]

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        if self.size is not None and self._whole(values):
            return []
        holds = [lit if self.value else -lit for lit in lits]
        return [[-holds[i] for i in leave] + [holds[j] for j in join]
                for _, _, leave, join in self._faults(values, closed=False)]

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """Islands of a size: the readings COMPLETE, EXIT and JOIN (REACH is ``read``'s, a person's deeper look)."""
        if self.size is not None:
            return [(i, v) for i, (v, _, _) in sorted(self.reading(values, deep=False).items())]
        values = open_as_none(values)
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

    def read(self, values: Sequence[int | None], candidates: bool = True) -> list[tuple[int, int]]:
        """The rule read as a whole (``solvers.kit.arrays``' deeper reading): islands of a size with REACH
        too; numbered islands, their look."""
        if self.size is None:
            return self.look(values)
        return [(i, v) for i, (v, _, _) in sorted(self.reading(values, deep=True).items())]

    def reading(self, values: Sequence[int | None], deep: bool = True) -> dict[int, tuple[int, str, int]]:
        """Islands of a size: what the readings decide (REACH and CRITICAL only when ``deep``), per open position
        its value, the reading (the first that decides it: COMPLETE, EXIT, JOIN, REACH, CRITICAL) and the islands
        it reads (a ``plane`` mask); raises Broken. On bit masks (``_Plane``), remembered by state: a level check
        of a large grid looks at these rules hundreds of thousands of times."""
        assert self.size is not None
        if not deep and self.value not in values:
            return {}  # no island yet: nothing to read but room for new ones (``deep``)
        held, left, open_ = self.plane.masks(values, self.value)
        memo = self.memo
        if (held, left, deep) not in memo:
            if len(memo) > MEMO:
                memo.clear()
            try:
                memo[(held, left, deep)] = self._read(held, left, open_, deep)
            except Broken as broken:
                memo[(held, left, deep)] = broken
        found = memo[(held, left, deep)]
        if isinstance(found, Broken):
            raise Broken(found.why)
        return found

    def _read(self, held: int, left: int, open_: int, deep: bool) -> dict[int, tuple[int, str, int]]:
        assert self.size is not None
        size, on, off, plane = self.size, self.value, 1 - self.value, self.plane
        free = plane.full & ~left
        groups = list(plane.parts(held))
        forced: dict[int, tuple[int, str, int]] = {}

        def decide(cells: int, value: int, why: str, because: int = 0) -> None:
            for i in plane.positions(cells):
                if forced.setdefault(i, (value, why, because))[0] != value:
                    raise Broken(f"{cell_name(self._cell(i))} would have to both join a group and stay out of it")

        borders, seen, twice = [], 0, 0
        for group in groups:
            count, ways = group.bit_count(), plane.spread(group) & open_
            borders.append(ways)
            if count == size and not ways:
                continue  # complete and closed: nothing to read
            twice |= seen & ways
            seen |= ways
            if count > size and not self.at_least:
                raise Broken(f"a group of {count} is larger than its {size}")
            room = plane.grow(group, free, size).bit_count()
            if room < size:
                raise Broken(f"a group of {count} has room for only {room}")
            if count == size and not self.at_least:
                decide(ways, off, COMPLETE, group)
            elif count < size and ways.bit_count() == 1:
                decide(ways, on, EXIT, group)
        if not self.at_least:  # a cell beside one island only joins it past its size when it is complete
            for cell in plane.bits(twice):
                joined = [g for g, ways in zip(groups, borders, strict=True) if ways & cell]
                if 1 + sum(g.bit_count() for g in joined) > size:
                    decide(cell, off, JOIN, sum(joined))
        if not deep:
            return forced
        reach = 0
        for part in plane.parts(open_ & ~plane.spread(held)):  # room for a new island away from the others
            if part.bit_count() >= size:
                reach |= part
        decide(open_ & ~(reach | self._grown(groups, free)), off, REACH)
        for group in groups:  # a cell an island short of cells cannot reach its size without (Tatham's "critical square")
            missing = size - group.bit_count()
            if missing > 0:
                near = group
                for _ in range(missing):
                    near = plane.spread(near) & free
                for cell in plane.bits(near & open_):
                    if plane.grow(group, free & ~cell, size).bit_count() < size:
                        decide(cell, on, CRITICAL, group)
        return forced

    def _grown(self, groups: list[int], free: int) -> int:
        """The cells the islands could grow to within the cells each still misses, through ``free`` cells: one
        spread for them all, an island joining when the spreads left equal what it misses."""
        assert self.size is not None
        plane, missing = self.plane, {}
        for group in groups:
            left = plane.full.bit_count() if self.at_least else self.size - group.bit_count()
            missing[left] = missing.get(left, 0) | group
        grown, last = 0, min(missing, default=0)
        for left in range(max(missing, default=0), -1, -1):
            wider = (plane.spread(grown) & free if grown else 0) | missing.get(left, 0)
            if wider == grown and left < last:
                break  # every island in, and no cell more: the rest of the spreads add nothing
            grown = wider
        return grown


_DIGIT = {v: bytes(ord("1") if b == v % 256 else ord("0") for b in range(256)) for v in (-1, 0, 1)}  # a byte -> "1"/"0"


@dataclass(frozen=True)
class _Plane:
    """The positions of a rule's cells as the bits of one int, row by row over their bounding box, so a joined
    group grows by shifts: ``spread`` adds each cell's orthogonal neighbours."""

    width: int
    bit: tuple[int, ...]  # per position, its bit
    full: int
    not_first: int  # every column but the first, where a shift right lands from the row above
    not_last: int
    row_major: bool  # position i is bit i (a whole rectangle in reading order)

    @classmethod
    def of(cls, cells: Sequence[Cell]) -> _Plane:
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        width = max(c for _, c in cells) - left + 1
        bit = tuple((r - top) * width + c - left for r, c in cells)
        full = sum(1 << b for b in set(bit))
        first = sum(1 << b for b in range(0, max(bit) + 1, width))
        return cls(width, bit, full, full & ~first, full & ~(first << (width - 1)), bit == tuple(range(len(bit))))

    def spread(self, mask: int) -> int:
        return (mask | ((mask << 1) & self.not_first) | ((mask >> 1) & self.not_last) | (mask << self.width)
                | (mask >> self.width)) & self.full

    def grow(self, seed: int, within: int, enough: int | None = None) -> int:
        """The cells of ``within`` joined to ``seed`` (seed included), or a part of them once it has ``enough``."""
        while enough is None or seed.bit_count() < enough:
            wider = self.spread(seed) & within | seed
            if wider == seed:
                break
            seed = wider
        return seed

    def parts(self, mask: int) -> list[int]:
        """The joined groups of ``mask``."""
        found = []
        while mask:
            part = self.grow(mask & -mask, mask)
            found.append(part)
            mask &= ~part
        return found

    def bits(self, mask: int) -> list[int]:
        found = []
        while mask:
            low = mask & -mask
            found.append(low)
            mask ^= low
        return found

    def positions(self, mask: int) -> list[int]:
        at = [low.bit_length() - 1 for low in self.bits(mask)]
        if self.row_major:
            return at
        index = {b: i for i, b in enumerate(self.bit)}
        return [index[b] for b in at]

    def masks(self, values: Sequence[int | None], value: int) -> tuple[int, int, int]:
        """The positions holding ``value``, those holding the other, and the open ones (None or -1)."""
        if self.row_major:  # the bits read off one string of bytes, last position first
            try:
                raw = array("b", values)
            except TypeError:  # None for an open position: a person's state
                raw = array("b", [-1 if v is None else v for v in values])
            text = raw.tobytes()[::-1]
            held, open_ = int(text.translate(_DIGIT[value]), 2), int(text.translate(_DIGIT[-1]), 2)
            return held, self.full & ~(held | open_), open_
        held = left = open_ = 0
        bit = self.bit
        for i, v in enumerate(values):
            if v is None or v < 0:
                open_ |= 1 << bit[i]
            elif v == value:
                held |= 1 << bit[i]
            else:
                left |= 1 << bit[i]
        return held, left, open_


def _reading(says: dict[str, str], name: str, description: str, weight: float) -> Technique[Model, GridState]:
    """A technique of readings of every Islands rule of a size: a step per island (per cell for JOIN) a reading
    decides; ``says`` words why per reading, with ``{group}`` the island's cells, ``{cell}`` the first cell
    decided, ``{cells}`` all of them and ``{size}`` the islands' size."""
    deep = bool({REACH, CRITICAL} & set(says))

    def steps(model: Model, state: GridState, rules: Iterable[int], worded: bool = True) -> list[Step]:
        found: list[Step] = []
        for k in rules:
            rule = model.rules[k]
            if not isinstance(rule, Islands) or rule.size is None:
                continue
            members = model.flat.cells[k]
            try:
                read = rule.reading([state.values[i] for i in members], deep=deep)
            except Broken as broken:
                raise Contradiction(f"{rule.says}, and {broken.why}", model.where(rule)) from None
            by_island: dict[tuple[str, tuple[int, ...]], list[tuple[int, int]]] = {}
            for p, (value, why, because) in sorted(read.items()):
                if why in says:
                    islands = tuple(rule.plane.positions(because))
                    by_island.setdefault((why, islands if why != JOIN else (p, *islands)), []).append((p, value))
            for (why, islands), decided in by_island.items():
                if not worded:  # a trial's step (``Technique.near``): applied, never shown
                    found.append(Step(name, "", tuple(((0, members[p]), v) for p, v in decided)))
                    continue
                keys = [model.keys[members[p]] for p, _ in decided]
                group = [rule._cell(p) for p in islands if p not in dict(decided)]
                told = says[why].format(group=cells_named(group), cell=cell_name(rule._cell(decided[0][0])),
                                        cells=cells_named(rule._cell(p) for p, _ in decided),
                                        size=f"{rule.size} or more" if rule.at_least else rule.size)
                found.append(Step(name, f"{rule.says}: {told}, so {model.layout.say(keys, decided[0][1])}",
                                  tuple(((0, members[p]), v) for p, v in decided),
                                  tuple(dict.fromkeys([*group, *(rule._cell(p) for p, _ in decided)]))))
        return found

    return Technique(name, description, weight, lambda model, state: steps(model, state, range(len(model.rules))),
                     lambda model, state, changed: steps(model, state, dict.fromkeys(
                         k for i in changed for k in model.flat.at[i]), worded=False))


def deeper(rule: Rule, values: Sequence[int | None]) -> list[tuple[int, int]]:
    """``solvers.kit.arrays``' deeper reading at the level of OUT_OF_REACH: islands read whole, other rules
    by their look."""
    return rule.read(values) if isinstance(rule, Islands) else rule.look(values)


# The readings of islands of a size as a person's techniques: the first three are what the rules' looks decide,
# named (``solvers.kit.human``'s ``first``, at the easiest level); OUT_OF_REACH is the next level's reading.
READINGS = (
    _reading({COMPLETE: "the region {group} is complete at {size}"}, "complete region",
             "A region with all its cells: its neighbours take another number.", 1.0),
    _reading({EXIT: "{group} can only grow through {cell}"}, "only way out",
             "A region still short of cells with one open neighbour grows there.", 1.0),
    _reading({JOIN: "{cell} would join {group} into more than {size}"}, "too big to join",
             "A cell that would join regions of a number into more cells than the number takes another.", 1.0),
)
OUT_OF_REACH = _reading({REACH: "no region of {size} can reach or fit {cells}",
                         CRITICAL: "{group} cannot reach {size} without {cell}"}, "out of reach",
                        "A cell no region of a number can grow to, with no room for a new one around it, takes another "
                        "number; a cell a region cannot be completed without joins it.", 2.0)
