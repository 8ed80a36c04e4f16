"""Hashi's two interchange formats through the service: a stored puzzle as a puz.link URL and as Simon Tatham's
game ID, each read back by solve and grade; pzprjs's own example read from its URL; a bad text is a 422."""

from __future__ import annotations

from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "hashi", size=7, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?hashi/7/7/") and tatham.startswith("7x7m2:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/hashi", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/hashi", json=body).json()
        assert graded["level"] == "medium" and graded["status"] == "unique", body


def test_published_puzzles_are_read_by_solve_with_their_answer(client) -> None:
    entry = read_jsonl(REFERENCE / "hashi" / "pzprjs.jsonl")[0]
    solved = client.post("/solve/hashi", json={"url": entry["url"]}).json()
    assert solved["status"] == "unique"
    assert sorted(map(str, solved["solutions"][0]["bridges"])) == sorted(map(str, entry["bridges"]))
    tathams = client.post("/solve/hashi", json={"tatham": read_jsonl(REFERENCE / "hashi" / "tatham.jsonl")[0]["tatham"]})
    assert tathams.status_code == 200 and tathams.json()["status"] == "unique"


def test_what_cannot_be_read_is_a_422_that_says_why(client) -> None:
    bad = client.post("/solve/hashi", json={"tatham": "7x7m2:zz"})
    assert bad.status_code == 422 and "cells" in bad.text
    more = client.post("/solve/hashi", json={"tatham": "3x3m3:2a2e"})
    assert more.status_code == 422 and "m2" in more.text
    question = client.post("/solve/hashi", json={"url": "https://puzz.link/p?hashi/3/3/.h"})
    assert question.status_code == 422 and "question mark" in question.text
