"""Number Sums as a person solves it: techniques in levels, for grading and hints.

Every rule is "the selected digits of these cells add up to this total" (a row, a column or a
region: ``sum_rules``), so every technique works on rules alone. The first level is the article's
rule: list the ways the undecided digits of one line reach what it still needs; a digit in every
way is selected, a digit in none is crossed out (the reachable-sum bounds are its simplest cases).
Harder levels combine lines: a region with a line it shares cells with, then assumptions followed
from line to crossing line until one cannot reach its target.

The assumptions are where the time goes (a hard 12×12 follows thousands per puzzle), so each
look-ahead technique is written twice: the Python functions below are the reference (they say what
it means; ``solver(compiled=False)`` is the solver made of them, which the tests hold ``SOLVER`` to),
and ``SOLVER`` finds the same cell with the compiled functions of ``solvers.number_sums.kernel``, then
follows that one assumption again in Python for the player's sentence.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from solvers.common import Cell, compile_lock
from solvers.kit.sums import ways
from solvers.number_sums import kernel
from solvers.number_sums.rules import NumberSumsPuzzle, sum_rules
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
    cells_named,
    contradiction_step,
    grid_difficulty,
)

SELECTED, CROSSED = 1, 0
VALUE_NAMES = {SELECTED: "selected", CROSSED: "crossed out"}
MAX_LISTED_WAYS = 4  # a message lists the ways a line can go when there are at most this many
MAX_JOINT_CELLS = 12  # a region with more undecided cells than this is not enumerated with a line


@dataclass(frozen=True)
class Rule:
    name: str  # "row 3", "column 5", "the region of r2c3": how a player calls it
    region: bool
    cells: tuple[int, ...]  # flat indices
    total: int


LineLook = Callable[["Board", Rule, int, list[int]], "Step | None"]


@dataclass(frozen=True)
class Board:
    """What the techniques look up again and again, computed once per puzzle (flat cell indices)."""

    rows: int
    cols: int
    digits: tuple[int, ...]
    rules: tuple[Rule, ...]
    rules_of: tuple[tuple[int, ...], ...]  # per cell: the indices of the rules it belongs to
    arrays: tuple[np.ndarray, ...] = field(compare=False, repr=False)  # see kernel.board_arrays
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)  # see ``_each_line``

    def cell(self, i: int) -> Cell:
        return divmod(i, self.cols)


def board_of(puzzle: NumberSumsPuzzle) -> Board:
    rows, cols = puzzle.shape
    made = []
    for rule in sum_rules(puzzle):
        cells = tuple(r * cols + c for r, c in rule.cells)
        if not cells:
            continue  # a region id nobody uses
        first = rule.cells[0]
        name = (f"row {first[0] + 1}" if rule.code == "row-sum-wrong" else f"column {first[1] + 1}"
                if rule.code == "col-sum-wrong" else f"the region of {cell_name(first)}")
        made.append(Rule(name, rule.code == "region-sum-wrong", cells, rule.total))
    rules_of: list[list[int]] = [[] for _ in range(rows * cols)]
    for k, rule in enumerate(made):
        for i in rule.cells:
            rules_of[i].append(k)
    digits = [d for row in puzzle.numbers for d in row]
    return Board(rows, cols, tuple(digits), tuple(made), tuple(tuple(ks) for ks in rules_of),
                 kernel.board_arrays(digits, [(list(rule.cells), rule.total) for rule in made]))


def start(board: Board) -> GridState:
    return GridState(board.rows, board.cols)


def open_part(board: Board, values: Sequence[int | None], rule: Rule) -> tuple[int, list[int]]:
    """What the rule still needs once its selected digits are counted, and its undecided cells."""
    need, free = rule.total, []
    for i in rule.cells:
        v = values[i]
        if v is None:
            free.append(i)
        elif v == SELECTED:
            need -= board.digits[i]
    return need, free


def reachable(digits: Iterable[int]) -> int:
    """The sums some subset of ``digits`` reaches, as a bit set (bit s: sum s)."""
    sums = 1
    for d in digits:
        sums |= sums << d
    return sums


def ways_polynomial(digits: Sequence[int]) -> tuple[int, int]:
    """prod(1 + x^d) packed in one integer (one slot of ``width`` bits per power): slot s counts the
    subsets summing to s. Slots never overflow, so dividing by one factor is exact."""
    width = len(digits) + 1
    poly = 1
    for d in digits:
        poly += poly << (width * d)
    return poly, width


def count_ways(digits: Sequence[int], need: int) -> int:
    if need < 0:
        return 0
    poly, width = ways_polynomial(digits)
    return (poly >> (width * need)) & ((1 << width) - 1)


def _broken(board: Board, rule: Rule, need: int, free: list[int]) -> Contradiction:
    cells = [board.cell(i) for i in rule.cells]
    if need < 0:
        return Contradiction(f"{rule.name} would pass its target {rule.total}", cells)
    if not free:
        return Contradiction(f"{rule.name} would end {need} short of its target {rule.total}", cells)
    return Contradiction(f"{rule.name} could no longer reach its target {rule.total}: no choice among "
                         f"{_digits_words(board, free)} adds up to the {need} it still needs", cells)


def _digits_words(board: Board, free: Sequence[int]) -> str:
    return "the digits " + ", ".join(str(board.digits[i]) for i in free)


def _rules_near(board: Board, near: Iterable[int] | None) -> Iterable[int]:
    return range(len(board.rules)) if near is None else sorted({k for i in near for k in board.rules_of[i]})


def _decide(board: Board, cells: Iterable[int], value: int) -> tuple[tuple[Cell, int], ...]:
    return tuple((board.cell(i), value) for i in cells)


def _each_line(board: Board, state: GridState, near: Iterable[int] | None, look: LineLook) -> list[Step]:
    """``look`` on every line (or those through ``near``). A line's verdict depends only on what it
    still needs and which cells are undecided, so it is remembered per puzzle: look-aheads meet the
    same line positions again and again."""
    values, steps, memo = state.values, [], board.memo
    for k in _rules_near(board, near):
        rule = board.rules[k]
        need, free = open_part(board, values, rule)
        key = (look, k, need, tuple(free))
        verdict = memo.get(key, memo)
        if verdict is memo:
            try:
                verdict = memo[key] = look(board, rule, need, free)
            except Contradiction as exc:
                verdict = memo[key] = (exc.message, exc.cells)
        if isinstance(verdict, tuple):
            raise Contradiction(*verdict)
        if verdict is not None:
            steps.append(verdict)
    return steps


def bounds_of_line(board: Board, rule: Rule, need: int, free: list[int]) -> Step | None:
    if not free:
        if need != 0:
            raise _broken(board, rule, need, free)
        return None
    available = sum(board.digits[i] for i in free)
    if need < 0 or need > available:
        raise _broken(board, rule, need, free)
    selected = [i for i in free if available - board.digits[i] < need]
    crossed = [i for i in free if board.digits[i] > need]
    if not selected and not crossed:
        return None
    still = f"{rule.name} still needs {need} (target {rule.total})"
    if need == 0:
        message = f"{rule.name} already reaches its target {rule.total}: its other digits are crossed out."
    elif len(selected) == len(free):
        message = f"{still}, exactly what its undecided digits add up to: they are all selected."
    else:
        parts = []
        if crossed:
            parts.append(f"{cells_named(board.cell(i) for i in crossed)} "
                         f"{'is' if len(crossed) == 1 else 'are'} larger than that: crossed out")
        if selected:
            parts.append(f"its undecided digits add up to {available}, so without "
                         f"{cells_named(board.cell(i) for i in selected)} it would fall short: selected")
        message = f"{still}; " + "; ".join(parts) + "."
    decide = _decide(board, selected, SELECTED) + _decide(board, crossed, CROSSED)
    return Step("sum-bounds", message, decide, tuple(board.cell(i) for i in rule.cells))


def ways_of_line(board: Board, rule: Rule, need: int, free: list[int]) -> Step | None:
    if not free:
        if need != 0:
            raise _broken(board, rule, need, free)
        return None
    if need < 0:
        raise _broken(board, rule, need, free)
    free_digits = [board.digits[i] for i in free]
    poly, width = ways_polynomial(free_digits)
    mask = (1 << width) - 1
    total = (poly >> (width * need)) & mask
    if not total:
        raise _broken(board, rule, need, free)
    selected, crossed = [], []
    for i, d in zip(free, free_digits, strict=True):
        rest = poly // (1 + (1 << (width * d)))
        if not (rest >> (width * need)) & mask:
            selected.append(i)
        elif need < d or not (rest >> (width * (need - d))) & mask:
            crossed.append(i)
    if not selected and not crossed:
        return None
    return Step("line-ways", _ways_message(board, rule, need, free, total, selected, crossed),
                _decide(board, selected, SELECTED) + _decide(board, crossed, CROSSED),
                tuple(board.cell(i) for i in rule.cells))


def sum_bounds(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """The smallest and largest sums a line can still reach: a digit larger than what the line still
    needs is crossed out; a digit without which the others fall short is selected."""
    return _each_line(board, state, near, bounds_of_line)


def line_ways(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """The article's rule: among the ways a line's undecided digits reach what it still needs, a
    digit in every way is selected and a digit in none is crossed out."""
    return _each_line(board, state, near, ways_of_line)


def _ways_message(board: Board, rule: Rule, need: int, free: list[int], total: int,
                  selected: list[int], crossed: list[int]) -> str:
    digits = [board.digits[i] for i in free]
    if total <= MAX_LISTED_WAYS:
        listed = " or ".join("+".join(str(digits[j]) for j in way) for way in ways(digits, need, total))
        how = f"only as {listed}" if total > 1 else f"only one way: {listed}"
    else:
        how = f"in {total} ways"
    parts = []
    if selected:
        parts.append(f"{cells_named(board.cell(i) for i in selected)} {'is' if len(selected) == 1 else 'are'} "
                     f"in every way: selected")
    if crossed:
        parts.append(f"{cells_named(board.cell(i) for i in crossed)} {'is' if len(crossed) == 1 else 'are'} "
                     f"in none: crossed out")
    return (f"{rule.name} still needs {need} (target {rule.total}) from {_digits_words(board, free)}: "
            f"{how}. " + "; ".join(parts) + ".")


def region_meets_line(board: Board, state: GridState) -> list[Step]:
    """A region and a row or column sharing undecided cells: a way of the region counts only if the
    line can still reach its target with the shared cells as that way sets them."""
    values, steps = state.values, []
    taken: set[Cell] = set()  # cells an earlier pair of this look already decides
    for region in (r for r in board.rules if r.region):
        need_g, free_g = open_part(board, values, region)
        if not 2 <= len(free_g) <= MAX_JOINT_CELLS:
            continue
        in_region = set(free_g)
        for k in sorted({k for i in free_g for k in board.rules_of[i]}):
            line = board.rules[k]
            if line.region:
                continue
            shared = [i for i in free_g if i in set(line.cells)]
            if len(shared) < 2:
                continue
            need_l, free_l = open_part(board, values, line)
            outside = [i for i in free_l if i not in in_region]
            key = ("joint", region.name, k, need_g, tuple(free_g), need_l, tuple(outside))
            verdict = board.memo.get(key, board.memo)
            if verdict is board.memo:  # remembered as ``_each_line`` remembers a line's verdict
                try:
                    verdict = board.memo[key] = _joint_step(board, region, line, need_g, free_g, need_l, outside,
                                                            shared)
                except Contradiction as exc:
                    verdict = board.memo[key] = (exc.message, exc.cells)
            if isinstance(verdict, tuple):
                raise Contradiction(*verdict)
            step = verdict
            fresh = () if step is None else tuple((c, v) for c, v in step.decide if c not in taken)
            if step is not None and fresh:
                taken.update(c for c, _ in fresh)
                steps.append(Step(step.technique, step.message, fresh, step.because))
    return steps


def _joint_step(board: Board, region: Rule, line: Rule, need_g: int, free_g: list[int], need_l: int,
                outside: list[int], shared: list[int]) -> Step | None:
    digits = board.digits
    shared_set = set(shared)
    line_rest = reachable(digits[i] for i in outside)
    region_ways, shared_part = _region_ways(digits, free_g, need_g, shared_set)
    fits = [w for w, s in zip(region_ways, shared_part, strict=True) if _line_fits(line_rest, need_l - s)]
    if not fits:
        raise Contradiction(f"{region.name} and {line.name} cannot both reach their targets "
                            f"({region.total} and {line.total})",
                            [board.cell(i) for i in (*region.cells, *line.cells)])
    every, some = -1, 0
    for w in fits:
        every, some = every & w, some | w
    selected = [i for j, i in enumerate(free_g) if every >> j & 1]
    crossed = [i for j, i in enumerate(free_g) if not some >> j & 1]
    shared_sums = {s for w, s in zip(region_ways, shared_part, strict=True) if _line_fits(line_rest, need_l - s)}
    for i in outside:
        without = reachable(digits[j] for j in outside if j != i)
        can_on = any(_line_fits(without, need_l - s - digits[i]) for s in shared_sums)
        can_off = any(_line_fits(without, need_l - s) for s in shared_sums)
        if not can_off:
            selected.append(i)
        elif not can_on:
            crossed.append(i)
    if not selected and not crossed:
        return None
    parts = []
    if selected:
        parts.append(f"{cells_named(board.cell(i) for i in selected)} selected")
    if crossed:
        parts.append(f"{cells_named(board.cell(i) for i in crossed)} crossed out")
    message = (f"{region.name} (target {region.total}) shares {cells_named(board.cell(i) for i in shared)} with "
               f"{line.name} (target {line.total}); only {len(fits)} of the region's {len(region_ways)} ways "
               f"{'lets' if len(fits) == 1 else 'let'} {line.name} still reach its target, and "
               f"{'it leaves' if len(fits) == 1 else 'they all leave'} " + " and ".join(parts) + ".")
    return Step("region-meets-line", message,
                _decide(board, selected, SELECTED) + _decide(board, crossed, CROSSED),
                tuple(board.cell(i) for i in dict.fromkeys((*region.cells, *line.cells))))


def _region_ways(digits: Sequence[int], free: list[int], need: int, shared: set[int]) -> tuple[list[int], list[int]]:
    """Every way the digits of ``free`` reach ``need``, as bit masks over ``free`` (bit j: ``free[j]``
    selected), and what each adds up to on the ``shared`` cells: the subset sums of all masks at once."""
    sums = np.zeros(1, np.int64)
    on_shared = np.zeros(1, np.int64)
    for i in free:
        sums = np.concatenate((sums, sums + digits[i]))
        on_shared = np.concatenate((on_shared, on_shared + (digits[i] if i in shared else 0)))
    masks = np.flatnonzero(sums == need)
    return masks.tolist(), on_shared[masks].tolist()


def _line_fits(sums: int, need: int) -> bool:
    return need >= 0 and bool((sums >> need) & 1)


def tight_cells_first(board: Board, state: GridState) -> Iterator[Cell]:
    """Undecided cells of the lines with the fewest ways left first: where a person tries an assumption."""
    return (board.cell(i) for i in tight_order(board, state))


def tight_order(board: Board, state: GridState) -> list[int]:
    """``tight_cells_first`` as flat indices."""
    values = state.values
    order = []
    for rule in board.rules:
        need, free = open_part(board, values, rule)
        if free:
            key = ("count", need, tuple(free))
            count = board.memo.get(key)
            if count is None:
                count = board.memo[key] = count_ways([board.digits[i] for i in free], need)
            order.append((count, len(free), free))
    return list(dict.fromkeys(i for _, _, free in sorted(order, key=lambda t: (t[0], t[1])) for i in free))


LINE_RULE = (
    Technique("sum-bounds", "A digit larger than what its line still needs is crossed out; a digit without "
                            "which the line falls short is selected.", 0.5, sum_bounds, sum_bounds),
    Technique("line-ways", "List the ways a row's, column's or region's undecided digits reach what it still "
                           "needs: a digit in every way is selected, in none crossed out.", 1.0, line_ways,
              line_ways),
)
LINE_TRIALS = Trials(LINE_RULE)

CROSSING_LINES_TEXT = ("crossing-lines", "Selecting (or crossing out) a digit leaves its line, or a line crossing "
                       "it, unable to reach its target within three rounds of the line rule: it takes the other value.",
                       5.0, 3)
CHAIN_TEXT = ("chain", "Selecting (or crossing out) a digit, then following the line rule from line to crossing line "
                       "for up to six rounds, leaves some line unable to reach its target: it takes the other value.",
              10.0, 6)
LONG_CHAIN_TEXT = ("long-chain", "Selecting (or crossing out) a digit, then following the line rule however long it "
                                 "takes, leaves some line unable to reach its target: it takes the other value.",
                   15.0, 10_000)
BOTH_WAYS_TEXT = ("both-ways", "Follow a digit both ways, selected and crossed out, with the line rule: what both lead "
                               "to is certain.", 20.0)

def both_ways(board: Board, state: GridState) -> list[Step]:
    """A digit is either selected or crossed out: follow each with the line rule as far as it goes;
    what both lead to is certain. (A value that breaks a rule is the chain's job, an easier level.)"""
    for cell in tight_cells_first(board, state):
        step = both_ways_step(board, state, cell)
        if step is not None:
            return [step]
    return []


def both_ways_step(board: Board, state: GridState, cell: Cell) -> Step | None:
    """The both-ways step on ``cell``, if both its values hold and lead somewhere alike."""
    cols = state.cols
    on = LINE_TRIALS.get(board, state, cell, SELECTED, 10_000)
    off = LINE_TRIALS.get(board, state, cell, CROSSED, 10_000)
    if on.contradiction is not None or off.contradiction is not None:
        return None
    if_on, if_off = on.decided_within(10_000), off.decided_within(10_000)
    common = sorted(i for i, v in if_on.items() if state.values[i] is None and if_off.get(i) == v)
    if not common:
        return None
    decided = tuple(((i // cols, i % cols), if_on[i]) for i in common)
    what = "; ".join(f"{cell_name(c)} {VALUE_NAMES[v]}" for c, v in decided[:6])
    depth = max(max(on.when[i], off.when[i]) for i in common)
    return Step("both-ways", f"Whether {cell_name(cell)} is selected or crossed out, following the "
                             f"line rule leads to {what}.", decided, (cell,), effort=depth)


# The same look-aheads through the kernel.

class _Scratch(threading.local):
    """One thread's kernel scratch space, for the board it last worked on."""

    def __init__(self) -> None:
        self.board: Board | None = None
        self.work: tuple[np.ndarray, ...] = ()

    def of(self, board: Board) -> tuple[np.ndarray, ...]:
        if self.board is not board:
            self.board, self.work = board, kernel.scratch(board.arrays)
        return self.work


_SCRATCH = _Scratch()


def as_array(state: GridState) -> np.ndarray:
    return np.array([kernel.UNDECIDED if v is None else v for v in state.values], np.int8)


def kernel_contradiction(name: str, max_rounds: int) -> Callable[[Board, GridState], list[Step]]:
    """``by_contradiction`` with the line rule's trials, cells in ``tight_cells_first`` order."""

    def find(board: Board, state: GridState) -> list[Step]:
        order = np.array(tight_order(board, state), np.int32)
        cell, value, _ = kernel.first_contradiction(board.arrays, as_array(state), order, max_rounds,
                                                    _SCRATCH.of(board))
        if cell < 0:
            return []
        trial = LINE_TRIALS.get(board, state, board.cell(cell), value, max_rounds)
        broken = trial.broken_within(max_rounds)
        assert broken is not None, "the kernel and the reference disagree"
        return [contradiction_step(name, board.cell(cell), value, broken, VALUE_NAMES)]

    return find


def kernel_both_ways(board: Board, state: GridState) -> list[Step]:
    order = np.array(tight_order(board, state), np.int32)
    cell = kernel.first_both_ways(board.arrays, as_array(state), order, 10_000, _SCRATCH.of(board))
    if cell < 0:
        return []
    step = both_ways_step(board, state, board.cell(cell))
    assert step is not None, "the kernel and the reference disagree"
    return [step]


REGION_MEETS_LINE = Technique(
    "region-meets-line", "A region and a row or column sharing undecided cells: only the region's ways that "
                         "let the line still reach its target count.", 3.0, region_meets_line)


def solver(compiled: bool) -> HumanSolver[Board, GridState]:
    """The levels, with the look-aheads found by the kernel (``compiled``) or by the reference functions."""
    chains = []
    for name, description, weight, rounds in (CROSSING_LINES_TEXT, CHAIN_TEXT, LONG_CHAIN_TEXT):
        if compiled:
            chains.append(Technique(name, description, weight, kernel_contradiction(name, rounds)))
        else:
            chains.append(by_contradiction(name, description, weight, LINE_TRIALS, VALUE_NAMES, max_rounds=rounds,
                                           candidates=tight_cells_first))
    both = Technique(*BOTH_WAYS_TEXT, kernel_both_ways if compiled else both_ways)
    crossing_lines, chain, long_chain = chains
    return HumanSolver(
        levels=(
            Level("easy", LINE_RULE),
            Level("medium", (REGION_MEETS_LINE, crossing_lines)),
            Level("hard", (chain,)),
            Level("expert", (long_chain, both)),
        ),
        start=start,
    )


SOLVER = solver(compiled=True)
CROSSING_LINES = SOLVER.levels[1].techniques[1]


def easy_grade(board: Board) -> Grade | None:
    """The grade of a puzzle the easy level finishes, found by the kernel in one call (what ``SOLVER.grade``
    says of it: the line rule's path is the same whatever order its steps come in, and only their number
    per technique counts); None where the easy level gets stuck or sees a broken rule."""
    values = np.full(board.rows * board.cols, kernel.UNDECIDED, np.int8)
    outcome, bounds, ways_steps = kernel.line_rule_path(board.arrays, values, _SCRATCH.of(board))
    if outcome != kernel.SOLVED:
        return None
    return SOLVER.grade_steps([(0, "sum-bounds", 1.0)] * int(bounds) + [(0, "line-ways", 1.0)] * int(ways_steps),
                              True)


def warm_up() -> None:
    """Load every kernel entry point (compiling it into numba's on-disk cache the first time on this
    machine), so that no request waits for it."""
    puzzle = NumberSumsPuzzle(numbers=[[1, 2, 3], [4, 5, 6], [7, 8, 9]], row_sums=[3, 4, 16], col_sums=[12, 2, 9],
                              regions=[[0, 0, 1], [0, 1, 1], [2, 2, 2]], region_sums=[7, 0, 16])
    board = board_of(puzzle)
    with compile_lock(__name__):
        for _, technique in SOLVER.techniques():
            technique.find(board, start(board))
        SOLVER.run(board)
        easy_grade(board)


class NumberSumsState(BaseModel):
    selected: list[list[Literal[0, 1] | None]] | None = Field(
        None, description="R×C: 1 selected, 0 crossed out, null undecided (the player's grid so far); "
        "null or left out: nothing decided yet.")


DIFFICULTY = grid_difficulty(SOLVER, board_of, "selected", NumberSumsState, VALUE_NAMES, default="easy")
