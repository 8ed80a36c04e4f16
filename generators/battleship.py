"""Battleship generation: the pipeline steps and the type's registration.

Solution: the fleet placed at random (longest ships first, backtracking within a budget). Clues:
the row and column counts, no revealed cells. Repair: reveal one cell where the solver's second
solution differs from the intended one, as water or as the segment it is in the intended solution;
such a cell is never already revealed (the second solution honours every revealed cell), so the
rounds end. Polish: drop every revealed cell the puzzle stays unique without, so the clue set is
minimal (a cell needed with more clues present is needed with fewer, so one pass suffices).

All solver calls of one attempt share one incremental SAT model: the fleet and counts are fixed by
the intended solution, which is excluded once; each revealed cell is an assumption literal.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.params import normalise_shape
from generators.pipeline import Generated, generate, generate_at_level
from generators.spec import PuzzleType
from solvers.battleship import picture, puzzlink, rules
from solvers.battleship import techniques as human
from solvers.common import Deadline, InvalidInput
from solvers.sat import SatBackend, make_backend
from solvers.techniques.human import Grade, GridState

Grid = list[list[int]]
Clue = tuple[int, int, str]  # (row, col, kind)
MIN_SIDE, MAX_SIDE = 6, 15
LAYOUT_BUDGET = 2_000  # placements tried before the random layout falls back to the SAT model
# Grids of up to this many cells draw the top level from minimal clue sets; larger ones from bare layouts
# (see ``generate_puzzle``).
MINIMAL_TOP_CELLS = 100


class BattleshipParams(BaseModel):
    size: int | None = Field(10, ge=MIN_SIDE, le=MAX_SIDE, description="Grid size N (N×N) when rows/cols are not given.")
    rows: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of rows; overrides size.")
    cols: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of columns; overrides size.")
    fleet: str | None = Field(
        None,
        description="Comma-separated ship lengths, e.g. `4,3,3,2,2,2,1,1,1,1`. Default: the standard fleet for "
        "the grid (b+1−k ships of length k for k = 1..b; b = 3 up to 7×7, 4 up to 11×11, 5 beyond).",
    )
    difficulty: Literal["easy", "medium", "hard", "expert"] = Field(
        human.DIFFICULTY.default,
        description="What a person needs to solve it (see the type's `difficulties`): `expert` up to 100 cells "
        "keeps only the revealed cells uniqueness needs; larger `expert` grids and the easier levels reveal cells "
        "where they open the puzzle to the level's steps.")

    @model_validator(mode="after")
    def _normalised(self) -> BattleshipParams:
        """One spelling per puzzle, as ids come from the parameters: the shape's (``normalise_shape``),
        and the fleet written longest first."""
        ships = self.ships()
        normalise_shape(self)
        if self.fleet is not None:
            self.fleet = ",".join(map(str, ships))
        return self

    def shape(self) -> tuple[int, int]:
        return self.rows or self.size or 0, self.cols or self.size or 0

    def ships(self) -> list[int]:
        """The fleet, longest first; ValueError with what is allowed if the `fleet` text is not usable."""
        rows, cols = self.shape()
        if self.fleet is None:
            return rules.standard_fleet(rows, cols)
        longest = max(rows, cols)
        try:
            fleet = [int(part) for part in self.fleet.split(",")]
        except ValueError:
            raise ValueError(f"fleet must be comma-separated ship lengths like 4,3,3,2,1; got {self.fleet!r}") from None
        if not all(1 <= k <= longest for k in fleet):
            raise ValueError(f"fleet ship lengths must be 1..{longest} on a {rows}×{cols} grid; got {self.fleet!r}")
        if rules.fleet_footprint(fleet) > (rows + 1) * (cols + 1):
            raise ValueError(
                f"fleet {self.fleet!r} ({len(fleet)} ships, {sum(fleet)} cells) cannot fit a {rows}×{cols} grid "
                f"with water between the ships; use fewer or shorter ships, or a larger grid"
            )
        return sorted(fleet, reverse=True)


def random_layout(rows: int, cols: int, fleet: list[int], rng: random.Random, budget: int = LAYOUT_BUDGET) -> Grid | None:
    """The fleet at random legal positions (depth-first, positions shuffled), or None past the budget."""
    ships = [[0] * cols for _ in range(rows)]
    blocked = [[0] * cols for _ in range(rows)]  # how many placed ships cover or touch each cell
    positions = {
        k: [(v, r, c) for v in ((False, True) if k > 1 else (False,))
            for r in range(rows - (k - 1) * v) for c in range(cols - (k - 1) * (not v))]
        for k in set(fleet)
    }
    steps = 0

    def body(v: bool, r: int, c: int, k: int) -> list[tuple[int, int]]:
        return [(r + i, c) if v else (r, c + i) for i in range(k)]

    def mark(cells: list[tuple[int, int]], delta: int) -> None:
        for r, c in cells:
            ships[r][c] += delta
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    blocked[rr][cc] += delta

    def place(i: int) -> bool:
        nonlocal steps
        if i == len(fleet):
            return True
        order = positions[fleet[i]][:]
        rng.shuffle(order)
        for v, r, c in order:
            cells = body(v, r, c, fleet[i])
            if any(blocked[rr][cc] for rr, cc in cells):
                continue
            steps += 1
            if steps > budget:
                return False
            mark(cells, 1)
            if place(i + 1):
                return True
            mark(cells, -1)
        return False

    return ships if place(0) else None


def sat_layout(rows: int, cols: int, fleet: list[int], rng: random.Random, deadline: Deadline) -> Grid:
    """Any legal layout from the SAT model, mirrored at random; InvalidInput if the fleet cannot fit."""
    with make_backend(rules.DEFAULT_BACKEND) as sat:
        model = rules.BattleshipModel(sat, rows, cols, fleet, [None] * rows, [None] * cols)
        if not sat.solve(deadline):
            raise InvalidInput(f"the fleet {fleet} cannot be placed on a {rows}×{cols} grid without ships touching")
        grid = model.grid(sat.true_vars())
    if rng.random() < 0.5:
        grid.reverse()
    if rng.random() < 0.5:
        grid = [row[::-1] for row in grid]
    return grid


def counts(ships: Grid) -> tuple[list[int], list[int]]:
    return [sum(row) for row in ships], [sum(col) for col in zip(*ships, strict=True)]


class BattleshipSteps:
    """Pipeline steps; ``clues`` builds the attempt's incremental SAT model, ``close`` frees it."""

    def __init__(self, rows: int, cols: int, fleet: list[int], deadline: Deadline, backend: str | None = None):
        self.rows, self.cols, self.fleet, self.deadline = rows, cols, fleet, deadline
        self.backend = backend or rules.DEFAULT_BACKEND
        self._sat: SatBackend | None = None
        self._model: rules.BattleshipModel | None = None
        self.polish_calls = 0

    def random_solution(self, rng: random.Random) -> Grid:
        layout = random_layout(self.rows, self.cols, self.fleet, rng)
        return layout or sat_layout(self.rows, self.cols, self.fleet, rng, self.deadline)

    def clues(self, solution: Grid, rng: random.Random) -> tuple[Clue, ...]:
        self.close()
        self._sat = make_backend(self.backend)
        self._model = rules.BattleshipModel(self._sat, self.rows, self.cols, self.fleet, *counts(solution))
        self._model.exclude(solution)
        return ()

    def _other(self, clues: tuple[Clue, ...] | frozenset[Clue], deadline: Deadline) -> Grid | None:
        assert self._sat is not None and self._model is not None, "clues() builds the model first"
        assumptions = [self._model.kind_literal(r, c, kind) for r, c, kind in sorted(clues)]
        if not self._sat.solve(deadline, assumptions):
            return None
        return self._model.grid(self._sat.true_vars())

    def other_solution(self, clues: tuple[Clue, ...], solution: Grid, deadline: Deadline) -> Grid | None:
        return self._other(clues, deadline)

    def repair(self, clues: tuple[Clue, ...], solution: Grid, other: Grid, rng: random.Random) -> tuple[Clue, ...]:
        differ = [(r, c) for r in range(self.rows) for c in range(self.cols) if solution[r][c] != other[r][c]]
        r, c = rng.choice(differ)
        kind = rules.segment_kind(solution, r, c)
        assert kind is not None, "the intended solution is a legal layout"
        return (*clues, (r, c, kind))

    def polish(self, clues: tuple[Clue, ...], solution: Grid, rng: random.Random, deadline: Deadline) -> tuple[Clue, ...]:
        kept = set(clues)
        order = list(clues)
        rng.shuffle(order)
        for clue in order:
            self.polish_calls += 1
            if self._other(frozenset(kept - {clue}), deadline) is None:
                kept.discard(clue)
        return tuple(sorted(kept))

    def close(self) -> None:
        if self._sat is not None:
            self._sat.close()
        self._sat = self._model = None


def generate_unique(params: BattleshipParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    """A unique puzzle whose revealed cells are minimal, of any difficulty."""
    rows, cols = params.shape()
    steps = BattleshipSteps(rows, cols, params.ships(), deadline, backend)
    try:
        result = generate(steps, seed, deadline, max_rounds=rows * cols + 1)
    finally:
        steps.close()
    row_counts, col_counts = counts(result.solution)
    result.puzzle = rules.BattleshipPuzzle(
        rows=rows,
        cols=cols,
        fleet=steps.fleet,
        row_counts=row_counts,
        col_counts=col_counts,
        revealed=[{"cell": (r, c), "kind": kind} for r, c, kind in result.puzzle],
    )
    result.solution = rules.BattleshipAnswer(ships=result.solution)
    return result


def layout_draw(params: BattleshipParams, seed: int, deadline: Deadline) -> Generated:
    """A random layout with its counts and no revealed cell: where a level below the top starts. The
    reveals then open it until that level's techniques finish it, and techniques that only make sound
    deductions and decide every cell prove it unique, so no SAT call is needed (a minimal draw's clues
    would mostly be revealed over anyway)."""
    rows, cols = params.shape()
    rng = random.Random(seed)
    fleet = params.ships()
    ships = random_layout(rows, cols, fleet, rng) or sat_layout(rows, cols, fleet, rng, deadline)
    row_counts, col_counts = counts(ships)
    puzzle = rules.BattleshipPuzzle(rows=rows, cols=cols, fleet=fleet, row_counts=row_counts, col_counts=col_counts,
                                    revealed=[])
    return Generated(puzzle, rules.BattleshipAnswer(ships=ships))


def generate_puzzle(params: BattleshipParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    """A unique puzzle of the asked level: draws opened up by revealing cells until a person solves it with
    that level's techniques (Tatham's rule: and not with the level below). The levels below the top draw
    bare layouts (``layout_draw``). The top level draws minimal clue sets (``generate_unique``) on grids
    up to ``MINIMAL_TOP_CELLS``, where many such draws are of that level as they are; on larger grids
    nearly every one is beyond it, so the reveals open it anyway, and its SAT proofs were most of a
    request's time: there it draws bare layouts too."""
    target = human.SOLVER.level_names.index(params.difficulty)
    rows, cols = params.shape()
    minimal = target == len(human.SOLVER.level_names) - 1 and rows * cols <= MINIMAL_TOP_CELLS
    return generate_at_level(lambda draw, limit: (generate_unique(params, draw, limit, backend) if minimal
                                                  else layout_draw(params, draw, limit)),
                             lambda puzzle, limit: human.grade_within(human.board_of(puzzle), target, limit),
                             params.difficulty, seed, deadline, adjust=RevealToward(params.difficulty))


class RevealToward:
    """Reveal cells where the target level's techniques get stuck until they finish the puzzle.

    Each round tries a few of the stuck cells (ship cells first: a segment's shape says more than
    water) and keeps the one after which the target level decides the most cells. Revealing only adds
    clues, so the puzzle stays unique. A draw that turns out easier than the target is dropped:
    removing clues would need a new uniqueness proof.

    The top level takes a minimal draw as it is when the draw is of that level. On large grids nearly
    every minimal draw is beyond every level, so redrawing until one fits overran the request budget;
    a draw beyond the top level is opened the same way instead, which ends on the first draw or the
    next."""

    def __init__(self, level: str, tries: int = 6):
        self.target = human.SOLVER.level_names.index(level)
        self.tries = tries

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        if graded.level is not None:
            return None  # easier than the target (``grade_within`` says None for harder)
        puzzle, ships = generated.puzzle, generated.solution.ships
        board = human.board_of(puzzle)
        stuck = human.stuck_state(board, self.target, deadline=deadline)
        revealed = dict(board.revealed)
        while not stuck.solved:
            open_cells = [i for i, v in enumerate(stuck.values) if v is None]
            ship_cells = [i for i in open_cells if ships[i // puzzle.cols][i % puzzle.cols]]
            choices = rng.sample(ship_cells, min(self.tries, len(ship_cells))) or rng.sample(open_cells, 1)
            rest = [i for i in open_cells if i not in choices]
            rng.shuffle(rest)
            best = None
            while best is None:
                tried = []
                for i in choices:
                    deadline.check()
                    kind = rules.segment_kind(ships, *divmod(i, puzzle.cols))
                    # The placements stay those of the clues before: a superset, so the look-ahead is sound.
                    trial = dataclasses.replace(board, revealed={**revealed, i: kind})
                    tried.append((self._rank(trial, stuck, deadline), len(tried), i, kind, trial))
                tried.sort(key=lambda t: t[:2])
                first = None
                for _, order, i, kind, trial in tried:
                    state = human.stuck_state(trial, self.target, stuck.copy(), deadline)
                    first = first or (state.undecided, order, i, kind, state)
                    if not self._too_easy(puzzle, revealed, (state.undecided, order, i, kind, state), deadline):
                        best = (state.undecided, order, i, kind, state)
                        break
                choices, rest = rest[:self.tries], rest[self.tries:]
                if best is None and not choices:
                    best = first  # every cell left finishes it at the level below too: the draw is dropped
            revealed[best[2]] = best[3]
            board = dataclasses.replace(board, revealed=revealed)
            stuck = best[4]
        generated.puzzle = rules.BattleshipPuzzle.model_validate({**puzzle.model_dump(), "revealed": [
            {"cell": divmod(i, puzzle.cols), "kind": kind} for i, kind in sorted(revealed.items())]})
        return generated

    def _rank(self, trial: human.Board, stuck: GridState, deadline: Deadline) -> int:
        """How many cells a reveal leaves undecided, fewest first: at the target level itself for the levels
        without look-aheads (the kernel's propagation is cheap), and by that propagation alone above them,
        where the target level then follows only the best-ranked reveal, not every one tried."""
        return human.stuck_state(trial, min(self.target, 1), stuck.copy(), deadline).undecided

    def _too_easy(self, puzzle: rules.BattleshipPuzzle, revealed: dict[int, str],
                  tried: tuple[int, int, int, str, GridState], deadline: Deadline) -> bool:
        """Whether a reveal that lets the target level finish also lets the level below finish the puzzle
        (with the placements its clues allow, as grading sees it): that puzzle would be dropped, so a
        choice that finishes only at the target level, or one that does not finish yet, goes first."""
        if not tried[4].solved or self.target == 0:
            return False
        clues = {**revealed, tried[2]: tried[3]}
        board = human.board_of(puzzle.model_copy(update={"revealed": [
            rules.Revealed(cell=divmod(i, puzzle.cols), kind=kind) for i, kind in sorted(clues.items())]}))
        return human.stuck_state(board, self.target - 1, deadline=deadline).solved


def warm_up() -> None:
    """Load the SAT library and its C extension, and the techniques' compiled kernel, once per worker,
    outside any request."""
    human.warm_up()
    generate_puzzle(BattleshipParams(size=MIN_SIDE), 0, Deadline.never())


PUZZLE_TYPE = PuzzleType(
    name="battleship",
    id_prefix="bat",
    summary="Place the fleet so ships never touch, not even diagonally, matching the row/column counts "
    "and the revealed cells.",
    params_model=BattleshipParams,
    puzzle_model=rules.BattleshipPuzzle,
    answer_model=rules.BattleshipAnswer,
    generate=generate_puzzle,
    check=rules.check,
    solve=rules.solve,
    render=picture.render,
    parse_url=puzzlink.parse_battleship_url,
    to_url=puzzlink.battleship_url,
    backends=rules.BACKENDS,
    catalogue={
        "revealed_kinds": list(rules.KINDS),
        "standard_fleets": {
            "b=3 (up to 7×7)": rules.standard_fleet(7, 7),
            "b=4 (up to 11×11)": rules.standard_fleet(11, 11),
            "b=5 (larger)": rules.standard_fleet(15, 15),
        },
        "counts": "row_counts/col_counts entries may be null (not given) in puzzles to solve",
    },
    warm_up=warm_up,
    difficulty=human.DIFFICULTY,
    play_script="solvers/battleship/play.js",  # revealed cells fixed, ship cells drawn as segments
)
