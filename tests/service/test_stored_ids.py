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
    ("fillomino", {}, 1, "fil-57fa08fd482959586695"),
    ("hashi", {}, 1, "has-97eb6090442da8febd5e"),
    ("hitori", {}, 1, "hit-3a2127e8431b6ba59085"),
    ("kakuro", {}, 1, "kak-199c3b1bfdbf4085c5c3"),
    ("kenken", {}, 1, "ken-adef4094630f36942062"),
    ("killer-sudoku", {}, 1, "kil-b6aa02df3ec94d4c2f45"),
    ("light-up", {}, 1, "lig-198cd9ae8790d765be73"),
    ("masyu", {}, 1, "mas-0df06c249cf516aa2c66"),
    ("nurikabe", {}, 1, "nur-adff2f9f03d3fe721574"),
    ("shikaku", {}, 1, "shi-538da11c77821e5b53fe"),
    ("skyscrapers", {}, 1, "sky-6972580b5177c220013c"),
    ("slitherlink", {}, 1, "sli-3bc28ae5d7b211fd66ae"),
    ("star-battle", {}, 1, "sta-ae151b773e933be53e71"),
    ("takuzu", {}, 1, "tak-60574a6841c594d00586"),
    ("tents", {}, 1, "ten-de9e9a3788b91553111d"),
]

# (type, day, query parameters) -> the daily's id and seed
DAILIES = [
    ("dabuhamienai", date(2026, 3, 1), {"size": 6}, "dab-c5e2c8fdd8151cea4b79", 217577825359893),
    ("sudoku", date(2026, 1, 1), {}, "sud-131c2d43668dd3e53f01", 21011739403917),
    ("dabuhamienai", date(2026, 3, 14), {"difficulty": "hard"}, "dab-c9795a2af3f9b18e6c4a", 221523040990201),
    ("nonogram", date(2025, 12, 31), {"size": 10}, "non-75f3517e1af4b847566c", 129687904721652),
    ("othello", date(2026, 2, 28), {}, "oth-36c5ac832ef4fdc02660", 60222630735604),
    ("battleship", date(2026, 12, 1), {}, "bat-f86b382478e803ffdda4", 273139387103464),
    ("fillomino", date(2026, 12, 1), {}, "fil-4196ac16b7de59293608", 72115388069854),
    ("hashi", date(2026, 12, 1), {}, "has-b81f4a7d47ccdd0f2f4c", 202444533221324),
    ("hitori", date(2026, 12, 1), {}, "hit-bd8ac11b72ec2f7cb5bd", 208403642938092),
    ("kakuro", date(2026, 12, 1), {}, "kak-5315fcaed4d977ecfbb9", 91353898734809),
    ("kenken", date(2026, 12, 1), {}, "ken-dae2e230de2107ddcdff", 240667992317473),
    ("killer-sudoku", date(2026, 12, 1), {}, "kil-95f7d2f85594ab7738fb", 164891628950932),
    ("light-up", date(2026, 12, 1), {}, "lig-8604371cec933fcf05ea", 147352662633619),
    ("masyu", date(2026, 12, 1), {}, "mas-cc4879d132f4d4bd8cf1", 224611653464820),
    ("number-sums", date(2026, 12, 1), {}, "nsum-c995f52095cda8aa969b", 221645899863501),
    ("nurikabe", date(2026, 12, 1), {}, "nur-c4ceb92aac3cf11157a5", 216392148888636),
    ("shikaku", date(2026, 12, 1), {}, "shi-515f205d16d84ad5fb81", 89469006714584),
    ("skyscrapers", date(2026, 12, 1), {}, "sky-8bf18ae77308a51bab9e", 153869533803272),
    ("slitherlink", date(2026, 12, 1), {}, "sli-f9e0fe67377140d0f245", 274744736167793),
    ("star-battle", date(2026, 12, 1), {}, "sta-4a381b709aed8b38265d", 81604838988525),
    ("takuzu", date(2026, 12, 1), {}, "tak-700e6e478dbe056d7bcf", 123207282036158),
    ("tents", date(2026, 12, 1), {}, "ten-22f402e81137cc02ccd3", 38431416127799),
    ("ubongo", date(2026, 12, 1), {}, "ubo-ff82c25e7b7490127592", 280937071803252),
]


def test_every_type_has_a_pinned_id_and_daily() -> None:
    """A type registered without pins here would have its public ids unguarded."""
    assert {entry[0] for entry in GENERATED} == set(TYPES) == {entry[0] for entry in DAILIES}


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
    for _ in range(3):  # a 503 is the budget's retryable refusal on a busy machine, not this test's subject
        generated = client.post("/generate/dabuhamienai", params={"size": 6, "seed": 3})
        if generated.status_code != 503:
            break
    assert generated.status_code in (200, 201), generated.text
    assert generated.json()["id"] == "dab-0959782180b6e44a3303"
    daily = client.get("/daily/dabuhamienai", params={"date": "2026-03-01", "size": 6})
    assert daily.status_code == 200, daily.text
    assert daily.json()["id"] == "dab-c5e2c8fdd8151cea4b79"
    assert daily.json()["params"]["seed"] == 217577825359893
