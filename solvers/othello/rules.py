"""Othello endgame puzzles: the position format, the rules checker and the move scorer.

A puzzle is a position (64 characters X/O/-, A1..H1, A2..H8 as in the FFO endgame suite), the side
to move and a task: ``win`` (exactly one move wins) or ``best`` (exactly one move reaches the best
score). A move's score is the final disc difference for the side to move under perfect play, empty
squares going to the winner. The bitboard engine and the searches live in ``solvers.othello.engine``.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from solvers.common import BudgetExceeded, Deadline, InvalidInput, SolveOutcome, Violation, violation
from solvers.othello import engine, split

FILES = "ABCDEFGH"
EXACT_MAX_EMPTIES = 26  # beyond this, solve goes straight to the heuristic search
CHECK_MAX_EMPTIES = EXACT_MAX_EMPTIES  # verify proves its facts exactly, within the request's budget
HEURISTIC_MAX_DEPTH = 10
SCORING_THREADS = os.cpu_count() or 1  # searches side by side when a position's moves are scored
THREADS_MIN_EMPTIES = 16  # below, searches take milliseconds: a second thread's full window costs more than it saves
SQUARE = re.compile(r"^\s*([A-Ha-h])([1-8])\s*$")


def square_name(sq: int) -> str:
    return f"{FILES[sq % 8]}{sq // 8 + 1}"


def parse_square(text: str) -> int | None:
    """``"g8"``/``"G8"`` -> 62; None if it does not name a square."""
    m = SQUARE.match(text)
    return None if m is None else (int(m.group(2)) - 1) * 8 + FILES.index(m.group(1).upper())


def cell(sq: int) -> tuple[int, int]:
    """(row, col) of a square, as violations report cells."""
    return divmod(sq, 8)


def bits(squares: list[int]) -> int:
    return sum(1 << sq for sq in squares)


def squares_of(bitboard: int) -> list[int]:
    return [sq for sq in range(64) if bitboard >> sq & 1]


def position(board: str, to_move: str) -> tuple[int, int]:
    """(discs of the side to move, discs of the other side) as bitboards."""
    mine = bits([i for i, c in enumerate(board) if c == to_move])
    theirs = bits([i for i, c in enumerate(board) if c not in ("-", to_move)])
    return mine, theirs


def board_string(p: int, o: int, to_move: str) -> str:
    other = "O" if to_move == "X" else "X"
    return "".join(to_move if p >> i & 1 else other if o >> i & 1 else "-" for i in range(64))


class OthelloPuzzle(BaseModel):
    board: str = Field(
        description="64 characters `X` (black), `O` (white) or `-` (empty) for A1, B1, .., H1, A2, .., H8 "
        "(the FFO endgame-suite format)."
    )
    to_move: Literal["X", "O"] = Field(description="The side to move; it must have a legal move.")
    task: Literal["win", "best"] = Field(
        "win", description="`win`: find the only winning move; `best`: find the only move with the best score."
    )

    @field_validator("board")
    @classmethod
    def _board_format(cls, board: str) -> str:
        if len(board) != 64:
            raise ValueError(f"board must be 64 characters (A1..H8 row by row), got {len(board)}")
        bad = sorted({c for c in board if c not in "XO-"})
        if bad:
            raise ValueError(f"board may contain only X, O and -; found {', '.join(map(repr, bad))}")
        return board

    @model_validator(mode="after")
    def _side_can_move(self) -> OthelloPuzzle:
        p, o = position(self.board, self.to_move)
        if not engine.legal_moves(p, o):
            other = "O" if self.to_move == "X" else "X"
            state = "the game is over" if not engine.legal_moves(o, p) else f"{other} would have to move instead"
            raise ValueError(f"{self.to_move} (to move) has no legal move in this position ({state}); "
                             "to_move must be a side with at least one legal move")
        return self

    @property
    def empties(self) -> int:
        return self.board.count("-")

    def bitboards(self) -> tuple[int, int]:
        return position(self.board, self.to_move)


class OthelloAnswer(BaseModel):
    move: str = Field(description="The square to play, like `G8` (column A–H, row 1–8; case-insensitive).")


@dataclass
class MoveScores:
    """Every legal move with its score for the side to move, best first.

    A score is exact unless its square is in ``upper``: then it is only proved to be at most that
    (enough to show the move does not solve the task). ``exact`` says every score is exact.
    """

    scores: list[tuple[int, int]]  # (square, score or upper bound)
    exact: bool
    nodes: int = 0
    upper: set[int] = field(default_factory=set)

    @property
    def best(self) -> int:
        return self.scores[0][1]

    def as_json(self) -> list[dict]:
        return [{"move": square_name(sq), "score": s} | ({"at_most": True} if sq in self.upper else {})
                for sq, s in self.scores]


def solving(task: str, scores: MoveScores) -> list[int]:
    """The moves that solve the task: winning moves for ``win``, best-scoring moves for ``best``."""
    if task == "win":
        return [sq for sq, s in scores.scores if s > 0 and sq not in scores.upper]
    return [sq for sq, s in scores.scores if s == scores.best and sq not in scores.upper]


def _ordered(scores: dict[int, int]) -> list[tuple[int, int]]:
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def clock(deadline: Deadline, share: float = 1.0) -> Callable[[], bool]:
    """"Out of time?" for the engine to ask between slices of nodes: true once ``share`` of the time
    left now has passed."""
    remaining = deadline.remaining()
    if remaining == float("inf"):
        return lambda: False
    stop = time.monotonic() + remaining * share
    return lambda: time.monotonic() >= stop


def promising_first(p: int, o: int, depth: int = 3) -> list[int]:
    """Legal moves ordered by a shallow heuristic search: the best move is usually first, so the
    root's full-window search goes to it and the others need only narrow windows."""
    counters = engine.Counters.with_limit(1 << 40)
    value = {sq: -engine.heuristic_value(*engine.play(p, o, sq), depth, counters)
             for sq in squares_of(engine.legal_moves(p, o))}
    return sorted(value, key=lambda sq: (-value[sq], sq))


class _Starved(Exception):
    """A helper thread's search stopped because the thread got too little of a core."""


@dataclass
class _Effort:
    """One thread's searches for a scorer: their nodes, and the wall and CPU seconds they took."""

    counters: engine.Counters = field(default_factory=lambda: engine.Counters.with_limit(1 << 62))
    wall: float = 0.0
    cpu: float = 0.0


class MoveScorer:
    """Exact scores of a position's moves, each proved with the narrowest window the question needs.

    Every search shares the process's transposition table (exact bounds), so what one move's proof
    learns about common positions shortens the next. ``best`` and ``settle`` run ``threads`` searches
    side by side on that one table (by default one per core from ``THREADS_MIN_EMPTIES`` empties).
    Raises BudgetExceeded when the deadline's time runs out; what was proved before stays in
    ``exact``/``upper``.
    """

    def __init__(self, p: int, o: int, deadline: Deadline, share: float = 1.0, threads: int | None = None,
                 share_once_bounded: float | None = None):
        self.children = {sq: engine.play(p, o, sq) for sq in promising_first(p, o)}
        if threads is None:
            threads = SCORING_THREADS if 64 - (p | o).bit_count() >= THREADS_MIN_EMPTIES else 1
        self.threads = max(1, min(threads, len(self.children)))
        self.exact: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self._clock = clock(deadline, share)
        self._clock_once_bounded = clock(deadline, share if share_once_bounded is None else share_once_bounded)
        self._efforts: dict[int, _Effort] = {}  # by thread
        self._caller = threading.get_ident()  # the thread that asked; the others are helpers
        self._changed = threading.Condition()  # guards what follows, and exact and upper
        self._stopped = False  # a thread ran out of time or failed: the others stop too
        self._best: int | None = None
        self._uncompared = list(self.children)  # not yet compared with the best so far
        self._comparing = 0
        self._lower: dict[int, int] = {}  # proved lower bounds of the moves in ``upper``
        self._testing: dict[int, set[int]] = {sq: set() for sq in self.children}  # scores being tested

    @property
    def nodes(self) -> int:
        return sum(effort.counters.nodes for effort in list(self._efforts.values()))

    @property
    def bounded(self) -> bool:
        """Every move is exact or bounded below the best: the best score and its moves are proved."""
        return len(self.exact) + len(self.upper) == len(self.children)

    def within(self, sq: int, alpha: int, beta: int) -> int:
        """Fail-soft score of move ``sq`` within (alpha, beta)."""
        effort = self._effort()
        helper = threading.get_ident() != self._caller
        started, cpu_started = time.perf_counter(), time.thread_time()

        def spent() -> tuple[float, float]:  # this thread's searches so far, this one included
            return effort.wall + time.perf_counter() - started, effort.cpu + time.thread_time() - cpu_started

        p, o = self.children[sq]
        counters = effort.counters
        v = engine.exact_value(p, o, -beta, -alpha, counters,
                               lambda: self._out_of_time() or (helper and split.starved(*spent())))
        effort.wall, effort.cpu = spent()
        if counters.aborted and not self._out_of_time():
            raise _Starved
        if counters.aborted:
            raise BudgetExceeded(f"exact search of {64 - (p | o).bit_count()} empties ran out of time")
        return -v

    def _effort(self) -> _Effort:
        effort = self._efforts.get(threading.get_ident())
        if effort is None:
            effort = self._efforts[threading.get_ident()] = _Effort()
        return effort

    def _out_of_time(self) -> bool:
        return self._stopped or (self._clock_once_bounded() if self.bounded else self._clock())

    def best(self) -> int:
        """The best score: the likeliest move with a full window, then every other one asked only
        "better than, equal to or worse than the best so far?" (a window of one score around it)."""
        self._side_by_side(lambda: self._step(settle=False))
        assert self._best is not None
        return self._best

    def settle(self) -> None:
        """Exact scores for every move: those not yet compared with the best are compared first, and
        those known only by an upper bound are tested "is it that bound?" with a window of one score,
        fail-soft values moving the bound down until one test holds."""
        self._side_by_side(lambda: self._step(settle=True))

    def reaching(self, threshold: int, stop_at: int = 64, skip: int | None = None) -> list[int]:
        """Moves scoring at least ``threshold`` (up to ``stop_at``), each by one null-window search, on
        ``threads`` threads. Which moves are found may depend on timing when more than ``stop_at``
        reach the threshold; how many are found does not."""
        untested = [sq for sq in self.children if sq != skip]
        found: list[int] = []
        enough = False

        def step() -> bool:
            nonlocal enough
            with self._changed:
                if enough or not untested:
                    return False
                sq = untested.pop(0)
            try:
                reached = self.within(sq, threshold - 1, threshold) >= threshold
            except _Starved:
                with self._changed:
                    untested.insert(0, sq)
                raise
            except BudgetExceeded:
                if enough:  # another thread found the last one needed and stopped this search
                    return False
                raise
            with self._changed:
                if reached and not enough:
                    found.append(sq)
                    enough = self._stopped = len(found) >= stop_at
            return not enough

        self._side_by_side(step)
        self._stopped = False
        return sorted(found, key=list(self.children).index)

    def scores(self) -> MoveScores:
        return MoveScores(_ordered(self.exact | self.upper), exact=not self.upper, nodes=self.nodes,
                          upper=set(self.upper))

    def _side_by_side(self, step: Callable[[], bool]) -> None:
        """Run ``step`` (one search) on ``threads`` threads until it says nothing is left; the first error
        stops the other threads' searches and is raised here. A helper thread that gets too little of
        a core (the machine is busy) hands its search back and stops: it would only slow the calling
        thread's proof of the best score, and other requests' searches."""
        errors: list[BaseException] = []
        self._stopped = False
        self._caller = threading.get_ident()
        for effort in self._efforts.values():  # thread ids may be reused by new helpers
            effort.wall = effort.cpu = 0.0

        def run(helper: bool) -> None:
            effort = self._effort()
            try:
                while not (helper and split.starved(effort.wall, effort.cpu)) and step():
                    pass
            except _Starved:  # _compare or _test handed its search back; the other threads carry on
                pass
            except BaseException as error:  # noqa: BLE001 (handed to the calling thread)
                with self._changed:
                    errors.append(error)
                    self._stopped = True
                    self._changed.notify_all()

        helpers = [threading.Thread(target=run, args=(True,), name=f"move-scorer-{i}") for i in range(1, self.threads)]
        for helper in helpers:
            helper.start()
        run(False)
        for helper in helpers:
            helper.join()
        if errors:
            raise errors[0]

    def _step(self, settle: bool) -> bool:
        """One search, chosen under the lock: comparing a move with the best comes first; then (if
        ``settle``) testing a bounded move at its highest score not being tested. The move is the one
        with the fewest tests running, the least promising first: its walk down from the best is
        likely the longest, so it starts early, and threads with one move left walk it down
        together, a score apart. While the likeliest move is searched first, the others wait: compared
        with no score, or with a weaker move's, they would need wide windows. False: nothing left to search."""
        test = None
        with self._changed:
            while True:
                if self._stopped:
                    return False
                if self._uncompared and self._best is None and self._comparing:
                    self._changed.wait()  # the likeliest move first, alone: against no score, others need full windows
                    continue
                if self._uncompared:
                    sq, known = self._uncompared.pop(0), self._best
                    self._comparing += 1
                    break
                test = self._next_test() if settle else None
                if test is not None:
                    sq, known = test
                    self._testing[sq].add(known)
                    break
                if not settle or (not self.upper and not self._comparing):
                    return False
                if not self._comparing and not any(self._testing.values()):  # nothing could wake this thread
                    raise RuntimeError(f"no test left for the moves bounded by {self.upper}")
                self._changed.wait()
        if test is None:
            self._compare(sq, known)
        else:
            self._test(sq, known)
        return True

    def _compare(self, sq: int, known: int | None) -> None:
        try:
            if known is None:  # no score yet: a full window
                v = self._first(sq)
            else:
                v = self.within(sq, known - 1, known + 1)
                if v > known:  # a lower bound: search upwards from it
                    v = self.within(sq, v - 1, engine.SCORE_MAX)
        except _Starved:
            with self._changed:
                self._uncompared.insert(0, sq)
            raise
        finally:
            with self._changed:
                self._comparing -= 1
                self._changed.notify_all()
        with self._changed:
            if known is None or v >= known:
                self.exact[sq] = v
                self._best = v if self._best is None else max(self._best, v)
            else:
                self._bound(sq, -engine.SCORE_MAX, v)
            self._changed.notify_all()

    def _first(self, sq: int) -> int:
        """The likeliest move's score with a full window. The other moves wait for it, so from
        ``split.SPLIT_MIN_EMPTIES`` empties its tests are split across the threads."""
        p, o = self.children[sq]
        if self.threads == 1 or 64 - (p | o).bit_count() < split.SPLIT_MIN_EMPTIES:
            return self.within(sq, -engine.SCORE_MAX, engine.SCORE_MAX)
        counters = self._effort().counters
        splitter = split.Splitter(self.threads, self._out_of_time)
        try:
            v = engine.exact_value(p, o, -engine.SCORE_MAX, engine.SCORE_MAX, counters, self._out_of_time,
                                   lambda alpha, beta: splitter.test(p, o, alpha, beta), split.ESTIMATE_LEAF_EMPTIES)
        finally:
            counters.array[engine.C_NODES] += splitter.nodes
        if counters.aborted:
            raise BudgetExceeded(f"exact search of {64 - (p | o).bit_count()} empties ran out of time")
        return -v

    def _bound(self, sq: int, lower: int, upper: int) -> None:
        """Record what is proved of a move's score; bounds that meet make it exact (-64 at once)."""
        if lower >= upper:
            self.exact[sq] = upper
            self.upper.pop(sq, None)
        else:
            self.upper[sq], self._lower[sq] = upper, lower

    def _next_test(self) -> tuple[int, int] | None:
        candidates = []
        for rank, sq in enumerate(self.children):
            if sq in self.upper:
                t = self.upper[sq]
                while t in self._testing[sq]:
                    t -= 2
                if t > self._lower[sq]:
                    candidates.append((len(self._testing[sq]), -rank, sq, t))
        return min(candidates)[2:] if candidates else None

    def _test(self, sq: int, t: int) -> None:
        try:
            v = self.within(sq, t - 1, t + 1)
        finally:
            with self._changed:
                self._testing[sq].discard(t)
                self._changed.notify_all()
        with self._changed:
            if sq in self.upper:
                lower, upper = self._lower[sq], self.upper[sq]
                if v <= t:  # an upper bound (exact if equal)
                    upper = min(upper, v)
                if v >= t:
                    lower = max(lower, v)
                self._bound(sq, lower, upper)
            self._changed.notify_all()


def exact_scores(p: int, o: int, deadline: Deadline, share: float = 1.0) -> MoveScores:
    """Exact score of every legal move; raises BudgetExceeded if the deadline's time runs out."""
    scorer = MoveScorer(p, o, deadline, share)
    scorer.settle()
    return scorer.scores()


def heuristic_scores(p: int, o: int, deadline: Deadline, max_depth: int = HEURISTIC_MAX_DEPTH) -> MoveScores:
    """Depth-limited scores (iterative deepening while the deadline allows); the CPU opponent's view."""
    moves = squares_of(engine.legal_moves(p, o))
    best: dict[int, int] | None = None
    nodes = 0
    out_of_time = clock(deadline, 0.8)
    for depth in range(1, max_depth + 1):
        counters = engine.Counters.with_limit(1 << 62)
        scores = {}
        for sq in moves:
            np_, no = engine.play(p, o, sq)
            scores[sq] = -engine.heuristic_value(np_, no, depth - 1, counters, out_of_time)
        nodes += counters.nodes
        if counters.aborted:
            break
        best = scores
        if deadline.remaining() < 0.1:
            break
    if best is None:  # not even one ply fitted: a static evaluation of each reply
        best = {sq: -engine.evaluation(*engine.play(p, o, sq)) for sq in moves}
    return MoveScores(_ordered(best), exact=False, nodes=nodes)


def score_moves(p: int, o: int, deadline: Deadline) -> MoveScores:
    """Exact scores when the position is small enough and the budget allows. If the budget runs out
    after the best score is proved, the moves not yet settled keep their proved upper bounds (the
    solutions stay exact); only a position whose best score is out of reach gets heuristic scores."""
    if 64 - (p | o).bit_count() <= EXACT_MAX_EMPTIES:
        # the heuristic fallback needs the last 15 % of the time, but only until the best is proved
        scorer = MoveScorer(p, o, deadline, share=0.85, share_once_bounded=0.97)
        try:
            scorer.settle()
        except BudgetExceeded:
            if not scorer.bounded:
                if deadline.expired():
                    raise
                return heuristic_scores(p, o, deadline)
        return scorer.scores()
    return heuristic_scores(p, o, deadline)


def _parse_move(puzzle: OthelloPuzzle, answer: OthelloAnswer) -> int:
    """The square of a legal answer; InvalidInput (a 4xx) for a malformed or illegal move."""
    sq = parse_square(answer.move)
    if sq is None:
        raise InvalidInput(
            f"move must name a square like `G8` (column A-H, row 1-8), got {answer.move!r}",
            [violation("bad-move", f"{answer.move!r} is not a square name")],
        )
    p, o = puzzle.bitboards()
    legal = squares_of(engine.legal_moves(p, o))
    if sq not in legal:
        names = ", ".join(square_name(s) for s in legal)
        raise InvalidInput(
            f"{square_name(sq)} is not a legal move for {puzzle.to_move}; legal moves: {names}",
            [violation("illegal-move", f"{square_name(sq)} is not legal here; legal moves: {names}", [cell(sq)])],
        )
    return sq


def solving_moves(puzzle: OthelloPuzzle, deadline: Deadline, stop_at: int = 2) -> list[int]:
    """The moves solving the puzzle's task, asking the engine only that: for ``win`` "does this move
    win?" until ``stop_at`` say yes; for ``best`` the best score and which moves tie with it."""
    scorer = MoveScorer(*puzzle.bitboards(), deadline)
    if puzzle.task == "win":
        return scorer.reaching(1, stop_at)
    best = scorer.best()
    return [sq for sq in scorer.children if scorer.exact.get(sq) == best][:stop_at]


def threshold(task: str, best: int) -> int:
    """The score a move needs to solve the task (scores are even, so a win is >= 1)."""
    return 1 if task == "win" else best


def assess(puzzle: OthelloPuzzle, answer: OthelloAnswer, deadline: Deadline | None = None) -> tuple[list[Violation], dict]:
    """The broken rules of an answer and the facts a player wants: its exact score, the best score,
    whether it is a best move, and whether it is the only move that solves the task.

    One ``MoveScorer`` asks each question with the narrowest window it needs, its searches side by side
    from ``THREADS_MIN_EMPTIES`` empties: the best score (each move compared with the best so far, which
    also tells which moves tie with it), the answer's own score only if that comparison bounded it, and
    for ``win`` whether another move wins. Raises BudgetExceeded when ``deadline`` runs out."""
    sq = _parse_move(puzzle, answer)
    if puzzle.empties > CHECK_MAX_EMPTIES:
        raise InvalidInput(
            f"verify scores moves exactly and supports at most {CHECK_MAX_EMPTIES} empty squares; this position has "
            f"{puzzle.empties} (use solve for a heuristic analysis)",
            [violation("too-many-empties", f"{puzzle.empties} empty squares; at most {CHECK_MAX_EMPTIES}")],
        )
    scorer = MoveScorer(*puzzle.bitboards(), deadline or Deadline.never())
    best = scorer.best()
    score = scorer.exact[sq] if sq in scorer.exact else scorer.within(sq, -engine.SCORE_MAX, engine.SCORE_MAX)
    found: list[Violation] = []
    name = square_name(sq)
    if puzzle.task == "win" and score <= 0:
        outcome = "draws" if score == 0 else "loses"
        found.append(violation("not-winning", f"{name} {outcome} ({score:+d}) with perfect play", [cell(sq)]))
    if puzzle.task == "best" and score < best:
        found.append(violation("not-best", f"{name} scores {score:+d}; the best move scores {best:+d}", [cell(sq)]))
    if found:
        only = False
    elif puzzle.task == "best":  # every move was compared with the best: those that tie with it are exact
        only = not any(v == best for other, v in scorer.exact.items() if other != sq)
    else:
        only = not scorer.reaching(1, stop_at=1, skip=sq)
    # `unique_solution` is the older name of `only_solving_move`, kept for clients that read it.
    extra = {"move": name, "score": score, "best_score": best, "is_best": score == best,
             "only_solving_move": only, "unique_solution": only, "exact": True}
    return found, extra


def check(puzzle: OthelloPuzzle, answer: OthelloAnswer) -> list[Violation]:
    """Every broken rule; raises InvalidInput for a malformed or illegal move."""
    return assess(puzzle, answer)[0]


BACKENDS = ("engine",)  # the exact endgame search; there is no other way to solve this type


def solve(
    puzzle: OthelloPuzzle, limit: int, deadline: Deadline, backend: str | None = None, keep: int | None = None
) -> SolveOutcome:
    """Every legal move scored (exact when it fits the budget); the solutions are the task's solving moves,
    counted up to ``max(limit, 2)``, the first ``keep`` returned."""
    scores = score_moves(*puzzle.bitboards(), deadline)
    solutions = [{"move": square_name(sq)} for sq in solving(puzzle.task, scores)]
    count = min(len(solutions), max(limit, 2))
    extra = {"moves": scores.as_json(), "exact": scores.exact, "nodes": scores.nodes}
    complete = proved(puzzle.task, scores) and len(solutions) == count
    return SolveOutcome(solutions[:count if keep is None else min(keep, count)], complete, extra, count)


def proved(task: str, scores: MoveScores) -> bool:
    """The solving moves are known for sure: every score is exact, or the moves known only by an upper
    bound are bounded below what the task needs (heuristic scores prove nothing)."""
    if scores.exact:
        return True
    need = threshold(task, max(s for sq, s in scores.scores if sq not in scores.upper)) if scores.upper else None
    return need is not None and all(s < need for sq, s in scores.scores if sq in scores.upper)
