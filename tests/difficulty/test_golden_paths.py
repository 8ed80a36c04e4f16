"""Every graded type's one "same as before" (``tests/data/golden``, written by ``tests/golden.py``): a generated
line is made again from its params and seed and is the same puzzle of the same level, and the human model's
grade, solution path and hints on every line equal the record, so a faster generator or engine changes nothing a
player or the level tables see."""

from __future__ import annotations

import json

import pytest

from generators.registry import TYPES
from tests import golden

CASES = [(name, line) for name in golden.graded_types() for line in golden.load(name)]


@pytest.mark.parametrize(("type_name", "line"), CASES, ids=[f"{n}:{line['label']}" for n, line in CASES])
def test_puzzle_grade_path_and_hints_are_unchanged(type_name: str, line: dict) -> None:
    if line["made"] is not None:
        assert golden.made_again(type_name, line["made"]) == (line["puzzle"], line["solution"], line["grade"]["level"])
    now = golden.record(type_name, line["label"], line["made"], line["puzzle"], line["solution"])
    assert now["grade"] == line["grade"]
    assert now["path"] == line["path"]
    assert now["walk"] == line["walk"]
    assert now["hints"] == line["hints"]


@pytest.mark.parametrize("type_name", golden.graded_types())
def test_the_sample_covers_every_level_the_type_makes(type_name: str) -> None:
    """A graded type without a record fails here: ``python -m tests.golden capture <type>`` writes its first."""
    lines = golden.load(type_name)
    assert lines, f"no tests/data/golden/{type_name}.jsonl: run python -m tests.golden capture {type_name}"
    generated = [json.dumps(line["puzzle"], sort_keys=True) for line in lines if line["made"] is not None]
    assert len(set(generated)) == len(generated), "two seeds or levels made the same puzzle"
    kind = TYPES[type_name]
    made = {line["grade"]["level"] for line in lines if line["made"] is not None}
    assert made >= {level for level in kind.difficulty.names if golden.params_at(kind, level) is not None}  # type: ignore[union-attr]
