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


# Made here by Debian's sgt-puzzles (`sgt-solo --generate 40 3x3kdu`): an Unreasonable puzzle with a cage of eight.
EIGHT = ("3x3k:zzzc,_ab_a___a__a_______________a_____a_aa_a__a__aaacaac_a____b_____aaaaaa_b_aa_aaa__babaaacaaaa,"
         "17_8a17b14_3b25_3_12_14b11_14d9a7b6a14_7a7a12_14d21a17b11a10d42_4_8b28_17d5c17d11h")


def test_an_id_with_a_cage_of_eight_reads_writes_back_and_is_solved_alone_on_both_backends() -> None:
    """Solo's harder levels merge cages to eight or nine cells: such an ID is read, written back exactly and solved
    (one answer on CaDiCaL and z3, the same), as any other."""
    from generators.killer_sudoku import check, solve
    from solvers.common import Deadline
    from solvers.killer_sudoku.rules import KillerSudokuAnswer

    puzzle = parse_tatham(EIGHT)
    assert max(len(cage.cells) for cage in puzzle.cages) == 8
    assert to_tatham(puzzle) == EIGHT
    answers = [solve(puzzle, 2, Deadline.after(120), backend) for backend in ("cadical", "z3")]
    assert [found.count for found in answers] == [1, 1] and answers[0].solutions == answers[1].solutions
    assert check(puzzle, KillerSudokuAnswer(**answers[0].solutions[0])) == []
