"""Dabuhamienai ("doubles are unseen"): the rules, the checker and the SAT model.

Rules: (1) no two shaded cells touch orthogonally; (2) the unshaded cells form one orthogonally
connected region; (3) no number appears twice within a run of unshaded cells.

Rule 3 is a clause per pair of *consecutive* equal numbers in a line (at least one cell from the
first to the second is shaded; farther pairs are implied). Rule 2 is handled lazily: every
disconnected white region found in a model gets an exact cut, and the solver is asked again.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, Field, model_validator

from solvers import grid
from solvers.common import (
    Cell,
    Deadline,
    InvalidInput,
    SolveOutcome,
    Violation,
    at,
    grid_shape_violations,
    violation,
)
from solvers.sat import SatBackend, block, count_models, make_backend, solve_refined

BACKENDS = ("cadical", "z3")  # the first is the default: `python -m bench.bench_dabuhamienai --backend z3` compares
DEFAULT_BACKEND = BACKENDS[0]
MAX_SIZE = 30


class DabuhamienaiPuzzle(BaseModel):
    size: int = Field(ge=1, le=MAX_SIZE, description="N: the grid is N×N.")
    numbers: list[list[int]] = Field(description="N×N numbers, each 1..N.")

    @model_validator(mode="after")
    def _numbers_fit(self) -> DabuhamienaiPuzzle:
        problems = grid_shape_violations(self.numbers, self.size, self.size, "numbers", range(1, self.size + 1))
        if problems:
            raise ValueError("; ".join(p.message for p in problems))
        return self


class DabuhamienaiAnswer(BaseModel):
    shaded: list[list[int]] = Field(description="N×N of 0 (unshaded) / 1 (shaded).")


Grid = list[list[int]]


def neighbours(r: int, c: int, n: int) -> Iterator[Cell]:
    return grid.neighbours((r, c), n, n)


def white_regions(shaded: Grid) -> list[list[Cell]]:
    """Orthogonally connected regions of unshaded cells, largest first."""
    n = len(shaded)
    return sorted(grid.connected_regions(n, n, lambda cell: not shaded[cell[0]][cell[1]]), key=len, reverse=True)


def runs(shaded: Grid) -> Iterator[list[Cell]]:
    """Maximal stretches of unshaded cells along every row and column."""
    for line in grid.lines(len(shaded), len(shaded)):
        yield from grid.runs(line, lambda cell: not shaded[cell[0]][cell[1]])


def check(puzzle: DabuhamienaiPuzzle, answer: DabuhamienaiAnswer) -> list[Violation]:
    """Every broken rule with its cells; raises InvalidInput if the answer has the wrong shape."""
    n, numbers, shaded = puzzle.size, puzzle.numbers, answer.shaded
    shape = grid_shape_violations(shaded, n, n, "shaded", {0, 1})
    if shape:
        raise InvalidInput("; ".join(v.message for v in shape), shape)
    found: list[Violation] = []
    for r in range(n):
        for c in range(n):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr < n and cc < n and shaded[r][c] and shaded[rr][cc]:
                    message = f"Shaded cells touch at {at((r, c))} and {at((rr, cc))}"
                    found.append(violation("shaded-adjacent", message, [(r, c), (rr, cc)]))
    regions = white_regions(shaded)
    for region in regions[1:]:
        found.append(violation(
            "unshaded-disconnected",
            f"{len(region)} unshaded cell(s) are cut off from the largest unshaded region "
            f"({len(regions)} regions in all)",
            region,
        ))
    for run in runs(shaded):
        by_number: dict[int, list[Cell]] = {}
        for r, c in run:
            by_number.setdefault(numbers[r][c], []).append((r, c))
        for number, cells in by_number.items():
            if len(cells) > 1:
                message = f"{number} appears {len(cells)} times in one unshaded run"
                found.append(violation("duplicate-in-run", message, cells))
    return found


def run_clause(var: list[list[int]], line: list[Cell], first: int, last: int) -> list[int]:
    """Rule 3 for two equal numbers at ``line[first]`` and ``line[last]``: a cell between them,
    inclusive, is shaded."""
    return [var[r][c] for r, c in line[first: last + 1]]


class DabuhamienaiModel:
    """The puzzle as SAT: one variable per cell (true = shaded), rules 1 and 3 as clauses, rule 2 by cuts."""

    def __init__(self, backend: SatBackend, numbers: Grid | None = None, size: int | None = None):
        self.backend = backend
        self.n = n = len(numbers) if numbers is not None else int(size or 0)
        self.var = [[backend.new_var() for _ in range(n)] for _ in range(n)]
        self.cells = [v for row in self.var for v in row]
        for r in range(n):
            for c in range(n):
                for rr, cc in ((r, c + 1), (r + 1, c)):
                    if rr < n and cc < n:
                        backend.add_clause([-self.var[r][c], -self.var[rr][cc]])
        if numbers is not None:
            self.add_numbers(numbers)

    def add_numbers(self, numbers: Grid | dict[Cell, int]) -> None:
        """Rule 3 for fixed numbers: consecutive equal pairs suffice (farther pairs are implied).
        ``numbers`` may be a partial map, whose absent cells take part in no clause."""
        get = numbers.get if isinstance(numbers, dict) else (lambda cell: numbers[cell[0]][cell[1]])
        for line in grid.lines(self.n, self.n):
            last_at: dict[int, int] = {}
            for i, cell in enumerate(line):
                number = get(cell)
                if number is None:
                    continue
                if number in last_at:
                    self.backend.add_clause(run_clause(self.var, line, last_at[number], i))
                last_at[number] = i

    def grid(self, model: set[int]) -> Grid:
        return [[int(v in model) for v in row] for row in self.var]

    def connectivity_cuts(self, model: set[int]) -> list[list[int]]:
        """For each white region but the largest: its shaded border may not all stay shaded while
        one of its cells and one cell of the largest region are both white (exact, never cuts a
        valid solution: with the border shaded the region is closed off)."""
        shaded = self.grid(model)
        regions = white_regions(shaded)
        if len(regions) < 2:
            return []
        anchor = regions[0][0]
        cuts = []
        for region in regions[1:]:
            border = {nb for cell in region for nb in neighbours(*cell, self.n) if shaded[nb[0]][nb[1]]}
            cuts.append(
                [-self.var[r][c] for r, c in sorted(border)]
                + [self.var[region[0][0]][region[0][1]], self.var[anchor[0]][anchor[1]]]
            )
        return cuts

    def exclude(self, shaded: Grid) -> None:
        """Forbid one particular shading."""
        chosen = {self.var[r][c] for r in range(self.n) for c in range(self.n) if shaded[r][c]}
        self.backend.add_clause(block(chosen, self.cells))


class RepairableModel(DabuhamienaiModel):
    """One incremental solver for a whole generation attempt.

    The numbers of ``changeable`` cells vary between solves (the generator repairs them). Their
    rule-3 clauses carry the guard literal of the cell's current number, passed as an assumption;
    a replaced number's guard is retired for good. Connectivity cuts hold for any numbers, so
    everything the solver learns about rule 2 is kept across repairs.

    The solver is asked hundreds of times per attempt on large grids, so rule 2 is made cheap on
    both sides: small white islands (one cell, two cells) are forbidden up front, which removes
    most refinement rounds, and the remaining cuts come from a flat-index flood fill instead of
    the grid-of-tuples one ``check`` uses.
    """

    def __init__(self, backend: SatBackend, numbers: Grid, changeable: set[Cell]):
        super().__init__(backend, size=len(numbers))
        self.numbers = [row[:] for row in numbers]
        self.guard: dict[Cell, int] = {}
        self.changeable = frozenset(changeable)
        n = self.n
        self._adjacent = [[rr * n + cc for rr, cc in neighbours(i // n, i % n, n)] for i in range(n * n)]
        self._add_island_cuts()
        self.add_numbers({(r, c): numbers[r][c] for r in range(n) for c in range(n) if (r, c) not in changeable})
        for cell in sorted(changeable):
            self.set_number(cell, numbers[cell[0]][cell[1]])

    def _add_island_cuts(self) -> None:
        """No white cell or white domino may be walled in: with N >= 3 at least half the grid is
        white (rule 1), so such an island is never the whole white region. Implied by rule 2."""
        if self.n < 3:
            return
        cells, adjacent = self.cells, self._adjacent
        for i, around in enumerate(adjacent):
            self.backend.add_clause([cells[i]] + [-cells[j] for j in around])
            for j in around:
                if j > i:
                    wall = sorted({k for k in adjacent[i] + adjacent[j] if k not in (i, j)})
                    self.backend.add_clause([cells[i], cells[j]] + [-cells[k] for k in wall])

    def connectivity_cuts(self, model: set[int]) -> list[list[int]]:
        """Same cuts as the base model (one per white region but the largest), computed on flat indices."""
        cells, adjacent = self.cells, self._adjacent
        shaded = [v in model for v in cells]
        seen = [False] * len(cells)
        regions: list[list[int]] = []
        for start, dark in enumerate(shaded):
            if dark or seen[start]:
                continue
            seen[start] = True
            region, stack = [], [start]
            while stack:
                i = stack.pop()
                region.append(i)
                for j in adjacent[i]:
                    if not shaded[j] and not seen[j]:
                        seen[j] = True
                        stack.append(j)
            regions.append(region)
        if len(regions) < 2:
            return []
        regions.sort(key=len, reverse=True)
        anchor = cells[regions[0][0]]
        cuts = []
        for region in regions[1:]:
            border = sorted({j for i in region for j in adjacent[i] if shaded[j]})
            cuts.append([-cells[j] for j in border] + [cells[region[0]], anchor])
        return cuts

    def set_number(self, cell: Cell, number: int) -> None:
        """Give a changeable cell a new number: retire its old guard, guard the new pairs.

        A pair with another changeable cell carries both guards, so it lapses when either number
        changes. While the constructor is still giving changeable cells their first numbers, a
        pair with one not guarded yet is left to that cell's own call (an unguarded clause would
        outlive a later change of its number and wrongly forbid valid shadings)."""
        if cell in self.guard:
            self.backend.add_clause([-self.guard[cell]])
        self.numbers[cell[0]][cell[1]] = number
        guard = self.guard[cell] = self.backend.new_var()
        for line in (lines_through(cell, self.n)):
            at = line.index(cell)
            for j, other in enumerate(line):
                if j == at or self.numbers[other[0]][other[1]] != number:
                    continue
                if other in self.changeable and other not in self.guard:
                    continue
                guards = [-guard] + ([-self.guard[other]] if other in self.guard else [])
                self.backend.add_clause(guards + run_clause(self.var, line, min(at, j), max(at, j)))

    def other_solution(self, deadline: Deadline) -> Grid | None:
        found = solve_refined(self.backend, deadline, self.connectivity_cuts, list(self.guard.values()))
        return None if found is None else self.grid(found)


def lines_through(cell: Cell, n: int) -> tuple[list[Cell], list[Cell]]:
    r, c = cell
    return [(r, cc) for cc in range(n)], [(rr, c) for rr in range(n)]


def solve(
    puzzle: DabuhamienaiPuzzle, limit: int, deadline: Deadline, backend: str | None = None, keep: int | None = None
) -> SolveOutcome:
    with make_backend(backend or DEFAULT_BACKEND) as sat:
        model = DabuhamienaiModel(sat, puzzle.numbers)
        found, count, complete = count_models(sat, model.cells, max(limit, 2), deadline, model.connectivity_cuts, keep)
        return SolveOutcome([{"shaded": model.grid(m)} for m in found], complete, count=count)


def other_solution(numbers: Grid, shaded: Grid, deadline: Deadline, backend: str | None = None) -> Grid | None:
    """A valid shading other than ``shaded``, or None if ``shaded`` is the only one (a fresh model:
    the independent check of what the generator's incremental model concluded)."""
    with make_backend(backend or DEFAULT_BACKEND) as sat:
        model = DabuhamienaiModel(sat, numbers)
        model.exclude(shaded)
        found = solve_refined(sat, deadline, model.connectivity_cuts)
        return None if found is None else model.grid(found)
