"""Light Up's two interchange formats through the service: a stored puzzle as a puz.link URL and as Simon
Tatham's game ID, each read back by solve and grade; a format a type does not have, or a bad text, is a 422."""

from __future__ import annotations

from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "light-up", size=7, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?akari/7/7/") and tatham.startswith("7x7:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/light-up", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/light-up", json=body).json()
        assert graded["level"] == "medium" and graded["status"] == "unique", body


def test_tathams_own_puzzle_is_read_by_solve_and_grade(client) -> None:
    entry = read_jsonl(REFERENCE / "light-up" / "tatham.jsonl")[0]
    solved = client.post("/solve/light-up", json={"tatham": entry["tatham"]})
    assert solved.status_code == 200 and solved.json()["status"] == "unique"


def test_what_cannot_be_read_is_a_422_that_says_why(client) -> None:
    bad = client.post("/solve/light-up", json={"tatham": "7x7:zz"})
    assert bad.status_code == 422 and "cells" in bad.text
    both = client.post("/solve/light-up", json={"tatham": "3x3:i", "url": "https://puzz.link/p?akari/3/3/i"})
    assert both.status_code == 422 and "exactly one" in both.text
    other = generate(client, "dabuhamienai", size=5)
    refused = client.get(f"/puzzles/{other['id']}", params={"format": "tatham"})
    assert refused.status_code == 422 and "light-up" in refused.text
