"""Sudoku generation: the pipeline steps and the type's registration.

Solution: the exact search run on an empty grid with a random digit order per cell (a random grid,
restarted with another order if it wanders past a node budget). Clues: a random set of cells (with
their symmetric partners) of about a quarter of the grid. Repair: the solver's second solution differs
from the intended one somewhere; one of those cells, chosen at random, becomes a given (with its
partner), which rules that solution out for good. Polish: every given (pair) in random order is taken
out if the puzzle stays unique, so the clues end minimal: none can be removed without losing
uniqueness (under rotational symmetry, no pair).

Levels: a draw is graded with the target level's techniques. Too hard: the cell (pair) where those
techniques get stuck that opens the most becomes a given, then the givens the level does not need are
taken out again, so the puzzle is minimal for its level (no given can go and the level still finish
it). Too easy: another draw, except at 9×9 `medium`, where singles finish most draws: there a draw
singles finish is swapped (``swap_for_level``: a given out, another in, so singles stall and medium still
finishes), then made minimal for the level. `expert` only takes draws (never adds a given), so its clues
stay minimal for uniqueness.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from generators.pipeline import Generated, generate, generate_at_level
from generators.spec import PuzzleType
from solvers.common import Deadline, compile_lock
from solvers.sudoku import engine, kernel, picture, puzzlink, rules
from solvers.sudoku import techniques as human
from solvers.techniques.human import Grade

Flat = list[int]  # a grid row by row
Symmetry = Literal["none", "rotational"]
START_SHARE = {4: 0.25, 6: 0.25, 9: 0.25, 16: 0.45}  # of the cells given before the first repair round
SWAPPED_START_SHARE = 0.4  # the same for a draw to be swapped: fewer repair rounds, and the swap polishes
POLISH_NODES = 200_000  # a given whose removal the search cannot decide within this stays (never hit on 9×9)
FILL_BUDGET = 5_000  # search nodes before a random fill starts over with another digit order
SWAPPED = {9: (1,)}  # per size, level indices whose draws singles finish are swapped toward the level
SWAP_SOLUTIONS = 64  # a removal letting in more solutions than this is not swapped (one given rarely rules out all)
SWAP_NODES = 160  # nor one whose solutions the search cannot list within this many nodes
SWAP_OPEN = 25  # nor one after which singles leave fewer cells open (a swap there almost always lets singles finish)


# Levels a request can ask for at each size. Singles finish every 4×4; a 6×6 that needs the medium
# techniques (and no more) turns up about once in 1,000 minimal draws, too rarely to find on request.
LEVELS_BY_SIZE = {4: ("easy",), 6: ("easy", "hard", "expert"), 9: human.LEVELS, 16: human.LEVELS}
DEFAULT_LEVEL = {4: "easy", 6: "easy", 9: "medium", 16: "medium"}


class SudokuParams(BaseModel):
    size: rules.Size = Field(9, description="N: 4 (2×2 boxes), 6 (boxes of 2 rows × 3 columns), 9 (3×3), 16 (4×4).")
    symmetry: Symmetry = Field(
        "rotational", description="Where the givens stand: `rotational` (180°: as published puzzles place them, "
                                  "the default at every size) or `none` (then no single given can be removed at "
                                  "`expert`; with symmetry, no pair).")
    difficulty: Literal["easy", "medium", "hard", "expert"] = Field(
        human.DIFFICULTY.default,
        description="Which techniques a person needs (see the type's `difficulties`). Size 4 has only `easy` (singles "
                    "finish every 4×4); size 6 has easy (its default), hard and expert.")

    @model_validator(mode="after")
    def _normalised(self) -> SudokuParams:
        """One spelling per puzzle, as ids come from the parameters: a size asked without a level gets its
        default level written out."""
        if "difficulty" not in self.model_fields_set:
            self.difficulty = DEFAULT_LEVEL[self.size]
        allowed = LEVELS_BY_SIZE[self.size]
        if self.difficulty not in allowed:
            why = "singles finish every 4×4 puzzle" if self.size == 4 else \
                "a 6×6 needing exactly the medium techniques is too rare to find on request (about 1 in 1,000)"
            raise ValueError(f"difficulty {self.difficulty!r} is not made at size {self.size}: {why}; size "
                             f"{self.size} offers {', '.join(allowed)}, size 9 and 16 every level")
        return self


def partner(i: int, n: int, symmetry: Symmetry) -> int:
    """The cell that must be given together with cell ``i`` (itself without symmetry, or the centre)."""
    return n * n - 1 - i if symmetry == "rotational" else i


@cache
def orbits(n: int, symmetry: Symmetry) -> tuple[tuple[int, ...], ...]:
    """The groups of cells given or left out together, each once."""
    return tuple(tuple(sorted({i, partner(i, n, symmetry)})) for i in range(n * n) if i <= partner(i, n, symmetry))


def random_grid(n: int, rng: random.Random, deadline: Deadline) -> Flat:
    """A random complete grid: the exact search with every cell's digits in a random order (drawn by numpy
    from a seed the pipeline's generator gives, so it stays reproducible)."""
    shuffle = np.random.default_rng(rng.getrandbits(64))
    while True:
        order = (np.argsort(shuffle.random((n * n, n)), axis=1) + 1).astype(np.int32)
        search = engine.Search(n, [0] * (n * n), 1, 1, order).run(deadline, max_nodes=FILL_BUDGET)
        if search.count:
            return search.found()[0]


def is_unique(n: int, givens: Flat, deadline: Deadline, max_nodes: int | None = None) -> bool:
    """Proven unique; False also when the search could not decide within ``max_nodes``."""
    search = engine.Search(n, givens, 2, 0).run(deadline, max_nodes)
    return search.finished and search.count == 1


class SudokuSteps:
    """The pipeline's steps for one size and symmetry; puzzles and solutions are flat digit lists."""

    def __init__(self, n: int, symmetry: Symmetry, swapped: bool = False):
        self.n, self.symmetry, self.swapped = n, symmetry, swapped
        self.orbits = orbits(n, symmetry)

    def random_solution(self, rng: random.Random) -> Flat:
        return random_grid(self.n, rng, Deadline.never())

    def clues(self, solution: Flat, rng: random.Random) -> Flat:
        givens = [0] * (self.n * self.n)
        share = SWAPPED_START_SHARE if self.swapped else START_SHARE[self.n]
        for orbit in self.orbits:
            if rng.random() < share:
                for i in orbit:
                    givens[i] = solution[i]
        return givens

    def other_solution(self, puzzle: Flat, solution: Flat, deadline: Deadline) -> Flat | None:
        search = engine.Search(self.n, puzzle, 2, 2).run(deadline)
        return next((found for found in search.found() if found != solution), None)

    def repair(self, puzzle: Flat, solution: Flat, other: Flat, rng: random.Random) -> Flat:
        differ = [i for i, (a, b) in enumerate(zip(solution, other, strict=True)) if a != b]
        cell = rng.choice(differ)
        repaired = puzzle[:]
        for i in {cell, partner(cell, self.n, self.symmetry)}:
            repaired[i] = solution[i]
        return repaired

    def polish(self, puzzle: Flat, solution: Flat, rng: random.Random, deadline: Deadline) -> Flat:
        """Take out every given (pair) the puzzle stays unique without, in random order. A draw to be
        ``swapped`` that singles finish is left as it is: ``swap_for_level`` takes out what it can on its way."""
        if self.swapped and singles_finish(self.n, puzzle):
            return puzzle
        return remove_while(puzzle, self.n, self.symmetry, rng,
                            lambda givens: is_unique(self.n, givens, deadline, POLISH_NODES))


def without(givens: Flat, orbit: tuple[int, ...]) -> Flat:
    trial = givens[:]
    for i in orbit:
        trial[i] = 0
    return trial


def with_orbit(givens: Flat, orbit: tuple[int, ...], solution: Flat) -> Flat:
    """``givens`` with the orbit's cells given, as ``solution`` has them."""
    trial = givens[:]
    for i in orbit:
        trial[i] = solution[i]
    return trial


def remove_while(puzzle: Flat, n: int, symmetry: Symmetry, rng: random.Random, keeps: Callable[[Flat], bool]) -> Flat:
    """Each given orbit, in random order, is left out when ``keeps(givens without it)`` holds. One pass
    suffices: a given needed with more givens present is needed with fewer."""
    givens = puzzle[:]
    present = [orbit for orbit in orbits(n, symmetry) if givens[orbit[0]]]
    rng.shuffle(present)
    for orbit in present:
        trial = without(givens, orbit)
        if keeps(trial):
            givens = trial
    return givens


@cache
def _no_crossings(n: int) -> np.ndarray:
    return np.zeros((0, 3, n), dtype=np.int32)


def singles_finish(n: int, givens: Flat) -> bool:
    """Whether singles alone (the easy level) finish these givens: the search's own propagation reaches the
    same fixpoint in microseconds, cheap enough to ask of every given a polish might take out."""
    g = engine.geometry(n)
    return engine.singles_open(g.given_masks[np.asarray(givens, dtype=np.int32)], g.units, g.peers, g.unit_bits,
                               _no_crossings(n), (1 << n) - 1) == 0


def finished_by(n: int, givens: Flat, level: int, deadline: Deadline) -> bool:
    """Whether the techniques up to level index ``level`` finish these givens; singles alone (easy) is the
    search's own propagation (``singles_finish``)."""
    return singles_finish(n, givens) if level == 0 else human.finishes(n, givens, level, deadline)


def finishes_at(n: int, givens: Flat, level: int, deadline: Deadline) -> bool:
    """``finished_by``, asked only of unique givens above level 0 (singles prove uniqueness themselves): a
    second solution (the search, microseconds) answers no first."""
    return (level == 0 or is_unique(n, givens, deadline)) and finished_by(n, givens, level, deadline)


def polish_at_level(puzzle: Flat, solution: Flat, n: int, symmetry: Symmetry, rng: random.Random, level: int,
                    deadline: Deadline) -> Flat:
    """``remove_while`` keeping what ``level`` finishes (the same givens, in the same order), for a puzzle
    that is nearly minimal already: which givens uniqueness needs is asked of all at once (a given needed
    now stays needed as others go), so the search runs once per given taken out and the techniques only
    where uniqueness holds."""
    givens = puzzle[:]
    present = [orbit for orbit in orbits(n, symmetry) if givens[orbit[0]]]
    rng.shuffle(present)
    g = engine.geometry(n)
    alone = np.empty(len(present), dtype=np.int32)
    engine.unique_without(np.asarray(givens, dtype=np.int32), np.asarray(solution, dtype=np.int8),
                          np.array([orbit[0] for orbit in present]), np.array([orbit[-1] for orbit in present]),
                          g.given_masks, engine.in_order(n), g.units, g.peers, g.unit_bits, g.crossings, g.popcount,
                          (1 << n) - 1, POLISH_NODES, alone)
    changed = False
    for orbit, unique in zip(present, alone.tolist(), strict=True):
        if unique == 0:
            continue
        trial = without(givens, orbit)
        if (changed or unique < 0) and not is_unique(n, trial, deadline):
            continue
        if human.finishes(n, trial, level, deadline):
            givens, changed = trial, True
    return givens


@cache
def orbit_ends(n: int, symmetry: Symmetry) -> tuple[np.ndarray, np.ndarray]:
    """Each orbit's first and last cell (the same cell for an orbit of one), for numpy to test orbits at once."""
    return (np.array([orbit[0] for orbit in orbits(n, symmetry)]), np.array([orbit[-1] for orbit in orbits(n, symmetry)]))


def swap_for_level(puzzle: Flat, solution: Flat, n: int, symmetry: Symmetry, rng: random.Random, level: int,
                   deadline: Deadline) -> Flat | None:
    """Unique givens, fewer or swapped from ``puzzle`` (which singles finish), that singles do not finish and
    ``level`` does; None if none turns up.

    A puzzle singles finish stays so as givens go while it stays unique, so removals alone rarely make it
    harder. Each given (orbit) is taken out in turn, in random order: if singles still finish the puzzle, it
    stays out (the polish, on the way); if it stays unique, that alone may be the answer; if not, another
    given is put in that rules out every other solution the removal let in. Those solutions are all listed
    (a removal letting in more than ``SWAP_SOLUTIONS``, needing more than ``SWAP_NODES`` search nodes, or
    after which singles leave fewer than ``SWAP_OPEN`` cells open is passed over), so each swap is known
    unique without another search. The whole loop is one compiled call (``kernel.swap_toward_level``),
    bounded by those limits, so the deadline is asked once before it."""
    first, last = orbit_ends(n, symmetry)
    order = [k for k, orbit in enumerate(orbits(n, symmetry)) if puzzle[orbit[0]]]
    rng.shuffle(order)
    deadline.check()
    g = engine.geometry(n)
    givens = np.array(puzzle, dtype=np.int32)
    swapped = kernel.swap_toward_level(givens, np.array(order, dtype=np.int64), np.asarray(solution, dtype=np.int8),
                                       first, last, g.given_masks, engine.in_order(n), g.unit_bits, g.crossings,
                                       _no_crossings(n), SWAP_OPEN, SWAP_SOLUTIONS, SWAP_NODES, level,
                                       *human.path_arguments(n))
    return givens.tolist() if swapped else None


def generate_unique(params: SudokuParams, seed: int, deadline: Deadline, swapped: bool = False) -> Generated:
    """A unique puzzle whose givens are minimal (for uniqueness), of any difficulty; ``swapped``: not
    polished where singles finish it (see ``SudokuSteps.polish``)."""
    n, symmetry = params.size, params.symmetry
    result = generate(SudokuSteps(n, symmetry, swapped), seed, deadline, max_rounds=n * n, max_restarts=5)
    result.puzzle = rules.SudokuPuzzle(size=n, givens=rules.square(result.puzzle, n))
    result.solution = rules.SudokuAnswer(digits=rules.square(result.solution, n))
    return result


def generate_puzzle(params: SudokuParams, seed: int, deadline: Deadline) -> Generated:
    """A unique puzzle of the asked level: minimal draws, each moved toward the level (``TowardLevel``)."""
    toward = TowardLevel(params)
    swapped = toward.target in SWAPPED.get(params.size, ())
    return generate_at_level(lambda draw, limit: generate_unique(params, draw, limit, swapped), toward.grade,
                             params.difficulty, seed, deadline, adjust=toward)


def solvable_at(puzzle: rules.SudokuPuzzle, level: int, deadline: Deadline) -> bool:
    """``finished_by`` for a puzzle."""
    return finished_by(puzzle.size, rules.flat(puzzle.givens), level, deadline)


class TowardLevel:
    """Grades a draw with the target level's techniques only, and moves one that is too hard toward the level.

    Too hard: where the target level's techniques get stuck, a few undecided cells (with their
    partners) are tried as givens and the one after which the level decides the most cells is kept.
    Once the level finishes the puzzle, the givens it does not need are taken out again (in random
    order, each kept out if the level still finishes), so the clues are minimal for the level. Too easy,
    or too hard at `expert`: None, and the pipeline draws again (at `expert` the clues stay minimal
    for uniqueness)."""

    TRIED = 6  # cells tried per added given

    def __init__(self, params: SudokuParams):
        self.n, self.symmetry = params.size, params.symmetry
        self.target = human.LEVELS.index(params.difficulty)
        self.stuck: human.Candidates | None = None  # where the target level stopped on the last graded draw

    def grade(self, puzzle: rules.SudokuPuzzle, deadline: Deadline) -> Grade:
        if self.target > 0 and solvable_at(puzzle, 0, deadline):
            return Grade(human.LEVELS[0], 0.0, 0, None)  # too easy, told without the slower techniques
        path = human.outline(human.board_of(puzzle, explain=False), upto=self.target, deadline=deadline)
        self.stuck = None if path.state.solved else path.state
        if path.state.solved:
            return path.grade()
        return Grade(None, 0.0, len(path.steps), None)  # above the target: the generator only needs to know that

    def minimal(self, givens: Flat, solution: Flat, rng: random.Random, deadline: Deadline) -> Flat:
        """The givens the target level does not need taken out (it finishes ``givens``, solved by ``solution``)."""
        if self.target in SWAPPED.get(self.n, ()):
            return polish_at_level(givens, solution, self.n, self.symmetry, rng, self.target, deadline)
        return remove_while(givens, self.n, self.symmetry, rng, lambda t: finishes_at(self.n, t, self.target, deadline))

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        puzzle, solution = generated.puzzle, rules.flat(generated.solution.digits)
        givens, stuck = rules.flat(puzzle.givens), self.stuck
        if graded.level == human.LEVELS[0] and self.target in SWAPPED.get(self.n, ()):
            swapped = swap_for_level(givens, solution, self.n, self.symmetry, rng, self.target, deadline)
            if swapped is None:
                return None
            return self._moved(generated, self.minimal(swapped, solution, rng, deadline))
        if graded.level is not None or stuck is None or self.target == len(human.LEVELS) - 1:
            return None
        open_orbits = [orbit for orbit in orbits(self.n, self.symmetry) if not stuck.digits[orbit[0]]]
        model = human.board_of(puzzle, explain=False)
        best: tuple[tuple[bool, int], tuple[int, ...], bool] | None = None
        for orbit in rng.sample(open_orbits, min(self.TRIED, len(open_orbits))):
            deadline.check()
            state = stuck.copy()
            for i in orbit:
                state.place(i, solution[i])
            after = human.outline(model, upto=self.target, state=state, deadline=deadline).state
            # best: the level finishes it and the level below does not; else the most cells decided
            exact = after.solved and (self.target == 0 or
                                      not finished_by(self.n, with_orbit(givens, orbit, solution), self.target - 1,
                                                      deadline))
            rank = (exact, -after.undecided)
            if best is None or rank > best[0]:
                best = (rank, orbit, after.solved)
        assert best is not None
        givens = with_orbit(givens, best[1], solution)
        if best[2]:  # the level finishes it now: drop what it does not need
            givens = self.minimal(givens, solution, rng, deadline)
        return self._moved(generated, givens)

    def _moved(self, generated: Generated, givens: Flat) -> Generated:
        generated.puzzle = rules.SudokuPuzzle(size=self.n, givens=rules.square(givens, self.n))
        return generated


def warm_up() -> None:
    """Load the compiled search, solution path and swap (numba's cache) once per worker, outside any request."""
    engine.warm_up()
    human.warm_up()
    with compile_lock(__name__):
        grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
        swap_for_level(grid, grid, 4, "rotational", random.Random(0), 1, Deadline.never())


PUZZLE_TYPE = PuzzleType(
    name="sudoku",
    id_prefix="sud",
    summary="Fill the grid with digits so every row, column and box holds each digit once.",
    params_model=SudokuParams,
    puzzle_model=rules.SudokuPuzzle,
    answer_model=rules.SudokuAnswer,
    generate=generate_puzzle,
    check=rules.check,
    solve=rules.solve,
    render=picture.render,
    parse_url=puzzlink.parse_sudoku_url,
    to_url=puzzlink.sudoku_url,
    backends=rules.BACKENDS,
    warm_up=warm_up,
    difficulty=human.DIFFICULTY,
    play_mode="digits",
)
