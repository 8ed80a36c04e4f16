"""Kakuro's puz.link format: pzprjs's own example read and written back character for character, every puzzle of
ours that pzprjs accepted read back the same, and a stored puzzle out as a URL and in again through the service.
(Simon Tatham's collection has no Kakuro.)"""

from __future__ import annotations

import pytest

from solvers.kakuro.puzzlink import parse_url, to_url
from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate

ENTRIES = read_jsonl(REFERENCE / "kakuro" / "pzprjs.jsonl") + read_jsonl(REFERENCE / "kakuro" / "pzprjs-checked.jsonl")


def test_pzprjs_example_reads_as_published() -> None:
    puzzle = parse_url("https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3")
    assert puzzle.black[0] == [1, 0, 0, 1, 1] and puzzle.across[0][0] == 8 and puzzle.down[0][0] == 4
    assert puzzle.left == [None, 10, 3, None, None] and puzzle.top == [None, 12, 4, None, None]
    assert puzzle.down[2][2] == 17 and puzzle.across[2][2] == 3 and puzzle.across[1][4] is None


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["url"][-24:])
def test_urls_read_and_write_back_the_same(entry: dict) -> None:
    assert to_url(parse_url(entry["url"])) == entry["url"]


def test_a_long_stretch_of_white_cells_and_big_sums_round_trip() -> None:
    """16 white cells are one `z`, sums of 20 and more capitals (pzprjs read this URL and wrote it back the same)."""
    url = "https://puzz.link/p?kakuro/18/2/s0Zzk0Yr33333333333333333ZZ"
    puzzle = parse_url(url)
    assert puzzle.across[0][9] == 45 and puzzle.across[1][9] == 44 and puzzle.down[0][9] is None
    assert puzzle.left == [45, 45] and puzzle.top[:9] == [3] * 9 and puzzle.top[9] is None
    assert to_url(puzzle) == url


def test_a_stored_puzzle_goes_out_and_comes_back(client) -> None:
    record = generate(client, "kakuro", size=6, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    assert link.status_code == 200
    url = link.json()["url"]
    assert url.startswith("https://puzz.link/p?kakuro/6/6/")
    solved = client.post("/solve/kakuro", json={"url": url}).json()
    assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]]
    graded = client.post("/grade/kakuro", json={"url": url}).json()
    assert graded["level"] == "medium" and graded["status"] == "unique"
    bad = client.post("/solve/kakuro", json={"url": "https://puzz.link/p?kakuro/5/5/48la0"})
    assert bad.status_code == 422
