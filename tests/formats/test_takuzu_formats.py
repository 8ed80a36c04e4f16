"""Takuzu as Tatham's Unruly game ID: his IDs read and written back letter for letter, ours read back, errors."""

from __future__ import annotations

import random

import pytest

from solvers.common import InvalidInput
from solvers.takuzu.rules import TakuzuPuzzle
from solvers.takuzu.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl


def test_his_ids_read_and_write_back() -> None:
    entries = read_jsonl(REFERENCE / "takuzu" / "tatham.jsonl")
    assert entries
    for entry in entries:
        puzzle = parse_tatham(entry["tatham"])
        assert puzzle.unique_lines == ("u" in entry["preset"])
        assert to_tatham(puzzle) == entry["tatham"]
        assert all((v is None) or v == entry["grid"][r][c] for r, row in enumerate(puzzle.givens) for c, v in enumerate(row))


def test_a_known_id_reads_as_his_program_shows_it() -> None:
    """`8x8:KAbmGaeacaIACAea`: 10 open cells then a 1 (K), a 1 (A), one open then a 0 (b), ..."""
    puzzle = parse_tatham("8x8:KAbmGaeacaIACAea")
    flat = [v for row in puzzle.givens for v in row]
    assert flat[:14] == [None] * 10 + [1, 1, None, 0] and not puzzle.unique_lines
    assert sum(v is not None for v in flat) == 15


@pytest.mark.parametrize("seed", range(40))
def test_our_ids_read_back(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([4, 6, 8, 14])
    share = rng.choice([0.0, 0.02, 0.3, 1.0])  # long runs of open cells (z), none, all given
    givens = [[rng.randrange(2) if rng.random() < share else None for _ in range(n)] for _ in range(n)]
    puzzle = TakuzuPuzzle(size=n, givens=givens, unique_lines=rng.random() < 0.5)
    assert parse_tatham(to_tatham(puzzle)) == puzzle


def test_a_bad_id_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="cells"):
        parse_tatham("6x6:aB")
    with pytest.raises(InvalidInput, match="square"):
        parse_tatham("6x8:" + "z" * 2)
    with pytest.raises(InvalidInput, match="game ID"):
        parse_tatham("6x6:a1")
