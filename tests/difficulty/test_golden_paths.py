"""The human model's grades, solution paths and hints on a fixed sample equal the stored record of them
(``tests/data/golden``, written by ``tests/golden.py``): a faster engine must change nothing a player or
the level tables see."""

from __future__ import annotations

import pytest

from generators.registry import TYPES
from tests import golden

CASES = [(name, line) for name in sorted(golden.HUMAN_SOLVERS) + ["othello"] for line in golden.load(name)]


@pytest.mark.parametrize(("type_name", "line"), CASES, ids=[f"{n}:{line['label']}" for n, line in CASES])
def test_grade_path_and_hints_are_unchanged(type_name: str, line: dict) -> None:
    now = golden.record(type_name, line["label"], line["puzzle"], line["solution"])
    assert now["grade"] == line["grade"]
    assert now["path"] == line["path"]
    assert now["walk"] == line["walk"]
    assert now["hints"] == line["hints"]


def test_the_sample_covers_every_level_of_every_graded_type() -> None:
    for name, kind in TYPES.items():
        if kind.difficulty is None or name not in {n for n, _ in CASES}:
            continue
        seen = {line["grade"]["level"] for n, line in CASES if n == name}
        assert set(kind.difficulty.names) <= seen, name
