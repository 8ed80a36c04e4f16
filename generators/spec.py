"""The description of a puzzle type that the HTTP layer, the store and the CLI work from.

Each ``generators/<type>.py`` builds one ``PuzzleType`` from its params model and its steps, and
``solvers/<type>.py`` supplies the puzzle/answer models, the rules checker and the solver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from generators.pipeline import Generated
from solvers.common import Deadline, SolveOutcome, Violation


@dataclass
class Verdict:
    """The result of checking an answer: every broken rule, plus type-specific facts (e.g. scores)."""

    violations: list[Violation]
    extra: dict[str, Any] = field(default_factory=dict)


def as_verdict(checked: list[Violation] | Verdict) -> Verdict:
    return checked if isinstance(checked, Verdict) else Verdict(checked)


@dataclass(frozen=True)
class PuzzleType:
    name: str  # the `{type}` path segment
    id_prefix: str  # stored ids look like `dab-3f2a...`
    summary: str
    params_model: type[BaseModel]  # generation parameters (query string), without `seed`
    puzzle_model: type[BaseModel]
    answer_model: type[BaseModel]
    generate: Callable[[Any, int, Deadline], Generated]  # (params, seed, deadline)
    # (puzzle, answer) -> every broken rule, or a Verdict when the type adds facts; raises InvalidInput on shape errors
    check: Callable[[Any, Any], list[Violation] | Verdict]
    solve: Callable[[Any, int, Deadline, str | None], SolveOutcome]  # (puzzle, limit, deadline, backend)
    catalogue: dict[str, Any] = field(default_factory=dict)  # extra facts for GET /types
    warm_up: Callable[[], None] | None = None  # run once per worker at start-up (e.g. JIT compile)
    # Puzzle from a plain-text format (e.g. number-sums CSV); raises InvalidInput with a clear message.
    parse_text: Callable[[str], BaseModel] | None = None
    # Checking an answer is cheap and bounded (the models cap the sizes): the server runs it itself, as a
    # round trip to a worker process would cost more than the check. False sends it to the verify workers.
    check_in_process: bool = True
