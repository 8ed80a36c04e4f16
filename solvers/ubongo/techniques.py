"""Ubongo as a person packs: techniques in levels, for grading and hints.

A person looks for a cell (a corner, a narrow pocket) that only one piece fits, places it and looks
again; then counts: a region cut off by the pieces placed must be filled by the remaining pieces,
so its area must be a sum of their sizes, and on a checkerboard colouring its dark and light cells
must balance the way those pieces do (a T-tetromino always covers 3 of one colour and 1 of the
other). Past that, a person tries: puts a piece down, follows it, takes it back at a dead end.

The state is the placements made so far (the answer's shape), not a 0/1 grid. Each technique
narrows the placements that could still cover each free cell — "live" placements, by a filter that
grows stronger with the level — and places the one that remains. Every filter only drops placements
that no covering extending the state uses, so every placement it forces is in every such covering.
In mode `hidden` every catalogue piece is a candidate, and the first filter already counts: the
pieces still to place must make up the free area ("4 pieces for 20 cells: only pentominoes").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from solvers.common import Cell, Deadline, InvalidInput
from solvers.techniques.human import Contradiction, Difficulty, Grade, Hint, HumanSolver, Level, Step, Technique, cells_named
from solvers.ubongo import kernel as compiled
from solvers.ubongo.rules import (
    GRID,
    PackingProblem,
    Placement,
    UbongoAnswer,
    UbongoPuzzle,
    allowed_pieces,
    areas_match,
    catalogue_pieces,
    cell_grid,
    normalise,
    orientation_arrays,
    piece_orientations,
    search_inputs,
    shape_cells,
)

Filter = Literal["fit", "region", "parity"]  # the live-placement filters, weakest first
PlacementId = int  # index into Board.placements


def bits_of(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cell_of(bit: int) -> Cell:
    return divmod(bit, GRID)


def _neighbours(mask: int) -> int:
    return mask << 1 | mask >> 1 | mask << GRID | mask >> GRID


@lru_cache(maxsize=1 << 16)
def regions(free: int) -> tuple[int, ...]:
    """The connected regions of the free cells, each a mask (a row never wraps: GRID leaves a gap).
    Cached: the look-aheads ask for the same free cells again and again, on one card and the next."""
    found = []
    while free:
        region = free & -free
        while True:
            grown = region | _neighbours(region) & free
            if grown == region:
                break
            region = grown
        found.append(region)
        free &= ~region
    return tuple(found)


@lru_cache(maxsize=1 << 12)
def _sums(pieces: tuple[tuple[int, int], ...]) -> frozenset[tuple[int, int, int]]:
    """Every (count, total size, total imbalance) some of the ``pieces`` make, each imbalance counted
    either way round: what one region asks of them, looked up instead of searched."""
    found = {(0, 0, 0)}
    for size, lean in pieces:
        found |= {(n + 1, a + size, b + signed) for n, a, b in found for signed in {lean, -lean}}
    return frozenset(found)


def _fillings(pieces: tuple[tuple[int, int], ...], area: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """The sub-multisets of ``pieces`` (sorted) whose sizes add up to ``area``, each once."""
    if area == 0:
        yield ()
        return
    for i, piece in enumerate(pieces):
        if piece[0] > area:
            break
        if i and pieces[i - 1] == piece:
            continue  # the same sub-multisets as with the equal piece before it
        for more in _fillings(pieces[i + 1:], area - piece[0]):
            yield (piece, *more)


def _without(pieces: tuple[tuple[int, int], ...], taken: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    rest = list(pieces)
    for piece in taken:
        rest.remove(piece)
    return tuple(rest)


@lru_cache(maxsize=1 << 17)
def assignable(pieces: tuple[tuple[int, int], ...], areas: tuple[tuple[int, int], ...], left: int) -> bool:
    """Whether the ``pieces`` ((size, colour imbalance) each) can fill the regions ((area, dark minus
    light cells) each) exactly: ``left`` of them (in mode given, all of them), each region's sizes
    adding up to its area and its imbalance made of the pieces' imbalances, each counted either way
    round. Pass imbalances 0 to count areas only. Both tuples sorted (regions smallest first), so
    equal questions share the cache. Region by region, the smallest first: it has the fewest ways
    to be filled."""
    if not areas:
        return left == 0
    if len(areas) == 1:
        return (left, *areas[0]) in _sums(pieces)
    (area, imbalance), others = areas[0], areas[1:]
    for chosen in _fillings(pieces, area):
        if len(chosen) <= left and (len(chosen), area, imbalance) in _sums(chosen) \
                and assignable(_without(pieces, chosen), others, left - len(chosen)):
            return True
    return False


@dataclass
class Board:
    """What the techniques look up again and again, computed once per puzzle: every placement of an
    allowed piece inside the shape, and which placements cover each cell."""

    puzzle: UbongoPuzzle
    problem: PackingProblem
    placements: list[tuple[int, int]]  # (piece index, mask)
    bits: list[tuple[int, ...]]  # per placement: its cells' bits
    covering: dict[int, list[PlacementId]]  # cell bit -> placements covering it
    lean: tuple[int, ...]  # per piece: |dark - light| cells on a checkerboard, the same in every orientation
    dark: int  # the shape's cells with r + c even
    deadline: Deadline = field(default_factory=Deadline.never)
    live_cache: dict[tuple[int, int, Filter], list[PlacementId]] = field(default_factory=dict)
    remaining_cache: dict[tuple[int, bool], tuple[tuple[int, int], ...]] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return self.problem.pieces

    def describe(self, placement: PlacementId) -> str:
        k, mask = self.placements[placement]
        return f"the {self.names[k]} on {cells_named(cell_of(b) for b in bits_of(mask))}"

    def remaining(self, unused: int, parity: bool) -> tuple[tuple[int, int], ...]:
        """The (size, imbalance) of the ``unused`` pieces, sorted: ``assignable``'s question."""
        key = (unused, parity)
        known = self.remaining_cache.get(key)
        if known is None:
            areas = self.problem.areas
            known = self.remaining_cache[key] = tuple(sorted(
                (areas[i], self.lean[i] if parity else 0) for i in range(len(areas)) if unused >> i & 1))
        return known

    def imbalance(self, mask: int) -> int:
        return (mask & self.dark).bit_count() * 2 - mask.bit_count()


def _lean(shape: tuple[Cell, ...]) -> int:
    """|dark - light| cells of a piece on a checkerboard: the same in every orientation and position."""
    return abs(sum(1 if (r + c) % 2 == 0 else -1 for r, c in shape))


def board_of(puzzle: UbongoPuzzle, deadline: Deadline | None = None) -> Board:
    problem = PackingProblem.of(puzzle)
    placements = [p for options in problem.by_first.values() for p in options]
    covering: dict[int, list[PlacementId]] = {r * GRID + c: [] for r, c in problem.cells}
    for i, (_, mask) in enumerate(placements):
        for b in bits_of(mask):
            covering[b].append(i)
    shapes = catalogue_pieces(puzzle.catalogue)
    lean = tuple(_lean(shapes[name]) for name in problem.pieces)
    dark = sum(1 << (r * GRID + c) for r, c in problem.cells if (r + c) % 2 == 0)
    return Board(puzzle, problem, placements, [tuple(bits_of(mask)) for _, mask in placements], covering, lean, dark,
                 deadline or Deadline.never())


class PackingState:
    """The placements made so far, as the covered cells and the pieces used."""

    __slots__ = ("board", "placed", "covered", "used")

    def __init__(self, board: Board, placed: tuple[PlacementId, ...] = (), covered: int = 0, used: int = 0):
        self.board, self.placed, self.covered, self.used = board, placed, covered, used

    def copy(self) -> PackingState:
        return PackingState(self.board, self.placed, self.covered, self.used)

    def place(self, placement: PlacementId) -> None:
        k, mask = self.board.placements[placement]
        if placement in self.placed:
            return
        if self.used >> k & 1:
            raise Contradiction(f"the {self.board.names[k]} would be needed in two places")
        if self.covered & mask:
            raise Contradiction(f"{self.board.describe(placement)} overlaps a placed piece",
                                [cell_of(b) for b in bits_of(self.covered & mask)])
        self.placed += (placement,)
        self.covered |= mask
        self.used |= 1 << k

    def apply(self, step: Step) -> None:
        for placement in step.decide:
            self.place(placement)

    @property
    def free(self) -> int:
        return self.board.problem.full & ~self.covered

    @property
    def left(self) -> int:
        return (self.board.problem.count or 0) - len(self.placed)

    @property
    def solved(self) -> bool:
        return self.covered == self.board.problem.full


def start(board: Board) -> PackingState:
    return PackingState(board)


def live(board: Board, state: PackingState, strength: Filter) -> list[PlacementId]:
    """The placements that could still be part of a covering, as far as the filter sees: ``fit``, an
    unused piece on free cells (mode hidden: with the pieces still to place able to make up the rest
    of the area); ``region``, and every region it leaves can be filled by the remaining pieces'
    sizes; ``parity``, and their checkerboard colours balance too."""
    key = (state.covered, state.used, strength)
    known = board.live_cache.get(key)
    if known is not None:
        return known
    problem, free, used, left = board.problem, state.free, state.used, state.left
    all_pieces = (1 << len(problem.pieces)) - 1
    found = []
    if strength == "fit":
        area = free.bit_count()
        for p, (k, mask) in enumerate(board.placements):
            if used >> k & 1 or mask & ~free or left <= 0:
                continue
            if not problem.use_all and not problem.fillable(used | 1 << k, left - 1, area - problem.areas[k]):
                continue
            found.append(p)
    else:
        parity = strength == "parity"
        for p in live(board, state, "region" if parity else "fit"):
            k, mask = board.placements[p]
            parts = regions(free & ~mask)
            if len(parts) < 2 and not parity:
                found.append(p)  # one region: its area is the whole free area, which ``fit`` checked
                continue
            pieces = board.remaining(all_pieces & ~(used | 1 << k), parity)
            areas = tuple(sorted((r.bit_count(), board.imbalance(r) if parity else 0) for r in parts))
            if assignable(pieces, areas, left - 1):
                found.append(p)
    board.live_cache[key] = found
    return found


def covering_cells(board: Board, state: PackingState, options: list[PlacementId]) -> dict[int, list[PlacementId]]:
    """Each free cell (bit) with the ``options`` that cover it."""
    by_cell: dict[int, list[PlacementId]] = {b: [] for b in bits_of(state.free)}
    for p in options:
        for b in board.bits[p]:
            by_cell[b].append(p)
    return by_cell


Reason = tuple[Literal["cell", "piece"], int]  # the cell (bit) or the piece (index) that has one placement left


def forced(board: Board, state: PackingState, strength: Filter) -> list[tuple[PlacementId, Reason]]:
    """Placements that are the only live one for some free cell, or (mode given, where every piece is
    used) the only live one of some piece, each with that cell or piece. A free cell or a piece with
    none is a dead end."""
    options = live(board, state, strength)
    by_cell = covering_cells(board, state, options)
    found: dict[PlacementId, Reason] = {}
    for b, here in by_cell.items():
        if not here:
            raise Contradiction(f"no remaining piece can cover {cells_named([cell_of(b)])}", [cell_of(b)])
        if len(here) == 1 and here[0] not in found:
            found[here[0]] = ("cell", b)
    if board.problem.use_all:
        by_piece: dict[int, list[PlacementId]] = {}
        for p in options:
            by_piece.setdefault(board.placements[p][0], []).append(p)
        for k in range(len(board.names)):
            if not state.used >> k & 1:
                here = by_piece.get(k, [])
                if not here:
                    raise Contradiction(f"the {board.names[k]} fits nowhere any more")
                if len(here) == 1 and here[0] not in found:
                    found[here[0]] = ("piece", k)
    return list(found.items())


def _example(board: Board, state: PackingState, placement: PlacementId, cell: int, strength: Filter) -> str:
    """Why one of the other placements at ``cell`` fails the filter, for the message: what it leaves."""
    others = [p for p in live(board, state, "fit") if p != placement and board.placements[p][1] >> cell & 1]
    if not others:
        return ""
    k, mask = board.placements[others[0]]
    unused = (1 << len(board.names)) - 1 & ~(state.used | 1 << k)
    if strength == "region":
        sizes = sorted(r.bit_count() for r in regions(state.free & ~mask))
        left = sorted(size for size, _ in board.remaining(unused, False))
        pieces = (f"the pieces left have sizes {', '.join(map(str, left))}" if board.problem.use_all else
                  f"{state.left - 1} more pieces, of sizes {', '.join(map(str, left))} to choose from")
        return f" ({board.describe(others[0])}, for one, would leave regions of {', '.join(map(str, sizes))} cells; {pieces})"
    splits = [f"{(r & board.dark).bit_count()}+{(r & ~board.dark).bit_count()}" for r in regions(state.free & ~mask)]
    return (f" ({board.describe(others[0])}, for one, would leave dark+light cells {', '.join(splits)}, which the "
            f"pieces left cannot cover)")


def _forced_message(board: Board, state: PackingState, placement: PlacementId, why: Reason, strength: Filter) -> str:
    what = board.describe(placement)
    kind, index = why
    if kind == "cell":
        where = cells_named([cell_of(index)])
        if strength == "fit":
            return f"Only one piece fits at {where}: {what}."
        example = _example(board, state, placement, index, strength)
        if strength == "region":
            return (f"At {where} only {what} works: any other piece there cuts off a region whose size "
                    f"the remaining pieces cannot add up to{example}.")
        return (f"At {where} only {what} works. Colour the shape like a checkerboard: each piece covers a fixed "
                f"split of dark and light cells (a T4 3+1, an I3 2+1), and any other piece there leaves a region "
                f"the remaining pieces cannot balance{example}.")
    name = board.names[index]
    if strength == "fit":
        return f"The {name} fits in only one place: {what}."
    if strength == "region":
        return f"The {name} has one place left that does not cut off a region the other pieces cannot fill: {what}."
    return f"The {name} has one place left where the checkerboard colours still balance: {what}."


def _placing(board: Board, state: PackingState, strength: Filter, technique: str) -> list[Step]:
    steps = []
    for placement, why in forced(board, state, strength):
        _, mask = board.placements[placement]
        message = _forced_message(board, state, placement, why, strength)
        if board.puzzle.mode == "hidden" and strength == "fit" and not state.placed:
            message = (f"{board.puzzle.piece_count} pieces must make the {state.free.bit_count()} cells, which rules "
                       f"out pieces too small or too large. " + message)
        steps.append(Step(technique, message, (placement,), tuple(cell_of(b) for b in bits_of(mask))))
    return steps


def only_fit(board: Board, state: PackingState) -> list[Step]:
    return _placing(board, state, "fit", "only-fit")


def cut_off_region(board: Board, state: PackingState) -> list[Step]:
    return _placing(board, state, "region", "cut-off-region")


def parity(board: Board, state: PackingState) -> list[Step]:
    return _placing(board, state, "parity", "parity")


def settle(board: Board, state: PackingState) -> None:
    """Place every piece the counting techniques force, until none is; raises Contradiction at a dead end."""
    while not state.solved:
        board.deadline.check()
        found = forced(board, state, "parity")
        if not found:
            return
        for placement, _ in found:
            state.place(placement)


def search(board: Board, state: PackingState, dead_ends: list[int]) -> bool:
    """Whether some covering extends the state: settle, then try every live placement of the most
    constrained free cell; counts the dead ends met on the way."""
    try:
        settle(board, state)
    except Contradiction:
        dead_ends[0] += 1
        return False
    if state.solved:
        return True
    options = live(board, state, "parity")
    _, here = min(covering_cells(board, state, options).items(), key=lambda item: (len(item[1]), item[0]))
    found = False
    for p in here:
        trial = state.copy()
        trial.place(p)
        if search(board, trial, dead_ends):
            found = True
            break
    return found


def _choice_cells(board: Board, state: PackingState) -> list[tuple[int, list[PlacementId]]]:
    """Free cells with their live placements, fewest first (where a person tries first)."""
    by_cell = covering_cells(board, state, live(board, state, "parity"))
    return sorted(by_cell.items(), key=lambda item: (len(item[1]), item[0]))


def _trial_step(board: Board, state: PackingState, technique: str, deep: bool, most: int = 99) -> list[Step]:
    """A cell where every live placement but one leads to a dead end: followed with the counting
    techniques only (``deep`` False), or with further trials inside (``deep``), as far as it takes.
    The effort is the number of dead ends met."""
    for cell, options in _choice_cells(board, state):
        if not 2 <= len(options) <= most:
            continue
        dead_ends = [0]
        survivors: list[PlacementId] = []
        why: list[str] = []  # what each dead end ran into
        for p in options:
            trial = state.copy()
            trial.place(p)
            if deep:
                if search(board, trial, dead_ends):
                    survivors.append(p)
            else:
                try:
                    settle(board, trial)
                    survivors.append(p)
                except Contradiction as dead_end:
                    dead_ends[0] += 1
                    why.append(f"with {board.describe(p)}, {dead_end.message}")
            if len(survivors) > 1:
                break
        if len(survivors) == 1:
            where = cells_named([cell_of(cell)])
            works = board.describe(survivors[0])
            if deep:
                message = (f"{len(options)} placements can cover {where}. Try each and follow it with further tries: "
                           f"every one but {works} ends in dead ends ({dead_ends[0]} in all).")
            elif len(options) == 2:
                message = f"Only two placements can cover {where}. Try the other one: {why[0]}. So it is {works}."
            else:
                message = (f"{len(options)} placements can cover {where}. Try each: " + "; ".join(why[:3])
                           + ("; …" if len(why) > 3 else "") + f". Only {works} works.")
            _, mask = board.placements[survivors[0]]
            return [Step(technique, message, (survivors[0],), tuple(cell_of(b) for b in bits_of(mask)),
                         effort=max(1, dead_ends[0]))]
    return []


def two_way(board: Board, state: PackingState) -> list[Step]:
    return _trial_step(board, state, "two-way", deep=False, most=2)


def trial(board: Board, state: PackingState) -> list[Step]:
    return _trial_step(board, state, "trial", deep=False)


def deep_trial(board: Board, state: PackingState) -> list[Step]:
    return _trial_step(board, state, "deep-trial", deep=True)


ONLY_FIT = Technique("only-fit", "A cell (a corner, a narrow pocket) that only one piece in one position can "
                                 "cover, or a piece that fits in only one place: place it.", 1.0, only_fit)
CUT_OFF_REGION = Technique("cut-off-region", "A placement that cuts off a region whose size no choice of the "
                                             "remaining pieces adds up to is impossible; place what is left.",
                           2.0, cut_off_region)
PARITY = Technique("parity", "Colour the shape like a checkerboard: each piece covers a fixed split of dark and "
                             "light cells (a T4 3+1), so a region must balance; place what is left.", 3.0, parity)
TWO_WAY = Technique("two-way", "A cell only two placements can cover: one of them leads to a dead end after "
                               "the counting steps, so it is the other.", 4.0, two_way)
TRIAL = Technique("trial", "Try each piece that fits at a cell: all but one lead to a dead end after the "
                           "counting steps.", 5.0, trial)
DEEP_TRIAL = Technique("deep-trial", "Try each piece that fits at a cell, following each with further trials: "
                                     "every way but one ends in dead ends.", 8.0, deep_trial)

SOLVER: HumanSolver[Board, PackingState] = HumanSolver(
    levels=(
        Level("easy", (ONLY_FIT, CUT_OFF_REGION)),
        Level("medium", (PARITY, TWO_WAY)),
        Level("hard", (TRIAL, DEEP_TRIAL)),
    ),
    start=start,
)
LEVELS = tuple(SOLVER.level_names)


class UbongoState(BaseModel):
    placements: list[Placement] | None = Field(
        default_factory=list, description="The pieces placed so far, as in the answer (any order); null: none yet.")


def _placement_id(board: Board, piece: str, cells: list[list[int]] | list[Cell]) -> PlacementId | None:
    """The board's placement of ``piece`` on exactly ``cells``, or None (outside the shape, or a
    piece this puzzle does not allow)."""
    if piece not in board.names:
        return None
    k = board.names.index(piece)
    mask = 0
    for r, c in cells:
        if not (0 <= r < 64 and 0 <= c < GRID):
            return None
        mask |= 1 << (r * GRID + c)
    first = (mask & -mask).bit_length() - 1
    for p in board.covering.get(first, []):
        if board.placements[p] == (k, mask):
            return p
    return None


def grade(puzzle: UbongoPuzzle, deadline: Deadline) -> Grade:
    return SOLVER.grade(board_of(puzzle, deadline), deadline)


def _kinds(keys: list[tuple[int, int]], width: int) -> tuple[list[int], list[int], list[int]]:
    """Pieces as kinds of equal (size, imbalance): each piece's kind, and each kind's size and imbalance,
    padded to ``width``. ``assignable`` only asks how many of each kind remain."""
    kinds = sorted(set(keys))
    pad = [0] * (width - len(kinds))
    return [kinds.index(key) for key in keys], [size for size, _ in kinds] + pad, [lean for _, lean in kinds] + pad


@lru_cache(maxsize=1 << 10)
def piece_kinds(catalogue: str, pieces: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """The pieces as kinds, the same for every card of a piece set: each piece's kind, each kind's size
    and imbalance, and how many kinds, by area (row 0) and by area and colours (row 1)."""
    shapes = catalogue_pieces(catalogue)
    areas = [len(shapes[name]) for name in pieces]
    by_area = _kinds([(area, 0) for area in areas], len(pieces))
    by_colours = _kinds([(area, _lean(shapes[name])) for area, name in zip(areas, pieces, strict=True)], len(pieces))
    return (np.array([by_area[0], by_colours[0]], np.int64), np.array([by_area[1], by_colours[1]], np.int64),
            np.array([by_area[2], by_colours[2]], np.int64),
            np.array([len(set(by_area[0])), len(set(by_colours[0]))], np.int64))


def kernel_board(puzzle: UbongoPuzzle) -> compiled.Board:
    """The card as ``solvers.ubongo.kernel`` takes it (``make_board``)."""
    _, grid, parity = cell_grid(shape_cells(puzzle))
    return compiled.make_board(grid, parity, piece_set(puzzle.catalogue, tuple(allowed_pieces(puzzle)),
                                                       puzzle.piece_count or 0, puzzle.mode == "given"))


def grade_within(puzzle: UbongoPuzzle, level: str, deadline: Deadline) -> Grade | None:
    """The card's grade if the techniques up to ``level`` finish it, else None without trying the
    harder ones: a generator looking for that level skips the costly trials of cards above it.

    The path is taken compiled (``solvers.ubongo.kernel.run``), which a walk toward a level can afford on every
    card it meets; a card where a technique meets a dead end (no covering) takes the Python path, which
    raises the same ``Contradiction`` it always did."""
    deadline.check()
    upto = SOLVER.level_names.index(level)
    count = puzzle.piece_count or 0
    techniques, efforts = np.zeros(count + 1, np.int64), np.zeros(count + 1, np.int64)
    found = compiled.run(kernel_board(puzzle), upto, techniques, efforts)
    try:
        return grade_of(found, techniques, efforts)
    except Contradiction:
        path = SOLVER.run(board_of(puzzle, deadline), upto=upto, deadline=deadline)
        return SOLVER.grade_path(path) if path.state.solved else None


def unique_grade_within(outline: int, width: int, catalogue: str, pieces: tuple[str, ...], count: int, use_all: bool,
                        level: str, deadline: Deadline) -> tuple[bool, Grade | None] | None:
    """For a generator's card, the cells of ``outline`` (rows ``width`` bits apart, the puzzle's
    coordinates) with these allowed pieces (``allowed_pieces``), count and mode (``use_all``: given):
    whether it has exactly one covering and, if so, ``grade_within``; in one compiled call
    (``solvers.ubongo.kernel.count_and_grade``). None when the outline does not fit a word or the count takes
    more than one slice of search (the caller counts in slices). Raises ``Contradiction`` where a technique meets a dead end."""
    deadline.check()
    if outline >= 1 << 64:
        return None
    if not areas_match(search_inputs(catalogue, pieces, count, use_all)[0], outline.bit_count(), count, use_all):
        return False, None
    techniques, efforts = np.zeros(count + 1, np.int64), np.zeros(count + 1, np.int64)
    coverings, *found = compiled.count_and_grade(np.uint64(outline), width, piece_set(catalogue, pieces, count, use_all),
                                                 2, SOLVER.level_names.index(level), techniques, efforts)
    if coverings < 0:
        return None
    return coverings == 1, grade_of(found, techniques, efforts) if coverings == 1 else None


@lru_cache(maxsize=1 << 10)
def piece_set(catalogue: str, pieces: tuple[str, ...], count: int, use_all: bool) -> compiled.PieceSet:
    """What the compiled count and grader take about a piece set, gathered once per set."""
    return compiled.PieceSet(orientation_arrays(catalogue, pieces), search_inputs(catalogue, pieces, count, use_all)[1],
                             *piece_kinds(catalogue, pieces))


def grade_of(found: tuple[int, bool, bool], techniques: np.ndarray, efforts: np.ndarray) -> Grade | None:
    """The grade of a compiled run ((steps, solved, broken) and its steps' techniques and efforts)."""
    steps, solved, broken = found
    if broken:
        raise Contradiction("a technique met a dead end: the card has no covering")
    if not solved:
        return None
    return _solved_grade(tuple(zip(techniques[:steps].tolist(), efforts[:steps].tolist(), strict=True)))


@lru_cache(maxsize=1 << 12)
def _solved_grade(steps: tuple[tuple[int, int], ...]) -> Grade:
    """The grade of a finished path given as (technique index, effort) per step: a walk grades card after
    card whose paths are mostly a handful of the same short step lists."""
    return SOLVER.grade_numbered(steps, True)


def warm_up() -> None:
    """Load (or compile, the first time on this machine) the compiled grader."""
    for puzzle in (UbongoPuzzle(shape=["###", "##."], pieces=["I2", "I3"]),
                   UbongoPuzzle(shape=["###", "##."], mode="hidden", piece_count=2)):
        grade_within(puzzle, LEVELS[-1], Deadline.never())
        unique_grade_within(0b11_111, 3, puzzle.catalogue, tuple(allowed_pieces(puzzle)), 2, puzzle.mode == "given",
                            LEVELS[-1], Deadline.never())


def hint(puzzle: UbongoPuzzle, state: UbongoState, solution: UbongoAnswer, deadline: Deadline) -> Hint:
    """The next placement that follows from the player's placements, or the ones not in the solution.

    A placement that is not even a piece (unknown name, cells that are no orientation of it) is
    malformed input; one that is a piece but not where the solution has it is a mistake."""
    known = catalogue_pieces(puzzle.catalogue)
    for i, p in enumerate(state.placements):
        if p.piece not in known:
            raise InvalidInput(f"placement {i}: `{p.piece}` is not in catalogue `{puzzle.catalogue}`; "
                               f"known: {', '.join(known)}")
        if any(len(c) != 2 for c in p.cells) or len({tuple(c) for c in p.cells}) != len(p.cells) or not p.cells \
                or normalise([(r, c) for r, c in p.cells]) not in piece_orientations(puzzle.catalogue, p.piece):
            raise InvalidInput(f"placement {i}: the cells are not a rotation or reflection of the {p.piece} "
                               f"({len(p.cells)} [row, col] pairs, each once)")
    target = {(p.piece, frozenset(map(tuple, p.cells))) for p in solution.placements}
    wrong = [p for p in state.placements if (p.piece, frozenset(map(tuple, p.cells))) not in target]
    if wrong:
        cells = sorted({(r, c) for p in wrong for r, c in p.cells})
        names = ", ".join(p.piece for p in wrong)
        return Hint("mistakes", f"{len(wrong)} piece(s) are not where the solution has them ({names}): "
                                f"take them off first.", mistakes=[[r, c] for r, c in cells])
    board = board_of(puzzle, deadline)
    current = start(board)
    for p in state.placements:
        placement = _placement_id(board, p.piece, p.cells)
        assert placement is not None  # it is in the solution, so inside the shape and allowed
        current.place(placement)
    if current.solved:
        return Hint("solved", "Every cell is covered and every piece is right: the card is solved.")
    found = SOLVER.next_steps(board, current)
    if found is not None:
        step = found[1][0]
        technique, message, placement = step.technique, step.message, step.decide[0]
    else:  # unreachable for a unique card (deep trial always finishes one); kept so hints always finish
        first = next(bits_of(current.free))
        p = next(p for p in solution.placements if (first // GRID, first % GRID) in map(tuple, p.cells))
        placement = _placement_id(board, p.piece, p.cells)
        technique, message = "reveal", f"In the solution {board.describe(placement)}."
    k, mask = board.placements[placement]
    cells = [list(cell_of(b)) for b in bits_of(mask)]
    return Hint(technique, message, decide=[{"piece": board.names[k], "cells": cells}], because=cells)


DIFFICULTY = Difficulty(SOLVER.describe(), "medium", grade, hint, UbongoState)
