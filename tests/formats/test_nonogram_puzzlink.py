"""Nonograms as puz.link URLs: pzprjs's own examples read and re-encode identically, generated puzzles
go both ways, and the service takes and gives URLs. (The answers were checked by pzprjs's own checker
outside the repository: /work/tools/pzprjs-check, see the README's Nonogram section.)"""

from __future__ import annotations

import pytest

from generators.nonogram import NonogramParams, generate_puzzle
from solvers.common import Deadline, InvalidInput
from solvers.nonogram.puzzlink import nonogram_url, parse_nonogram_url
from tests.service.test_api import generate

# pzprjs test/script/nonogram.js, and webpbn #1 as pzprjs writes it.
EXAMPLES = {
    "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h": (
        [[2, 1], [1, 1], [1, 2], [], [1, 1], [3]], [[2, 1], [1, 1, 1], [1], [1, 1, 1], [2, 1], []]),
    "https://puzz.link/p?nonogram/3/10/14i1121g43i2g1g2g2g1g1g3g1g1g3g": (
        [[2], [1], [2], [2], [1], [1], [3], [1], [1], [3]], [[4, 1], [1, 2, 1, 1], [3, 4]]),
    "https://puzz.link/p?nonogram/5/10/12i312h7j31i12i2h12g11g3h11g11g2h11g21g2h": (
        [[2], [2, 1], [1, 1], [3], [1, 1], [1, 1], [2], [1, 1], [1, 2], [2]],
        [[2, 1], [2, 1, 3], [7], [1, 3], [2, 1]]),
}


@pytest.mark.parametrize("url", EXAMPLES)
def test_pzprjs_examples_read_and_write_back_identically(url: str) -> None:
    puzzle = parse_nonogram_url(url)
    assert (puzzle.row_clues, puzzle.col_clues) == EXAMPLES[url]
    assert nonogram_url(puzzle) == url
    assert nonogram_url(parse_nonogram_url(url.replace("https://puzz.link/p?", ""))) == url


def test_generated_puzzles_go_both_ways() -> None:
    for rows, cols, seed in ((15, 15, 1), (8, 13, 2), (30, 21, 3), (5, 30, 4)):
        made = generate_puzzle(NonogramParams(rows=rows, cols=cols), seed, Deadline.after(60))
        assert parse_nonogram_url(nonogram_url(made.puzzle)) == made.puzzle


@pytest.mark.parametrize(("url", "says"), [
    ("https://puzz.link/p?sudoku/4/4/g1k23k3g", "not a nonogram URL"),
    ("https://puzz.link/p?nonogram/6/x/12", "<cols>/<rows>"),
    ("https://puzz.link/p?nonogram/2/2/.h1h1h1h", "question-mark clue"),
])
def test_what_cannot_be_read_says_why(url: str, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        parse_nonogram_url(url)


def test_through_the_service(client) -> None:
    record = generate(client, "nonogram", size=10)
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    assert link.status_code == 200
    url = link.json()["url"]
    assert url.startswith("https://puzz.link/p?nonogram/10/10/")
    solved = client.post("/solve/nonogram", json={"url": url}).json()
    assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]]
    example = client.post("/solve/nonogram", json={"url": next(iter(EXAMPLES))}).json()
    assert example["status"] == "unique"
    bad = client.post("/solve/nonogram", json={"url": "https://puzz.link/p?nonogram/2/2/2211"})  # 4 cells vs 2
    assert bad.status_code == 422 and "the row clues fill 2 cells and the column clues 4" in bad.text
