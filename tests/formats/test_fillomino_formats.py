"""Fillomino's two interchange formats: Tatham's game IDs and pzprjs's URLs read and written back unchanged, a
stored puzzle out and back in through the service as a puz.link URL and as a Filling game ID, and what cannot be
read (or written) is a 422 that says why."""

from __future__ import annotations

import random

import pytest

from solvers.common import InvalidInput
from solvers.fillomino.puzzlink import parse_url, to_url
from solvers.fillomino.rules import FillominoPuzzle
from solvers.fillomino.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def entries(name: str) -> list[dict]:
    return read_jsonl(REFERENCE / "fillomino" / f"{name}.jsonl")


def test_tatham_ids_and_pzprjs_urls_read_and_write_back_unchanged() -> None:
    for entry in entries("tatham"):
        puzzle = parse_tatham(entry["tatham"])
        assert to_tatham(puzzle) == entry["tatham"] and parse_url(to_url(puzzle)) == puzzle
    for entry in entries("pzprjs") + entries("generated"):
        puzzle = parse_url(entry["url"])
        assert to_url(puzzle) == entry["url"] and parse_tatham(to_tatham(puzzle)) == puzzle


def test_any_givens_round_trip() -> None:
    rng = random.Random(3)
    for _ in range(20):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        givens = [[rng.choice([None, None, None, 1, 2, rng.randint(1, min(9, rows * cols))]) for _ in range(cols)]
                  for _ in range(rows)]
        puzzle = FillominoPuzzle(rows=rows, cols=cols, givens=givens)
        assert parse_url(to_url(puzzle)) == puzzle and parse_tatham(to_tatham(puzzle)) == puzzle
    assert parse_tatham("3x2:1a0b2") == parse_tatham("3x2:1d2")  # an older ID writes an empty cell as 0


@pytest.mark.parametrize(("read", "text", "says"), [
    (parse_tatham, "7x7:zz", "cells"), (parse_tatham, "3x3;1", "game ID"), (parse_tatham, "40x40:a", "out of range"),
    (parse_tatham, "2x2:5c", "outside"),
    (parse_url, "https://puzz.link/p?fillomino/3/3/.h", "question mark"),
    (parse_url, "https://puzz.link/p?fillomino/t/3/3/1h", "at most 3"),
    (parse_url, "https://puzz.link/p?fillomino/2/2/1ic0", "region borders"),
    (parse_url, "https://puzz.link/p?nurikabe/3/3/1h", "not a fillomino URL"),
])
def test_what_cannot_be_read_says_why(read, text: str, says: str) -> None:  # noqa: ANN001
    with pytest.raises(InvalidInput, match=says):
        read(text)


def test_a_given_past_nine_has_no_game_id() -> None:
    with pytest.raises(InvalidInput, match="1-9"):
        to_tatham(FillominoPuzzle(rows=3, cols=4, givens=[[12, None, None, None], [None] * 4, [None] * 4]))


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "fillomino", size=6, difficulty="easy")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?fillomino/6/6/") and tatham.startswith("6x6:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/fillomino", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/fillomino", json=body).json()
        assert graded["level"] == "easy" and graded["status"] == "unique", body


def test_bad_input_is_a_422_that_says_why(client) -> None:
    bad = client.post("/solve/fillomino", json={"tatham": "7x7:zz"})
    assert bad.status_code == 422 and "cells" in bad.text
    puzzle = {"rows": 2, "cols": 2, "givens": [[5, None], [None, None]]}
    too_big = client.post("/solve/fillomino", json={"puzzle": puzzle})
    assert too_big.status_code == 422 and "outside" in too_big.text
    puzzle["givens"] = [[1, None], [None, None]]
    shape = client.post("/verify/fillomino", json={"puzzle": puzzle, "answer": {"digits": [[1, 2]]}})
    assert shape.status_code == 422 and "2 rows" in shape.text
    zero = client.post("/verify/fillomino", json={"puzzle": puzzle, "answer": {"digits": [[1, 0], [3, 3]]}})
    assert zero.status_code == 422 and "outside [1, 2, 3, 4]" in zero.text
    wrong = client.post("/verify/fillomino", json={"puzzle": puzzle, "answer": {"digits": [[1, 2], [2, 1]]}}).json()
    assert not wrong["solved"] and {v["message"] for v in wrong["violations"]} == {
        "the 2 at r1c2 is in a region of 1 cell", "the 2 at r2c1 is in a region of 1 cell"}
    refused = client.get("/generate/fillomino")
    assert client.post("/generate/fillomino", params={"size": 9, "difficulty": "hard"}).status_code == 422
    assert refused.status_code in (404, 405)
