"""Difficulty through the service, the way a puzzle app uses it: a level asked on generate and daily,
the grade in every record, /grade and /hint for anyone's puzzle, hints on a stored puzzle played to
the end, players' attempts, and clear 4xx for bad requests."""

from __future__ import annotations

import pytest

GENERATE_BUDGET_SECONDS = 120  # the `client` fixture's (conftest): levels take draws and adjustments


@pytest.fixture(scope="module")
def hard_daily(client):
    return client.get("/daily/dabuhamienai", params={"size": 6, "difficulty": "hard", "date": "2026-11-20"})


def test_types_list_levels_with_their_techniques(client) -> None:
    info = next(t for t in client.get("/types").json() if t["name"] == "dabuhamienai")
    assert info["difficulties"] == ["easy", "medium", "hard"] and info["default_difficulty"] == "medium"
    assert [level["name"] for level in info["levels"]] == info["difficulties"]
    assert all(t["description"] for level in info["levels"] for t in level["techniques"])
    param = next(p for p in info["params"] if p["name"] == "difficulty")
    assert param["choices"] == ["easy", "medium", "hard"] and param["default"] == "medium"


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_generate_at_a_level_stores_its_grade(client, level: str) -> None:
    record = client.post("/generate/dabuhamienai", params={"size": 6, "seed": 3, "difficulty": level}).json()
    assert record["params"] == {"size": 6, "difficulty": level, "seed": 3}
    assert record["difficulty"]["level"] == level and record["difficulty"]["steps"] > 0
    again = client.get(f"/puzzles/{record['id']}").json()
    assert again["difficulty"] == record["difficulty"]
    graded = client.post("/grade/dabuhamienai", json={"puzzle": record["puzzle"]}).json()
    assert graded == {"status": "unique", **record["difficulty"]}


def test_daily_is_deterministic_per_level(client, hard_daily) -> None:
    assert hard_daily.status_code == 200 and hard_daily.json()["difficulty"]["level"] == "hard"
    medium = client.get("/daily/dabuhamienai", params={"size": 6, "difficulty": "medium", "date": "2026-11-20"}).json()
    assert medium["id"] != hard_daily.json()["id"] and medium["difficulty"]["level"] == "medium"
    again = client.get("/daily/dabuhamienai", params={"size": 6, "difficulty": "hard", "date": "2026-11-20"}).json()
    assert again == hard_daily.json()


def test_hints_on_a_stored_puzzle_lead_a_player_to_the_solution(client, hard_daily) -> None:
    record = hard_daily.json()
    size = record["puzzle"]["size"]
    state = [[None] * size for _ in range(size)]
    techniques = []
    for _ in range(size * size):
        hint = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"shaded": state}}).json()
        if hint["technique"] == "solved":
            break
        techniques.append(hint["technique"])
        assert hint["decide"] and hint["message"] and not hint["mistakes"]
        for decision in hint["decide"]:
            r, c = decision["cell"]
            state[r][c] = decision["value"]
    answer = {"shaded": state}
    assert client.post(f"/puzzles/{record['id']}/verify", json={"answer": answer}).json()["solved"]
    assert "reveal" not in techniques and techniques[-1] != "mistakes"


def test_a_wrong_cell_gets_mistakes_not_a_step(client, hard_daily) -> None:
    record = hard_daily.json()
    solution = client.get(f"/puzzles/{record['id']}/solution").json()["shaded"]
    size = len(solution)
    state = [[None] * size for _ in range(size)]
    state[0][0] = 1 - solution[0][0]
    hint = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"shaded": state}}).json()
    assert hint["technique"] == "mistakes" and hint["mistakes"] == [[0, 0]] and hint["decide"] == []
    assert "r1c1" in hint["message"]


def test_hint_for_anyones_puzzle_and_its_errors(client) -> None:
    record = client.post("/generate/dabuhamienai", params={"size": 5, "seed": 9, "difficulty": "easy"}).json()
    empty = [[None] * 5 for _ in range(5)]
    hint = client.post("/hint/dabuhamienai", json={"puzzle": record["puzzle"], "state": {"shaded": empty}})
    assert hint.status_code == 200 and hint.json()["decide"]
    several = {"size": 4, "numbers": [[1, 2, 3, 4], [2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3]]}  # any shading works
    bad = client.post("/hint/dabuhamienai", json={"puzzle": several, "state": {"shaded": [[None] * 4] * 4}})
    assert bad.status_code == 422 and "exactly one solution" in bad.text
    wrong_shape = client.post("/hint/dabuhamienai", json={"puzzle": record["puzzle"], "state": {"shaded": [[None]]}})
    assert wrong_shape.status_code == 422 and "5 rows of 5 values" in wrong_shape.text
    wrong_value = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"shaded": [[2] * 5] * 5}})
    assert wrong_value.status_code == 422
    assert client.post("/generate/dabuhamienai", params={"difficulty": "fiendish"}).status_code == 422
    too_small = client.post("/generate/dabuhamienai", params={"difficulty": "hard", "size": 5})
    assert too_small.status_code == 422 and "hard needs size 6 or more" in too_small.text
    assert client.post("/grade/nonesuch", json={}).status_code == 404


def test_grade_of_a_puzzle_with_several_solutions(client) -> None:
    several = {"size": 4, "numbers": [[1, 2, 3, 4], [2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3]]}
    graded = client.post("/grade/dabuhamienai", json={"puzzle": several}).json()
    assert graded["status"] == "multiple" and graded["level"] is None


def test_attempts_are_counted_per_puzzle_and_per_level(client) -> None:
    record = client.post("/generate/dabuhamienai?size=5&seed=21&difficulty=easy&include_solution=true").json()
    wrong = {"shaded": [[0] * 5 for _ in range(5)]}
    assert not client.post(f"/puzzles/{record['id']}/verify", json={"answer": wrong, "first_try": True}).json()["solved"]
    assert client.post(f"/puzzles/{record['id']}/verify", json={"answer": record["solution"]}).json()["solved"]
    plays = client.get(f"/puzzles/{record['id']}/plays").json()
    assert plays == {"attempts": 2, "solves": 1, "first_tries": 1, "first_try_solves": 0, "first_try_solve_rate": 0.0,
                     "rating": record["rating"], "rd": record["rd"], "games": 0, "median_seconds": None}
    easy = next(row for row in client.get("/plays").json() if row["type"] == "dabuhamienai" and row["level"] == "easy")
    assert easy["attempts"] >= 2 and easy["first_tries"] >= 1
