"""Skyscrapers' two interchange formats through the service: a stored puzzle as a puz.link URL and as Simon
Tatham's Towers game ID, each read back by solve and grade."""

from __future__ import annotations

from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def test_a_stored_puzzle_goes_out_and_comes_back_in_both_formats(client) -> None:
    record = generate(client, "skyscrapers", size=5, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    game_id = client.get(f"/puzzles/{record['id']}", params={"format": "tatham"})
    assert link.status_code == game_id.status_code == 200
    url, tatham = link.json()["url"], game_id.json()["tatham"]
    assert url.startswith("https://puzz.link/p?skyscrapers/5/5/") and tatham.startswith("5:")
    for body in ({"url": url}, {"tatham": tatham}):
        solved = client.post("/solve/skyscrapers", json=body).json()
        assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]], body
        graded = client.post("/grade/skyscrapers", json=body).json()
        assert graded["level"] == "medium" and graded["status"] == "unique", body


def test_tathams_own_puzzle_is_read_by_solve_and_grade(client) -> None:
    entry = read_jsonl(REFERENCE / "skyscrapers" / "tatham.jsonl")[0]
    solved = client.post("/solve/skyscrapers", json={"tatham": entry["tatham"]})
    assert solved.status_code == 200 and solved.json()["status"] == "unique"
    bad = client.post("/solve/skyscrapers", json={"tatham": "4:1/2"})
    assert bad.status_code == 422 and "clues" in bad.text
