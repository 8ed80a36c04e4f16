"""Killer Sudoku as Tatham's Solo killer game IDs: his IDs read and written back exactly, givens included, and bad
IDs refused with a reason."""

from __future__ import annotations

import pytest

from solvers.common import InvalidInput
from solvers.killer_sudoku.rules import KillerSudokuPuzzle
from solvers.killer_sudoku.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl


@pytest.mark.parametrize("entry", read_jsonl(REFERENCE / "killer-sudoku" / "tatham.jsonl"), ids=lambda e: e["preset"])
def test_tathams_ids_read_and_write_back_exactly(entry: dict) -> None:
    puzzle = parse_tatham(entry["tatham"])
    assert to_tatham(puzzle) == entry["tatham"]
    assert sum(cage.sum for cage in puzzle.cages) == 405  # every cell in a cage: the grid's digits sum to 9 × 45


def test_givens_round_trip() -> None:
    entry = read_jsonl(REFERENCE / "killer-sudoku" / "tatham.jsonl")[0]
    puzzle = parse_tatham(entry["tatham"])
    givens = [[entry["digits"][r][c] if (r * 9 + c) % 7 == 0 or (r, c) == (0, 1) else 0 for c in range(9)] for r in range(9)]
    shown = KillerSudokuPuzzle(givens=givens, cages=puzzle.cages)
    assert parse_tatham(to_tatham(shown)) == shown


@pytest.mark.parametrize(("text", "why"), [("3x3:zzzc", "reads"), ("3x3k:zzzb,_,a", "81"),
                                           ("3x3k:zzzc,_,zzzc", "walls cover")])
def test_bad_ids_say_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(InvalidInput, match=why):
        parse_tatham(text)
