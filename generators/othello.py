"""Othello endgame puzzle generation: the pipeline steps and the type's registration.

Solution: a position from a plausible game — a few random opening moves, then a cheap one-ply
heuristic with noise, the last move often a slip to punish — stopped at the requested number of
empty squares, colours swapped if needed so the requested side is to move. Clues: the position with
its task. Uniqueness: the exact solver counts the solving moves (for ``win`` by null-window tests
"does this move win?", stopping at two). A position with no or several solving moves cannot be
repaired by changing a clue, so repair restarts with a new game (bench/bench_othello.py reports how
many positions are kept). A level is reached by drawing unique puzzles until one grades at it
(``solvers.othello.techniques``); with a level asked, a position that cannot reach it is turned away
before its uniqueness is proved (``human.may_reach``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.pipeline import Generated, generate, generate_at_level
from generators.spec import PuzzleType, Verdict
from solvers.common import Deadline
from solvers.othello import engine, picture, rules
from solvers.othello import techniques as human

MAX_RESTARTS = 400
OPENING_PLIES = (2, 10)  # uniformly random moves first: varied openings
RANDOM_MOVE_RATE = 0.15  # later: otherwise the best one-ply move under noise
EVAL_NOISE = 4.0
SLIP_RATE = 0.5  # how often the last move before the puzzle is a slip (see _last_move)
EMPTIES_MIN, EMPTIES_MAX = 6, 20
# The most empty squares at which a level is made on request. About one drawn position in twenty is
# unique, and a level's share of those falls as the game lengthens while each proof grows: beyond these
# sizes, a position of the level takes longer to find than a request may wait (bench_levels).
LEVEL_MAX_EMPTIES = {"easy": 19, "medium": 16, "hard": 17, "expert": 17}


def level_empties(level: str) -> tuple[int, int]:
    """The fewest and the most empty squares at which ``level`` is made."""
    return max(EMPTIES_MIN, human.min_empties(level)), LEVEL_MAX_EMPTIES[level]


class OthelloParams(BaseModel):
    empties: int = Field(12, ge=EMPTIES_MIN, le=EMPTIES_MAX,
                         description=f"Empty squares left in the position ({EMPTIES_MIN}–{EMPTIES_MAX}).")
    task: Literal["win", "best"] = Field(
        "win", description="`win`: exactly one move wins; `best`: exactly one move reaches the best score."
    )
    to_move: Literal["X", "O", "random"] = Field("random", description="The side to move: X (black), O or random.")
    difficulty: Literal["easy", "medium", "hard", "expert"] | None = Field(
        None, description="How far ahead a person must read to see the move (see the type's `difficulties`), "
        "offered at " + ", ".join(f"{level} {'–'.join(map(str, level_empties(level)))}" for level in LEVEL_MAX_EMPTIES)
        + " empties. Without it, any level: the record's grade says which.")

    @model_validator(mode="after")
    def _level_within_reach(self) -> OthelloParams:
        level = self.difficulty
        if level is None:
            return self
        least, most = level_empties(level)
        if self.empties < least:
            raise ValueError(f"difficulty {level!r} needs at least {least} empty squares: with fewer, a shorter "
                             f"reading sees the game to its end; got {self.empties}")
        if self.empties > most:
            raise ValueError(f"difficulty {level!r} is made with at most {most} empty squares: with more, a position "
                             f"of that level takes longer to find than a request may wait; got {self.empties} (without "
                             f"a difficulty, any position up to {EMPTIES_MAX} empties is made and graded)")
        return self


@dataclass
class Candidate:
    """A position and, once the solver has looked, its solving moves (the puzzle's solution)."""

    board: str
    to_move: str
    solving: list[int] = field(default_factory=list)


def _choose_move(p: int, o: int, ply: int, rng: random.Random) -> int:
    moves = rules.squares_of(engine.legal_moves(p, o))
    if ply < rng.randint(*OPENING_PLIES) or rng.random() < RANDOM_MOVE_RATE:
        return rng.choice(moves)
    return max(moves, key=lambda sq: -engine.evaluation(*engine.play(p, o, sq)) + rng.gauss(0, EVAL_NOISE))


def _last_move(p: int, o: int, rng: random.Random) -> int:
    """The move into the puzzle's position: often the one that looks best for the side to move next (a
    slip to punish), so the puzzle's side is seldom lost whatever it plays; positions where it is are
    cheap to reject but many, and make generation slow."""
    moves = rules.squares_of(engine.legal_moves(p, o))
    if rng.random() < SLIP_RATE:
        return max(moves, key=lambda sq: engine.evaluation(*engine.play(p, o, sq)) + rng.gauss(0, EVAL_NOISE))
    return _choose_move(p, o, OPENING_PLIES[1], rng)


def plausible_position(empties: int, rng: random.Random) -> tuple[int, int, bool] | None:
    """Play from the start position until ``empties`` squares are empty.

    Returns (discs to move, other discs, black to move), or None if the game ended first or the side
    to move has fewer than two legal moves (nothing to find).
    """
    p, o = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)  # black (X) to move: X on E4, D5
    black = True
    ply = 0
    while 64 - (p | o).bit_count() > empties:
        if not engine.legal_moves(p, o):
            if not engine.legal_moves(o, p):
                return None
            p, o, black = o, p, not black
            continue
        last = 64 - (p | o).bit_count() == empties + 1
        p, o = engine.play(p, o, _last_move(p, o, rng) if last else _choose_move(p, o, ply, rng))
        black = not black
        ply += 1
    if bin(engine.legal_moves(p, o)).count("1") < 2:
        return None
    return p, o, black


class OthelloSteps:
    def __init__(self, params: OthelloParams):
        self.params = params

    def random_solution(self, rng: random.Random) -> Candidate:
        side = self.params.to_move if self.params.to_move != "random" else rng.choice("XO")
        while (found := plausible_position(self.params.empties, rng)) is None:
            pass
        p, o, _ = found
        # Colours are symmetric: name the side to move as requested.
        return Candidate(rules.board_string(p, o, side), side)

    def clues(self, solution: Candidate, rng: random.Random) -> rules.OthelloPuzzle:
        return rules.OthelloPuzzle(board=solution.board, to_move=solution.to_move, task=self.params.task)

    def other_solution(self, puzzle: rules.OthelloPuzzle, solution: Candidate, deadline: Deadline) -> Candidate | None:
        """None when exactly one move solves the task; otherwise the candidate itself (restart). With a
        level asked, a position that cannot reach it is turned away first, before the costlier proof."""
        level = self.params.difficulty
        if level is not None and puzzle.task == "win":
            p, o = puzzle.bitboards()
            scorer = rules.MoveScorer(p, o, deadline)
            if not human.may_reach(level, p, o, lambda sq: scorer.within(sq, 0, 1) >= 1, deadline):
                return solution
        solution.solving = rules.solving_moves(puzzle, deadline)
        return None if len(solution.solving) == 1 else solution

    def repair(self, puzzle: rules.OthelloPuzzle, solution: Candidate, other: Candidate, rng: random.Random) -> None:
        return None


def generate_unique(params: OthelloParams, seed: int, deadline: Deadline) -> Generated:
    """A position with exactly one solving move, of any difficulty."""
    result = generate(OthelloSteps(params), seed, deadline, max_rounds=1, max_restarts=MAX_RESTARTS)
    (move,) = result.solution.solving
    result.solution = rules.OthelloAnswer(move=rules.square_name(move))
    return result


def generate_puzzle(params: OthelloParams, seed: int, deadline: Deadline) -> Generated:
    """A puzzle of the asked level: unique positions drawn until one grades at it (a position cannot be
    nudged toward a level without changing its answer, so there is no adjustment step)."""
    if params.difficulty is None:
        generated = generate_unique(params, seed, deadline)
        generated.difficulty = human.DIFFICULTY.grade(generated.puzzle, deadline)
        return generated
    return generate_at_level(lambda draw, limit: generate_unique(params, draw, limit), human.DIFFICULTY.grade,
                             params.difficulty, seed, deadline)


def check(puzzle: rules.OthelloPuzzle, answer: rules.OthelloAnswer, deadline: Deadline | None = None) -> Verdict:
    """The rules check plus the facts a player wants (scores, uniqueness) for the verify response."""
    violations, extra = rules.assess(puzzle, answer, deadline)
    return Verdict(violations, extra)


PUZZLE_TYPE = PuzzleType(
    name="othello",
    id_prefix="oth",
    summary="Othello endgame: find the only winning (or the only best) move; scores are exact perfect-play disc "
    "differences.",
    params_model=OthelloParams,
    puzzle_model=rules.OthelloPuzzle,
    answer_model=rules.OthelloAnswer,
    generate=generate_puzzle,
    check=check,
    solve=rules.solve,
    render=picture.render,
    backends=rules.BACKENDS,
    difficulty=human.DIFFICULTY,
    catalogue={
        "board_format": "64 chars X/O/- for A1..H1, A2..H8 (FFO)",
        "score": "final disc difference for the side to move, empties to the winner",
        "exact_max_empties": rules.EXACT_MAX_EMPTIES,
        "verify_max_empties": rules.CHECK_MAX_EMPTIES,
        "level_empties": {level: list(level_empties(level)) for level in LEVEL_MAX_EMPTIES},
    },
    warm_up=engine.warm_up,
    check_in_process=False,  # an exact endgame search per legal move: seconds of CPU, kept off the event loop
    play_mode="square",
)
