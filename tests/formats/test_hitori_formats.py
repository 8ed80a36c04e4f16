"""Hitori's two interchange formats: pzprjs's `hitori` URLs and Tatham's Singles game IDs both ways, published ones
read, and through the service a stored puzzle goes out and back in each."""

from __future__ import annotations

import random

import pytest

from solvers.common import InvalidInput
from solvers.hitori.puzzlink import parse_url, to_url
from solvers.hitori.rules import HitoriPuzzle
from solvers.hitori.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


@pytest.mark.parametrize("seed", range(20))
def test_both_formats_read_what_they_write(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 30)
    puzzle = HitoriPuzzle(size=n, numbers=[[rng.randint(1, n) for _ in range(n)] for _ in range(n)])
    assert parse_url(to_url(puzzle)) == puzzle
    assert parse_tatham(to_tatham(puzzle)) == puzzle


def test_published_urls_and_game_ids_read_back_as_written() -> None:
    url = read_jsonl(REFERENCE / "hitori" / "pzprjs.jsonl")[0]["url"]
    puzzle = parse_url(url)
    assert puzzle.numbers[0] == [1, 1, 1, 4] and to_url(puzzle) == url
    for entry in read_jsonl(REFERENCE / "hitori" / "tatham.jsonl"):
        assert to_tatham(parse_tatham(entry["tatham"])) == entry["tatham"]
    assert parse_tatham("12x12:" + "c" * 144).numbers[0][0] == 12


def test_what_cannot_be_read_says_why() -> None:
    with pytest.raises(InvalidInput, match="square"):
        parse_url("https://puzz.link/p?hitori/3/2/123123")
    with pytest.raises(InvalidInput, match="needs its number"):
        parse_url("https://puzz.link/p?hitori/2/2/1.")
    with pytest.raises(InvalidInput, match="gives 3 numbers"):
        parse_tatham("2x2:121")
    with pytest.raises(InvalidInput, match="Singles game ID"):
        parse_tatham("2x2:12?1")


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "hitori", size=5, difficulty="easy")
    url = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"}).json()["url"]
    tatham = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"}).json()["tatham"]
    assert url.startswith("https://puzz.link/p?hitori/5/5/") and tatham.startswith("5x5:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/hitori", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
