"""Killer Sudoku as a person solves it: Sudoku's techniques and levels (``solvers.sudoku.techniques``) on Sudoku's
candidates, with two cage techniques added to the first level, as Tatham's Solo allows its killer deductions at
every level and grades a Killer by its Sudoku techniques alone:

- cage combinations: a cage's cells keep only the digits of the sets of different digits that make its total and
  fit what its cells may still hold (Solo's single-cell cages, minimum and maximum, and cage sums);
- the rule of 45: a row, column or box (or two or three neighbouring rows or columns) sums to 45 per unit, so the
  open cells it keeps outside the cages that lie wholly inside it (innies), or the open cells of its crossing
  cages that lie outside it (outies), make a known total; read as a cage whose digits differ where they see
  each other.

The state is Sudoku's ``Candidates``, so a hint reads the player's digits and pencil marks as Sudoku's does.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache, partial
from typing import Any

from pydantic import BaseModel, create_model

from solvers.common import Deadline
from solvers.killer_sudoku.rules import KillerSudokuAnswer, KillerSudokuPuzzle, N
from solvers.kit.rules import Digits
from solvers.sudoku import techniques as sudoku
from solvers.sudoku.techniques import Candidates, Puzzle, bit, digits_of
from solvers.techniques.human import Contradiction, Difficulty, Grade, Hint, HumanSolver, Level, Step, Technique

MOST_SETS = 4  # open cells whose digit sets a person lists (Solo's too); larger cages are read by their bounds
FILLINGS_KEPT = 1 << 16  # cage readings remembered (the same cells' candidates come back in look after look)
GROUPS_KEPT = 256  # placed-digit states whose rule-of-45 groups a puzzle remembers


@dataclass(frozen=True)
class Cage:
    cells: tuple[int, ...]  # flat indices, in order
    total: int

    @property
    def name(self) -> str:
        """"the cage 15 at r1c1, r1c2", worded only when a step is explained (the generator's grades are not)."""
        return f"the cage {self.total} at {sudoku.board_for(N).names_of(self.cells)}"


@dataclass(frozen=True)
class KillerBoard(Puzzle):
    """Sudoku's ``Puzzle`` with the cages, and the regions the rule of 45 reads (each with its count of units)."""

    cages: tuple[Cage, ...] = ()
    cage_of: tuple[int, ...] = ()  # per cell its cage's index, -1 for none
    regions: tuple[tuple[str, tuple[int, ...]], ...] = ()  # the units: rows, columns, boxes
    region_sets: tuple[frozenset[int], ...] = ()
    groups: dict[tuple[int, ...], list[Any]] = field(default_factory=dict, compare=False, hash=False, repr=False)


@cache
def _regions() -> tuple[tuple[str, tuple[int, ...]], ...]:
    board = sudoku.board_for(N)
    return tuple(zip(board.names, board.units, strict=True))


def board_of(puzzle: KillerSudokuPuzzle, explain: bool = True) -> KillerBoard:
    cages = tuple(Cage(tuple(sorted(r * N + c for r, c in cage.cells)), cage.sum) for cage in puzzle.cages)
    cage_of = [-1] * (N * N)
    for k, cage in enumerate(cages):
        for i in cage.cells:
            cage_of[i] = k
    return KillerBoard(sudoku.board_for(N), tuple(v for row in puzzle.givens for v in row), explain, cages,
                       tuple(cage_of), _regions(), tuple(frozenset(cells) for _, cells in _regions()))


# --- what a group of cells may hold --------------------------------------------------------------------------


@cache
def sets_making(size: int, total: int) -> tuple[int, ...]:
    """The sets of ``size`` different digits (masks) that sum to ``total``."""
    return tuple(sum(bit(d) for d in digits) for digits in itertools.combinations(range(1, N + 1), size)
                 if sum(digits) == total)


@lru_cache(maxsize=FILLINGS_KEPT)
def fitting(masks: tuple[int, ...], total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What cells of different digits summing to ``total`` may hold, read as a person (and Solo) reads a cage:
    a digit goes where the smallest or largest the other cells can hold would miss the total; and, for up to
    ``MOST_SETS`` cells, the digit sets that make the total, less those some cell has no candidate of, leave
    their digits only. Per cell what stays, and the sets that fit; empty when nothing fits."""
    lows, highs = [(m & -m).bit_length() for m in masks], [m.bit_length() for m in masks]
    low, high = sum(lows), sum(highs)
    held = []
    for m, own_low, own_high in zip(masks, lows, highs, strict=True):
        least, most = max(1, total - (high - own_high)), min(N, total - (low - own_low))
        held.append(m & ((1 << most) - 1) & ~((1 << (least - 1)) - 1) if least <= most else 0)
    sets: tuple[int, ...] = ()
    if 2 <= len(masks) <= MOST_SETS:
        sets = tuple(s for s in sets_making(len(masks), total) if all(m & s for m in masks))
        union = 0
        for s in sets:
            union |= s
        held = [h & union for h in held]
    return (tuple(held), sets) if all(held) else ((), ())


def _read(puzzle: KillerBoard, state: Candidates, cells: Sequence[int], seen: tuple[int, ...], total: int,
          why: Callable[[], str], technique: str) -> Step | None:
    """The step that takes out of ``cells`` (open ones, whose candidates read as ``seen``) every candidate no
    filling of ``total`` uses; raises Contradiction when none fits. ``why`` says what makes the total, asked only
    for a sentence."""
    board, masks = puzzle.board, state.masks
    held, sets = fitting(seen, total)
    if not held:
        raise Contradiction(f"{why()}, which the candidates of {board.names_of(cells)} cannot make",
                            [board.cell(i) for i in cells])
    if all(not masks[i] & ~h for i, h in zip(cells, held, strict=True)):
        return None
    gone = [(i, d) for i, h in zip(cells, held, strict=True) for d in digits_of(masks[i] & ~h)]
    if not puzzle.explain:
        return Step(technique, "", sudoku.eliminating(board, gone))
    ways = f" ({' or '.join('+'.join(map(str, digits_of(s))) for s in sets[:4])}{' or …' if len(sets) > 4 else ''})" \
        if sets else ""
    return Step(technique, f"{why()}; with the candidates left only those fillings fit{ways}: remove "
                           f"{sudoku.removed_words(board, gone)}.",
                sudoku.eliminating(board, gone), tuple(board.cell(i) for i in cells))


def _cage_why(puzzle: KillerBoard, cage: Cage, open_cells: list[int], placed: list[int], left: int) -> str:
    why = f"The digits of {cage.name} differ and sum to {cage.total}"
    if placed:
        why += f": its open cells {puzzle.board.names_of(open_cells)} make {left} without {sudoku.digit_list(placed)}"
    return why


def cage_combinations(puzzle: KillerBoard, state: Candidates) -> list[Step]:
    """Each cage's open cells keep only the digits of the fillings of what its placed digits leave of its total."""
    digits, masks, steps = state.digits, state.masks, []
    for cage in puzzle.cages:
        open_cells, placed, used = [], [], 0
        for i in cage.cells:
            if digits[i]:
                placed.append(digits[i])
                used |= masks[i]
            else:
                open_cells.append(i)
        if not open_cells:
            continue
        left = cage.total - sum(placed)
        seen = tuple(masks[i] & ~used for i in open_cells)
        step = _read(puzzle, state, open_cells, seen, left, partial(_cage_why, puzzle, cage, open_cells, placed, left),
                     "cage-combination")
        if step is not None:
            steps.append(step)
    return steps


def _innies_why(puzzle: KillerBoard, name: str, innies: tuple[int, ...], total: int) -> str:
    return f"The rule of 45 on {name}: its innies {puzzle.board.names_of(innies)} sum to {total}"


def _outies_why(puzzle: KillerBoard, name: str, cage: Cage, inner: int, outies: tuple[int, ...], total: int) -> str:
    return (f"The rule of 45 on {name}: its innies make {inner} of {cage.name}, so its outies "
            f"{puzzle.board.names_of(outies)} sum to {total}")


def groups_of_45(puzzle: KillerBoard, state: Candidates) -> list[tuple[Callable[[], str], tuple[int, ...], int]]:
    """The innies of every unit with what its placed digits and whole cages leave (why, open cells, their
    total); and where the innies all lie in one cage, its other open cells (outies) with the rest of its total.
    Each group's digits differ (one unit, or one cage); none is a cage's own open cells. They depend on the
    placed digits alone, so the puzzle remembers them for the looks between placements."""
    key = tuple(state.digits)
    found = puzzle.groups.get(key)
    if found is None:
        if len(puzzle.groups) >= GROUPS_KEPT:
            puzzle.groups.clear()
        found = puzzle.groups[key] = _groups_of_45(puzzle, state.digits)
    return found


def _groups_of_45(puzzle: KillerBoard, digits: list[int]) -> list[tuple[Callable[[], str], tuple[int, ...], int]]:
    cage_of = puzzle.cage_of
    left_of = [cage.total - sum(digits[i] for i in cage.cells) for cage in puzzle.cages]
    open_of = [tuple(i for i in cage.cells if not digits[i]) for cage in puzzle.cages]
    found: list[tuple[Callable[[], str], tuple[int, ...], int]] = []
    seen = set(open_of)
    for (name, cells), inside in zip(puzzle.regions, puzzle.region_sets, strict=True):
        open_cells = [i for i in cells if not digits[i]]
        crossing = {cage_of[i] for i in open_cells}
        whole = {j for j in crossing if j >= 0 and all(i in inside for i in open_of[j])}
        innies = tuple(i for i in open_cells if cage_of[i] not in whole)
        if not whole or not innies:
            continue
        total = 45 - sum(digits[i] for i in cells) - sum(left_of[j] for j in whole)
        if innies not in seen:
            seen.add(innies)
            found.append((partial(_innies_why, puzzle, name, innies, total), innies, total))
        holding = {cage_of[i] for i in innies}
        one = holding.pop() if len(holding) == 1 else -1
        if one >= 0:
            outies = tuple(i for i in open_of[one] if i not in inside)
            if outies not in seen:
                seen.add(outies)
                rest = left_of[one] - total
                found.append((partial(_outies_why, puzzle, name, puzzle.cages[one], total, outies, rest), outies, rest))
    return found


def rule_of_45(puzzle: KillerBoard, state: Candidates) -> list[Step]:
    """Innies and outies read as cages: their cells keep only the digits of the fillings of their total."""
    steps = []
    for why, group, total in groups_of_45(puzzle, state):
        step = _read(puzzle, state, group, tuple(state.masks[i] for i in group), total, why, "rule-of-45")
        if step is not None:
            steps.append(step)
    return steps


CAGE_TECHNIQUES = (
    Technique("cage-combination", "A cage's cells keep only the digits of the sets of different digits that make "
                                  "its total and fit its candidates.", 2.0, cage_combinations),
    Technique("rule-of-45", "A row, column or box sums to 45: the cells its whole cages leave over (innies) make "
                            "what they leave, and if they lie in one cage, its cells outside (outies) the rest.", 3.0,
              rule_of_45),
)
first, *rest = sudoku.SOLVER.levels
SOLVER: HumanSolver[KillerBoard, Candidates] = HumanSolver(
    levels=(Level(first.name, (*first.techniques, *CAGE_TECHNIQUES)), *rest),  # type: ignore[arg-type]
    start=sudoku.start,  # type: ignore[arg-type]
)


def grade(puzzle: KillerSudokuPuzzle, deadline: Deadline) -> Grade:
    return SOLVER.grade(board_of(puzzle, explain=False), deadline)


def solved_at(puzzle: KillerSudokuPuzzle, level: str, deadline: Deadline) -> bool:
    """Whether the techniques up to ``level`` finish the puzzle, which also proves it unique (every step holds in
    every solution); a puzzle that breaks a rule is not finished."""
    try:
        return SOLVER.run(board_of(puzzle, explain=False), SOLVER.level_names.index(level), deadline=deadline).state.solved
    except Contradiction:
        return False


KillerSudokuState: type[BaseModel] = create_model(
    "KillerSudokuState", __base__=BaseModel, __module__=__name__,
    **Digits("digits", N, N, N).state_fields("9×9 digits 1..9, 0 or null for an empty cell"))


def hint(puzzle: KillerSudokuPuzzle, state: BaseModel, solution: KillerSudokuAnswer, deadline: Deadline) -> Hint:
    return sudoku.hint_on(SOLVER, board_of(puzzle), state, solution.digits, deadline)  # type: ignore[arg-type]


DIFFICULTY = Difficulty(SOLVER.describe(), "easy", grade, hint, KillerSudokuState)
