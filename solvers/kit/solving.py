"""A kit genre's ``solve``: its model's answers counted on a SAT backend, over the rules' encoding
(``solvers.kit.rules.Encoding``). A loop or a network (``Connected``) is encoded by cuts added as models come, and
a large open board can take tens of thousands of such models before the proof that there is no second answer; so
for such a model what the rules and their trials decide on the kit's arrays (``solvers.kit.arrays.State``) goes in
first, as unit clauses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.common import Deadline, SolveOutcome
from solvers.kit.arrays import State
from solvers.kit.rules import Connected, Encoding, Model
from solvers.sat import count_models, make_backend


def settled(model: Model, deadline: Deadline, trials: bool = False) -> list[int | None] | None:
    """What the rules alone decide (None: open), and with ``trials`` what a key assumed either way and followed to
    a broken rule decides: every answer has those values. None when the rules clash (no answer)."""
    state = State(model)
    used: set[int] = set()
    if state.follow(None, None, used) or trials and not state.trials(None, used, deadline=deadline):
        return None
    return [value if value >= 0 else None for value in state.values]


def solve(model: Model, limit: int, deadline: Deadline, backend: str | None = None,
          keep: int | None = None, settle: bool = True) -> SolveOutcome:
    """Count the answers up to ``max(limit, 2)`` on a SAT backend (CaDiCaL by default, z3 the second opinion),
    keeping the first ``keep``; a model with a ``Connected`` rule starts from what is ``settled`` unless not to
    ``settle`` (a generator's small boards, where the cuts cost less than the trials)."""
    decided: list[int | None] | None = [None] * len(model.keys)
    if settle and any(isinstance(rule, Connected) for rule in model.rules):
        decided = settled(model, deadline, trials=True)
        if decided is None:
            return SolveOutcome([], True, count=0)
    with make_backend(backend or "cadical") as sat:
        encoding = Encoding(sat, model)
        for key, value in zip(model.keys, decided, strict=True):
            if value is not None:
                sat.add_clause([encoding.var[key] if value else -encoding.var[key]])
        found, counted, complete = count_models(sat, list(encoding.var.values()), max(limit, 2), deadline,
                                                encoding.refine, keep=keep)
    return SolveOutcome([model.layout.write(encoding.ones(true)) for true in found], complete, count=counted)


def solver(model_of: Callable[[Any], Model]) -> Callable[..., SolveOutcome]:
    """A kit genre's ``solve``: its model of the puzzle counted (``solve``)."""

    def solve_puzzle(puzzle: Any, limit: int, deadline: Deadline, backend: str | None = None,
                     keep: int | None = None, settle: bool = True) -> SolveOutcome:
        return solve(model_of(puzzle), limit, deadline, backend, keep, settle)

    return solve_puzzle
