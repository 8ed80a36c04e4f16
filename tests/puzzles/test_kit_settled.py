"""What the kit settles before a count (``solvers.kit.solving.settled``, on the kit's arrays): sound (every value it
decides is the answer's), complete where its trials reach, and a clash is no answer. A loop or a network is counted by cuts added
as models come; on an open board that took tens of thousands of models before the rules' trials went first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.registry import TYPES
from solvers.common import Deadline
from solvers.kit.rules import Connected
from solvers.kit.solving import settled
from solvers.slitherlink.rules import SlitherlinkPuzzle

OPEN_BOARD = Path(__file__).parents[1] / "data" / "slitherlink" / "open-15x15.json"
CONNECTED = [name for name, kind in TYPES.items()
             if kind.model is not None and name in ("slitherlink", "masyu", "hashi")]


@pytest.mark.parametrize("name", CONNECTED)
def test_what_is_settled_is_the_answers(name: str) -> None:
    kind = TYPES[name]
    model_of = kind.model
    assert model_of is not None
    for level in kind.difficulty.names if kind.difficulty else [None]:
        params = kind.params_model(**({"difficulty": level} if level else {}))
        for seed in range(2):
            made = kind.generate(params, seed, Deadline.after(60))
            model = model_of(made.puzzle)
            assert any(isinstance(rule, Connected) for rule in model.rules)
            answer = model.layout.read(made.solution.model_dump())
            values = settled(model, Deadline.after(60), trials=True)
            assert values is not None
            assert [v for v in values if v is not None], "the rules settle something"
            assert all(v is None or v == answer[key] for key, v in zip(model.keys, values, strict=True))


def test_an_open_board_is_settled_by_trials_and_counted_at_once() -> None:
    kind = TYPES["slitherlink"]
    puzzle = SlitherlinkPuzzle(**json.loads(OPEN_BOARD.read_text()))
    model = kind.model(puzzle)  # type: ignore[misc]
    alone = settled(model, Deadline.after(60))
    assert alone is not None
    assert sum(v is None for v in alone) > len(alone) // 2  # the rules alone leave most edges open
    with_trials = settled(model, Deadline.after(60), trials=True)
    assert with_trials is not None and None not in with_trials
    outcome = kind.solve(puzzle, 2, Deadline.after(60))
    assert outcome.count == 1 and outcome.complete
    assert model.layout.read(outcome.solutions[0]) == dict(zip(model.keys, with_trials, strict=True))
    assert kind.solve(puzzle, 2, Deadline.after(60), "z3").solutions == outcome.solutions


def test_rules_that_clash_count_no_answer() -> None:
    kind = TYPES["slitherlink"]
    clues: list[list[int | None]] = [[None] * 4 for _ in range(4)]
    clues[0][0] = clues[0][1] = 4  # two closed squares side by side: two loops, or an edge used by both
    outcome = kind.solve(SlitherlinkPuzzle(rows=4, cols=4, clues=clues), 2, Deadline.after(60))
    assert outcome.count == 0 and outcome.complete
