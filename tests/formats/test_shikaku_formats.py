"""Shikaku's two interchange formats: the published URL and game IDs read and written back unchanged, a stored
puzzle out and back in through the service as a puz.link URL and as Simon Tatham's Rect game ID, and a text
that cannot be read is a 422 that says why."""

from __future__ import annotations

import pytest

from solvers.common import InvalidInput
from solvers.shikaku.puzzlink import parse_url, to_url
from solvers.shikaku.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


@pytest.mark.parametrize("entry", read_jsonl(REFERENCE / "shikaku" / "tatham.jsonl"), ids=lambda e: e["tatham"][:20])
def test_tatham_ids_read_and_write_back_unchanged(entry: dict) -> None:
    puzzle = parse_tatham(entry["tatham"])
    assert to_tatham(puzzle) == entry["tatham"]
    assert parse_url(to_url(puzzle)) == puzzle


def test_numbers_past_one_hex_digit_and_long_runs_round_trip() -> None:
    puzzle = parse_tatham("30x2:40zd12_3za")  # a 40, 30 empty cells, a 12 and a 3 side by side, 27 empty
    assert puzzle.numbers[0][0] == 40 and puzzle.numbers[1][:4] == [None, 12, 3, None]
    assert to_tatham(puzzle) == "30x2:40zd12_3za"
    assert parse_url(to_url(puzzle)) == puzzle


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "shikaku", size=7, difficulty="easy")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?shikaku/7/7/") and tatham.startswith("7x7:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/shikaku", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/shikaku", json=body).json()
        assert graded["level"] == "easy" and graded["status"] == "unique", body


def test_published_puzzles_are_read_by_solve(client) -> None:
    entry = read_jsonl(REFERENCE / "shikaku" / "pzprjs.jsonl")[0]
    solved = client.post("/solve/shikaku", json={"url": entry["url"]}).json()
    assert solved["status"] == "unique"
    tathams = client.post("/solve/shikaku", json={"tatham": read_jsonl(REFERENCE / "shikaku" / "tatham.jsonl")[0]["tatham"]})
    assert tathams.status_code == 200 and tathams.json()["status"] == "unique"


@pytest.mark.parametrize(("text", "says"), [("7x7:zz", "cells"), ("7x7:3g2", "cells"), ("7x7;3", "game ID"),
                                            ("40x40:a", "out of range")])
def test_a_game_id_that_cannot_be_read_says_why(text: str, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        parse_tatham(text)


def test_what_cannot_be_read_is_a_422_that_says_why(client) -> None:
    bad = client.post("/solve/shikaku", json={"tatham": "7x7:zz"})
    assert bad.status_code == 422 and "cells" in bad.text
    question = client.post("/solve/shikaku", json={"url": "https://puzz.link/p?shikaku/3/3/.h"})
    assert question.status_code == 422 and "question mark" in question.text
