"""Sudoku as puzz.link URLs (pzprjs's `sudoku` genre): pzprjs's own example reads and re-encodes identically,
generated puzzles of every size round-trip, what cannot be played here is a 422, and the service takes `url`
wherever it takes `puzzle`. (pzprjs's checker accepted the answers: see the closing note of the branch.)"""

from __future__ import annotations

import pytest

from generators import sudoku as gen
from solvers.common import Deadline, InvalidInput
from solvers.sudoku import rules
from solvers.sudoku.puzzlink import parse_sudoku_url, sudoku_url
from tests.conftest import REFERENCE, read_jsonl
from tests.service.test_api import generate

# pzprjs test/script/sudoku.js: the URL and the answer its test passes.
PZPRJS_EXAMPLE = "https://puzz.link/p?sudoku/4/4/g1k23k3g"
PZPRJS_ANSWER = [[2, 1, 4, 3], [4, 3, 1, 2], [3, 4, 2, 1], [1, 2, 3, 4]]
# Golden Nugget (hardest/00058) as pzprjs writes it (tools/pzprjs-check's README).
GOLDEN_NUGGET = "https://puzz.link/p?sudoku/9/9/m39k1h5h3g5g8j8g9i6g7i2i1h4m9g8h5h2j6h4h7k"


def test_pzprjs_example_reads_as_its_encoder_says_and_round_trips() -> None:
    puzzle = parse_sudoku_url(PZPRJS_EXAMPLE)
    # g: skip 1, `1`, k: skip 5, `2`, `3`, k: skip 5, `3`, g: skip 1 (the trailing run is written too)
    assert puzzle.givens == [[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 3, 0]]
    assert sudoku_url(puzzle) == PZPRJS_EXAMPLE
    assert rules.check(puzzle, rules.SudokuAnswer(digits=PZPRJS_ANSWER)) == []
    outcome = rules.solve(puzzle, 10, Deadline.after(10))
    assert outcome.status == "unique" and outcome.solutions[0]["digits"] == PZPRJS_ANSWER
    for other_host in ("sudoku/4/4/g1k23k3g", "http://pzv.jp/p.html?sudoku/4/4/g1k23k3g"):
        assert parse_sudoku_url(other_host) == puzzle


def test_golden_nugget_is_the_published_puzzle() -> None:
    line = next(x for x in read_jsonl(REFERENCE / "sudoku" / "hardest.jsonl") if x["id"] == "hardest/00058")
    assert parse_sudoku_url(GOLDEN_NUGGET).model_dump() == line["puzzle"]
    assert sudoku_url(rules.SudokuPuzzle.model_validate(line["puzzle"])) == GOLDEN_NUGGET


@pytest.mark.parametrize(("size", "level"), [(4, "easy"), (6, "hard"), (9, "expert"), (16, "easy")])
def test_generated_puzzles_round_trip(size: int, level: str) -> None:
    made = gen.generate_puzzle(gen.SudokuParams(size=size, difficulty=level), 3, Deadline.after(120))
    url = sudoku_url(made.puzzle)
    assert url.startswith(f"https://puzz.link/p?sudoku/{size}/{size}/")
    assert parse_sudoku_url(url) == made.puzzle
    if size == 16:
        assert "-10" in url  # 16 is two hex digits after `-`


@pytest.mark.parametrize(("url", "says"), [
    ("https://puzz.link/p?sudoku/4/4/g.k23k3g", "question mark"),
    ("https://puzz.link/p?sudoku/4/4/g7k23k3g", "not a digit 1..4"),
    ("https://puzz.link/p?sudoku/8/8/g1", "sizes 4, 6, 9 and 16"),
    ("https://puzz.link/p?sudoku/9/6/g1", "sizes 4, 6, 9 and 16"),
    ("https://puzz.link/p?nurikabe/4/4/g1", "not a sudoku URL"),
    ("https://puzz.link/p?sudoku/x/4/g1", "<cols>/<rows>"),
])
def test_what_cannot_be_played_here_says_why(url: str, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        parse_sudoku_url(url)


def test_through_the_service(client) -> None:
    record = generate(client, "sudoku", size=9, difficulty="hard")
    link = client.get(f"/puzzles/{record['id']}", params={"format": "puzzlink"})
    assert link.status_code == 200 and link.headers.get("etag")
    url = link.json()["url"]
    assert parse_sudoku_url(url).model_dump(mode="json") == record["puzzle"]
    solved = client.post("/solve/sudoku", json={"url": url}).json()
    assert solved["status"] == "unique" and solved["solutions"] == [record["solution"]]
    graded = client.post("/grade/sudoku", json={"url": url}).json()
    assert graded["status"] == "unique" and graded["level"] == "hard"
    picture = client.post("/render/sudoku", json={"url": url})
    assert picture.status_code == 200 and picture.text == client.get(f"/puzzles/{record['id']}.svg").text
    example = client.post("/solve/sudoku", json={"url": PZPRJS_EXAMPLE}).json()
    assert example["status"] == "unique" and example["solutions"][0]["digits"] == PZPRJS_ANSWER
    refused = client.post("/solve/sudoku", json={"url": "https://puzz.link/p?sudoku/4/4/g.k23k3g"})
    assert refused.status_code == 422 and "question mark" in refused.text
    both = client.post("/solve/sudoku", json={"url": url, "puzzle": record["puzzle"]})
    assert both.status_code == 422


def test_book_prints_sudoku_by_size(tmp_path) -> None:  # noqa: ANN001
    """`puzzlegen book --type sudoku`: six 9×9 to a page, two 16×16 (the default per page follows the size)."""
    from app.cli.main import main
    from tests.operations.test_book import pdf_pages_and_text

    db = f"sqlite:///{tmp_path / 'p.db'}"
    for size, count, pages in ((9, 6, 2), (16, 2, 2)):
        out = tmp_path / f"book{size}.pdf"
        assert main(["--database-url", db, "book", "--type", "sudoku", "--size", str(size), "--count", str(count),
                     "--difficulty", "easy", "--jobs", "1", "--out", str(out)]) == 0
        assert pdf_pages_and_text(out)[0] == pages
