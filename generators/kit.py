"""One generator for every kit genre, on the shared pipeline: a random answer, clues read off it, the solver's
second answer to repair ambiguity, until exactly one answer; then every clue the proof does not need goes.

A genre tells only how to draw an answer and which clues it can show (``ClueGenre``); the uniqueness proof is
the kit's SAT count on the genre's model. A request for a level draws puzzles until one grades at that level.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from generators.pipeline import Generated, generate, generate_at_level
from solvers.common import Deadline
from solvers.kit.human import within
from solvers.kit.rules import Model, Prover
from solvers.techniques.human import Difficulty, GridState, HumanSolver

B = TypeVar("B")  # what an answer is drawn on (a Light Up's walls): part of the puzzle, fixed before any clue
K = TypeVar("K", bound=Hashable)  # a clue the puzzle may show
Grid = list[list[int]]
MAX_BOARDS = 200  # boards drawn for one unique puzzle: a board no clue makes unique costs a few solver calls


class ClueGenre(Protocol[B, K]):
    """What a kit genre tells the generator."""

    def draw(self, params: Any, rng: random.Random) -> tuple[B, Grid]:
        """A random board and a valid answer on it."""
        ...

    def clues(self, board: B, answer: Grid) -> Sequence[K]:
        """Every clue the puzzle could show, in a fixed order (the keys its model's rules carry as ``clue``)."""
        ...

    def puzzle(self, board: B, answer: Grid, shown: frozenset[K]) -> BaseModel:
        """The puzzle showing those clues."""
        ...

    def model(self, puzzle: Any) -> Model: ...


@dataclass(frozen=True)
class Draft(Generic[B, K]):
    board: B
    answer: Grid
    shown: frozenset[K]


@dataclass
class KitSteps(Generic[B, K]):
    """The pipeline's steps for a kit genre: no clue at first (every clue when the puzzle must fit a level, as
    Tatham starts); at each repair a clue whose rule the second answer breaks; at the end every clue the proof
    does not need removed (``polish``). One prover per drawn answer answers every uniqueness question about it."""

    genre: ClueGenre[B, K]
    params: Any
    fits: Callable[[Model, frozenset[K]], bool] | None = None  # a clue may go only while the puzzle still fits its level
    _prover: Prover | None = None
    _every_clue: Model | None = None

    def prover(self, draft: Draft[B, K]) -> Prover:
        if self._prover is None or self._prover.answer is not draft.answer:
            self.close()
            every = frozenset(self.genre.clues(draft.board, draft.answer))
            self._every_clue = self.genre.model(self.genre.puzzle(draft.board, draft.answer, every))
            self._prover = Prover(self._every_clue, draft.answer)
        return self._prover

    def close(self) -> None:
        if self._prover is not None:
            self._prover.close()
            self._prover = None

    def random_solution(self, rng: random.Random) -> Draft[B, K]:
        board, answer = self.genre.draw(self.params, rng)
        return Draft(board, answer, frozenset())

    def clues(self, solution: Draft[B, K], rng: random.Random) -> Draft[B, K]:
        every = frozenset(self.genre.clues(solution.board, solution.answer))
        return Draft(solution.board, solution.answer, every if self.fits else frozenset())

    def other_solution(self, puzzle: Draft[B, K], solution: Draft[B, K], deadline: Deadline) -> Grid | None:
        return self.prover(puzzle).other(puzzle.shown, deadline)

    def repair(self, puzzle: Draft[B, K], solution: Draft[B, K], other: Grid, rng: random.Random) -> Draft[B, K] | None:
        assert self._every_clue is not None  # other_solution made it
        ruling_out = sorted({count.clue for count in self._every_clue.counts
                             if count.clue is not None and count.clue not in puzzle.shown and count.broken_by(other)},
                            key=repr)
        if not ruling_out:
            return None  # no clue tells the two answers apart: draw another board
        return Draft(puzzle.board, puzzle.answer, puzzle.shown | {rng.choice(ruling_out)})

    def polish(self, puzzle: Draft[B, K], solution: Draft[B, K], rng: random.Random, deadline: Deadline) -> Draft[B, K]:
        order = sorted(puzzle.shown, key=repr)
        rng.shuffle(order)
        prover = self.prover(puzzle)
        for clue in order:
            fewer = puzzle.shown - {clue}
            if prover.other(fewer, deadline) is None and (self.fits is None or self.fits(prover.model, fewer)):
                puzzle = Draft(puzzle.board, puzzle.answer, fewer)
        return puzzle


def make(genre: ClueGenre[Any, Any], answer_model: type[BaseModel], field: str, params: Any, seed: int,
         deadline: Deadline, fits: Callable[[Model, frozenset[Any]], bool] | None = None) -> Generated[BaseModel, BaseModel]:
    """A unique puzzle of ``genre``, deterministic for the params and the seed; with ``fits``, each clue the
    proof does not need goes only if the puzzle still fits (Tatham's way to keep a puzzle at its level)."""
    steps = KitSteps(genre, params, fits)
    try:
        made = generate(steps, seed, deadline, max_restarts=MAX_BOARDS)
    finally:
        steps.close()
    draft = made.puzzle
    return Generated(genre.puzzle(draft.board, draft.answer, draft.shown), answer_model(**{field: draft.answer}), made.stats)


def make_at_level(genre: ClueGenre[Any, Any], answer_model: type[BaseModel], field: str, difficulty: Difficulty,
                  people: HumanSolver[Model, GridState], params: Any, seed: int,
                  deadline: Deadline) -> Generated[BaseModel, BaseModel]:
    """A unique puzzle of the level ``params.difficulty`` asks for: clues are removed while the techniques of that
    level still solve it, and a draw harder or easier than the level is drawn again."""
    level = params.difficulty
    top = level == people.level_names[-1]

    def fits(model: Model, shown: frozenset[Any]) -> bool:
        return within(people, model, level, shown)

    return generate_at_level(lambda draw_seed, budget: make(genre, answer_model, field, params, draw_seed, budget,
                                                            None if top else fits),
                             difficulty.grade, level, seed, deadline)
