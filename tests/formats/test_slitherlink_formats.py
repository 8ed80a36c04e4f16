"""Slitherlink's two interchange formats through the service: a stored puzzle as a puz.link URL and as Simon
Tatham's Loopy game ID, each read back by solve and grade; a bad text is a 422 that says why."""

from __future__ import annotations

from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "slitherlink", size=7, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?slither/7/7/") and tatham.startswith("7x7t0:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/slitherlink", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/slitherlink", json=body).json()
        assert graded["level"] == "medium" and graded["status"] == "unique", body


def test_tathams_own_puzzle_is_read_by_solve_and_grade(client) -> None:
    entry = read_jsonl(REFERENCE / "slitherlink" / "tatham.jsonl")[0]
    solved = client.post("/solve/slitherlink", json={"tatham": entry["tatham"]})
    assert solved.status_code == 200 and solved.json()["status"] == "unique"
    graded = client.post("/grade/slitherlink", json={"tatham": entry["tatham"]})
    assert graded.status_code == 200 and graded.json()["level"] in ("easy", "medium")  # his Easy: ours or a step above


def test_what_cannot_be_read_is_a_422_that_says_why(client) -> None:
    bad = client.post("/solve/slitherlink", json={"tatham": "7x7t0:zz"})
    assert bad.status_code == 422 and "cells" in bad.text
    other_grid = client.post("/solve/slitherlink", json={"tatham": "7x7t1:a"})
    assert other_grid.status_code == 422 and "square" in other_grid.text
    url = client.post("/solve/slitherlink", json={"url": "https://puzz.link/p?slither/3/3/g!"})
    assert url.status_code == 422 and "4Cell" in url.text
