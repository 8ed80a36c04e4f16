"""Nonograms as a person solves them: techniques in levels, for grading and hints.

- ``easy``: one line at a time, with what is decided in it (Jan Wolter's "solvable line by line", the
  class Simon Tatham's Pattern generates). Three names for the one exact line rule, so a hint says
  which kind of look it was: ``overlap`` (a line with nothing decided yet: where the leftmost and the
  rightmost placement of a run overlap), ``completed-runs`` (every run of the line is in place: the rest
  is empty) and ``line`` (the runs placed every way that fits the decided cells: what all agree on).
- ``medium``: several lines together: assume one cell, follow the line rule for two rounds (its row
  and column, then the lines they change); a broken line means the cell takes the other value
  (``by_contradiction`` on the shared layer).
- ``hard``: deeper: the same assumption followed as far as it goes, and both values of a cell followed,
  keeping what both lead to.

Each technique asks the compiled line solver and prober of ``solvers/nonogram/rules.py`` where to look, and
the shared ``Trials`` follow the assumption the same way a person would (line by line), so the sentences
name the line that breaks. The levels are closures of sound, monotone rules, so a level's stuck state
does not depend on the order of steps: the generator's fast check (``level_index``) and the path agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from solvers.common import Cell, Deadline, compile_lock
from solvers.nonogram import kernel, rules
from solvers.techniques.human import (
    Contradiction,
    Grade,
    GridState,
    HumanSolver,
    Level,
    Step,
    Technique,
    Trials,
    by_contradiction,
    cell_name,
    grid_difficulty,
)

FILLED, EMPTY = 1, 0
VALUE_NAMES = {FILLED: "filled", EMPTY: "empty"}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


@dataclass
class Board:
    """The puzzle in the arrays the compiled line solver reads, and its scratch space."""

    puzzle: rules.NonogramPuzzle
    lines: rules.Board
    scratch: rules.Scratch = field(repr=False)

    @property
    def rows(self) -> int:
        return self.puzzle.rows

    @property
    def cols(self) -> int:
        return self.puzzle.cols


def board_of(puzzle: rules.NonogramPuzzle) -> Board:
    return Board(puzzle, rules.Board.of(puzzle), rules.Scratch(max(puzzle.rows, puzzle.cols)))


def start(board: Board) -> GridState:
    return GridState(board.rows, board.cols)


def _cell(board: Board, line: int, t: int) -> Cell:
    return (line, t) if line < board.rows else (t, line - board.rows)


def _spans(positions: list[int]) -> str:
    """1-based positions as ranges: [2, 3, 4, 7] -> "3–5 and 8"."""
    parts, i = [], 0
    while i < len(positions):
        j = i
        while j + 1 < len(positions) and positions[j + 1] == positions[j] + 1:
            j += 1
        parts.append(f"{positions[i] + 1}" if i == j else f"{positions[i] + 1}–{positions[j] + 1}")
        i = j + 1
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _where(across: str, positions: list[int]) -> str:
    """"column 7" or "columns 4–7 and 9" (``across`` is the plural)."""
    return f"{across[:-1]} {positions[0] + 1}" if len(positions) == 1 else f"{across} {_spans(positions)}"


def _run_name(runs: np.ndarray, j: int) -> str:
    same = int(np.sum(runs == runs[j]))
    if same == 1:
        return f"the {runs[j]}"
    return f"the {ORDINALS[j] if j < len(ORDINALS) else f'#{j + 1}'} run ({runs[j]})"


def explain(board: Board, line: int, before: np.ndarray, after: np.ndarray, starts: np.ndarray) -> tuple[str, str]:
    """The kind of look (technique name) and a sentence: which line, which runs, why."""
    runs = board.lines.runs(line)
    n = len(before)
    name = rules.line_name(line, board.rows)
    across = "columns" if line < board.rows else "rows"
    head = f"{name.capitalize()} (clue {rules.clue_text(list(map(int, runs)))})"
    new_filled = [t for t in range(n) if before[t] == -1 and after[t] == FILLED]
    new_empty = [t for t in range(n) if before[t] == -1 and after[t] == EMPTY]
    if not len(runs):
        return "completed-runs", (f"{head} has no runs: {_where(across, new_empty)} "
                                  f"{'stays' if len(new_empty) == 1 else 'stay'} empty.")
    filled_now = int(np.sum(before == FILLED))
    if not new_filled and filled_now == int(runs.sum()):
        return "completed-runs", (f"{head}: its runs are all in place, so {_where(across, new_empty)} "
                                  f"{'stays' if len(new_empty) == 1 else 'stay'} empty.")
    kind = "overlap" if not np.any(before != -1) else "line"
    parts = []
    by_run: dict[int, list[int]] = {}
    shared: list[int] = []
    for t in new_filled:
        covering = [j for j in range(len(runs)) if any(starts[j, p] for p in range(max(0, t - runs[j] + 1), t + 1))]
        if len(covering) == 1:
            by_run.setdefault(covering[0], []).append(t)
        else:
            shared.append(t)
    for j, cells in by_run.items():
        possible = [p for p in range(n) if starts[j, p]]
        where = (f"can only start at {across[:-1]} {possible[0] + 1}" if len(possible) == 1 else
                 f"can only start in {across} {possible[0] + 1}–{possible[-1] + 1}")
        parts.append(f"{_run_name(runs, j)} {where}, so it covers {_where(across, cells)} wherever it goes")
    if shared:
        parts.append(f"every way the runs fit fills {_where(across, shared)}")
    if new_empty:
        parts.append(f"no run can reach {_where(across, new_empty)}, so "
                     f"{'they stay' if len(new_empty) > 1 else 'it stays'} empty")
    lead = "with nothing decided in it yet, " if kind == "overlap" else "placing its runs every way that fits, "
    return kind, f"{head}: {lead}" + "; ".join(parts) + "."


def line_steps(board: Board, state: GridState, lines: Iterable[int], kinds: frozenset[str] | None = None
               ) -> list[Step]:
    """One step per line that the line rule advances (of the asked kinds); a line no arrangement of its
    runs fits raises Contradiction."""
    s = board.scratch
    steps = []
    # Later lines of one look see what earlier ones decided, so a clash is named by the line it breaks.
    values = list(state.values)
    for line in lines:
        cells = board.lines.line_of(line)
        n = len(cells)
        before = np.array([-1 if values[i] is None else values[i] for i in cells], dtype=np.int8)
        if kinds is not None and "overlap" in kinds and len(kinds) == 1 and np.any(before != -1):
            continue
        s.vals[:n] = before
        runs = board.lines.runs(line)
        if not rules.run_starts(s.vals, n, runs, s.fwd, s.bwd, s.zp, s.diff, s.out, s.starts):
            name = rules.line_name(line, board.rows)
            raise Contradiction(f"{name} (clue {rules.clue_text(list(map(int, runs)))}) can no longer be completed",
                                [_cell(board, line, t) for t in range(n)])
        after = s.out[:n]
        decided = [t for t in range(n) if before[t] == -1 and after[t] != -1]
        if not decided:
            continue
        kind, message = explain(board, line, before, after.copy(), s.starts)
        if kinds is not None and kind not in kinds:
            continue
        steps.append(Step(kind, message, tuple((_cell(board, line, t), int(after[t])) for t in decided),
                          tuple(_cell(board, line, t) for t in range(n) if before[t] != -1)))
        for t in decided:
            values[cells[t]] = int(after[t])
    return steps


def _all_lines(board: Board) -> range:
    return range(board.rows + board.cols)


def _near_lines(board: Board, changed: set[int]) -> list[int]:
    return sorted({i // board.cols for i in changed} | {board.rows + i % board.cols for i in changed})


def _kind(kind: str) -> Technique[Board, GridState]:
    return Technique(kind, DESCRIPTIONS[kind], 1.0 if kind != "line" else 1.5,
                     lambda board, state: line_steps(board, state, _all_lines(board), frozenset({kind})))


DESCRIPTIONS = {
    "overlap": "A line with nothing decided: cells every placement of a run covers are filled, cells no run "
               "reaches are empty.",
    "completed-runs": "A line whose runs are all in place (or that has none): its other cells are empty.",
    "line": "One line with its decided cells: place its runs every way that fits; what all ways agree on is "
            "decided.",
}
# Look-aheads follow the whole line rule (one technique, so a round is one pass over the changed lines).
LINE = Technique("line", DESCRIPTIONS["line"], 1.5,
                 lambda board, state: line_steps(board, state, _all_lines(board)),
                 lambda board, state, changed: line_steps(board, state, _near_lines(board, changed)))
LINE_TRIALS = Trials((LINE,))


def _engine(board: Board, state: GridState) -> rules.Engine:
    grid = np.array([-1 if v is None else v for v in state.values], dtype=np.int8)
    return rules.Engine(board.lines, grid)


def refuted_within(rounds: int) -> Callable[[Board, GridState], list[Cell]]:
    """Where probing within ``rounds`` rounds (0: any) succeeds, found by the compiled prober, so
    ``by_contradiction`` follows only the assumption that breaks instead of trying every cell in Python."""

    def candidates(board: Board, state: GridState) -> list[Cell]:
        cell, what = _engine(board, state).first_probe(1, rounds)
        return [] if what not in (0, 1) else [divmod(cell, board.cols)]

    return candidates


SHORT_ROUNDS = 2  # medium: the assumption breaks a line within two rounds (its own row or column, then the crossing lines)
SHORT_CHAIN = by_contradiction(
    "short-chain", f"Assume one cell filled (or empty) and follow rows and columns for {SHORT_ROUNDS} rounds: if a "
                   f"line can no longer be completed, the cell is the other value.", 4.0, LINE_TRIALS, VALUE_NAMES,
    max_rounds=SHORT_ROUNDS, candidates=refuted_within(SHORT_ROUNDS))
LONG_CHAIN = by_contradiction(
    "long-chain", "Assume one cell filled (or empty) and follow rows and columns as far as they go: if a line "
                  "can no longer be completed, the cell is the other value.", 8.0, LINE_TRIALS, VALUE_NAMES,
    candidates=refuted_within(0))


def either_way(board: Board, state: GridState) -> list[Step]:
    """A cell followed both ways, line by line: what both lead to is certain."""
    cell_index, what = _engine(board, state).first_probe(2, 0)
    if what != 2:
        return []
    cell = divmod(cell_index, board.cols)
    filled = LINE_TRIALS.get(board, state, cell, FILLED, 10_000)
    empty = LINE_TRIALS.get(board, state, cell, EMPTY, 10_000)
    if filled.contradiction is not None or empty.contradiction is not None:
        return []  # the compiled prober and the line rule disagree: left to the search (never seen)
    a, b = filled.decided_within(10_000), empty.decided_within(10_000)
    common = sorted(i for i, v in a.items() if b.get(i) == v and state.values[i] is None)
    if not common:
        return []
    decided = tuple((divmod(i, board.cols), a[i]) for i in common)
    what_text = ", ".join(f"{cell_name(c)} {VALUE_NAMES[v]}" for c, v in decided[:6]) + (", …" if len(decided) > 6
                                                                                         else "")
    depth = max(max(filled.when[i], empty.when[i]) for i in common)
    message = (f"Follow {cell_name(cell)} both ways, line by line: filled or empty, both lead to {what_text}, "
               f"so {'that is' if len(decided) == 1 else 'those are'} certain.")
    return [Step("either-way", message, decided, (cell,), effort=depth)]


EITHER_WAY = Technique("either-way", "Follow one cell both ways (filled, then empty) line by line: cells both "
                                     "ways decide alike are certain.", 10.0, either_way)

SOLVER: HumanSolver[Board, GridState] = HumanSolver(
    levels=(
        Level("easy", (_kind("overlap"), _kind("completed-runs"), _kind("line"))),
        Level("medium", (SHORT_CHAIN,)),
        Level("hard", (LONG_CHAIN, EITHER_WAY)),
    ),
    start=start,
)


# Each level as the compiled closure of its rules: (mode, rounds a probe follows; 0 = to the end).
CLOSURES = ((0, 0), (1, SHORT_ROUNDS), (2, 0))


def closed(puzzle: rules.NonogramPuzzle, upto: int, deadline: Deadline | None = None) -> list[np.ndarray | None]:
    """The grids the levels up to ``upto`` leave, fast (the compiled closures, each from the one before);
    None where the clues have no solution."""
    engine = rules.Engine(rules.Board.of(puzzle))
    grids: list[np.ndarray | None] = []
    for mode, rounds in CLOSURES[: upto + 1]:
        if deadline is not None:
            deadline.check()
        if not engine.close_under(mode, rounds):
            return grids + [None] * (upto + 1 - len(grids))
        grids.append(engine.grid.copy())
    return grids


def level_index(puzzle: rules.NonogramPuzzle, deadline: Deadline | None = None) -> int | None:
    """The level the path reaches, fast. None: not solvable by any level's techniques (or no solution)."""
    for index, grid in enumerate(closed(puzzle, len(CLOSURES) - 1, deadline)):
        if grid is None:
            return None
        if not np.any(grid == -1):
            return index
    return None


TECHNIQUES = SOLVER.techniques()  # (level index, technique), numbered as the kernel numbers them
PATH_SLICE = 20_000  # line solves per kernel call, between deadline checks


@dataclass(frozen=True)
class Outline:
    """A solution path without its sentences, as the kernel finds it: what grading needs. The same steps
    as ``SOLVER.run`` (tests hold it to that)."""

    board: Board
    steps: np.ndarray  # per step: technique (index into TECHNIQUES), effort, end of its decisions
    decisions: np.ndarray  # (flat cell, value) per decided cell, step after step
    solved: bool

    def grade(self) -> Grade:
        return SOLVER.grade_numbered(self.steps[:, :2].tolist(), self.solved)

    def decided(self, step: int) -> tuple[tuple[Cell, int], ...]:
        """What step ``step`` decides, as its ``Step.decide`` lists it."""
        begin = int(self.steps[step - 1, 2]) if step else 0
        return tuple((divmod(cell, self.board.cols), value)
                     for cell, value in self.decisions[begin: int(self.steps[step, 2])].tolist())


def outline(board: Board, upto: int | None = None, deadline: Deadline | None = None) -> Outline | None:
    """The kernel's solution path from the clues with the levels up to ``upto``; None where it sees a
    broken rule (or loses the techniques' way), which the Python techniques then name."""
    engine = rules.Engine(board.lines)
    engine.dirty[:] = False
    ncells = board.rows * board.cols
    steps = np.zeros((ncells, kernel.STEP_FIELDS), np.int32)
    decisions = np.zeros((ncells, 2), np.int32)
    counters = np.zeros(2, np.int64)
    n_lines = board.rows + board.cols
    memory = (kernel.trial_scratch(ncells), kernel.line_memory(n_lines), kernel.probe_memory(ncells, n_lines),
              kernel.probe_memory(ncells, n_lines), np.zeros(n_lines, np.bool_))
    last = len(SOLVER.levels) - 1 if upto is None else upto
    deadline = deadline or Deadline.never()
    outcome = kernel.PAUSED
    while outcome == kernel.PAUSED:
        deadline.check()
        outcome = kernel.path(engine.grid, engine.trail, engine.st, engine.dirty, *engine._core(), engine.seen,
                              engine.held, *memory, last, SHORT_ROUNDS, steps, decisions, counters, PATH_SLICE)
    if outcome in (kernel.BROKEN, kernel.LOST):
        return None
    return Outline(board, steps[: counters[0]], decisions[: counters[1]], outcome == kernel.SOLVED)


def grade(puzzle: rules.NonogramPuzzle, deadline: Deadline) -> Grade:
    """The path's grade, from the kernel; where it stops short the Python techniques walk the path (and
    raise the broken rule a puzzle with no solution has)."""
    board = board_of(puzzle)
    found = outline(board, deadline=deadline)
    return found.grade() if found is not None else SOLVER.grade(board, deadline)


class NonogramState(BaseModel):
    filled: list[list[Literal[0, 1] | None]] | None = Field(
        None, description="R×C: 1 filled, 0 marked empty, null undecided (the player's grid so far); "
        "null or left out: nothing decided yet.")


def warm_up() -> None:
    """Load the kernel (compiling it into numba's on-disk cache the first time on this machine), so that
    no request waits for it: a path through every technique."""
    puzzle = rules.NonogramPuzzle(rows=2, cols=2, row_clues=[[1], [1]], col_clues=[[1], [1]])
    with compile_lock(__name__):
        outline(board_of(puzzle))


DIFFICULTY = dataclasses.replace(grid_difficulty(SOLVER, board_of, "filled", NonogramState, VALUE_NAMES,
                                                 default="easy"), grade=grade)
