"""How hard an Othello "find the move" puzzle is for a person, measured by searches of growing depth.

There is no deduction path here: a player reads moves ahead. So a puzzle is graded by what a reader
who looks ``d`` plies ahead sees (a ``d``-ply search scored by the engine's heuristic, exact where the
game ends within those plies):

- **sight**: the fewest plies from which the answer looks strictly best at every deeper reading (up
  to ``MAX_READ``; beyond that, only a reading to the end shows it);
- **traps**: wrong moves that look at least as good as the answer at a two-ply look (your move and the
  best reply);
- **refutation**: how many plies it takes before the most tempting wrong move (the best-looking one at
  two plies) looks worse than the answer for good;
- **sacrifice**: the answer hands the opponent a corner, or is an X-square beside an empty corner.

A level is the reading a person needs (Tatham's rule: a reader of that depth finds it, a reader of
the level below does not); a sacrifice makes an otherwise easy answer medium, because people avoid
such moves on sight. The score (effort) counts the nodes a shallow-to-deep search spends until the
answer is best for good, so it orders puzzles within a level too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from solvers.common import Deadline, InvalidInput
from solvers.othello import engine, rules
from solvers.techniques.human import Difficulty, Grade, Hint

MAX_READ = 10  # deepest heuristic reading; deeper than this only an exact search settles it
TO_THE_END = 1_000  # the sight of an answer no reading of MAX_READ plies or fewer shows
TO_THE_END_MAX_EMPTIES = 14  # an expert puzzle's effort includes the reading to the end up to this size
TRAP_PLIES = 2  # the "shallow look": your move and the best reply
GRADE_MAX_EMPTIES = 22  # grading proves the answer and reads every move: it must stay within a request


@dataclass(frozen=True)
class Reading:
    level: str
    description: str
    max_sight: int  # the answer is best for good from this many plies on (MAX_READ + 1: only to the end)


READINGS = (
    Reading("easy", "The answer is the best move as soon as you look at the opponent's best reply (two plies), and "
                    "it gives nothing away: no other move looks as good.", 2),
    Reading("medium", "The answer shows within six plies (three moves each); or it looks bad at first sight "
                      "because it gives up a corner or plays next to an empty one.", 6),
    Reading("hard", f"The answer shows only after reading seven to {MAX_READ} plies ahead: tempting moves keep looking "
                    "as good until their refutation, deep in the line.", MAX_READ),
    Reading("expert", f"Only reading to the end of the game (beyond {MAX_READ} plies) shows the answer: every shorter "
                      "reading prefers another move.", TO_THE_END),
)
LEVELS = [r.level for r in READINGS]


def min_empties(level: str) -> int:
    """A level's answer must stay hidden from every reading of the level below, so the game must last
    longer than that reading: hard needs 7 empty squares, expert MAX_READ + 1."""
    index = LEVELS.index(level)
    return READINGS[index - 1].max_sight + 1 if index else 1
CORNER_NEIGHBOURS = {0: (1, 8, 9), 7: (6, 14, 15), 56: (48, 57, 49), 63: (62, 55, 54)}
X_SQUARES = {9: 0, 14: 7, 49: 56, 54: 63}
CORNER_BITS = int(engine.CORNERS)
REGIONS = {(0, 0): "south-west", (0, 1): "south-east", (1, 0): "north-west", (1, 1): "north-east"}  # row 1 is south


@dataclass(frozen=True)
class Features:
    """What makes the answer hard to see (see the module docstring)."""

    answer: int
    sight: int
    traps: list[int]
    tempting: int | None
    refutation: int
    gives_corner: bool
    x_square: bool
    nodes: int  # a shallow-to-deep search's work until the answer is best for good

    @property
    def sacrifice(self) -> bool:
        return self.gives_corner or self.x_square

    @property
    def level(self) -> str:
        index = next(i for i, r in enumerate(READINGS) if self.sight <= r.max_sight)
        if self.sacrifice:
            index = max(index, 1)
        return LEVELS[index]


def readings(p: int, o: int, depth: int, deadline: Deadline) -> tuple[dict[int, int], int]:
    """Every move's ``depth``-ply heuristic score (finished games count 4 per disc) and the nodes spent."""
    counters = engine.Counters.with_limit(1 << 62)
    out_of_time = rules.clock(deadline)
    scores = {sq: -engine.heuristic_value(*engine.play(p, o, sq), depth - 1, counters, out_of_time)
              for sq in rules.squares_of(engine.legal_moves(p, o))}
    deadline.check()
    return scores, counters.nodes


def gives_corner(p: int, o: int, sq: int) -> bool:
    """After ``sq`` the opponent may take a corner it could not take before."""
    before = engine.legal_moves(o, p) & CORNER_BITS
    after = engine.legal_moves(*engine.play(p, o, sq)) & CORNER_BITS
    return bool(after & ~before)


def x_square(p: int, o: int, sq: int) -> bool:
    corner = X_SQUARES.get(sq)
    return corner is not None and not (p | o) >> corner & 1


def settled_from(flags: list[bool], exact_at_end: bool) -> int:
    """The fewest plies from which every deeper reading holds (``flags[d - 1]`` for ``d`` plies);
    ``TO_THE_END`` if the deepest heuristic reading still does not."""
    if not flags[-1] and not exact_at_end:
        return TO_THE_END
    depth = len(flags)
    while depth > 1 and flags[depth - 2]:
        depth -= 1
    return depth


def features(p: int, o: int, answer: int, deadline: Deadline) -> Features:
    """Readings at 1..MAX_READ plies (to the end when no more squares are empty), compared with the answer."""
    empties = 64 - (p | o).bit_count()
    deepest = min(MAX_READ, empties)
    exact_at_end = empties <= deepest
    by_depth: list[dict[int, int]] = []
    nodes: list[int] = []
    for depth in range(1, deepest + 1):
        scores, spent = readings(p, o, depth, deadline)
        by_depth.append(scores)
        nodes.append(spent)
    sight = settled_from([all(v < s[answer] for sq, v in s.items() if sq != answer) for s in by_depth],
                         exact_at_end)
    shallow = by_depth[min(TRAP_PLIES, deepest) - 1]
    wrong = [sq for sq in shallow if sq != answer]
    traps = sorted((sq for sq in wrong if shallow[sq] >= shallow[answer]), key=lambda sq: (-shallow[sq], sq))
    tempting = min(wrong, key=lambda sq: (-shallow[sq], sq)) if wrong else None
    refutation = 0 if tempting is None else settled_from([s[tempting] < s[answer] for s in by_depth], exact_at_end)
    if sight == TO_THE_END and empties <= TO_THE_END_MAX_EMPTIES:
        nodes.append(readings(p, o, empties, deadline)[1])  # the reading that does show it
    return Features(answer, sight, traps, tempting, refutation, gives_corner(p, o, answer), x_square(p, o, answer),
                    sum(nodes[:sight]))


def first_glance(p: int, o: int, answer: int, deadline: Deadline) -> tuple[list[int], bool]:
    """What ``features`` says of the shallow look alone, (traps, sacrifice), from that one reading:
    the first hint needs no more, and the deep readings cost far more at 20 empties."""
    empties = 64 - (p | o).bit_count()
    shallow, _ = readings(p, o, min(TRAP_PLIES, MAX_READ, empties), deadline)
    traps = sorted((sq for sq in shallow if sq != answer and shallow[sq] >= shallow[answer]),
                   key=lambda sq: (-shallow[sq], sq))
    return traps, gives_corner(p, o, answer) or x_square(p, o, answer)


def _strict_best(scores: dict[int, int]) -> int | None:
    """The move a reading prefers over every other, or None when the best score is shared."""
    ranked = sorted(scores.values(), reverse=True)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return None
    return max(scores, key=scores.__getitem__)


def may_reach(level: str, p: int, o: int, wins: Callable[[int], bool], deadline: Deadline) -> bool:
    """Whether a ``win`` puzzle on this position may grade at ``level`` if its winning move is unique,
    asked before uniqueness is proved: one shallow reading and at most one "does this move win?".

    An easy or medium answer is the move every reading from two plies (easy) or six (medium) on
    prefers, so that move must win, and an easy one must give nothing away. Hard and expert answers
    have no such mark: shallow screens for them turned away as many of their positions as they saved
    proofs (bench_othello), so they are not screened. Within ``MAX_READ`` empties a reading to the
    end settles the sight (``settled_from``): no screen there either."""
    if level not in ("easy", "medium") or 64 - (p | o).bit_count() <= MAX_READ:
        return True
    preferred = _strict_best(readings(p, o, TRAP_PLIES if level == "easy" else READINGS[1].max_sight, deadline)[0])
    if preferred is None or (level == "easy" and (gives_corner(p, o, preferred) or x_square(p, o, preferred))):
        return False
    return wins(preferred)


@lru_cache(maxsize=256)
def _answer(board: str, to_move: str, task: str) -> int | None:
    """The puzzle's only solving move, or None (kept: generation grades what it just solved)."""
    puzzle = rules.OthelloPuzzle(board=board, to_move=to_move, task=task)
    found = rules.solving_moves(puzzle, Deadline.never())
    return found[0] if len(found) == 1 else None


def answer_of(puzzle: rules.OthelloPuzzle, deadline: Deadline) -> int | None:
    if puzzle.empties > GRADE_MAX_EMPTIES:
        raise InvalidInput(f"grading solves the position exactly and supports at most {GRADE_MAX_EMPTIES} "
                           f"empty squares; this one has {puzzle.empties}")
    deadline.check()
    return _answer(puzzle.board, puzzle.to_move, puzzle.task)


def score(f: Features) -> float:
    """Effort: the reading's work in thousands of nodes on a log scale, plus the traps and a sacrifice."""
    return round(math.log2(1 + f.nodes / 100) + len(f.traps) + (2 if f.sacrifice else 0), 2)


def grade(puzzle: rules.OthelloPuzzle, deadline: Deadline) -> Grade:
    answer = answer_of(puzzle, deadline)
    if answer is None:
        return Grade(None, 0.0, 0, None)
    p, o = puzzle.bitboards()
    f = features(p, o, answer, deadline)
    sight = f.sight if f.sight <= MAX_READ else 64 - (p | o).bit_count()
    return Grade(f.level, score(f), sight, f"read-{f.level}")


# --- hints ------------------------------------------------------------------------------------------


class OthelloHintState(BaseModel):
    hint: Literal[1, 2] | None = Field(
        1, description="1: the region or the idea to look at (never the move itself); 2: the move (`decide` holds "
        "its cell, value 1 and name), and why the tempting alternative fails. Null or left out: 1.")


def _region(sq: int, legal: list[int]) -> tuple[str, list[int]]:
    """The quadrant holding ``sq`` (or the half of the board, if the quadrant has no other legal move)."""
    row, col = divmod(sq, 8)
    quadrant = [s for s in legal if (s // 8 >= 4) == (row >= 4) and (s % 8 >= 4) == (col >= 4)]
    if len(quadrant) >= 2:
        return f"the {REGIONS[(row >= 4, col >= 4)]} region", quadrant
    half = [s for s in legal if (s // 8 >= 4) == (row >= 4)]
    if len(half) >= 2:
        return f"the {'north' if row >= 4 else 'south'} half of the board", half
    return "the whole board", legal


def _quadrant_empties(p: int, o: int, sq: int) -> tuple[str, list[int]]:
    """The compass name of ``sq``'s quadrant and its empty squares (the unit of parity in an endgame)."""
    row, col = divmod(sq, 8)
    empty = [s for s in range(64) if not (p | o) >> s & 1 and (s // 8 >= 4) == (row >= 4) and (s % 8 >= 4) == (col >= 4)]
    return f"the {REGIONS[(row >= 4, col >= 4)]} region", empty


def hint(puzzle: rules.OthelloPuzzle, state: OthelloHintState, solution: rules.OthelloAnswer,
         deadline: Deadline) -> Hint:
    """Hint 1 names an idea and a region with several legal moves in it; hint 2 names the move."""
    answer = rules.parse_square(solution.move)
    p, o = puzzle.bitboards()
    legal = rules.squares_of(engine.legal_moves(p, o))
    if answer is None or answer not in legal:
        raise InvalidInput(f"the solution {solution.move!r} is not a legal move in this position")
    exact = puzzle.empties <= GRADE_MAX_EMPTIES
    goal = "win" if puzzle.task == "win" else "reach the best score"
    if state.hint == 2:
        f = features(p, o, answer, deadline) if exact else None
        name = rules.square_name(answer)
        why = ""
        if f is not None and f.tempting is not None:
            plies = "only a reading to the end" if f.refutation == TO_THE_END else f"a reading of {f.refutation} plies"
            why = f" The tempting {rules.square_name(f.tempting)} fails: {plies} shows it."
        return Hint("the-move", f"Play {name}: it is the only move that lets you {goal}.{why}",
                    decide=[{"cell": list(rules.cell(answer)), "value": 1, "move": name}],
                    because=[list(rules.cell(answer))])
    where, squares = _region(answer, legal)
    because = [list(rules.cell(s)) for s in squares]
    if answer in CORNER_NEIGHBOURS:
        return Hint("corner", "Look at the corner squares: one of them is the key.",
                    because=[list(rules.cell(s)) for s in CORNER_NEIGHBOURS])
    traps, sacrifice = first_glance(p, o, answer, deadline) if exact else ([], False)
    if sacrifice:
        what = "gives the opponent a corner" if gives_corner(p, o, answer) else "plays next to an empty corner"
        return Hint("sacrifice", f"The move that lets you {goal} looks bad at first sight: it {what}. Look in "
                                 f"{where} and read past that.", because=because)
    quadrant, empty = _quadrant_empties(p, o, answer)
    if len(empty) % 2 == 1 and len(empty) >= 3:
        return Hint("parity", f"Think about parity: the move that lets you {goal} is in {quadrant}, where an odd "
                              "number of squares is empty, so you can keep the last move there.",
                    because=[list(rules.cell(s)) for s in empty])
    looks = "" if not traps else (
        f" {len(traps)} other move{'s' if len(traps) > 1 else ''} look{'' if len(traps) > 1 else 's'} as good "
        "at a first glance; read further.")
    return Hint("region", f"Look in {where}.{looks}", because=because)


DIFFICULTY = Difficulty(
    levels=[{"name": r.level, "techniques": [{"name": f"read-{r.level}", "description": r.description}]}
            for r in READINGS],
    default=None,  # any level, graded: drawing until a level matches costs several exact solves at 20 empties
    grade=grade,
    hint=hint,
    state_model=OthelloHintState,
)
