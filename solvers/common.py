"""Types shared by every puzzle type: deadlines, violations, solve results, errors."""

from __future__ import annotations

import fcntl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

Cell = tuple[int, int]


class BudgetExceeded(Exception):
    """The work ran past its time budget; the HTTP layer turns this into a 503."""


class InvalidInput(ValueError):
    """A puzzle or answer that is not even well formed; the HTTP layer turns this into a 422.

    ``violations`` carries the same stable codes a rules check would, so a client can act on them.
    """

    def __init__(self, message: str, violations: list[Violation] | None = None):
        super().__init__(message)
        self.message = message
        self.violations = violations or []


@dataclass(frozen=True)
class Deadline:
    """An absolute point in time on the monotonic clock; passed down so long work can stop itself."""

    at: float

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        return cls(float("inf") if seconds is None else time.monotonic() + seconds)

    @classmethod
    def never(cls) -> Deadline:
        return cls(float("inf"))

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def check(self) -> None:
        if self.expired():
            raise BudgetExceeded("time budget exceeded")


class Violation(BaseModel):
    """One broken rule: a stable machine-readable code, a sentence for people, and the cells."""

    rule: str = Field(description="Stable code of the broken rule, e.g. `shaded-adjacent`.")
    message: str
    cells: list[list[int]] = Field(default_factory=list, description="[row, col] pairs involved.")


def at(cell: Cell) -> str:
    """A cell as a player names it in a sentence: rows and columns counted from 1 (`cells` stay 0-based)."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def violation(rule: str, message: str, cells: list[Cell] | None = None) -> Violation:
    return Violation(rule=rule, message=message, cells=[[r, c] for r, c in (cells or [])])


Status = Literal["none", "unique", "multiple"]


@dataclass
class SolveOutcome:
    """What a solver found: the solutions it kept, how many it counted, and whether it proved there are no more.

    Solvers count up to a limit of at least two and keep only the first few solutions (``keep``), so
    a count of thousands costs no memory; ``count`` defaults to the number of solutions kept.
    """

    solutions: list[Any]
    complete: bool
    extra: dict[str, Any] = field(default_factory=dict)
    count: int = -1

    def __post_init__(self) -> None:
        if self.count < 0:
            self.count = len(self.solutions)

    @property
    def status(self) -> Status:
        if self.count == 0:
            return "none"
        return "unique" if self.count == 1 else "multiple"


def grid_shape_violations(
    grid: Any, rows: int, cols: int, name: str, allowed: set[int] | range
) -> list[Violation]:
    """Shape errors for an R×C integer grid: wrong dimensions or values outside ``allowed`` (rows named
    from 1, as every sentence counts)."""
    if not isinstance(grid, list) or len(grid) != rows:
        got = len(grid) if isinstance(grid, list) else type(grid).__name__
        return [violation("wrong-dimensions", f"`{name}` must have {rows} rows, got {got}")]
    out: list[Violation] = []
    for r, row in enumerate(grid, start=1):
        if not isinstance(row, list) or len(row) != cols:
            got = len(row) if isinstance(row, list) else type(row).__name__
            out.append(violation("wrong-dimensions", f"`{name}` row {r} must have {cols} values, got {got}"))
            continue
        bad = [(r - 1, c) for c, v in enumerate(row) if isinstance(v, bool) or not isinstance(v, int) or v not in allowed]
        if bad:
            shown = sorted(allowed) if len(allowed) <= 10 else f"{min(allowed)}..{max(allowed)}"
            out.append(violation("bad-value", f"`{name}` row {r} has values outside {shown}", bad))
    return out


@contextmanager
def compile_lock(key: str) -> Iterator[None]:
    """One process compiles a given warm-up's numba code into one cache at a time (``key``: the module whose
    warm-up it is): the others then load that cache in a fraction of a second instead of each spending seconds
    of CPU on the same compilation. Different warm-ups compile side by side (``python -m app.warm``). The lock
    lives in the cache it guards, so another installation (its own cache) never waits on this one's compiling."""
    import solvers

    cache = solvers.CACHE_DIR
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / f"compile-{key}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
