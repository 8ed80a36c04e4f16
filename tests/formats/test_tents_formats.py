"""Tents' two interchange formats through the service: a stored puzzle as a puz.link URL and as Simon Tatham's
game ID, each read back by solve and grade; published ones read; a puzzle with hidden counts has no game ID."""

from __future__ import annotations

from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "tents", size=6, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?tents/6/6/") and tatham.startswith("6x6:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/tents", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/tents", json=body).json()
        assert graded["level"] == "medium" and graded["status"] == "unique", body


def test_published_puzzles_are_read_by_solve(client) -> None:
    tathams = read_jsonl(REFERENCE / "tents" / "tatham.jsonl")[0]
    pzprjs = read_jsonl(REFERENCE / "tents" / "pzprjs.jsonl")[0]
    for body in ({"tatham": tathams["tatham"]}, {"url": pzprjs["url"]}):
        solved = client.post("/solve/tents", json=body)
        assert solved.status_code == 200 and solved.json()["status"] == "unique", body
    assert client.post("/solve/tents", json={"url": pzprjs["url"]}).json()["solutions"] == [{"tents": pzprjs["tents"]}]


def test_what_cannot_be_written_or_read_is_a_422_that_says_why(client) -> None:
    hard = generate(client, "tents", size=6, difficulty="hard")  # counts hidden: Tatham's format has no blank count
    refused = client.get(f"/puzzles/{hard['id']}", params={"format": "tatham"})
    assert refused.status_code == 422 and "count" in refused.text
    bad = client.post("/solve/tents", json={"tatham": "4x4:zz,1,1,1,1,1,1,1,1"})
    assert bad.status_code == 422 and "cells" in bad.text
