"""A hint from an empty grid: no state, a null state, or a null answer field all mean "nothing decided
yet", for every type with hints, both for the hint machinery and through both hint routes."""

from __future__ import annotations

import pytest

from generators.registry import TYPES
from solvers.common import Deadline

GENERATE_BUDGET_SECONDS = 120  # the `client` fixture's (conftest): a loaded machine
HINTED = sorted(name for name, t in TYPES.items() if t.difficulty is not None)
PARAMS = {"dabuhamienai": {"size": 5, "difficulty": "easy"}, "battleship": {"size": 6, "difficulty": "easy"},
          "number-sums": {"size": 4}, "ubongo": {"pieces": 3}, "othello": {"empties": 8}, "sudoku": {"size": 4},
          "nonogram": {"size": 5, "difficulty": "easy"}, "light-up": {"size": 7, "difficulty": "easy"},
          "hashi": {"size": 7, "difficulty": "easy"}, "slitherlink": {"size": 5, "difficulty": "easy"},
          "masyu": {"size": 5, "difficulty": "easy"},
          "skyscrapers": {"size": 4, "difficulty": "easy"}, "kenken": {"size": 4, "difficulty": "easy"},
          "tents": {"size": 6, "difficulty": "easy"},
          "hitori": {"size": 5, "difficulty": "easy"},
          "takuzu": {"size": 6, "difficulty": "easy"},
          "shikaku": {"size": 5, "difficulty": "easy"},
          "nurikabe": {"size": 5, "difficulty": "medium"},
          "fillomino": {"size": 5, "difficulty": "medium"},
          "kakuro": {"size": 6, "difficulty": "medium"},
          "killer-sudoku": {"difficulty": "easy"},
          "star-battle": {"size": 6, "difficulty": "easy"},
          }


def explicitly_empty(name: str, puzzle: dict) -> dict:
    """What a client sent before null was allowed: every cell null, no placements, the first hint."""
    if name == "ubongo":
        return {"placements": []}
    if name == "othello":
        return {"hint": 1}
    if name == "sudoku":
        return {"digits": [[0] * puzzle["size"] for _ in range(puzzle["size"])]}
    if name == "hashi":
        return {"bridges": []}
    if name in ("skyscrapers", "kenken"):
        return {"digits": [[0] * puzzle["size"] for _ in range(puzzle["size"])]}
    if name == "killer-sudoku":
        return {"digits": [[0] * 9 for _ in range(9)]}
    if name == "slitherlink":
        rows, cols = puzzle["rows"], puzzle["cols"]
        return {"horizontal": [[None] * cols for _ in range(rows + 1)], "vertical": [[None] * (cols + 1) for _ in range(rows)]}
    if name == "masyu":
        rows, cols = puzzle["rows"], puzzle["cols"]
        return {"horizontal": [[None] * (cols - 1) for _ in range(rows)], "vertical": [[None] * cols for _ in range(rows - 1)]}
    rows = len(puzzle["numbers"]) if "numbers" in puzzle else puzzle.get("rows", puzzle.get("size"))
    cols = len(puzzle["numbers"][0]) if "numbers" in puzzle else puzzle.get("cols", puzzle.get("size"))
    field = next(iter(TYPES[name].difficulty.state_model.model_fields))
    return {field: [[None] * cols for _ in range(rows)]}


def nothing_decided(name: str) -> list[dict | None]:
    field = next(iter(TYPES[name].difficulty.state_model.model_fields))
    return [None, {}, {field: None}]


@pytest.mark.parametrize("name", HINTED)
def test_the_hint_machinery_reads_a_missing_or_null_state_as_an_empty_one(name: str) -> None:
    puzzle_type = TYPES[name]
    difficulty = puzzle_type.difficulty
    generated = puzzle_type.generate(puzzle_type.params_model(**PARAMS[name]), 5, Deadline.after(60))
    puzzle = generated.puzzle.model_dump(mode="json")
    empty = difficulty.state_model.model_validate(explicitly_empty(name, puzzle))
    expected = difficulty.hint(generated.puzzle, empty, generated.solution, Deadline.after(60)).as_json()
    for sent in nothing_decided(name):
        state = None if sent is None else difficulty.state_model.model_validate(sent)
        hint = difficulty.hint(generated.puzzle, difficulty.read_state(state), generated.solution, Deadline.after(60))
        assert hint.as_json() == expected, sent


@pytest.mark.parametrize("name", HINTED)
def test_both_hint_routes_take_an_empty_grid_as_nothing_decided(client, name: str) -> None:
    record = client.post(f"/generate/{name}", params={**PARAMS[name], "seed": 5}).json()
    stored = f"/puzzles/{record['id']}/hint"
    expected = client.post(stored, json={"state": explicitly_empty(name, record["puzzle"])})
    assert expected.status_code == 200, expected.text
    for sent in nothing_decided(name):
        body = {} if sent is None else {"state": sent}
        for route, extra in ((stored, {}), (f"/hint/{name}", {"puzzle": record["puzzle"]})):
            for request in ({**extra, **body}, {**extra, "state": None}):
                response = client.post(route, json=request)
                assert response.status_code == 200, (route, request, response.text)
                assert response.json() == expected.json(), (route, request)
    wrong = client.post(stored, json={"state": {next(iter(explicitly_empty(name, record["puzzle"]))): "none"}})
    assert wrong.status_code == 422  # null is nothing decided; anything else that is not the shape stays a 422
