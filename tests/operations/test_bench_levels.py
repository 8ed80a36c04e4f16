"""The scaling benchmark runs: its default-level rows take turns seed by seed and print the ratio."""

from __future__ import annotations

import dataclasses
import re

import pytest
from pydantic import BaseModel

from bench import bench_levels
from generators.pipeline import Generated
from generators.registry import TYPES
from solvers.common import Deadline


def test_default_level_rows_take_turns_and_print_their_ratio(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    order = []
    kind = TYPES["sudoku"]
    original = bench_levels.UNGRADED["sudoku"]

    def ungraded(params: BaseModel, seed: int, deadline: Deadline) -> Generated:
        order.append(("ungraded", seed))
        return original(params, seed, deadline)

    def graded(params: BaseModel, seed: int, deadline: Deadline) -> Generated:
        order.append(("level", seed))
        return kind.generate(params, seed, deadline)

    monkeypatch.setitem(bench_levels.UNGRADED, "sudoku", ungraded)
    monkeypatch.setitem(bench_levels.TYPES, "sudoku", dataclasses.replace(kind, generate=graded))
    bench_levels.in_process(["sudoku"], 3, markdown=False, default_only=True)
    assert order == [(run, seed) for seed in range(3) for run in ("ungraded", "level")]
    printed = capsys.readouterr().out
    assert re.search(r"sudoku\s+\(ungraded\)\s+9", printed) and re.search(r"sudoku\s+medium\s+9", printed)
    ratio = float(re.search(r"ratio of medians (\d+\.\d+)", printed).group(1))
    assert ratio > 0
