"""The description of a puzzle type that the HTTP layer, the store and the CLI work from.

Each ``generators/<type>.py`` builds one ``PuzzleType`` from its params model and its steps, and
``solvers/<type>.py`` supplies the puzzle/answer models, the rules checker and the solver. The HTTP
layer knows types only through this: new per-type facts are new optional fields here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from generators.pipeline import Generated
from solvers.common import Deadline, SolveOutcome, Violation
from solvers.techniques.human import Difficulty

Params = TypeVar("Params", bound=BaseModel)
Puzzle = TypeVar("Puzzle", bound=BaseModel)
Answer = TypeVar("Answer", bound=BaseModel)
PuzzleT = TypeVar("PuzzleT", bound=BaseModel, contravariant=True)


@dataclass
class Verdict:
    """The result of checking an answer: every broken rule, plus type-specific facts (e.g. scores)."""

    violations: list[Violation]
    extra: dict[str, Any] = field(default_factory=dict)


def as_verdict(checked: list[Violation] | Verdict) -> Verdict:
    return checked if isinstance(checked, Verdict) else Verdict(checked)


class Solver(Protocol[PuzzleT]):
    def __call__(
        self, puzzle: PuzzleT, limit: int, deadline: Deadline, backend: str | None = None, keep: int | None = None
    ) -> SolveOutcome:
        """Count up to ``max(limit, 2)`` solutions (so unique and multiple are told apart), keep the
        first ``keep`` (all when None); ``backend`` is one of the type's ``backends`` (None: the first)."""
        ...


@dataclass(frozen=True)
class TathamPreset:
    """One of Simon Tatham's presets and our parameters at the same size and level."""

    preset: str  # what `sgt-<game> --generate N <preset>` takes, e.g. "7x7b20s4d0"
    level: int  # his level's rank among his levels, 0 = his easiest
    params: dict[str, Any]  # our generation parameters for it


@dataclass(frozen=True)
class PuzzleType(Generic[Params, Puzzle, Answer]):
    name: str  # the `{type}` path segment
    id_prefix: str  # stored ids look like `dab-3f2a...`
    summary: str
    params_model: type[Params]  # generation parameters (query string), without `seed`
    puzzle_model: type[Puzzle]
    answer_model: type[Answer]
    generate: Callable[[Params, int, Deadline], Generated]  # (params, seed, deadline)
    # (puzzle, answer) -> every broken rule, or a Verdict when the type adds facts; raises InvalidInput on shape errors
    check: Callable[[Puzzle, Answer], list[Violation] | Verdict]
    solve: Solver[Puzzle]
    backends: tuple[str, ...]  # what `backend` of a solve request may name; the first is the default
    catalogue: dict[str, Any] = field(default_factory=dict)  # extra facts for GET /types
    warm_up: Callable[[], None] | None = None  # run once per worker at start-up (e.g. JIT compile)
    # Puzzle from a plain-text format (e.g. number-sums CSV); raises InvalidInput with a clear message.
    parse_text: Callable[[str], Puzzle] | None = None
    # The name of that format: the solve request's field for the text and the body's media type `text/<format>`.
    text_format: str = "text"
    # Checking an answer is cheap and bounded (the models cap the sizes): the server runs it itself, as a
    # round trip to a worker process would cost more than the check. False sends it to the verify workers, and
    # ``check`` is then a search that takes the request's deadline as a third argument (raising BudgetExceeded).
    check_in_process: bool = True
    # (puzzle, answer or None, play) -> SVG text: the picture of the puzzle, or of its solution. In play
    # mode each cell is a `<g data-cell="r,c">` the play page styles by class.
    render: Callable[..., str] | None = None
    # Puzzle from / to a puzz.link URL (pzprjs); parse raises InvalidInput saying what cannot be read.
    parse_url: Callable[[str], BaseModel] | None = None
    to_url: Callable[[Any], str] | None = None
    # Puzzle from / to Simon Tatham's game ID (what `sgt-<game> --generate` prints), where his collection has the genre.
    parse_tatham: Callable[[str], BaseModel] | None = None
    to_tatham: Callable[[Any], str] | None = None
    # His program for the genre (`/usr/games/sgt-<tatham_game>`) and the presets to compare with (bench.versus_tatham):
    # each his preset string, the rank of its level among his levels (0 = his easiest), and our params that match it.
    tatham_game: str | None = None
    tatham_presets: tuple[TathamPreset, ...] = ()
    # Levels for people, grading and hints; the params model then has a `difficulty` field.
    difficulty: Difficulty | None = None
    # The play page's shared widget (app/static/play.js) for this type's board: "cycle" (a cell cycles
    # undecided -> filled -> empty; the answer is the answer model's first field, a 0/1 grid), "square" (pick
    # one square: the answer is `{move}`), "pieces" (place polyominoes: `{placements}`) or "digits" (type a
    # digit or pencil marks per cell: `{digits}`, app/static/play-digits.js).
    play_mode: str = "cycle"
    # The genre's own addition to that widget, if any: an ES module shipped inside the genre's folder, named
    # by its path in the package, e.g. "solvers/nonogram/play.js" (package `solvers.nonogram`, file
    # `play.js`). The play page imports it (served under /play/assets/<type>/<file>) and calls its exported
    # `setup({data, cells, state, rows, cols})`, which may return `fixed` (a Map "r,c" -> "filled" / "empty"
    # of cells decided from the start) and `changed(key)` (called after each cell's state changes).
    play_script: str | None = None
    # For a genre built on the kit: its model of a puzzle (``solvers.kit.rules.Model``). The conformance suite
    # flips each of its keys and follows hints through its layout, whatever shape the answer has.
    model: Callable[[Any], Any] | None = None
