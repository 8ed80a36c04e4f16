"""Every endpoint through the HTTP client, for every registered type, plus bad input of every kind."""

from __future__ import annotations

import pytest

from generators.registry import TYPES

TYPE_NAMES = sorted(TYPES)


def generate(client, name: str, **params):
    """201 when this call made the puzzle, 200 when it was stored already (the module shares one store)."""
    response = client.post(f"/generate/{name}", params={"seed": 7, "include_solution": True, **params})
    assert response.status_code in (200, 201), response.text
    return response.json()


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_generated_puzzle_round_trip(client, name: str) -> None:
    record = generate(client, name)
    assert record["id"].startswith(TYPES[name].id_prefix + "-")
    assert record["type"] == name and record["params"]["seed"] == 7
    solution = record["solution"]

    verdict = client.post(f"/verify/{name}", json={"puzzle": record["puzzle"], "answer": solution})
    assert verdict.status_code == 200 and verdict.json()["solved"] is True and verdict.json()["violations"] == []

    stored = client.get(f"/puzzles/{record['id']}")
    assert stored.status_code == 200
    assert "solution" not in stored.json() and stored.json()["puzzle"] == record["puzzle"]
    assert client.get(f"/puzzles/{record['id']}/solution").json() == solution
    assert client.post(f"/puzzles/{record['id']}/verify", json={"answer": solution}).json()["solved"] is True

    solved = client.post(f"/solve/{name}", json={"puzzle": record["puzzle"]}).json()
    assert solved["status"] == "unique" and solved["complete"] is True and solved["count"] == 1


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_same_seed_same_puzzle_and_no_seed_is_reproducible(client, name: str) -> None:
    made = client.post(f"/generate/{name}", params={"seed": 11})
    stored = client.post(f"/generate/{name}", params={"seed": 11})
    assert (made.status_code, stored.status_code) == (201, 200), "a second generation finds the stored record"
    assert made.json() == stored.json()
    first, again = generate(client, name), generate(client, name)
    assert first["puzzle"] == again["puzzle"] and first["id"] == again["id"]
    random_one = client.post(f"/generate/{name}").json()
    replay = generate(client, name, seed=random_one["params"]["seed"])
    assert replay["puzzle"] == random_one["puzzle"]


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_daily_is_stable_and_cacheable(client, name: str) -> None:
    first = client.get(f"/daily/{name}", params={"date": "2026-01-01"})
    assert first.status_code == 200, first.text
    second = client.get(f"/daily/{name}", params={"date": "2026-01-01"})
    assert second.json() == first.json() and "solution" not in first.json()
    assert first.json()["params"]["date"] == "2026-01-01"
    etag = first.headers["etag"]
    assert client.get(f"/daily/{name}", params={"date": "2026-01-01"}, headers={"If-None-Match": etag}).status_code == 304
    other_day = client.get(f"/daily/{name}", params={"date": "2026-01-02"}).json()
    assert other_day["id"] != first.json()["id"]


def test_types_lists_every_type_with_ranges(client) -> None:
    listed = {t["name"]: t for t in client.get("/types").json()}
    assert set(listed) == set(TYPES)
    size = next(p for p in listed["dabuhamienai"]["params"] if p["name"] == "size")
    assert (size["minimum"], size["maximum"], size["default"]) == (4, 30, 8)


def test_healthz(client) -> None:
    assert client.get("/healthz").json()["status"] == "ok"


@pytest.mark.parametrize("path", ["/generate/no-such-type", "/verify/no-such-type", "/solve/no-such-type"])
def test_unknown_type_is_404_listing_known_types(client, path: str) -> None:
    response = client.post(path, json={})
    assert response.status_code == 404 and "dabuhamienai" in response.json()["detail"]
    assert client.get("/daily/no-such-type").status_code == 404


def test_unknown_id_is_404(client) -> None:
    for response in (
        client.get("/puzzles/dab-nope"),
        client.get("/puzzles/dab-nope/solution"),
        client.post("/puzzles/dab-nope/verify", json={"answer": {}}),
        client.get("/puzzles/" + "x" * 5000),
    ):
        assert response.status_code == 404


@pytest.mark.parametrize("size", [3, 31, 10**9, -1])
def test_size_out_of_range_states_the_range(client, size: int) -> None:
    response = client.post("/generate/dabuhamienai", params={"size": size})
    assert response.status_code == 422
    assert "between 4 and 30" in response.json()["detail"][0]["msg"]


@pytest.mark.parametrize("params", [{"size": "big"}, {"sise": 6}, {"seed": -1}, {"seed": 2**64}, {"include_solution": "maybe"}])
def test_bad_generate_parameters_are_422(client, params) -> None:
    assert client.post("/generate/dabuhamienai", params=params).status_code == 422


PUZZLE_4 = {"size": 4, "numbers": [[1, 1, 2, 3], [2, 3, 4, 1], [3, 4, 1, 2], [4, 2, 3, 3]]}


@pytest.mark.parametrize(
    "body",
    [
        '{"puzzle": ',
        "not json at all",
        "[]",
        '{"puzzle": {"size": 4, "numbers": [[1]]}, "answer": {"shaded": [[0]]}}',
        '{"puzzle": {"size": 4, "numbers": [[1, 1, 2, 9], [2, 3, 4, 1], [3, 4, 1, 2], [4, 2, 3, 3]]}, "answer": {"shaded": []}}',
        '{"answer": {"shaded": []}}',
    ],
)
def test_malformed_bodies_are_422(client, body: str) -> None:
    response = client.post("/verify/dabuhamienai", content=body)
    assert response.status_code == 422
    assert response.json()["detail"]


@pytest.mark.parametrize(
    ("shaded", "code"),
    [([[0, 0, 0, 0]] * 3, "wrong-dimensions"), ([[0, 0, 0, 2]] * 4, "bad-value"), ([[0, 0, 0]] * 4, "wrong-dimensions")],
)
def test_wrong_answer_shape_is_422_with_a_code(client, shaded, code: str) -> None:
    response = client.post("/verify/dabuhamienai", json={"puzzle": PUZZLE_4, "answer": {"shaded": shaded}})
    assert response.status_code == 422
    assert response.json()["violations"][0]["rule"] == code


def test_wrong_answer_is_200_with_violations(client) -> None:
    answer = {"shaded": [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}
    body = client.post("/verify/dabuhamienai", json={"puzzle": PUZZLE_4, "answer": answer}).json()
    assert body["solved"] is False
    assert {"shaded-adjacent", "duplicate-in-run"} <= {v["rule"] for v in body["violations"]}


def test_curl_style_form_content_type_is_read_as_json(client) -> None:
    import json

    response = client.post(
        "/solve/dabuhamienai",
        content=json.dumps({"puzzle": PUZZLE_4, "max_solutions": 3}),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 200 and response.json()["status"] == "multiple"


def test_solve_reports_none_unique_multiple(client) -> None:
    no_solution = {"size": 2, "numbers": [[1, 1], [1, 1]]}
    assert client.post("/solve/dabuhamienai", json={"puzzle": no_solution}).json()["status"] == "none"
    both = [client.post("/solve/dabuhamienai", json={"puzzle": PUZZLE_4, "backend": b}).json() for b in ("cadical", "z3")]
    assert all(r["status"] == "multiple" and r["complete"] and len(r["solutions"]) == 2 for r in both)
    assert both[0]["count"] == both[1]["count"] > 2  # counted to the end: the default count_limit is 1,000
    two = client.post("/solve/dabuhamienai", json={"puzzle": PUZZLE_4, "count_limit": 2}).json()
    assert (two["count"], two["complete"]) == (2, False)
    one = client.post("/solve/dabuhamienai", json={"puzzle": PUZZLE_4, "max_solutions": 1}).json()
    assert one["status"] == "multiple" and len(one["solutions"]) == 1
    assert client.post("/solve/dabuhamienai", json={"puzzle": PUZZLE_4, "max_solutions": 0}).status_code == 422
    assert client.post("/solve/dabuhamienai", json={"puzzle": PUZZLE_4, "backend": "magic"}).status_code == 422


def test_huge_body_is_413(client) -> None:
    response = client.post("/verify/dabuhamienai", content=b"[" + b"1," * 600_000 + b"1]")
    assert response.status_code == 413


def test_bad_daily_date_is_422(client) -> None:
    assert client.get("/daily/dabuhamienai", params={"date": "2026-13-40"}).status_code == 422
    assert client.get("/daily/dabuhamienai", params={"date": "1999-12-31"}).status_code == 422


def test_ubongo_size_aliases_pieces(client) -> None:
    by_size = client.post("/generate/ubongo", params={"size": 4, "seed": 5}).json()
    by_pieces = client.post("/generate/ubongo", params={"pieces": 4, "seed": 5}).json()
    assert by_size["id"] == by_pieces["id"] and len(by_size["puzzle"]["pieces"]) == 4
    assert client.post("/generate/ubongo", params={"size": 4, "pieces": 3}).status_code == 422
    assert "between 3 and 5" in client.post("/generate/ubongo", params={"size": 9}).json()["detail"][0]["msg"]


def test_body_that_is_not_utf8_is_422(client) -> None:
    invalid_utf8 = b'{"puzzle": "\xc3\x28"}'
    response = client.post("/verify/dabuhamienai", content=invalid_utf8, headers={"Content-Type": "application/json"})
    assert response.status_code == 422 and "UTF-8" in response.json()["detail"][0]["msg"]


ARTICLE_CSV = """  ,  6,  3, 21, 19
19,  2,  4,  8,  9
 9,  8,  7,  6,  3
11,  4,  8,  1,  7
10,  2,  3,  7,  7
"""
ARTICLE_ANSWER = [[1, 0, 1, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 1, 0]]


def test_number_sums_solves_the_articles_csv_as_text_and_as_a_field(client) -> None:
    as_text = client.post("/solve/number-sums", content=ARTICLE_CSV, headers={"Content-Type": "text/csv"})
    as_field = client.post("/solve/number-sums", json={"csv": ARTICLE_CSV, "max_solutions": 3})
    for response in (as_text, as_field):
        assert response.status_code == 200, response.text
        assert response.json()["status"] == "unique"
        assert response.json()["solutions"] == [{"selected": ARTICLE_ANSWER}]


@pytest.mark.parametrize(
    "body",
    ["  ,6,3\n19,2,x\n", "just one line", "  ,6,3\n19,2\n", "\xff\xfe"],
)
def test_malformed_csv_is_422_naming_the_problem(client, body: str) -> None:
    response = client.post("/solve/number-sums", content=body.encode("latin-1"), headers={"Content-Type": "text/csv"})
    assert response.status_code == 422
    assert "CSV" in response.json()["detail"][0]["msg"] or "line" in response.json()["detail"][0]["msg"]


@pytest.mark.parametrize("route", ["solve", "grade", "render"])
@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"], ids=["unix", "windows", "old-mac"])
def test_csv_with_any_common_line_end_is_read_by_every_route(client, route: str, line_end: str) -> None:
    text = line_end.join(ARTICLE_CSV.splitlines())
    for response in (client.post(f"/{route}/number-sums", json={"csv": text}),
                     client.post(f"/{route}/number-sums", json={"csv": ",1" + line_end + "2,1"})):
        assert response.status_code == 200, response.text
    as_body = client.post("/solve/number-sums", content=text.encode(), headers={"Content-Type": "text/csv"})
    assert as_body.json()["solutions"] == [{"selected": ARTICLE_ANSWER}]


def test_solve_wants_exactly_one_of_puzzle_and_csv(client) -> None:
    puzzle = {"numbers": [[1]], "row_sums": [1], "col_sums": [1]}
    assert client.post("/solve/number-sums", json={}).status_code == 422
    assert client.post("/solve/number-sums", json={"puzzle": puzzle, "csv": ARTICLE_CSV}).status_code == 422
    assert client.post("/solve/number-sums", json={"puzzle": puzzle}).json()["status"] == "unique"


def test_battleship_fleet_that_cannot_fit_is_422_about_the_query(client) -> None:
    # passes the quick size check, but the worker proves it cannot be placed
    response = client.post("/generate/battleship", params={"size": 6, "fleet": "5,5,5,5"})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][0] == "query" and "cannot be placed" in response.json()["detail"][0]["msg"]


# --- counting, backends and the defects a new user met ----------------------------------------------------


def test_solve_counts_past_what_it_returns(client, reference_dir) -> None:
    from tests.conftest import read_jsonl

    line = next(x for x in read_jsonl(reference_dir / "ubongo" / "m-kasahr-orig.jsonl")
                if x["id"] == "orig/board05-analyze-01/hidden")
    puzzle = {k: line[k] for k in ("shape", "catalogue", "mode", "piece_count")}
    body = client.post("/solve/ubongo", json={"puzzle": puzzle, "max_solutions": 2, "count_limit": 5000}).json()
    assert (body["count"], body["complete"], body["status"], len(body["solutions"])) == (938, True, "multiple", 2)
    default = client.post("/solve/ubongo", json={"puzzle": puzzle}).json()  # count_limit 1,000 covers 938 too
    assert (default["count"], default["complete"]) == (938, True)
    capped = client.post("/solve/ubongo", json={"puzzle": puzzle, "count_limit": 10}).json()
    assert (capped["count"], capped["complete"], len(capped["solutions"])) == (10, False, 2)
    for bad in (0, 100_001):
        assert client.post("/solve/ubongo", json={"puzzle": puzzle, "count_limit": bad}).status_code == 422


def test_ragged_ubongo_shape_solves(client) -> None:
    puzzle = {"shape": ["##", "#"], "catalogue": "standard", "mode": "given", "pieces": ["L3"]}
    body = client.post("/solve/ubongo", json={"puzzle": puzzle}).json()
    assert body["status"] == "unique" and sorted(body["solutions"][0]["placements"][0]["cells"]) == [[0, 0], [0, 1], [1, 0]]


SOLVABLE = {
    "dabuhamienai": PUZZLE_4,
    "battleship": {"rows": 6, "cols": 6, "fleet": [1], "row_counts": [1, 0, 0, 0, 0, 0], "col_counts": [1, 0, 0, 0, 0, 0],
                   "revealed": []},
    "number-sums": {"numbers": [[1, 2], [3, 4]], "row_sums": [1, 4], "col_sums": [1, 4]},
    "ubongo": {"shape": ["##", "#"], "catalogue": "standard", "mode": "given", "pieces": ["L3"]},
    "othello": {"board": "-OOOOO-XOOOOOOXXOXOXOOXXOOXOOOXXOOOOOXXXXXXOXXXX-XXXXXXX-OXXXXX-", "to_move": "X", "task": "best"},
    "sudoku": {"size": 4, "givens": [[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 3, 0]]},
    "nonogram": {"rows": 2, "cols": 3, "row_clues": [[2], [1]], "col_clues": [[1], [1], [1]]},
    "light-up": {"rows": 2, "cols": 3, "walls": [[None, 1, None], [None, None, -1]]},
    "slitherlink": {"rows": 2, "cols": 2, "clues": [[3, None], [None, 1]]},
    "masyu": {"rows": 3, "cols": 3, "pearls": [[None, "W", None], [None, None, None], [None, None, None]]},
    "hashi": {"rows": 2, "cols": 3, "islands": [[1, None, 3], [None, None, 2]]},
    "killer-sudoku": {"givens": [[0] * 9 for _ in range(9)], "cages": [
        {"cells": [[r, c]], "sum": (r * 3 + r // 3 + c) % 9 + 1} for r in range(9) for c in range(9) if (r, c) != (8, 8)]},
    "kenken": {"size": 3, "cages": [
        {"cells": [[0, 0], [0, 1]], "target": 3, "op": "+"}, {"cells": [[0, 2]], "target": 3},
        {"cells": [[1, 0], [2, 0]], "target": 6, "op": "*"}, {"cells": [[1, 1], [1, 2]], "target": 2, "op": "/"},
        {"cells": [[2, 1], [2, 2]], "target": 2, "op": "-"}]},
    "tents": {"rows": 2, "cols": 3, "trees": [[1, 0, 0], [0, 0, 1]], "row_counts": [1, 1], "col_counts": [0, 1, 1]},
    "hitori": {"size": 4, "numbers": [[1, 1, 1, 4], [1, 4, 2, 3], [3, 3, 2, 1], [4, 2, 1, 3]]},
    "takuzu": {"size": 4, "givens": [[1, None, None, None], [None, None, 0, None], [None, 1, None, None], [None] * 4]},
    "nurikabe": {"rows": 5, "cols": 5, "numbers": [[None, 5, None, None, None], [None, None, 2, None, None],
                                                   [None] * 5, [None, None, 1, None, None], [None, None, None, 3, None]]},
    "skyscrapers": {"size": 4, "top": [2, 2, 3, 1], "bottom": [3, 2, 1, 2], "left": [3, 1, 2, 3], "right": [1, 3, 3, 2],
                    "givens": [[None] * 4 for _ in range(4)]},
    "shikaku": {"rows": 2, "cols": 3, "numbers": [[2, None, 4], [None, None, None]]},
    "fillomino": {"rows": 6, "cols": 6, "givens": [[None, None, 4, None, None, None], [None, 5, 3, None, 2, None],
                                                   [None, None, None, None, 5, 2], [3, 3, None, None, None, None],
                                                   [None, 2, None, 1, 4, None], [None, None, None, 3, None, None]]},
    "kakuro": {"rows": 5, "cols": 5,
               "black": [[1, 0, 0, 1, 1], [0, 0, 0, 0, 1], [0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [1, 1, 0, 0, 1]],
               "across": [[8, None, None, None, None], [None] * 5, [None, None, 3, None, None], [21, None, None, None, None],
                          [None, 12, None, None, None]],
               "down": [[4, None, None, 10, None], [None, None, None, None, 10], [None, None, 17, None, None], [None] * 5,
                        [None] * 5],
               "left": [None, 10, 3, None, None], "top": [None, 12, 4, None, None]},
    "star-battle": {"size": 6, "stars": 1, "regions": [[0, 0, 0, 1, 1, 1], [0, 1, 1, 1, 2, 2], [0, 3, 3, 4, 4, 2],
                                                         [5, 5, 3, 3, 4, 2], [5, 4, 4, 4, 4, 2], [5, 2, 2, 2, 2, 2]]},
}


@pytest.mark.parametrize("name", TYPE_NAMES)
def test_every_advertised_backend_solves_and_no_other_is_accepted(client, name: str) -> None:
    listed = {t["name"]: t["backends"] for t in client.get("/types").json()}
    assert listed[name] == list(TYPES[name].backends) and listed[name]
    default = client.post(f"/solve/{name}", json={"puzzle": SOLVABLE[name]})
    assert default.status_code == 200, default.text
    for backend in listed[name]:
        response = client.post(f"/solve/{name}", json={"puzzle": SOLVABLE[name], "backend": backend})
        assert response.status_code == 200, (backend, response.text)
        same = ("status", "count", "complete") + (("solutions",) if default.json()["status"] == "unique" else ())
        assert {k: response.json()[k] for k in same} == {k: default.json()[k] for k in same}, backend
    refused = client.post(f"/solve/{name}", json={"puzzle": SOLVABLE[name], "backend": "magic"})
    assert refused.status_code == 422
    assert all(f"'{b}'" in refused.json()["detail"][0]["msg"] for b in listed[name]), refused.text


def test_othello_names_its_one_backend_honestly() -> None:
    assert TYPES["othello"].backends == ("engine",)


def test_repeated_query_parameter_is_422(client) -> None:
    response = client.post("/generate/dabuhamienai?size=6&size=7&seed=1")
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["query", "size"] and "once" in response.json()["detail"][0]["msg"]
    assert client.get("/daily/dabuhamienai?date=2026-01-01&date=2026-01-02").status_code == 422


def test_json_sent_as_text_plain_is_told_the_content_type(client) -> None:
    import json

    body = json.dumps({"puzzle": PUZZLE_4, "answer": {"shaded": [[0] * 4] * 4}})
    response = client.post("/verify/dabuhamienai", content=body, headers={"Content-Type": "text/plain"})
    assert response.status_code == 415
    message = response.json()["detail"][0]["msg"]
    assert "application/json" in message and "text/plain" in message and "numbers" not in response.text


def test_battleship_ids_come_from_normalised_parameters(client) -> None:
    ids = {client.post("/generate/battleship", params=p | {"seed": 3}).json()["id"]
           for p in ({"rows": 6, "cols": 7}, {"rows": 6, "cols": 7, "size": 9}, {"rows": 6, "cols": 7, "size": 12})}
    assert len(ids) == 1
    square = {client.post("/generate/battleship", params=p | {"seed": 3}).json()["id"]
              for p in ({"size": 6}, {"rows": 6, "cols": 6}, {"rows": 6, "cols": 6, "size": 8}, {"rows": 6, "size": 6})}
    assert len(square) == 1
    fleets = {client.post("/generate/battleship", params={"size": 7, "fleet": f, "seed": 3}).json()["id"]
              for f in ("3,2,1", "1,2,3", "2,3,1")}
    assert len(fleets) == 1


def test_player_messages_count_rows_and_columns_from_one(client) -> None:
    puzzle = {"rows": 6, "cols": 6, "fleet": [1], "row_counts": [0, 0, 0, 0, 0, 1], "col_counts": [0, 1, 0, 0, 0, 0],
              "revealed": []}
    ships = [[0] * 6 for _ in range(6)]
    ships[0][0] = 1  # the answer puts the ship in the first row; the counts want it in the sixth
    body = client.post("/verify/battleship", json={"puzzle": puzzle, "answer": {"ships": ships}}).json()
    row_sixth = next(v for v in body["violations"] if v["rule"] == "row-count-mismatch" and [5, 0] in v["cells"])
    assert row_sixth["message"].startswith("Row 6 ")
    touching = client.post("/verify/dabuhamienai", json={"puzzle": PUZZLE_4, "answer": {
        "shaded": [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}}).json()
    adjacent = next(v for v in touching["violations"] if v["rule"] == "shaded-adjacent")
    assert adjacent["cells"] == [[0, 0], [0, 1]] and "row 1, column 1" in adjacent["message"]
    assert "row 1, column 2" in adjacent["message"]


def test_oversized_fleet_message_makes_sense(client) -> None:
    response = client.post("/generate/battleship", params={"size": 6, "fleet": "5,5,5,5,5,5,5,5,5"})
    assert response.status_code == 422
    message = response.json()["detail"][0]["msg"]
    assert "cannot fit a 6×6 grid" in message and "of 49" not in message


def test_docs_are_served_without_any_other_host(client) -> None:
    import re

    page = client.get("/docs")
    assert page.status_code == 200
    urls = re.findall(r"""(?:src|href|url)\s*[:=]\s*['"]([^'"]+)['"]""", page.text)
    assert urls and all(url.startswith("/") for url in urls), urls
    assert "cdn" not in page.text.lower() and "https://" not in page.text.replace("https://fastapi.tiangolo.com", "")
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_counting_past_the_time_budget_is_503(make_client) -> None:
    import time

    client = make_client(solve_budget_seconds=0.5)
    small = {"puzzle": SOLVABLE["ubongo"]}
    for _ in range(60):  # until the worker has started and imported the solvers, so the budget is the count's
        if client.post("/solve/ubongo", json=small).status_code == 200:
            break
        time.sleep(0.5)
    big = {"shape": ["#" * 8] * 6, "catalogue": "standard", "mode": "hidden", "piece_count": 12}  # all 12 pieces, 48 cells
    response = client.post("/solve/ubongo", json={"puzzle": big, "max_solutions": 1, "count_limit": 100_000})
    assert response.status_code == 503 and "Retry-After" in response.headers, response.text
