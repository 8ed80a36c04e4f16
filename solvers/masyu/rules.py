"""Masyu: draw one closed loop through the centres of cells, along rows and columns, that passes every pearl;
it may skip cells. On a black pearl the loop turns and goes straight through the next cell on both sides; on a
white pearl it goes straight and turns in the cell before it or after it (or both).

The model's keys are the lines between neighbouring cells' centres (``(field, r, c)``): each cell a count of 0 or
2 of its lines, the lines one ``Loop``, each pearl a few plain counts (docs/genres/masyu.md lists them).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell, grid_shape_violations
from solvers.kit.loop import Loop
from solvers.kit.rules import Clues, Count, Layers, Model
from solvers.kit.together import Together
from solvers.techniques.human import cell_name

MAX_SIDE = 30
BLACK, WHITE = "B", "W"
Key = tuple[str, int, int]
SIDES = {"left": (0, -1), "right": (0, 1), "up": (-1, 0), "down": (1, 0)}


class MasyuPuzzle(BaseModel):
    rows: int = Field(ge=2, le=MAX_SIDE)
    cols: int = Field(ge=2, le=MAX_SIDE)
    pearls: list[list[str | None]] = Field(description='R×C: "B" a black pearl, "W" a white pearl, null no pearl.')

    @model_validator(mode="after")
    def _pearls_fit(self) -> MasyuPuzzle:
        codes = {None: 0, WHITE: 1, BLACK: 2}
        cells = [[codes.get(v, -1) for v in row] if isinstance(row, list) else row for row in self.pearls]
        problems = grid_shape_violations(cells, self.rows, self.cols, "pearls", range(3))
        if problems:
            raise ValueError("; ".join(p.message.replace("0..2", 'null, "W", "B"') for p in problems))
        return self


class MasyuAnswer(BaseModel):
    horizontal: list[list[int]] = Field(description="R×(C−1) of 1 (a line) / 0: between row r's cells c and c+1.")
    vertical: list[list[int]] = Field(description="(R−1)×C of 1 / 0: between column c's cells in rows r and r+1.")


def line(a: Cell, b: Cell) -> Key:
    """The key of the line between two neighbouring cells."""
    (r, c), (s, d) = sorted((a, b))
    return ("horizontal", r, c) if r == s else ("vertical", r, c)


def lines_of(rows: int, cols: int) -> list[tuple[Key, Cell, Cell]]:
    """Every line between two neighbouring cells, with the cells it joins."""
    across = [(("horizontal", r, c), (r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    down = [(("vertical", r, c), (r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    return across + down


def line_name(field: str, r: int, c: int) -> str:
    return f"the line {cell_name((r, c))}–{cell_name((r, c + 1) if field == 'horizontal' else (r + 1, c))}"


def layout(rows: int, cols: int) -> Layers:
    return Layers({"horizontal": (rows, cols - 1), "vertical": (rows - 1, cols)}, "drawn", "crossed",
                  name=line_name)


def bends(side: str) -> tuple[str, str]:
    """The two sides square to ``side``."""
    return ("up", "down") if side in ("left", "right") else ("left", "right")


def _pearl_rules(kind: str, cell: Cell, arm: Callable[..., Key | None]) -> list[Count]:
    """A pearl's counts; ``arm(side, n)`` is the line ``n`` steps out from the pearl on that side, and
    ``arm(side, n, across)`` the line out of the cell ``n`` steps away toward ``across`` (None: off the board)."""
    at, where = cell_name(cell), (cell,)
    name = f"the {'black' if kind == BLACK else 'white'} pearl at {at}"
    rules = [Count(tuple(k for side in SIDES if (k := arm(side, 1))), 2, 2, "pearl", f"the loop passes {name}",
                   where=where, clue=cell)]
    for pair in (("left", "right"), ("up", "down")):
        near = [k for side in pair if (k := arm(side, 1))]
        way = "across" if pair[0] == "left" else "up and down"
        if kind == BLACK:
            rules.append(Count(tuple(near), 1, 1, "black-turn", f"{name} turns: one line {way}", where=where, clue=cell))
            for side, other in (pair, pair[::-1]):
                first, second, back = arm(side, 1), arm(side, 2), arm(other, 1)
                if first and not second:
                    rules.append(Count((first,), 0, 0, "black-straight", f"{name} has no room to go {side} "
                                       "straight through the next cell", where=where, clue=cell))
                elif first and second:
                    rules.append(Count(tuple(k for k in (back, second) if k), 1, 2, "black-straight",
                                       f"from {name} the loop goes {other}, or {side} and straight on through the "
                                       "next cell", where=where, clue=cell))
                    for across in bends(side):  # the next cell goes straight: no line out of it sideways
                        if (bend := arm(side, 1, across)) is not None:
                            rules.append(Count((first, bend), 0, 1, "black-straight", f"a line {side} from {name} "
                                               "goes straight through the next cell, which turns nowhere",
                                               where=where, clue=cell))
        elif len(near) < 2:
            rules.append(Count(tuple(near), 0, 0, "white-straight", f"{name} has no room to go straight {way}",
                               where=where, clue=cell))
        else:
            rules.append(Count(tuple(near), 0, 2, "white-straight", f"the loop goes straight through {name}",
                               where=where, clue=cell, allowed=frozenset({0, 2})))
            far = [arm(side, 2) for side in pair]
            if all(far):
                rules.append(Count((near[0], *far), 0, 2, "white-turn",  # type: ignore[arg-type]
                                   f"the loop turns just before or just after {name}", where=where, clue=cell))
            square = [k for side in bends(pair[0]) if (k := arm(side, 1))]  # the pearl's other way through
            turning = [k for side in pair for across in bends(side) if (k := arm(side, 1, across))]
            rules.append(Count((*square[:1], *turning), 1, 5, "white-turn", f"the loop goes {way} through {name} "
                               "only with a turn in a cell beside it", where=where, clue=cell))
    return rules


OWN = {WHITE: "goes straight and turns just before or after it", BLACK: "turns and goes straight on both ways"}
NEAR = {WHITE: "goes straight (it cannot turn)", BLACK: "turns (it cannot go straight)"}


def pearl_name(kind: str, cell: Cell) -> str:
    return f"the {'black' if kind == BLACK else 'white'} pearl at {cell_name(cell)}"


def _neighbourhoods(puzzle: MasyuPuzzle, counts: dict[Cell, list[Count]]) -> list[Together]:
    """Each pearl read with the cells beside it (Tatham's Easy: a pearl's ways through that fit the lines
    decided and what its neighbours can be, read at once): its counts, its neighbours' cells and, for each set
    of its neighbouring pearls, their counts among these lines. A group reads its pearls' clues, so there is one
    per set of neighbouring pearls shown (the generator may hide any of them), standing while just those are."""
    groups = []
    for r, c in counts:
        kind = puzzle.pearls[r][c]
        if kind is None:
            continue
        near = [(r + dr, c + dc) for dr, dc in SIDES.values() if 0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols]
        keys = {key for cell in ((r, c), *near) for rule in counts[cell] if rule.code == "cell" for key in rule.cells}
        base = tuple(rule for cell in ((r, c), *near) for rule in counts[cell] if rule.code == "cell" or cell == (r, c))
        pearls = [cell for cell in near if puzzle.pearls[cell[0]][cell[1]]]
        for n in range(len(pearls) + 1):
            for chosen in combinations(pearls, n):
                extra = tuple(rule for cell in chosen for rule in counts[cell]
                              if rule.code != "cell" and set(rule.cells) <= keys)
                named = [f"{pearl_name(puzzle.pearls[q[0]][q[1]], q)} {NEAR[puzzle.pearls[q[0]][q[1]]]}"  # type: ignore[arg-type,index]
                         for q in chosen]
                beside = f"; beside it {', and '.join(named)}" if named else ", read with the cells beside it"
                groups.append(Together(base + extra, "pearl-neighbours", f"{pearl_name(kind, (r, c))} {OWN[kind]}"
                                       f"{beside}", where=((r, c), *chosen),
                                       clue=Clues(frozenset({(r, c), *chosen}),
                                                  frozenset(pearls) - set(chosen))))
    return groups


def model(puzzle: MasyuPuzzle) -> Model:
    """Each cell 0 or 2 of its lines, the lines one loop, each pearl its counts (a clue the generator may hide),
    and each pearl read with its neighbours (``_neighbourhoods``)."""
    rows, cols = puzzle.rows, puzzle.cols
    links = lines_of(rows, cols)
    rules: list[Count | Loop | Together] = []
    counts: dict[Cell, list[Count]] = {}
    for r in range(rows):
        for c in range(cols):
            def arm(side: str, n: int, across: str | None = None, r: int = r, c: int = c) -> Key | None:
                dr, dc = SIDES[side]
                a, b = (r + dr * (n - 1), c + dc * (n - 1)), (r + dr * n, c + dc * n)
                if across is not None:
                    a, b = b, (b[0] + SIDES[across][0], b[1] + SIDES[across][1])
                return line(a, b) if 0 <= a[0] < rows and 0 <= a[1] < cols and 0 <= b[0] < rows and 0 <= b[1] < cols \
                    else None
            counts[(r, c)] = [Count(tuple(k for side in SIDES if (k := arm(side, 1))), 0, 2, "cell",
                                    f"the loop passes through {cell_name((r, c))} or not at all", where=((r, c),),
                                    allowed=frozenset({0, 2}))]
            if puzzle.pearls[r][c]:
                counts[(r, c)] += _pearl_rules(puzzle.pearls[r][c], (r, c), arm)  # type: ignore[arg-type]
            rules.extend(counts[(r, c)])
    rules.extend(_neighbourhoods(puzzle, counts))
    rules.append(Loop(tuple(links), "one-loop", "the lines form one single loop", early=False,
                      where=tuple((r, c) for r in range(rows) for c in range(cols))))
    return Model(layout(rows, cols), tuple(rules))
