"""A genre's rules over 0/1 variables: the checker, the SAT encoding and a person's techniques all read them.

A model's variables are the genre's answer laid out as 0/1 keys (``Layout``): a Light Up cell holds a light
or not, a Skyscrapers cell is 4 or not, a Slitherlink edge is part of the loop or not. Most rules say "between
``low`` and ``high`` of these keys are 1" (``Count``): a wall's number counts the lights beside it, a row of a
Latin square holds one 3, a loop's vertex has 0 or 2 of its edges. A rule of another kind (``Connected``, or
a genre's own) keeps the same protocol (``Rule``), so the checker, the solver and the techniques read any.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import product
from typing import Any, ClassVar, Protocol, TypeVar

from pydantic import Field

from solvers.common import (
    Cell,
    Deadline,
    InvalidInput,
    Violation,
    grid_shape_violations,
    violation,
)
from solvers.sat import CadicalBackend, SatBackend, block, make_backend, solve_refined
from solvers.techniques.human import cell_name, cells_named

Key = Hashable
Values = Mapping[Key, int]


class Broken(Exception):
    """A rule that no way of deciding the open keys can keep: ``why`` says what it would have instead."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class Clues:
    """The clues of a rule that reads several (a pearl read with the pearls beside it): it stands while those
    ``shown`` are shown and those ``hidden`` are not. A model may hold one such rule for each way its clues can be
    shown; one of them stands at a time, and with every clue shown (``shown`` None) the one that hides none."""

    shown: frozenset[Hashable]
    hidden: frozenset[Hashable] = frozenset()


def shows(clue: Hashable | None, shown: Iterable[Hashable] | None) -> bool:
    """Whether a rule reading ``clue`` (None: no clue; ``Clues``: several) stands when the clues ``shown`` are
    (None: all of them)."""
    if isinstance(clue, Clues):
        if shown is None:
            return not clue.hidden
        kept = shown if isinstance(shown, (set, frozenset)) else set(shown)
        return clue.shown <= kept and kept.isdisjoint(clue.hidden)
    return clue is None or shown is None or clue in shown


def open_as_none(values: Sequence[int | None]) -> list[int | None]:
    """``values`` with every open key None, from either form a ``takes_arrays`` rule is handed (None or -1 open)."""
    return [None if v is None or v < 0 else v for v in values]


def touches(clue: Hashable | None, gone: Iterable[Hashable]) -> bool:
    """Whether a rule reading ``clue`` reads one of the clues ``gone``."""
    if isinstance(clue, Clues):
        return not (clue.shown.isdisjoint(gone) and clue.hidden.isdisjoint(gone))
    return clue is not None and clue in gone


class Rule(Protocol):
    """What the kit needs of a rule: its keys, code and sentence, and the four ways it is read."""

    cells: tuple[Key, ...]  # the keys the rule reads
    code: str  # the stable code a broken rule reports
    says: str  # the rule as a person reads it; it opens every hint and every violation
    where: tuple[Cell, ...] | None  # the grid cells a broken rule points at (default: the keys' cells)
    clue: Hashable | None  # the clue the rule reads, where the generator may show or hide it
    given: bool  # the puzzle shows its keys' value: decided before any deduction

    def broken_by(self, values: Values) -> bool: ...

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        """Clauses over ``lits`` (one per key of ``cells``), each only under ``guard`` where one is given."""

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """The positions of ``cells`` the rule decides from ``values`` (None = open), with their values;
        raises Broken when no way of deciding the open ones keeps it. A rule with a true ``takes_arrays`` (a class
        attribute) reads -1 as open too, in ``look`` and ``read``: ``solvers.kit.arrays`` then hands it the keys'
        values as they are, without a copy."""

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        """Clauses the SAT encoding left out that a complete ``values`` breaks (lazy constraints); []: kept. A rule
        whose encoding leaves clauses out says so by a true ``lazy`` (a class attribute); the solver asks no other."""


Read = Callable[[Rule, Sequence[int | None]], list[tuple[int, int]]]  # a rule's reading: as ``Rule.look``


@dataclass(frozen=True)
class Count:
    """Between ``low`` and ``high`` of ``cells`` are 1 (or a total in ``allowed``, when the totals are not an
    interval: a loop's vertex has 0 or 2 edges). A key listed twice weighs 2 (exact counts only)."""

    cells: tuple[Key, ...]
    low: int
    high: int
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False
    allowed: frozenset[int] | None = None

    def ones(self, values: Values) -> int:
        return sum(values[key] for key in self.cells)

    def fits(self, total: int) -> bool:
        return self.low <= total <= self.high and (self.allowed is None or total in self.allowed)

    def broken_by(self, values: Values) -> bool:
        return not self.fits(self.ones(values))

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        if len(set(lits)) < len(lits):  # a key listed twice
            weights = Counter(lits)
            if self.low != self.high or guard is not None:
                raise ValueError(f"{self.code}: a weighted count must be exact and always shown")
            sat.add_weighted_equal(list(weights), list(weights.values()), self.low)
            return
        if self.allowed is not None:  # a few keys (a vertex's edges): rule out each total not allowed
            for signs in product((1, -1), repeat=len(lits)):
                if not self.fits(signs.count(1)):
                    sat.add_clause([-s * lit for s, lit in zip(signs, lits, strict=True)]
                                   + ([] if guard is None else [-guard]))
            return
        if self.low > 0:
            sat.add_at_least(list(lits), self.low, guard)
        if self.high < len(lits):
            sat.add_at_most(list(lits), self.high, guard)

    def feasible(self, ones: int, open_: int) -> list[int]:
        return [t for t in range(ones, ones + open_ + 1) if self.fits(t)]

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        ones = sum(v for v in values if v)
        open_ = [i for i, v in enumerate(values) if v is None]
        totals = self.feasible(ones, len(open_))
        if not totals:
            raise Broken(f"it would have {ones}" if ones > self.high or not open_
                         else f"room for only {ones + len(open_)}" if ones + len(open_) < self.low
                         else f"{ones} to {ones + len(open_)}, none of {sorted(self.allowed or ())}")
        if totals[-1] == ones:
            return [(i, 0) for i in open_]
        if totals[0] == ones + len(open_):
            return [(i, 1) for i in open_]
        return []

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []

    def bound(self) -> str:
        if self.allowed is not None:
            return " or ".join(map(str, sorted(self.allowed)))
        return (f"exactly {self.low}" if self.low == self.high else f"at least {self.low}" if self.high >= len(self.cells)
                else f"at most {self.high}" if self.low == 0 else f"{self.low} to {self.high}")


@dataclass(frozen=True)
class Connected:
    """The ``links`` that are 1 join every node they touch, and every node of ``nodes``, into one group: islands
    into one network (``nodes`` = every island), a loop's edges into one loop (no ``nodes``; the vertices' 0-or-2
    counts do the rest). The SAT encoding leaves it out and adds a cut for each group a model leaves apart."""

    links: tuple[tuple[Key, Hashable, Hashable], ...]
    code: str
    says: str
    nodes: tuple[Hashable, ...] = ()
    where: tuple[Cell, ...] | None = None
    clue: Hashable | None = None
    given: bool = False
    cells: tuple[Key, ...] = field(init=False)
    lazy: ClassVar[bool] = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(key for key, _, _ in self.links))

    def groups(self, values: Sequence[int | None]) -> list[set[Hashable]]:
        """The groups the 1-links make of the nodes that must be joined (required or touched)."""
        parent: dict[Hashable, Hashable] = {node: node for node in self.nodes}

        def root(node: Hashable) -> Hashable:
            while parent.setdefault(node, node) != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        for (_, a, b), value in zip(self.links, values, strict=True):
            if value == 1:
                parent[root(a)] = root(b)
        found: dict[Hashable, set[Hashable]] = {}
        for node in list(parent):
            found.setdefault(root(node), set()).add(node)
        return list(found.values())

    def broken_by(self, values: Values) -> bool:
        return len(self.groups([values[key] for key in self.cells])) > 1

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        return None  # by cuts, as models come

    def _present(self, group: set[Hashable], values: Sequence[int | None]) -> int | None:
        """-1 when ``group`` holds a node that must be joined; else the position of one of its 1-links."""
        if any(node in group for node in self.nodes):
            return -1
        return next(i for i, (_, a, _) in enumerate(self.links) if values[i] == 1 and a in group)

    def _exits(self, group: set[Hashable]) -> list[int]:
        return [i for i, (_, a, b) in enumerate(self.links) if (a in group) != (b in group)]

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        """For each two groups apart: some link out of the first is 1, or one of the two is not there (a group
        of required nodes always is; another is there while the 1-link it was found by is)."""
        groups = self.groups(values)
        if len(groups) < 2:
            return []
        present = [self._present(group, values) for group in groups]
        clauses = []
        for k, group in enumerate(groups):
            for j in range(k + 1, len(groups)):
                clauses.append([lits[i] for i in self._exits(group)]
                               + [-lits[p] for p in (present[k], present[j]) if p is not None and p >= 0])
        return clauses

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """A group with no way out while another exists is broken; a group with one way out takes it."""
        groups = self.groups(values)
        if len(groups) < 2:
            return []
        forced = []
        for group in groups:
            ways = [i for i in self._exits(group) if values[i] is None]
            if not ways:
                raise Broken(f"a group of {len(group)} would be cut off from the rest")
            if len(ways) == 1:
                forced.append((ways[0], 1))
        return forced


class Layout(Protocol):
    """How a genre's answer lies on the model's 0/1 keys, and how a person names them."""

    fields: tuple[str, ...]  # the answer's fields

    def keys(self) -> tuple[Key, ...]: ...

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        """Every key's value in an answer; raises InvalidInput when the answer has not the layout's shape."""

    def write(self, ones: set[Key]) -> dict[str, Any]:
        """The answer's fields with the keys ``ones`` at 1 and the others at 0."""

    def cell(self, key: Key) -> Cell:
        """The grid cell a key is drawn at (a violation or a hint points there)."""

    def say(self, keys: Sequence[Key], value: int) -> str:
        """``keys`` at ``value`` as a sentence: "r2c3 and r2c4 are empty"."""

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        """One decision of a hint, as the API gives it."""

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        """The keys a hint request's partial answer decides."""

    def state_of(self, decided: Mapping[Key, int]) -> dict[str, Any]:
        """A partial answer deciding ``decided``, as a hint request sends it (``partial`` reads it back)."""

    def decision(self, entry: Mapping[str, Any]) -> tuple[Key, int]:
        """The key and value one of a hint's decisions names (``hint_entry`` read back)."""

    def state_fields(self, description: str) -> dict[str, Any]:
        """The partial answer's fields (pydantic ``create_model`` definitions)."""


def _grid_of(value: Any, rows: int, cols: int, name: str, allowed: Iterable[int] | None) -> list[list[Any]]:
    problems = grid_shape_violations(value, rows, cols, name, allowed)
    if problems:
        raise InvalidInput("; ".join(p.message for p in problems), problems)
    return value


def _partial_grid(value: Any, rows: int, cols: int, name: str) -> list[list[int | None]]:
    if value is None:
        return [[None] * cols for _ in range(rows)]
    if len(value) != rows or any(len(row) != cols for row in value):
        raise InvalidInput(f"`{name}` must have {rows} rows of {cols} values, as the puzzle has")
    return value


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _are(names: str, count: int, what: str) -> str:
    """"r1c1 is a light", "r1c1, r1c2 are lights"."""
    if count == 1:
        return f"{names} is {what}"
    article, _, noun = what.partition(" ")
    return f"{names} are {noun + 's' if article in ('a', 'an') and noun else what}"


@dataclass(frozen=True)
class Layers:
    """Several 0/1 grids (a loop's horizontal and vertical edges); keys ``(field, r, c)``. ``name(field, r, c)``
    names a key for people; ``one``/``zero`` name its values."""

    shapes: Mapping[str, tuple[int, int]]
    one: str
    zero: str
    name: Any = None  # (field, r, c) -> str; default: the cell's name
    at: Any = None  # (field, r, c) -> Cell a key is drawn at; default: (r, c)

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(self.shapes)

    def _layered(self) -> tuple[tuple[str, int, int], ...]:
        return tuple((f, r, c) for f, (rows, cols) in self.shapes.items() for r in range(rows) for c in range(cols))

    def keys(self) -> tuple[Key, ...]:
        return self._layered()

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        grids = {f: _grid_of(answer.get(f), rows, cols, f, {0, 1}) for f, (rows, cols) in self.shapes.items()}
        return {(f, r, c): grids[f][r][c] for f, r, c in self._layered()}

    def write(self, ones: set[Key]) -> dict[str, Any]:
        return {f: [[int((f, r, c) in ones) for c in range(cols)] for r in range(rows)]
                for f, (rows, cols) in self.shapes.items()}

    def cell(self, key: Key) -> Cell:
        return self.at(*key) if self.at else (key[1], key[2])

    def say(self, keys: Sequence[Key], value: int) -> str:
        names = ", ".join(self.name(*k) if self.name else cell_name((k[1], k[2])) for k in keys)
        return _are(names, len(keys), self.one if value else self.zero)

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        return {"field": key[0], "at": [key[1], key[2]], "cell": list(self.cell(key)), "value": value}

    def decision(self, entry: Mapping[str, Any]) -> tuple[Key, int]:
        return (entry["field"], *entry["at"]), entry["value"]

    def state_of(self, decided: Mapping[Key, int]) -> dict[str, Any]:
        grids: dict[str, Any] = {f: [[None] * cols for _ in range(rows)] for f, (rows, cols) in self.shapes.items()}
        for (f, r, c), value in decided.items():  # type: ignore[misc]
            grids[f][r][c] = value
        return grids

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        grids = {f: _partial_grid(state.get(f), rows, cols, f) for f, (rows, cols) in self.shapes.items()}
        return {(f, r, c): v for f, r, c in self._layered() if (v := grids[f][r][c]) is not None}

    def state_fields(self, description: str) -> dict[str, Any]:
        return {f: (list[list[int | None]] | None, Field(None, description=f"{description}: the player's {f} so far, "
                                                           "1, 0 or null for undecided; null or left out: nothing decided."))
                for f in self.shapes}


class Cells(Layers):
    """One 0/1 grid, its keys the cells ``(r, c)`` (lights, stars, shaded cells)."""

    def __init__(self, field_name: str, rows: int, cols: int, one: str, zero: str):
        super().__init__({field_name: (rows, cols)}, one, zero)

    def keys(self) -> tuple[Key, ...]:
        (rows, cols), = self.shapes.values()
        return tuple((r, c) for r in range(rows) for c in range(cols))

    def _field(self) -> str:
        return next(iter(self.shapes))

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        return {key[1:]: v for key, v in super().read(answer).items()}

    def write(self, ones: set[Key]) -> dict[str, Any]:
        return super().write({(self._field(), r, c) for r, c in ones})

    def cell(self, key: Key) -> Cell:
        return key  # type: ignore[return-value]

    def say(self, keys: Sequence[Key], value: int) -> str:
        return _are(cells_named(keys), len(keys), self.one if value else self.zero)  # type: ignore[arg-type]

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        return {"cell": list(key), "value": value}  # type: ignore[arg-type]

    def decision(self, entry: Mapping[str, Any]) -> tuple[Key, int]:
        return tuple(entry["cell"]), entry["value"]

    def state_of(self, decided: Mapping[Key, int]) -> dict[str, Any]:
        return super().state_of({(self._field(), *key): v for key, v in decided.items()})  # type: ignore[misc]

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        return {key[1:]: v for key, v in super().partial(state).items()}


@dataclass(frozen=True)
class Digits:
    """A grid of digits 1..``digits`` (0 where ``blank`` allows none), as one-hot keys ``(r, c, d)``: the key is 1
    when the cell holds ``d``. A person reads "r2c3 is 4" and "r2c3 is not 4"."""

    field: str
    rows: int
    cols: int
    digits: int
    blank: frozenset[Cell] = frozenset()  # cells that hold no digit (a Kakuro's clue cells): 0 in an answer, no keys

    @property
    def fields(self) -> tuple[str, ...]:
        return (self.field,)

    def keys(self) -> tuple[Key, ...]:
        return tuple((r, c, d) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.blank
                     for d in range(1, self.digits + 1))

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        if not self.blank:
            grid = _grid_of(answer.get(self.field), self.rows, self.cols, self.field, range(1, self.digits + 1))
        else:
            grid = _grid_of(answer.get(self.field), self.rows, self.cols, self.field, range(0, self.digits + 1))
            wrong = [(r, c) for r in range(self.rows) for c in range(self.cols)
                     if (grid[r][c] == 0) != ((r, c) in self.blank)]
            if wrong:
                raise InvalidInput(f"`{self.field}`: {cells_named(wrong[:8])} must hold "
                                   f"{'0' if wrong[0] in self.blank else f'a digit 1..{self.digits}'} "
                                   "(0 exactly on the cells that hold no digit)")
        return {(r, c, d): int(grid[r][c] == d) for r, c, d in self.keys()}

    def write(self, ones: set[Key]) -> dict[str, Any]:
        """The answer's grid; keys that put two digits in one cell are no answer (InvalidInput names the cell)."""
        cells = Counter((r, c) for r, c, _ in ones)  # type: ignore[misc]
        if cells and max(cells.values()) > 1:
            raise InvalidInput(f"{cell_name(cells.most_common(1)[0][0])} would hold two digits")
        grid = [[0] * self.cols for _ in range(self.rows)]
        for r, c, d in ones:  # type: ignore[misc]
            grid[r][c] = d
        return {self.field: grid}

    def cell(self, key: Key) -> Cell:
        return key[0], key[1]  # type: ignore[index]

    def named(self, digit: int) -> str:
        """A digit as a sentence says it (a layout whose last digit stands for several says which)."""
        return str(digit)

    def say(self, keys: Sequence[Key], value: int) -> str:
        if value:
            return ", ".join(f"{cell_name(self.cell(k))} is {self.named(k[2])}" for k in keys)  # type: ignore[index]
        by_cell: dict[Cell, list[int]] = {}
        for r, c, d in keys:  # type: ignore[misc]
            by_cell.setdefault((r, c), []).append(d)
        by_digits: dict[tuple[int, ...], list[Cell]] = {}  # cells ruling out the same digits said together
        for cell, digits in by_cell.items():
            by_digits.setdefault(tuple(sorted(digits)), []).append(cell)
        return "; ".join(f"{cells_named(cells)} {'is' if len(cells) == 1 else 'are'} not "
                         f"{_or([self.named(d) for d in digits])}" for digits, cells in by_digits.items())

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        """As the play page's digits widget reads a hint: the digit placed, or taken out of the pencil marks."""
        entry = {"cell": list(self.cell(key)), "value": key[2]}  # type: ignore[index]
        return entry if value else {**entry, "eliminate": True}

    def decision(self, entry: Mapping[str, Any]) -> tuple[Key, int]:
        return (*entry["cell"], entry["value"]), int(not entry.get("eliminate"))

    def state_of(self, decided: Mapping[Key, int]) -> dict[str, Any]:
        grid = [[0] * self.cols for _ in range(self.rows)]
        out: dict[Cell, set[int]] = {}
        for (r, c, d), value in decided.items():  # type: ignore[misc]
            if value:
                grid[r][c] = d
            else:
                out.setdefault((r, c), set()).add(d)
        marks = [[None if grid[r][c] or (r, c) not in out else
                  [d for d in range(1, self.digits + 1) if d not in out[(r, c)]] for c in range(self.cols)]
                 for r in range(self.rows)]
        return {self.field: grid, "candidates": marks}

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        """A digit the player wrote decides its cell's keys; pencil marks take the digits they leave out."""
        grid = _partial_grid(state.get(self.field), self.rows, self.cols, self.field)
        marks = _partial_grid(state.get("candidates"), self.rows, self.cols, "candidates")
        return {(r, c, d): int(grid[r][c] == d) for r, c, d in self.keys()
                if grid[r][c] or (marks[r][c] is not None and d not in marks[r][c])}

    def state_fields(self, description: str) -> dict[str, Any]:
        return {self.field: (list[list[int | None]] | None, Field(None, description=f"{description}: the player's "
                             "digits so far, 0 or null for an empty cell; null or left out: nothing written.")),
                "candidates": (list[list[list[int] | None]] | None, Field(None, description="Per cell the digits "
                               "still pencilled in, or null where the player keeps no marks."))}


@dataclass(frozen=True)
class Flat:
    """A model's rules by number: each rule's keys (by index), each key's rules, bounds, clues and givens."""

    cells: list[list[int]]
    at: list[list[int]]
    low: list[int]
    high: list[int]
    clue: list[Hashable | None]
    givens: dict[int, int]
    counts: list[bool]  # a Count over distinct keys: what the array state reads by a table
    counts_only: bool  # every rule such a Count with no ``allowed``: the generator's array checks read them
    given_by: list[tuple[int, int, int]]  # (given rule, key, value) for each key of a given rule, in rule order


@dataclass(frozen=True)
class Model:
    """A puzzle as the kit reads it: its answer's layout and its rules. A genre's ``model(puzzle)`` builds it;
    nothing else of the genre is needed to solve, check, grade or hint."""

    layout: Layout
    rules: tuple[Rule, ...]

    @cached_property
    def keys(self) -> tuple[Key, ...]:
        return self.layout.keys()

    @cached_property
    def index(self) -> dict[Key, int]:
        return {key: i for i, key in enumerate(self.keys)}

    def givens(self) -> dict[Key, int]:
        """Keys whose value the puzzle shows (a wall holds no light): decided before any deduction."""
        return {key: rule.low for rule in self.rules if rule.given for key in rule.cells}  # type: ignore[attr-defined]

    def showing(self, shown: Iterable[Hashable]) -> Model:
        """The same puzzle showing only the clues ``shown`` (the generator's model has every clue)."""
        kept = set(shown)
        return replace(self, rules=tuple(r for r in self.rules if shows(r.clue, kept)))

    def where(self, rule: Rule) -> list[Cell]:
        return list(rule.where or dict.fromkeys(self.layout.cell(key) for key in rule.cells))

    @cached_property
    def flat(self) -> Flat:
        """The rules by number: each rule's keys and each key's rules (a look after a change reads only those),
        for the techniques and for the generator's thousands of level checks (``solvers.kit.arrays.State``)."""
        get = self.index.__getitem__
        cells = [list(map(get, rule.cells)) for rule in self.rules]
        at: list[list[int]] = [[] for _ in self.keys]
        for k, members in enumerate(cells):
            for i in dict.fromkeys(members):
                at[i].append(k)
        counts = [isinstance(r, Count) and len(set(members)) == len(members)
                  for r, members in zip(self.rules, cells, strict=True)]
        counts_only = all(counted and r.allowed is None for r, counted in zip(self.rules, counts, strict=True))  # type: ignore[attr-defined]
        low = [getattr(r, "low", 0) for r in self.rules]
        return Flat(cells, at, low, [getattr(r, "high", 0) for r in self.rules],
                    [r.clue for r in self.rules], {get(key): value for key, value in self.givens().items()},
                    counts, counts_only, [(k, i, low[k]) for k, rule in enumerate(self.rules) if rule.given for i in cells[k]])


Kept = TypeVar("Kept")


def for_the_last_model(make: Callable[[Model], Kept]) -> Callable[[Model], Kept]:
    """``make(model)`` kept for the last model asked: a generator asks about one model at a time, thousands of times.
    The kept pair is read once and replaced whole, so a thread that replaces it meanwhile never hands another
    model's value back."""
    kept: list[tuple[Model, Kept]] = []

    def cached(model: Model) -> Kept:
        for last_model, value in kept[:1]:
            if last_model is model:
                return value
        value = make(model)
        kept[:] = [(model, value)]
        return value

    return cached


def described(rule: Rule, values: Values) -> str:
    """Why ``rule`` is broken, for a person: the rule and what the answer has instead."""
    if isinstance(rule, Count):
        return f"{rule.says}: {rule.bound()}, the answer has {rule.ones(values)}"
    return rule.says


def check(model: Model, answer: Mapping[str, Any]) -> list[Violation]:
    """Every broken rule of ``model`` in the ``answer``'s fields; raises InvalidInput on a bad shape."""
    values = model.layout.read(answer)
    found = []
    for rule in model.rules:
        told = getattr(rule, "told", None)  # a rule that words each of its faults (each broken island) itself
        faults = told(values) if told is not None else None
        if faults is not None:
            found += [violation(rule.code, message, cells) for message, cells in faults]
        elif rule.broken_by(values):
            found.append(violation(rule.code, described(rule, values), model.where(rule)))
    return found


class Encoding:
    """A model on one SAT instance: a variable per key, each rule's clauses (a clue's only under its guard where
    ``guards`` is given: the prover switches clues on by assuming them), and the rules' lazy cuts."""

    def __init__(self, sat: SatBackend, model: Model, guards: dict[Hashable, int] | None = None):
        self.sat, self.model = sat, model
        self.var = {key: sat.new_var() for key in model.keys}
        self.lazy = [(rule, [self.var[key] for key in rule.cells]) for rule in model.rules
                     if getattr(rule, "lazy", False)]
        for rule in model.rules:
            guard = None if guards is None or rule.clue is None else guards.setdefault(rule.clue, sat.new_var())
            rule.encode(sat, [self.var[key] for key in rule.cells], guard)

    def refine(self, true: set[int]) -> list[list[int]]:
        return [clause for rule, lits in self.lazy for clause in rule.cuts([int(lit in true) for lit in lits], lits)]

    def ones(self, true: set[int]) -> set[Key]:
        return {key for key, var in self.var.items() if var in true}


class Prover:
    """Whether one answer is the only one under any set of shown clues, on one incremental SAT instance: every
    clue's rules guarded by a literal, the answer itself ruled out once, and a set of clues asked by assuming
    their guards. The generator asks it again and again as it adds and removes clues on one board."""

    def __init__(self, model: Model, answer: Mapping[str, Any]):
        self.model, self.answer = model, answer
        self.sat = make_backend("cadical")
        self.guards: dict[Hashable, int] = {}
        self.encoding = Encoding(self.sat, model, self.guards)
        values = model.layout.read(answer)
        var = self.encoding.var
        self.sat.add_clause(block({var[key] for key, value in values.items() if value}, var.values()))

    def other(self, shown: Iterable[Hashable], deadline: Deadline) -> dict[str, Any] | None:
        """An answer other than the prover's under the ``shown`` clues, or None when it is the only one."""
        true = solve_refined(self.sat, deadline, self.encoding.refine,
                             [self.guards[clue] for clue in shown if clue in self.guards])
        return None if true is None else self.model.layout.write(self.encoding.ones(true))

    def close(self) -> None:
        self.sat.close()


def hashable(rule: Rule) -> bool:
    """Whether the rule can be looked up as a value (a rule holding a dict cannot: the sieve encodes it each time)."""
    try:
        hash(rule)
    except TypeError:
        return False
    return True


class Sieve:
    """Whether each of a generator's drawn answers is the only one of its model, every clue shown, one draw after
    another on one SAT instance: the rules the draws share (a Latin square's, a grid's counts) are encoded once,
    each draw's own rules and the clause that rules its answer out under a literal assumed while the draw is asked
    and switched off for good after. A generator that throws most draws away then pays for the shared rules once.
    The shared rules are those of the first two draws of one layout, fewer when a later draw lacks some."""

    def __init__(self) -> None:
        self.sat: CadicalBackend | None = None
        self.keys: tuple[Key, ...] = ()
        self.var: dict[Key, int] = {}
        self.frame: frozenset[Rule] = frozenset()
        self.last: frozenset[Rule] = frozenset()
        self.draw = 0

    def other(self, model: Model, answer: Mapping[str, Any], deadline: Deadline) -> dict[str, Any] | None:
        """An answer of ``model`` other than ``answer``, or None when it is the only one."""
        shareable = [hashable(rule) for rule in model.rules]
        rules = frozenset(rule for rule, ok in zip(model.rules, shareable, strict=True) if ok)
        same = self.sat is not None and model.keys == self.keys
        if not same or not self.frame <= rules or (not self.frame and self.last & rules):
            self._start(model, self.last & rules if same else frozenset())
        assert self.sat is not None
        self.last = rules
        if self.draw:
            self.sat.add_clause([-self.draw])
        self.draw = self.sat.new_var()
        self.sat.unless = [-self.draw]
        try:
            for rule, ok in zip(model.rules, shareable, strict=True):
                if not ok or rule not in self.frame:
                    rule.encode(self.sat, [self.var[key] for key in rule.cells], None)
            values = model.layout.read(answer)
            ones = {self.var[key] for key, value in values.items() if value}
            self.sat.add_clause(block(ones, self.var.values()))
            self.sat.prefer([v if v in ones else -v for v in self.var.values()])
            lazy = [(rule, [self.var[key] for key in rule.cells]) for rule in model.rules
                    if getattr(rule, "lazy", False)]
            true = solve_refined(self.sat, deadline, lambda true: [
                cut for rule, lits in lazy for cut in rule.cuts([int(lit in true) for lit in lits], lits)],
                [self.draw])
            return None if true is None else model.layout.write({key for key, var in self.var.items() if var in true})
        finally:
            self.sat.unless = []

    def _start(self, model: Model, frame: frozenset[Rule]) -> None:
        self.close()
        self.sat, self.keys, self.frame, self.draw = CadicalBackend(), model.keys, frame, 0
        self.var = {key: self.sat.new_var() for key in model.keys}
        for rule in (rule for rule in model.rules if hashable(rule) and rule in frame):
            rule.encode(self.sat, [self.var[key] for key in rule.cells], None)

    def close(self) -> None:
        if self.sat is not None:
            self.sat.close()
            self.sat = None


def checker(model_of: Callable[[Any], Model]) -> Callable[[Any, Any], list[Violation]]:
    """A kit genre's ``check``: its model of the puzzle read against the answer's fields."""

    def check_answer(puzzle: Any, answer: Any) -> list[Violation]:
        return check(model_of(puzzle), answer.model_dump())

    return check_answer
