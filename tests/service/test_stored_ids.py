"""Stored ids and seeds are public: a link to a puzzle names its id, and a daily must stay the same puzzle
on every replica and after every deploy. They are pinned here as literals, so a change to how parameters
are made canonical (a new default, a renamed field, another JSON form) or to how ids are derived fails
here instead of silently re-identifying every stored puzzle. Such a change needs a migration of the
stored ids, and only then new literals."""

from __future__ import annotations

from datetime import date

import pytest

from app.cli.plan import plan_tasks
from app.service import daily_plan, identity
from app.store import derive_id
from generators.registry import TYPES

# (type, query parameters, seed) -> the id POST /generate/{type} stores it under
GENERATED = [
    ("dabuhamienai", {"size": 6}, 3, "dab-0959782180b6e44a3303"),
    ("dabuhamienai", {"size": 8}, 1, "dab-bba0afd28fb40b26042f"),
    ("sudoku", {"difficulty": "hard"}, 12345, "sud-652eec725e0983472878"),
    ("nonogram", {"size": 10}, 7, "non-278f679265e542004512"),
    ("number-sums", {"size": 7, "regions": True}, 2**48 - 1, "nsum-aaecb6d2358a3b7d46f0"),
    ("othello", {}, 0, "oth-9a6295047b442a2755c5"),
    ("battleship", {}, 99, "bat-4a8ce9dc76c075a1084f"),
    ("ubongo", {}, 5, "ubo-a06b19a79e56ca80eaa2"),
]

# (type, day, query parameters) -> the daily's id and seed
DAILIES = [
    ("dabuhamienai", date(2026, 3, 1), {"size": 6}, "dab-c5e2c8fdd8151cea4b79", 217577825359893),
    ("sudoku", date(2026, 1, 1), {}, "sud-131c2d43668dd3e53f01", 21011739403917),
    ("dabuhamienai", date(2026, 3, 14), {"difficulty": "hard"}, "dab-c9795a2af3f9b18e6c4a", 221523040990201),
    ("nonogram", date(2025, 12, 31), {"size": 10}, "non-75f3517e1af4b847566c", 129687904721652),
    ("othello", date(2026, 2, 28), {}, "oth-36c5ac832ef4fdc02660", 60222630735604),
]


@pytest.mark.parametrize(("name", "params", "seed", "expected"), GENERATED)
def test_generated_ids_are_pinned(name: str, params: dict, seed: int, expected: str) -> None:
    puzzle_type = TYPES[name]
    assert derive_id(puzzle_type.id_prefix, puzzle_type.name, identity(puzzle_type.params_model(**params)), seed) == expected


@pytest.mark.parametrize(("name", "day", "params", "expected_id", "expected_seed"), DAILIES)
def test_daily_ids_and_seeds_are_pinned(name: str, day: date, params: dict, expected_id: str, expected_seed: int) -> None:
    puzzle_type = TYPES[name]
    plan = daily_plan(puzzle_type, identity(puzzle_type.params_model(**params)), day)
    assert (plan.puzzle_id, plan.seed) == (expected_id, expected_seed)


def test_pregenerated_ids_and_seeds_are_pinned() -> None:
    """What `app.cli.plan` (and the fleet's queue) stores a sudoku daily and its first pooled puzzle under."""
    tasks = plan_tasks([TYPES["sudoku"]], date(2026, 1, 1), days=1, pool_size=1, difficulty="medium")
    assert [(t.puzzle_id, t.seed) for t in tasks] == [("sud-131c2d43668dd3e53f01", 21011739403917),
                                                      ("sud-9011c392d25fe4bf13d1", 221657695810449)]


def test_the_api_stores_puzzles_under_the_pinned_ids(client) -> None:
    """The ids above are the ones the HTTP layer really uses, not only what the helpers compute."""
    generated = client.post("/generate/dabuhamienai", params={"size": 6, "seed": 3})
    assert generated.status_code in (200, 201), generated.text
    assert generated.json()["id"] == "dab-0959782180b6e44a3303"
    daily = client.get("/daily/dabuhamienai", params={"date": "2026-03-01", "size": 6})
    assert daily.status_code == 200, daily.text
    assert daily.json()["id"] == "dab-c5e2c8fdd8151cea4b79"
    assert daily.json()["params"]["seed"] == 217577825359893
