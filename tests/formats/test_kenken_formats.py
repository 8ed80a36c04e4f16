"""KenKen as Tatham's Keen game IDs: his own IDs read and written back exactly, ours read back as the same
puzzle, and bad IDs refused with a reason."""

from __future__ import annotations

import pytest

from solvers.common import InvalidInput
from solvers.kenken.rules import KenkenPuzzle
from solvers.kenken.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl


@pytest.mark.parametrize("entry", read_jsonl(REFERENCE / "kenken" / "tatham.jsonl"), ids=lambda e: e["tatham"])
def test_tathams_ids_read_and_write_back_exactly(entry: dict) -> None:
    puzzle = parse_tatham(entry["tatham"])
    assert to_tatham(puzzle) == entry["tatham"]
    assert all(cage.op is None for cage in puzzle.cages if len(cage.cells) == 1)


@pytest.mark.parametrize("entry", read_jsonl(REFERENCE / "kenken" / "generated.jsonl")[:10], ids=lambda e: e["tatham"])
def test_our_puzzles_round_trip(entry: dict) -> None:
    puzzle = KenkenPuzzle(**entry["puzzle"])
    assert to_tatham(puzzle) == entry["tatham"]
    again = parse_tatham(entry["tatham"])
    assert {(tuple(map(tuple, c.cells)), c.target, c.op) for c in again.cages} == \
        {(tuple(sorted(map(tuple, c.cells))), c.target, c.op) for c in puzzle.cages}


def test_a_long_run_without_walls_is_written_with_z() -> None:
    puzzle = KenkenPuzzle(size=9, cages=[{"cells": [[r, c] for c in range(9)], "target": 45, "op": "+"} for r in range(9)])
    text = to_tatham(puzzle)
    assert "z" in text and parse_tatham(text) == puzzle


@pytest.mark.parametrize(("text", "why"), [("4:_a_3a", "reads"), ("12:_,a1", "1 to 9"), ("3:_,a1", "walls cover"),
                                           ("2:_5,a1a2a2", "cages and")])
def test_bad_ids_say_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(InvalidInput, match=why):
        parse_tatham(text)
