"""SVG pictures and play pages through the service: well-formed SVG with the puzzle's numbers as real
text, the solution drawn when asked, cached like records, and a play page with its test hooks."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from generators.registry import TYPES
from tests.service.test_api import generate

SVG_NS = "{http://www.w3.org/2000/svg}"
PARAMS = {
    "dabuhamienai": {"size": 6},
    "battleship": {"size": 8},
    "number-sums": {"size": 5, "regions": True},
    "ubongo": {"pieces": 4},
    "othello": {"empties": 8},
    "sudoku": {"size": 9},
    "nonogram": {"size": 8},
    "light-up": {"size": 7},
    "hashi": {"size": 7},
    "slitherlink": {"size": 5},
    "masyu": {"size": 5},
    "skyscrapers": {"size": 4},
    "kenken": {"size": 4},
    "tents": {"size": 6, "difficulty": "easy"},
    "hitori": {"size": 5},
    "takuzu": {"size": 6},
    "shikaku": {"size": 5},
    "nurikabe": {"size": 5},
    "fillomino": {"size": 5, "difficulty": "easy"},
    "kakuro": {"size": 6, "difficulty": "medium"},
    "killer-sudoku": {"difficulty": "easy"},
    "star-battle": {"size": 6, "difficulty": "easy"},
}


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == SVG_NS + "svg" and root.get("viewBox")
    return [element.text or "" for element in root.iter(SVG_NS + "text")]


def expected_texts(name: str, puzzle: dict) -> set[str]:
    """What a person must be able to read off the picture, per type."""
    if name in ("dabuhamienai", "hitori"):
        return {str(n) for row in puzzle["numbers"] for n in row}
    if name == "battleship":
        return {str(n) for n in puzzle["row_counts"] + puzzle["col_counts"] if n is not None}
    if name == "number-sums":
        sums = puzzle["row_sums"] + puzzle["col_sums"] + (puzzle["region_sums"] or [])
        return {str(n) for n in sums} | {str(n) for row in puzzle["numbers"] for n in row}
    if name == "ubongo":
        return set(puzzle["pieces"])
    if name == "sudoku":
        return {str(v) for row in puzzle["givens"] for v in row if v}
    if name == "nurikabe":
        return {str(v) for row in puzzle["numbers"] for v in row if v is not None}
    if name == "fillomino":
        return {str(v) for row in puzzle["givens"] for v in row if v is not None}
    if name == "light-up":
        return {str(v) for row in puzzle["walls"] for v in row if v is not None and v >= 0}
    if name == "nonogram":
        return {str(run) for runs in puzzle["row_clues"] + puzzle["col_clues"] for run in runs}
    if name == "hashi":
        return {str(v) for row in puzzle["islands"] for v in row if v}
    if name == "slitherlink":
        return {str(v) for row in puzzle["clues"] for v in row if v is not None}
    if name == "killer-sudoku":
        return {str(cage["sum"]) for cage in puzzle["cages"]} | {str(v) for row in puzzle["givens"] for v in row if v}
    if name == "kenken":
        return {f"{cage['target']}{ {'+': '+', '-': '−', '*': '×', '/': '÷', None: ''}[cage['op']]}" for cage in puzzle["cages"]}
    if name == "tents":
        return {str(n) for n in puzzle["row_counts"] + puzzle["col_counts"] if n is not None}
    if name == "takuzu":
        return set()  # its values are discs, not text
    if name == "shikaku":
        return {str(v) for row in puzzle["numbers"] for v in row if v}
    if name == "masyu":
        return set()  # pearls are circles, no text
    if name == "star-battle":
        return set()  # the regions are borders, with no text
    if name == "skyscrapers":
        return ({str(v) for side in ("top", "bottom", "left", "right") for v in puzzle[side] if v}
                | {str(v) for row in puzzle["givens"] for v in row if v})
    if name == "kakuro":
        sums = [v for grid in ("across", "down") for row in puzzle[grid] for v in row] + puzzle["left"] + puzzle["top"]
        return {str(v) for v in sums if v is not None}
    return set("ABCDEFGH") | {str(rank) for rank in range(1, 9)}


@pytest.mark.parametrize("name", sorted(TYPES))
def test_stored_puzzle_svg_has_its_numbers_as_text_and_is_cached(client, name: str) -> None:
    record = generate(client, name, **PARAMS[name])
    response = client.get(f"/puzzles/{record['id']}.svg")
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    shown = texts(response.text)
    missing = expected_texts(name, record["puzzle"]) - set(shown)
    assert not missing, f"not drawn as text: {missing}"
    assert "public" in response.headers["cache-control"]
    again = client.get(f"/puzzles/{record['id']}.svg", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304

    solved = client.get(f"/puzzles/{record['id']}.svg", params={"solution": True})
    assert solved.status_code == 200 and solved.text != response.text
    assert solved.headers["etag"] != response.headers["etag"]
    texts(solved.text)


def test_solution_pictures_show_the_answer() -> None:
    """Independent of the drawing details: the solution picture of a grid type marks exactly the
    solution's cells (shaded cells are dark, kept digits circled), checked on a hand-made puzzle."""
    dab = TYPES["dabuhamienai"]
    puzzle = dab.puzzle_model.model_validate({"size": 2, "numbers": [[1, 1], [2, 1]]})
    answer = dab.answer_model.model_validate({"shaded": [[1, 0], [0, 0]]})
    plain = ET.fromstring(dab.render(puzzle, None, False))
    drawn = ET.fromstring(dab.render(puzzle, answer, False))
    dark = [e for e in drawn.iter(SVG_NS + "rect") if e.get("fill") == "#2b2b2b"]
    assert len(dark) == 1 and not [e for e in plain.iter(SVG_NS + "rect") if e.get("fill") == "#2b2b2b"]

    sums = TYPES["number-sums"]
    puzzle = sums.puzzle_model.model_validate({"numbers": [[1, 2], [3, 4]], "row_sums": [1, 4], "col_sums": [1, 4]})
    answer = sums.answer_model.model_validate({"selected": [[1, 0], [0, 1]]})
    circles = [e for e in ET.fromstring(sums.render(puzzle, answer, False)).iter(SVG_NS + "circle")]
    assert len(circles) == 2

    sudoku = TYPES["sudoku"]
    puzzle = sudoku.puzzle_model.model_validate({"size": 4, "givens": [[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0],
                                                                       [0, 0, 3, 0]]})
    answer = sudoku.answer_model.model_validate({"digits": [[2, 1, 4, 3], [4, 3, 1, 2], [3, 4, 2, 1], [1, 2, 3, 4]]})
    drawn = [e for e in ET.fromstring(sudoku.render(puzzle, answer, False)).iter(SVG_NS + "text")]
    bold = sorted(e.text for e in drawn if e.get("font-weight") == "bold")  # the givens; the rest in another colour
    assert bold == ["1", "2", "3", "3"] and len(drawn) == 16
    assert {e.get("fill") for e in drawn if e.get("font-weight") != "bold"} == {"#1f5fbf"}


@pytest.mark.parametrize("name", sorted(TYPES))
def test_play_mode_marks_every_cell_with_its_hook(name: str) -> None:
    examples = {
        "dabuhamienai": ({"size": 3, "numbers": [[1, 2, 3], [2, 3, 1], [3, 1, 2]]}, 9),
        "battleship": ({"rows": 3, "cols": 4, "fleet": [2], "row_counts": [2, 0, 0], "col_counts": [1, 1, 0, 0]}, 12),
        "number-sums": ({"numbers": [[1, 2], [3, 4]], "row_sums": [1, 4], "col_sums": [1, 4]}, 4),
        "ubongo": ({"shape": ["##.", "###"], "pieces": ["I2", "L3"]}, 5),
        "othello": ({"board": "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27, "to_move": "X"}, 64),
        "sudoku": ({"size": 4, "givens": [[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 3, 0]]}, 16),
        "nonogram": ({"rows": 2, "cols": 3, "row_clues": [[2], [1]], "col_clues": [[1], [1], [1]]}, 6),
        "light-up": ({"rows": 2, "cols": 3, "walls": [[None, 1, None], [None, None, -1]]}, 6),
        "hashi": ({"rows": 2, "cols": 3, "islands": [[1, None, 2], [None, None, 1]]}, 3),
        "slitherlink": ({"rows": 2, "cols": 3, "clues": [[3, None, 1], [None, 2, None]]}, 6),
        "nurikabe": ({"rows": 2, "cols": 3, "numbers": [[1, None, None], [None, None, 2]]}, 6),
        "fillomino": ({"rows": 2, "cols": 3, "givens": [[1, None, None], [None, None, 2]]}, 6),
        "hitori": ({"size": 3, "numbers": [[1, 1, 3], [2, 3, 1], [3, 1, 2]]}, 9),
        "masyu": ({"rows": 2, "cols": 3, "pearls": [["W", None, "B"], [None, None, None]]}, 6),
        "skyscrapers": ({"size": 3, "top": [3, 2, 1], "bottom": [1, 2, 2], "left": [3, 2, 1], "right": [1, 2, 2],
                         "givens": [[None] * 3 for _ in range(3)]}, 9),
        "killer-sudoku": ({"givens": [[0] * 9 for _ in range(9)], "cages": [
        {"cells": [[r, c]], "sum": (r * 3 + r // 3 + c) % 9 + 1} for r in range(9) for c in range(9) if (r, c) != (8, 8)]}, 81),
        "kenken": ({"size": 3, "cages": [
        {"cells": [[0, 0], [0, 1]], "target": 3, "op": "+"}, {"cells": [[0, 2]], "target": 3},
        {"cells": [[1, 0], [2, 0]], "target": 6, "op": "*"}, {"cells": [[1, 1], [1, 2]], "target": 2, "op": "/"},
        {"cells": [[2, 1], [2, 2]], "target": 2, "op": "-"}]}, 9),
        "tents": ({"rows": 2, "cols": 3, "trees": [[1, 0, 0], [0, 0, 1]], "row_counts": [1, None],
                   "col_counts": [0, 1, None]}, 6),
        "takuzu": ({"size": 4, "givens": [[1, None, None, None], [None, None, 0, None], [None] * 4, [None] * 4]}, 16),
        "shikaku": ({"rows": 2, "cols": 3, "numbers": [[2, None, 4], [None, None, None]]}, 6),
        "kakuro": ({"rows": 2, "cols": 3, "black": [[1, 0, 0], [0, 0, 0]], "across": [[3, None, None], [None] * 3],
                    "down": [[4, None, None], [None] * 3], "left": [None, 6], "top": [None, 3, 3]}, 5),
        "star-battle": ({"size": 5, "stars": 1, "regions": [[0, 0, 1, 1, 1], [0, 0, 1, 2, 2], [3, 0, 1, 2, 4],
                                                            [3, 3, 3, 4, 4], [3, 3, 3, 4, 4]]}, 25),
    }
    payload, cells = examples[name]
    puzzle_type = TYPES[name]
    svg = puzzle_type.render(puzzle_type.puzzle_model.model_validate(payload), None, True)
    root = ET.fromstring(svg)
    hooks = [e.get("data-cell") for e in root.iter() if e.get("data-cell")]
    assert len(hooks) == len(set(hooks)) == cells


@pytest.mark.parametrize("name", sorted(TYPES))
def test_render_any_puzzle(client, name: str) -> None:
    record = generate(client, name, **PARAMS[name])
    response = client.post(f"/render/{name}", json={"puzzle": record["puzzle"]})
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    assert texts(response.text) == texts(client.get(f"/puzzles/{record['id']}.svg").text)


def test_render_bad_input(client) -> None:
    response = client.post("/render/dabuhamienai", json={"puzzle": {"size": 2, "numbers": [[1, 2]]}})
    assert response.status_code == 422
    assert client.post("/render/no-such-type", json={"puzzle": {}}).status_code == 404
    assert client.get("/puzzles/dab-nope.svg").status_code == 404


def test_play_pages(client) -> None:
    record = generate(client, "dabuhamienai", size=5)
    page = client.get(f"/play/{record['id']}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert html.count("data-cell=") == 25
    for hook in ('data-action="check"', 'data-action="hint"', "data-result", "/play/assets/play.js"):
        assert hook in html
    assert client.get(f"/play/{record['id']}", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
    daily = client.get("/play/daily/battleship")
    assert daily.status_code == 200 and "data-cell=" in daily.text
    assert client.get("/play/daily/no-such-type").status_code == 404
    assert client.get("/play/dab-nope").status_code == 404
    script = client.get("/play/assets/play.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/play/assets/secrets.txt").status_code == 404
