"""Battleship as puzz.link URLs (pzprjs's `battleship` genre): pzprjs's own example reads as worked out
by hand from its encoder, generated puzzles round-trip, and what this service cannot play is a 422."""

from __future__ import annotations

import time

import pytest

from app.work import envelope, generate_job
from generators.registry import TYPES
from solvers.battleship.puzzlink import battleship_url, parse_battleship_url
from solvers.battleship.rules import BattleshipPuzzle
from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import read_cell_numbers, write_numbers
from tests.service.test_api import generate

PZPRJS_EXAMPLE = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"


def test_pzprjs_example_reads_as_its_encoder_says() -> None:
    puzzle = parse_battleship_url(PZPRJS_EXAMPLE)
    # Outside cells: columns first (g=skip 1, 1, 2, h=skip 2, 2), then rows (g, 3, 0, g, 3, g).
    assert puzzle.col_counts == [None, 1, 2, None, None, 2]
    assert puzzle.row_counts == [None, 3, 0, None, 3, None]
    # Cells: k=skip 5, then 0 (water) at cell 5; r=skip 12, then 3 (left end) at cell 18 = row 3, column 0.
    assert [(tuple(item.cell), item.kind) for item in puzzle.revealed] == [((0, 5), "water"), ((3, 0), "left")]
    assert sorted(puzzle.fleet) == [1, 1, 1, 2, 2, 3]  # preset //c, pzprjs's fleet3
    assert battleship_url(puzzle) == PZPRJS_EXAMPLE


def test_number_runs_match_pzprjs() -> None:
    assert write_numbers([-1] * 21 + [17, 3, -2]) == "zg-113."  # a run is at most 20; 17 is `-11`; ? is `.`
    assert read_cell_numbers("zg-113.", 24) == ([-1] * 21 + [17, 3, -2], "")


@pytest.mark.parametrize(("params", "seed"), [({"size": 6}, 1), ({"size": 10}, 2), ({"rows": 7, "cols": 12}, 3),
                                             ({"size": 8, "fleet": "5,2,1"}, 4), ({"size": 15}, 5)])
def test_generated_puzzles_round_trip(params: dict, seed: int) -> None:
    model = TYPES["battleship"].params_model.model_validate(params)
    generated = envelope(generate_job, "battleship", model, seed, time.monotonic() + 60)["ok"]
    puzzle = BattleshipPuzzle.model_validate(generated["puzzle"])
    url = battleship_url(puzzle)
    assert url.startswith("https://puzz.link/p?battleship/")
    assert parse_battleship_url(url) == puzzle
    if params.get("fleet"):
        assert url.endswith("/3/11g/21o/51v")  # not a preset: listed piece by piece, shortest first


@pytest.mark.parametrize(("url", "says"), [
    ("https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//p", "not a straight ship"),  # pentomino fleet
    ("https://puzz.link/p?battleship/3/3/l.p//c", "question mark"),
    ("https://puzz.link/p?battleship/3/3/l7p//c", "bent ship"),
    ("https://puzz.link/p?battleship/3/3/lr", "names no fleet"),
    ("https://puzz.link/p?nurikabe/3/3/abc", "not a battleship URL"),
    ("https://puzz.link/p?battleship/x/3/lr//c", "<cols>/<rows>"),
    ("https://puzz.link/p?battleship/3/3/lr//q", "unknown fleet preset"),
    ("https://puzz.link/p?battleship/3/3/lr/2/11g/33bk", "not a straight ship"),
])
def test_what_cannot_be_played_here_says_why(url: str, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        parse_battleship_url(url)


def test_through_the_service(client) -> None:
    record = generate(client, "battleship", size=8)
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    assert link.status_code == 200 and link.headers.get("etag")
    url = link.json()["url"]
    assert parse_battleship_url(url).model_dump(mode="json") == record["puzzle"]

    solved = client.post("/solve/battleship", json={"url": url}).json()
    assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]]
    example = client.post("/solve/battleship", json={"url": PZPRJS_EXAMPLE}).json()
    assert example["status"] == "unique" and example["complete"] is True

    picture = client.post("/render/battleship", json={"url": url})
    assert picture.status_code == 200 and picture.text == client.get(f"/puzzles/{record['id']}.svg").text

    if TYPES["battleship"].difficulty is not None:  # grading takes the same puzzle inputs as solving
        graded = client.post("/grade/battleship", json={"url": url})
        assert graded.status_code == 200 and graded.json()["status"] == "unique"

    bad = client.post("/solve/battleship", json={"url": "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//p"})
    assert bad.status_code == 422 and "straight ship" in bad.text
    both = client.post("/solve/battleship", json={"url": url, "puzzle": record["puzzle"]})
    assert both.status_code == 422 and "exactly one" in both.text

    other = generate(client, "dabuhamienai", size=5)
    refused = client.get(f"/puzzles/{other['id']}", params={"format": "puzzlink"})
    assert refused.status_code == 422 and "available for battleship" in refused.text
    assert client.get(f"/puzzles/{other['id']}", params={"format": "xml"}).status_code == 422
