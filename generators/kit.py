"""One generator for every kit genre, on the shared pipeline: a random answer, clues read off it, the solver's
second answer to repair ambiguity, until exactly one answer; then every clue the proof does not need goes.

A genre tells only how to draw an answer and which clues it can show (``ClueGenre``); the uniqueness proof is
the kit's SAT count on the genre's model (or the genre's own search, ``prover``). A request for a level draws
puzzles until one grades at that level.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from generators.pipeline import Adjust, Generated, GenerationFailed, generate, generate_at_level
from solvers.common import Deadline
from solvers.kit.arrays import Levels, solves, within
from solvers.kit.rules import Model, Prover, Read, Sieve
from solvers.techniques.human import Difficulty, Grade, GridState, HumanSolver

B = TypeVar("B")  # what an answer is drawn on (a Light Up's walls): part of the puzzle, fixed before any clue
K = TypeVar("K", bound=Hashable)  # a clue the puzzle may show
Answer = dict[str, Any]  # an answer's fields, as the genre's answer model takes them
MAX_BOARDS = 200  # boards drawn for one unique puzzle: a board no clue makes unique costs a few solver calls
MENDS = 8  # a genre's mends of one drawn board before it is drawn again


class ClueGenre(Protocol[B, K]):
    """What a kit genre tells the generator."""

    def draw(self, params: Any, rng: random.Random) -> tuple[B, Answer]:
        """A random board and a valid answer on it (the answer's fields)."""
        ...

    def clues(self, board: B, answer: Answer) -> Sequence[K]:
        """Every clue the puzzle could show, in a fixed order (the keys its model's rules carry as ``clue``)."""
        ...

    def puzzle(self, board: B, answer: Answer, shown: frozenset[K]) -> BaseModel:
        """The puzzle showing those clues."""
        ...

    def model(self, puzzle: Any) -> Model: ...

    # Optional: ``together(board, answer) -> Sequence[Sequence[K]]``, groups of clues the polish tries to take away
    # at once before one at a time (Tatham's Filling takes a whole region's numbers first); ``prover(model, answer)
    # -> Proves``, the genre's own proof of uniqueness where the kit's SAT ``Prover`` is slow for it; ``mend(params,
    # board, answer, other, rng) -> B | None``, the board changed so that ``other`` (a second answer of it, every
    # clue shown) breaks it, for a genre whose every clue is shown and whose boards are rarely unique as drawn.


class Proves(Protocol):
    """What the generator asks of a proof of uniqueness (``solvers.kit.rules.Prover`` is the kit's)."""

    answer: Answer

    def other(self, shown: Iterable[Hashable], deadline: Deadline) -> Answer | None:
        """An answer other than ``answer`` under the ``shown`` clues, or None when it is the only one."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Draft(Generic[B, K]):
    board: B
    answer: Answer
    shown: frozenset[K]


@dataclass
class KitSteps(Generic[B, K]):
    """The pipeline's steps for a kit genre, in one of two ways:

    - toward a level below the top (``fits``): a person's deductions are sound, so a puzzle they solve has one
      answer and no solver is asked. A board is drawn until, with every clue shown, the level solves it; then
      each clue, in random order, goes if the level still solves the puzzle without it (Tatham's way).
    - otherwise: a board is drawn until every clue shown makes its answer the only one (Tatham's way too: on a
      board no clue can settle, the repairs would only find that out one clue at a time); then no clue at first;
      at each repair a clue whose rule the second answer breaks; at the end every clue the proof does not need
      goes, each proof on one incremental prover per drawn answer."""

    genre: ClueGenre[B, K]
    params: Any
    deadline: Deadline
    fits: Callable[[Model, frozenset[K]], bool] | None = None
    prove_first: bool = False  # with ``fits``: ask the prover before the (dearer) level check whether a clue may go
    boards: int = 0
    _prover: Proves | None = None
    _every_clue: Model | None = None
    _every_for: Answer | None = None  # the answer ``_every_clue`` was built for
    _sieve: Sieve = field(default_factory=Sieve)

    def every_clue(self, board: B, answer: Answer) -> tuple[frozenset[K], Model]:
        """Every clue the board can show and the model showing them all, built once per drawn answer."""
        every = frozenset(self.genre.clues(board, answer))
        if self._every_clue is None or self._every_for is not answer:
            self._every_clue, self._every_for = self.genre.model(self.genre.puzzle(board, answer, every)), answer
        return every, self._every_clue

    @property
    def genre_prover(self) -> bool:
        return hasattr(self.genre, "prover")

    def prover(self, draft: Draft[B, K]) -> Proves:
        if self._prover is None or self._prover.answer is not draft.answer:
            if self._prover is not None:
                self._prover.close()
                self._prover = None
            _, model = self.every_clue(draft.board, draft.answer)
            self._prover = getattr(self.genre, "prover", Prover)(model, draft.answer)
        return self._prover

    def close(self) -> None:
        self._sieve.close()
        if self._prover is not None:
            self._prover.close()
            self._prover = None

    def random_solution(self, rng: random.Random) -> Draft[B, K]:
        for _ in range(MAX_BOARDS):
            board, answer = self.genre.draw(self.params, rng)
            self.boards += 1
            every, model = self.every_clue(board, answer)
            if self.fits is None:
                # The sieve throws out the many ambiguous boards cheaply (or the genre mends them); a kept board's
                # own prover asks once more, so that every later proof runs on the instance it always ran on.
                if not self.genre_prover:
                    unique, board = self.sieved(board, answer, rng)
                    if not unique:
                        continue
                every, model = self.every_clue(board, answer)
                draft = Draft(board, answer, frozenset[K]())
                if self.prover(draft).other(every, self.deadline) is None:
                    return draft
            elif (not self.prove_first or self.alone(board, answer, every, model)) and self.fits(model, every):
                return Draft(board, answer, every)
        raise GenerationFailed(f"none of {MAX_BOARDS} boards has one answer at the level with every clue shown")

    def alone(self, board: B, answer: Answer, every: frozenset[K], model: Model) -> bool:
        """Whether the answer is the only one with every clue shown, asked before the level's (dearer) check where
        proofs come first: the level's deductions are sound, so they never solve a board a proof finds ambiguous.
        The genre's own prover where it has one, else the sieve."""
        if self.genre_prover:
            return self.prover(Draft(board, answer, frozenset[K]())).other(every, self.deadline) is None
        return self._sieve.other(model, answer, self.deadline) is None

    def sieved(self, board: B, answer: Answer, rng: random.Random) -> tuple[bool, B]:
        """The board, mended by the genre (``MENDS`` times at most) until its answer is the only one, and whether it
        is (a genre's board may itself be None: a loop is drawn on no board)."""
        mend = getattr(self.genre, "mend", None)
        for _ in range(MENDS + 1):
            _, model = self.every_clue(board, answer)
            other = self._sieve.other(model, answer, self.deadline)
            if other is None:
                return True, board
            mended = None if mend is None else mend(self.params, board, answer, other, rng)
            if mended is None:
                return False, board
            board = mended
            self._every_clue = None  # the same answer on another board
        return False, board

    def clues(self, solution: Draft[B, K], rng: random.Random) -> Draft[B, K]:
        return solution

    def other_solution(self, puzzle: Draft[B, K], solution: Draft[B, K], deadline: Deadline) -> Answer | None:
        if self.fits is not None:
            return None  # the level's deductions solve it (random_solution), so it has one answer
        return self.prover(puzzle).other(puzzle.shown, deadline)

    def repair(self, puzzle: Draft[B, K], solution: Draft[B, K], other: Answer, rng: random.Random) -> Draft[B, K] | None:
        assert self._every_clue is not None  # other_solution made it
        values = self._every_clue.layout.read(other)
        ruling_out = sorted({rule.clue for rule in self._every_clue.rules
                             if rule.clue is not None and rule.clue not in puzzle.shown and rule.broken_by(values)},
                            key=repr)
        if not ruling_out:
            return None  # no clue tells the two answers apart: draw another board
        return Draft(puzzle.board, puzzle.answer, puzzle.shown | {rng.choice(ruling_out)})

    def polish(self, puzzle: Draft[B, K], solution: Draft[B, K], rng: random.Random, deadline: Deadline) -> Draft[B, K]:
        """Each clue in random order goes while the puzzle stays unique at its level; a genre's groups of clues
        (``together``) are tried first, each group at once: one check for a group that can go."""
        together = getattr(self.genre, "together", None)
        groups = [] if together is None else [frozenset(group) for group in together(puzzle.board, puzzle.answer)]
        rng.shuffle(groups)
        order = sorted(puzzle.shown, key=repr)
        rng.shuffle(order)
        for clues in [*groups, *(frozenset((clue,)) for clue in order)]:
            deadline.check()
            fewer = puzzle.shown - clues
            if fewer == puzzle.shown:
                continue
            if self.fits is not None:
                assert self._every_clue is not None
                unique_at_level = (not self.prove_first or self.prover(puzzle).other(fewer, deadline) is None) and \
                    self.fits(self._every_clue, fewer)
            else:
                unique_at_level = self.prover(puzzle).other(fewer, deadline) is None
            if unique_at_level:
                puzzle = Draft(puzzle.board, puzzle.answer, fewer)
        return puzzle


def make(genre: ClueGenre[Any, Any], answer_model: type[BaseModel], params: Any, seed: int,
         deadline: Deadline, fits: Callable[[Model, frozenset[Any]], bool] | None = None,
         prove_first: bool = False) -> Generated[BaseModel, BaseModel]:
    """A unique puzzle of ``genre``, deterministic for the params and the seed; with ``fits``, each clue the
    proof does not need goes only if the puzzle still fits (Tatham's way to keep a puzzle at its level)."""
    steps = KitSteps(genre, params, deadline, fits, prove_first)
    try:
        made = generate(steps, seed, deadline, max_restarts=MAX_BOARDS)
    finally:
        steps.close()
    made.stats.restarts = steps.boards - 1  # boards drawn before the one the puzzle is on
    draft = made.puzzle
    return Generated(genre.puzzle(draft.board, draft.answer, draft.shown), answer_model(**draft.answer), made.stats)


def make_at_level(genre: ClueGenre[Any, Any], answer_model: type[BaseModel], difficulty: Difficulty,
                  people: HumanSolver[Model, GridState], params: Any, seed: int,
                  deadline: Deadline) -> Generated[BaseModel, BaseModel]:
    """A unique puzzle of the level ``params.difficulty`` asks for: clues are removed while the techniques of that
    level still solve it, and a draw harder or easier than the level is drawn again."""
    level = params.difficulty
    top = level == people.level_names[-1]

    def fits(model: Model, shown: frozenset[Any]) -> bool:
        return within(people, model, level, shown)

    first = level == people.level_names[0]  # the rules alone cost less than a proof: no prover at all
    return generate_at_level(lambda draw_seed, budget: make(genre, answer_model, params, draw_seed, budget,
                                                            None if top else fits, not first),
                             difficulty.grade, level, seed, deadline)


def make_on_levels(genre: ClueGenre[Any, Any], answer_model: type[BaseModel], people: HumanSolver[Model, GridState],
                   grade: Callable[[Any, Deadline], Grade], params: Any, seed: int, deadline: Deadline,
                   prove_from: int | None = None) -> Generated[BaseModel, BaseModel]:
    """``make_at_level`` for a genre whose rules only the kit's array state reads (a loop, a genre's own rule, not
    plain counts): each clue goes while ``Levels.fits`` still solves the puzzle at its level. From level
    ``prove_from`` on, the prover answers first whether a clue may go: a clue the answer's uniqueness needs is kept
    without the level's trials, which would refuse it too (sound deductions never solve an ambiguous puzzle) at a
    higher cost; below it the checks cost less than the proofs."""
    level = people.level_names.index(params.difficulty)
    fits = Levels(level).fits
    prove_first = prove_from is not None and level >= prove_from
    return generate_at_level(lambda draw_seed, budget: make(genre, answer_model, params, draw_seed, budget, fits,
                                                            prove_first), grade, params.difficulty, seed, deadline)


Check = Callable[[Model, frozenset[Any] | None], bool]  # whether a level solves a model showing these clues (None: all)


def group_checks(reading: Read, chain: int) -> tuple[Check, ...]:
    """The array checks of ``solvers.kit.human.group_levels``' levels below the top, easiest first: the rules
    alone, the groups read by ``reading``, trials of ``chain`` rounds. Each says whether its level (and those
    below) solves a model showing ``shown`` (all clues when None)."""
    return (lambda model, shown: solves(model, shown),
            lambda model, shown: solves(model, shown, deeper=reading),
            lambda model, shown: solves(model, shown, (chain,), reading))


def make_read_by_groups(genre: ClueGenre[Any, Any], answer_model: type[BaseModel], difficulty: Difficulty,
                        model_of: Callable[[Any], Model], reading: Read, chain: int, params: Any, seed: int,
                        deadline: Deadline, prove_first: bool = False,
                        adjust: Adjust[BaseModel, BaseModel] | None = None,
                        graded_on_arrays: bool = False,
                        checks: Sequence[Check] | None = None) -> Generated[BaseModel, BaseModel]:
    """``make_at_level`` for a genre whose levels are ``solvers.kit.human.group_levels``, with the level checks on
    arrays (``group_checks``; ``checks``: a genre's own that answer alike, quicker): the generator asks them for
    every clue it tries to remove. A draw graded off its level is moved by ``adjust`` (as ``generate_at_level``'s)
    or drawn again, and one the checks already place off it skips the (dearer) graded path; a genre whose grade is
    itself on arrays (``graded_on_arrays``: ``solvers.kit.arrays.fast``) grades each draw at once, one solve going
    up the levels where the checks would take one each. The top level has no check: its puzzles are proved unique
    by the kit's prover."""
    names, level = difficulty.names, params.difficulty
    fits = dict(zip(names[:-1], group_checks(reading, chain) if checks is None else checks, strict=True))

    def grade(puzzle: Any, budget: Deadline) -> Grade:
        if graded_on_arrays:
            return difficulty.grade(puzzle, budget)
        model = model_of(puzzle)
        found = next((name for name, fit in fits.items() if fit(model, None)), names[-1])
        return difficulty.grade(puzzle, budget) if found == level else Grade(found, 0.0, 0, None)

    return generate_at_level(lambda draw_seed, budget: make(genre, answer_model, params, draw_seed, budget,
                                                            fits.get(level), prove_first), grade, level, seed, deadline,
                             adjust)
