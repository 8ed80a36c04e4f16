"""Star Battle's puz.link format through the service: a stored puzzle goes out as a URL and comes back in by
solve and grade; pzprjs's own example reads; a bad URL is a 422 that says why."""

from __future__ import annotations

import pytest

from solvers.common import InvalidInput
from solvers.star_battle.puzzlink import parse_url, to_url
from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate


def test_a_stored_puzzle_goes_out_and_comes_back_in(client) -> None:
    record = generate(client, "star-battle", size=6, difficulty="medium")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    assert link.status_code == 200
    url = link.json()["url"]
    assert url.startswith("https://puzz.link/p?starbattle/6/6/1/")
    solved = client.post("/solve/star-battle", json={"url": url}).json()
    assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]]
    graded = client.post("/grade/star-battle", json={"url": url}).json()
    assert graded["level"] == "medium" and graded["status"] == "unique"


def test_our_urls_are_the_ones_pzprjs_wrote_back() -> None:
    """Each of our generated puzzles in ours.jsonl was opened in pzprjs, which wrote the same URL back."""
    for entry in read_jsonl(REFERENCE / "star-battle" / "ours.jsonl") + read_jsonl(REFERENCE / "star-battle" / "pzprjs.jsonl"):
        assert to_url(parse_url(entry["url"])) == entry["url"]


def test_what_cannot_be_read_says_why(client) -> None:
    for bad, why in (("https://puzz.link/p?starbattle/6/5/1/4ilbhgdnmhou", "square"),
                     ("https://puzz.link/p?starbattle/6/6/x/4ilbhgdnmhou", "stars per region"),
                     ("https://puzz.link/p?starbattle/6/6/1/4ilb", "take 12 characters"),
                     ("https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmh!!", "base-32"),
                     ("https://puzz.link/p?starbattle/6/6/1/000000000000", "N regions")):
        with pytest.raises(InvalidInput, match=why):
            parse_url(bad)
    response = client.post("/solve/star-battle", json={"url": "https://puzz.link/p?starbattle/6/6/1/4ilb"})
    assert response.status_code == 422 and "characters" in response.text
