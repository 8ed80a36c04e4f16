"""The front page and the daily's picture and play page, through the HTTP client: what the page links to,
that drawing it makes no puzzle, and that each daily URL takes the daily's own query. The page in a
browser (pictures shown, links followed, phone width) is in test_play_browser.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.cli.plan import plan_tasks
from app.routes.front import readme_curl_examples
from app.store import PuzzleRow
from generators.registry import TYPES
from tests.conftest import REPO

DAY = "2026-11-22"
GENERATE_BUDGET_SECONDS = 60  # the `client` fixture's: dailies made on a loaded machine (Othello's first ~10 s)


def stored_count(client) -> int:
    with Session(client.app.state.service.store.engine) as session:
        return session.scalar(select(func.count()).select_from(PuzzleRow))


def pictures_on(page: str) -> list[str]:
    return [src.replace("&amp;", "&") for src in re.findall(r'<img src="([^"]+)"', page)]


def test_front_page_draws_at_once_making_no_puzzle(make_client) -> None:
    client = make_client()
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert stored_count(client) == 0  # the dailies are made by their pictures' requests, one each
    assert page.headers["cache-control"] == "no-cache"  # "today" moves on at midnight
    for link in ('href="/docs"', 'href="#curl"', 'id="curl"'):
        assert link in page.text


def test_front_page_shows_the_dailies_pregenerate_makes_ahead(client) -> None:
    """Each type at each level its default parameters allow: exactly what `puzzlegen pregenerate` stores
    for today, so a cron job leaves no picture for a visitor to wait for."""
    page = client.get("/").text
    today = datetime.now(UTC).date()
    planned = {(task.puzzle_type.name, task.stored_params.get("difficulty"))
               for task in plan_tasks(list(TYPES.values()), today, 1, 0)}
    shown = {(m[1], m[2]) for m in (re.fullmatch(r"/daily/([a-z-]+)\.svg\?difficulty=(\w+)", src) for src in pictures_on(page))}
    assert shown == planned
    assert {name for name, _ in shown} == set(TYPES)
    assert {level for name, level in shown if name == "othello"} == set(TYPES["othello"].difficulty.names)  # no default level
    for name, level in shown:
        assert f'href="/play/daily/{name}?difficulty={level}"' in page
    levels = sum(len(t.difficulty.names) if t.difficulty else 1 for t in TYPES.values())
    missing = levels - len(shown)  # a level the default size cannot have says why instead
    assert page.count('class="note"') == missing
    if missing:
        assert "needs a grid of at least" in page


def test_front_page_of_another_day_and_its_mistakes(client) -> None:
    page = client.get("/", params={"date": DAY})
    assert page.status_code == 200 and "Puzzles of 22 November 2026" in page.text
    assert all(src.endswith(f"&date={DAY}") for src in pictures_on(page.text))
    too_late = (datetime.now(UTC).date() + timedelta(days=400)).isoformat()
    refused = client.get("/", params={"date": too_late})
    assert refused.status_code == 422 and "date must be between 2000-01-01" in refused.json()["detail"][0]["msg"]
    assert client.get("/", params={"day": DAY}).status_code == 422  # a typo is not silently today


def test_front_page_shows_the_readmes_curl_examples_for_this_server(client) -> None:
    page = client.get("/", headers={"host": "puzzles.example:8080"}).text
    block = readme_curl_examples()
    assert block is not None and "curl" in block
    shown = re.search(r'<pre><code>(.*?)</code></pre>', page, re.DOTALL).group(1)
    assert "puzzles.example:8080/types" in shown and "localhost:8000" not in shown
    assert shown.count("\n") == block.count("\n")
    assert "## Using it with curl" in (REPO / "README.md").read_text()


@pytest.mark.parametrize("name", sorted(TYPES))
def test_daily_picture_is_the_dailys_picture_cached_like_a_records(client, name: str) -> None:
    level = (TYPES[name].difficulty.names[0],) if TYPES[name].difficulty else ()
    query = {"date": DAY, **({"difficulty": level[0]} if level else {})}
    picture = client.get(f"/daily/{name}.svg", params=query)
    assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
    record = client.get(f"/daily/{name}", params=query).json()
    stored = client.get(f"/puzzles/{record['id']}.svg")
    assert picture.content == stored.content
    for header in ("etag", "cache-control"):
        assert picture.headers[header] == stored.headers[header]
    assert client.get(f"/daily/{name}.svg", params=query, headers={"If-None-Match": picture.headers["etag"]}).status_code == 304
    today = client.get(f"/daily/{name}.svg", params={k: v for k, v in query.items() if k != "date"})
    max_age = int(today.headers["cache-control"].rsplit("=", 1)[1])
    assert today.status_code == 200 and max_age <= 3600  # today's picture is kept no later than midnight UTC


def test_daily_picture_and_play_page_refuse_what_the_daily_refuses(client) -> None:
    for path in ("/daily/dabuhamienai.svg", "/play/daily/dabuhamienai"):
        typo = client.get(path, params={"sise": 6})
        assert typo.status_code == 422 and typo.json()["detail"][0]["loc"] == ["query", "sise"]
        assert client.get(path, params={"size": 99}).status_code == 422
        assert client.get(path, params={"difficulty": "impossible"}).status_code == 422
    for path in ("/daily/no-such-type.svg", "/play/daily/no-such-type"):
        missing = client.get(path)
        assert missing.status_code == 404 and "Known types" in missing.json()["detail"]


def test_play_daily_shows_the_daily_its_query_asks_for(client) -> None:
    for query in ({"difficulty": "hard", "date": DAY}, {"difficulty": "easy", "size": 6, "date": DAY}):
        record = client.get("/daily/dabuhamienai", params=query).json()
        page = client.get("/play/daily/dabuhamienai", params=query).text
        assert f'<span data-id>{record["id"]}</span>' in page
        assert f'level: {record["difficulty"]["level"]}' in page
