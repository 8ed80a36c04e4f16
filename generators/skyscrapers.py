"""Skyscrapers generation through the genre kit: a random Latin square, and its 4N edge clues as the clues the
kit's generator shows or hides (Tatham's Towers shows them all at Easy and removes them above).

Sizes 4 to 9 (Tatham's presets are 4 to 6, his generator takes 3 to 9); levels as in ``LEVELS``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from generators.kit import Check, Proves, make_read_by_groups
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Deadline
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.arrays import fast
from solvers.kit.known import Known
from solvers.kit.latin import latin_square
from solvers.kit.seen import LINE_ANALYSIS, LINES, Seen, analysed, towers_seen
from solvers.skyscrapers import kernel, picture, puzzlink, tatham
from solvers.skyscrapers.rules import SIDES, SkyscrapersAnswer, SkyscrapersPuzzle, model
from solvers.techniques.human import Grade

MIN_SIDE, MAX_SIDE, DEFAULT_SIDE = 4, 9, 6
LEVELS = ("easy", "medium", "hard", "expert")
TOP_LEVEL = {4: "hard"}  # the hardest level made at each size (else expert)
SEARCH_NODES = 5_000  # the search's nodes before the kit's prover takes over, far more than a proof at 6×6 takes
CHAIN = 3  # rounds a hard trial is followed: enough for nine in ten of Tatham's Extreme puzzles, one in ten of his Unreasonable
# Tatham's four levels, one each: Easy reads a clue's line by its placed towers (``placed_only``), Hard by what its
# cells may still hold (the line analysis), Extreme needs short chains of deductions, Unreasonable long ones.
PEOPLE = kit_human.group_levels(LEVELS, LINES, CHAIN, "height")
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, kit.Digits("digits", 1, 1, 9),
                                       "N×N heights 1..N, 0 or null for an empty cell"), PEOPLE, model, analysed, CHAIN)
Clue = tuple[str, int]  # (side, index) a clue outside; ("given", r * N + c) a digit inside
Answer = dict[str, list[list[int]]]


class SkyscrapersParams(BaseModel):
    size: int = Field(DEFAULT_SIDE, ge=MIN_SIDE, le=MAX_SIDE, description="N: the grid is N×N, towers 1..N.")
    difficulty: Literal["easy", "medium", "hard", "expert"] = Field(
        DIFFICULTY.default, description="What a person needs (see the type's `difficulties`): every level at sizes 5 "
        "to 9 (Tatham's 5 and 6), easy to hard at 4.")

    @model_validator(mode="after")
    def _made(self) -> SkyscrapersParams:
        top = TOP_LEVEL.get(self.size, "expert")
        if LEVELS.index(self.difficulty) > LEVELS.index(top):
            raise ValueError(f"difficulty {self.difficulty!r} is not made at size {self.size} (no 4×4 drawn needs "
                             f"more): up to {top}")
        return self


@dataclass(frozen=True)
class Board:
    """What a puzzle is drawn on: its size and the N cells that may show their digit. All 4N clues leave a Latin
    square ambiguous often enough that Tatham's generator shows digits too; a few cells drawn at random keep
    the clues outside the grid the puzzle's main matter."""

    size: int
    may_show: frozenset[int]  # cells r * N + c


class SkyscrapersGenre:
    """What the kit's generator needs: a Latin square, and the towers seen from each side and a few digits inside
    as the clues. ``every_side``: every clue outside is shown and any digit may be (Tatham's Easy)."""

    def __init__(self, every_side: bool = False):
        self.every_side = every_side

    def draw(self, params: SkyscrapersParams, rng: random.Random) -> tuple[Board, Answer]:
        n = params.size
        shows = n * n if self.every_side else n * n // 4
        return Board(n, frozenset(rng.sample(range(n * n), shows))), {"digits": latin_square(n, rng)}

    def clues(self, board: Board, answer: Answer) -> list[Clue]:
        """The clues outside (unless all are shown), then the board's cells that may show their digit."""
        sides = [] if self.every_side else [(side, i) for side in SIDES for i in range(board.size)]
        return sides + [("given", i) for i in sorted(board.may_show)]

    def prover(self, model: kit.Model, answer: Answer) -> Proves:
        return SearchProver(model, answer)

    def puzzle(self, board: Board, answer: Answer, shown: frozenset[Clue]) -> SkyscrapersPuzzle:
        n, grid = board.size, answer["digits"]
        lines = {"top": lambda i: [grid[r][i] for r in range(n)], "bottom": lambda i: [grid[r][i] for r in range(n)][::-1],
                 "left": lambda i: grid[i], "right": lambda i: grid[i][::-1]}
        clues: dict[str, Any] = {side: [towers_seen(lines[side](i)) if self.every_side or (side, i) in shown else None
                                        for i in range(n)] for side in SIDES}
        givens = [[grid[r][c] if ("given", r * n + c) in shown else None for c in range(n)] for r in range(n)]
        return SkyscrapersPuzzle(size=n, givens=givens, **clues)

    def model(self, puzzle: SkyscrapersPuzzle) -> kit.Model:
        return model(puzzle, hidden_sides=not self.every_side)




@dataclass(frozen=True)
class Clued:
    """A model's clues as ``solvers.skyscrapers.kernel`` reads them: each clue's line (its cells r * N + c, nearest
    first) and count, each given digit's cell and height as a bit, and the clue of each (None: always shown)."""

    size: int
    lines: np.ndarray
    counts: np.ndarray
    line_clues: tuple[Hashable | None, ...]
    cells: np.ndarray
    bits: np.ndarray
    given_clues: tuple[Hashable | None, ...]
    known: Known  # each cell's height as a bit, once the hard level has solved the model showing some clues

    @classmethod
    def of(cls, model: kit.Model) -> Clued:
        n = model.layout.digits  # type: ignore[attr-defined]
        seen = [rule for rule in model.rules if isinstance(rule, Seen)]
        givens = [rule for rule in model.rules if rule.given]
        return cls(n, np.array([[r * n + c for r, c in rule.line] for rule in seen], np.int64).reshape(len(seen), n),
                   np.array([rule.count for rule in seen], np.int64), tuple(rule.clue for rule in seen),
                   np.array([r * n + c for rule in givens for r, c, _ in rule.cells], np.int64),
                   np.array([2 << (d - 1) for rule in givens for _, _, d in rule.cells], np.int64),
                   tuple(rule.clue for rule in givens), Known(n * n, 0))

    def shown(self, shown: frozenset[Hashable] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The lines and counts of the clues shown (every clue when None), and each cell's possible heights (bits)
        with the digits shown placed."""
        n = self.size
        masks = np.full(n * n, (2 << n) - 2, np.int64)
        given = np.array([kit.shows(clue, shown) for clue in self.given_clues], np.bool_)
        masks[self.cells[given]] = self.bits[given]
        lines = np.array([kit.shows(clue, shown) for clue in self.line_clues], np.bool_)
        return self.lines[lines], self.counts[lines], masks

    def follow(self, shown: frozenset[Hashable] | None, candidates: bool) -> np.ndarray | None:
        """Each cell's possible heights (bits) once the Latin rules and the lines shown, read by their placed
        heights or with ``candidates``, change nothing, on the puzzle showing ``shown`` (every clue when None);
        None when a rule breaks."""
        lines, counts, masks = self.shown(shown)
        return masks if kernel.follow(self.size, lines, counts, masks, candidates) else None

    def solves(self, shown: frozenset[Hashable] | None, candidates: bool) -> bool:
        masks = self.follow(shown, candidates)
        return masks is not None and not (masks & (masks - 1)).any()

    def solves_by_trials(self, shown: frozenset[Hashable] | None, most: int) -> bool:
        """Whether the hard level solves the puzzle showing ``shown``: the rules and lines, then trials followed
        ``most`` rounds (``kernel.trials``, the kit's array check of ``group_checks`` compiled), told the answer
        once they have found it (``Known``)."""
        n = self.size
        one, zero = np.zeros(n * n, np.int64), np.zeros(n * n, np.int64)
        given = np.array([kit.shows(clue, shown) for clue in self.given_clues], np.bool_)
        one[self.cells[given]] = self.bits[given]
        lines = np.array([kit.shows(clue, shown) for clue in self.line_clues], np.bool_)
        if not kernel.trials(n, self.lines[lines], self.counts[lines], one, zero, most, self.known.on(shown)):
            return False
        self.known.learn(shown, one)
        return True

    def path(self) -> tuple[int, np.ndarray]:
        """A person's path through every level on the puzzle, every clue shown: whether it solves it (1), stops (0)
        or finds a rule broken (-1), and its steps and effort by technique (``kernel.graded``)."""
        one, zero = np.zeros(self.size ** 2, np.int64), np.zeros(self.size ** 2, np.int64)
        one[self.cells] = self.bits
        return kernel.graded(self.size, self.lines, self.counts, one, zero, CHAIN)


class SearchProver:
    """The generator's proof of uniqueness by ``kernel.other``'s search, which settles a 6×6 in well under a
    millisecond where the kit's SAT prover first spends tens of milliseconds encoding the lines; past
    ``SEARCH_NODES`` nodes it hands the question to the kit's ``Prover``."""

    def __init__(self, model: kit.Model, answer: Answer):
        self.model, self.answer, self.clued = model, answer, clued_of(model)
        self.heights = np.array(answer["digits"], np.int64).reshape(-1)
        self._fallback: kit.Prover | None = None

    def other(self, shown: Iterable[Hashable], deadline: Deadline) -> Answer | None:
        shown, clued, n = frozenset(shown), self.clued, self.clued.size
        out = np.zeros(n * n, np.int64)
        found = kernel.other(n, *clued.shown(shown), self.heights, SEARCH_NODES, out)
        if found < 0:
            if self._fallback is None:
                self._fallback = kit.Prover(self.model, self.answer)
            return self._fallback.other(shown, deadline)
        return {"digits": out.reshape(n, n).tolist()} if found else None

    def close(self) -> None:
        if self._fallback is not None:
            self._fallback.close()


@kit.for_the_last_model
def clued_of(model: kit.Model) -> Clued:
    """``Clued.of(model)``, kept for the last model asked about (the generator's checks and its prover ask about one
    model at a time)."""
    return Clued.of(model)


def compiled_check(level: int) -> Check:
    """The easy (the lines read by their placed heights), medium (the line analysis) or hard (trials of ``CHAIN``
    rounds) level's check, compiled: what ``generators.kit.group_checks`` answers on the model (``clued_of``)."""

    def fits(model: kit.Model, shown: frozenset[Hashable] | None) -> bool:
        clued = clued_of(model)
        return clued.solves_by_trials(shown, CHAIN) if level == 2 else clued.solves(shown, level == 1)

    return fits


CHECKS = (compiled_check(0), compiled_check(1), compiled_check(2))


# The techniques' numbers in ``PEOPLE.techniques()`` order, by the kernel's (``kernel.RULE`` ... ``LINE_ANALYSIS``).
KERNEL_TECHNIQUES = [[t.name for _, t in PEOPLE.techniques()].index(name)
                     for name in ("rule", "short trial", "trial", LINE_ANALYSIS)]


def graded(puzzle: SkyscrapersPuzzle, deadline: Deadline) -> Grade:
    """``DIFFICULTY``'s grade, its path taken compiled (``Clued.path``): the generator grades every draw it keeps. A
    puzzle whose rules break (no answer) takes the techniques' path, which counts the steps of the round that
    breaks."""
    solved, tally = Clued.of(model(puzzle)).path()
    if solved < 0:
        return DIFFICULTY.grade(puzzle, deadline)
    return PEOPLE.grade_tallied([(KERNEL_TECHNIQUES[t], int(count), float(effort)) for t, (count, effort) in
                                 enumerate(tally)], solved == 1)


def generate_puzzle(params: SkyscrapersParams, seed: int, deadline: Deadline) -> Generated:
    """The prover goes first only before the hard level's trials: the lines read alone cost less than a proof."""
    easy = params.difficulty == "easy"
    return make_read_by_groups(SkyscrapersGenre(easy), SkyscrapersAnswer, replace(DIFFICULTY, grade=graded), model,
                               analysed, CHAIN, params, seed, deadline, params.difficulty == "hard", checks=CHECKS)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="skyscrapers",
    id_prefix="sky",
    summary="Fill the grid with towers 1..N, each once per row and column; each clue outside counts the towers "
            "seen from there, taller ones hiding lower ones behind them.",
    params_model=SkyscrapersParams,
    puzzle_model=SkyscrapersPuzzle,
    answer_model=SkyscrapersAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="towers",
    tatham_presets=tuple(TathamPreset(preset, "ehxu".index(preset[-1]), {"size": int(preset[0]), "difficulty": level})
                   for preset, level in (("4de", "easy"), ("5de", "easy"), ("5dh", "medium"), ("6de", "easy"),
                                         ("6dh", "medium"), ("6dx", "hard"), ("6du", "expert"))),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} to generate; up to 16 to solve"},
    difficulty=DIFFICULTY,
    play_mode="digits",
    model=model,
    warm_up=kernel.warm_up,
)
