"""Kakuro generation through the genre kit: a black-and-white pattern drawn with rotational symmetry (runs 2 to
5 cells at easy, 6 at medium; the white cells in one piece, no 3×3 white square), then digits chosen run by run
as a person meets the runs, and the runs' sums as the clues. A Kakuro shows every sum, so the kit's generator
hides none: the fill is repaired instead, digit by digit, until the level's reading of the runs decides every
cell (so the puzzle has one answer), and drawn again when repairs do not get there.

Levels: easy reads each run alone by the digits placed in it (its digit sets, ``Sum.placed_only``), a cell
holding the one digit its two runs leave it; medium reads a run with what its cells may still hold (the run
analysis, ``solvers.kit.sums.RUNS``); hard needs trials, and is graded but not generated. Sizes 5 to 14.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from operator import or_

import numpy as np
from pydantic import model_validator

from generators.kit import make
from generators.params import rectangle_params, refuse_unmade
from generators.pipeline import Generated, generate_at_level
from generators.spec import PuzzleType
from solvers.common import Cell, Deadline
from solvers.kakuro import picture, puzzlink
from solvers.kakuro.rules import KakuroAnswer, KakuroPuzzle, model, runs_of
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit import sums_kernel
from solvers.kit.sums import RUNS
from solvers.kit.sums_kernel import FULL
from solvers.techniques.human import Grade, HumanSolver, Level, Trials

MIN_SIDE, MAX_SIDE, DEFAULT_SIDE = 5, 14, 8
BLACK_SHARE = 0.25  # the share of cells drawn black before runs too short or too long are fixed
MIN_WHITE = 0.5  # a pattern keeps at least this share of white cells
LONGEST = {"easy": 5, "medium": 6}  # the longest run drawn per level: long runs have many digit sets
BLOCK = 3  # no BLOCK×BLOCK square of white cells: wide open areas are what leaves sums ambiguous
OPTIONS = 8  # ways to fill a run's free cells weighed when it is chosen
REPAIRS = 40  # digit changes tried on one fill before another is drawn
HOPELESS = 0.45  # a built fill leaving this share of its white cells open is drawn again, not repaired
WEIGHED = 2  # cells whose best digit each repair weighs, keeping the one that leaves the fewest cells open
MADE = ("easy", "medium")  # the levels generated; hard is graded (a puzzle needing trials) but not made
PEOPLE = HumanSolver((
    Level("easy", (kit_human.RULE,)),
    Level("medium", (RUNS,)),
    Level("hard", (kit_human._trial("trial", "Assume a digit in a cell and follow the runs as far as they go: a broken "
                                    "run rules it out.", 20.0, Trials([kit_human.RULE, RUNS]), 10_000),)),
), kit_human.start)
DIFFICULTY = kit_human.difficulty(PEOPLE, model, kit.Digits("digits", 1, 1, 9),
                                  "R×C digits 1..9, 0 or null for an empty cell or a black one")
Pattern = tuple[tuple[int, ...], ...]
Answer = dict[str, list[list[int]]]
BITS = np.array([m.bit_count() for m in range(1 << 10)], np.int64)  # how many digits a mask allows

_Shape = rectangle_params("_Shape", __name__, MIN_SIDE, MAX_SIDE, DEFAULT_SIDE, DIFFICULTY)


class KakuroParams(_Shape):  # type: ignore[valid-type,misc]
    @model_validator(mode="after")
    def _made(self) -> KakuroParams:
        refuse_unmade(self.difficulty, MADE, "a fill repaired to one answer lands at medium")
        return self


def _runs(black: list[list[int]] | Pattern) -> list[tuple[Cell, ...]]:
    return [cells for _, cells in runs_of(black)]


def _largest_piece(black: list[list[int]]) -> set[Cell]:
    """The largest set of white cells joined side by side (empty when every cell is black)."""
    white = {(r, c) for r, row in enumerate(black) for c, v in enumerate(row) if not v}
    largest: set[Cell] = set()
    while white:
        piece, todo = set(), [white.pop()]
        while todo:
            r, c = todo.pop()
            piece.add((r, c))
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in white:
                    white.remove(n)
                    todo.append(n)
        largest = max(largest, piece, key=len)
    return largest


def _alone_after(black: list[list[int]], cells: list[Cell]) -> int:
    """How many white cells beside ``cells`` would be alone in their row or column were ``cells`` black: each
    such cell goes black in turn, so the fewer the better."""
    rows, cols = len(black), len(black[0])
    saved = [black[r][c] for r, c in cells]
    for r, c in cells:
        black[r][c] = 1

    alone = 0
    for r, c in {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))}:
        if 0 <= r < rows and 0 <= c < cols and not black[r][c]:
            row = black[r]
            alone += ((c == 0 or row[c - 1]) and (c == cols - 1 or row[c + 1])) \
                + ((r == 0 or black[r - 1][c]) and (r == rows - 1 or black[r + 1][c]))
    for (r, c), v in zip(cells, saved, strict=True):
        black[r][c] = v
    return alone


def _band(black: list[list[int]], r: int) -> list[int]:
    """Per column, 1 where any of the ``BLOCK`` rows from ``r`` is black there."""
    band = black[r]
    for row in black[r + 1:r + BLOCK]:
        band = list(map(or_, band, row))
    return band


def draw_pattern(rows: int, cols: int, rng: random.Random, longest: int = 9) -> Pattern:
    """Black cells with rotational symmetry; a white BLOCK×BLOCK square gets a black cell, a white cell alone in
    its row or column goes black, a run longer than ``longest`` gets a black cell inside; white cells apart from
    the largest piece go black (the pieces mirror each other, so the pattern stays symmetric, and no other run
    changes); drawn again until that piece is at least ``MIN_WHITE`` of the board and its own mirror (given up at
    the end of a round of fixes that leaves the largest piece under that share). Where a
    black cell may go, it goes where it leaves the fewest white cells alone (a long run is cut leaving two cells
    or more each side), so that few cells go black and a draw is rarely thrown away."""
    enough = MIN_WHITE * rows * cols
    while True:
        black = [[0] * cols for _ in range(rows)]

        def mirror(r: int, c: int) -> list[Cell]:
            return [(r, c), (rows - 1 - r, cols - 1 - c)]

        painted: set[Cell] = set()  # since the runs were last read

        def paint(r: int, c: int, black: list[list[int]] = black, painted: set[Cell] = painted) -> None:
            black[r][c] = black[rows - 1 - r][cols - 1 - c] = 1
            painted.update(mirror(r, c))

        def paint_best(cells: list[Cell], black: list[list[int]] = black) -> None:
            paint(*min(cells, key=lambda cell: (_alone_after(black, mirror(*cell)), rng.random())))

        for r in range(rows):
            for c in range(cols):
                if (r, c) <= (rows - 1 - r, cols - 1 - c) and rng.random() < BLACK_SHARE:
                    paint(r, c)
        changed = True
        while changed:
            changed = False
            for r in range(rows - BLOCK + 1):
                band = _band(black, r)
                for c in range(cols - BLOCK + 1):
                    if not any(band[c:c + BLOCK]):
                        paint_best([(r + i, c + j) for i in range(BLOCK) for j in range(BLOCK)])
                        changed = True
                        band = _band(black, r)
            painted.clear()
            for run in _runs(black):
                if painted.intersection(run):
                    continue  # a cell painted since the runs were read: read again
                if len(run) == 1:
                    paint(*run[0])
                    changed = True
                elif len(run) > longest:
                    cut = 2 if len(run) >= 5 else 1
                    paint_best(list(run[cut:len(run) - cut]))
                    changed = True
            if changed and len(_largest_piece(black)) < enough:
                break  # painting only shrinks the white pieces: this draw can no longer keep enough white
        else:
            piece = _largest_piece(black)
            if piece and (rows - 1 - min(piece)[0], cols - 1 - min(piece)[1]) in piece and len(piece) >= enough:
                return tuple(tuple(int((r, c) not in piece) for c in range(cols)) for r in range(rows))


def fill(pattern: Pattern, rng: random.Random) -> list[list[int]] | None:
    """Random digits, different within each run (a depth-first search, a few thousand steps at most)."""
    rows, cols = len(pattern), len(pattern[0])
    runs_at: dict[Cell, list[tuple[Cell, ...]]] = {}
    for run in _runs(pattern):
        for cell in run:
            runs_at.setdefault(cell, []).append(run)
    order = sorted(runs_at)
    digits = [[0] * cols for _ in range(rows)]
    choices: list[list[int]] = []
    k = steps = 0
    while k < len(order):
        steps += 1
        if steps > 5000 or k < 0:
            return None
        r, c = order[k]
        if len(choices) <= k:
            used = {digits[a][b] for run in runs_at[(r, c)] for a, b in run}
            choices.append(rng.sample([d for d in range(1, 10) if d not in used], 9 - len(used - {0})))
        digits[r][c] = 0
        if choices[k]:
            digits[r][c] = choices[k].pop()
            k += 1
        else:
            choices.pop()
            k -= 1
    return digits


def puzzle_of(pattern: Pattern, digits: list[list[int]]) -> KakuroPuzzle:
    """The puzzle whose sums are the runs' totals in ``digits``."""
    rows, cols = len(pattern), len(pattern[0])
    across: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    down: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    left: list[int | None] = [None] * rows
    top: list[int | None] = [None] * cols
    for direction, run in runs_of(pattern):
        (r, c), total = run[0], sum(digits[a][b] for a, b in run)
        if direction == "across" and c == 0:
            left[r] = total
        elif direction == "across":
            across[r][c - 1] = total
        elif r == 0:
            top[c] = total
        else:
            down[r - 1][c] = total
    return KakuroPuzzle(rows=rows, cols=cols, black=[list(row) for row in pattern], across=across, down=down,
                        left=left, top=top)


class Runs:
    """A pattern's runs on bit masks, for the generator's many level checks: each white cell's possible digits as
    bits, each run read as ``solvers.kit.sums.supports`` reads it (compiled: ``solvers.kit.sums_kernel``) until
    nothing changes. It decides what the kit's levels decide on the model (easy: a run by its placed digits, and a
    cell left one digit holds it; medium: the run analysis; ``tests/puzzles/test_kakuro.py`` compares them), in
    microseconds. A total below 0 is none."""

    def __init__(self, pattern: Pattern):
        self.runs = _runs(pattern)
        self.cells = sorted({cell for run in self.runs for cell in run})
        self.at = {cell: i for i, cell in enumerate(self.cells)}
        self.members = [[self.at[cell] for cell in run] for run in self.runs]
        self.of: list[list[int]] = [[] for _ in self.cells]
        for k, members in enumerate(self.members):
            for i in members:
                self.of[i].append(k)
        self.flat = np.array([i for members in self.members for i in members], np.int64)
        self.starts = np.cumsum([0, *map(len, self.members)], dtype=np.int64)
        self.lines_at = np.array([k for of in self.of for k in of], np.int64)
        self.lines_from = np.cumsum([0, *map(len, self.of)], dtype=np.int64)
        self.every = np.arange(len(self.runs), dtype=np.int64)
        self.scratch = sums_kernel.scratch()

    def follow(self, totals: np.ndarray, masks: np.ndarray, looking: np.ndarray, deeper: bool) -> None:
        """Read the runs ``looking`` (those with a total) until nothing changes: by the digits placed in them, or
        ``deeper``, by what their cells may still hold."""
        read = sums_kernel.read(self.flat, self.starts, self.lines_at, self.lines_from, totals, masks, looking,
                                not deeper, *self.scratch)
        assert read, "the answer's own sums always have a filling"

    def totals(self, digits: list[list[int]]) -> np.ndarray:
        return np.array([sum(digits[r][c] for r, c in run) for run in self.runs], np.int64)

    def open(self, totals: np.ndarray, deeper: bool) -> list[int]:
        """The cells (by index) the runs with these totals, read alone, leave more than one digit; [] when they
        solve the puzzle."""
        masks = np.full(len(self.cells), FULL, np.int64)
        self.follow(totals, masks, self.every, deeper)
        return np.flatnonzero(masks & (masks - 1)).tolist()

    def change(self, digits: list[list[int]], totals: np.ndarray, i: int, d: int) -> None:
        """Cell ``i`` takes ``d``, its runs' totals following."""
        r, c = self.cells[i]
        totals[self.of[i]] += d - digits[r][c]
        digits[r][c] = d

    def digit(self, digits: list[list[int]], i: int) -> int:
        return digits[self.cells[i][0]][self.cells[i][1]]

    def free_digits(self, digits: list[list[int]], i: int, trial: dict[int, int]) -> list[int]:
        """The digits cell ``i`` may take, its runs' other cells as ``digits`` with ``trial`` over them."""
        used = {trial.get(j, self.digit(digits, j)) for k in self.of[i] for j in self.members[k] if j != i}
        return [d for d in range(1, 10) if d not in used]


def build(runs: Runs, digits: list[list[int]], rng: random.Random, ways: int, deeper: bool) -> None:
    """Choose ``digits`` run by run as a person meets the runs: next the run whose cells may hold the fewest digits,
    its cells no shown run holds filled low, high or at random (``ways`` ways), keeping the way after which the
    shown runs leave the fewest possible digits."""
    totals = np.full(len(runs.runs), -1, np.int64)
    masks = np.full(len(runs.cells), FULL, np.int64)
    while (totals < 0).any():
        k = min((k for k, total in enumerate(totals) if total < 0),
                key=lambda k: BITS[masks[runs.members[k]]].sum() / len(runs.members[k]) + rng.random())
        free = [i for i in runs.members[k] if all(totals[j] < 0 for j in runs.of[i] if j != k)]
        best: tuple[int, dict[int, int], np.ndarray] | None = None
        for way in range(ways):
            lean, trial = (-1, 1, 0)[way % 3], {}
            for i in free:
                options = runs.free_digits(digits, i, trial)
                if not options:
                    break
                trial[i] = min(options, key=lambda d: lean * d + rng.random() * (0.5 if lean else 9))
            else:
                totals[k] = sum(trial.get(i, runs.digit(digits, i)) for i in runs.members[k])
                after = masks.copy()
                runs.follow(totals, after, np.array([k]), deeper)
                left = int(BITS[after].sum())
                if best is None or left < best[0]:
                    best = (left, trial, after)
        if best is None:
            totals[k] = sum(runs.digit(digits, i) for i in runs.members[k])
            runs.follow(totals, masks, np.array([k]), deeper)
            continue
        for i, d in best[1].items():
            digits[runs.cells[i][0]][runs.cells[i][1]] = d
        totals[k] = sum(runs.digit(digits, i) for i in runs.members[k])
        masks = best[2]


def _best_change(runs: Runs, digits: list[list[int]], totals: np.ndarray, i: int, rng: random.Random,
                 deeper: bool) -> tuple[list[int], int]:
    """The digit for cell ``i`` (of those its runs leave it) after which the runs alone leave the fewest cells
    open, and those cells; ``digits`` and ``totals`` are as they were on return."""
    was = runs.digit(digits, i)
    best: tuple[list[int], int] | None = None
    options = runs.free_digits(digits, i, {})  # the digit it holds is one of them
    for d in rng.sample(options, len(options)):
        runs.change(digits, totals, i, d)
        left = runs.open(totals, deeper)
        runs.change(digits, totals, i, was)
        if best is None or len(left) < len(best[0]) or len(left) == len(best[0]) and rng.random() < 0.5:
            best = (left, d)
    assert best is not None
    return best


class KakuroGenre:
    """What the kit's generator needs: a pattern and a fill that the level's deductions solve. The runs' sums are
    always shown: no clue is for the generator to hide."""

    def __init__(self, level: str, deadline: Deadline):
        self.level, self.deadline = level, deadline

    def draw(self, params: KakuroParams, rng: random.Random) -> tuple[Pattern, Answer]:
        rows, cols = params.shape()
        while True:
            self.deadline.check()
            pattern = draw_pattern(rows, cols, rng, LONGEST[self.level])
            digits = fill(pattern, rng)
            if digits is not None and self.repaired(Runs(pattern), pattern, digits, rng):
                return pattern, {"digits": digits}

    def repaired(self, runs: Runs, pattern: Pattern, digits: list[list[int]], rng: random.Random) -> bool:
        """Build the fill, then change digits until the level's reading of the runs solves it (easy: by their
        placed digits; medium: by what their cells may hold, and not by their placed digits alone). A puzzle the
        level's deductions solve has one answer. False when the draw lands below the level, the built fill leaves
        more than ``HOPELESS`` of its cells open (such fills almost never repair), or ``REPAIRS`` changes do not
        get there."""
        deeper = self.level != "easy"
        build(runs, digits, rng, OPTIONS, deeper)
        totals = runs.totals(digits)
        open_cells = runs.open(totals, deeper)
        if len(open_cells) > HOPELESS * len(runs.cells):
            return False
        for _ in range(REPAIRS):
            self.deadline.check()
            if not open_cells:
                return not deeper or bool(runs.open(totals, False))
            shut = set(range(len(runs.cells))) - set(open_cells)
            edge = [i for i in open_cells if any(j in shut for k in runs.of[i] for j in runs.members[k])]
            near = edge or open_cells
            weighed = rng.sample(near, min(WEIGHED, len(near)))
            open_cells, d, i = min(((*_best_change(runs, digits, totals, i, rng, deeper), i) for i in weighed),
                                   key=lambda change: len(change[0]))
            runs.change(digits, totals, i, d)
        return False

    def clues(self, pattern: Pattern, answer: Answer) -> list[Cell]:
        return []

    def puzzle(self, pattern: Pattern, answer: Answer, shown: frozenset[Cell]) -> KakuroPuzzle:
        return puzzle_of(pattern, answer["digits"])

    def model(self, puzzle: KakuroPuzzle) -> kit.Model:
        return model(puzzle)


def _drawn(built: kit.Model, shown: frozenset[Hashable]) -> bool:
    """The draw itself solved the puzzle at its level or proved it unique (``KakuroGenre.draw``)."""
    return True


def level_of(puzzle: KakuroPuzzle) -> str:
    """The level on arrays (``Runs``): the runs read by their placed digits, then by what their cells may hold."""
    runs = Runs(tuple(map(tuple, puzzle.black)))
    totals = np.array([-1 if total is None else total for _, _, total in puzzle.runs()], np.int64)
    for level, deeper in (("easy", False), ("medium", True)):
        masks = np.full(len(runs.cells), FULL, np.int64)
        runs.follow(totals, masks, runs.every, deeper)
        if not (masks & (masks - 1)).any():
            return level
    return "hard"


def generate_puzzle(params: KakuroParams, seed: int, deadline: Deadline) -> Generated:
    """A pattern and fill repaired toward the level; a draw the arrays place off it is drawn again, and one at it
    is graded by a person's techniques (which agree)."""
    level = params.difficulty

    def grade(puzzle: KakuroPuzzle, budget: Deadline) -> Grade:
        found = level_of(puzzle)
        return DIFFICULTY.grade(puzzle, budget) if found == level else Grade(found, 0.0, 0, None)

    return generate_at_level(lambda draw_seed, budget: make(KakuroGenre(level, budget), KakuroAnswer, params, draw_seed,
                                                            budget, _drawn),
                             grade, level, seed, deadline)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="kakuro",
    id_prefix="kak",
    summary="Write a digit 1..9 in every white cell: each run of white cells holds different digits adding up to "
            "the sum in the clue cell before it.",
    params_model=KakuroParams,
    puzzle_model=KakuroPuzzle,
    answer_model=KakuroAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 24 to solve"},
    difficulty=DIFFICULTY,
    play_mode="digits",
    model=model,
    warm_up=sums_kernel.warm_up,
)
