"""Rated play through the HTTP API, as a puzzle app uses it: fetch with a player token, check, read the
ratings, ask for the next puzzle; and what must not count (a replayed check, a check without a fetch, a
win after a hint), bad tokens and times as clear 422s, and player fetches never swallowed by the replay."""

from __future__ import annotations

import pytest

from app.store import PuzzleRow

PLAYER, OTHER, UNFETCHED, HINTED = "player-one-0001", "player-two-0002", "player-three-0003", "player-hinted-0004"
NUMBERS = [[1, 1, 2, 3], [2, 3, 4, 1], [3, 4, 1, 2], [4, 2, 3, 3]]
SOLUTION = {"shaded": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]}
WRONG = {"shaded": [[0] * 4 for _ in range(4)]}


@pytest.fixture(scope="module")
def app(client):
    return client


def generate(client, seed: int) -> dict:
    """A stored easy puzzle of its own id (the same small grid each time: generating costs seconds here)."""
    row = PuzzleRow(id=f"dab-rated-{seed}", type="dabuhamienai", params={"size": 4, "seed": seed},
                    puzzle={"size": 4, "numbers": NUMBERS}, solution=SOLUTION, stats={},
                    difficulty={"level": "easy", "score": 10.0, "steps": 5, "hardest": "pair-near"})
    return {**client.app.state.service.store.add(row).record(include_solution=True)}


def test_a_generated_puzzle_starts_from_the_prior_of_its_grade(app) -> None:
    record = app.post("/generate/dabuhamienai", params={"size": 5, "seed": 1, "difficulty": "medium"}).json()
    assert record["difficulty"]["level"] == "medium"
    assert (record["rating"], record["rd"]) == (1500.0, 200.0)  # the middle level; too few stored to place its score


def test_a_player_fetches_solves_and_both_ratings_move_once(app) -> None:
    record = generate(app, 1)
    assert (record["rating"], record["rd"]) == (1100.0, 200.0)  # an easy dabuhamienai's prior
    assert app.get(f"/puzzles/{record['id']}", params={"player": PLAYER}).status_code == 200
    checked = app.post(f"/puzzles/{record['id']}/verify",
                       json={"answer": record["solution"], "player": PLAYER, "seconds": 95.5}).json()
    assert checked["solved"] and checked["game"]["rated"] and checked["game"]["result"] == "win"
    assert checked["game"]["player"]["rating"] > 1500 and checked["game"]["puzzle"]["rating"] < 1100

    again = app.post(f"/puzzles/{record['id']}/verify", json={"answer": record["solution"], "player": PLAYER}).json()
    assert again["game"] == {"rated": False, "reason": "not this player's first check of it", "first_try": False}
    perfs = app.get(f"/players/{PLAYER}").json()
    assert perfs["player"] == PLAYER and perfs["perfs"]["dabuhamienai"] == {**checked["game"]["player"], "games": 1}
    assert perfs["perfs"]["battleship"] == {"rating": 1500.0, "rd": 350.0, "volatility": 0.06, "games": 0}

    plays = app.get(f"/puzzles/{record['id']}/plays").json()
    assert plays == {"attempts": 2, "solves": 2, "first_tries": 1, "first_try_solves": 1, "first_try_solve_rate": 1.0,
                     "rating": checked["game"]["puzzle"]["rating"], "rd": checked["game"]["puzzle"]["rd"], "games": 1,
                     "median_seconds": 95.5}
    shown = app.get(f"/puzzles/{record['id']}")
    assert (shown.json()["rating"], shown.json()["rd"]) == (plays["rating"], plays["rd"])
    assert shown.headers["etag"] == f'"{record["id"]}-g1"'  # a new rating is a new version
    easy = next(row for row in app.get("/plays").json() if row["type"] == "dabuhamienai" and row["level"] == "easy")
    assert easy["rated_games"] == 1 and easy["mean_rating"] == plays["rating"] and easy["median_seconds"] == 95.5


def test_a_check_without_a_fetch_is_checked_but_not_rated_and_uses_up_the_first_try(app) -> None:
    record = generate(app, 2)
    first = app.post(f"/puzzles/{record['id']}/verify", json={"answer": WRONG, "player": UNFETCHED}).json()
    assert not first["solved"] and first["violations"]
    assert first["game"] == {"rated": False, "reason": "not fetched with this player token first", "first_try": True}
    app.get(f"/puzzles/{record['id']}", params={"player": UNFETCHED})  # fetching now makes no game of it
    later = app.post(f"/puzzles/{record['id']}/verify", json={"answer": record["solution"], "player": UNFETCHED}).json()
    assert later["solved"] and not later["game"]["rated"]
    assert app.get(f"/players/{UNFETCHED}").json()["perfs"]["dabuhamienai"]["games"] == 0
    assert app.get(f"/puzzles/{record['id']}/plays").json()["games"] == 0


def test_a_hint_before_the_first_check_makes_a_solve_a_loss(app) -> None:
    record = generate(app, 3)
    app.get(f"/puzzles/{record['id']}", params={"player": HINTED})
    state = {"shaded": [[None] * 4 for _ in range(4)]}
    assert app.post(f"/puzzles/{record['id']}/hint", json={"state": state, "player": HINTED}).status_code == 200
    checked = app.post(f"/puzzles/{record['id']}/verify", json={"answer": record["solution"], "player": HINTED}).json()
    assert checked["solved"] and checked["game"]["result"] == "loss" and checked["game"]["hints"] == 1
    assert checked["game"]["player"]["rating"] < 1500 and checked["game"]["puzzle"]["rating"] > 1100


def test_a_wrong_first_check_is_a_loss_and_a_later_solve_changes_nothing(app) -> None:
    record = generate(app, 4)
    app.get(f"/puzzles/{record['id']}", params={"player": OTHER})
    lost = app.post(f"/puzzles/{record['id']}/verify", json={"answer": WRONG, "player": OTHER}).json()
    assert lost["game"]["rated"] and lost["game"]["result"] == "loss"
    app.post(f"/puzzles/{record['id']}/verify", json={"answer": record["solution"], "player": OTHER})
    assert app.get(f"/players/{OTHER}").json()["perfs"]["dabuhamienai"]["rating"] == lost["game"]["player"]["rating"]


def test_checks_without_a_player_count_as_before(app) -> None:
    record = generate(app, 5)
    checked = app.post(f"/puzzles/{record['id']}/verify", json={"answer": record["solution"], "first_try": True})
    assert checked.json() == {"solved": True, "violations": []}
    plays = app.get(f"/puzzles/{record['id']}/plays").json()
    assert (plays["first_tries"], plays["games"], plays["rating"]) == (1, 0, 1100.0)


@pytest.mark.parametrize(("request_", "where"), [
    (("post", "/puzzles/{id}/verify", {"answer": WRONG, "player": "short"}), ["body", "player"]),
    (("post", "/puzzles/{id}/verify", {"answer": WRONG, "player": "has spaces in it"}), ["body", "player"]),
    (("post", "/puzzles/{id}/verify", {"answer": WRONG, "player": PLAYER, "seconds": -1}), ["body", "seconds"]),
    (("post", "/puzzles/{id}/verify", {"answer": WRONG, "player": PLAYER, "seconds": 10**9}), ["body", "seconds"]),
    (("post", "/puzzles/{id}/hint", {"state": {"shaded": [[None] * 4] * 4}, "player": "x"}), ["body", "player"]),
    (("get", "/puzzles/{id}?player=bad!token!", None), ["query", "player"]),
    (("get", "/daily/dabuhamienai?player=tiny", None), ["query", "player"]),
    (("get", "/next/dabuhamienai?player=tiny", None), ["query", "player"]),
    (("get", "/next/dabuhamienai", None), ["query", "player"]),
    (("get", "/players/tiny", None), ["path", "token"]),
])
def test_bad_tokens_and_times_are_422s_that_say_what_is_allowed(app, request_, where) -> None:
    record = generate(app, 6 + len(str(request_)))
    method, path, body = request_
    response = getattr(app, method)(path.format(id=record["id"]), **({"json": body} if body else {}))
    assert response.status_code == 422
    problem = response.json()["detail"][0]
    assert problem["loc"] == where
    if where[-1] in ("player", "token") and problem["type"] != "missing":
        assert "8 to 64 characters from A-Z a-z 0-9" in problem["msg"]
    assert app.get(f"/puzzles/{record['id']}/plays").json()["attempts"] == 0  # nothing was counted
    assert app.get("/players/" + PLAYER.replace("one", "bad")).json()["perfs"]["dabuhamienai"]["games"] == 0


def test_player_fetches_are_never_replayed_and_shared_reads_still_are(app) -> None:
    record = generate(app, 70)
    url = f"/puzzles/{record['id']}"
    shared = app.get(url)
    assert shared.headers["cache-control"].startswith("public") and int(shared.headers["cache-control"].split("=")[1]) <= 60
    fetched = [app.get(url, params={"player": f"replayed-{n:04d}"}) for n in range(2)]
    again = app.get(url, params={"player": "replayed-0000"})
    assert len({r.content for r in (shared, *fetched, again)}) == 1
    assert [r.headers["cache-control"] for r in (*fetched, again)] == ["private, no-store"] * 3
    assert [key for key in app.app.state.replay._kept if key[1]] == []  # only the shared read is kept
    for n in range(2):  # both tokens' fetches reached the store: their checks are rated games
        game = app.post(f"{url}/verify", json={"answer": record["solution"], "player": f"replayed-{n:04d}"}).json()["game"]
        assert game["rated"]

    daily = app.get("/daily/dabuhamienai", params={"date": "2026-03-03", "size": 5, "player": PLAYER})
    assert daily.status_code == 200 and daily.headers["cache-control"] == "private, no-store"
    solution = app.get(f"/puzzles/{daily.json()['id']}/solution").json()
    assert app.post(f"/puzzles/{daily.json()['id']}/verify", json={"answer": solution, "player": PLAYER}).json()["game"]["rated"]


def test_next_serves_close_unplayed_puzzles_and_fetches_them_for_the_player(make_client) -> None:
    app = make_client()
    store = app.app.state.service.store
    for n, rating in enumerate((1100.0, 1480.0, 1520.0, 1900.0)):
        store.add(PuzzleRow(id=f"dab-next-{n}", type="dabuhamienai", params={}, puzzle={"size": 4}, solution={},
                            stats={}, rating=rating, rd=200.0, volatility=0.06))
    served = [app.get("/next/dabuhamienai", params={"player": PLAYER}) for _ in range(2)]
    assert [r.status_code for r in served] == [200, 200]
    assert {r.json()["id"] for r in served} == {"dab-next-1", "dab-next-2"}  # a newcomer is rated 1500
    assert served[0].headers["cache-control"] == "private, no-store"
    assert app.get("/next/dabuhamienai", params={"player": PLAYER}).json()["id"] in ("dab-next-0", "dab-next-3")
    with store.engine.connect() as connection:
        fetched = connection.exec_driver_sql(f"SELECT count(*) FROM games WHERE player = '{PLAYER}'").scalar()
    assert fetched == 3
    app.get("/next/dabuhamienai", params={"player": PLAYER})
    nothing = app.get("/next/dabuhamienai", params={"player": PLAYER})
    assert nothing.status_code == 404 and "pregenerate --pool" in nothing.json()["detail"]
    unknown = app.get("/next/chess", params={"player": PLAYER})
    assert unknown.status_code == 404 and "dabuhamienai" in unknown.json()["detail"]


def test_next_leaves_a_generate_pool_alone_unless_nothing_else_is_close(make_client) -> None:
    app = make_client()
    store = app.app.state.service.store
    for n, rating in enumerate((1500.0, 1510.0)):
        store.add_to_pool(PuzzleRow(id=f"dab-pool-{n}", type="dabuhamienai", params={}, puzzle={}, solution={}, stats={},
                                    rating=rating, rd=200.0, volatility=0.06), "dabuhamienai|{}")
    store.add(PuzzleRow(id="dab-shared", type="dabuhamienai", params={}, puzzle={}, solution={}, stats={},
                        rating=1600.0, rd=200.0, volatility=0.06))
    assert app.get("/next/dabuhamienai", params={"player": PLAYER}).json()["id"] == "dab-shared"
    claimed = app.get("/next/dabuhamienai", params={"player": PLAYER}).json()["id"]
    assert claimed == "dab-pool-0"  # nothing shared is left: the nearest pooled puzzle, now served
    assert store.claim_from_pool("dabuhamienai|{}").id == "dab-pool-1"  # generate never hands it out again
    assert store.claim_from_pool("dabuhamienai|{}") is None
