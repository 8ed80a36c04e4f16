"""Ubongo (polyomino packing): catalogues, the rules checker and an exact-cover solver.

Rules: cover every cell of the target shape exactly once with pieces, each used at most once,
rotated and flipped freely. Mode `given` names exactly which pieces to use; mode `hidden` gives only
how many, and the player also chooses which pieces of the catalogue.

The solver is Knuth's Algorithm X specialised to packing, over bitmasks: the shape's cells are bits
in row-major order, and the search always covers the *first* uncovered cell. Every cell before it is
already covered, so a placement covering it must have it as its own first cell; indexing placements
by first cell makes each branching step a short list scan. Each covering is found exactly once, and
since placements are built from deduplicated orientations, a symmetric piece's orientations that
cover the same cells are one placement, so coverings are distinct as sets of (piece, cells). Mode
`hidden` adds the piece count and an exact "can the remaining pieces still fill the remaining area"
prune (a cached table of the totals k pieces can make); both modes drop a placement that leaves a
free cell with no free neighbour, which no piece (all have two cells or more) could cover.
``solve`` and ``count_coverings`` (the generator asks "how many, up to k" thousands of times a card)
run the same search compiled with numba (``solvers.ubongo.engine``); the Python search
stays as the reference the tests compare them with. bench/bench_ubongo.py compares it with the SAT
encoding (``solve_sat``), which the tests keep as the independent cross-check.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell, Deadline, InvalidInput, SolveOutcome, Violation, violation
from solvers.sat import count_models, make_backend
from solvers.ubongo import engine as kernel

MAX_ROWS = MAX_COLS = 12
MAX_CELLS = 60  # cells are bits of one integer mask; a real card has 10-25

# Rows separated by "/", "#" a cell. Orientations are computed from these, never written out.
CATALOGUES: dict[str, dict[str, str]] = {
    "standard": {
        "I2": "##", "I3": "###", "L3": "#./##", "I4": "####", "L4": "##/.#/.#", "O4": "##/##",
        "S4": "#./##/.#", "T4": ".#/##/.#", "L5": ".#/.#/.#/##", "P5": "##/##/.#",
        "Y5": ".#/##/.#/.#", "Z5": "##./.#./.##",
    },
    "article": {
        "ZIPPO": "###/##.", "Z": "##./.##", "T": ".#./###", "L": "#../###",
        "LONG_Z": "##../.###", "LONG_T": ".#../####", "SHORT_BAR": "###",
    },
}
CatalogueName = Literal["standard", "article"]
Mode = Literal["given", "hidden"]
Shape = tuple[Cell, ...]  # sorted row-major, normalised so the minimum row and column are 0


def parse_rows(rows: list[str] | str) -> list[Cell]:
    """Cells marked `#` in rows of `#`/`.` (a string is split on `/`)."""
    if isinstance(rows, str):
        rows = rows.split("/")
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]


def normalise(cells: list[Cell] | set[Cell]) -> Shape:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(cells: list[Cell] | Shape) -> list[Shape]:
    """The distinct rotations and reflections of a piece, in a fixed order."""
    found: set[Shape] = set()
    for flip in (False, True):
        current = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            current = [(c, -r) for r, c in current]  # quarter turn
            found.add(normalise(current))
    return sorted(found)


@cache
def catalogue_pieces(catalogue: str) -> dict[str, Shape]:
    return {name: normalise(parse_rows(rows)) for name, rows in CATALOGUES[catalogue].items()}


@cache
def piece_orientations(catalogue: str, piece: str) -> tuple[Shape, ...]:
    return tuple(orientations(catalogue_pieces(catalogue)[piece]))


def catalogue_facts() -> dict[str, object]:
    """What GET /types shows: every catalogue's pieces as cell lists, so a client can draw them."""
    return {
        "catalogues": {
            name: [
                {"name": piece, "rows": CATALOGUES[name][piece].split("/"), "cells": [list(c) for c in cells],
                 "size": len(cells), "orientations": len(piece_orientations(name, piece))}
                for piece, cells in catalogue_pieces(name).items()
            ]
            for name in CATALOGUES
        },
        "limits": {"max_rows": MAX_ROWS, "max_cols": MAX_COLS, "max_cells": MAX_CELLS},
    }


class UbongoPuzzle(BaseModel):
    shape: list[str] = Field(
        description=f"The target shape as rows of `#` (a cell) and `.` (none); a shorter row is read as padded "
        f"with `.` on the right; at most {MAX_ROWS}×{MAX_COLS} and {MAX_CELLS} cells.",
        examples=[["#....", "###..", "####.", "#####"]],
    )
    catalogue: CatalogueName = Field("standard", description="Which piece set the names refer to.")
    mode: Mode = Field("given", description="`given`: use exactly `pieces`; `hidden`: choose any `piece_count` pieces.")
    pieces: list[str] | None = Field(None, description="Piece names to use (mode `given`); dropped in mode `hidden`.")
    piece_count: int | None = Field(None, ge=1, description="How many pieces (required in mode `hidden`).")

    @model_validator(mode="after")
    def _well_formed(self) -> UbongoPuzzle:
        rows = self.shape
        width = max((len(row) for row in rows), default=0)
        if not width:
            raise ValueError("`shape` must have at least one non-empty row")
        if len(rows) > MAX_ROWS or width > MAX_COLS:
            raise ValueError(f"`shape` may be at most {MAX_ROWS}×{MAX_COLS}, got {len(rows)}×{width}")
        for r, row in enumerate(rows, start=1):
            if set(row) - {"#", "."}:
                raise ValueError(f"`shape` row {r} may only contain `#` and `.`, got {row!r}")
        self.shape = [row.ljust(width, ".") for row in rows]  # published boards write ragged rows
        cells = sum(row.count("#") for row in rows)
        if not 1 <= cells <= MAX_CELLS:
            raise ValueError(f"`shape` must have 1..{MAX_CELLS} cells (`#`), got {cells}")
        known = catalogue_pieces(self.catalogue)
        if self.mode == "hidden":
            self.pieces = None
            if self.piece_count is None:
                raise ValueError("mode `hidden` needs `piece_count`")
            if self.piece_count > len(known):
                raise ValueError(f"`piece_count` is at most {len(known)} for catalogue `{self.catalogue}`")
            return self
        if not self.pieces:
            raise ValueError("mode `given` needs `pieces`, a non-empty list of piece names")
        unknown = [p for p in self.pieces if p not in known]
        if unknown:
            raise ValueError(f"unknown piece(s) {unknown} for catalogue `{self.catalogue}`; known: {list(known)}")
        repeated = sorted({p for p in self.pieces if self.pieces.count(p) > 1})
        if repeated:
            raise ValueError(f"each piece may be named once, repeated: {repeated}")
        if self.piece_count is None:
            self.piece_count = len(self.pieces)
        elif self.piece_count != len(self.pieces):
            raise ValueError(f"`piece_count` {self.piece_count} disagrees with the {len(self.pieces)} `pieces`")
        return self


class Placement(BaseModel):
    piece: str = Field(description="Piece name from the puzzle's catalogue.")
    cells: list[list[int]] = Field(description="The [row, col] cells the piece covers.")


class UbongoAnswer(BaseModel):
    placements: list[Placement] = Field(description="One entry per piece used.")


def shape_cells(puzzle: UbongoPuzzle) -> list[Cell]:
    return parse_rows(puzzle.shape)


def allowed_pieces(puzzle: UbongoPuzzle) -> list[str]:
    """The pieces a covering may use: the named set (given) or the whole catalogue (hidden)."""
    return list(puzzle.pieces) if puzzle.mode == "given" and puzzle.pieces else list(catalogue_pieces(puzzle.catalogue))


# --- rules checker ---------------------------------------------------------------------------------


def _answer_cells(answer: UbongoAnswer, known: dict[str, Shape]) -> list[list[Cell]]:
    """Each placement's cells as tuples; raises InvalidInput for what is not even an answer."""
    problems = []
    for i, p in enumerate(answer.placements):
        if p.piece not in known:
            problems.append(violation("unknown-piece", f"placement {i + 1}: `{p.piece}` is not in the catalogue; "
                                      f"known: {', '.join(known)}"))
        bad = [c for c in p.cells if len(c) != 2]
        if bad:
            problems.append(violation("bad-cell", f"placement {i + 1} ({p.piece}): cells must be [row, col] pairs, "
                                      f"got {bad}"))
    if problems:
        raise InvalidInput("; ".join(v.message for v in problems), problems)
    return [[(c[0], c[1]) for c in p.cells] for p in answer.placements]


def check(puzzle: UbongoPuzzle, answer: UbongoAnswer) -> list[Violation]:
    """Every broken rule with its cells; raises InvalidInput if the answer is not even well formed."""
    known = catalogue_pieces(puzzle.catalogue)
    placed = _answer_cells(answer, known)
    target = set(shape_cells(puzzle))
    allowed = allowed_pieces(puzzle)
    found: list[Violation] = []
    for p, cells in zip(answer.placements, placed, strict=True):
        if len(set(cells)) != len(cells):
            found.append(violation("wrong-piece-shape", f"{p.piece}: a cell is listed twice", sorted(cells)))
        elif not cells or normalise(cells) not in piece_orientations(puzzle.catalogue, p.piece):
            found.append(violation("wrong-piece-shape", f"{p.piece}: these {len(cells)} cells are not a rotation or "
                                   f"reflection of {p.piece} ({CATALOGUES[puzzle.catalogue][p.piece]})", sorted(cells)))
        if p.piece not in allowed:
            found.append(violation("piece-not-in-set", f"{p.piece} is not one of this puzzle's pieces "
                                   f"({', '.join(allowed)})", sorted(cells)))
    names = [p.piece for p in answer.placements]
    for name in sorted(set(names)):
        if names.count(name) > 1:
            cells = sorted({c for p, cs in zip(names, placed, strict=True) if p == name for c in cs})
            found.append(violation("piece-repeated", f"{name} is used {names.count(name)} times; "
                                   "each piece at most once", cells))
    if len(names) != puzzle.piece_count:
        missing = [p for p in allowed if p not in names] if puzzle.mode == "given" else []
        found.append(violation("wrong-piece-count", f"{len(names)} piece(s) placed, the puzzle needs "
                               f"{puzzle.piece_count}" + (f" (missing: {', '.join(missing)})" if missing else "")))
    coverers: dict[Cell, int] = {}
    for cells in placed:
        for cell in set(cells):
            coverers[cell] = coverers.get(cell, 0) + 1
    outside = sorted(c for c in coverers if c not in target)
    if outside:
        found.append(violation("outside-shape", f"{len(outside)} cell(s) lie outside the shape", outside))
    overlap = sorted(c for c, k in coverers.items() if k > 1)
    if overlap:
        found.append(violation("overlap", f"{len(overlap)} cell(s) are covered by more than one piece", overlap))
    uncovered = sorted(target - coverers.keys())
    if uncovered:
        found.append(violation("uncovered", f"{len(uncovered)} cell(s) of the shape are not covered", uncovered))
    return found


# --- exact-cover search ----------------------------------------------------------------------------


GRID = MAX_COLS + 8  # bits per row of the placement grid: wider than any shape plus a piece, so shifts never wrap


@cache
def _orientation_grids(catalogue: str, piece: str) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each orientation as (grid mask with its first cell at bit 0, the bit offsets of its cells):
    computed once per piece, so a problem finds every fitting shift with one AND per cell of it."""
    out = []
    for orient in piece_orientations(catalogue, piece):
        dr, dc = orient[0]
        offsets = tuple((r - dr) * GRID + c - dc for r, c in orient)  # the first cell is bit 0, the lowest
        out.append((sum(1 << o for o in offsets), offsets))
    return tuple(out)


@cache
def _area_sums(areas: tuple[int, ...], avail: int, k: int) -> int:
    """Bitset of the totals that exactly ``k`` of the pieces in ``avail`` (bits into ``areas``) can make.
    Cached across problems: every hidden-mode solve of a catalogue asks the same questions."""
    if k == 0:
        return 1
    if not avail:
        return 0
    i = (avail & -avail).bit_length() - 1
    rest = avail & ~(1 << i)
    return _area_sums(areas, rest, k) | _area_sums(areas, rest, k - 1) << areas[i]


class PackingProblem:
    """The puzzle as exact cover over bitmasks: cells are bits, pieces are bits, placements are pairs.

    A cell (r, c) is bit ``r * GRID + c``: row-major order, so the lowest set bit of the uncovered
    cells is the first uncovered cell, and a placement is an orientation's grid mask shifted there.
    """

    def __init__(self, cells: list[Cell], catalogue: str, pieces: list[str], count: int, use_all: bool):
        self.cells = sorted(cells)
        self.full = sum(1 << (r * GRID + c) for r, c in self.cells)
        self.catalogue = catalogue
        self.pieces = pieces
        self.count = count
        self.use_all = use_all  # mode given: every piece, so the count and area checks are one upfront test
        self.areas = tuple(len(catalogue_pieces(catalogue)[p]) for p in pieces)
        # by_first[bit]: (piece index, mask) of every placement whose first (row-major) cell is that bit
        self.by_first: dict[int, list[tuple[int, int]]] = {r * GRID + c: [] for r, c in self.cells}
        self.placements = 0
        for k, piece in enumerate(pieces):
            for rel, offsets in _orientation_grids(catalogue, piece):
                # The first cells where every cell of the orientation lies in the shape, all at once. A
                # piece poking out left of column 0 wraps to the end of the row before, past MAX_COLS: outside.
                fits = self.full
                for offset in offsets:
                    fits &= self.full >> offset
                while fits:
                    at = (fits & -fits).bit_length() - 1
                    fits &= fits - 1
                    self.by_first[at].append((k, rel << at))
                    self.placements += 1

    @classmethod
    def of(cls, puzzle: UbongoPuzzle) -> PackingProblem:
        return cls(shape_cells(puzzle), puzzle.catalogue, allowed_pieces(puzzle), puzzle.piece_count or 0,
                   puzzle.mode == "given")

    def cells_of(self, mask: int) -> list[Cell]:
        """The cells of a placement mask, row-major."""
        return [(r, c) for r, c in self.cells if mask >> (r * GRID + c) & 1]

    def fillable(self, used: int, k: int, area: int) -> bool:
        """Whether exactly k of the pieces not in ``used`` have total size ``area`` (hidden-mode prune)."""
        avail = (1 << len(self.pieces)) - 1 & ~used
        return area >= 0 and bool(_area_sums(self.areas, avail, k) >> area & 1)

    def _area_can_match(self) -> bool:
        return areas_match(self.areas, len(self.cells), self.count, self.use_all)

    def _next_placements(self, free: int, covered: int, used: int, left: int) -> Iterator[tuple[int, int]]:
        """The placements that may cover the first free cell next: unused pieces that fit, minus those
        the prunes rule out (in hidden mode the other unused pieces must still make up the remaining
        area; no piece is one cell, so no free cell may be left without a free neighbour)."""
        areas, all_used = self.areas, (1 << len(self.pieces)) - 1
        prune, isolate = not self.use_all, min(areas, default=0) >= 2
        area = free.bit_count()
        for k, mask in self.by_first[(free & -free).bit_length() - 1]:
            if used >> k & 1 or covered & mask:
                continue
            rest = area - areas[k]
            if prune and (rest < 0 or not _area_sums(areas, all_used & ~(used | 1 << k), left - 1) >> rest & 1):
                continue
            after = free & ~mask
            if isolate and after & ~(after << 1 | after >> 1 | after << GRID | after >> GRID):
                continue
            yield k, mask

    def coverings(self, deadline: Deadline, stats: dict[str, int] | None = None) -> Iterator[list[tuple[int, int]]]:
        """Every covering as [(piece index, mask)], each exactly once; checks the deadline as it goes."""
        if not self._area_can_match():
            return
        full = self.full
        all_used = (1 << len(self.pieces)) - 1
        chosen: list[tuple[int, int]] = []
        nodes = 0

        def search(covered: int, used: int, left: int) -> Iterator[list[tuple[int, int]]]:
            nonlocal nodes
            nodes += 1
            if nodes & 1023 == 0:
                deadline.check()
            free = full & ~covered
            if not free:
                if left == 0 and (not self.use_all or used == all_used):
                    yield list(chosen)
                return
            if left == 0:
                return
            for k, mask in self._next_placements(free, covered, used, left):
                chosen.append((k, mask))
                yield from search(covered | mask, used | 1 << k, left - 1)
                chosen.pop()

        try:
            yield from search(0, 0, self.count)
        finally:
            if stats is not None:
                stats["nodes"] = stats.get("nodes", 0) + nodes

    def count_coverings(self, limit: int, deadline: Deadline) -> int:
        """How many coverings there are, counting stops at ``limit``: the generator only asks "fewer
        than k?". The same search as ``coverings``, compiled (``count_coverings``)."""
        return count_coverings(self.cells, self.catalogue, tuple(self.pieces), self.count, self.use_all, limit,
                               deadline)

    def count_coverings_python(self, limit: int, deadline: Deadline) -> int:
        """``count_coverings`` in plain Python recursion: the reference the compiled count is tested
        against."""
        if not self._area_can_match():
            return 0
        full = self.full
        all_used = (1 << len(self.pieces)) - 1
        prune = not self.use_all
        found = nodes = 0

        def search(covered: int, used: int, left: int) -> None:
            nonlocal found, nodes
            nodes += 1
            if nodes & 1023 == 0:
                deadline.check()
            free = full & ~covered
            if not free:
                found += left == 0 and (prune or used == all_used)
                return
            if left == 0:
                return
            for k, mask in self._next_placements(free, covered, used, left):
                search(covered | mask, used | 1 << k, left - 1)
                if found >= limit:
                    return

        if limit > 0:
            search(0, 0, self.count)
        return found

    def answer(self, covering: list[tuple[int, int]]) -> dict:
        """A covering in the API answer shape, pieces in catalogue/puzzle order, cells row-major."""
        return {"placements": [
            {"piece": self.pieces[k], "cells": [list(cell) for cell in self.cells_of(mask)]}
            for k, mask in sorted(covering)
        ]}


@cache
def orientation_arrays(catalogue: str, pieces: tuple[str, ...]) -> kernel.Orientations:
    """Every orientation of the pieces for the compiled count: where each orientation's cells start, its
    piece index, and its cells as row and column offsets from its first cell in row-major order."""
    start, piece, dr, dc = [0], [], [], []
    for k, name in enumerate(pieces):
        for orient in piece_orientations(catalogue, name):
            r0, c0 = orient[0]
            piece.append(k)
            dr.extend(r - r0 for r, _ in orient)
            dc.extend(c - c0 for _, c in orient)
            start.append(len(dr))
    return kernel.Orientations(*(np.array(a, np.int64) for a in (start, piece, dr, dc)))


def cell_grid(cells: list[Cell] | set[Cell]) -> tuple[list[Cell], np.ndarray, int]:
    """The cells in row-major order (the compiled code's cell i is the i-th), as 1s of a grid over their
    bounding box, and the checkerboard colour of the box's corner ((row + col) % 2)."""
    ordered = sorted(cells)
    r0 = min(r for r, _ in ordered)
    c0 = min(c for _, c in ordered)
    grid = np.zeros((ordered[-1][0] - r0 + 1, max(c for _, c in ordered) - c0 + 1), np.uint8)
    for r, c in ordered:
        grid[r - r0, c - c0] = 1
    return ordered, grid, (r0 + c0) % 2


def compiled_placements(cells: list[Cell] | set[Cell], catalogue: str, pieces: tuple[str, ...]
                        ) -> tuple[list[Cell], kernel.Placements]:
    """The cells in row-major order and the placements of the pieces on them as ``kernel.build`` makes
    them: what the compiled search and grader work on."""
    ordered, grid, _ = cell_grid(cells)
    return ordered, kernel.build(grid, orientation_arrays(catalogue, pieces))


@cache
def search_inputs(catalogue: str, pieces: tuple[str, ...], count: int, use_all: bool
                  ) -> tuple[tuple[int, ...], kernel.Counting]:
    """What the compiled search takes about a piece set, the same for every card: (areas, and the
    ``kernel.Counting`` made of them: areas as an array, the hidden-mode area sums, ``count``, ``use_all``,
    whether a free cell without a free neighbour is a dead end)."""
    areas = tuple(len(catalogue_pieces(catalogue)[p]) for p in pieces)
    sums = kernel.area_sums(areas, count) if not use_all else _NO_SUMS
    return areas, kernel.Counting(np.array(areas, np.int64), sums, count, use_all, min(areas, default=0) >= 2)


def areas_match(areas: tuple[int, ...], cells: int, count: int, use_all: bool) -> bool:
    """Mode given: the pieces' area is the shape's; hidden: some ``count`` pieces make it up."""
    if use_all:
        return sum(areas) == cells and count == len(areas)
    return bool(_area_sums(areas, (1 << len(areas)) - 1, count) >> cells & 1)


def compiled_search(cells: list[Cell] | set[Cell], catalogue: str, pieces: tuple[str, ...], count: int, use_all: bool,
                    limit: int, deadline: Deadline, keep: int = 0
                    ) -> tuple[int, list[list[tuple[int, list[Cell]]]], int, int]:
    """The search of ``PackingProblem`` compiled (``solvers.ubongo.engine``), in slices
    between deadline checks: (coverings counted up to ``limit``, the first ``keep`` of them as
    [(piece index, cells)] in the order ``PackingProblem.coverings`` finds them, nodes, placements)."""
    areas_list, counting = search_inputs(catalogue, pieces, count, use_all)
    total = len(cells)
    if not areas_match(areas_list, total, count, use_all):
        return 0, [], 0, 0
    ordered, placements = compiled_placements(cells, catalogue, pieces)
    piece, masks = placements.piece, placements.mask
    if limit <= 0:
        return 0, [], 0, len(piece)
    stack = np.zeros((count + 2, 4), np.int64)
    stack[0, 2] = -1
    found = np.zeros(3, np.int64)
    kept = np.zeros((keep, max(count, 1)), np.int64)
    nodes = 0
    while True:
        deadline.check()
        nodes += kernel.search(placements, counting, limit, stack, found, kernel.SLICE, kept)
        if found[2]:
            break
    coverings = [[(int(piece[j]), [ordered[i] for i in range(total) if int(masks[j]) >> i & 1]) for j in row[:count]]
                 for row in kept[:min(keep, int(found[0]))]]
    return int(found[0]), coverings, nodes, len(piece)


def count_coverings(cells: list[Cell] | set[Cell], catalogue: str, pieces: tuple[str, ...], count: int, use_all: bool,
                    limit: int, deadline: Deadline) -> int:
    """How many coverings of ``cells`` there are, up to ``limit`` (see ``PackingProblem``), compiled: a
    small count in one call, a larger one in slices between deadline checks."""
    areas_list, counting = search_inputs(catalogue, pieces, count, use_all)
    if limit <= 0 or not areas_match(areas_list, len(cells), count, use_all):
        return 0
    deadline.check()
    _, placements = compiled_placements(cells, catalogue, pieces)
    found = kernel.count_first_slice(placements, counting, limit)
    return int(found) if found >= 0 else compiled_search(cells, catalogue, pieces, count, use_all, limit, deadline)[0]


def count_outline(outline: int, width: int, catalogue: str, pieces: tuple[str, ...], count: int, use_all: bool,
                  limit: int, deadline: Deadline) -> int:
    """``count_coverings`` of the cells of ``outline``, a mask with rows ``width`` bits apart (a
    generator's key for a card), in one compiled call when it fits a word and one slice of search."""
    areas_list, counting = search_inputs(catalogue, pieces, count, use_all)
    if limit <= 0 or not areas_match(areas_list, outline.bit_count(), count, use_all):
        return 0
    deadline.check()
    found = -1
    if outline < 1 << 64:
        found = kernel.count_outline(np.uint64(outline), width, orientation_arrays(catalogue, pieces), counting, limit)
    if found >= 0:
        return int(found)
    cells = [divmod(bit, width) for bit in range(outline.bit_length()) if outline >> bit & 1]
    return compiled_search(cells, catalogue, pieces, count, use_all, limit, deadline)[0]


_NO_SUMS = np.zeros((1, 1), np.int64)  # mode given: every piece is used, no area prune


BACKENDS = ("search", "cadical", "z3")  # the exact-cover search first: the default


def solve(
    puzzle: UbongoPuzzle, limit: int, deadline: Deadline, backend: str | None = None, keep: int | None = None
) -> SolveOutcome:
    """Counts up to max(limit, 2) distinct coverings, keeping the first ``keep``; ``backend``
    "cadical"/"z3" switches to the SAT encoding."""
    if backend not in (None, "search"):
        return solve_sat(puzzle, limit, deadline, backend, keep)
    most = max(limit, 2)
    pieces = allowed_pieces(puzzle)
    # One more than asked: whether there are more than ``most`` is what ``complete`` says.
    count, coverings, nodes, placements = compiled_search(
        shape_cells(puzzle), puzzle.catalogue, tuple(pieces), puzzle.piece_count or 0, puzzle.mode == "given",
        most + 1, deadline, keep=min(most, keep) if keep is not None else most)
    found = [{"placements": [{"piece": pieces[k], "cells": [list(cell) for cell in cells]}
                             for k, cells in sorted(covering)]} for covering in coverings]
    return SolveOutcome(found, count <= most, {"nodes": nodes, "placements": placements}, min(count, most))


def solve_sat(
    puzzle: UbongoPuzzle, limit: int, deadline: Deadline, backend: str = "cadical", keep: int | None = None
) -> SolveOutcome:
    """The same exact cover as SAT: one variable per placement, each cell exactly once, each piece at
    most once (exactly once in mode given), exactly ``piece_count`` placements in all."""
    problem = PackingProblem.of(puzzle)
    with make_backend(backend) as sat:
        var_of: dict[int, tuple[int, int]] = {}
        by_cell: dict[Cell, list[int]] = {cell: [] for cell in problem.cells}
        by_piece: list[list[int]] = [[] for _ in problem.pieces]
        for options in problem.by_first.values():
            for k, mask in options:
                v = sat.new_var()
                var_of[v] = (k, mask)
                by_piece[k].append(v)
                for cell in problem.cells_of(mask):
                    by_cell[cell].append(v)
        for vs in by_cell.values():
            sat.add_exactly(vs, 1)
        for vs in by_piece:
            if problem.use_all:
                sat.add_exactly(vs, 1)
            elif len(vs) > 1:
                sat.add_at_most(vs, 1)
        sat.add_exactly(list(var_of), problem.count)
        models, count, complete = count_models(sat, list(var_of), max(limit, 2), deadline, keep=keep)
        answers = [problem.answer([var_of[v] for v in sorted(m) if v in var_of]) for m in models]
        return SolveOutcome(answers, complete, count=count)
