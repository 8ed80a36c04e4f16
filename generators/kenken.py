"""KenKen generation through the genre kit: a random Latin square, a random partition of it into small cages
(``solvers.kit.partition``), each cage an operation drawn at random and the target its digits make. Every cage
is shown; a board is drawn again until its puzzle needs exactly the asked level (Tatham's Keen does the same).

Sizes 3 to 9 (Keen's presets are 4 to 9); levels Keen's first four, as in ``PEOPLE``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from math import prod
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.kit import make_read_by_groups
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Deadline
from solvers.grid import neighbours
from solvers.kenken import picture, tatham
from solvers.kenken.rules import Cage, KenkenAnswer, KenkenPuzzle, fillings, model
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.arrays import fast
from solvers.kit.latin import latin_square
from solvers.kit.partition import Cell, partition, region_cells, touching
from solvers.kit.tuples import TUPLES, analysed
from solvers.techniques.human import Grade

MIN_SIDE, MAX_SIDE, DEFAULT_SIDE = 3, 9, 6
MAX_CAGE = 3  # cells; Keen's cages are mostly two or three cells
MAX_PRODUCT = 1000  # a cage multiplies only while its product stays this small
LEVELS = ("easy", "normal", "hard", "extreme")
# The hardest level made at each size (else extreme).
TOP_LEVEL = {3: "easy", 4: "hard"}
CHAIN = 3  # rounds a hard trial is followed
# Keen's levels: Easy reads a cage by its placed digits, Normal by what its cells may still hold (the filling
# analysis), Hard needs short chains of deductions, Extreme long ones (his Unreasonable is graded Extreme too).
PEOPLE = kit_human.group_levels(LEVELS, TUPLES, CHAIN, "digit")
# Graded on arrays (the same deductions, in the same levels); hints take the techniques' path and sentences.
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, kit.Digits("digits", 1, 1, 9),
                                       "N×N digits 1..N, 0 or null for an empty cell", default="normal"),
                  PEOPLE, model, analysed, CHAIN)
Answer = dict[str, list[list[int]]]


class KenkenParams(BaseModel):
    size: int = Field(DEFAULT_SIDE, ge=MIN_SIDE, le=MAX_SIDE, description="N: the grid is N×N, digits 1..N.")
    operations: Literal["all", "add-multiply"] = Field(
        "all", description="`all`: cages of +, −, × and ÷; `add-multiply`: + and × only.")
    difficulty: Literal["easy", "normal", "hard", "extreme"] = Field(
        DIFFICULTY.default, description="What a person needs (see the type's `difficulties`), as Keen's levels: "
        "easy only at 3, up to hard at 4, every level from 5 to 9.")

    @model_validator(mode="after")
    def _made(self) -> KenkenParams:
        top = TOP_LEVEL.get(self.size, "extreme")
        if LEVELS.index(self.difficulty) > LEVELS.index(top):
            why = "no 3×3 drawn needs more" if self.size == 3 else "almost no 4×4 needs more"
            raise ValueError(f"difficulty {self.difficulty!r} is not made at size {self.size} ({why}): up to {top}")
        return self


@dataclass(frozen=True)
class Board:
    """The cages (cells in reading order) and their operations; the targets come from the answer."""

    size: int
    cages: tuple[tuple[tuple[tuple[int, int], ...], str | None], ...]


@dataclass(frozen=True)
class Mix:
    """What a level's boards tell. A product pins its digits down more than a sum (fewer fillings), ÷ more than −,
    and a one-cell cage gives its digit away: the easier the level, the more a drawn board tells, so that few
    boards are drawn before one lands on it."""

    times: float  # how often a cage that may multiply does (a two-cell cage past ÷ and −)
    divide: float  # how often a two-cell cage whose digits divide shows ÷
    singles: bool  # one-cell cages stay; else each joins a neighbouring cage
    merged: int = 0  # cells a cage may reach when two merge to make a draw below the level harder (``Harder``); 0: drawn again


MIXES = {"easy": Mix(1.0, 1.0, True), "normal": Mix(0.7, 0.5, True), "hard": Mix(0.4, 0.5, True, merged=4),
         "extreme": Mix(0.0, 0.5, False, merged=5)}
# From this side on an extreme board is drawn as a hard one, its merges reaching extreme's cells: drawn with sums
# and no single cells, a large board is rarely unique and, when it is, mostly past what the levels read.
EXTREME_AS_HARD_FROM = 7


def mix_of(params: KenkenParams) -> Mix:
    """How the asked level's boards are drawn (``MIXES``, ``EXTREME_AS_HARD_FROM``)."""
    if params.difficulty == "extreme" and params.size >= EXTREME_AS_HARD_FROM:
        return replace(MIXES["hard"], merged=MIXES["extreme"].merged)
    return MIXES[params.difficulty]


def operation(digits: list[int], operations: str, rng: random.Random, mix: Mix) -> str | None:
    """A cage's operation: none for one cell; for two, ÷ (when it divides evenly) as often as ``mix`` says, else −
    half the time, else one of + and ×; for more, + or × (× only while its product stays small)."""
    if len(digits) == 1:
        return None
    if len(digits) == 2 and operations == "all":
        high, low = max(digits), min(digits)
        if high % low == 0 and rng.random() < mix.divide:
            return "/"
        if rng.random() < 0.5:
            return "-"
    return "*" if prod(digits) <= MAX_PRODUCT and rng.random() < mix.times else "+"


def operations_of(digits: list[int], operations: str) -> list[str | None]:
    """Every operation a cage holding ``digits`` may show."""
    if len(digits) == 1:
        return [None]
    shown: list[str | None] = ["+", *(["*"] if prod(digits) <= MAX_PRODUCT else [])]
    if len(digits) == 2 and operations == "all":
        shown += ["-", *(["/"] if max(digits) % min(digits) == 0 else [])]
    return shown


def joined_singles(cages: list[list[Cell]], n: int, rng: random.Random) -> list[list[Cell]]:
    """Each one-cell cage joined to a neighbouring cage of at most ``MAX_CAGE`` cells, one drawn at random (it
    stays alone when every neighbour is full)."""
    cages = [list(cells) for cells in cages]
    cage_of = {cell: k for k, cells in enumerate(cages) for cell in cells}
    for k, cells in enumerate(cages):
        if len(cells) != 1:
            continue
        near = sorted({cage_of[cell] for cell in neighbours(cells[0], n, n)
                       if cage_of[cell] != k and len(cages[cage_of[cell]]) <= MAX_CAGE})
        if near:
            j = rng.choice(near)
            cage_of[cells[0]] = j
            cages[j] = sorted([*cages[j], cells[0]])
            cells.clear()
    return [cells for cells in cages if cells]


class KenkenGenre:
    """What the kit's generator needs: a Latin square and cages on it; no clue is hidden."""

    def draw(self, params: KenkenParams, rng: random.Random) -> tuple[Board, Answer]:
        n, mix = params.size, mix_of(params)
        grid = latin_square(n, rng)
        cages = list(region_cells(partition(n, n, rng, max_size=MAX_CAGE)).values())
        if not mix.singles:
            cages = joined_singles(cages, n, rng)
        return Board(n, tuple((tuple(cells), operation([grid[r][c] for r, c in cells], params.operations, rng, mix))
                              for cells in cages)), {"digits": grid}

    def clues(self, board: Board, answer: Answer) -> list[int]:
        return []

    def puzzle(self, board: Board, answer: Answer, shown: frozenset[int]) -> KenkenPuzzle:
        grid = answer["digits"]
        return KenkenPuzzle(size=board.size, cages=[Cage(cells=cells, op=op, target=target(op, [grid[r][c] for r, c in cells]))
                                                    for cells, op in board.cages])

    def model(self, puzzle: KenkenPuzzle) -> kit.Model:
        return model(puzzle)

    def mend(self, params: KenkenParams, board: Board, answer: Answer, other: Answer, rng: random.Random) -> Board | None:
        """One cage that the second answer fills with other digits shows an operation they make another target
        with (a sum both make may be a product only one does); None when no cage can tell them apart so."""
        grid, second = answer["digits"], other["digits"]
        found = []
        for k, (cells, op) in enumerate(board.cages):
            digits, theirs = [grid[r][c] for r, c in cells], [second[r][c] for r, c in cells]
            found += [(k, new) for new in operations_of(digits, params.operations)
                      if new != op and target(new, digits) != target(new, theirs)]
        if not found:
            return None
        k, new = rng.choice(found)
        return Board(board.size, (*board.cages[:k], (board.cages[k][0], new), *board.cages[k + 1:]))


def target(op: str | None, digits: list[int]) -> int:
    if op in (None, "+"):
        return sum(digits)
    if op == "*":
        return prod(digits)
    return max(digits) - min(digits) if op == "-" else max(digits) // min(digits)


FIRST_BATCH = 4  # changes the first prover of ``Harder`` holds


class Harder:
    """A draw graded below the asked level, made to tell less one cage at a time while its answer stays the only
    one: two neighbouring cages become one of at most the level's ``Mix.merged`` cells (their sum or product is
    what the two told together, and less), or a cage shows an operation with more fillings. The changes are
    asked in random order, each cage a clue of a prover holding the next few changes (``FIRST_BATCH``, twice as
    many each time: the first or second change asked mostly keeps the answer alone, and a merged cage's fillings
    cost more than its proof); the first that keeps the answer alone goes back to be graded."""

    def __init__(self, params: KenkenParams):
        self.level, self.operations = LEVELS.index(params.difficulty), params.operations
        self.merged = mix_of(params).merged

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        if graded.level is None or LEVELS.index(graded.level) >= self.level:
            return None  # at or above the level: drawn again
        puzzle, grid = generated.puzzle, generated.solution.digits
        changes = self.changes(puzzle, grid)
        if not changes:
            return None
        rng.shuffle(changes)
        cages, start, batch = len(puzzle.cages), 0, FIRST_BATCH
        while start < len(changes):
            part = changes[start:start + batch]
            prover = kit.Prover(model(puzzle, [cage for _, cage in part]), {"digits": grid})
            try:
                for i, (gone, cage) in enumerate(part):
                    if prover.other({k for k in range(cages) if k not in gone} | {cages + i}, deadline) is None:
                        kept = [other for k, other in enumerate(puzzle.cages) if k not in gone]
                        changed = KenkenPuzzle(size=puzzle.size, cages=sorted([*kept, cage], key=lambda c: c.cells[0]))
                        return Generated(changed, generated.solution, generated.stats)
            finally:
                prover.close()
            start, batch = start + batch, 2 * batch
        return None

    def changes(self, puzzle: KenkenPuzzle, grid: list[list[int]]) -> list[tuple[frozenset[int], Cage]]:
        """Each change that tells less, as the cages it takes away and the cage in their place."""
        n, found = puzzle.size, []
        for k, cage in enumerate(puzzle.cages):
            digits = [grid[r][c] for r, c in cage.cells]
            now = len(fillings(cage, n))
            for op in operations_of(digits, self.operations):
                other = Cage(cells=cage.cells, op=op, target=target(op, digits))
                if len(fillings(other, n)) > now:
                    found.append((frozenset((k,)), other))
        for k, j in touching([cage.cells for cage in puzzle.cages], n, n):
            cells = sorted([*puzzle.cages[k].cells, *puzzle.cages[j].cells])
            if len(cells) <= self.merged:
                digits = [grid[r][c] for r, c in cells]
                found += [(frozenset((k, j)), Cage(cells=cells, op=op, target=target(op, digits)))
                          for op in operations_of(digits, self.operations)]
        return found


def generate_puzzle(params: KenkenParams, seed: int, deadline: Deadline) -> Generated:
    """Boards drawn as the level's mix says (``mix_of``); one graded below the level is made to tell less (``Harder``)."""
    return make_read_by_groups(KenkenGenre(), KenkenAnswer, DIFFICULTY, model, analysed, CHAIN, params, seed,
                               deadline, adjust=Harder(params) if mix_of(params).merged else None,
                               graded_on_arrays=True)


check = kit.checker(model)
solve = kit_solving.solver(model)
PRESETS = (("4de", 0, 4, "easy"), ("5de", 0, 5, "easy"), ("6de", 0, 6, "easy"), ("6dn", 1, 6, "normal"),
           ("6dh", 2, 6, "hard"), ("5dx", 3, 5, "extreme"), ("9dn", 1, 9, "normal"))


PUZZLE_TYPE = PuzzleType(
    name="kenken",
    id_prefix="ken",
    summary="Fill the grid with digits 1..N, each once per row and column; each cage's digits make its target "
            "with its operation (+, −, ×, ÷).",
    params_model=KenkenParams,
    puzzle_model=KenkenPuzzle,
    answer_model=KenkenAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="keen",
    tatham_presets=tuple(TathamPreset(preset, rank, {"size": n, "difficulty": level}) for preset, rank, n, level in PRESETS),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE}"},
    difficulty=DIFFICULTY,
    play_mode="digits",
    model=model,
)
