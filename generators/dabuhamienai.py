"""Dabuhamienai generation: the three pipeline steps and the type's registration.

Solution: a maximal random shading (no more cell can be shaded without breaking rules 1–2) over
a random Latin square, so every unshaded run is duplicate-free by construction. Clues: each shaded
cell gets a *forcing* number, one that sits in both a row run and a column run it touches, so
unshading it makes a duplicate even if a neighbour swaps shading with it (a number from one
direction only lets repairs oscillate between neighbour swaps). Where the square offers none, a
white neighbour's number is retouched to make one (white numbers only need to be duplicate-free
within the intended runs). Repair: cells shaded in the intended solution but unshaded in the
other get a forcing number with respect to the other solution's runs, unless that would bring an
earlier other solution back. Maximality guarantees such a cell exists: another valid shading is
no superset.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.pipeline import Generated, generate, generate_at_level
from generators.shading import random_maximal_shading
from generators.spec import PuzzleType
from solvers.common import Cell, Deadline
from solvers.dabuhamienai import picture, rules
from solvers.dabuhamienai import techniques as human
from solvers.sat import make_backend
from solvers.techniques.human import Grade

Grid = list[list[int]]
MIN_HARD_SIZE = 6  # below it, puzzles that need a long look-ahead are too rare to find on request


class DabuhamienaiParams(BaseModel):
    size: int = Field(8, ge=4, le=rules.MAX_SIZE, description="Grid size N (N×N).")
    difficulty: Literal["easy", "medium", "hard"] | None = Field(
        human.DIFFICULTY.default, description="How far ahead a person must look (see the type's `difficulties`); "
                                              f"every size has every level, but `hard` needs size {MIN_HARD_SIZE} "
                                              "or more.")

    @model_validator(mode="after")
    def _level_fits_size(self) -> DabuhamienaiParams:
        if self.difficulty == "hard" and self.size < MIN_HARD_SIZE:
            raise ValueError(f"difficulty hard needs size {MIN_HARD_SIZE} or more (got {self.size}): smaller grids "
                             f"leave no long look-ahead to need; easy and medium fit every size")
        return self


def random_latin_square(n: int, rng: random.Random) -> Grid:
    rows, cols, symbols = list(range(n)), list(range(n)), list(range(1, n + 1))
    for seq in (rows, cols, symbols):
        rng.shuffle(seq)
    return [[symbols[(rows[r] + cols[c]) % n] for c in range(n)] for r in range(n)]


def seen_in_runs(numbers: Grid, shaded: Grid, cell: Cell, fixed: Grid | None = None) -> tuple[dict[int, int], dict[int, int]]:
    """Per axis (row, column): number -> distance of its nearest occurrence in ``cell``'s runs
    under ``shaded``. With ``fixed`` given, only cells whose number can no longer change count."""
    n = len(numbers)
    nearest: tuple[dict[int, int], dict[int, int]] = ({}, {})
    for axis, directions in enumerate((((0, -1), (0, 1)), ((-1, 0), (1, 0)))):
        for dr, dc in directions:
            r, c, distance = cell[0] + dr, cell[1] + dc, 1
            while 0 <= r < n and 0 <= c < n and not shaded[r][c]:
                number = numbers[r][c]
                if (fixed is None or fixed[r][c]) and distance < nearest[axis].get(number, n + 1):
                    nearest[axis][number] = distance
                r, c, distance = r + dr, c + dc, distance + 1
    return nearest


def forcing_candidates(nearest: tuple[dict[int, int], dict[int, int]], rng: random.Random) -> list[int]:
    """Numbers that would repeat in the cell's runs, best first: seen both along the row and the
    column (nearest first), which breaks more alternative shadings at once, then one axis only.
    Ties are broken at random."""
    row, column = nearest
    both = {v: row[v] + column[v] for v in row if v in column}
    one = {v: d + 2 * len(row) + 2 * len(column) for v, d in (*row.items(), *column.items()) if v not in both}
    scores = {**one, **both}
    return sorted(scores, key=lambda v: (scores[v], rng.random()))


def stretch(shaded: Grid, cell: Cell, dr: int, dc: int) -> list[Cell]:
    """The white cells from ``cell`` (exclusive) in one direction up to the first shaded cell."""
    n, out = len(shaded), []
    r, c = cell[0] + dr, cell[1] + dc
    while 0 <= r < n and 0 <= c < n and not shaded[r][c]:
        out.append((r, c))
        r, c = r + dr, c + dc
    return out


def run_through(shaded: Grid, cell: Cell) -> list[Cell]:
    """The cells of the row run and the column run containing a white ``cell`` (itself excluded)."""
    return [other for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)) for other in stretch(shaded, cell, dr, dc)]


def give_forcing_number(numbers: Grid, shaded: Grid, cell: Cell, locked: set[Cell], rng: random.Random) -> int:
    """A number for shaded ``cell`` seen in both its row runs and its column runs.

    Only such a number rules out every way of moving the shading from ``cell`` to a neighbour
    (each move keeps one whole axis of runs around it); with a number from one axis only, two
    moves may need different numbers and the attempt is doomed. When the white numbers offer
    none, one white neighbour takes the number of a white cell on the other axis, as long as no
    run of the intended solution gets a duplicate (white numbers need not form a Latin square).
    The cells a choice relies on are locked so that later retouches keep it.
    """
    row = [x for d in ((0, -1), (0, 1)) for x in stretch(shaded, cell, *d)]
    column = [x for d in ((-1, 0), (1, 0)) for x in stretch(shaded, cell, *d)]
    candidates = forcing_candidates(seen_in_runs(numbers, shaded, cell), rng)
    in_column = {numbers[r][c]: (r, c) for r, c in column}
    for a in sorted(row, key=lambda x: abs(x[1] - cell[1])):
        v = numbers[a[0]][a[1]]
        if v in in_column:
            locked.update((a, in_column[v]))
            return v
    distance = lambda x: abs(x[0] - cell[0]) + abs(x[1] - cell[1])  # noqa: E731
    for a, b in sorted(((a, b) for a in row for b in column), key=lambda p: distance(p[0]) + distance(p[1])):
        for source, target in ((a, b), (b, a)):
            v = numbers[source[0]][source[1]]
            if target in locked or any(numbers[r][c] == v for r, c in run_through(shaded, target)):
                continue
            numbers[target[0]][target[1]] = v
            locked.update((a, b))
            return v
    return candidates[0]


class RuledOut:
    """Every other solution met in an attempt, and how many clue values currently rule it out.

    A witness of an other solution is (cell, number): the cell is white there and ``number`` sits
    in one of its runs on a cell whose number is final, so giving the cell that number makes a
    duplicate. Counting the witnesses each clue satisfies tells a repair, before it changes a
    number, whether an earlier other solution would come back; without this, repairs undo each
    other and the same shadings return round after round.
    """

    def __init__(self) -> None:
        self.live: list[int] = []  # per other solution: witnesses the current clues satisfy
        self.by_cell: dict[Cell, list[tuple[int, set[int]]]] = {}

    def add(self, witnesses: dict[Cell, set[int]]) -> None:
        """A new other solution, valid under the current clues (so none of its witnesses holds)."""
        index = len(self.live)
        self.live.append(0)
        for cell, values in witnesses.items():
            self.by_cell.setdefault(cell, []).append((index, values))

    def revived(self, cell: Cell, old: int, new: int) -> int:
        """How many ruled-out solutions would become valid again if ``cell`` went from old to new."""
        return sum(
            1 for index, values in self.by_cell.get(cell, ())
            if self.live[index] == 1 and old in values and new not in values
        )

    def change(self, cell: Cell, old: int, new: int) -> None:
        for index, values in self.by_cell.get(cell, ()):
            self.live[index] += (new in values) - (old in values)


class DabuhamienaiSteps:
    def __init__(self, size: int, backend: str | None = None):
        self.size = size
        self.backend = backend
        self._model: rules.RepairableModel | None = None  # one incremental solver per attempt
        self._model_for: Grid | None = None
        self._ruled_out = RuledOut()

    def random_solution(self, rng: random.Random) -> tuple[Grid, Grid]:
        """(shading, Latin square underneath): the starting white numbers; ``clues`` may retouch a few."""
        return random_maximal_shading(self.size, rng), random_latin_square(self.size, rng)

    def clues(self, solution: tuple[Grid, Grid], rng: random.Random) -> Grid:
        shaded, latin = solution
        numbers = [row[:] for row in latin]
        locked: set[Cell] = set()  # white cells some shaded cell's forcing number relies on
        for r in range(self.size):
            for c in range(self.size):
                if shaded[r][c]:
                    numbers[r][c] = give_forcing_number(numbers, shaded, (r, c), locked, rng)
        return numbers

    def other_solution(self, numbers: Grid, solution: tuple[Grid, Grid], deadline: Deadline) -> Grid | None:
        shaded = solution[0]
        model = self._model
        if model is None or self._model_for is not shaded:
            if model is not None:
                model.backend.close()
            # Unshaded numbers are final (they are the solution's), so only shaded cells can change.
            changeable = {(r, c) for r in range(self.size) for c in range(self.size) if shaded[r][c]}
            model = self._model = rules.RepairableModel(make_backend(self.backend or rules.DEFAULT_BACKEND), numbers, changeable)
            model.exclude(shaded)
            self._model_for = shaded
            self._ruled_out = RuledOut()
        for cell in model.guard:
            if model.numbers[cell[0]][cell[1]] != numbers[cell[0]][cell[1]]:
                model.set_number(cell, numbers[cell[0]][cell[1]])
        return model.other_solution(deadline)

    def still_unique(self, numbers: Grid, deadline: Deadline) -> bool:
        """Whether the last attempt's shading is still the only one with these clues (whose numbers differ
        from its own only on shaded cells): the incremental solver of the attempt answers."""
        assert self._model_for is not None
        return self.other_solution(numbers, (self._model_for, []), deadline) is None

    def repair(self, numbers: Grid, solution: tuple[Grid, Grid], other: Grid, rng: random.Random) -> Grid | None:
        """Give cells shaded in the intended solution but white in ``other`` a number repeated in
        their runs there, skipping any number that would bring back an earlier other solution.
        If no cell can be changed safely, the attempt is in a loop (two other solutions need
        different numbers in the same cells), so give up and let the pipeline restart: with
        the both-axis clues restarts are rare, and a fresh attempt is cheaper than oscillating."""
        shaded = solution[0]
        fixed = [[1 - s for s in row] for row in shaded]
        cells = [(r, c) for r in range(self.size) for c in range(self.size) if shaded[r][c] and not other[r][c]]
        options = {cell: forcing_candidates(seen_in_runs(numbers, other, cell, fixed), rng) for cell in cells}
        ruled_out = self._ruled_out
        ruled_out.add({cell: set(values) for cell, values in options.items()})
        repaired = [row[:] for row in numbers]
        changed = False
        for cell in cells:
            old = repaired[cell[0]][cell[1]]
            for number in options[cell]:
                harm = ruled_out.revived(cell, old, number)
                if harm == 0:
                    self._set(repaired, cell, number)
                    changed = True
                    break
        return repaired if changed else None

    def _set(self, numbers: Grid, cell: Cell, number: int) -> None:
        self._ruled_out.change(cell, numbers[cell[0]][cell[1]], number)
        numbers[cell[0]][cell[1]] = number


def generate_unique(size: int, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    """A unique puzzle of any difficulty."""
    return unique_from(DabuhamienaiSteps(size, backend), seed, deadline)


def unique_from(steps: DabuhamienaiSteps, seed: int, deadline: Deadline) -> Generated:
    """``generate_unique`` with the caller's steps, whose solver can then check changes to the clues."""
    result = generate(steps, seed, deadline, max_rounds=4 * steps.size, max_restarts=100)
    shaded, _ = result.solution
    result.puzzle = rules.DabuhamienaiPuzzle(size=steps.size, numbers=result.puzzle)
    result.solution = rules.DabuhamienaiAnswer(shaded=shaded)
    return result


def generate_puzzle(params: DabuhamienaiParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    """A unique puzzle of the asked level: draws of unique puzzles, each moved toward the level by
    changing shaded cells' numbers (which no run of the solution sees, so the solution stays valid)."""
    if params.difficulty is None:
        return generate_unique(params.size, seed, deadline, backend)
    toward = TowardLevel(params, backend)
    generated = generate_at_level(toward.draw, toward.grade, params.difficulty, seed, deadline, adjust=toward)
    if generated.stats.adjustments:
        generated.stats.solver_calls += 1
        toward.prove(generated, deadline)
    return generated


class TowardLevel:
    """One change to a shaded cell's number that keeps the puzzle unique and moves it toward a level.

    Too hard: where the target level's techniques get stuck, a shaded cell beside a cell already known
    unshaded takes that cell's number, so the pair rule shades it at once; the change must let the
    target level decide more than before. Too easy: a shaded cell that an easier look-ahead splits a
    pair on takes another number seen along both its row and its column (so it still forces) but on
    none of its neighbours; the level below must then no longer finish the puzzle.

    A change is kept when the techniques still finish the puzzle (up to the target level, when making
    it harder): they are sound, so that proves it unique, and no exact solver runs per change; the
    puzzle returned is checked once by the draw's own incremental SAT model (``prove``). Grading goes up
    to the target level and follows the look-aheads only: a puzzle the target level cannot finish counts
    as beyond it, whatever would finish it."""

    def __init__(self, params: DabuhamienaiParams, backend: str | None):
        assert params.difficulty is not None
        self.size, self.backend = params.size, backend
        self.target = human.SOLVER.level_names.index(params.difficulty)
        self.steps: DabuhamienaiSteps | None = None  # the last draw's pipeline, with its solver
        self.last: tuple[Grid, human.Outline] | None = None  # the last puzzle graded and its solution path

    def draw(self, seed: int, deadline: Deadline) -> Generated:
        self.steps = DabuhamienaiSteps(self.size, self.backend)
        return unique_from(self.steps, seed, deadline)

    def prove(self, generated: Generated, deadline: Deadline) -> None:
        """The exact solver's check of what the techniques proved: no other shading fits the clues."""
        assert self.steps is not None
        if not self.steps.still_unique(generated.puzzle.numbers, deadline):
            raise AssertionError("the techniques finished a puzzle that has another solution")

    def path(self, puzzle: rules.DabuhamienaiPuzzle, deadline: Deadline) -> human.Outline:
        """The solution path with the target level's techniques: where it gets stuck, the puzzle is too hard
        for the level, and how much harder does not matter here."""
        if self.last is None or self.last[0] != puzzle.numbers:
            path = human.outline(human.board_of(puzzle), upto=self.target, deadline=deadline, long_chains=False)
            self.last = (puzzle.numbers, path)
        return self.last[1]

    def grade(self, puzzle: rules.DabuhamienaiPuzzle, deadline: Deadline) -> Grade:
        """The grade, exact when the target level finishes the puzzle (a path that never got stuck is the
        whole path); otherwise level None: beyond the target."""
        return self.path(puzzle, deadline).grade()

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        names = human.SOLVER.level_names
        current = len(names) if graded.level is None else names.index(graded.level)
        puzzle, shaded = generated.puzzle, generated.solution.shaded
        numbers = puzzle.numbers
        n = puzzle.size
        path = self.path(puzzle, deadline)
        easier = current > self.target
        if easier:
            stuck = path.stuck_at(self.target)
            changes = [((r, c), numbers[w[0]][w[1]]) for r in range(n) for c in range(n)
                       if shaded[r][c] and stuck[(r, c)] is None
                       for w in rules.neighbours(r, c, n) if stuck[w] == human.WHITE]
            rng.shuffle(changes)
            # Opening every stuck place at once saves a round of grading per place; the easiest level
            # cannot overshoot, a harder one takes a few at a time.
            batch, reach = len(changes) if self.target == 0 else 3, path.reach(self.target)

            def moves(tried: human.Outline) -> bool:  # or the next round is stuck at the same place
                return tried.reach(self.target) > reach
        else:
            changes, batch = self._harder(generated, path, rng), 1

            def moves(tried: human.Outline) -> bool:
                return tried.reach(self.target - 1) < n * n
        one_per_cell = list(dict(changes).items())
        tries = [one_per_cell[:size] for size in (batch, batch // 4) if size > 1]
        tries += [[change] for change in changes[:12]]
        for group in tries:
            deadline.check()
            changed = [row[:] for row in numbers]
            for (r, c), number in group:
                changed[r][c] = number
            candidate = rules.DabuhamienaiPuzzle.model_construct(size=n, numbers=changed)  # valid: numbers from 1..n
            # A path that never got stuck is the whole path, whatever the level limit: the puzzle is unique.
            # One the target level cannot finish is too hard or not unique; toward an easier level it may
            # still be progress, so the harder levels go on where the target level stopped.
            board = human.board_of(candidate)
            tried = human.outline(board, upto=self.target, deadline=deadline, long_chains=False)
            if easier and not tried.solved and moves(tried):
                tried = human.outline(board, deadline=deadline, long_chains=False, after=tried)
            if tried.solved and moves(tried):
                self.last = (changed, tried)
                generated.puzzle = candidate
                return generated
        return None

    def _harder(self, generated: Generated, path: human.Outline, rng: random.Random) -> list[tuple[Cell, int]]:
        """New numbers for shaded cells, none a neighbour's, most promising first. A number seen along both
        the cell's axes still rules out moving the shading to a neighbour, so the puzzle likely stays
        unique: one such number per cell comes first (cells the path leans on below the target level,
        earliest first, then the other shaded cells), then their other such numbers, then any number for
        a leaned-on cell that has none."""
        puzzle, shaded = generated.puzzle, generated.solution.shaded
        numbers, n = puzzle.numbers, puzzle.size
        leaned_on = dict.fromkeys(cell for group in path.look_ahead_groups(self.target) for cell in group
                                  if shaded[cell[0]][cell[1]])
        others = [(r, c) for r in range(n) for c in range(n) if shaded[r][c] and (r, c) not in leaned_on]
        rng.shuffle(others)
        first, second, last = [], [], []
        for r, c in [*leaned_on, *others]:
            around = {numbers[rr][cc] for rr, cc in rules.neighbours(r, c, n)}
            row, column = seen_in_runs(numbers, shaded, (r, c))
            forcing = sorted(v for v in row if v in column and v not in around and v != numbers[r][c])
            if forcing:
                pick = rng.choice(forcing)
                first.append(((r, c), pick))
                second += [((r, c), v) for v in forcing if v != pick]
            elif (r, c) in leaned_on:
                options = [v for v in range(1, n + 1) if v not in around and v != numbers[r][c]]
                if options:
                    last.append(((r, c), rng.choice(options)))
        return first + second + last


PUZZLE_TYPE = PuzzleType(
    name="dabuhamienai",
    id_prefix="dab",
    summary="Shade cells so no two shaded touch, unshaded cells stay connected, and no number repeats in an unshaded run.",
    params_model=DabuhamienaiParams,
    puzzle_model=rules.DabuhamienaiPuzzle,
    answer_model=rules.DabuhamienaiAnswer,
    generate=generate_puzzle,
    check=rules.check,
    solve=rules.solve,
    render=picture.render,
    backends=rules.BACKENDS,
    difficulty=human.DIFFICULTY,
    warm_up=human.warm_up,
)
