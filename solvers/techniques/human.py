"""Human-style solving, shared by every type: techniques in levels, the solution path, grades, hints.

Simon Tatham's model (``singles.c``: ``DIFFLIST``, ``solve_specific``, ``new_game_is_good``). A
technique looks at a partial answer and finds steps a person could take: the cells it decides, the
cells that justify it, and a sentence saying why. The solver always applies the simplest technique
that makes progress, so its path is the one a person would follow. A puzzle's level is the level of
the hardest technique on that path: for sound techniques (every deduction holds in every solution)
whose conclusions only grow with what is decided, each level's stuck state is the same whatever the
order of its steps, so every easier level gets stuck short of the answer.

Grid types (Dabuhamienai, Battleship, Number Sums) share ``GridState`` and the two generic top
techniques, ``either_way`` and ``by_contradiction``; other types bring their own state class with
the same small interface (``copy``, ``apply``, ``solved``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from solvers.common import Cell, Deadline, InvalidInput

P = TypeVar("P")  # the puzzle
S = TypeVar("S", bound="State")

Decision = tuple[Cell, int]


def cell_name(cell: Cell) -> str:
    """A cell the way a player counts it: rows and columns from 1 (``r3c5``)."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def cells_named(cells: Iterable[Cell]) -> str:
    return ", ".join(cell_name(c) for c in cells)


@dataclass(frozen=True)
class Step:
    """One deduction: what it decides and why. For grid types ``decide`` holds ``((r, c), value)``."""

    technique: str
    message: str
    decide: tuple[Any, ...]
    because: tuple[Cell, ...] = ()
    effort: float = 1.0  # times the technique's weight in the score, e.g. how far a look-ahead went


class Contradiction(Exception):
    """The partial answer breaks a rule: no solution extends it."""

    def __init__(self, message: str, cells: Iterable[Cell] = ()):
        super().__init__(message)
        self.message = message
        self.cells = tuple(cells)
        self.rounds = 0  # set by ``Trial.follow``: how long the chain was that found it


class State(Protocol):
    def copy(self: S) -> S: ...

    def apply(self, step: Step) -> None: ...

    @property
    def solved(self) -> bool: ...


class GridState:
    """A partial answer on a grid: each cell 1, 0 or None (undecided), kept flat for cheap copies."""

    __slots__ = ("rows", "cols", "values", "undecided")

    def __init__(self, rows: int, cols: int, values: list[int | None] | None = None, undecided: int | None = None):
        self.rows, self.cols = rows, cols
        self.values: list[int | None] = values if values is not None else [None] * (rows * cols)
        self.undecided = undecided if undecided is not None else self.values.count(None)

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[int | None]]) -> GridState:
        return cls(len(grid), len(grid[0]) if grid else 0, [v for row in grid for v in row])

    def grid(self) -> list[list[int | None]]:
        return [self.values[r * self.cols:(r + 1) * self.cols] for r in range(self.rows)]

    def copy(self) -> GridState:
        return GridState(self.rows, self.cols, self.values[:], self.undecided)  # no recount: look-aheads copy a lot

    def __getitem__(self, cell: Cell) -> int | None:
        return self.values[cell[0] * self.cols + cell[1]]

    def set(self, cell: Cell, value: int) -> None:
        i = cell[0] * self.cols + cell[1]
        current = self.values[i]
        if current is None:
            self.values[i] = value
            self.undecided -= 1
        elif current != value:
            raise Contradiction(f"{cell_name(cell)} would have to be both {current} and {value}", [cell])

    def apply(self, step: Step) -> None:
        for cell, value in step.decide:
            self.set(cell, value)

    @property
    def solved(self) -> bool:
        return self.undecided == 0

    def cells(self) -> Iterable[Cell]:
        return ((r, c) for r in range(self.rows) for c in range(self.cols))


class Finder(Protocol[P, S]):
    def __call__(self, puzzle: P, state: S) -> list[Step]: ...


@dataclass(frozen=True)
class Technique(Generic[P, S]):
    """``find`` returns every step it sees in one look at the state (the solver applies them all before
    looking again: they are all valid in that state); a hint takes the first. It raises
    ``Contradiction`` if it notices a broken rule. ``near``, where given, finds the same steps looking
    only around the cells (flat indices) decided since its last look: look-aheads use it, as a person
    following an assumption looks where it changed something."""

    name: str
    description: str  # one line, for GET /types
    weight: float  # effort per use, summed over the path into the score (HoDoKu-style)
    find: Finder[P, S]
    near: Callable[[P, S, set[int]], list[Step]] | None = None


@dataclass(frozen=True)
class Level(Generic[P, S]):
    name: str
    techniques: tuple[Technique[P, S], ...]  # the ones this level adds to the easier levels'


@dataclass(frozen=True)
class Grade:
    level: str | None  # None: the techniques cannot finish it without guessing
    score: float
    steps: int
    hardest: str | None

    def as_json(self) -> dict[str, Any]:
        return {"level": self.level, "score": round(self.score, 2), "steps": self.steps, "hardest": self.hardest}


@dataclass
class Path(Generic[S]):
    """The solution path: the steps taken in order, the level index of each, and where it stopped."""

    state: S
    steps: list[Step] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Hint:
    technique: str
    message: str
    decide: list[dict[str, Any]] = field(default_factory=list)
    because: list[list[int]] = field(default_factory=list)
    mistakes: list[list[int]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"technique": self.technique, "message": self.message, "decide": self.decide,
                "because": self.because, "mistakes": self.mistakes}


@dataclass(frozen=True)
class HumanSolver(Generic[P, S]):
    """A type's techniques in levels, easiest first, and how to start from a puzzle."""

    levels: tuple[Level[P, S], ...]
    start: Callable[[P], S]

    @property
    def level_names(self) -> list[str]:
        return [level.name for level in self.levels]

    def techniques(self, upto: int | None = None) -> list[tuple[int, Technique[P, S]]]:
        last = len(self.levels) - 1 if upto is None else upto
        return [(i, t) for i, level in enumerate(self.levels[: last + 1]) for t in level.techniques]

    def describe(self) -> list[dict[str, Any]]:
        return [{"name": level.name,
                 "techniques": [{"name": t.name, "description": t.description} for t in level.techniques]}
                for level in self.levels]

    def next_steps(self, puzzle: P, state: S, upto: int | None = None) -> tuple[int, list[Step]] | None:
        """The steps of the simplest technique that makes progress, with its level index."""
        for index, technique in self.techniques(upto):
            found = technique.find(puzzle, state)
            if found:
                return index, found
        return None

    def run(self, puzzle: P, upto: int | None = None, state: S | None = None,
            deadline: Deadline | None = None) -> Path[S]:
        """Solve as far as the techniques up to level ``upto`` go. A puzzle with no solution raises
        Contradiction (a technique sees a broken rule)."""
        path: Path[S] = Path(state if state is not None else self.start(puzzle))
        deadline = deadline or Deadline.never()
        while not path.state.solved:
            deadline.check()
            found = self.next_steps(puzzle, path.state, upto)
            if found is None:
                break
            index, steps = found
            for step in steps:
                path.state.apply(step)
                path.steps.append(step)
                path.levels.append(index)
        if path.state.solved:  # the last steps may complete a grid that breaks a rule: the first level sees it
            for _, technique in self.techniques(0):
                technique.find(puzzle, path.state)
        return path

    def grade(self, puzzle: P, deadline: Deadline | None = None) -> Grade:
        return self.grade_path(self.run(puzzle, deadline=deadline))

    def grade_path(self, path: Path[S]) -> Grade:
        steps = [(level, step.technique, step.effort) for level, step in zip(path.levels, path.steps, strict=True)]
        return self.grade_steps(steps, path.state.solved)

    def grade_numbered(self, steps: Iterable[Sequence[float]], solved: bool) -> Grade:
        """The grade of a path given as (technique number, effort) per step, the techniques numbered in
        ``techniques()`` order: as a compiled kernel reports them."""
        numbered = self.techniques()
        return self.grade_steps([(numbered[t][0], numbered[t][1].name, effort) for t, effort in steps], solved)

    def grade_tallied(self, tallies: Iterable[tuple[int, int, float]], solved: bool) -> Grade:
        """The grade of a path given as (technique number, steps, their total effort) per technique, as a
        compiled kernel that keeps no list of steps tallies them: the same grade as each step given alone."""
        numbered = self.techniques()
        steps = [(numbered[t][0], numbered[t][1].name, effort) for t, count, effort in tallies if count]
        grade = self.grade_steps(steps, solved)
        return replace(grade, steps=sum(count for _, count, _ in tallies))

    def grade_steps(self, steps: Sequence[tuple[int, str, float]], solved: bool) -> Grade:
        """The grade of a path given as (level index, technique, effort) per step, for a type whose compiled
        solver finds the path without writing its steps."""
        weights = {t.name: t.weight for _, t in self.techniques()}
        score = sum(weights[technique] * effort for _, technique, effort in steps)
        hardest = max(steps, key=lambda step: (step[0], weights[step[1]]), default=None)
        level = self.levels[max(step[0] for step in steps)].name if solved and steps else None
        if solved and not steps:
            level = self.levels[0].name  # nothing to deduce: the clues give the answer away
        return Grade(level, score, len(steps), hardest[1] if hardest else None)


def grid_mistakes(state: GridState, solution: Sequence[Sequence[int]]) -> list[Cell]:
    return [(r, c) for r, c in state.cells() if state[(r, c)] is not None and state[(r, c)] != solution[r][c]]


def grid_hint(solver: HumanSolver[P, GridState], puzzle: P, state: GridState,
              solution: Sequence[Sequence[int]], value_names: dict[int, str]) -> Hint:
    """The next step a person can take from the player's ``state``, or the player's mistakes.

    Every technique is sound, so from a state that agrees with the (unique) solution, whatever it
    decides agrees with the solution too. Where no technique finds a step (a puzzle above every
    level) the hint reveals one cell, so hints always finish the puzzle."""
    mistakes = grid_mistakes(state, solution)
    if mistakes:
        message = (f"{len(mistakes)} cell(s) disagree with the solution: {cells_named(mistakes[:8])}"
                   + ("…" if len(mistakes) > 8 else "") + ". Undo them first.")
        return Hint("mistakes", message, mistakes=[[r, c] for r, c in mistakes])
    if state.solved:
        return Hint("solved", "Every cell is decided and right: the puzzle is solved.")
    found = solver.next_steps(puzzle, state)
    if found is not None:
        step = found[1][0]
        return Hint(step.technique, step.message,
                    decide=[{"cell": [r, c], "value": v} for (r, c), v in step.decide],
                    because=[[r, c] for r, c in step.because])
    cell = next(c for c in state.cells() if state[c] is None)
    value = solution[cell[0]][cell[1]]
    return Hint("reveal", f"No deduction finds the next step from here; in the solution {cell_name(cell)} is "
                          f"{value_names[value]}.", decide=[{"cell": list(cell), "value": value}])


class Trial:
    """Where an assumption leads with some techniques: the cells it decides and in which round (the
    assumption itself is round 0), or the broken rule and the round that found it. It is followed
    only as far as someone asked, and further on a later request."""

    def __init__(self, state: GridState, cell: Cell, value: int, techniques: int):
        self.state = state.copy()
        start = cell[0] * state.cols + cell[1]
        self.when = {start: 0}
        self.pending = [{start} for _ in range(techniques)]  # per technique: decided since its last look
        self.rounds = 0
        self.finished = False
        self.contradiction: Contradiction | None = None
        self.state.set(cell, value)

    def follow(self, puzzle: Any, techniques: Sequence[Technique[Any, GridState]], rounds: int) -> None:
        state, when, cols, pending = self.state, self.when, self.state.cols, self.pending
        while not self.finished and self.rounds < rounds:
            self.rounds += 1
            for k, technique in enumerate(techniques):
                try:
                    if technique.near is None:
                        found = technique.find(puzzle, state)
                    else:
                        found = technique.near(puzzle, state, pending[k])
                        pending[k] = set()
                    for step in found:
                        for (r, c), _ in step.decide:
                            i = r * cols + c
                            if i not in when:
                                when[i] = self.rounds
                                for changed in pending:
                                    changed.add(i)
                        state.apply(step)
                except Contradiction as exc:
                    exc.rounds = self.rounds
                    self.contradiction, self.finished = exc, True
                    return
                if found:
                    break
            else:
                self.finished = True

    def broken_within(self, rounds: int) -> Contradiction | None:
        c = self.contradiction
        return c if c is not None and c.rounds <= rounds else None

    def decided_within(self, rounds: int) -> dict[int, int]:
        values = self.state.values
        return {i: values[i] for i, r in self.when.items() if r <= rounds}  # type: ignore[misc]


class Trials:
    """Assumptions followed with one set of techniques, remembered while the state stays the same, so
    look-aheads of different lengths (easy and harder levels) and groups sharing a cell pay for each
    assumption once. Thread-local, as a worker grades one puzzle at a time."""

    def __init__(self, techniques: Sequence[Technique[Any, GridState]]):
        self.techniques = tuple(techniques)
        self._local = threading.local()

    def get(self, puzzle: Any, state: GridState, cell: Cell, value: int, rounds: int) -> Trial:
        local = self._local
        key = tuple(state.values)
        if getattr(local, "puzzle", None) is not puzzle or local.key != key:
            local.puzzle, local.key, local.found = puzzle, key, {}
        trial = local.found.get((cell, value))
        if trial is None:
            trial = local.found[(cell, value)] = Trial(state, cell, value, len(self.techniques))
        trial.follow(puzzle, self.techniques, rounds)
        return trial


def by_contradiction(name: str, description: str, weight: float, trials: Trials, value_names: dict[int, str],
                     max_rounds: int = 10_000,
                     candidates: Callable[[Any, GridState], Iterable[Cell]] | None = None) -> Technique[Any, GridState]:
    """Assume a cell's value and follow it with the ``trials``' techniques for at most ``max_rounds``
    rounds; if that breaks a rule, the cell has the other value. Cells are tried in ``candidates``
    order (default: undecided cells row by row), so a type can try the most promising ones first."""

    def find(puzzle: Any, state: GridState) -> list[Step]:
        cells = candidates(puzzle, state) if candidates else (c for c in state.cells() if state[c] is None)
        for cell in cells:
            for value in (1, 0):
                trial = trials.get(puzzle, state, cell, value, max_rounds)
                broken = trial.broken_within(max_rounds)
                if broken is not None:
                    return [contradiction_step(name, cell, value, broken, value_names)]
        return []

    return Technique(name, description, weight, find)


def contradiction_step(name: str, cell: Cell, value: int, broken: Contradiction, value_names: dict[int, str]) -> Step:
    """The step of ``by_contradiction`` (also for a type's own faster search): ``cell`` = ``value`` broke a rule."""
    message = f"If {cell_name(cell)} were {value_names[value]}: {broken.message}. So it is {value_names[1 - value]}."
    because = tuple(dict.fromkeys((cell, *broken.cells)))
    return Step(name, message, ((cell, 1 - value),), because, effort=broken.rounds)


def either_way(name: str, description: str, weight: float, trials: Trials,
               options: Callable[[Any, GridState], Iterable[tuple[str, Sequence[Cell]]]], value_names: dict[int, str],
               max_rounds: int = 10_000) -> Technique[Any, GridState]:
    """A group of cells of which one must be 1 (e.g. two equal numbers of which one must be shaded):
    follow each choice with the ``trials``' techniques for at most ``max_rounds`` rounds; what every
    possible choice decides alike is decided ("whichever 4 is shaded, r2c3 stays white"). ``options``
    yields (why, cells) groups."""

    def find(puzzle: Any, state: GridState) -> list[Step]:
        steps: list[Step] = []
        taken: set[int] = set()  # cells an earlier group of this look already decides
        cols = state.cols
        for why, group in options(puzzle, state):
            open_cells = [c for c in group if state[c] is None]
            followed = [trials.get(puzzle, state, cell, 1, max_rounds) for cell in open_cells]
            alive = [t for t in followed if t.broken_within(max_rounds) is None]
            if not alive or len(alive) == len(open_cells) == 1:
                continue  # no choice survives (left to contradiction) / a single choice (a simpler technique)
            reached = [t.decided_within(max_rounds) for t in alive]
            common = sorted(i for i, v in reached[0].items() if state.values[i] is None and i not in taken
                            and all(other.get(i) == v for other in reached[1:]))
            if common:
                taken.update(common)
                decided = tuple(((i // cols, i % cols), reached[0][i]) for i in common)
                dead = [(cell, broken) for cell, t in zip(open_cells, followed, strict=True)
                        if (broken := t.broken_within(max_rounds)) is not None]
                depth = max(max((t.when[i] for t in alive), default=1) for i in common)
                steps.append(either_way_step(name, why, group, decided, dead[:2], depth, value_names))
        return steps

    return Technique(name, description, weight, find)


def either_way_step(name: str, why: str, group: Sequence[Cell], decided: tuple[Decision, ...],
                    dead: Sequence[tuple[Cell, Contradiction]], depth: int, value_names: dict[int, str]) -> Step:
    """The step of ``either_way`` (also for a type's own faster look-ahead): what every surviving choice of
    ``group`` decides, quoting up to two choices that broke a rule."""
    what = ", ".join(f"{cell_name(c)} {value_names[v]}" for c, v in decided[:6])
    what += ", …" if len(decided) > 6 else ""
    if dead:
        ruled_out = "; ".join(f"with {cell_name(cell)} {value_names[1]}, {broken.message}" for cell, broken in dead[:2])
        message = f"{why}. But {ruled_out}. The other choice gives {what}."
    else:
        message = f"{why}; either way: {what}."
    return Step(name, message, decided, tuple(group), effort=depth)


@dataclass(frozen=True)
class Difficulty:
    """A type's difficulty levels, grading and hints: what the HTTP layer, the store and the generator
    use, whatever the type's techniques look like inside."""

    levels: list[dict[str, Any]]  # easiest first: {"name", "techniques": [{"name", "description"}]}
    default: str | None  # None: a request without a level gets any level, and its grade says which
    grade: Callable[[Any, Deadline], Grade]  # (puzzle model, deadline)
    hint: Callable[[Any, Any, Any, Deadline], Hint]  # (puzzle model, state model, solution answer model, deadline)
    state_model: type[BaseModel]  # the player's partial answer, as a hint request sends it

    @property
    def names(self) -> list[str]:
        return [level["name"] for level in self.levels]

    def read_state(self, state: BaseModel | None) -> BaseModel:
        """The player's state as ``hint`` takes it: none at all (omitted or null) is nothing decided yet,
        and so is a field sent as null: it takes its default (no placements; Othello's first hint). A
        grid left null stays None, and the grid types' hint reads it as every cell undecided, since only
        the puzzle knows its size."""
        state = self.state_model() if state is None else state
        defaults = {name: info.get_default(call_default_factory=True) for name, info in type(state).model_fields.items()
                    if getattr(state, name) is None}
        filled = {name: value for name, value in defaults.items() if value is not None}
        return state.model_copy(update=filled) if filled else state


def grid_difficulty(solver: HumanSolver[P, GridState], board_of: Callable[[Any], P], field_name: str,
                    state_model: type[BaseModel], value_names: dict[int, str], default: str) -> Difficulty:
    """The Difficulty of a grid type whose answer is one 0/1 grid named ``field_name``."""

    def grade(puzzle: Any, deadline: Deadline) -> Grade:
        return solver.grade(board_of(puzzle), deadline)

    def hint(puzzle: Any, state: BaseModel, solution: BaseModel, deadline: Deadline) -> Hint:
        target = getattr(solution, field_name)
        grid = getattr(state, field_name)
        rows, cols = len(target), len(target[0])
        if grid is None:  # nothing decided yet (Difficulty.read_state)
            grid = [[None] * cols for _ in range(rows)]
        if len(grid) != rows or any(len(row) != cols for row in grid):
            raise InvalidInput(f"`{field_name}` must have {rows} rows of {cols} values (1, 0 or null), "
                               f"as the puzzle has")
        return grid_hint(solver, board_of(puzzle), GridState.from_grid(grid), target, value_names)

    return Difficulty(solver.describe(), default, grade, hint, state_model)
