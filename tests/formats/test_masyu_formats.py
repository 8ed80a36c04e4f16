"""Masyu's two interchange formats through the service: a stored puzzle as a puz.link URL and as Simon Tatham's
Pearl game ID, each read back by solve and grade; pzprjs's and Tatham's own puzzles read; a bad text is a 422
that says why."""

from __future__ import annotations

from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "masyu", size=6, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?mashu/6/6/") and tatham.startswith("6x6:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/masyu", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/masyu", json=body).json()
        assert graded["level"] == "medium" and graded["status"] == "unique", body


def test_published_puzzles_are_read_by_solve_and_grade(client) -> None:
    entry = read_jsonl(REFERENCE / "masyu" / "pzprjs.jsonl")[0]
    solved = client.post("/solve/masyu", json={"url": entry["url"]}).json()
    assert solved["solutions"] == [{"horizontal": entry["horizontal"], "vertical": entry["vertical"]}]
    his = read_jsonl(REFERENCE / "masyu" / "tatham.jsonl")[0]
    graded = client.post("/grade/masyu", json={"tatham": his["tatham"]})
    assert graded.status_code == 200 and graded.json()["status"] == "unique" and graded.json()["level"] is not None


def test_what_cannot_be_read_is_a_422_that_says_why(client) -> None:
    bad = client.post("/solve/masyu", json={"tatham": "6x6:zz"})
    assert bad.status_code == 422 and "cells" in bad.text
    url = client.post("/solve/masyu", json={"url": "https://puzz.link/p?mashu/3/3/z!"})
    assert url.status_code == 422 and "base-27" in url.text
